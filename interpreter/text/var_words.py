"""The game's variables as a player reads them, at the terminal and the table: by name in words
(``deck out 0``, ``bids: you 2, seat 1 none``), a status a rule `make`s by the seats it holds for
(``protected: seat 2``), a value that is none as ``none`` and one hidden from the seat as ``?``; a
player, a zone or a card held by name (the variable's type: declared, or what the rules set it to).
A `hidden` variable is the rules' own: no player is shown it."""

from __future__ import annotations

from functools import cache
from typing import Any

from .move_words import card_name, seat_name, zone_label


@cache
def status_vars(game: Any) -> frozenset[str]:
    """The per-player variables that `make` sets (statuses such as protected): shown by the seats they hold for."""
    found, stack = set(), [game.ir]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("do") == "make" and isinstance(node.get("var"), str):
                found.add(node["var"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(found)


def var_label(name: str) -> str:
    """A variable's name as words: ``deck_out`` is ``deck out``."""
    return name.replace("_", " ")


def held_words(game: Any, layout: Any, spec: dict[str, Any], value: Any, seat: int) -> Any:
    """A zone or a card that a variable holds, by name as ``seat`` reads it (``your hand``,
    ``discard 3``, ``king 6``); any other value as it is (a player: ``seat_name``, or the table's
    names for its people)."""
    if spec.get("type") == "cards" and isinstance(value, list | tuple):
        return ", ".join(card_name(game.cards.json[c]) for c in value) or "no cards"
    if not isinstance(value, int) or isinstance(value, bool):
        return value
    if spec.get("type") == "card":
        return card_name(game.cards.json[value])
    if spec.get("type") == "zone" and layout is not None:
        name = game.zones[layout.zone_of[value]].name
        return zone_label(game, name, layout.number[value], seat, layout.players)
    return value


def _value(game: Any, layout: Any, spec: dict[str, Any], value: Any, seat: int, hidden: bool) -> str:
    if value is None:
        return "?" if hidden else "none"
    if spec.get("type") == "player" and isinstance(value, int):  # (declared, or what `set` gives it)
        return seat_name(value, seat)
    return str(held_words(game, layout, spec, value, seat))


def vars_words(
    game: Any, values: dict[str, Any], seat: int, layout: Any = None, unseen: list[list[Any]] = ()
) -> list[str]:
    """Each variable a player may see, in words (``values``: observe.vars_view's, for ``seat``;
    ``layout``, the game's zone instances, to name a zone a variable holds; ``unseen``, the
    observation's ``unseen_vars``: a card held that the seat does not see, `?`)."""
    out = []
    statuses = status_vars(game)
    for spec in game.ir["vars"]:
        name, visibility = spec["name"], spec.get("visibility", "public")
        if visibility == "hidden" or name not in values:
            continue
        value = values[name]
        if not spec["per_player"]:
            out.append(f"{var_label(name)} {_value(game, layout, spec, value, seat, [name] in unseen)}")
        elif name in statuses:  # (shown while it holds for someone)
            held = [seat_name(p, seat) for p, v in enumerate(value) if v]
            if held:
                out.append(f"{var_label(name)}: {', '.join(held)}")
        else:
            out.append(
                f"{var_label(name)}: "
                + ", ".join(
                    f"{seat_name(p, seat)} "
                    + _value(game, layout, spec, v, seat, (visibility == "owner" and p != seat) or [name, p] in unseen)
                    for p, v in enumerate(value)
                )
            )
    return out
