"""Go to definition, find references and rename, across `extends`: a variant's names lead into
its base file, and a renamed name changes in the file, its bases and every variant found of them.
Names are per kind (slots.py): the move `play` and the phase `play` are two names."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import RulesetError, Span, remember_source
from ..language.ast_nodes import Extends
from ..language.resolve import resolve
from ..language.variants import find_base, load_program, read_text
from . import protocol as P
from .analysis import Analysis, Token, file_text, keywords, name_pattern, names_in, token_at
from .locals import Local, local_at, uses
from .rpc import RequestFailed
from .slots import meant, same_kind, slots

MAX_VARIANT_FILES = 500  # .rules files looked at when searching a folder for variants


def uri(path: str) -> str:
    """The file URI of a path."""
    return Path(path).resolve().as_uri()


def location(t: Token) -> P.Json:
    """Where a token is, for the editor."""
    return P.location(uri(t.file), token_range(t))


def token_range(t: Token) -> P.Json:
    """The range a token covers."""
    return P.span(t.line, t.col, t.line, t.end)


class Refused(RequestFailed):
    """A request the server answers with an error the editor shows (a rename that cannot be made)."""


EXTENDS = re.compile(r'^\s*extends\s+"([^"]*)"')


def definition(analysis: Analysis, line: int, col: int) -> list[P.Json]:
    """Where the name under the cursor is declared (in a base file, for what a variant inherits);
    on the path of `extends`, the base file itself."""
    base = _base_at(analysis, line, col)
    if base is not None:
        return [P.location(uri(str(base)), P.span(0, 0, 0, 0))]
    token = token_at(analysis, line, col)
    if token is None:
        return []
    local = local_at(analysis, token)
    if local is not None:
        return [location(local.at)]
    return [location(d.at) for d in meant(analysis, token)[1]]


def _base_at(analysis: Analysis, line: int, col: int) -> Path | None:
    """The file an `extends "..."` line names, when the cursor is on its path (None when it is not,
    or when no file has that path: the problem is reported on the line)."""
    lines = analysis.text.splitlines()
    m = EXTENDS.match(lines[line]) if 0 <= line < len(lines) else None
    if m is None or not m.start(1) - 1 <= col <= m.end(1) + 1:
        return None
    try:
        return find_base(Extends(m.group(1), Span(analysis.path, line + 1, m.start(1))), analysis.path)
    except RulesetError:
        return None


def references(
    analysis: Analysis,
    line: int,
    col: int,
    open_texts: dict[str, str],
    include_declaration: bool = True,
    roots: list[str] | None = None,
) -> list[P.Json]:
    """Every place the declared name under the cursor is written: this file, its bases and, when
    ``roots`` (the workspace folders) is given, every variant of them found (as rename edits them)."""
    token = token_at(analysis, line, col)
    if token is None:
        return []
    local = local_at(analysis, token)
    if local is not None:
        found = uses(analysis, local)
        return [location(t) for t in found if include_declaration or t != local.at]
    kind, decls = meant(analysis, token)
    if not decls:
        return []
    family = analysis.files
    if roots is not None:
        family = list(dict.fromkeys([*family, *variants(analysis.files, roots, open_texts)]))
    found = _uses(token.text, kind, family, open_texts, strict=False)
    if not include_declaration:
        found = [t for t in found if t not in {d.at for d in decls}]
    return [location(t) for t in found]


def _uses(name: str, kind: str | None, files: list[str], open_texts: dict[str, str], strict: bool) -> list[Token]:
    """Where ``name`` is written standing for a declaration of ``kind``. A file that does not parse
    is refused when ``strict`` (a rename), else all its ``name``s are taken."""
    out = []
    for f in files:
        text = file_text(f, open_texts)
        if text is None:
            continue
        try:
            places = slots(f, text)
        except RulesetError as err:
            if strict:
                raise Refused(f"{Path(f).name} does not parse ({err.message}): fix it before renaming") from None
            places = None
        out += [
            t
            for t in names_in(f, text)
            if t.text == name and (places is None or same_kind(places.get((t.line, t.col)), kind))
        ]
    return out


def rename(
    analysis: Analysis, line: int, col: int, new_name: str, open_texts: dict[str, str], roots: list[str]
) -> P.Json | None:
    """Rename a declared name wherever the rules that see it write it for a thing of its kind: this
    file, its bases and their variants (found under ``roots``, the workspace folders, and beside
    each file). Refused (``Refused``) for a new name that is no name or that another declaration
    of the same kind has."""
    token = token_at(analysis, line, col)
    if token is None:
        return None
    if not name_pattern().fullmatch(new_name) or new_name in keywords():
        raise Refused(
            f"'{new_name}' cannot be a name: names are lower case letters, digits and _, and no word of the language"
        )
    local = local_at(analysis, token)
    if local is not None:
        return _rename_local(analysis, local, new_name)
    kind, decls = meant(analysis, token)
    if not decls:
        return None
    if new_name != token.text:
        kinds = {d.kind for d in decls}
        for taken in analysis.declared(new_name):
            if taken.kind in kinds:
                where = f"{Path(taken.at.file).name}, line {taken.at.line + 1}"
                raise Refused(f"'{new_name}' is already the name of a {taken.kind} ({where}): choose another name")
    family = list(dict.fromkeys([*analysis.files, *variants(analysis.files, roots, open_texts)]))
    changes: dict[str, list[Token]] = {}
    for t in _uses(token.text, kind, family, open_texts, strict=True):
        changes.setdefault(uri(t.file), []).append(t)
    if not any(uri(f) in changes for f in analysis.files[1:]):  # the file's bases unchanged: check it
        _refuse_if_broken(analysis, changes.get(uri(analysis.path), []), token.text, new_name)
    return {"changes": {file: [P.text_edit(token_range(t), new_name) for t in ts] for file, ts in changes.items()}}


def _rename_local(analysis: Analysis, local: Local, new_name: str) -> P.Json:
    """Rename a local within its scope: its binding and the names that stand for it. Refused when
    the new name is already a local there or a declared name (the local would hide it, or be hidden)."""
    if new_name != local.name:
        written = names_in(analysis.path, analysis.text)
        clash = [t for t in written if t.text == new_name and local.holds((t.line, t.col))]
        if clash or analysis.declared(new_name):
            what = "written in its scope" if clash else "declared"
            raise Refused(f"'{new_name}' is already {what}: renaming the {local.kind} '{local.name}' would mix them up")
    edits = [P.text_edit(token_range(t), new_name) for t in uses(analysis, local)]
    return {"changes": {uri(analysis.path): edits}}


def _refuse_if_broken(analysis: Analysis, places: list[Token], old: str, new: str) -> None:
    """Refuse a rename that makes a file that resolved stop resolving (the new name already means
    something else there: a zone renamed as a parameter). A file with errors already is not checked."""
    if not places or any(f.severity == "error" for f in analysis.report.findings):
        return
    lines = analysis.text.split("\n")
    for t in sorted(places, key=lambda t: (t.line, t.col), reverse=True):
        lines[t.line] = lines[t.line][: t.col] + new + lines[t.line][t.end :]
    errors: list[RulesetError] = []
    try:
        resolve(load_program("\n".join(lines), analysis.path), errors)
    except RulesetError as err:
        errors.append(err)
    finally:  # the parse remembered the renamed text as the file's: hover quotes the file's lines
        remember_source(analysis.path, analysis.text)
    if errors:
        where = f" (line {errors[0].span.line})" if errors[0].span else ""
        raise Refused(f"renaming '{old}' to '{new}' breaks the rules: {errors[0].message}{where}")


def variants(files: list[str], roots: list[str], open_texts: dict[str, str]) -> list[str]:
    """The rules files that extend one of ``files``, directly or through other variants."""
    targets = {str(Path(f).resolve()) for f in files}
    folders = {str(Path(f).resolve().parent) for f in files} | {str(Path(r).resolve()) for r in roots}
    candidates = sorted({str(p.resolve()) for d in folders for p in Path(d).rglob("*.rules")})
    out = []
    for path in candidates[:MAX_VARIANT_FILES]:
        if path in targets:
            continue
        try:
            text = open_texts.get(path) or read_text(path)
            chain = {str(Path(r.file).resolve()) for r in load_program(text, path).files}
        except RulesetError:
            continue
        if chain & targets:
            out.append(path)
    return out
