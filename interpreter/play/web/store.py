"""Nothing lost: each table on disk, written move by move, read back after a restart.

One folder per table under ``DATA/tables/ID/``:

- ``table.json``: what the table was set up with (the rules file, players, seed, parameters,
  each seat's kind, agent and private token, the spectator's token);
- ``moves.jsonl``: one line per move, in the record's move format (``{"player", "move", "card",
  "to"}``), written before the move is played; a person's choice held in a simultaneous phase
  until the engine asks that seat is written when it is made, as ``{"hold": MOVE}``, so that a
  restart holds it again;
- ``game.jsonl``: once the game is over, its whole record (``ruleset replay`` reads it).

A restart reads every folder and replays the moves through the rules (with the same seed the
deals come out the same), so an unfinished table goes on where it was.

The journal is a file descriptor opened for appending, with no buffer in this process: a line is
one ``os.write`` of the whole line, and a move counts once that returned (so it survives the
process being killed); with ``sync`` each line is also ``fdatasync``-ed before it counts (so it
survives a power loss). A write the disk refuses (full, an I/O error) is cut back off the file
and raised as a SaveError: the move is not played and the journal is as it was. A torn last line
(the server died while writing it) is cut off before the next line is appended. Whole files
(``table.json``, ``game.jsonl``, uploads) are written to a temporary file in the same folder,
``fsync``-ed, and renamed over the old one: a reader sees the old file or the new one, never a
part.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from ...engine.records import dumps
from ...errors import SaveError

TMP = ".tmp"  # the suffix of a whole file being written (a crash may leave one: removed at start)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_datasync = getattr(os, "fdatasync", os.fsync)  # (the data without the times where the system has it)


def _write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` (a full disk may take part of it, then refuse the rest: OSError)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


def write_whole(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` at once: a crash or a full disk leaves the old file (or none), never a part."""
    tmp = path.with_name(path.name + TMP)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | CLOEXEC, 0o644)
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise SaveError(f"{path.name} could not be saved: {_reason(err)}") from None
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make a folder's new or renamed entries last through a power loss (best effort)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def read_journal(data: bytes) -> tuple[list[dict[str, Any]], int | None]:
    """The moves of a journal's bytes and how many bytes they fill (the rest is a torn last line to
    cut off); when a line before the last is not a move, the moves up to it, then ``{"unreadable":
    LINE}``, and no length (nothing is cut: the lines after it were written whole)."""
    lines = data.split(b"\n")
    moves: list[dict[str, Any]] = []
    end = 0
    for number, line in enumerate(lines[:-1], 1):
        try:
            move = json.loads(line)
        except ValueError:
            move = None
        if not isinstance(move, dict):
            if number == len(lines) - 1 and not lines[-1]:
                break  # the last line, written in part and then padded (a power loss): torn
            return [*moves, {"unreadable": number}], None
        moves.append(move)
        end += len(line) + 1
    return moves, end


class Journal:
    """One table's ``moves.jsonl``, open for appending: a line counts once it is whole on disk."""

    def __init__(self, path: Path, size: int | None, sync: bool):
        self.sync = sync
        self.broken: OSError | None = None  # a refused line that could not be cut back off
        self.unsynced = False
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | CLOEXEC, 0o644)
        try:
            if size is None:  # (a table of this run, or a journal not read whole at the start)
                size = path.read_bytes().rfind(b"\n") + 1  # its whole lines
            self.size = size
            if os.fstat(self.fd).st_size != size:
                os.ftruncate(self.fd, size)  # a torn last line: new lines must not follow a fragment
        except OSError:
            os.close(self.fd)
            raise

    def append(self, line: bytes) -> None:
        """Write one whole line, or raise OSError leaving the file as it was."""
        if self.broken is not None:
            raise OSError(self.broken.errno, self.broken.strerror)
        try:
            _write_all(self.fd, line)
            if self.sync:
                _datasync(self.fd)
        except OSError:
            try:
                os.ftruncate(self.fd, self.size)  # (a part of the line may be in the file)
            except OSError as err:
                self.broken = err  # refuse every line until a restart cuts the fragment off
            raise
        self.size += len(line)
        self.unsynced = not self.sync

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.unsynced:
                _datasync(self.fd)
        os.close(self.fd)


