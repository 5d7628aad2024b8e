"""The document outline: the sections of the file and the rules in them (a zone, a phase, its moves
and triggers, a scoring rule ...), nested as the file indents them, each with its words."""

from __future__ import annotations

from pathlib import Path

from ..errors import Span
from ..text.diff import items, plain
from . import protocol as P
from .analysis import Analysis


def _indent(line: str) -> int:
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


def _block_end(lines: list[str], start: int) -> int:
    """The last line of the block a line opens (the lines indented deeper below it)."""
    end, depth = start, _indent(lines[start])
    for i in range(start + 1, len(lines)):
        text = lines[i].strip()
        if not text or text.startswith("#"):
            continue
        if _indent(lines[i]) <= depth:
            break
        end = i
    return end


def outline(analysis: Analysis) -> list[P.Json]:
    """The symbols of this file: its blocks' header lines and the IR's items declared in it."""
    lines = analysis.text.splitlines()
    words: dict[int, str] = {}  # line -> the rule's words
    if analysis.ir is not None:
        try:
            for item in items(analysis.ir):
                at = item.data.get("at") if isinstance(item.data, dict) else None
                span = Span.parse(at) if isinstance(at, str) else None
                if span and span.file == analysis.path:
                    words.setdefault(span.line - 1, f"{plain(item.label)}: {plain(item.words)}")
        except (KeyError, TypeError, AttributeError, ValueError):
            pass
    rows = []  # (line, indent, symbol)
    for i, raw in enumerate(lines):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        opens = _block_end(lines, i) > i
        if i not in words and not (opens or _indent(raw) == 0):
            continue
        end = _block_end(lines, i)
        kind = P.SymbolKind.Namespace if opens else P.SymbolKind.Field
        whole = P.span(i, 0, end, len(lines[end]))
        head = P.span(i, _indent(raw), i, len(raw.rstrip()))
        name = text.split("#")[0].strip()
        name = name if len(name) <= 60 else name[:57] + "..."
        symbol = {"name": name, "kind": kind, "range": whole, "selectionRange": head, "children": []}
        if i in words:
            symbol["detail"] = words[i]
        rows.append((i, _indent(raw), end, symbol))
    return _nest(rows)


def _nest(rows: list[tuple[int, int, int, P.Json]]) -> list[P.Json]:
    """Each symbol inside the nearest one above it whose block contains it."""
    top: list[P.Json] = []
    open_: list[tuple[int, int, P.Json]] = []  # (indent, last line, symbol)
    for line, indent, end, symbol in rows:
        while open_ and (open_[-1][0] >= indent or open_[-1][1] < line):
            open_.pop()
        (open_[-1][2]["children"] if open_ else top).append(symbol)
        open_.append((indent, end, symbol))
    return top


SYMBOL_KINDS = {
    "zone": P.SymbolKind.Field,
    "attribute": P.SymbolKind.Property,
    "cards": P.SymbolKind.Class,
    "parameter": P.SymbolKind.Constant,
    "definition": P.SymbolKind.Function,
    "variable": P.SymbolKind.Variable,
    "schedule": P.SymbolKind.Enum,
    "move": P.SymbolKind.Method,
    "phase": P.SymbolKind.Event,
}


def workspace_symbols(analyses: list[Analysis], query: str) -> list[P.Json]:
    """The declared names of every open document and its bases whose name holds the query's letters
    in order (`hnd` finds `hand`), each once, at its declaration."""
    wanted = query.lower()
    seen, out = set(), []
    for a in analyses:
        for name, decls in sorted(a.declarations.items()):
            if not _in_order(wanted, name):
                continue
            for d in decls:
                key = (d.name, d.kind, d.at.file, d.at.line)
                if key in seen:
                    continue
                seen.add(key)
                where = P.location(Path(d.at.file).resolve().as_uri(), P.span(d.at.line, d.at.col, d.at.line, d.at.end))
                kind = SYMBOL_KINDS.get(d.kind, P.SymbolKind.Variable)
                out.append({"name": d.name, "kind": kind, "location": where, "containerName": d.label})
    return out


def _in_order(letters: str, name: str) -> bool:
    """Whether ``name`` holds ``letters`` in order (a fuzzy match, as editors search symbols)."""
    rest = iter(name)
    return all(ch in rest for ch in letters)
