"""gpiozero mock pins wired like the board: shared interrupt lines, a diode matrix.

Use with ``gpiozero.pins.mock.MockFactory``. Create the wiring *before* the
backend opens its devices, so the factory hands the backend these pins.

>>> from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory()
>>> matrix = DiodeMatrix(factory, rows=[5, 6], columns=[16, 17])
>>> matrix.set_closed({(1, 0)})
>>> row = factory.pin(6); row.function = "output"; row.state = 0    # drive row 1 low
>>> factory.pin(16).state, factory.pin(17).state                     # column 0 follows it
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpiozero.pins.mock import MockPin

from morris_pi.hw.fakes.i2c import FakeMcp23017


class WiredPin(MockPin):  # type: ignore[misc, unused-ignore]  # gpiozero ships no types: MockPin is Any
    """An input whose line something outside can pull low (open-drain, a switch).

    A pull-up only wins while nothing pulls the line low, so setting the pull
    after the line is already low (as a backend does when it opens the pin)
    leaves it low, as on real hardware.
    """

    _pull: str  # MockPin's, typed here as gpiozero leaves it untyped

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.pulled_low = False
        if self._pull != "up":  # the board's pull-up resistor on the shared line
            self._pull = "up"
            self._state = True

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._apply()

    def pull_line(self, low: bool) -> None:
        self.pulled_low = low
        self._apply()

    def _apply(self) -> None:
        if self._function != "input":
            return
        if self.pulled_low:
            self.drive_low()
        elif self._pull == "up":
            self.drive_high()
        elif self._pull == "down":
            self.drive_low()


def connect_interrupts(factory: Any, pin: int, chips: Iterable[FakeMcp23017], port: int = 0) -> WiredPin:
    """Join the INTA (port 0) or INTB outputs of ``chips`` onto one GPIO, wired-OR."""
    chips = list(chips)
    line: WiredPin = factory.pin(pin, pin_class=WiredPin)

    def update(_chip: FakeMcp23017 | None = None) -> None:
        line.pull_line(any(chip.int_pulls_low(port) for chip in chips))

    for chip in chips:
        chip.on_interrupt = update
    update()
    return line


class RowPin(MockPin):  # type: ignore[misc, unused-ignore]  # gpiozero ships no types: MockPin is Any
    """A matrix row output that tells the matrix whenever it changes."""

    def __init__(self, factory: Any, info: Any, matrix: DiodeMatrix | None = None) -> None:
        self.matrix = matrix
        super().__init__(factory, info)

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        if self.matrix is not None:
            self.matrix.update()

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix.update()
        return changed

    @property
    def driven_low(self) -> bool:
        return self._function == "output" and not self._state


class DiodeMatrix:
    """Switches at (row, column) crossings, each in series with a diode.

    A column input (pulled up) reads low exactly when a closed switch joins it
    to a row that is driven low. The diode (anode at the column) blocks the
    reverse paths through other closed switches, so three closed corners of a
    rectangle never make the fourth look closed.
    """

    def __init__(self, factory: Any, rows: Iterable[int], columns: Iterable[int]) -> None:
        self.closed: set[tuple[int, int]] = set()
        self.rows: list[RowPin] = []
        self.columns: list[WiredPin] = []
        self.rows = [factory.pin(pin, pin_class=RowPin, matrix=self) for pin in rows]
        self.columns = [factory.pin(pin, pin_class=WiredPin) for pin in columns]
        self.update()

    def set_closed(self, cells: Iterable[tuple[int, int]]) -> None:
        self.closed = set(cells)
        self.update()

    def __repr__(self) -> str:
        cells = " ".join(f"{row},{column}" for row, column in sorted(self.closed))
        return f"<DiodeMatrix {len(self.rows)}x{len(self.columns)} closed=[{cells}]>"

    def update(self) -> None:
        for c, column in enumerate(self.columns):
            column.pull_line(any(row.driven_low and (r, c) in self.closed for r, row in enumerate(self.rows)))
