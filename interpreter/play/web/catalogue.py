"""The rulesets a server offers: the shipped ones, the files named on its command line, uploads.

An upload is written under the data directory and checked with `ruleset check`'s static part
(loader errors, deck arithmetic, rules that cannot apply) before it is offered; its errors come
back as `check` prints them, each at its line and column. An upload reads no other file of the
server: its `extends` may name a shipped ruleset or another upload, by name, never a path.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...checker import check
from ...checker.text import format_report
from ...engine.game import Game, compile_ir
from ...errors import ExtendsError, RulesetError, forget_source
from ...language.ast_nodes import Extends
from ...language.variants import BaseFinder, bundled, find_base, shipped_dirs, shipped_names
from ...loader import ir_from_path
from .limits import Limits
from .store import write_whole

UPLOAD = re.compile(r"[0-9a-f]{16}")  # an upload's file is named by (part of) its sha256
BASE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}(\.rules)?")  # what an upload's `extends` may say


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

    def __init__(self, files: list[str], uploads: Path, limits: Limits | None = None):
        self.entries: dict[str, Entry] = {}
        self.uploads = uploads
        self.limits = limits or Limits()
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
        entry = Entry(key, path, origin, compile_ir(self.ir(path)))
        self.entries[key] = entry
        return entry

    def ir(self, path: str) -> dict[str, Any]:
        """The IR of a rules file on offer (an upload's bases found as ``upload_base`` allows)."""
        return ir_from_path(path, self.finder(path))

    def finder(self, path: str) -> BaseFinder | None:
        """How `extends` is followed from a file: an upload's by ``upload_base``; the operator's as the commands do."""
        return self.upload_base if self._is_upload(path) else None

    def _is_upload(self, path: str) -> bool:
        return Path(path).parent.resolve() == self.uploads.resolve()

    def upload_base(self, ext: Extends, file: str) -> Path:
        """The base an upload names: a shipped ruleset by its name, or an upload of this server by
        its file name (as the lobby lists it). Anything else is refused before any file is opened,
        and the refusal never says whether such a file exists. (A shipped base's own `extends` is
        followed as the commands follow it: the package's files are trusted.)"""
        if not self._is_upload(file):
            return find_base(ext, file)
        name = ext.path
        shipped = ", ".join(n.removesuffix(".rules") for n in shipped_names())
        if not BASE_NAME.fullmatch(name):
            raise ExtendsError(
                "an uploaded ruleset extends a ruleset on offer by its name, not a path",
                ext.span,
                f"name a shipped ruleset ({shipped}) or another upload by its file name",
            )
        stem = name.removesuffix(".rules")
        found = self.uploads / f"{stem}.rules" if UPLOAD.fullmatch(stem) else bundled(stem)
        if found is None or not found.is_file():
            raise ExtendsError(
                f"no ruleset named {name} on this server",
                ext.span,
                f"name a shipped ruleset ({shipped}) or another upload by its file name",
            )
        return found

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
        if len(data) > self.limits.upload_bytes:
            raise UploadRefused(f"{name} is larger than {self.limits.upload_bytes:,} bytes, the most this server takes")
        digest = hashlib.sha256(data).hexdigest()[:16]
        key = f"upload/{digest}"
        if key in self.entries:
            return self.entries[key]
        if sum(e.origin == "upload" for e in self.entries.values()) >= self.limits.uploads:
            raise UploadRefused(f"this server already holds {self.limits.uploads} uploaded rulesets, the most it keeps")
        path = self.uploads / f"{digest}.rules"
        write_whole(path, data)
        report = check(str(path), games=0, find=self.upload_base)
        if report.exit_code != 0:
            path.unlink()
            forget_source(str(path))  # (refused uploads are not counted: none may cost memory for good)
            shown = format_report(report, show_info=False).replace(str(path), Path(name).name or "upload.rules")
            shown = shown.replace(f"{self.uploads}/", "")  # (another upload, as the lobby names it)
            raise UploadRefused(shown)
        return self._add(key, str(path), "upload")
