"""Resolving the cards section: decks, card lines and their attributes, the declared orders
(`order SUIT: ...`, `order cards by ...`) and the conditions under which a card is achieved.
A mixin of Resolver (resolve.py), whose symbol tables it fills."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesetError, RulesTypeError, Span, UnknownNameError
from .ast_nodes import CardOrder, CardType, EnumOrder, Expr
from .copies import copies_for
from .resolve_types import BOOL, CARD, MAX_DECK, PLAYER


class CardsResolver:
    """Cards: decks and their card lines, attributes, the declared orders, achieved conditions."""

    def _card_lines(self, deck: str) -> list[CardType]:
        return [x for x in self.p.decks[deck]["lines"].values() if isinstance(x, CardType)]

    def _deck(self, name: str, deck: dict[str, Any]) -> dict[str, Any]:
        if name in self.p.zones:
            clash = DeclarationError(
                f"the deck '{name}' has the name of a zone",
                self.p.zones[name].span,
                "give the deck or the zone another name",
            )
            if self.errors is None:
                raise clash
            self.errors.append(clash)  # (its cards still resolved: the rules naming them check on)
        cards = []
        total = 0
        for line in self._card_lines(name):
            if self.types.get(line.name, name) != name:
                raise DeclarationError(f"card type '{line.name}' is declared in two decks", line.span)
            self.types[line.name] = name
            attributes, copies = [], 1
            for spec in line.attrs:
                values: list[dict[str, Any]] = []
                ranges = []  # the ranges with a parameter for an end: deck_params.py lays them out again
                for item in spec.values:
                    if isinstance(item.value, tuple):
                        lo, hi = (self._deck_number(end, item.span) for end in item.value)
                        if hi < lo or hi - lo > MAX_DECK:
                            raise DeclarationError(
                                f"range {lo}..{hi} must go up and have at most {MAX_DECK} values", item.span
                            )
                        each = self._item_copies(item)
                        if any(isinstance(end, str) for end in item.value):
                            ranges.append({"from": item.value[0], "to": item.value[1], "first": len(values)})
                        values += [_entry(v, each) for v in range(lo, hi + 1)]
                    else:
                        values.append(_entry(item.value, self._item_copies(item)))
                self._note_attr(spec.name, values, spec.span)
                attributes.append({"name": spec.name, "values": values, **({"ranges": ranges} if ranges else {})})
                high = self.p.players.high  # the deck's size is checked at the most players
                copies *= sum(copies_for(v["copies"], high) for v in values)
            total += copies
            if total > MAX_DECK:
                raise DeclarationError(
                    f"the deck '{name}' would hold more than {MAX_DECK} cards",
                    line.span,
                    "a deck this large is surely a mistake in the counts",
                )
            cards.append(self._noted({"type": line.name, "attributes": attributes}, line.span))
        if not cards:
            raise DeclarationError(f"the deck '{name}' has no cards", self.p.decks[name]["span"])
        return {"name": name, "cards": cards}

    def _item_copies(self, item: Any) -> Any:
        """A value's copies: a number, or an expression of `players` (`x (2 * players)`)."""
        if not isinstance(item.copies, Expr):
            return item.copies
        if self.errors is None:
            return self._copies(item.copies)
        try:  # a bad count is reported alone: one copy stands in, so the cards' other rules still check
            return self._copies(item.copies)
        except RulesetError as err:
            self.errors.append(err)
            return 1

    def _deck_number(self, end: int | str, span: Span) -> int:
        """A range's end: a number, or a parameter's (whose default must be a number: the deck is
        laid out before the game starts, with the value `--set` gives, deck_params.py)."""
        return end if isinstance(end, int) else self.deck_param(end, span)

    def _note_attr(self, name: str, values: list[dict[str, Any]], span: Span) -> None:
        kind = "number" if all(isinstance(v["value"], int) for v in values) else "text"
        if any(isinstance(v["value"], int) for v in values) and kind == "text":
            raise RulesTypeError(f"attribute '{name}' mixes numbers and names", span)
        known = self.attrs.setdefault(name, {"kind": kind, "values": [], "span": span})
        if known["kind"] != kind:
            raise RulesTypeError(f"attribute '{name}' is a {known['kind']} elsewhere, here a {kind}", span)
        for v in values:
            if kind == "text" and v["value"] not in known["values"]:
                known["values"].append(v["value"])

    def _check_orders(self) -> None:
        self.card_order: list[str] = []
        for deck in self.p.decks.values():
            for line in deck["lines"].values():
                if isinstance(line, EnumOrder):
                    attr = self.attrs.get(line.attr)
                    if attr is None or attr["kind"] != "text":
                        raise UnknownNameError(
                            f"'{line.attr}' is not an attribute with named values",
                            line.span,
                            self._suggest(line.attr, [a for a, v in self.attrs.items() if v["kind"] == "text"]),
                        )
                    missing = set(attr["values"]) - set(line.values)
                    extra = set(line.values) - set(attr["values"])
                    if missing or extra:
                        raise DeclarationError(
                            f"the order of {line.attr} must list each of its values once: "
                            + (
                                f"missing {', '.join(sorted(missing))}"
                                if missing
                                else f"unknown {', '.join(sorted(extra))}"
                            ),
                            line.span,
                        )
                    attr["values"] = list(line.values)
                elif isinstance(line, CardOrder):
                    for a in line.attrs:
                        if a not in self.attrs:
                            raise UnknownNameError(
                                f"no attribute '{a}' to order cards by",
                                line.span,
                                self._suggest(a, list(self.attrs)),
                            )
                    self.card_order = list(line.attrs)

    def _achieved(self, line: dict[str, Any], cond: Expr) -> None:
        line["achieved"] = self.expr(cond, {"card": CARD, "player": PLAYER}, BOOL)


def _entry(value: Any, copies: Any) -> dict[str, Any]:
    """A value of an attribute and its copies; copies that are a parameter (`x (copies)`) are its
    number, with the parameter's name beside it (deck_params.py lays the deck out for another)."""
    if isinstance(copies, dict) and copies.get("op") == "num" and "param" in copies:
        return {"value": value, "copies": copies["value"], "param": copies["param"]}
    return {"value": value, "copies": copies}
