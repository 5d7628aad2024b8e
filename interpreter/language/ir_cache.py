"""The IR of a rules file, kept once built: a later command that loads the same file, unchanged, with
the same front-end, reads the IR back instead of parsing, resolving and checking it again (most of
a command's start-up). It can never be stale:

- an entry is found by a digest of the front-end's code (``code_digest``: the bytes of the grammar,
  of every file of ``interpreter/language`` and ``interpreter/schemas``, of ``loader.py`` and
  ``errors.py``, lark's version, the package's and Python's) and of the file's path, as given and
  resolved; it holds the digest of the file's text, read again and compared at each lookup;
- it lists every base the file extends (through `extends`, however deep): which file each
  `extends` found and the digest of its text; a lookup finds each base again (a file put since
  where the `extends` looks first is found as a build would) and reads it again, and misses if
  any is elsewhere, changed or gone.

A ruleset with an error is never kept (its errors show each time). What loading leaves behind
besides the IR is left behind by a hit too: every file's text remembered for the messages that
quote it (``errors.remember_source``), a shipped base named as the user knows it (``show_as``).

Entries are JSON in ``files.cache_dir()/ir``, one a ruleset path (an edit replaces it), written
whole or not at all; anything that goes wrong reading or writing one (a torn file, a full or
read-only disk, a folder that cannot be made) is a miss, silently. ``RULESET_NO_CACHE=1`` turns the
cache off.

The folder is bounded: at most ``KEEP`` entries (each path and each version of ruleset has its own,
so they would pile up for ever). A hit touches its entry's time; a store that takes the folder
over ``KEEP`` deletes the entries used least recently (oldest time first) until ``KEEP`` are left."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import remember_source
from .files import base_file, cache_dir, find_base, grammar_path, read_text, write_whole

if TYPE_CHECKING:
    from .ast_nodes import Extends

FORMAT = 1  # of an entry; a change of this file changes the code digest anyway
KEEP = 200  # the most entries kept (an entry is some 10-200 kB: a few MB in all), least recently used out
# The installed package's metadata folder, named for its version (pyproject.toml's [project] name, normalised).
DIST_INFO = ("ruleset_cards-", ".dist-info")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


@cache
def code_digest() -> str:
    """A digest of everything that shapes the IR a rules file gives, read from the package's own
    files once a process (a few milliseconds)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = [str(grammar_path())]
    for folder in ("language", "schemas"):
        for where, folders, names in os.walk(os.path.join(package, folder)):
            folders[:] = [f for f in folders if f != "__pycache__"]
            files += (os.path.join(where, name) for name in names)
    files += (os.path.join(package, name) for name in os.listdir(package) if name.split(".")[0] in ("loader", "errors"))
    import importlib.util  # (lark's version, without importing lark: its __init__ says it)

    lark = importlib.util.find_spec("lark")
    if lark is not None and lark.origin:
        files.append(lark.origin)
    digest = hashlib.sha256(f"{FORMAT} {sys.version}".encode())
    head, tail = DIST_INFO
    installed = sorted(n for n in os.listdir(os.path.dirname(package)) if n.startswith(head) and n.endswith(tail))
    digest.update(" ".join(installed).encode())
    for name in sorted(files):
        with open(name, "rb") as f:
            digest.update(f"\0{os.path.basename(name)}\0".encode())
            digest.update(f.read())
    return digest.hexdigest()


def _entry(path: Path) -> Path | None:
    """Where the entry of a ruleset path is kept (None: no cache)."""
    folder = cache_dir()
    if folder is None:
        return None
    key = "\0".join([code_digest(), str(path), str(path.resolve())])
    return folder / "ir" / f"{_sha(key)[:40]}.json"


def lookup(path: Path, text: str) -> tuple[dict[str, Any], list[str]] | None:
    """The kept IR of the rules file ``path`` whose text is ``text`` (read already), and the texts
    read (the file, then each base it extends); None if there is none, or it may be out of date."""
    try:
        where = _entry(path)
        if where is None:
            return None
        kept = json.loads(where.read_text("utf-8"))
        if kept["text"] != _sha(text) or not isinstance(kept["ir"], dict):
            return None
        bases = []
        for variant, name, base, digest in kept["bases"]:
            found = base_file(name, variant)
            if str(found) != base:
                return None
            base_text = read_text(found)
            if _sha(base_text) != digest:
                return None
            bases.append((base, base_text))
    except Exception:  # none, torn, unreadable, a base gone: built as if there were no cache
        return None
    with contextlib.suppress(OSError):
        os.utime(where)  # used now: the last to go when the folder is pruned
    remember_source(str(path), text)
    for base, base_text in bases:
        remember_source(base, base_text)
    return kept["ir"], [text, *(t for _, t in bases)]


class Reads:
    """What a build reads besides the file itself: each `extends` and the base it found, with the
    base's text (``find`` and ``read`` are what ``load_program`` is given)."""

    def __init__(self) -> None:
        self.bases: list[tuple[str, str, str]] = []  # (the variant's file, the name it extends, the base found)
        self.texts: dict[str, str] = {}

    def find(self, ext: Extends, file: str) -> Path:
        found = find_base(ext, file)
        self.bases.append((file, ext.path, str(found)))
        return found

    def read(self, path: Path) -> str:
        text = self.texts[str(path)] = read_text(path)
        return text


def store(path: Path, text: str, ir: dict[str, Any], reads: Reads) -> None:
    """Keep the IR built from ``path`` (its text ``text``; its bases as ``reads`` saw them); never an error."""
    try:
        where = _entry(path)
        if where is None:
            return
        bases = [[variant, name, base, _sha(reads.texts[base])] for variant, name, base in reads.bases]
        entry = {"format": FORMAT, "text": _sha(text), "bases": bases, "ir": ir}
        write_whole(where, json.dumps(entry, separators=(",", ":")))
        prune(where.parent)
    except Exception:  # a read-only or full disk, a folder that cannot be made: no cache
        pass


def prune(folder: Path, keep: int | None = None) -> None:
    """Delete the entries of ``folder`` used least recently until ``keep`` (``KEEP``) are left; an
    entry another process deletes or touches meanwhile is passed over (never an error)."""
    keep = KEEP if keep is None else keep
    with os.scandir(folder) as found:
        names = [e for e in found if e.name.endswith(".json") and e.is_file()]
    if len(names) <= keep:
        return
    aged = []
    for e in names:
        with contextlib.suppress(OSError):  # gone meanwhile
            aged.append((e.stat().st_mtime_ns, e.name))
    aged.sort()
    for _, name in aged[: max(len(aged) - keep, 0)]:
        (folder / name).unlink(missing_ok=True)
