"""Floor 2: the board tracker. From reed-switch occupancy to turns, with LED guidance.

Imports only ``morris_pi.rules``. ``Tracker`` is the state machine,
``read_board`` the reconciliation of the settled board with the game,
``Changes`` what the sensors saw since the game's position (a reading must be
backed by it), ``Settler`` the debounce, and ``guidance`` turns the state into LED roles.
``StoryTracker`` is the same API read by the story decoder (docs/tracker-decoder.md).
"""

from .reconcile import Changes, Problem, Reading, board_mask, read_board
from .settle import Settler
from .story_tracker import StoryTracker
from .tracker import Tracker, TrackerState

__all__ = [
    "Changes",
    "Problem",
    "Reading",
    "Settler",
    "StoryTracker",
    "Tracker",
    "TrackerState",
    "board_mask",
    "read_board",
]
