"""Floor 2: the board tracker. From reed-switch occupancy to turns, with LED guidance.

Imports only ``morris_pi.rules``. ``Tracker`` is the state machine,
``read_board`` the reconciliation of the settled board with the game,
``Settler`` the debounce, and ``guidance`` turns the state into LED roles.
"""

from .reconcile import Problem, Reading, board_mask, read_board
from .settle import Settler
from .tracker import Tracker, TrackerState

__all__ = ["Problem", "Reading", "board_mask", "read_board", "Settler", "Tracker", "TrackerState"]
