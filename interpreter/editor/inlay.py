"""Inlay hints: what the editor can add at the end of a line that the rules leave to arithmetic,
such as how many cards a card line makes (the product of its attributes' copies)."""

from __future__ import annotations

from ..errors import Span
from ..text.rule_phrases import line_copies
from . import protocol as P
from .analysis import Analysis


def inlay_hints(analysis: Analysis, first: int, last: int) -> list[P.Json]:
    """A card line's number of cards (per player count when it depends on it: none then), at the end
    of the lines ``first``..``last`` (0-based) of this document."""
    ir, lines = analysis.ir, analysis.text.splitlines()
    if ir is None or analysis.text != analysis.ir_text:  # positions of an older text would be wrong
        return []
    out = []
    for deck in ir.get("decks", []):
        for line in deck.get("cards", []):
            at = Span.parse(line["at"]) if isinstance(line.get("at"), str) else None
            copies = line_copies(line)
            if at is None or copies is None or at.file != analysis.path or not first <= at.line - 1 <= last:
                continue
            text = lines[at.line - 1].split("#")[0].rstrip() if at.line - 1 < len(lines) else ""
            label = f" = {copies} card{'s' if copies != 1 else ''}"
            where = P.position(at.line - 1, len(text))
            out.append({"position": where, "label": label, "kind": P.INLAY_TYPE, "paddingLeft": True})
    return out
