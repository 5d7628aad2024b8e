"""A file of game records written whole: each game one complete line, flushed as it finishes.

Ctrl-C (SIGINT) and SIGTERM never cut a line: while a line is written they are held, and raised
once it is out. An interrupted run raises ``Interrupted``, which says how many games were saved.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..engine.records import dumps
from ..errors import RulesetError

HELD = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM; its record file holds ``saved`` whole games."""

    def __init__(self, saved: int, path: str, signum: int = signal.SIGINT):
        self.saved, self.path, self.signum = saved, path, signum
        super().__init__(f"{saved} game{'s' if saved != 1 else ''} saved to {path}, each a whole line")


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM handled like Ctrl-C, so that the run can say what it saved."""
    raise KeyboardInterrupt(signum)


@contextmanager
def held_signals() -> Iterator[None]:
    """Hold SIGINT and SIGTERM for the duration of the block; one that came is raised after it."""
    if not _main_thread():
        yield
        return
    came: list[int] = []
    previous = {s: signal.signal(s, lambda signum, frame: came.append(signum)) for s in HELD}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if came:
        raise KeyboardInterrupt(came[0])


class RecordFile:
    """Game records, one JSON line a game, each written whole and flushed; counts what it saved."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self.saved = 0
        try:
            self._file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by close())
        except OSError as err:
            raise RulesetError(f"cannot write records to {path}: {err.strerror}") from None
        self._term = signal.signal(signal.SIGTERM, _interrupt) if _main_thread() else None

    def write(self, rec: dict[str, Any]) -> None:
        """Write one game's record as one line, flushed to the OS before anything can interrupt."""
        self.write_line(dumps(rec) + "\n")

    def write_line(self, line: str) -> None:
        """Write one record already turned into a line (ending with a newline), whole and flushed."""
        with held_signals():
            self._file.write(line)
            self._file.flush()
            self.saved += 1

    def interrupted(self, err: KeyboardInterrupt | None = None) -> Interrupted:
        """The exception to raise when the run is interrupted: how many games were saved, and where."""
        signum = err.args[0] if err is not None and err.args and isinstance(err.args[0], int) else signal.SIGINT
        return Interrupted(self.saved, self.path, signum)

    def close(self) -> None:
        """Close the file and give SIGTERM back its previous handler."""
        self._file.close()
        if self._term is not None:
            signal.signal(signal.SIGTERM, self._term)
            self._term = None
