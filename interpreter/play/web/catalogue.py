"""The rulesets a server offers: the shipped ones, the files named on its command line, uploads.

An upload is written under the data directory and checked with `ruleset check`'s static part
(loader errors, deck arithmetic, rules that cannot apply) before it is offered; its errors come
back as `check` prints them, each at its line and column.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...checker import check
from ...checker.text import format_report
from ...engine.game import Game, compile_ir
from ...errors import RulesetError
from ...language.variants import MAX_FILE_BYTES, shipped_dirs
from ...loader import ir_from_path
from .store import write_whole


@dataclass
class Entry:
    """One ruleset on offer."""

    key: str
    path: str
    origin: str  # shipped | file | upload
    game: Game = field(repr=False)

    def summary(self) -> dict[str, Any]:
        """What the lobby shows of it: name, player counts, parameters with their defaults by count."""
        g = self.game
        defaults = {str(n): g.param_values(n, None) for n in range(g.min_players, g.max_players + 1)}
        return {
            "key": self.key,
            "name": g.name,
            "origin": self.origin,
            "file": Path(self.path).name,
            "min": g.min_players,
            "max": g.max_players,
            "params": [p["name"] for p in g.ir["params"]],
            "defaults": defaults,
        }


class UploadRefused(RulesetError):
    """An uploaded ruleset that `check` finds errors in (the message is its report)."""


class Catalogue:
    """Rulesets by key; each compiled once."""

    def __init__(self, files: list[str], uploads: Path):
        self.entries: dict[str, Entry] = {}
        self.uploads = uploads
        folders = [sorted(folder.glob("*.rules")) for folder in shipped_dirs()]
        for path in next((found for found in folders if found), []):
            self._add(f"shipped/{path.stem}", str(path), "shipped")
        for number, name in enumerate(files):
            self._add(f"file/{number}", str(Path(name).resolve()), "file")
        for path in sorted(uploads.glob("*.rules")):
            try:
                self._add(f"upload/{path.stem}", str(path), "upload")
            except RulesetError:
                continue  # (an upload that no longer loads, after the language changed)

    def _add(self, key: str, path: str, origin: str) -> Entry:
        entry = Entry(key, path, origin, compile_ir(ir_from_path(path)))
        self.entries[key] = entry
        return entry

    def get(self, key: str) -> Entry:
        if key not in self.entries:
            raise RulesetError(f"no ruleset '{key}' on this server", hint="pick one of the lobby's list")
        return self.entries[key]

    def by_path(self, path: str) -> Game:
        """The game of a rules file (a resumed table's), compiled once."""
        for entry in self.entries.values():
            if entry.path == path:
                return entry.game
        return self._add(f"file/{path}", path, "file").game

    def upload(self, name: str, text: str) -> Entry:
        """Check an uploaded ruleset (static checks only) and offer it; its findings when it has errors."""
        data = text.encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            raise UploadRefused(f"{name} is larger than {MAX_FILE_BYTES:,} bytes, the most a rules file may have")
        digest = hashlib.sha256(data).hexdigest()[:16]
        key = f"upload/{digest}"
        if key in self.entries:
            return self.entries[key]
        path = self.uploads / f"{digest}.rules"
        write_whole(path, data)
        report = check(str(path), games=0)
        if report.exit_code != 0:
            path.unlink()
            shown = format_report(report, show_info=False).replace(str(path), Path(name).name or "upload.rules")
            raise UploadRefused(shown)
        return self._add(key, str(path), "upload")
