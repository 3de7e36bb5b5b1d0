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

#: The builtin categories a project error is mixed with: bad input, a part that fails although
#: the input was fine, a read the operating system failed.
CATEGORIES = (ValueError, RuntimeError, OSError)

#: The signals caught inside the layer that raises them, with the category they carry.
SIGNALS = {
    "morris_pi.core.safe_files.UnreadableFile": ValueError,  # turned into a Record's error or a log line
    "morris_pi.config.values.Invalid": ValueError,  # its ConfigError is already recorded by the Reader
    "morris_pi.web.routers.common.Refused": ValueError,  # turned into the HTTP answer
    "morris_pi.commands.replay.ReadFailed": OSError,  # turned into the command's message and exit code
}


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
    assert names >= SIGNALS.keys()


def is_private(cls: type) -> bool:
    """A module's private control-flow exception (the search's ``_Stop``), never raised to a caller."""
    return cls.__name__.startswith("_")


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=name)
def test_every_error_derives_from_the_root_and_a_builtin_category(cls):
    if cls is MorrisPiError or is_private(cls):
        return
    assert issubclass(cls, MorrisPiError), f"{name(cls)} does not derive from MorrisPiError"
    assert issubclass(cls, CATEGORIES), f"{name(cls)} is neither a ValueError, a RuntimeError nor an OSError"


@pytest.mark.parametrize(("cls_name", "category"), SIGNALS.items())
def test_the_signals_carry_the_category_their_callers_expect(cls_name, category):
    [cls] = [cls for cls in EXCEPTIONS if name(cls) == cls_name]
    assert issubclass(cls, category)


def test_the_walk_sees_the_private_signals_and_leaves_them_alone():
    private = {name(cls) for cls in EXCEPTIONS if is_private(cls)}
    assert "morris_pi.engine.search_types._Stop" in private


def test_a_caller_catches_any_of_the_projects_errors_with_the_root():
    with pytest.raises(MorrisPiError) as caught:
        Game().play("d6-d5")
    assert isinstance(caught.value, IllegalTurnError) and isinstance(caught.value, ValueError)
    assert str(caught.value) == "d6-d5: white must place: 9 men still in hand (white to move)"
    assert issubclass(SensorError, RuntimeError) and issubclass(SensorError, MorrisPiError)


def test_the_root_is_a_plain_exception():
    assert MorrisPiError.__bases__ == (Exception,)
