"""The story decoder against the computer: a hand carries out the turns the LEDs prompt.

The computer's side plays only its prompted turn. A hand may be ahead of the LEDs (the human's
own turn not yet committed, the search still running); what it does then is read, but not
written until the prompt says it is the computer's turn.
"""

from __future__ import annotations

import pytest
from decoder_support import feed, mask, replay_steps, settle

from morris_pi.rules import Game, Turn
from morris_pi.tracker.decoder import StoryDecoder
from morris_pi.tracker.evidence import Evidence
from morris_pi.tracker.stories import Prompt, explain, read_stories

BLACK = 1


def told(record: str, changes: dict[str, list[tuple[float, bool]]], prompt: Prompt) -> list[str]:
    game = Game.from_record(record)
    evidence = Evidence.static(mask(*game.board), changes, 5.0)
    return [str(s) for s in read_stories(game.position, evidence, prompt=prompt)]


def prompted(record: str, turn: str) -> Prompt:
    """The computer (black) prompted to play ``turn`` after ``record``."""
    return Prompt(BLACK, {Game.from_record(record).position: (Turn.parse(turn).to_raw(), 0.0)})


def first_legal(game: Game) -> Turn:
    """The computer replay plays without a level."""
    return game.legal_turns()[0]


def test_where_the_computer_was_prompted_its_side_plays_only_that_turn() -> None:
    black_lands_a1 = {"a1": [(1.0, True)]}
    assert told("d6", black_lands_a1, prompted("d6", "a1"))[0] == "a1"
    # prompted g7, the man put on a1 is a mistake on the board, never the computer's turn
    assert not any("a1" in s.split() for s in told("d6", black_lands_a1, prompted("d6", "g7")))


def test_a_hand_far_ahead_of_the_leds_is_read_and_written_as_the_prompts_come() -> None:
    # white d6; the hand carries out black's a7, white's g7 and black's a1 before the computer
    # was asked for either of its turns: each is written once it has been prompted
    d = StoryDecoder(computer="black")
    feed(
        d, [(0.0, ()), (1.0, ("d6",)), (1.5, ("d6", "a7")), (2.0, ("d6", "a7", "g7")), (2.5, ("d6", "a7", "g7", "a1"))]
    )
    settle(d, 5.0)
    assert d.record == "d6" and d.best is not None and str(d.best) == "a7 g7 a1"
    d.prompt("a7")
    settle(d, 5.1)
    assert d.record == "d6 a7 g7" and [g.record for g in d.asking] == ["d6 a7 g7"]
    d.prompt("a1")
    settle(d, 5.2)
    assert d.record == "d6 a7 g7 a1"


def test_a_computer_turn_carried_out_before_it_is_prompted_waits_for_the_prompt() -> None:
    d = StoryDecoder(computer="black")
    feed(d, [(0.0, ()), (1.0, ("d6",)), (1.6, ("d6", "a7"))])  # the hand is ahead of the LEDs
    settle(d, 6.0)
    assert d.record == "d6" and [g.record for g in d.asking] == ["d6"]
    assert d.prompt("a7")
    settle(d, 6.1)
    assert d.record == "d6 a7" and not d.asking


def test_a_hand_that_plays_another_turn_than_prompted_is_never_written() -> None:
    d = StoryDecoder(computer="black")
    feed(d, [(0.0, ()), (1.0, ("d6",))])
    settle(d, 3.0)
    assert d.record == "d6" and d.prompt("g7")
    feed(d, [(4.0, ("d6", "a7"))])  # the LEDs show g7; the man goes to a7
    settle(d, 20.0)
    assert d.record == "d6"
    assert not any("a7" in str(s).split() for s in d.stories)


def test_the_readings_asking_for_a_prompt_are_copies_the_caller_cannot_change() -> None:
    d = StoryDecoder(computer="black")
    feed(d, [(0.0, ()), (1.0, ("d6",))])
    settle(d, 3.0)
    asked = d.asking[0]
    asked.play(Turn.parse("a7"))  # a search that plays its line out on the game it was given
    assert d.record == "d6" and [g.record for g in d.asking] == ["d6"]


def test_a_prompt_that_is_not_the_computers_turn_is_ignored_and_an_illegal_one_refused() -> None:
    d = StoryDecoder(computer="white")
    assert d.asking and not StoryDecoder(computer="black").asking
    assert not StoryDecoder(computer="black").prompt("d6")  # white is to move
    with pytest.raises(ValueError, match="a1-a4"):
        d.prompt("a1-a4")
    with pytest.raises(ValueError, match="computer must be"):
        StoryDecoder(computer="green")  # type: ignore[arg-type]


