"""Which zones' order the rules can tell: the others are keyed as sorted hands (encode.py), so
that two deals or lines of play that differ only by the order of cards in such a zone are one
state. And whether the deal places the cards by their places in the decks alone (``dealt_by_place``),
so that an order of the decks that deals what an earlier one did need not be dealt (chance.py).

A zone's order is read by `first`, `last` (and `best`, `worst` when two different cards can tie:
a `by` key, or a card order that leaves kinds of card equal), by a draw (the top card), and kept
by piles. It matters too for a zone whose cards go on, several at once and in order, to a zone
whose order matters (`move cards in trick to won`, a set chosen, a `swap`). Where the analysis
cannot tell which zone a collection reads (a name bound by `let` or `for each`, `it` under a
quantifier), every zone counts as ordered: the answer is conservative, never wrong.
"""

from __future__ import annotations

from typing import Any

PICKS = ("first", "last")
# what a deal's amounts may read for the deal to place cards by position alone: numbers, the
# parameters, the round's schedule, the players, round and dealer, and what they compute; no card
# nor zone (the decks are shuffled when the amounts are read), no variable (verify's probe reads
# them after the round's start, explore._deal_places)
PLACE_ONLY = frozenset({"num", "text", "none", "param", "schedule", "builtin", "arith", "neg", "if", "cmp"})
PLACE_ONLY |= {"and", "or", "not"}
RANKED = ("best", "worst")


class _Unknown(Exception):
    """A collection whose zone the analysis cannot name."""


def ordered_zones(ir: dict[str, Any], keys_distinct: bool) -> frozenset[str] | None:
    """The zones (declared, and decks) whose order some rule can tell; None: every zone.
    ``keys_distinct``: whether different kinds of card never tie in the declared card order."""
    try:
        return frozenset(_ordered(ir, keys_distinct))
    except _Unknown:
        return None


def dealt_by_place(ir: dict[str, Any]) -> bool:
    """Whether every deal line's amounts (how many cards, as if for how many players, and when)
    read only PLACE_ONLY expressions: then, the decks shuffled, the engine's deal (deal.py) puts
    each card by its place in its deck alone, the same places whatever the order."""
    return all(
        all(n.get("op") in PLACE_ONLY for n in _walk(d.get(k)))
        for d in ir["round"]["deals"]
        for k in ("amount", "as_players", "as_players_when")
    )


def _ordered(ir: dict[str, Any], keys_distinct: bool) -> set[str]:
    ordered = {z["name"] for z in ir["zones"] if z.get("piles")}
    flows: list[tuple[set[str] | None, set[str]]] = []  # (from, to): cards go on in order (None: from where?)

    def zones_of(node: Any, it: set[str] | None, target: set[str] | None) -> set[str]:
        """The zones whose cards a subtree's collections may take (every zone it names, and the
        zone a collection `in it` or `in target` stands for)."""
        out: set[str] = set()
        for n in _walk(node):
            if n.get("op") in ("zone", "zones"):
                out.add(n["name"])
            source = n.get("from") if n.get("op") == "cards" else None
            if n.get("op") == "bound" and node is n:  # (a bound name moved or drawn whole)
                source = n
            if isinstance(source, dict) and source.get("op") == "bound":
                known = {"it": it, "target": target}.get(source["name"])
                if known is None:
                    raise _Unknown  # (a collection by a name bound by let or for each, or `it` unknown here)
                out |= known
        return out

    def scan(node: Any, it: set[str] | None = None, target: set[str] | None = None) -> None:
        """Every order-reading expression and every ordered flow of cards under ``node``."""
        for n in _walk(node):
            op, do = n.get("op"), n.get("do")
            if op in PICKS or (op in RANKED and (n.get("by") is not None or not keys_distinct)):
                ordered.update(zones_of(n.get("of"), it, target))
            if do == "draw":
                ordered.update(zones_of(n.get("from"), it, target))
            what = n.get("what") if do == "move" else None
            if isinstance(what, dict) and not (what.get("op") == "bound" and what["name"] == "card"):
                # several cards at once, in order (a bound name may be one card or a collection: unknown)
                src = None if what.get("op") == "bound" else zones_of(what, it, target)
                flows.append((src, zones_of(n.get("to"), it, target)))
            if do == "swap":
                a, b = zones_of(n.get("what"), it, target), zones_of(n.get("with"), it, target)
                flows.extend([(a, b), (b, a)])
            choice = n.get("choice")
            if isinstance(choice, dict) and choice.get("kind") == "draw":
                ordered.update(choice.get("piles") or [])
            if isinstance(choice, dict) and choice.get("kind") == "cards":
                flows.append(({choice["from"]}, {choice["to"]}))

    for d in ir["defines"]:
        scan(d["body"], it={d["of"]} if d.get("of") and d["of"] != "card" else None)
    for ph in ir["round"]["phases"]:
        to = {m["name"]: m["to"] for m in ph["moves"] if "to" in m}
        for m in ph["moves"]:
            scan(m, target={m["to"]} if "to" in m else None)
        for t in ph["triggers"]:
            after = [t["after"]] if isinstance(t["after"], str) else t["after"]
            targets = {to[a] for a in after if a in to}
            scan(t, target=targets if len(targets) == len(after) else None)
        scan({k: v for k, v in ph.items() if k not in ("moves", "triggers")})
    scan({k: v for k, v in ir["round"].items() if k != "phases"})
    scan(ir["game"])
    scan(ir["vars"])
    scan(ir.get("checks", []))
    for deck in ir["decks"]:
        scan(deck["cards"])
    changed = True
    while changed:  # cards that go on in order to an ordered zone: their zone's order matters too
        changed = False
        for src, dst in flows:
            if dst & ordered and src is None:
                raise _Unknown
            if dst & ordered and not src <= ordered:
                ordered |= src
                changed = True
    return ordered


def _walk(node: Any) -> Any:
    """Every dict under ``node`` (itself first)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            yield n
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
