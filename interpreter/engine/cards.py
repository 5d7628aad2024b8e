"""Decks to tables: every card gets an id; its type and attributes are looked up by id."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import product
from typing import Any


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


def build_cards(ir: dict[str, Any]) -> tuple[CardTable, list[Any]]:
    """The card table of an IR, and the `achieved` condition IR of each condition index."""
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
                copies = 1
                for value in combo:
                    copies *= value["copies"]
                attrs = {n: v["value"] for n, v in zip(names, combo, strict=True)}
                kind = len(set(kinds))
                for _ in range(copies):
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
    )
    return table, conds