def test_a_man_resting_astray_before_the_computers_prompted_turn_is_not_its_turn() -> None:
    # The opening of a club game against the computer (black), frozen from the physical
    # generator at 25 % mess. White's hand slides over d2, d3 and d5 and puts d6 down. The hand
    # that carries out black's turn sets a man down on d3 (the switch's report lost, a scan
    # shows it), takes him up again and puts him on a7, the prompted point. Read as a game
    # between two people, d3 is black's placement; against the computer it is not.
    steps = [
        (4.50344, "-d1"), (4.53485, "+d2"), (4.53498, "-d2"), (4.53507, "+d2"), (4.64034, "-d2"),
        (4.64059, "+d2"), (4.64076, "-d2"), (4.64092, "+d2"), (4.64109, "-d2"), (4.64136, "+d2"),
        (4.64153, "-d2"), (4.69934, "+d3"), (4.807, "scan"), (4.83895, "-d3"), (4.88477, "+d5"),
        (4.95421, "-d5"), (4.95448, "+d5"), (4.95461, "-d5"), (4.98052, "+d6"), (6.60145, "scan +d3"),
        (7.82906, "-d3"), (7.82911, "+d3"), (7.82938, "-d3"), (7.82964, "+d3"), (7.82981, "-d3"),
        (7.82993, "+d3"), (7.83005, "-d3"), (8.23428, "+a7"), (8.33093, "-a7"), (8.3859, "+a7"),
        (8.38606, "-a7"), (8.38628, "+a7"),
    ]  # fmt: skip
    against = StoryDecoder(profile="club", computer="black")
    replay_steps(against, set(), steps, first_legal)
    settle(against, 11.0, first_legal)
    assert against.record == "d6 a7"


MEN = ("a7", "a1", "d7", "d1")


def white_closes_a_mill_and_both_a1_and_d1_open(then: list[tuple[float, tuple[str, ...]]]) -> StoryDecoder:
    """Against the computer (black) after a7 a1 d7 d1: white's man lands on g7 at 1 s, closing
    a7-d7-g7; a1 opens at 2 s and d1 at 2.3 s; ``then``, what the board shows after."""
    d = StoryDecoder(Game.from_record("a7 a1 d7 d1"), computer="black")
    feed(d, [(0.0, MEN), (1.0, (*MEN, "g7")), (2.0, ("a7", "d7", "d1", "g7")), (2.3, ("a7", "d7", "g7")), *then])
    return d


def test_the_computers_prompt_tells_apart_turns_whose_stories_meet_through_its_reply() -> None:
    # White closes a7-d7-g7 and takes a1 or d1: a1 opens, d1 opens, a1 closes 1.3 s after he
    # opened, and d1 closes 3.7 s later. "g7xd1, black d1" (a1 knocked) and "g7xa1, black a1" (d1
    # knocked for longer) reach one position, and the first is cheaper; but black's reply is the
    # computer's, and only the reading whose prompt the hand carried out is written. The LEDs
    # prompt one turn, in the cheapest reading; when the hand carries out another, the reading it
    # followed is asked in next. (The man on d1, put down before any prompt, is in the first
    # reading a wrong guess of the computer's turn: that reading is given up once the hand
    # leaves him there, not the moment the LEDs show g1.)
    d = white_closes_a_mill_and_both_a1_and_d1_open([(3.3, ("a7", "a1", "d7", "g7")), (7.0, (*MEN, "g7"))])
    settle(d, 15.0)
    assert d.record == "a7 a1 d7 d1"  # neither white turn is written on the cost of the timing alone
    assert [g.record for g in d.asking] == ["a7 a1 d7 d1 g7xd1"]
    d.prompt("g1", d.asking[0])
    settle(d, 15.1)
    # the hand put no man on g1: the reading it followed is the cheapest now, and asked in at once
    assert [g.record for g in d.asking] == ["a7 a1 d7 d1 g7xa1"]
    d.prompt("a1", d.asking[0])
    settle(d, 21.0)
    assert d.record == "a7 a1 d7 d1 g7xa1 a1"


def test_a_humans_turn_is_written_though_the_computers_reply_was_put_down_before_its_prompt() -> None:
    # White closes a7-d7-g7 and takes a1, d1 is lifted and put back meanwhile, and the hand puts
    # the computer's man on a1 before any prompt. One good story reads that landing as black's
    # turn, which is not written before its prompt; another, as cheap, reads it as noise not over
    # yet, and by it a1 no longer shows what white's turn left there. White's turn is done all
    # the same, or the computer is never asked and the board waits for good.
    d = white_closes_a_mill_and_both_a1_and_d1_open([(3.3, ("a7", "d7", "d1", "g7")), (6.0, (*MEN, "g7"))])
    settle(d, 15.0)
    assert d.record == "a7 a1 d7 d1 g7xa1"
    assert [g.record for g in d.asking] == ["a7 a1 d7 d1 g7xa1"]
    d.prompt("a1", d.asking[0])
    settle(d, 15.1)
    assert d.record == "a7 a1 d7 d1 g7xa1 a1"


def test_a_computer_turn_carried_out_a_moment_after_the_humans_is_priced_as_a_guess() -> None:
    # White (the human) puts a man on d6; black's man lands on a1 a moment later, or a second
    # and a half later. The LEDs prompt black's turn only once white's has been read, so a hand
    # that carries it out a tenth of a second after white's landing guessed it: that story costs
    # more, and one that waited for the prompt costs nothing more for its pause.
    def reply_cost(after: float) -> float:
        evidence = Evidence.static(0, {"d6": [(1.0, True)], "a1": [(1.0 + after, True)]}, 6.0)
        prompt = Prompt(BLACK)
        story = next(s for s in read_stories(Game().position, evidence, prompt=prompt) if str(s) == "d6 a1")
        # black plays the odd plies from the start
        return sum(p.cost for p in explain(evidence, story, replies=1) if p.role == "reply")

    assert reply_cost(0.1) > 3.0
    assert reply_cost(1.5) == 0.0
