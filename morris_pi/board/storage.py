"""Saved games and finished-game records, written so a power cut loses nothing.

Layout under the state directory (``/var/lib/morris-pi`` for the service;
systemd passes it as ``$STATE_DIRECTORY``)::

    current.json                       the game in progress, rewritten after every turn
    current.corrupt-<UTC time>.json    a save that could not be read, moved aside
    records/<YYYYMMDD-HHMMSS>.txt      one file per finished game, named by the game's id

Every file is written atomically: a temporary file in the same directory is
written, flushed and fsynced, renamed over the target with ``os.replace``, and
then the directory itself is fsynced so the rename survives a power cut. A
reader therefore sees either the old file or the new one, never a mixture.

The save is JSON rather than TOML because the standard library both reads and
writes JSON, because any game text nests in it safely as one escaped string,
and because a file cut short anywhere fails to parse instead of reading as a
shorter but valid file.

>>> import tempfile
>>> from morris_pi.rules import Game
>>> storage = Storage(tempfile.mkdtemp())
>>> storage.save_current(Game.from_record("d6 a1 f4"), {"mode": "two-player"})
>>> game, meta = storage.load_current()
>>> game.record, meta
('d6 a1 f4', {'mode': 'two-player'})
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

#: Identifies a save file and its layout version; ``load_current`` refuses others.
SAVE_FORMAT = "morris-pi/save"
SAVE_VERSION = 1

CURRENT_NAME = "current.json"
RECORDS_DIRNAME = "records"
RECORD_SUFFIX = ".txt"

#: Tags written first, in this order; any further tags follow alphabetically.
RECORD_TAGS: tuple[str, ...] = (
    "Event", "Site", "Date", "Time", "White", "Black", "Profile", "Result", "Reason", "Turns",
)

_TAG_LINE = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$')
_RECORD_ID = re.compile(r"^\d{8}-\d{6}(?:-\d+)?$")

log = logging.getLogger(__name__)


class StorageError(ValueError):
    """Bad input to storage: an unknown record id, a record file that does not parse, ..."""


class RecordExistsError(StorageError):
    """The file a record is to be exported to exists already (and overwriting was not allowed)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} already exists; choose another name or allow overwriting")
        self.path = path


class RecordNotFoundError(StorageError):
    """No record has the given id."""


def default_state_dir() -> Path:
    """Where the service keeps its state: ``$STATE_DIRECTORY`` (set by systemd) or ``/var/lib/morris-pi``."""
    env = os.environ.get("STATE_DIRECTORY", "")
    first = env.split(":")[0]
    return Path(first) if first else Path("/var/lib/morris-pi")


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


# -- atomic files ---------------------------------------------------------------------


def fsync_dir(directory: Path) -> None:
    """Make a rename or unlink in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    except OSError as exc:
        # Some file systems (vfat on a boot partition, some FUSE) refuse fsync on a directory;
        # the rename has still happened, so this is not worth failing the save for.
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str, mode: int = 0o644) -> None:
    """Replace ``path`` with ``text`` so that readers see the old or the new file, never a part.

    If anything fails before the rename, the temporary file is removed, the old
    file is untouched and the error propagates.
    """
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def atomic_write_bytes(path: Path, data: bytes, mode: int = 0o644) -> None:
    """``atomic_write_text`` for bytes (a PNG picture, say)."""
    directory = path.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp creates 0600; records and saves are not secret, and the user listing
        # records from a login shell is not the service user.
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            fd = -1  # the file object owns it now
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        if fd != -1:
            os.close(fd)
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(directory)


# -- records --------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """One finished game as stored: its id, file, header tags and notation."""

    id: str
    path: Path
    tags: dict[str, str] = field(default_factory=dict)
    record: str = ""
    error: str | None = None  # why the file could not be parsed, if it could not

    @property
    def turns(self) -> list[str]:
        return self.record.split()


def _escape(value: str) -> str:
    value = " ".join(str(value).split())  # tag values are one line
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format_record(tags: Mapping[str, str], record: str, width: int = 79) -> str:
    """The text of a record file: tag lines, a blank line, the turns wrapped at ``width``.

    >>> print(format_record({"Result": "1-0", "Event": "Casual game"}, "d6 a1 f4"))
    [Event "Casual game"]
    [Result "1-0"]
    <BLANKLINE>
    d6 a1 f4
    <BLANKLINE>
    """
    ordered = [t for t in RECORD_TAGS if t in tags] + sorted(t for t in tags if t not in RECORD_TAGS)
    lines = []
    for name in ordered:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise StorageError(f"record tag name {name!r} must be letters, digits and '_'")
        lines.append(f'[{name} "{_escape(tags[name])}"]')
    lines.append("")
    row: list[str] = []
    for token in record.split():
        if row and len(" ".join([*row, token])) > width:
            lines.append(" ".join(row))
            row = []
        row.append(token)
    if row:
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"


def parse_record(text: str, where: str = "record") -> tuple[dict[str, str], str]:
    """Split a record file into its tags and its turns; ``StorageError`` names the bad line.

    >>> parse_record('[Result "0-1"]\\n\\nd6 a1\\nf4\\n')
    ({'Result': '0-1'}, 'd6 a1 f4')
    """
    tags: dict[str, str] = {}
    lines = text.splitlines()
    body_start = len(lines)
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            body_start = number
            break
        match = _TAG_LINE.match(stripped)
        if not match:
            if stripped.startswith("["):
                raise StorageError(f"{where}, line {number}: malformed tag line {stripped!r}")
            body_start = number - 1
            break
        tags[match.group(1)] = _unescape(match.group(2))
    body = " ".join(" ".join(lines[body_start:]).split())
    for offset, line in enumerate(lines[body_start:], body_start + 1):
        if line.strip().startswith("["):
            raise StorageError(f"{where}, line {offset}: tag line after the turns")
    return tags, body


def _plain(value: Any) -> Any:
    """An enum member's value, else the value itself."""
    return getattr(value, "value", value)


