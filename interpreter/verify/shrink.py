"""A deck shrunk from the command line, without editing the rules: `--only [TYPE.]ATTR=V1,V2`
keeps only the cards whose attribute is one of the values given (cards of other types, or
without that attribute, stay), `--copies TYPE=N` makes every card of a type come N times, and
`--schedule NAME=V1,V2` gives a schedule other numbers (hand sizes fit for a smaller deck). The
IR is changed, not the file: the shrunk rules are written beside the counterexamples so their
records replay (report.py)."""

from __future__ import annotations

import copy
from typing import Any

from ..errors import RulesetError


def parse_only(text: str) -> tuple[str | None, str, list[str]]:
    """``[TYPE.]ATTR=V1,V2`` as (type or None, attribute, values as written)."""
    left, sep, right = text.partition("=")
    values = [v.strip() for v in right.split(",") if v.strip()]
    if not sep or not left.strip() or not values:
        raise RulesetError(
            f"--only takes [TYPE.]ATTRIBUTE=VALUE,VALUE..., not {text!r}", hint="e.g. --only color=red,blue"
        )
    kind, dot, attr = left.strip().rpartition(".")
    return (kind if dot else None), attr, values


def parse_copies(text: str) -> tuple[str, int]:
    """``TYPE=N`` as (type, N)."""
    kind, sep, n = text.partition("=")
    if not sep or not kind.strip() or not n.strip().isdigit() or int(n) < 1:
        raise RulesetError(f"--copies takes TYPE=N with N from 1, not {text!r}", hint="e.g. --copies card=1")
    return kind.strip(), int(n)


def shrink(
    ir: dict[str, Any],
    only: list[str] | None = None,
    copies: list[str] | None = None,
    schedules: list[str] | None = None,
) -> dict[str, Any]:
    """A copy of the IR with its decks shrunk as the options say (the IR itself when none is given)."""
    if not only and not copies and not schedules:
        return ir
    out = copy.deepcopy(ir)
    for text in schedules or ():
        _reschedule(out, text)
    lines = [line for deck in out["decks"] for line in deck["cards"]]
    types = sorted({line["type"] for line in lines})
    for text in only or ():
        kind, attr, values = parse_only(text)
        _known(kind, types, "card type", "--only")
        mine = [line for line in lines if kind in (None, line["type"])]
        having = [a for line in mine for a in line["attributes"] if a["name"] == attr]
        if not having:
            names = sorted({a["name"] for line in mine for a in line["attributes"]})
            raise RulesetError(
                f"--only {text}: no card{' of type ' + kind if kind else ''} has the attribute '{attr}'",
                hint=f"the attributes: {', '.join(names) or 'none'}",
            )
        written = {str(v["value"]) for a in having for v in a["values"]}
        unknown = [v for v in values if v not in written]
        if unknown:
            raise RulesetError(
                f"--only {text}: no card has {attr} {', '.join(unknown)}",
                hint=f"the values: {', '.join(sorted(written))}",
            )
        for a in having:
            a["values"] = [v for v in a["values"] if str(v["value"]) in values]
    for text in copies or ():
        kind, n = parse_copies(text)
        _known(kind, types, "card type", "--copies")
        for line in lines:
            if line["type"] != kind:
                continue
            if not line["attributes"]:
                raise RulesetError(f"--copies {text}: the cards of type {kind} have no attribute to count copies by")
            for i, a in enumerate(line["attributes"]):
                for v in a["values"]:
                    v["copies"] = n if i == 0 else 1
    for deck in out["decks"]:
        deck["cards"] = [line for line in deck["cards"] if all(a["values"] for a in line["attributes"])]
    left = {line["type"] for deck in out["decks"] for line in deck["cards"]}
    gone = [t for t in types if t not in left]
    if gone:  # (the rules name every type: a type with no card left would not compile)
        raise RulesetError(
            f"the options leave no card of type {', '.join(gone)}",
            hint="name the type an --only is for: --only TYPE.ATTRIBUTE=VALUES keeps the other types whole",
        )
    out.pop("origin", None)  # (no longer the file's rules: records name the shrunk rules instead)
    return out


def _reschedule(ir: dict[str, Any], text: str) -> None:
    """`--schedule NAME=V1,V2`: the schedule's values, one a round (repeated as it was)."""
    name, sep, right = text.partition("=")
    values = [v.strip() for v in right.split(",")]
    if not sep or not all(v.lstrip("-").isdigit() for v in values):
        raise RulesetError(f"--schedule takes NAME=NUMBER,NUMBER..., not {text!r}", hint="e.g. --schedule size=3,2")
    found = [s for s in ir["schedules"] if s["name"] == name.strip()]
    if not found:
        known = ", ".join(s["name"] for s in ir["schedules"]) or "none"
        raise RulesetError(f"--schedule: no schedule '{name.strip()}'", hint=f"the schedules: {known}")
    at = found[0].get("at")
    found[0]["values"] = [{"op": "num", "value": int(v), **({"at": at} if at else {})} for v in values]


def _known(name: str | None, known: list[str], what: str, option: str) -> None:
    if name is not None and name not in known:
        raise RulesetError(f"{option}: no {what} '{name}'", hint=f"the {what}s: {', '.join(known)}")
