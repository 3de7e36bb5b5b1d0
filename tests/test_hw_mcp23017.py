"""MCP23017 sensors: the real driver over an emulated I2C bus with two expanders."""

from __future__ import annotations

import pytest

from morris_pi.config.wiring import DEFAULT_MCP23017_MAP, POINTS
from morris_pi.core.ports import ManualClock
from morris_pi.hw import mcp23017 as reg
from morris_pi.hw.errors import SensorError
from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
from morris_pi.hw.fakes.pins import connect_interrupts
from morris_pi.hw.sensors_mcp23017 import Mcp23017Sensors, open_i2c_bus

INT_PIN = 17


@pytest.fixture
def chips():
    return FakeMcp23017(0x20), FakeMcp23017(0x21)


@pytest.fixture
def bus(chips):
    return FakeSMBus(*chips)


def put_men(chips, points):
    """Close the reed switches under ``points`` (default ring-order wiring)."""
    by_chip = {chip.address: set() for chip in chips}
    for point in points:
        address, bit = DEFAULT_MCP23017_MAP[point]
        by_chip[address].add(bit)
    for chip in chips:
        chip.set_closed(by_chip[chip.address])


def gpio_reads(bus):
    return sum(1 for op, _, register, _ in bus.transactions if op == "read" and register == reg.GPIOA)


def test_reports_exactly_the_closed_switches(chips, bus):
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, clock=ManualClock())
    assert sensors.read() == frozenset()
    men = {"a7", "g4", "b4", "d6", "c5", "c4", "e3"}
    put_men(chips, men)
    assert sensors.read() == men
    put_men(chips, POINTS)
    assert sensors.read() == frozenset(POINTS)
    put_men(chips, ())
    assert sensors.read() == frozenset()


def test_setup_writes_inputs_pullups_and_interrupt_config(chips, bus):
    Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, clock=ManualClock()).read()
    for chip in chips:
        written = bus.writes(chip.address)
        assert written[reg.IODIRA] == written[reg.IODIRB] == 0xFF  # all inputs
        assert written[reg.GPPUA] == written[reg.GPPUB] == 0xFF  # pull-ups on
        assert written[reg.IPOLA] == written[reg.IPOLB] == 0x00  # no inversion
        assert written[reg.IOCON] == reg.MIRROR | reg.ODR  # shared open-drain INT
        assert written[reg.GPINTENA] == written[reg.GPINTENB] == 0  # polling: no interrupts
        # and the chip really holds that state
        assert chip.reg("GPPU", 0) == chip.reg("GPPU", 1) == 0xFF
        assert chip.reg("IODIR", 0) == chip.reg("IODIR", 1) == 0xFF


def test_without_pullups_the_board_would_read_full(chips, bus):
    """The emulated inputs float low without pull-ups: a guard that the driver sets them."""
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, clock=ManualClock())
    sensors.read()
    bus.write_byte_data(0x20, reg.GPPUA, 0x00)
    assert {"a7", "d7", "g7", "g4", "g1", "d1", "a1"} <= sensors.read()


def test_polling_reads_the_bus_every_time(chips, bus):
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, clock=ManualClock())
    for _ in range(5):
        sensors.read()
    assert gpio_reads(bus) == 5 * len(chips)


def test_interrupt_line_spares_the_bus_until_a_change(chips, bus, mock_factory):
    clock = ManualClock()
    line = connect_interrupts(mock_factory, INT_PIN, chips)
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, interrupt_pins=[INT_PIN], resync_s=0.5, clock=clock)
    assert sensors.read() == frozenset()
    assert bus.writes(0x20)[reg.GPINTENA] == 0xFF
    baseline = gpio_reads(bus)

    for _ in range(10):  # nothing moves: no bus traffic at all
        clock.advance(0.01)
        assert sensors.read() == frozenset()
    assert gpio_reads(bus) == baseline

    put_men(chips, {"d7"})  # a change pulls the shared INT line low
    assert line.state is False
    clock.advance(0.01)
    assert sensors.read() == {"d7"}
    assert line.state is True  # reading GPIO released it
    assert gpio_reads(bus) == baseline + len(chips)

    put_men(chips, {"d7", "e5"})  # the second chip shares the line
    clock.advance(0.01)
    assert sensors.read() == {"d7", "e5"}


def test_interrupt_mode_still_resyncs_on_the_clock(chips, bus, mock_factory):
    """A missed interrupt is caught by the slow full read."""
    clock = ManualClock()
    connect_interrupts(mock_factory, INT_PIN, chips)
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, interrupt_pins=[INT_PIN], resync_s=0.5, clock=clock)
    sensors.read()
    chips[0].regs[("GPINTEN", 0)] = 0  # the change below raises no interrupt
    put_men(chips, {"a7"})
    clock.advance(0.2)
    assert sensors.read() == frozenset()  # not seen yet...
    clock.advance(0.31)
    assert sensors.read() == {"a7"}  # ...but within the resync interval


