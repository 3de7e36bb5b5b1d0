"""``close()``, ``closed`` and ``with`` on the hardware ends, the web server and the sessions.

Each is closed twice (the second does nothing), refuses to be used after ``close()`` with a
``ClosedError`` that names it, and ``with`` closes it even when the block raises. The devices
run over gpiozero's MockFactory and the emulated chips of ``morris_pi.hw.fakes``.
"""

from __future__ import annotations

import asyncio
import socket
import urllib.request

import pytest

from morris_pi.config.loader import parse_config
from morris_pi.core.closing import ClosedError
from morris_pi.core.menu import GameSettings
from morris_pi.core.opponents import WatchedEngine
from morris_pi.core.ports import FirstLegalOpponent, ManualClock
from morris_pi.core.reviews import BackgroundReviewer
from morris_pi.core.session import Session
from morris_pi.core.storage import Storage
from morris_pi.core.virtual import RecordingStrip, VirtualButtons, VirtualSensors
from morris_pi.engine.player import EnginePlayer
from morris_pi.errors import MorrisPiError
from morris_pi.guidance import DEFAULT_PALETTE
from morris_pi.hw.buttons import GpioButtons, NoButtons
from morris_pi.hw.factory import build_hardware
from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
from morris_pi.hw.fakes.pins import connect_interrupts
from morris_pi.hw.fakes.pixels import FakePixels
from morris_pi.hw.leds import DarkStrip, PixelStrip
from morris_pi.hw.sensors_gpio import GpioSensors
from morris_pi.hw.sensors_matrix import MatrixSensors
from morris_pi.hw.sensors_mcp23017 import Mcp23017Sensors
from morris_pi.rules import Game
from morris_pi.service.hardware import BoardHardware
from morris_pi.service.sdnotify import Notifier
from morris_pi.sim.backends import SimBoard, SimButtons, SimLeds, SimSensors
from morris_pi.sim.play import GameSession, SimSettings
from morris_pi.web.hub import Hub
from morris_pi.web.seam import BoardSeam
from morris_pi.web.server import WebServer

RED = (255, 0, 0)


def leds_config():
    return parse_config('[leds]\nbackend = "neopixel"\n').leds


def closes_once_and_then_refuses(device, use, what):
    """``device`` closes twice without complaint and then refuses ``use`` by name."""
    assert not device.closed
    device.close()
    device.close()
    assert device.closed
    with pytest.raises(ClosedError, match=f"cannot {what} after close") as refused:
        use(device)
    assert isinstance(refused.value, MorrisPiError) and isinstance(refused.value, RuntimeError)
    assert repr(device).endswith(" closed>")


def test_gpio_sensors_free_their_pins_and_refuse_a_read_after_close(mock_factory):
    sensors = GpioSensors({"a7": 2, "d7": 3}, pin_factory=mock_factory)
    mock_factory.pin(3).drive_low()
    assert sensors.read() == {"d7"}
    assert repr(sensors) == "<GpioSensors 2 switches occupied=[d7]>"
    closes_once_and_then_refuses(sensors, GpioSensors.read, "read the switches")
    again = GpioSensors({"a7": 2, "d7": 3}, pin_factory=mock_factory)  # the pins are free again
    mock_factory.pin(2).drive_low()
    assert again.read() == {"a7"}
    again.close()


def test_a_closed_sensor_board_never_reads_as_an_empty_board(mock_factory):
    with GpioSensors({"a7": 2}, pin_factory=mock_factory) as sensors:
        mock_factory.pin(2).drive_low()
        assert sensors.read() == {"a7"}
    with pytest.raises(ClosedError, match="<GpioSensors closed>"):
        sensors.read()


def test_matrix_sensors(mock_factory):
    sensors = MatrixSensors([5, 6], [13, 19], {"a7": (0, 0), "d7": (0, 1)}, pin_factory=mock_factory)
    assert sensors.read() == frozenset()
    closes_once_and_then_refuses(sensors, MatrixSensors.read, "scan the switch matrix")


def test_mcp23017_sensors_close_their_interrupt_line_and_their_own_bus(mock_factory):
    chip = FakeMcp23017(0x20)
    connect_interrupts(mock_factory, 4, [chip])
    bus = FakeSMBus(chip)
    closed_buses = []
    bus.close = lambda: closed_buses.append(bus)
    sensors = Mcp23017Sensors(
        bus, {"a7": (0x20, 0)}, interrupt_pins=[4], pin_factory=mock_factory, bus_number=1, owns_bus=True
    )
    chip.close_switch(0)
    assert sensors.read() == {"a7"}
    assert repr(sensors) == "<Mcp23017Sensors 0x20 on I2C bus 1 interrupts occupied=[a7]>"
    closes_once_and_then_refuses(sensors, Mcp23017Sensors.read, "read the expanders")
    assert closed_buses == [bus]  # once, although closed twice
    mock_factory.pin(4)  # the interrupt pin is free again: a new device may open it
    Mcp23017Sensors(bus, {"a7": (0x20, 0)}, interrupt_pins=[4], pin_factory=mock_factory).close()


