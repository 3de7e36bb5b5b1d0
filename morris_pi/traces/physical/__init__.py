"""Messy sensor traces of whole games, modelled on the physical board and the people at it.

Independent of the tracker: it knows the rules, the trace format and nothing
else. ``generate`` gives a ``PhysicalTrace``: the JSON Lines for
``morris-pi replay``, the exact record and outcome replay must end with, and
how often each kind of mess (``KINDS``) actually happened.
"""

from .. import MODES
from .computer import Engine, FirstLegal
from .mess import CLEAN, DEFAULT_KINDS, KINDS, noise
from .people import endings
from .playing import PhysicalTrace, Plan, generate

__all__ = [
    "CLEAN",
    "DEFAULT_KINDS",
    "KINDS",
    "MODES",
    "Engine",
    "FirstLegal",
    "PhysicalTrace",
    "Plan",
    "endings",
    "generate",
    "noise",
]
