"""The files the front-end reads: rules files, the bases a variant extends, the rulesets shipped with
the package and the grammar; and the folder where what it builds is kept (``cache_dir``). Nothing here
parses, so a command that finds its IR kept (``ir_cache``) reads its files without the parser."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ExtendsError, ReadError, Span, show_as

if TYPE_CHECKING:
    from .ast_nodes import Extends

MAX_FILE_BYTES = 1_000_000
GRAMMAR = "rules.lark"
# The package's folder, as the import system found it (what importlib.resources.files gives, without
# importing it and zipfile: a command's start-up reads only plain files).
PACKAGE = Path(__file__).parent.parent


def grammar_path() -> Path:
    """The grammar file: shipped inside the package, or grammar/ in a source checkout."""
    shipped = PACKAGE / "grammar" / GRAMMAR
    if shipped.is_file():
        return shipped
    return Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR


def cache_dir() -> Path | None:
    """Where the parser's tables and the rulesets' IR are kept: ``$RULESET_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/ruleset``, else ``~/.cache/ruleset``; None with ``RULESET_NO_CACHE=1`` (nothing
    is read from or written to a cache then)."""
    if os.environ.get("RULESET_NO_CACHE", "") not in ("", "0"):
        return None
    if os.environ.get("RULESET_CACHE_DIR"):
        return Path(os.environ["RULESET_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ruleset"


def write_whole(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a temporary file beside it, renamed over it), making its
    folder if need be: a process reading it at once never sees it half written. Raises OSError."""
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def shipped_dirs() -> list[Path]:
    """Where the rulesets shipped with the package are: inside the package, or beside it in a source tree."""
    return [PACKAGE / "rulesets", Path(__file__).resolve().parents[2] / "rulesets"]


@cache
def _shipped_resolved() -> tuple[Path, ...]:
    return tuple(base.resolve() for base in shipped_dirs())


def bundled(name: str) -> Path | None:
    """The path of a ruleset shipped with the package (by file name, with or without .rules), if there
    is one; messages name it by its file name (``errors.show_as``)."""
    for base in shipped_dirs():
        for candidate in (base / name, base / f"{name}.rules"):
            if _is_file(candidate):
                show_as(str(candidate), candidate.name)
                return candidate
    return None


def shipped_name(path: str | Path) -> str | None:
    """A shipped ruleset's file name (``NAME.rules``) if ``path`` is one, else None: how a user
    names it, rather than where the package happens to be installed."""
    p = Path(path).resolve()
    return p.name if p.parent in _shipped_resolved() else None


def read_text(path: str | Path) -> str:
    """A rules file's text; unreadable, non-UTF-8 or empty files are ReadErrors."""
    p = Path(path)
    where = Span(str(path), 1, 1)
    if not p.exists():
        raise ReadError(f"no such file: {path}", None, "check the path, relative to where you run the command")
    if p.is_dir():
        raise ReadError(f"{path} is a directory, not a rules file", None, "name a .rules file inside it")
    try:
        with p.open("rb") as f:  # read at most one byte past the limit: /dev/zero stops too
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise ReadError(f"cannot read {path}: {err.strerror}", None) from None
    if len(data) > MAX_FILE_BYTES:
        raise ReadError(f"{path} is larger than {MAX_FILE_BYTES:,} bytes, the most a rules file may have", where)
    data = data.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark, as Windows Notepad writes
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise ReadError(
            f"{path} is not UTF-8 text (byte 0x{data[err.start]:02x})",
            Span(str(path), line, col),
            "save the file as UTF-8",
        ) from None
    if not text.strip():
        raise ReadError(f"{path} is empty", where, 'a ruleset starts with `game "Name"` and `players 3..6`')
    return text


def find_base(ext: Extends, file: str) -> Path:
    """The base a variant names (see ``base_file``)."""
    return base_file(ext.path, file, ext.span)


def base_file(name: str, file: str, span: Span | None = None) -> Path:
    """The base ``extends NAME`` names in ``file``: a path relative to the variant's file; failing
    that, a ruleset shipped with the package by its name (``NAME.rules`` or ``NAME``), as the commands
    find a shipped game. Not found (or a path no file can have): an error at ``span`` that says where
    it looked."""
    here = (Path(file).parent / name) if file and not file.startswith("<") else Path(name)
    if _is_file(here):
        return here
    shipped = bundled(name) if Path(name).name == name else None
    if shipped is not None:
        return shipped
    from difflib import get_close_matches  # (only for a base not found)

    close = get_close_matches(Path(name).name, shipped_names(), n=1)
    raise ExtendsError(
        f"base file {name} not found: looked for {here}, and among the shipped rulesets "
        f"({', '.join(shipped_names()) or 'none'})",
        span,
        (f"did you mean '{close[0]}'? " if close else "")
        + "the path of `extends` is relative to the file that names it; a shipped ruleset is named alone",
    )


def shipped_names() -> list[str]:
    """The file names of the rulesets shipped with the package (``NAME.rules``)."""
    return sorted({p.name for base in shipped_dirs() if base.is_dir() for p in base.glob("*.rules")})


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for a path no file can have (too long, a NUL in it)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False
