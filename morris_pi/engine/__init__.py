"""Floor 2: the computer player. Imports only ``morris_pi.rules`` and the standard library.

- ``search``: iterative-deepening PVS with a transposition table (``Searcher``).
- ``movegen``: the rules' turn generator on bitboards, and the engine's mill-closing list.
- ``evaluate``: the phase-aware evaluation and its tuned weights.
- ``egtb``: the flying endgame tables (built by ``egtb_build``, which needs numpy).
- ``levels``: levels 1-10 as node/time budgets and noise.
- ``player``: ``EnginePlayer``, the background opponent the board talks to.
- ``tune``: self-play matches and the weight tuning.
"""
