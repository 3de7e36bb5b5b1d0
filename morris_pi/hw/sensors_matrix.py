"""Occupancy from a diode matrix: rows (one per ring) x columns (one per position).

Wiring: each reed switch in series with a diode joins its column to its row,
the diode's anode at the column and its cathode toward the row (for example a
1N4148 with the band at the row). Columns are inputs with the Pi's pull-ups;
rows are push-pull outputs, idle high. A scan drives one row low at a time and
reads the columns: a low column has a closed switch on the driven row. The
diodes block current from the driven row back through other closed switches,
so any set of men reads correctly, however many share a row or a column.

A scan of 3 rows x 8 columns costs 6 row writes and 24 pin reads; the default
3 x 8 matrix uses 11 GPIOs for 24 switches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from morris_pi.core.closing import Closeable
from morris_pi.hw.errors import SensorError


class MatrixSensors(Closeable):
    """A ``SensorSource`` scanning a diode matrix through gpiozero devices.

    ``cells`` maps each point to its (row index, column index).

    >>> from gpiozero.pins.mock import MockFactory
    >>> sensors = MatrixSensors([5, 6], [13, 19], {"a7": (0, 0), "d7": (0, 1), "g7": (1, 0)},
    ...                         pin_factory=MockFactory())
    >>> sensors.read(), sensors
    (frozenset(), <MatrixSensors rows=GPIO[5 6] columns=GPIO[13 19] occupied=[]>)
    >>> sensors.close(); sensors
    <MatrixSensors closed>
    """

    def __init__(
        self,
        rows: Sequence[int],
        columns: Sequence[int],
        cells: Mapping[str, tuple[int, int]],
        *,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice

        self._rows: list[Any] = []
        self._columns: list[Any] = []
        self._pins = (tuple(rows), tuple(columns))
        self._state: frozenset[str] = frozenset()
        #: per row: (column index, point) of every wired cell
        self._cells: list[list[tuple[int, str]]] = [[] for _ in rows]
        for point, (r, c) in cells.items():
            self._cells[r].append((c, point))
        try:
            for i, pin in enumerate(rows):
                what = f"matrix row {i} on GPIO {pin}"
                # active_high=False: on() drives the row low; it starts off (high)
                self._rows.append(
                    DigitalOutputDevice(pin, active_high=False, initial_value=False, pin_factory=pin_factory)
                )
            for i, pin in enumerate(columns):
                what = f"matrix column {i} on GPIO {pin}"
                self._columns.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except Exception as exc:
            self.close()
            raise SensorError(f"{what}: {exc}") from exc

    def read(self) -> frozenset[str]:
        self._check_open("scan the switch matrix")
        closed: list[str] = []
        try:
            for row, cells in zip(self._rows, self._cells, strict=True):
                row.on()
                try:
                    # column inputs are pulled up, so is_active means pulled low
                    closed.extend(point for c, point in cells if self._columns[c].is_active)
                finally:
                    row.off()
        except Exception as exc:
            raise SensorError(f"scanning the switch matrix failed: {exc}") from exc
        self._state = frozenset(closed)
        return self._state

    def _release(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows, self._columns = [], []

    def __repr__(self) -> str:
        if self.closed:
            return "<MatrixSensors closed>"
        rows, columns = (" ".join(map(str, pins)) for pins in self._pins)
        return f"<MatrixSensors rows=GPIO[{rows}] columns=GPIO[{columns}] occupied=[{' '.join(sorted(self._state))}]>"
