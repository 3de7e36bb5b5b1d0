"""Floor 2: the computer player. Imports only ``morris_pi.rules`` and the standard library.

- ``search``: iterative-deepening PVS (``Searcher``), one ``nodes.NodeSearch`` per search.
- ``table``: the transposition table (``TranspositionTable``, ``TableEntry``).
- ``movegen``: the rules' turn generator on bitboards, and the engine's step and mill tests.
- ``evaluate``: the phase-aware evaluation and its tuned weights.
- ``egtb``: the flying endgame tables (built by ``egtb_build``, which needs numpy).
- ``levels``: levels 1-10 as node/time budgets and noise.
- ``player``: ``EnginePlayer``, the background opponent the board talks to.
- ``tune``: self-play matches and the weight tuning.
"""
