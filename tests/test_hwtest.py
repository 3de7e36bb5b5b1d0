"""The self-test with a scripted person: a good board, swapped inputs, stuck and dead switches, --learn."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from morris_pi import cli
from morris_pi.config.loader import parse_config
from morris_pi.core.ports import ManualClock
from morris_pi.core.virtual import RecordingStrip, VirtualButtons
from morris_pi.guidance import DEFAULT_PALETTE
from morris_pi.hwtest.learn import LearnError, learn, learned_map, rewrite_map
from morris_pi.hwtest.selftest import SWEEP_COLOURS, HwTest, run_selftest
from morris_pi.rules import POINTS

ROOT = Path(__file__).resolve().parents[1]
PUT_HERE = DEFAULT_PALETTE["computer-to"].colour
TAKE_OFF = DEFAULT_PALETTE["lifted"].colour
EXTRA = DEFAULT_PALETTE["extra"].colour


class Bench:
    """A board whose switches may be miswired, stuck or dead, and a person who follows the LEDs.

    ``wired[p]`` is the point whose input the switch under ``p`` closes; ``stuck``
    switches are always closed; ``dead`` ones never close; ``latching`` ones
    close and then never open.
    """

    def __init__(
        self,
        *,
        wired=None,
        stuck=(),
        dead=(),
        latching=(),
        men=(),
        react=0.3,
        skip_dead=False,
        flapping=(),
        flap_until=0.0,
    ):
        self.clock = ManualClock()
        self.flapping, self.flap_until, self._reads = set(flapping), flap_until, 0
        self.wired = dict(wired or {})
        self.stuck, self.dead, self.latching = set(stuck), set(dead), set(latching)
        self.latched: set[str] = set()
        self.men = set(men)  # points with a man on them
        self.strip = RecordingStrip(keep=True)
        self.buttons = VirtualButtons()
        self.react = react
        self.skip_dead = skip_dead
        self.said: list[str] = []
        self._seen: tuple | None = None
        self._since = 0.0

    # the switches
    def read(self) -> frozenset[str]:
        closed = {self.wired.get(p, p) for p in self.men if p not in self.dead}
        self.latched |= closed & self.latching
        self._reads += 1
        if self.clock.now() < self.flap_until and self._reads % 2:
            closed ^= self.flapping  # a reed at the edge of its magnet: changes at every read
        return frozenset(closed | self.stuck | self.latched)

    def close(self) -> None:
        pass

    # the person: acts on what the LEDs show, a moment after they change
    def sleep(self, seconds: float) -> None:
        self.clock.advance(seconds)
        frame = tuple(sorted(self.strip.points.items()))
        if frame != self._seen:
            self._seen, self._since = frame, self.clock.now()
            return
        if self.clock.now() - self._since < self.react:
            return
        lit = self.strip.points
        for point, colour in lit.items():
            if colour == PUT_HERE and point not in self.men:
                self.men.add(point)
                self._since = self.clock.now()
                if point in self.dead and self.skip_dead:
                    self.buttons.press("new")
            elif colour in (TAKE_OFF, EXTRA) and point in self.men:
                self.men.discard(point)
                self._since = self.clock.now()
        if not any(c in (TAKE_OFF, EXTRA) for c in lit.values()):
            self.men &= {p for p, c in lit.items() if c == PUT_HERE}  # the tested man goes back in the box

    def run(self, **kw):
        test = HwTest(**kw)
        report = run_selftest(
            self, self.strip, self.buttons, clock=self.clock, sleep=self.sleep, say=self.said.append, test=test
        )
        return test, report


def test_a_good_board_passes_every_point_after_the_sweep():
    bench = Bench()
    test, report = bench.run()
    assert report.ok and test.done
    assert [r.status for r in report.results.values()] == ["ok"] * 24
    assert report.text().startswith("Switches: 24 of 24 points OK.")
    # the sweep lit every point in every colour, and the status LEDs
    for _, colour in SWEEP_COLOURS:
        assert any(f[0] == {p: colour for p in POINTS} and f[1] for f in bench.strip.frames)
    # points were asked for in ring order
    asked = [line.split()[4] for line in bench.said if line.startswith("Put a man on")]
    assert asked == list(POINTS)
    assert set(bench.strip.points.values()) == {(0, 200, 0)}  # all green at the end


def test_the_sweep_never_draws_more_than_one_channel_per_led():
    """Every frame the recording strip saw, priced at 20 mA per full channel."""
    from morris_pi.hwtest.selftest import MA_PER_CHANNEL, SWEEP_MA_PER_LED, led_current_ma, sweep_current_ma

    bench = Bench()
    bench.run()
    sweep = [f for f in bench.strip.frames if set(f[0].values()) <= {c for _, c in SWEEP_COLOURS} and f[0]]
    assert len({next(iter(f[0].values())) for f in sweep}) == 4  # red, green, blue and white
    worst = max(sum(led_current_ma(c) for c in (*points.values(), *status.values())) for points, status in sweep)
    lit = len(POINTS) + 3
    assert worst == sweep_current_ma(lit) == lit * SWEEP_MA_PER_LED == 540.0
    assert all(
        led_current_ma(c) <= MA_PER_CHANNEL
        for f in bench.strip.frames
        for part in f
        for c in part.values()
        if c in {col for _, col in SWEEP_COLOURS}
    )
    white = dict(SWEEP_COLOURS)["white"]
    assert len(set(white)) == 1 and white[0] > 0  # still white, all channels on
    assert worst < lit * led_current_ma((255, 255, 255)) / 2  # under half of full white


def test_a_swapped_pair_is_found_and_learned():
    bench = Bench(wired={"a7": "d7", "d7": "a7"})
    _, report = bench.run(sweep=False)
    assert not report.ok
    faults = {r.point: r for r in report.faults()}
    assert set(faults) == {"a7", "d7"}
    assert faults["a7"].status == "swapped" and faults["a7"].reads_as == "d7"
    assert "a7: reads as d7" in report.text() and "--learn" in report.text()
    config = parse_config("")
    new = learned_map(config, report)
    old = config.sensors.mcp23017.map
    assert new["a7"] == old["d7"] and new["d7"] == old["a7"]
    assert {p: v for p, v in new.items() if p not in ("a7", "d7")} == {
        p: v for p, v in old.items() if p not in ("a7", "d7")
    }


def test_a_switch_stuck_closed_before_the_test():
    bench = Bench(stuck={"g4"}, men={"a1"})
    _, report = bench.run(sweep=False, clear_timeout_s=5)
    assert [r.point for r in report.faults()] == ["g4"]
    assert report.results["g4"].status == "stuck"
    assert "stuck closed" in report.text()
    assert "a1" not in bench.men  # the man left on the board was taken off first


def test_a_dead_switch_times_out():
    bench = Bench(dead={"c4"})
    _, report = bench.run(sweep=False, point_timeout_s=10)
    assert [(r.point, r.status) for r in report.faults()] == [("c4", "dead")]
    assert "never closed" in report.text()


def test_a_dead_switch_skipped_with_a_button():
    bench = Bench(dead={"e4"}, skip_dead=True)
    _test, report = bench.run(sweep=False, point_timeout_s=1000)
    assert report.results["e4"].status == "dead" and "skipped" in report.results["e4"].note
    assert bench.clock.now() < 100


def test_a_switch_that_never_opens_again():
    bench = Bench(latching={"f2"})
    _, report = bench.run(sweep=False, release_timeout_s=3)
    assert [(r.point, r.status) for r in report.faults()] == [("f2", "stuck")]


def test_a_flapping_switch_is_named_at_once_and_in_the_report():
    bench = Bench(flapping={"b4"}, flap_until=2.0)
    _, report = bench.run(sweep=False)
    assert [line for line in bench.said if line.startswith("Switch b4")] == [
        "Switch b4 is flapping: 10 changes within 1 s (check the reed switch, its wire and the magnet)."
    ]
    assert not report.ok and report.flapping == {"b4"}
    assert "b4: flapping" in report.text() and "23 of 24 points OK" in report.text()
    assert all(r.status == "ok" for r in report.results.values())  # once calm, it tested fine


def test_the_sweep_can_be_skipped_with_a_button():
    bench = Bench()
    bench.buttons.press("new")
    _, report = bench.run()
    assert report.ok
    assert not any(f[0] == {p: (255, 0, 0) for p in POINTS} for f in bench.strip.frames)


# -- --learn ---------------------------------------------------------------------------


def swapped_report(a: str = "a7", b: str = "d7"):
    return Bench(wired={a: b, b: a}).run(sweep=False)[1]


def test_learn_rewrites_only_the_map_lines(tmp_path):
    example = (ROOT / "wiring" / "config.example.toml").read_text()
    path = tmp_path / "config.toml"
    path.write_text(example)
    path.chmod(0o640)
    config = parse_config(example, str(path))
    changes = learn(path, config, swapped_report())
    assert changes == ['a7: "0x20:A0" -> "0x20:A1"', 'd7: "0x20:A1" -> "0x20:A0"']
    after = path.read_text()
    changed = [(x, y) for x, y in zip(example.splitlines(), after.splitlines(), strict=False) if x != y]
    assert changed == [('a7 = "0x20:A0"', 'a7 = "0x20:A1"'), ('d7 = "0x20:A1"', 'd7 = "0x20:A0"')]
    assert len(after.splitlines()) == len(example.splitlines())
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    reloaded = parse_config(after).sensors.mcp23017.map
    assert reloaded["a7"] == config.sensors.mcp23017.map["d7"]


def test_learn_keeps_comments_on_map_lines_and_appends_a_missing_table(tmp_path):
    text = '[sensors]\nbackend = "gpio"\n[leds]\nbackend = "neopixel"\n'
    config = parse_config(text)
    path = tmp_path / "c.toml"
    path.write_text(text)
    learn(path, config, swapped_report("b6", "c5"))
    after = path.read_text()
    assert after.startswith(text)
    assert "[sensors.gpio.map]\n" in after and "b6 = 19\n" in after and "c5 = 10\n" in after
    commented = after.replace("b6 = 19", "b6 = 19   # brown wire")
    rewritten = rewrite_map(commented, "gpio", {**parse_config(after).sensors.gpio.map, "b6": 10, "c5": 19})
    assert "b6 = 10   # brown wire" in rewritten


def test_learn_writes_matrix_cells_and_refuses_an_inline_map(tmp_path):
    text = '[sensors]\nbackend = "matrix"\n[leds]\nbackend = "neopixel"\npin = 18\n[buttons]\n'
    config = parse_config(text)
    path = tmp_path / "c.toml"
    path.write_text(text)
    learn(path, config, swapped_report("a7", "b6"))
    assert "a7 = [1, 0]" in path.read_text() and "b6 = [0, 0]" in path.read_text()
    from morris_pi.config.wiring import DEFAULT_GPIO_MAP

    cells = ", ".join(f"{p} = {v}" for p, v in DEFAULT_GPIO_MAP.items())
    inline = f'[sensors]\nbackend = "gpio"\n[sensors.gpio]\nmap = {{ {cells} }}\n[leds]\nbackend = "neopixel"\n'
    (tmp_path / "i.toml").write_text(inline)
    with pytest.raises(LearnError, match="one point per line"):
        learn(tmp_path / "i.toml", parse_config(inline), swapped_report())
    assert (tmp_path / "i.toml").read_text() == inline


def test_learn_refuses_when_a_dead_switch_leaves_two_points_on_one_input():
    report = Bench(wired={"a7": "d7", "d7": "a7"}, dead={"a7"}).run(sweep=False, point_timeout_s=2)[1]
    with pytest.raises(LearnError, match="would both be on input"):
        learned_map(parse_config(""), report)


# -- the command over emulated hardware, and in the simulator ------------------------


def test_hwtest_on_the_service_backends_learns_then_passes(tmp_path):
    from gpiozero.pins.mock import MockFactory

    from morris_pi.commands.hwtest import selftest
    from morris_pi.hw.factory import build_hardware
    from morris_pi.hw.fakes.i2c import FakeMcp23017, FakeSMBus
    from morris_pi.hw.fakes.spi import FakeSpi, Ws2812Chain

    path = tmp_path / "config.toml"
    path.write_text("[leds]\nbrightness = 1.0\n[buttons]\nnew = 17\n")
    chips = {0x20: FakeMcp23017(0x20), 0x21: FakeMcp23017(0x21)}
    physical = dict(parse_config("").sensors.mcp23017.map)
    physical["f6"], physical["f4"] = physical["f4"], physical["f6"]  # two wires crossed on the board

    def check(config) -> tuple[int, list[str]]:
        clock, spi, factory = ManualClock(), FakeSpi(), MockFactory()
        hw = build_hardware(config, pin_factory=factory, bus=FakeSMBus(*chips.values()), spi=spi, clock=clock)
        chain = Ws2812Chain(spi, config.leds.count)
        men: set[str] = set()
        said: list[str] = []

        def sleep(seconds: float) -> None:  # the person: one action per LED change
            clock.advance(seconds)
            lit = dict(zip(config.leds.order, chain.colours(), strict=False))
            for point, colour in lit.items():
                if colour == PUT_HERE and point not in men:
                    men.add(point)
                elif colour == TAKE_OFF and point in men:
                    men.discard(point)
            for chip in chips.values():
                chip.set_closed({bit for p, (address, bit) in physical.items() if address == chip.address and p in men})

        try:
            code = selftest(
                config, hw, clock=clock, sleep=sleep, test=HwTest(sweep=False), learn_to=path, say=said.append
            )
        finally:
            hw.close()
        return code, said

    code, said = check(parse_config(path.read_text(), str(path)))
    assert code == 1
    assert any("f6: reads as f4" in line for line in said)
    assert any(line.startswith("--learn: wrote the switch map") for line in said)
    assert path.read_text().startswith("[leds]\nbrightness = 1.0\n[buttons]\nnew = 17\n")
    code, said = check(parse_config(path.read_text(), str(path)))
    assert code == 0 and any("24 of 24 points OK" in line for line in said)
    assert any("already right" in line for line in said)


def test_hwtest_runs_on_the_simulated_board():
    from morris_pi.sim.backends import SimBoard

    board = SimBoard(clock=ManualClock())
    colour = {"white": 0}

    def sleep(seconds: float) -> None:
        board.clock.advance(seconds)
        for point, c in dict(board.leds.points).items():
            if c == PUT_HERE and point not in board.hand.board:
                board.hand.place(point, "white")
            elif c == TAKE_OFF and point in board.hand.board:
                board.hand.remove(point)
                board.hand.reset(9)
                colour["white"] += 1

    report = run_selftest(
        board.sensors,
        board.leds,
        board.buttons,
        clock=board.clock,
        sleep=sleep,
        say=board.say,
        test=HwTest(sweep=False),
    )
    assert report.ok and colour["white"] == 24
    assert any("24 of 24 points OK" in line for line in board.said)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["hwtest", "--sim", "--learn"], "the simulator has none to fix"),
        (["hwtest", "--config", "nope.toml"], "no such file"),
    ],
)
def test_hwtest_command_refuses_bad_options(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def _hwtest_sim(argv, capsys, **env):
    """``morris-pi hwtest --sim ...`` on a simulated board whose clock runs as fast as the test sleeps."""
    import argparse

    from morris_pi.commands import hwtest as hwtest_cmd
    from morris_pi.sim.backends import SimBoard

    parser = argparse.ArgumentParser(prog="morris-pi")
    hwtest_cmd.register(parser.add_subparsers(dest="command"))
    board = SimBoard(clock=ManualClock())
    code = hwtest_cmd._run_sim(parser.parse_args(["hwtest", "--sim", *argv]), board=board, sleep=board.clock.advance)
    out, err = capsys.readouterr()
    return code, out, err, board


@pytest.fixture
def no_display(monkeypatch):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")


def test_hwtest_sim_without_a_display_runs_unattended_with_a_scripted_hand(no_display, capsys):
    code, out, err, board = _hwtest_sim(["--auto"], capsys)
    assert code == 0
    assert out.rstrip().endswith("Switches: 24 of 24 points OK.")
    assert "Put a man on a7 (lit blue)." in out  # the same prompts as on the board
    assert err.count("\n") == 1 and "without a window" in err and "no display" in err
    assert board.hand.in_hand["white"] == 9 and not board.hand.board  # every man back in the tray


def test_hwtest_sim_without_a_display_and_nobody_at_the_board_ends_after_the_timeouts(no_display, capsys):
    code, out, err, board = _hwtest_sim(["--no-sweep", "--timeout", "2"], capsys)
    assert code == 1
    assert "Switches: 0 of 24 points OK." in out and out.count("never closed") == 24
    assert "each point ends after --timeout 2 s" in err
    assert board.clock.now() == pytest.approx(48, abs=1)


def test_hwtest_sim_in_a_window_prints_the_report_and_closes_itself_after_show(monkeypatch, capsys):
    import importlib.util

    if importlib.util.find_spec("pygame") is None:
        pytest.skip("pygame is not installed")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # a window nobody sees, on purpose
    code, out, err, board = _hwtest_sim(["--auto", "--no-sweep", "--show", "3"], capsys)
    assert code == 0 and err == ""
    assert out == "Switches: 24 of 24 points OK.\n"
    assert board.said[-1] == "The result stays lit for 3 s: OK points green, faulty points red."
    assert board.stopped.is_set() and set(board.leds.points.values()) == {(0, 200, 0)}


def test_auto_is_only_for_the_simulator(capsys):
    assert cli.main(["hwtest", "--auto"]) == 2
    assert "use it with --sim" in capsys.readouterr().err