def test_chip_reset_by_power_glitch_is_set_up_again(chips, bus):
    clock = ManualClock()
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, resync_s=0.5, clock=clock)
    sensors.read()
    chips[1].power_cycle()  # pull-ups lost: inputs float low
    chips[1].set_closed({DEFAULT_MCP23017_MAP["e4"][1]})
    clock.advance(0.6)
    assert sensors.read() == {"e4"}
    assert chips[1].reg("GPPU", 0) == 0xFF


def test_missing_chip_raises_sensor_error_naming_the_address(chips):
    bus = FakeSMBus(chips[0])  # 0x21 never answers
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, clock=ManualClock(), bus_number=1)
    with pytest.raises(SensorError, match=r"MCP23017 at 0x21 on I2C bus 1: .*no answer"):
        sensors.read()
    assert isinstance(SensorError("x"), RuntimeError)


def test_bus_error_mid_game_then_recovery(chips, bus):
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, clock=ManualClock())
    put_men(chips, {"a1"})
    assert sensors.read() == {"a1"}
    bus.fail(0x20)
    with pytest.raises(SensorError, match="0x20"):
        sensors.read()
    bus.heal(0x20)
    chips[0].power_cycle()  # e.g. the board was replugged meanwhile
    chips[0].set_closed({DEFAULT_MCP23017_MAP["a1"][1]})
    assert sensors.read() == {"a1"}  # set up again and read
    assert chips[0].reg("GPPU", 0) == 0xFF


def test_device_that_is_not_an_mcp23017_is_refused(chips, bus):
    class Stubborn(FakeMcp23017):
        def write_register(self, address, value):
            pass  # acknowledges, keeps nothing

    bus.devices[0x21] = Stubborn(0x21)
    with pytest.raises(SensorError, match=r"0x21.*does not behave like an MCP23017"):
        Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, clock=ManualClock()).read()


def test_chip_left_in_bank1_mode_is_recovered(chips, bus):
    for chip in chips:
        chip.write_register(reg.IOCON, reg.BANK)  # another program's leftover
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, clock=ManualClock())
    put_men(chips, {"f2"})
    assert sensors.read() == {"f2"}
    assert chips[0].reg("IOCON") == reg.MIRROR | reg.ODR


def test_custom_map_and_interrupt_pin_cleanup(chips, bus, mock_factory):
    usable = [b for b in range(16) if b not in (7, 15)]  # GPA7/GPB7 left free
    mapping = {point: (0x21 if i < 12 else 0x20, usable[13 - i % 12]) for i, point in enumerate(POINTS)}
    connect_interrupts(mock_factory, INT_PIN, chips)
    sensors = Mcp23017Sensors(bus, mapping, interrupt_pins=[INT_PIN], clock=ManualClock())
    chips[1].set_closed({usable[13]})
    chips[0].set_closed({usable[2]})
    assert sensors.read() == {POINTS[0], POINTS[12 + 11]}
    sensors.close()
    # the interrupt GPIO is free again
    from gpiozero import DigitalInputDevice

    DigitalInputDevice(INT_PIN).close()


def test_open_real_bus_that_does_not_exist():
    with pytest.raises(SensorError, match=r"I2C bus 99 is not available.*/dev/i2c-99"):
        open_i2c_bus(99)


def test_unwired_interrupt_line_falls_back_to_polling(chips, bus, mock_factory, caplog):
    """interrupt_pins set but INT not connected: the first change shows up at a
    resync, the backend says so, and from then on every read polls."""
    clock = ManualClock()
    sensors = Mcp23017Sensors(
        bus, DEFAULT_MCP23017_MAP, interrupt_pins=[INT_PIN], resync_s=0.5, clock=clock
    )  # GPIO 17 is just pulled up
    sensors.read()
    put_men(chips, {"a7"})
    clock.advance(0.1)
    assert sensors.read() == frozenset()  # waits for an interrupt...
    clock.advance(0.5)
    assert sensors.read() == {"a7"}  # ...the resync sees the change
    assert "without an interrupt" in caplog.text
    assert not sensors.uses_interrupts
    put_men(chips, {"a7", "d7"})
    clock.advance(0.01)
    assert sensors.read() == {"a7", "d7"}  # polled at once now


def test_working_interrupt_line_is_kept(chips, bus, mock_factory, caplog):
    clock = ManualClock()
    connect_interrupts(mock_factory, INT_PIN, chips)
    sensors = Mcp23017Sensors(bus, DEFAULT_MCP23017_MAP, interrupt_pins=[INT_PIN], resync_s=0.5, clock=clock)
    for step in range(100):
        if step % 7 == 0:
            put_men(chips, set(POINTS[: step % 24]))
        clock.advance(0.05)
        sensors.read()
    assert sensors.uses_interrupts and "without an interrupt" not in caplog.text
