"""The LED frame of a tracker state: which role each point and status LED shows.

>>> from morris_pi.tracker import Tracker
>>> t = Tracker(); t.update(set(), 0.0); t.update({"d6"}, 1.0); t.tick(1.3)
>>> frame(t.state)
Frame(points={'d6': 'last-move'}, status={'black-to-move': 'to-move'})
"""

from __future__ import annotations

from collections.abc import Mapping

from morris_pi.guidance import DEFAULT_PALETTE, RGB, Frame, Look, put, render

from .tracker import TrackerState


def frame(state: TrackerState) -> Frame:
    """The roles of every LED for a tracker state.

    Pure: the same state always gives the same frame. Earlier roles in
    ``ROLES`` win where two would light one point.
    """
    points: dict[str, str] = {}
    status: dict[str, str] = {}
    board = state.board
    outcome = state.outcome
    if state.problems:
        for problem in state.problems:
            put(points, (problem.point,), problem.kind)
        status["error"] = "error"
    if outcome is not None:
        winners = (outcome.winner,) if outcome.winner else ("white", "black")
        put(points, (p for p, side in board.items() if side in winners), "winner")
        for side in winners:
            status[f"{side}-to-move"] = "winner"
        return Frame(points, status)
    if state.armed is not None:
        put(points, (p for p, side in board.items() if side == state.armed), "confirm")
        status[f"{state.armed}-to-move"] = "confirm"
    else:
        status[f"{state.turn}-to-move"] = "to-move"
    if state.resync:
        return Frame(points, status)
    raw = state.raw
    prompt = state.prompt
    if prompt is not None:
        if prompt.origin and prompt.origin in raw:
            put(points, (prompt.origin,), "computer-from")
        if prompt.target not in raw:
            put(points, (prompt.target,), "computer-to")
        if prompt.removal and prompt.removal in raw:
            put(points, (prompt.removal,), "computer-remove")
    if state.lifted:
        put(points, (state.lifted,), "lifted")
    put(points, state.targets, "legal-target")
    put(points, state.removable, "removable")
    put(points, state.mill, "mill")
    hint = state.hint
    if hint is not None:
        put(points, (p for p in (hint.origin, hint.target, hint.removal) if p), "hint")
    last = state.last
    if last is not None and last.target in board:
        put(points, (last.target,), "last-move")
    return Frame(points, status)


def show(
    state: TrackerState, t: float, palette: Mapping[str, Look] = DEFAULT_PALETTE
) -> tuple[dict[str, RGB], dict[str, RGB]]:
    """Colours of the point LEDs and the status LEDs for a tracker state at time ``t``."""
    f = frame(state)
    return render(f.points, t, palette), render(f.status, t, palette)
