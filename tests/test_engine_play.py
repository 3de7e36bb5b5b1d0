"""The engine as a player: legal turns in every profile, seeds, levels, threads, repetitions."""

from __future__ import annotations

import random

import pytest

from morris_pi.core.ports import Opponent
from morris_pi.engine.levels import LEVELS, NOISE_MARGIN, Level, think
from morris_pi.engine.movegen import TurnGenerator
from morris_pi.engine.nodes import NodeSearch
from morris_pi.engine.player import EnginePlayer
from morris_pi.engine.search import Limits, Searcher
from morris_pi.rules import PROFILES, Game
from morris_pi.rules.position import Position, tables_for

# A real game (seeded engine self-play, level 6 against level 3) into the moving phase.
MIDGAME = "d6 b4 f4 e4 d5 d7 f6 c4 f2xd7 a4xd5 b2 b6 d2xb6 g7 d7 b6 d5xb6 b6 d2-d1 a4-a1"


def random_games(profile: str, count: int, seed: int):
    """Games of random legal turns, stopped at random lengths: positions of every phase."""
    rng = random.Random(seed)
    for _ in range(count):
        game = Game(profile)
        for _ in range(rng.randrange(0, 90)):
            turns = game.legal_turns()
            if not turns:
                break
            game.play(rng.choice(turns))
        yield game


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_engines_step_test_agrees_with_the_rules(profile):
    # The turns themselves come from the rules' generator; "can the side step at all" (the
    # N-move rule, the horizon) is the engine's own.
    moves = TurnGenerator(tables_for(profile))
    for game in random_games(profile, 40, seed=len(profile)):
        for pos in game.positions:
            me, op, hme = pos.men[pos.side], pos.men[pos.side ^ 1], pos.hand[pos.side]
            if pos.count(pos.side) >= 3:  # below three the game is lost before stepping matters
                assert moves.can_step(me, op, hme) == bool(pos.steps()), pos


def _point(mask: int) -> int:
    return mask.bit_length() - 1 if mask else -1


