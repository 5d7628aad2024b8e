"""Nothing lost: each table on disk, written move by move, read back after a restart.

One folder per table under ``DATA/tables/ID/``:

- ``table.json``: what the table was set up with (the rules file, players, seed, parameters,
  each seat's kind, agent and private token, the spectator's token);
- ``moves.jsonl``: one line per move as it is played, in the record's move format
  (``{"player", "move", "card", "to"}``), appended and flushed at once; a person's choice held in
  a simultaneous phase until the engine asks that seat is written when it is made, as
  ``{"hold": MOVE}``, so that a restart holds it again;
- ``game.jsonl``: once the game is over, its whole record (``ruleset replay`` reads it).

A restart reads every folder and replays the moves through the rules (with the same seed the
deals come out the same), so an unfinished table goes on where it was.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ...engine.records import dumps


class TableStore:
    """The tables' folders under one data directory."""

    def __init__(self, root: str | Path):
        self.root = Path(root)
        (self.root / "tables").mkdir(parents=True, exist_ok=True)
        (self.root / "uploads").mkdir(parents=True, exist_ok=True)
        self._journals: dict[str, Any] = {}

    def folder(self, table_id: str) -> Path:
        return self.root / "tables" / table_id

    @property
    def uploads(self) -> Path:
        return self.root / "uploads"

    def create(self, table_id: str, setup: dict[str, Any]) -> None:
        """Write a new table's set-up (atomically: a crash leaves no half-written file)."""
        folder = self.folder(table_id)
        folder.mkdir(parents=True, exist_ok=False)
        tmp = folder / "table.json.tmp"
        tmp.write_text(json.dumps(setup, indent=1), encoding="utf-8")
        os.replace(tmp, folder / "table.json")

    def append_move(self, table_id: str, move: dict[str, Any]) -> None:
        """One more move (or held choice) of a table's game, on disk before anyone is told of it."""
        journal = self._journals.get(table_id)
        if journal is None:
            journal = self._journals[table_id] = open(self.folder(table_id) / "moves.jsonl", "a", encoding="utf-8")  # noqa: SIM115 (kept open while the table plays)
        journal.write(dumps(move) + "\n")
        journal.flush()

    def finish(self, table_id: str, rec: dict[str, Any]) -> None:
        """The finished game's record, whole."""
        self.close(table_id)
        (self.folder(table_id) / "game.jsonl").write_text(dumps(rec) + "\n", encoding="utf-8")

    def close(self, table_id: str) -> None:
        journal = self._journals.pop(table_id, None)
        if journal is not None:
            journal.close()

    def close_all(self) -> None:
        for table_id in list(self._journals):
            self.close(table_id)

    def saved(self) -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
        """Every table on disk: its id, set-up and moves so far (a torn last line is dropped)."""
        out = []
        for folder in sorted((self.root / "tables").iterdir()):
            try:
                setup = json.loads((folder / "table.json").read_text("utf-8"))
            except (OSError, ValueError):
                continue  # not a table (or one whose set-up never got written)
            moves = []
            journal = folder / "moves.jsonl"
            if journal.exists():
                for line in journal.read_text("utf-8").splitlines():
                    try:
                        moves.append(json.loads(line))
                    except ValueError:
                        break  # the server stopped while writing this line
            out.append((folder.name, setup, moves))
        return out

    def record_path(self, table_id: str) -> Path | None:
        """The finished game's record file, if the game is over."""
        path = self.folder(table_id) / "game.jsonl"
        return path if path.is_file() else None
