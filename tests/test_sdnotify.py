"""sd_notify messages arrive at a real AF_UNIX datagram socket, as systemd would receive them."""

from __future__ import annotations

import os
import socket
import tempfile

import pytest

from morris_pi.service.sdnotify import Notifier, watchdog_interval


@pytest.fixture
def listener(tmp_path):
    # AF_UNIX paths are limited to ~107 bytes; a deep tmp_path may be too long.
    directory = tmp_path if len(str(tmp_path)) < 80 else tempfile.mkdtemp(prefix="sdn")
    path = os.path.join(directory, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(0)  # everything sent has already arrived: datagrams are delivered on send
    yield path, sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    messages = []
    while True:
        try:
            messages.append(sock.recv(4096).decode())
        except BlockingIOError:
            return messages


def test_messages_reach_the_socket_named_in_the_environment(listener):
    path, sock = listener
    notifier = Notifier(env={"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready("resumed game, white to move")
    assert notifier.status("engine thinking\n(level 5)")
    assert notifier.watchdog()
    assert notifier.stopping()
    notifier.close()
    assert received(sock) == [
        "READY=1\nSTATUS=resumed game, white to move",
        "STATUS=engine thinking (level 5)",
        "WATCHDOG=1",
        "STOPPING=1",
    ]


def test_reads_os_environ_by_default(listener, monkeypatch):
    path, sock = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    assert Notifier().ready()
    assert received(sock) == ["READY=1"]


@pytest.mark.skipif(
    not hasattr(socket, "AF_UNIX") or os.uname().sysname != "Linux", reason="abstract sockets are Linux only"
)
def test_abstract_socket_with_at_sign():
    name = f"morris-pi-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(0)
    try:
        assert Notifier(env={"NOTIFY_SOCKET": "@" + name}).watchdog()
        assert received(sock) == ["WATCHDOG=1"]
    finally:
        sock.close()


def test_without_notify_socket_nothing_happens(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier()
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog() is False


def test_a_vanished_socket_is_logged_once_and_never_raises(tmp_path, caplog):
    notifier = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.watchdog() is False
    assert notifier.watchdog() is False
    assert caplog.text.count("cannot notify systemd") == 1


def test_unusable_socket_value_is_ignored_with_a_warning(caplog):
    assert not Notifier(env={"NOTIFY_SOCKET": "vsock:2:1234"}).enabled
    assert "neither a path nor an abstract socket" in caplog.text


def test_fields_must_be_key_value(listener):
    path, _ = listener
    with pytest.raises(ValueError, match="KEY=value"):
        Notifier(env={"NOTIFY_SOCKET": path}).notify("READY")


@pytest.mark.parametrize(
    "env, pid, expected",
    [
        ({"WATCHDOG_USEC": "30000000"}, 10, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "10"}, 10, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "11"}, 10, None),  # inherited by a child
        ({"WATCHDOG_USEC": "0"}, 10, None),
        ({"WATCHDOG_USEC": "soon"}, 10, None),
        ({"WATCHDOG_USEC": "1000", "WATCHDOG_PID": "x"}, 10, None),
        ({}, 10, None),
    ],
)
def test_watchdog_interval_is_half_the_period(env, pid, expected):
    assert watchdog_interval(env=env, pid=pid) == expected


def test_watchdog_interval_checks_our_own_pid_by_default(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 1.0