class WatchedNodes(NodeSearch):
    """Records, for every node the search expands, the turns in the order it tries them.

    A turn is read off the boards of the node and of the child searched after it (the
    child's opponent is the mover after the turn), so the record does not depend on how
    the search makes its children.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tried: list[list[tuple[int, int, int]]] = []
        self._open: list[tuple[int, int, list[tuple[int, int, int]]]] = []

    def _pvs(self, me, op, *args):
        if self._open:
            mover, other, turns = self._open[-1]
            turns.append((_point(mover & ~op), _point(op & ~mover), _point(other & ~me)))
        self._open.append((me, op, []))
        try:
            return super()._pvs(me, op, *args)
        finally:
            turns = self._open.pop()[2]
            self.tried.append(list(dict.fromkeys(turns)))  # a re-search tries a turn twice


class WatchedSearcher(Searcher):
    node_search = WatchedNodes


def test_move_ordering_tries_mill_closing_turns_before_quiet_ones():
    searcher = WatchedSearcher("standard", endgame=None)
    game = Game.from_record(MIDGAME)
    searcher.search(game.position, game.positions, Limits(depth=4))
    assert isinstance(searcher.current, WatchedNodes)
    mixed = 0
    for order in searcher.current.tried:
        # the transposition table's turn may come first; after it, every capture precedes every quiet turn
        captures = [t[2] >= 0 for t in order[1:]]
        assert captures == sorted(captures, reverse=True), order
        mixed += True in captures and False in captures
    assert mixed >= 5  # nodes that offered both kinds of turn were searched


class ReversedNodes(NodeSearch):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        generate = self.generate
        self.generate = lambda me, op, hme: generate(me, op, hme)[::-1]


class ReversedGenerator(Searcher):
    node_search = ReversedNodes


def test_the_search_orders_turns_itself_whatever_order_they_are_generated_in():
    game = Game.from_record(MIDGAME)
    plain = Searcher("standard", endgame=None).search(game.position, game.positions, Limits(depth=5))
    turned = ReversedGenerator("standard", endgame=None).search(game.position, game.positions, Limits(depth=5))
    assert (turned.turn, turned.score, turned.nodes, turned.pv) == (plain.turn, plain.score, plain.nodes, plain.pv)


def forcing_turns(position: Position) -> list[tuple[int, int, int]]:
    """Turns after which every reply (none of them a mill) lets the mover close a mill: by the rules alone."""
    out = []
    for turn in position.turns():
        after = position.play(turn)
        replies = after.turns()
        if replies and all(r[2] < 0 and any(u[2] >= 0 for u in after.play(r).turns()) for r in replies):
            out.append(turn)
    return out


# Random games (seeded) where no mill can be closed at once but one turn forces a mill:
# it opens two mills at the same time, or one the opponent cannot block.
@pytest.mark.parametrize(
    "record",
    [
        "b2 e3 f4 b6 g1 a1 a7 c5 c3",
        "a4 e4 e5 g1 d2 e3 g7 a7 c4 b6 b2 a1 d6 d5 c3 c5 d3 g4 a4-b4",
        "e5 g7 c5 d6 d7 a7 a4 c3 e3 d5 f6 f4 g4 f2 d3 b6 b4 c4",
    ],
)
def test_the_search_finds_a_forced_mill(record):
    game = Game.from_record(record)
    position = game.position
    assert not any(t[2] >= 0 for t in position.turns())
    forcing = forcing_turns(position)
    assert len(forcing) == 1
    result = Searcher("standard", endgame=None).search(position, game.positions, Limits(depth=3))
    assert result.turn == forcing[0]
    # the mill is counted as won: the forcing turn scores ahead (the space terms weigh
    # against the man in one of these positions, so not always by half a man)
    assert result.score > 0
    assert result.pv[:1] == forcing and len(result.pv) == 3 and result.pv[2][2] >= 0


# The positions above after their forcing turn: the side to move cannot stop the mill.
@pytest.mark.parametrize(
    "record",
    [
        "b2 e3 f4 b6 g1 a1 a7 c5 c3 e5",
        "a4 e4 e5 g1 d2 e3 g7 a7 c4 b6 b2 a1 d6 d5 c3 c5 d3 g4 a4-b4 g1-d1",
        "e5 g7 c5 d6 d7 a7 a4 c3 e3 d5 f6 f4 g4 f2 d3 b6 b4 c4 e3-e4",
    ],
)
def test_two_turns_deep_the_search_sees_the_mill_it_cannot_stop(record):
    # one turn deep the evaluation only guesses the opponent's threat; two turns deep the
    # mill is closed on the board and the man counted as lost
    game = Game.from_record(record)

    def score(depth: int) -> int:
        return Searcher("standard", endgame=None).search(game.position, game.positions, Limits(depth=depth)).score

    assert score(1) > score(2) + 50


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_engine_never_plays_an_illegal_turn(profile):
    rng = random.Random(profile)
    for i, game in enumerate(random_games(profile, 12, seed=hash(profile) & 0xFFFF)):
        if game.is_over:
            continue
        if rng.random() < 0.5:
            # leave a mill-closing step pending when there is one: the engine must complete it
            for turn in game.legal_turns():
                if turn.removal:
                    game.play(str(turn.step))
                    break
        player = EnginePlayer(level=rng.choice([1, 2, 4, 6]), seed=i, threaded=False)
        player.start(game)
        turn = player.result()
        assert turn in game.legal_turns(), (game.record, turn)
        game.play(turn)


def test_engine_player_is_an_opponent():
    assert isinstance(EnginePlayer(1), Opponent)


def play_out(white: EnginePlayer, black: EnginePlayer, turns: int, record: str = "") -> Game:
    game = Game.from_record(record)
    for _ in range(turns):
        if game.is_over:
            break
        player = white if game.turn == "white" else black
        player.start(game)
        game.play(player.result())
    return game


def test_a_seed_makes_play_repeat_exactly():
    a = play_out(EnginePlayer(4, seed=7, threaded=False), EnginePlayer(2, seed=8, threaded=False), 24)
    b = play_out(EnginePlayer(4, seed=7, threaded=False), EnginePlayer(2, seed=8, threaded=False), 24)
    assert a.record == b.record
    c = play_out(EnginePlayer(4, seed=9, threaded=False), EnginePlayer(2, seed=8, threaded=False), 24)
    assert c.record != a.record  # the noise follows the seed


def test_same_position_same_turn_whatever_came_before():
    # a seeded player keeps no state between turns: a fresh one agrees mid-game
    game = Game.from_record(MIDGAME)
    used = EnginePlayer(6, seed=3, threaded=False)
    play_out(used, used, 6)  # warm its tables on another game
    fresh = EnginePlayer(6, seed=3, threaded=False)
    used.start(game)
    fresh.start(game)
    assert used.result() == fresh.result()


def test_levels_are_defined_one_to_ten():
    assert sorted(LEVELS) == list(range(1, 11))
    with pytest.raises(ValueError, match="levels are 1 to 10"):
        EnginePlayer(11)


def test_threaded_search_does_not_block_and_cancel_stops_it():
    game = Game.from_record(MIDGAME)
    player = EnginePlayer(10, threaded=True)
    # a budget far beyond a test's patience: only cancel can end it
    player.level = Level(10, 10**9, 3600.0, None, 0, "endless")
    player.start(game)
    assert player.thinking
    assert player.result() is None
    player.cancel()
    assert player.join(timeout=5.0), "search thread still running after cancel"
    assert not player.thinking
    assert player.result() is None  # a cancelled search never delivers a turn


def test_closing_stops_the_search_for_good_and_may_be_repeated():
    game = Game.from_record(MIDGAME)
    with EnginePlayer(10, threaded=True) as player:
        player.level = Level(10, 10**9, 3600.0, None, 0, "endless")
        player.start(game)
        assert player.thinking and not player.closed
        assert "thinking" in repr(player)
    assert player.closed and not player.thinking and not player.holds_tables
    assert player.join(0)
    player.close()  # again: nothing happens
    assert player.closed and repr(player) == "<EnginePlayer level=10 hint_level=10 seed=None closed>"
    with pytest.raises(RuntimeError, match="closed"):
        player.start(game)
    assert player.result() is None


def test_threaded_search_delivers_a_legal_turn():
    game = Game.from_record(MIDGAME)
    player = EnginePlayer(3, seed=1, threaded=True)
    player.start(game)
    assert player.join(timeout=30.0)
    turn = player.result()
    assert turn in game.legal_turns()
    assert player.result() is None  # delivered once


def test_restart_supersedes_the_running_search():
    game = Game.from_record(MIDGAME)
    player = EnginePlayer(3, seed=1, threaded=True)
    player.level = Level(3, 10**9, 3600.0, None, 0, "endless")
    player.start(game)
    player.level = LEVELS[2]
    game.play(game.legal_turns()[0])  # the human took back and played something else
    player.start(game)
    assert player.join(timeout=30.0)
    assert player.result() in game.legal_turns()


def test_hint_is_for_the_side_to_move_and_noise_free():
    game = Game.from_record(MIDGAME)
    weak = EnginePlayer(1, seed=5, threaded=False)
    weak.hint_level = LEVELS[7]
    weak.start(game, hint=True)
    hint = weak.result()
    # the plain search at level 7's budget, without level 7's noise
    best = Searcher("standard").search(game.position, game.positions, Limits(nodes=LEVELS[7].nodes)).turn
    assert hint.to_raw() == best


def test_game_over_gives_no_turn():
    game = Game.from_record(
        "d6 b4 f4 e4 d5 d7 f6 c4 f2xd7 a4xd5 b2 b6 d2xb6 g7 d7 b6 d5xb6 b6 d2-d1 a4-a1 d1-d2xc4 g7-g4 "
        "d2-d1 g4-g7 f4-g4 b4-c4 g4-f4xb6 a1-a4 d6-b6 c4-c5 f6-d6xg7 a4-a7 d1-d2xa7"
    )
    assert game.is_over
    player = EnginePlayer(2, seed=1, threaded=False)
    player.start(game)
    assert player.result() is None


def test_a_repeated_position_scores_as_a_draw():
    game = Game.from_record(MIDGAME)
    # both sides step out and back: the position now stands for the second time
    for text in ("d1-g1", "g7-g4", "g1-d1", "g4-g7"):
        game.play(text)
    assert game.repetitions() == 2
    searcher = Searcher("standard")
    result = searcher.search(game.position, game.positions, Limits(depth=3), all_scores=True)
    again = game.copy()
    again.play("d1-g1")
    assert again.repetitions() == 2  # this turn recreates an earlier position
    assert result.root_scores[again.history[-1].to_raw()] == 0


def test_the_n_move_limit_scores_quiet_turns_as_draws():
    game = Game.from_record(MIDGAME)
    pos = game.position
    near_limit = Position(pos.tables, pos.men, pos.hand, pos.side, pos.profile.n_move_limit - 1)
    result = Searcher("standard").search(near_limit, limits=Limits(depth=3), all_scores=True)
    assert result.root_scores
    for turn, score in result.root_scores.items():
        if turn[2] < 0:
            assert score == 0, turn


@pytest.mark.parametrize("record", [MIDGAME, "d6 f4 d2 b4 b6 f6 f2"])
def test_a_margin_search_proves_exactly_the_root_turns_near_the_best(record):
    # what the noisy levels choose from: the same best score as a normal search, and the
    # exact scores of all turns within the margin (checked against full-window scores)
    game = Game.from_record(record)
    limits = Limits(depth=3)
    full = Searcher("standard", aspiration=0).search(game.position, game.positions, limits, all_scores=True)
    near = Searcher("standard").search(game.position, game.positions, limits, margin=60)
    plain = Searcher("standard").search(game.position, game.positions, limits)
    assert near.score == plain.score == full.score
    expected = {t: s for t, s in full.root_scores.items() if s > full.score - 60}
    assert {t: s for t, s in near.root_scores.items() if s > near.score - 60} == expected
    assert len(expected) < len(full.root_scores), "some turns are outside the margin"


def test_noisy_levels_choose_only_among_turns_within_their_margin():
    game = Game.from_record("d6 f4 d2 b4 b6 f6 f2")
    level = LEVELS[3]
    chosen = set()
    for seed in range(12):
        turn, result = think(
            Searcher("standard"), game.position, game.positions, level, random.Random(seed), seeded=True
        )
        assert result.root_scores[turn] >= result.score - NOISE_MARGIN * level.noise
        chosen.add(turn)
    assert len(chosen) > 1, "the noise varies the choice"
