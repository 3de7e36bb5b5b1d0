"""One exception root: every error the project raises derives from ``MorrisPiError``."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import morris_pi
from morris_pi.errors import MorrisPiError
from morris_pi.hw.errors import SensorError
from morris_pi.rules import Game, IllegalTurnError

#: Exceptions that are signals caught inside the layer that raises them, never a caller's
#: concern, and so mixed with no builtin category (adding one could change which existing
#: ``except`` catches them).
SIGNALS = {
    "morris_pi.core.safe_files.UnreadableFile",  # turned into a Record's error or a log line
    "morris_pi.config.values.Invalid",  # its ConfigError is already recorded by the Reader
    "morris_pi.web.routers.common.Refused",  # turned into the HTTP answer
    "morris_pi.commands.replay.ReadFailed",  # turned into the command's message and exit code
}
CATEGORIES = (ValueError, RuntimeError)


def project_exceptions() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(morris_pi.__path__, "morris_pi."):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == module.__name__:
                found.append(value)
    return found


def name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


EXCEPTIONS = project_exceptions()


def test_the_package_has_its_errors():
    names = {name(cls) for cls in EXCEPTIONS}
    assert {"morris_pi.rules.errors.IllegalTurnError", "morris_pi.hw.errors.HardwareError"} <= names
    assert names >= SIGNALS


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=name)
def test_every_error_derives_from_the_root_and_a_builtin_category(cls):
    if cls is MorrisPiError or cls.__name__.startswith("_"):  # the root; a module's private signal
        return
    assert issubclass(cls, MorrisPiError)
    if name(cls) not in SIGNALS:
        assert issubclass(cls, CATEGORIES), f"{name(cls)} is neither a ValueError nor a RuntimeError"


def test_a_caller_catches_any_of_the_projects_errors_with_the_root():
    with pytest.raises(MorrisPiError) as caught:
        Game().play("d6-d5")
    assert isinstance(caught.value, IllegalTurnError) and isinstance(caught.value, ValueError)
    assert str(caught.value) == "d6-d5: white must place: 9 men still in hand (white to move)"
    assert issubclass(SensorError, RuntimeError) and issubclass(SensorError, MorrisPiError)


def test_the_root_is_a_plain_exception():
    assert MorrisPiError.__bases__ == (Exception,)