class TableStore:
    """The tables' folders under one data directory.

    ``sync``: every move ``fdatasync``-ed before it is played (survives a power loss, a few ms a
    move on a disk); otherwise a move is in the kernel's cache when it is played (survives the
    process being killed) and reaches the disk with the kernel's write-back or when the table closes.
    """

    def __init__(self, root: str | Path, sync: bool = False):
        self.root = Path(root)
        self.sync = sync
        (self.root / "tables").mkdir(parents=True, exist_ok=True)
        (self.root / "uploads").mkdir(parents=True, exist_ok=True)
        self._journals: dict[str, Journal] = {}
        self._sizes: dict[str, int] = {}  # a resumed journal's length in whole lines
        for stale in [*self.uploads.glob("*" + TMP), *(self.root / "tables").glob("*/*" + TMP)]:
            with contextlib.suppress(OSError):
                stale.unlink()  # a whole file the server was writing when it stopped

    def folder(self, table_id: str) -> Path:
        return self.root / "tables" / table_id

    @property
    def uploads(self) -> Path:
        return self.root / "uploads"

    def create(self, table_id: str, setup: dict[str, Any]) -> None:
        """Write a new table's set-up (whole: a crash or a full disk leaves no table, never half of one)."""
        folder = self.folder(table_id)
        try:
            folder.mkdir(parents=True, exist_ok=False)
        except OSError as err:
            raise SaveError(f"the table's folder could not be made: {_reason(err)}") from None
        try:
            write_whole(folder / "table.json", json.dumps(setup, indent=1).encode("utf-8"))
        except SaveError:
            with contextlib.suppress(OSError):
                folder.rmdir()
            raise
        _sync_folder(folder.parent)

    def append_move(self, table_id: str, move: dict[str, Any]) -> None:
        """One more move (or held choice) of a table's game, on disk before it is played; SaveError
        (the journal as it was) when the disk refuses it."""
        line = (dumps(move) + "\n").encode("utf-8")
        try:
            journal = self._journals.get(table_id)
            if journal is None:
                path = self.folder(table_id) / "moves.jsonl"
                journal = self._journals[table_id] = Journal(path, self._sizes.pop(table_id, None), self.sync)
            journal.append(line)
        except OSError as err:
            raise SaveError(f"the server could not save it: {_reason(err)}") from None

    def finish(self, table_id: str, rec: dict[str, Any]) -> None:
        """The finished game's record, whole (SaveError when the disk refuses it: a restart writes it)."""
        self.close(table_id)
        write_whole(self.folder(table_id) / "game.jsonl", (dumps(rec) + "\n").encode("utf-8"))

    def close(self, table_id: str) -> None:
        journal = self._journals.pop(table_id, None)
        if journal is not None:
            journal.close()

    def close_all(self) -> None:
        for table_id in list(self._journals):
            self.close(table_id)

    def saved(self) -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
        """Every table on disk: its id, set-up and moves so far (a torn last line is left out, and cut
        off before the next move is written; a line that is not a move ends them with ``{"unreadable": LINE}``)."""
        out = []
        for folder in sorted((self.root / "tables").iterdir()):
            try:
                setup = json.loads((folder / "table.json").read_text("utf-8"))
            except (OSError, ValueError):
                continue  # not a table (or one whose set-up never got written)
            moves: list[dict[str, Any]] = []
            journal = folder / "moves.jsonl"
            if journal.exists():
                moves, size = read_journal(journal.read_bytes())
                if size is not None:
                    self._sizes[folder.name] = size
            out.append((folder.name, setup, moves))
        return out

    def record_path(self, table_id: str) -> Path | None:
        """The finished game's record file, if the game is over and its record was written whole."""
        path = self.folder(table_id) / "game.jsonl"
        try:
            with path.open("rb") as file:
                file.seek(-2, os.SEEK_END)
                whole = file.read() == b"}\n"  # (one written in place by an older server may be torn)
        except OSError:
            return None
        return path if whole else None
