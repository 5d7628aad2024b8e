"""Inlay hints: what the editor can add at the end of a line that the rules leave to arithmetic:
how many cards a card line makes (the product of its attributes' copies), and how many cards each
player gets from a deal whose count is not written as a number (`deal all to hand`), for each
player count, as `ruleset render`'s deal table works it out."""

from __future__ import annotations

from typing import Any

from ..errors import RulesetError, Span
from ..text.render import deal_tables, parameter_values
from ..text.rule_phrases import line_copies
from . import protocol as P
from .analysis import Analysis


def inlay_hints(analysis: Analysis, first: int, last: int) -> list[P.Json]:
    """The hints at the end of the lines ``first``..``last`` (0-based) of this document."""
    ir, lines = analysis.ir, analysis.text.splitlines()
    if ir is None or analysis.text != analysis.ir_text:  # positions of an older text would be wrong
        return []
    labels: list[tuple[Any, str]] = []  # (the IR node's position, the hint)
    for deck in ir.get("decks", []):
        for line in deck.get("cards", []):
            copies = line_copies(line)
            if copies is not None:
                labels.append((line.get("at"), f" = {copies} card{'s' if copies != 1 else ''}"))
    labels += _deal_labels(ir)
    out = []
    for at, label in labels:
        span = Span.parse(at) if isinstance(at, str) else None
        if span is None or span.file != analysis.path or not first <= span.line - 1 <= last:
            continue
        text = lines[span.line - 1].split("#")[0].rstrip() if span.line - 1 < len(lines) else ""
        where = P.position(span.line - 1, len(text))
        out.append({"position": where, "label": label, "kind": P.INLAY_TYPE, "paddingLeft": True})
    return out


def _deal_labels(ir: dict[str, Any]) -> list[tuple[Any, str]]:
    """`= 10 each` (or `= 17 or 18 each with 3 players, 12 with 4`) for each deal to a zone per
    player whose count is not a number written in it."""
    try:
        tables = deal_tables(ir, parameter_values(ir))
    except (RulesetError, KeyError, TypeError, ValueError, ZeroDivisionError):  # rules the engine refuses
        return []
    out = []
    for deal, _, rows in tables:
        if (deal.get("amount") or {}).get("op") == "num":
            continue  # `deal 4 to hand` says it already
        each = {row[0]: row[2] for row in rows if row[2] != "?"}
        if not each:
            continue
        if len(set(each.values())) == 1:
            label = f" = {next(iter(each.values()))} each"
        else:
            label = " = " + ", ".join(
                f"{e} each with {n} players" if i == 0 else f"{e} with {n}" for i, (n, e) in enumerate(each.items())
            )
        out.append((deal.get("at"), label))
    return out
