"""Decks to tables: every card gets an id; its type and attributes are looked up by id."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from itertools import product
from typing import Any

from ..language.copies import copies_for


@dataclass(frozen=True)
class CardTable:
    """All cards of a ruleset (every deck), as parallel tables indexed by card id."""

    types: tuple[str, ...]  # card id -> type name
    type_index: tuple[int, ...]  # card id -> index of its type in type_names
    type_names: tuple[str, ...]
    deck_of: tuple[int, ...]  # card id -> deck index
    deck_names: tuple[str, ...]
    attrs: dict[str, tuple[Any, ...]]  # attribute -> card id -> value (None: the card has none)
    json: tuple[dict[str, Any], ...]  # card id -> {"type": ..., attr: value, ...}
    key: tuple[tuple[Any, ...], ...]  # card id -> sort key of the declared card order
    conditions: tuple[int, ...]  # card id -> index of its `achieved when` condition, or -1
    kind: tuple[int, ...]  # card id -> index of its kind (copies of one card share it)
    # card id -> (which copy it is, the copy counts that multiply to its kind's number of copies),
    # for cards whose number of copies depends on the number of players (`x (2 * players)`)
    copy_rule: dict[int, tuple[int, tuple[Any, ...]]] | None = None

    def absent(self, players: int) -> frozenset[int]:
        """The cards not in the game with this many players (copies beyond their count)."""
        return _absent(self, players) if self.copy_rule else frozenset()

    def __len__(self) -> int:
        return len(self.types)

    def by_signature(self) -> dict[tuple, tuple[int, ...]]:
        """Card ids grouped by what a record says of them (type and attributes); computed once
        (search agents lay out a sampled deal many times a move), so callers only read it."""
        return self._signatures

    @cached_property
    def _signatures(self) -> dict[tuple, tuple[int, ...]]:
        groups: dict[tuple, list[int]] = {}
        for cid, data in enumerate(self.json):
            groups.setdefault(signature(data), []).append(cid)
        return {sig: tuple(ids) for sig, ids in groups.items()}


def signature(card: dict[str, Any]) -> tuple:
    """A hashable form of a card object from a record."""
    return tuple(sorted((k, v) for k, v in card.items()))


_ABSENT: dict[tuple[int, int], tuple[CardTable, frozenset[int]]] = {}


def _absent(table: CardTable, players: int) -> frozenset[int]:
    got = _ABSENT.get((id(table), players))
    if got is None or got[0] is not table:
        out = set()
        for cid, (k, counts) in (table.copy_rule or {}).items():
            wanted = 1
            for c in counts:
                wanted *= copies_for(c, players)
            if k >= wanted:
                out.add(cid)
        got = _ABSENT[(id(table), players)] = (table, frozenset(out))
    return got[1]


def build_cards(ir: dict[str, Any]) -> tuple[CardTable, list[Any]]:
    """The card table of an IR, and the `achieved` condition IR of each condition index. A copy
    count given by an expression makes as many cards as the most players need; ``absent`` says
    which of them stay out of a game with fewer."""
    low, high = ir["players"]["min"], ir["players"]["max"]
    copy_rule: dict[int, tuple[int, tuple[Any, ...]]] = {}
    types, decks, rows, conds, cond_of, kinds = [], [], [], [], [], []
    type_names: list[str] = []
    for d, deck in enumerate(ir["decks"]):
        for line in deck["cards"]:
            if line["type"] not in type_names:
                type_names.append(line["type"])
            cond = -1
            if line.get("achieved") is not None:
                cond = len(conds)
                conds.append(line["achieved"])
            names = [a["name"] for a in line["attributes"]]
            choices = [a["values"] for a in line["attributes"]]
            for combo in product(*choices):
                counts = tuple(value["copies"] for value in combo)
                copies = max(_product(counts, n) for n in range(low, high + 1))
                attrs = {n: v["value"] for n, v in zip(names, combo, strict=True)}
                kind = len(set(kinds))
                for k in range(copies):
                    if any(isinstance(c, dict) for c in counts):
                        copy_rule[len(types)] = (k, counts)
                    kinds.append(kind)
                    types.append(line["type"])
                    decks.append(d)
                    rows.append(attrs)
                    cond_of.append(cond)
    attr_names = list(ir["attributes"])
    attrs = {a: tuple(row.get(a) for row in rows) for a in attr_names}
    orders = {a: {v: i for i, v in enumerate(info.get("values", []))} for a, info in ir["attributes"].items()}

    def sort_key(row: dict[str, Any]) -> tuple:
        out = []
        for a in ir.get("card_order", []):
            v = row.get(a)
            if v is None:
                out.append(-1)
            elif ir["attributes"][a]["kind"] == "text":
                out.append(orders[a].get(v, -1))
            else:
                out.append(v)
        return tuple(out)

    table = CardTable(
        types=tuple(types),
        type_index=tuple(type_names.index(t) for t in types),
        type_names=tuple(type_names),
        deck_of=tuple(decks),
        deck_names=tuple(d["name"] for d in ir["decks"]),
        attrs=attrs,
        json=tuple({"type": t, **row} for t, row in zip(types, rows, strict=True)),
        key=tuple(sort_key(row) for row in rows),
        conditions=tuple(cond_of),
        kind=tuple(kinds),
        copy_rule=copy_rule or None,
    )
    return table, conds


def _product(counts: tuple[Any, ...], players: int) -> int:
    out = 1
    for c in counts:
        out *= copies_for(c, players)
    return out


def derive_attributes(cx: Any, ir: dict[str, Any], table: CardTable) -> CardTable:
    """The table with the derived attributes (`define NAME of card = ...`) computed for every card,
    and the card order's keys again if they use one. Their bodies read only the card's attributes
    (the resolver made sure), so each is a column of the table like any other attribute."""
    from .state_fields import StateFields  # (here: this module's imports stay light)

    derived = [d for d in ir["defines"] if d.get("of") == "card"]
    blank = StateFields()  # no game in progress: a body reads only the card (the compiled closures take no None)
    pending = list(derived)
    while pending:
        ready = [d for d in pending if not _reads_pending(d["body"], {p["name"] for p in pending} - {d["name"]})]
        if not ready:
            ready = pending[:1]  # a cycle: the resolver refuses one, so this is hand-written IR
        for d in ready:
            scope, slot = cx.scope().bind("card")
            fn = cx.compile(d["body"], scope)
            env = [None] * cx.env_size
            column = []
            for cid in range(len(table)):
                env[slot] = cid
                column.append(fn(blank, env))
            table.attrs[d["name"]] = tuple(column)
            pending.remove(d)
    if not derived or not set(ir.get("card_order", [])) & {d["name"] for d in derived}:
        return table
    orders = {a: {v: i for i, v in enumerate(info.get("values", []))} for a, info in ir["attributes"].items()}

    def key(cid: int) -> tuple:
        out = []
        for a in ir["card_order"]:
            v = table.attrs[a][cid]
            out.append(-1 if v is None else orders[a].get(v, -1) if ir["attributes"][a]["kind"] == "text" else v)
        return tuple(out)

    return replace(table, key=tuple(key(c) for c in range(len(table))))


def _reads_pending(node: Any, names: set[str]) -> bool:
    if isinstance(node, list):
        return any(_reads_pending(x, names) for x in node)
    if not isinstance(node, dict):
        return False
    if node.get("op") == "attr" and node.get("name") in names:
        return True
    return any(_reads_pending(v, names) for k, v in node.items() if k != "at")