def test_buttons(mock_factory):
    clock = ManualClock()
    buttons = GpioButtons({"new": 5, "undo": 6}, clock=clock, pin_factory=mock_factory)
    mock_factory.pin(6).drive_low()
    clock.advance(0.05)
    buttons.pressed()
    clock.advance(0.05)
    assert buttons.pressed() == ["undo"]
    assert repr(buttons) == "<GpioButtons new=GPIO5 undo=GPIO6 held=[undo]>"
    closes_once_and_then_refuses(buttons, GpioButtons.pressed, "read the buttons")
    closes_once_and_then_refuses(NoButtons(), NoButtons.pressed, "read the buttons")


def test_a_pixel_strip_goes_dark_once_and_then_refuses_frames():
    pixels = FakePixels(24)
    strip = PixelStrip(pixels, leds_config())
    strip.show({"d7": RED})
    assert repr(strip) == "<PixelStrip 24 LEDs lit=1 writes=1>"
    closes_once_and_then_refuses(strip, lambda s: s.show({"d7": RED}), "show a frame")
    assert all(colour == (0, 0, 0) for colour in pixels.colours())
    closes_once_and_then_refuses(DarkStrip(), lambda s: s.show({}), "show a frame")


def test_with_closes_the_whole_board_even_when_the_block_raises(mock_factory):
    config = parse_config('[sensors]\nbackend = "gpio"\n[leds]\nbackend = "neopixel"\n')
    pixels = FakePixels(24)
    with pytest.raises(KeyError), build_hardware(config, pin_factory=mock_factory, pixels=pixels) as hardware:
        hardware.leds.show({"d7": RED})
        raise KeyError("something went wrong while playing")
    assert hardware.closed and hardware.sensors.closed and hardware.leds.closed and hardware.buttons.closed
    assert all(colour == (0, 0, 0) for colour in pixels.colours())
    hardware.close()  # again: nothing happens


def board_session() -> Session:
    return Session(
        sensors=VirtualSensors(),
        leds=RecordingStrip(),
        clock=ManualClock(),
        defaults=GameSettings(mode="two-player"),
        menu=False,
        opponent_factory=lambda level: FirstLegalOpponent(),
    )


def test_the_session_refuses_to_play_after_close_but_still_says_where_it_was():
    with board_session() as session:
        assert session.start() == "new"
        session.step()
        session.sensors.set({"d6"})
        for _ in range(20):
            session.clock.advance(0.1)
            session.step()
        assert repr(session) == "<Session game standard record='d6' black to move>"
    assert session.closed and repr(session) == "<Session closed>"
    session.close()
    for use, what in [
        (session.step, "scan the board"),
        (lambda: session.press("undo"), "press a button"),
        (lambda: session.command("new"), "take a command"),
        (session.new_game, "start a new game"),
    ]:
        with pytest.raises(ClosedError, match=what):
            use()
    assert session.snapshot() is not None and "d6" in session.controller.game.record


def test_the_simulators_session():
    board = SimBoard(clock=ManualClock())
    game = GameSession(board, SimSettings(mode="two-player"), opponent_factory=lambda level: FirstLegalOpponent())
    game.step()
    assert repr(game) == "<GameSession two-player: <Session game standard record='' white to move>>"
    closes_once_and_then_refuses(game, GameSession.step, "scan the board")
    assert game.session.closed  # closing the simulator's session closes the board's


def test_the_web_server_frees_its_port_on_close_and_cannot_start_again():
    session = board_session()
    session.start()
    with WebServer(BoardSeam(session), "127.0.0.1", 0) as server:
        assert repr(server) == f"<WebServer {server.url} not started>"
        server.start()
        assert server.started()
        assert repr(server) == f"<WebServer {server.url} serving>"
        with urllib.request.urlopen(f"{server.url}api/game", timeout=10) as answer:
            assert answer.status == 200
        port = server.port
    assert server.closed
    server.close()
    with pytest.raises(ClosedError, match="cannot start after close"):
        server.start()
    with socket.socket() as again:  # the port is free for the next server
        # as a server binds (uvicorn too): a connection just closed may linger in TIME_WAIT,
        # and only a socket still listening would refuse this
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", port))
    session.close()


def test_the_services_hardware_closes_its_parts_once_and_does_not_open_again(mock_factory):
    config = parse_config('[sensors]\nbackend = "gpio"\n[leds]\nbackend = "neopixel"\n')
    pixels = FakePixels(24)
    with BoardHardware(config, ManualClock(), pin_factory=mock_factory, pixels=pixels) as hardware:
        assert repr(hardware) == "<BoardHardware sensors=not open leds=not open buttons=not open>"
        hardware.open()
        assert repr(hardware) == "<BoardHardware sensors=open leds=open buttons=open>"
        sensors = hardware.sensors.inner
    assert hardware.closed and sensors.closed and hardware.sensors.inner is None
    hardware.close()  # again: nothing happens
    with pytest.raises(ClosedError, match="<BoardHardware closed>: cannot open the hardware after close"):
        hardware.open()


