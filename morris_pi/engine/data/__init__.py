"""Endgame tables shipped with the engine (built by ``python -m morris_pi.engine.egtb_build``)."""
