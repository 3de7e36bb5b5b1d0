"""Saved games and finished-game records, written so a power cut loses nothing.

Layout under the state directory (``/var/lib/morris-pi`` for the service;
systemd passes it as ``$STATE_DIRECTORY``)::

    current.json                       the game in progress, rewritten after every turn
    current.corrupt-<UTC time>.json    a save that could not be read, moved aside
    unarchived-<id>.json               a finished game whose record could not be written yet
    records/<YYYYMMDD-HHMMSS>.txt      one file per finished game, named by the game's id

Every file is written atomically (``morris_pi.core.safe_files``), so a reader
sees either the old file or the new one, never a mixture; file contents go
through its ``Disk`` seam, so a test can run the real storage on a disk that
fills up (``morris_pi.hw.fakes.disk``). The record files are in the format of
``morris_pi.core.record_format``.

Nothing read from the state directory is trusted: a save is read only if it is
a regular file (opened without following links and without blocking, so a FIFO
never hangs the start), at most ``MAX_SAVE_BYTES`` of it, and any failure to
parse it, whatever the exception, moves it aside. A finished game whose record
cannot be written (a full disk) is kept as ``unarchived-<id>.json`` and
archived by ``archive_waiting`` at the next start; the save of a game that is
not archived yet is never cleared or overwritten.

The save's own format is ``morris_pi.core.save_format``.

>>> import tempfile
>>> from morris_pi.rules import Game
>>> storage = Storage(tempfile.mkdtemp())
>>> storage.save_current(Game.from_record("d6 a1 f4"), {"mode": "two-player"})
>>> game, meta = storage.load_current()
>>> game.record, meta
('d6 a1 f4', {'mode': 'two-player'})
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from morris_pi.core.record_format import (
    Record,
    RecordExistsError,
    RecordNotFoundError,
    StorageError,
    format_record,
    game_tags,
    parse_record,
    plain_value,
    player_names,
    result_tag,
)
from morris_pi.core.safe_files import REAL_DISK, Disk, UnreadableFile, atomic_write_text, fsync_dir, read_regular_file
from morris_pi.core.save_format import MAX_SAVE_BYTES, parse_save, save_document
from morris_pi.rules import Game

CURRENT_NAME = "current.json"
RECORDS_DIRNAME = "records"
RECORD_SUFFIX = ".txt"
WAITING_PREFIX = "unarchived-"

#: The largest record file read (``records show``/``list``): same reasoning.
MAX_RECORD_BYTES = 1 << 20

_RECORD_ID = re.compile(r"^\d{8}-\d{6}(?:-\d+)?$")

log = logging.getLogger(__name__)


def default_state_dir() -> Path:
    """Where the service keeps its state: ``$STATE_DIRECTORY`` (set by systemd) or ``/var/lib/morris-pi``."""
    env = os.environ.get("STATE_DIRECTORY", "")
    first = env.split(":")[0]
    return Path(first) if first else Path("/var/lib/morris-pi")


def utc_now() -> datetime:
    return datetime.now(UTC)


# -- storage --------------------------------------------------------------------------


class Storage:
    """The current save and the finished-game records under one state directory.

    ``game_type`` is the class whose ``from_text`` restores a save (default:
    ``morris_pi.rules.Game``); ``clock`` returns the wall-clock time, in UTC,
    for timestamps and ids; ``disk`` writes file contents. All three are
    injected so tests control them.
    """

    def __init__(
        self,
        state_dir: str | os.PathLike[str],
        records_dir: str | os.PathLike[str] | None = None,
        *,
        game_type: Any = None,
        clock: Callable[[], datetime] = utc_now,
        logger: logging.Logger | None = None,
        disk: Disk | None = None,
    ) -> None:
        self.state_dir = Path(state_dir)
        self.records_dir = Path(records_dir) if records_dir is not None else self.state_dir / RECORDS_DIRNAME
        self.current_path = self.state_dir / CURRENT_NAME
        self._game_type = Game if game_type is None else game_type
        self._clock = clock
        self.log = logger or log
        self.disk = disk or REAL_DISK
        self._issued: set[str] = set()
        #: The id in the meta of what ``current.json`` holds, as this object last wrote or read it.
        #: the id in current.json (None: a save without one), or _UNKNOWN before it is read
        self._current_id: object = _UNKNOWN
        #: Ids of finished games whose record could not be written in this run.
        self._held: set[str] = set()
        #: The records index: file name -> (its stat, the parsed record); each file is parsed
        #: once, again only when it changes. ``finish`` updates it as it writes.
        self._index: dict[str, tuple[tuple[int, int, int], Record]] = {}
        self._index_lock = threading.RLock()
        #: The sorted listing and the records directory's mtime it was made at, and when.
        self._listing: tuple[int, float, list[Record]] | None = None

    @property
    def game_type(self) -> Any:
        return self._game_type

    def __repr__(self) -> str:
        records = "" if self.records_dir == self.state_dir / RECORDS_DIRNAME else f" records={str(self.records_dir)!r}"
        return f"<Storage {str(self.state_dir)!r}{records}>"

    def _now(self) -> datetime:
        now = self._clock()
        return now.astimezone(UTC) if now.tzinfo else now.replace(tzinfo=UTC)

    # -- the game in progress -----------------------------------------------------------

    def save_current(self, game: Any, meta: Mapping[str, Any]) -> None:
        """Write the game in progress atomically, replacing the previous save.

        ``meta`` (mode, human colour, level, profile, ...) must be JSON data; if it
        is not, ``StorageError`` is raised and the old save stays as it was. A save
        of another game that is not archived yet is moved to ``unarchived-<id>.json``
        first, never overwritten.
        """
        text = save_document(game, meta, self._now())
        self.state_dir.mkdir(parents=True, exist_ok=True)
        if meta.get("id") != self._current_id:
            self._protect_current()
        atomic_write_text(self.current_path, text, disk=self.disk)
        self._current_id = meta.get("id")

    def load_current(self) -> tuple[Any, dict[str, Any]] | None:
        """The saved game and its meta data, or ``None`` if there is none to resume.

        A save that cannot be used, for whatever reason, is moved aside (never
        deleted), a WARNING names the file and the fault, and ``None`` is
        returned so a new game starts.
        """
        self._remove_stale_temporaries()
        try:
            game, meta = parse_save(read_regular_file(self.current_path, MAX_SAVE_BYTES), self.game_type)
        except FileNotFoundError:
            self._current_id = None
            return None
        except UnreadableFile as exc:
            self._set_aside(str(exc))
            return None
        self._current_id = meta.get("id")
        return game, meta

    def clear_current(self) -> None:
        """Forget the game in progress (after it is archived, or abandoned on purpose).

        The save of a finished game whose record could not be written is moved
        to ``unarchived-<id>.json`` instead of being deleted.
        """
        self._protect_current()
        try:
            self.current_path.unlink()
        except FileNotFoundError:
            pass
        else:
            fsync_dir(self.state_dir)
        self._current_id = None

    def _protect_current(self) -> None:
        """Keep the save of a game waiting for its record out of the way of the next write."""
        held = self._current_id
        if not isinstance(held, str) or held not in self._held:
            return
        waiting = self._waiting_path(held)
        if waiting.exists() or not self.current_path.exists():
            return  # the finished game itself is kept there already
        os.replace(self.current_path, waiting)  # a rename needs no free space
        fsync_dir(self.state_dir)
        self._current_id = None
        self.log.warning("kept the save of game %s as %s until its record can be written", held, waiting)

    def _set_aside(self, problem: str, path: Path | None = None) -> None:
        path = path or self.current_path
        stamp = self._now().strftime("%Y%m%dT%H%M%SZ")
        stem = path.name[: -len(".json")] if path.name.endswith(".json") else path.name
        target = self.state_dir / f"{stem}.corrupt-{stamp}.json"
        n = 1
        while os.path.lexists(target):
            n += 1
            target = self.state_dir / f"{stem}.corrupt-{stamp}-{n}.json"
        try:
            os.replace(path, target)
            fsync_dir(self.state_dir)
        except OSError as exc:
            # Leave it where it is rather than lose it; the next save will overwrite it,
            # so say so loudly.
            self.log.error(
                "saved game %s is unusable (%s) and could not be moved aside (%s); "
                "starting a new game, and the next save will replace it",
                path,
                problem,
                exc,
            )
            return None
        self.log.warning(
            "saved game %s is unusable (%s); moved it to %s and starting a new game",
            path,
            problem,
            target,
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
            "Event": str(
                meta.get("event") or ("Game against the computer" if meta.get("mode") == "computer" else "Casual game")
            ),
            "Site": str(meta.get("site") or "morris-pi"),
            "Date": now.strftime("%Y.%m.%d"),
            "Time": now.strftime("%H:%M:%SZ"),
            "White": white,
            "Black": black,
            "Profile": str(profile),
            "Result": result_tag(outcome),
            "Reason": str(plain_value(getattr(outcome, "reason", None)) or "unfinished"),
            "Turns": str(len(record_text.split())),
        }
        if meta.get("mode"):
            tags["Mode"] = str(meta["mode"])
        if meta.get("mode") == "computer" and meta.get("level") is not None:
            tags["Level"] = str(meta["level"])
        tags.update(game_tags(meta))
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
        try:
            self.records_dir.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, format_record(tags, record_text), disk=self.disk)
        except OSError:
            self._hold(game, meta, record_id)
            raise
        self._held.discard(record_id)
        written = Record(record_id, path, tags, " ".join(record_text.split()))
        try:
            self._index[path.name] = (_stat_key(path.stat()), written)
        except OSError:
            self._index.pop(path.name, None)
        self._listing = None
        waiting = self._waiting_path(record_id)
        if waiting.exists():
            waiting.unlink()
            fsync_dir(self.state_dir)
        if self._holds(given):
            self.clear_current()
        self.log.info(
            "game %s record %s (%s, %s)",
            "re-archived as" if again else "archived as",
            record_id,
            tags["Result"],
            tags["Reason"],
        )
        return written

    def _holds(self, game_id: object) -> bool:
        """Whether ``current.json`` is the save of the game with this id (``None``: without one)."""
        if self._current_id is _UNKNOWN:
            try:
                _, meta = parse_save(read_regular_file(self.current_path, MAX_SAVE_BYTES), self.game_type)
            except (FileNotFoundError, UnreadableFile):
                return False
            self._current_id = meta.get("id")
        return self._current_id == game_id

    def _waiting_path(self, record_id: str) -> Path:
        return self.state_dir / f"{WAITING_PREFIX}{record_id}.json"

    def _hold(self, game: Any, meta: Mapping[str, Any], record_id: str) -> None:
        """The record could not be written: keep the finished game on disk if at all possible."""
        self._held.add(record_id)
        try:
            text = save_document(game, {**meta, "id": record_id}, self._now())
            self.state_dir.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self._waiting_path(record_id), text, disk=self.disk)
        except (OSError, StorageError):
            # No room even for that: the last save stays, and _protect_current moves it
            # out of the way (a rename, which needs no space) before anything replaces it.
            pass

    def waiting(self) -> list[Path]:
        """The finished games waiting for their records, oldest id first."""
        if not self.state_dir.is_dir():
            return []
        return sorted(p for p in self.state_dir.glob(f"{WAITING_PREFIX}*.json") if ".corrupt-" not in p.name)

    def archive_waiting(self) -> list[Record]:
        """Write the record of every finished game that is waiting for one (see ``finish``).

        An unusable waiting file is moved aside like an unusable save. The first
        write that fails raises ``OSError``; the rest stay waiting.
        """
        done = []
        for path in self.waiting():
            try:
                game, meta = parse_save(read_regular_file(path, MAX_SAVE_BYTES), self.game_type)
            except FileNotFoundError:
                continue
            except UnreadableFile as exc:
                self._set_aside(str(exc), path)
                continue
            meta.setdefault("id", path.name[len(WAITING_PREFIX) : -len(".json")])
            if getattr(game, "outcome", None) is None:
                self.log.warning(
                    "game %s waited for its record without its last turns (the disk was full); "
                    "archiving it as unfinished",
                    meta["id"],
                )
            done.append(self.finish(game, meta))
        return done

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
        """Every record, oldest first. A file that does not parse is listed with its ``error``.

        Served from the index: the directory is listed again only when it changed (or
        ``RESCAN_S`` after the last look, for a file edited in place), and a file is parsed
        only when it is new or changed. With thousands of records a call costs a
        ``stat`` of the directory. Do not modify the returned records. Safe from several
        threads at once (the board loop, the web page, the background reviews): one of them
        reads the files, the others wait for its listing.
        """
        with self._index_lock:
            return self._list_records()

    def _list_records(self) -> list[Record]:
        try:
            directory_mtime = self.records_dir.stat().st_mtime_ns
        except OSError:
            return []
        now = time.monotonic()
        listing = self._listing
        if listing is not None and listing[0] == directory_mtime and now - listing[1] < RESCAN_S:
            return list(listing[2])
        seen: dict[str, tuple[tuple[int, int, int], Record]] = {}
        try:
            entries = list(os.scandir(self.records_dir))
        except OSError:
            return []
        for entry in entries:
            name = entry.name
            if name.startswith(".") or not name.endswith(RECORD_SUFFIX):
                continue
            try:
                key = _stat_key(entry.stat())
            except OSError:
                continue
            known = self._index.get(name)
            seen[name] = known if known is not None and known[0] == key else (key, self._read(Path(entry.path)))
        self._index = seen
        records = [seen[name][1] for name in sorted(seen, key=lambda n: _record_order(Path(n)))]
        self._listing = (directory_mtime, now, records)
        return list(records)

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
                f"record id {record_id!r} is ambiguous: it matches {', '.join(r.id for r in matches[:5])}"
                + (f" and {len(matches) - 5} more" if len(matches) > 5 else "")
            )
        hint = "ids look like 20250601-140322" if not _RECORD_ID.match(record_id) else "see 'morris-pi records list'"
        raise RecordNotFoundError(f"no record {record_id!r} in {self.records_dir} ({hint})")

    def delete_unfinished(self, record_id: str) -> Record:
        """Delete the record of a game that was never finished (Result ``*``); returns it.

        Finished games are the board's history and are never deleted here
        (``RecordNotFoundError`` or ``StorageError`` say why not)."""
        record = self.get_record(record_id)
        if record.error:
            raise StorageError(f"record {record.id} cannot be read ({record.error}): it is not deleted")
        if record.tags.get("Result", "*") != "*":
            raise StorageError(f"record {record.id} is a finished game ({record.tags['Result']}): it is kept")
        try:
            record.path.unlink()
            fsync_dir(self.records_dir)
        except FileNotFoundError:
            pass
        self._index.pop(record.path.name, None)
        self._listing = None
        self.log.info("deleted the unfinished game %s", record.id)
        return record

    def export(
        self,
        record_id: str,
        dest: str | os.PathLike[str] | TextIO | None = None,
        *,
        overwrite: bool = False,
        convert: Callable[[Record], str] | None = None,
    ) -> Record:
        """Copy a record file verbatim to ``dest`` (a path or an open text stream; default stdout),
        or the text ``convert(record)`` makes of it (another notation).

        A new file is created exclusively and never through a symbolic link, so an
        existing file, or a link (even a dangling one) at ``dest``, is never written
        through. With ``overwrite`` the file is replaced atomically: a link there is
        replaced by the file, not followed.
        """
        record = self.get_record(record_id)
        if record.error:
            raise StorageError(f"record {record.id} cannot be read: {record.error}")
        try:
            if convert is not None:
                text = convert(record)
            else:
                text = read_regular_file(record.path, MAX_RECORD_BYTES).decode("utf-8")
        except (UnreadableFile, UnicodeDecodeError) as exc:
            raise StorageError(f"record {record.id} cannot be read: {exc}") from None
        if dest is None:
            dest = sys.stdout
        if not isinstance(dest, (str, os.PathLike)):
            dest.write(text)
            return record
        target = Path(dest)
        if target.is_dir():
            target = target / record.path.name
        if overwrite:
            atomic_write_text(target, text)
            return record
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(target, flags, 0o644)
        except FileExistsError:
            what = "a symbolic link" if target.is_symlink() else "a file"
            raise RecordExistsError(target, what) from None
        try:
            REAL_DISK.write(fd, text.encode("utf-8"))
        except BaseException:
            os.close(fd)
            target.unlink(missing_ok=True)
            raise
        os.close(fd)
        return record

    def _read(self, path: Path) -> Record:
        record_id = path.name[: -len(RECORD_SUFFIX)]
        try:
            text = read_regular_file(path, MAX_RECORD_BYTES).decode("utf-8")
            tags, body = parse_record(text, where=str(path))
        except FileNotFoundError as exc:
            return Record(record_id, path, error=f"vanished while being read ({exc.strerror})")
        except (UnreadableFile, UnicodeDecodeError, StorageError) as exc:
            return Record(record_id, path, error=f"{exc}; not read" if isinstance(exc, UnreadableFile) else str(exc))
        return Record(record_id, path, tags, body)


_UNKNOWN = object()

#: Seconds after which ``list_records`` looks at every file again even if the directory did not
#: change (a record edited in place keeps the directory's mtime).
RESCAN_S = 30.0


def _stat_key(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _record_order(path: Path) -> tuple[str, int, str]:
    # "20250601-090000-2" comes after "20250601-090000", which plain string order gets wrong.
    stem = path.name[: -len(RECORD_SUFFIX)]
    match = re.fullmatch(r"(\d{8}-\d{6})(?:-(\d+))?", stem)
    if match:
        return match.group(1), int(match.group(2) or 1), stem
    return stem, 0, stem