# -- the other parts that hold something: close() once, closed, with ------------------------


def closes_once(part):
    """``part`` is open, closes, closes again without complaint, and says it is closed."""
    assert not part.closed
    part.close()
    part.close()
    assert part.closed


def watched_engine():
    return WatchedEngine(EnginePlayer(3, seed=3, threaded=False))


def hub():
    session = board_session()
    session.start()
    return Hub(BoardSeam(session), DEFAULT_PALETTE)


def reviewer(tmp_path):
    return BackgroundReviewer(Storage(tmp_path / "state"), budget="quick")


PARTS = {
    "WatchedEngine": lambda tmp_path: watched_engine(),
    "SimSensors": lambda tmp_path: SimBoard(clock=ManualClock()).sensors,
    "SimLeds": lambda tmp_path: SimLeds(),
    "SimButtons": lambda tmp_path: SimButtons(),
    "SimBoard": lambda tmp_path: SimBoard(clock=ManualClock()),
    "VirtualSensors": lambda tmp_path: VirtualSensors(["d6"]),
    "VirtualButtons": lambda tmp_path: VirtualButtons(),
    "RecordingStrip": lambda tmp_path: RecordingStrip(),
    "Notifier": lambda tmp_path: Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "notify")}),
    "Hub": lambda tmp_path: hub(),
    "BackgroundReviewer": reviewer,
}


@pytest.mark.parametrize("kind", PARTS)
def test_each_part_closes_once_and_says_so(kind, tmp_path):
    closes_once(PARTS[kind](tmp_path))


@pytest.mark.parametrize("kind", PARTS)
def test_with_closes_each_part(kind, tmp_path):
    with PARTS[kind](tmp_path) as part:
        assert not part.closed
    assert part.closed


@pytest.mark.parametrize(
    ("make", "use", "what"),
    [
        (lambda: VirtualSensors(["d6"]), VirtualSensors.read, "read the switches"),
        (VirtualButtons, VirtualButtons.pressed, "read the buttons"),
        (RecordingStrip, lambda strip: strip.show({"d6": RED}), "show a frame"),
        (lambda: SimBoard(clock=ManualClock()).sensors, SimSensors.read, "read the switches"),
        (SimLeds, lambda leds: leds.show({"d6": RED}), "show a frame"),
        (SimButtons, SimButtons.pressed, "read the buttons"),
    ],
)
def test_the_stand_in_ends_refuse_to_be_used_after_close_as_the_hardware_does(make, use, what):
    closes_once_and_then_refuses(make(), use, what)


def test_a_closed_stand_in_strip_is_dark():
    with RecordingStrip() as strip, SimLeds() as leds:
        strip.show({"d6": RED})
        leds.show({"d6": RED}, {"error": RED})
        shown = leds.version
    assert strip.points == strip.status == leds.points == leds.status == {}
    assert leds.version > shown  # the window repaints the dark board


def test_closing_the_simulated_board_closes_its_ends():
    with SimBoard(clock=ManualClock()) as board:
        board.buttons.press("undo")
    assert board.sensors.closed and board.leds.closed and board.buttons.closed
    assert repr(board) == "<SimBoard closed>"


def test_a_watched_engine_closed_by_with_closes_its_player_and_refuses_a_search():
    with watched_engine() as engine:
        engine.start(Game())
        assert engine.result() is not None
    assert engine.player.closed and repr(engine) == "<WatchedEngine closed>"
    with pytest.raises(ClosedError, match="cannot start a search after close"):
        engine.start(Game())


def test_a_closed_notifier_sends_nothing(tmp_path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        path = str(tmp_path / "notify")
        listener.bind(path)
        with Notifier(env={"NOTIFY_SOCKET": path}) as notifier:
            assert notifier.ready()
        assert notifier.closed and notifier.watchdog() is False and notifier._sock is None
        assert repr(notifier) == "<Notifier closed>"


def test_closing_the_hub_ends_its_streams_once_in_its_event_loop():
    loop = asyncio.new_event_loop()
    try:
        with hub() as streams:
            streams.start(loop)
            queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=2)
            streams.queues[queue] = False
        streams.close()  # again: nothing more is sent
        loop.run_until_complete(asyncio.sleep(0))
        assert streams.closed and streams.closing and queue.qsize() == 1 and queue.get_nowait() is None
        streams.stop()
    finally:
        loop.close()


def test_the_reviewer_stops_its_thread_once(tmp_path):
    with reviewer(tmp_path) as reviews:
        reviews.start()
        thread = reviews._thread
        assert thread is not None and thread.is_alive()
    assert reviews.closed and not thread.is_alive() and reviews._thread is None


def test_the_simulator_window_closes_once(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from morris_pi.sim.app import SimApp

    with SimApp(SimBoard(clock=ManualClock()), size=(800, 600)) as app:
        assert repr(app) == "<SimApp 800x600 frames=0>"
    assert app.closed and repr(app) == "<SimApp closed>"
    app.close()  # again: nothing happens
    with pytest.raises(ClosedError, match="cannot run the window after close"):
        app.run()
