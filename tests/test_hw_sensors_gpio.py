"""Direct-GPIO and diode-matrix sensors: the real backends over gpiozero MockFactory pins."""

from __future__ import annotations

import pytest

from morris_pi.config.wiring import (
    DEFAULT_GPIO_MAP,
    DEFAULT_MATRIX_COLUMNS,
    DEFAULT_MATRIX_MAP,
    DEFAULT_MATRIX_ROWS,
    POINTS,
)
from morris_pi.core.ports import ManualClock
from morris_pi.hw.errors import SensorError
from morris_pi.hw.fakes.pins import DiodeMatrix
from morris_pi.hw.sensors_gpio import GpioSensors
from morris_pi.hw.sensors_matrix import MatrixSensors

# -- direct GPIO --------------------------------------------------------------


def set_switches(factory, closed):
    for point, pin in DEFAULT_GPIO_MAP.items():
        if point in closed:
            factory.pin(pin).drive_low()
        else:
            factory.pin(pin).drive_high()


def test_gpio_reports_the_closed_switches(mock_factory):
    sensors = GpioSensors(DEFAULT_GPIO_MAP, clock=ManualClock())
    assert sensors.read() == frozenset()
    men = {"a7", "d1", "f4", "b2", "c3", "e4", "d5"}
    set_switches(mock_factory, men)
    assert sensors.read() == men
    set_switches(mock_factory, POINTS)
    assert sensors.read() == frozenset(POINTS)
    sensors.close()


def test_gpio_uses_pullups(mock_factory):
    sensors = GpioSensors(DEFAULT_GPIO_MAP, clock=ManualClock())
    assert all(mock_factory.pin(pin).pull == "up" for pin in DEFAULT_GPIO_MAP.values())
    sensors.close()


def test_gpio_rereads_pins_only_after_an_edge_or_resync(mock_factory):
    clock = ManualClock()
    sensors = GpioSensors(DEFAULT_GPIO_MAP, resync_s=0.5, clock=clock)
    sensors.read()
    reads = sensors.pin_reads
    for _ in range(20):
        clock.advance(0.01)
        sensors.read()
    assert sensors.pin_reads == reads  # idle: the pins are not polled
    mock_factory.pin(DEFAULT_GPIO_MAP["g1"]).drive_low()
    assert sensors.read() == {"g1"}  # an edge: read at once
    assert sensors.pin_reads == reads + 1
    clock.advance(0.5)
    sensors.read()
    assert sensors.pin_reads == reads + 2  # the slow safety re-read


def test_gpio_pin_in_use_is_a_sensor_error(mock_factory):
    from gpiozero import LED

    blocker = LED(DEFAULT_GPIO_MAP["d6"])
    with pytest.raises(SensorError, match=r"switch at d6 on GPIO 11"):
        GpioSensors(DEFAULT_GPIO_MAP, clock=ManualClock())
    blocker.close()
    GpioSensors(DEFAULT_GPIO_MAP, clock=ManualClock()).close()  # the failed attempt freed its pins


# -- diode matrix -------------------------------------------------------------


@pytest.fixture
def matrix(mock_factory):
    return DiodeMatrix(mock_factory, DEFAULT_MATRIX_ROWS, DEFAULT_MATRIX_COLUMNS)


def put_men(matrix, points):
    matrix.set_closed({DEFAULT_MATRIX_MAP[p] for p in points})


def scanner():
    return MatrixSensors(DEFAULT_MATRIX_ROWS, DEFAULT_MATRIX_COLUMNS, DEFAULT_MATRIX_MAP)


def test_matrix_reports_the_closed_switches(matrix):
    sensors = scanner()
    assert sensors.read() == frozenset()
    for men in ({"a7"}, {"c4"}, {"a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4"}, set(POINTS)):
        put_men(matrix, men)
        assert sensors.read() == men
    sensors.close()


def test_matrix_two_men_in_one_row_and_in_one_column(matrix):
    sensors = scanner()
    put_men(matrix, {"a7", "g1"})  # same row (outer ring)
    assert sensors.read() == {"a7", "g1"}
    put_men(matrix, {"d7", "d6", "d5"})  # same column (position 1 of each ring)
    assert sensors.read() == {"d7", "d6", "d5"}


def test_matrix_diodes_prevent_ghosts(matrix):
    """Three corners of a rectangle closed: without diodes the fourth would read closed."""
    sensors = scanner()
    men = {"a7", "d7", "b6"}  # (0,0) (0,1) (1,0); (1,1) = d6 is empty
    put_men(matrix, men)
    assert sensors.read() == men
    put_men(matrix, set(POINTS) - {"d6"})
    assert sensors.read() == set(POINTS) - {"d6"}


def test_matrix_leaves_every_row_idle_after_a_scan(matrix, mock_factory):
    sensors = scanner()
    put_men(matrix, {"e3"})
    sensors.read()
    assert all(mock_factory.pin(p).state for p in DEFAULT_MATRIX_ROWS)  # idle rows are high
    # each row was driven low exactly once during the scan
    for pin in DEFAULT_MATRIX_ROWS:
        assert [s.state for s in mock_factory.pin(pin).states][-2:] == [False, True]


def test_matrix_columns_use_pullups(matrix, mock_factory):
    scanner()
    assert all(mock_factory.pin(p).pull == "up" for p in DEFAULT_MATRIX_COLUMNS)


def test_matrix_pin_in_use_is_a_sensor_error(mock_factory):
    from gpiozero import Button

    blocker = Button(DEFAULT_MATRIX_COLUMNS[3])
    with pytest.raises(SensorError, match=r"matrix column 3 on GPIO 23"):
        scanner()
    blocker.close()
