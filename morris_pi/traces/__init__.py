"""Sensor traces of made-up games, as the reed switches would report them: three generators.

Each generator turns a game into the JSON Lines of a ``morris-pi replay`` trace, with the mess
of real hands, and knows what replay must end with; they share no code, so that one's blind
spot is not the other's:

- ``simple``: a game (random, or given) played with bounce, slides, nudges, lifts, removals
  done first and missed events. The tests' generator; the corpus's ``tracing-*`` traces.
- ``physical``: whole games steered to every ending, played by people and switches modelled
  apart (hands, contacts, the switch layer); each of its kinds of mess is counted.
  ``bench/soak.py`` measures the tracker on it.
- ``second_hands``: a second model of hands, magnets and reed switches, written apart from
  the tracker and from ``physical``, with every turn checked for decidability.

``morris-pi traces GENERATOR OUT`` writes a generator's games into a folder (``writing``), each
``NAME.jsonl`` with its ``NAME.expected.json`` and a ``summary.json`` of the mess played.
``heldout`` measures a tracker on generated games (exact, stop short, wrong) and keeps the
held-out table.
"""

#: The generators, by the name of their module and of their ``morris-pi traces`` subcommand.
GENERATORS = ("simple", "physical", "second_hands")
#: Who plays a generated game, as the trace header says it: two people, or the computer as white
#: or as black (replay plays the computer's side).
MODES = ("two-player", "computer-white", "computer-black")