def result_tag(outcome: Any) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unfinished), as in PGN."""
    if outcome is None:
        return "*"
    winner = _plain(getattr(outcome, "winner", None))
    if winner is None:
        return "1/2-1/2"
    return {"white": "1-0", "black": "0-1"}.get(str(winner).lower(), "*")


def player_names(meta: Mapping[str, Any]) -> tuple[str, str]:
    """White and Black tag values from the game's meta data.

    >>> player_names({"mode": "computer", "human": "black", "level": 4})
    ('Computer (level 4)', 'Player')
    >>> player_names({"mode": "two-player"})
    ('Player', 'Player')
    """
    names = {"white": "Player", "black": "Player"}
    if meta.get("mode") == "computer":
        human = str(meta.get("human", "white"))
        computer = "black" if human == "white" else "white"
        level = meta.get("level")
        names[computer] = f"Computer (level {level})" if level is not None else "Computer"
    for side in names:
        if meta.get(side):
            names[side] = str(meta[side])
    return names["white"], names["black"]


# -- storage --------------------------------------------------------------------------


class Storage:
    """The current save and the finished-game records under one state directory.

    ``game_type`` is the class whose ``from_text`` restores a save (default:
    ``morris_pi.rules.Game``); ``clock`` returns the wall-clock time, in UTC,
    for timestamps and ids. Both are injected so tests control them.
    """

    def __init__(
        self,
        state_dir: str | os.PathLike[str],
        records_dir: str | os.PathLike[str] | None = None,
        *,
        game_type: Any = None,
        clock: Callable[[], datetime] = utc_now,
        logger: logging.Logger | None = None,
    ) -> None:
        self.state_dir = Path(state_dir)
        self.records_dir = Path(records_dir) if records_dir is not None else self.state_dir / RECORDS_DIRNAME
        self.current_path = self.state_dir / CURRENT_NAME
        self._game_type = game_type
        self._clock = clock
        self.log = logger or log
        self._issued: set[str] = set()

    @property
    def game_type(self) -> Any:
        if self._game_type is None:
            from morris_pi.rules import Game  # floor 1; imported late so storage loads without it

            self._game_type = Game
        return self._game_type

    def _now(self) -> datetime:
        now = self._clock()
        return now.astimezone(timezone.utc) if now.tzinfo else now.replace(tzinfo=timezone.utc)

    # -- the game in progress -----------------------------------------------------------

    def save_current(self, game: Any, meta: Mapping[str, Any]) -> None:
        """Write the game in progress atomically, replacing the previous save.

        ``meta`` (mode, human colour, level, profile, ...) must be JSON data; if it
        is not, ``StorageError`` is raised and the old save stays as it was.
        """
        document = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "saved_at": self._now().isoformat(timespec="seconds"),
            "meta": dict(meta),
            "game": game.to_text(),
        }
        try:
            text = json.dumps(document, indent=2, sort_keys=False, allow_nan=False) + "\n"
        except (TypeError, ValueError) as exc:
            raise StorageError(f"cannot save the game: its meta data is not plain JSON data ({exc})") from None
        self.state_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.current_path, text)

    def load_current(self) -> tuple[Any, dict[str, Any]] | None:
        """The saved game and its meta data, or ``None`` if there is none to resume.

        A save that cannot be used is moved aside (never deleted), a WARNING names
        the file and the fault, and ``None`` is returned so a new game starts.
        """
        self._remove_stale_temporaries()
        try:
            raw = self.current_path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            return self._set_aside(f"cannot read it: {exc.strerror or exc}")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return self._set_aside(f"not UTF-8 text (byte {exc.start})")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            what = "empty file" if not text.strip() else f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
            return self._set_aside(what)
        problem = _check_save(data)
        if problem:
            return self._set_aside(problem)
        try:
            game = self.game_type.from_text(data["game"])
        except ValueError as exc:
            return self._set_aside(f"the game in it is inconsistent: {exc}")
        return game, dict(data["meta"])

    def clear_current(self) -> None:
        """Forget the game in progress (after it is archived, or abandoned on purpose)."""
        try:
            self.current_path.unlink()
        except FileNotFoundError:
            return
        fsync_dir(self.state_dir)

    def _set_aside(self, problem: str) -> None:
        stamp = self._now().strftime("%Y%m%dT%H%M%SZ")
        target = self.state_dir / f"current.corrupt-{stamp}.json"
        n = 1
        while target.exists():
            n += 1
            target = self.state_dir / f"current.corrupt-{stamp}-{n}.json"
        try:
            os.replace(self.current_path, target)
            fsync_dir(self.state_dir)
        except OSError as exc:
            # Leave it where it is rather than lose it; the next save will overwrite it,
            # so say so loudly.
            self.log.error(
                "saved game %s is unusable (%s) and could not be moved aside (%s); "
                "starting a new game, and the next save will replace it",
                self.current_path, problem, exc,
            )
            return None
        self.log.warning(
            "saved game %s is unusable (%s); moved it to %s and starting a new game",
            self.current_path, problem, target,
        )
        return None

    def _remove_stale_temporaries(self) -> None:
        # A power cut during a save leaves its temporary file behind; the save it was
        # meant to replace is intact, so the partial copy holds nothing worth keeping.
        for directory in (self.state_dir, self.records_dir):
            if not directory.is_dir():
                continue
            for stale in directory.glob(".*.tmp"):
                try:
                    stale.unlink()
                    self.log.info("removed %s, left over from an interrupted save", stale)
                except OSError as exc:
                    self.log.warning("cannot remove leftover temporary file %s: %s", stale, exc)

    # -- finished games -------------------------------------------------------------------

    def finish(self, game: Any, meta: Mapping[str, Any]) -> Record:
        """Archive a game as a record file, then clear the current save.

        The record is written before the save is cleared: a power cut between the
        two leaves both, never neither. The record is named by ``meta["id"]`` (see
        ``new_game_id``) when it holds one, so archiving the resumed save again
        replaces that record rather than adding a second; without an id, by the UTC
        time now. ``meta["event"]`` overrides the Event tag.
        A game without an outcome is archived with Result ``*``.
        """
        now = self._now()
        outcome = getattr(game, "outcome", None)
        record_text = game.record() if callable(getattr(game, "record", None)) else str(game.record)
        profile = getattr(getattr(game, "profile", None), "name", None) or meta.get("profile") or "?"
        white, black = player_names(meta)
        tags = {
            "Event": str(meta.get("event") or ("Game against the computer" if meta.get("mode") == "computer" else "Casual game")),
            "Site": str(meta.get("site") or "morris-pi"),
            "Date": now.strftime("%Y.%m.%d"),
            "Time": now.strftime("%H:%M:%SZ"),
            "White": white,
            "Black": black,
            "Profile": str(profile),
            "Result": result_tag(outcome),
            "Reason": str(_plain(getattr(outcome, "reason", None)) or "unfinished"),
            "Turns": str(len(record_text.split())),
        }
        if meta.get("mode"):
            tags["Mode"] = str(meta["mode"])
        if meta.get("mode") == "computer" and meta.get("level") is not None:
            tags["Level"] = str(meta["level"])
        self.records_dir.mkdir(parents=True, exist_ok=True)
        given = meta.get("id")
        if isinstance(given, str) and _RECORD_ID.match(given):
            # The game's own id (from ``new_game_id``, kept in the save's meta): archiving the
            # same game again, after a power cut between writing the record and clearing the
            # save, or after a takeback past the end, replaces its record instead of adding one.
            record_id = given
        else:
            record_id = self._free_id(now)
        path = self.records_dir / f"{record_id}{RECORD_SUFFIX}"
        again = path.exists()
        atomic_write_text(path, format_record(tags, record_text))
        self.clear_current()
        self.log.info("game %s record %s (%s, %s)", "re-archived as" if again else "archived as",
                      record_id, tags["Result"], tags["Reason"])
        return Record(record_id, path, tags, " ".join(record_text.split()))

    def new_game_id(self) -> str:
        """An id for a game starting now (UTC start time), unused by any record or earlier id.

        Keep it in the save's meta as ``"id"``: ``finish`` then names the record
        after it, so a game is never archived twice under two names.
        """
        record_id = self._free_id(self._now())
        self._issued.add(record_id)
        return record_id

    def _free_id(self, now: datetime) -> str:
        base = now.strftime("%Y%m%d-%H%M%S")
        record_id, n = base, 1
        while record_id in self._issued or (self.records_dir / f"{record_id}{RECORD_SUFFIX}").exists():
            n += 1
            record_id = f"{base}-{n}"
        return record_id

    def list_records(self) -> list[Record]:
        """Every record, oldest first. A file that does not parse is listed with its ``error``."""
        if not self.records_dir.is_dir():
            return []
        records = []
        for path in sorted(self.records_dir.glob(f"*{RECORD_SUFFIX}"), key=_record_order):
            if path.name.startswith("."):
                continue
            records.append(self._read(path))
        return records

    def get_record(self, record_id: str) -> Record:
        """The record with this id, the unique record whose id starts with it, or ``latest``."""
        records = self.list_records()
        if not records:
            raise RecordNotFoundError(f"no records in {self.records_dir} yet")
        if record_id == "latest":
            return records[-1]
        for record in records:
            if record.id == record_id:
                return record
        matches = [r for r in records if r.id.startswith(record_id)] if record_id else []
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise RecordNotFoundError(
                f"record id {record_id!r} is ambiguous: it matches {', '.join(r.id for r in matches)}"
            )
        hint = "ids look like 20250601-140322" if not _RECORD_ID.match(record_id) else "see 'morris-pi records list'"
        raise RecordNotFoundError(f"no record {record_id!r} in {self.records_dir} ({hint})")

    def export(self, record_id: str, dest: str | os.PathLike[str] | TextIO | None = None, *, overwrite: bool = False,
               convert: Callable[[Record], str] | None = None) -> Record:
        """Copy a record file verbatim to ``dest`` (a path or an open text stream; default stdout),
        or the text ``convert(record)`` makes of it (another notation).

        An existing file is never overwritten unless ``overwrite`` is set.
        """
        import sys

        record = self.get_record(record_id)
        text = convert(record) if convert is not None else record.path.read_text(encoding="utf-8")
        if dest is None:
            dest = sys.stdout
        if hasattr(dest, "write"):
            dest.write(text)  # type: ignore[union-attr]
            return record
        target = Path(dest)  # type: ignore[arg-type]
        if target.is_dir():
            target = target / record.path.name
        if target.exists() and not overwrite:
            raise RecordExistsError(target)
        target.write_text(text, encoding="utf-8")
        return record

    def _read(self, path: Path) -> Record:
        record_id = path.name[: -len(RECORD_SUFFIX)]
        try:
            text = path.read_text(encoding="utf-8")
            tags, body = parse_record(text, where=str(path))
        except (OSError, UnicodeDecodeError, StorageError) as exc:
            return Record(record_id, path, error=str(exc))
        return Record(record_id, path, tags, body)


def _record_order(path: Path) -> tuple[str, int, str]:
    # "20250601-090000-2" comes after "20250601-090000", which plain string order gets wrong.
    stem = path.name[: -len(RECORD_SUFFIX)]
    match = re.fullmatch(r"(\d{8}-\d{6})(?:-(\d+))?", stem)
    if match:
        return match.group(1), int(match.group(2) or 1), stem
    return stem, 0, stem


def _check_save(data: Any) -> str | None:
    """What is wrong with a parsed save document, or ``None``."""
    if not isinstance(data, dict):
        return f"expected a JSON object, found {type(data).__name__}"
    if data.get("format") != SAVE_FORMAT:
        return f"format is {data.get('format')!r}, expected {SAVE_FORMAT!r}"
    version = data.get("version")
    if version != SAVE_VERSION:
        return f"format version {version!r}, this program reads version {SAVE_VERSION}"
    if not isinstance(data.get("meta"), dict):
        return "'meta' is missing or not an object"
    if not isinstance(data.get("game"), str):
        return "'game' is missing or not text"
    return None
