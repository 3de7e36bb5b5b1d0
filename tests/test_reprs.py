"""Every part a developer meets in a debugger or a log says what it is and the state it is in.

Each ``repr`` names its class and a piece of its state (the men read, the frame shown, the
game's record, the chips on the bus), as ``Position``, ``Game``, ``Session`` and the hardware
ends do; a closed part says ``closed``.
"""

from __future__ import annotations

import pytest

from morris_pi.core.controller import Controller
from morris_pi.core.keeper import GameKeeper
from morris_pi.core.menu import GameSettings, Menu
from morris_pi.core.ports import ManualClock
from morris_pi.core.virtual import RecordingStrip, VirtualButtons, VirtualSensors
from morris_pi.engine.book import OpeningBook
from morris_pi.engine.egtb import EndgameTables
from morris_pi.engine.evaluate import Evaluator
from morris_pi.hw.factory import Hardware
from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
from morris_pi.hw.fakes.pins import DiodeMatrix
from morris_pi.hw.fakes.pixels import FakePixels
from morris_pi.hw.fakes.spi import FakeSpi, Ws2812Chain
from morris_pi.rules.position import tables_for
from morris_pi.service.hardware import ButtonSlot, LedSlot, SensorSlot
from morris_pi.sim.backends import SimBoard, SimButtons, SimLeds

RED = (255, 0, 0)


def controller():
    sensors = VirtualSensors()
    made = Controller(sensors=sensors, leds=RecordingStrip(), clock=ManualClock(), computer="black")
    made.step()
    return made


def keeper():
    made = GameKeeper()
    made.fault = "cannot save the game: disk full"
    return made


def menu():
    made = Menu(GameSettings(mode="two-player", profile="lasker"))
    made.press("new")
    return made


def sim_sensors():
    board = SimBoard(clock=ManualClock())
    board.hand.place("d6", "white")
    board.sensors.read()
    return board.sensors


def sim_leds():
    leds = SimLeds()
    leds.show({"d6": RED}, {"error": RED})
    return leds


def sim_buttons():
    buttons = SimButtons()
    buttons.press("undo")
    return buttons


def sensor_slot():
    slot = SensorSlot("sensors", "the sensor board", lambda: VirtualSensors(["a1"]))
    slot.open(0.0)
    return slot


def led_slot():
    slot = LedSlot("leds", "the LED chain", RecordingStrip, ManualClock())
    slot.open(0.0)
    slot.show({"d6": RED})
    return slot


def button_slot():
    def broken() -> VirtualButtons:
        raise OSError("no such pin")

    slot = ButtonSlot("buttons", "the buttons", broken, ManualClock())
    slot.open(0.0)
    return slot


def chip():
    made = FakeMcp23017(0x21)
    made.close_switch(3, 9)
    return made


def bus():
    made = FakeSMBus(FakeMcp23017(0x20), FakeMcp23017(0x21))
    made.fail(0x21)
    made.read_byte_data(0x20, 0x12)
    return made


def spi():
    made = FakeSpi()
    made.try_lock()
    made.configure(baudrate=6_400_000)
    return made


def chain():
    wire = FakeSpi()
    made = Ws2812Chain(wire, count=2)
    one, zero = 0b11110000, 0b11000000
    red = [zero] * 8 + [one] * 8 + [zero] * 8  # G=0, R=255, B=0
    wire.try_lock()
    wire.configure(baudrate=6_400_000)
    wire.write(bytes(64) + bytes(red + [zero] * 24) + bytes(64))
    return made


def pixels():
    made = FakePixels(24)
    made[0] = RED
    made.show()
    return made


def matrix(mock_factory):
    made = DiodeMatrix(mock_factory, [5, 6], [13, 19, 26])
    made.set_closed({(1, 2)})
    return made


def book():
    line = "000001 000000 8 9 1 -1 1 -1 12 6"  # one position: a white man on a point, black to move
    return OpeningBook.parse(line, 8, {"profile": "standard"})


def endgame():
    return EndgameTables({(3, 3): b"", (4, 3): b""}, "any", {(4, 3): b""})


#: (what is made, the repr expected) for every part of the house that has one of its own.
REPRS = {
    "Controller": (controller, "<Controller standard record='' white to move computer=black>"),
    "GameKeeper": (keeper, "<GameKeeper no game no storage fault='cannot save the game: disk full'>"),
    "Menu": (menu, "<Menu two-player lasker done>"),
    "SimSensors": (sim_sensors, "<SimSensors occupied=[d6]>"),
    "SimLeds": (sim_leds, "<SimLeds lit=[d6] status=[error] frames=1>"),
    "SimButtons": (sim_buttons, "<SimButtons queued=[undo]>"),
    "SensorSlot": (sensor_slot, "<SensorSlot open <VirtualSensors occupied=[a1]>>"),
    "LedSlot": (led_slot, "<LedSlot open <RecordingStrip lit=[d6] shows=1> writes=1>"),
    "ButtonSlot": (button_slot, "<ButtonSlot failing: "),
    "FakeMcp23017": (chip, "<FakeMcp23017 0x21 closed=[A3 B1]>"),
    "FakeSMBus": (bus, "<FakeSMBus chips=[0x20 0x21] transactions=1 failing=[0x21]>"),
    "FakeSpi": (spi, "<FakeSpi 6,400,000 Hz writes=0 locked>"),
    "Ws2812Chain": (chain, "<Ws2812Chain 2 LEDs GRB lit=1 frames=1>"),
    "FakePixels": (pixels, "<FakePixels 24 GRB lit=1 shows=1>"),
    "OpeningBook": (book, "<OpeningBook 1 positions to ply 8>"),
    "EndgameTables": (endgame, "<EndgameTables all_in_mills=any mate=[3v3 4v3] conversion=[3v3 4v3]>"),
    "Evaluator": (lambda: Evaluator(tables_for("standard")), "<Evaluator 24 points 16 mills flying weights=default>"),
    "Tables": (lambda: tables_for("twelve"), "<Tables twelve 24 points 20 mills 12 men>"),
}


@pytest.mark.parametrize("kind", REPRS)
def test_each_repr_names_its_class_and_its_state(kind):
    make, expected = REPRS[kind]
    shown = repr(make())
    assert shown.startswith(f"<{kind} ") and shown.endswith(">")
    assert shown.startswith(expected) if expected.endswith(": ") else shown == expected


def test_the_diode_matrix_shows_its_size_and_closed_crossings(mock_factory):
    assert repr(matrix(mock_factory)) == "<DiodeMatrix 2x3 closed=[1,2]>"


def test_a_failing_slot_says_why():
    assert repr(button_slot()) == "<ButtonSlot failing: cannot open the buttons: OSError: no such pin>"


def test_the_hardware_says_when_it_is_closed():
    hardware = Hardware(sensors=VirtualSensors(["d6"]), leds=RecordingStrip(), buttons=VirtualButtons())
    assert repr(hardware) == (
        "<Hardware sensors=<VirtualSensors occupied=[d6]> leds=<RecordingStrip lit=[] shows=0> "
        "buttons=<VirtualButtons queued=[]>>"
    )
    hardware.close()
    assert repr(hardware) == "<Hardware closed>"


def test_the_fakes_say_when_they_are_closed():
    wire, strip, i2c = FakeSpi(), FakePixels(3), FakeSMBus()
    wire.deinit(), strip.deinit(), i2c.close()
    assert (repr(wire), repr(strip), repr(i2c)) == ("<FakeSpi deinited>", "<FakePixels deinited>", "<FakeSMBus closed>")
