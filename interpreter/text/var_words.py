"""The game's variables as a player reads them, at the terminal and the table: by name in words
(``deck out 0``, ``bids: you 2, seat 1 none``), a status a rule `make`s by the seats it holds for
(``protected: seat 2``), a value that is none as ``none`` and one hidden from the seat as ``?``.
A `hidden` variable is the rules' own: no player is shown it."""

from __future__ import annotations

from functools import cache
from typing import Any

from .move_words import seat_name, zone_label


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


def _value(game: Any, layout: Any, spec: dict[str, Any], value: Any, seat: int, hidden: bool) -> str:
    if value is None:
        return "?" if hidden else "none"
    if (spec.get("type") == "player" or spec.get("holds") == "player") and isinstance(value, int):
        return seat_name(value, seat)
    if spec.get("type") == "zone" and isinstance(value, int) and layout is not None:  # a zone by its name
        name = game.zones[layout.zone_of[value]].name
        return zone_label(game, name, layout.number[value], seat, layout.players)
    return str(value)


def vars_words(game: Any, values: dict[str, Any], seat: int, layout: Any = None) -> list[str]:
    """Each variable a player may see, in words (``values``: observe.vars_view's, for ``seat``;
    ``layout``, the game's zone instances, to name a zone a variable holds)."""
    out = []
    statuses = status_vars(game)
    for spec in game.ir["vars"]:
        name, visibility = spec["name"], spec.get("visibility", "public")
        if visibility == "hidden" or name not in values:
            continue
        value = values[name]
        if not isinstance(value, list):
            out.append(f"{var_label(name)} {_value(game, layout, spec, value, seat, False)}")
        elif name in statuses:  # (shown while it holds for someone)
            held = [seat_name(p, seat) for p, v in enumerate(value) if v]
            if held:
                out.append(f"{var_label(name)}: {', '.join(held)}")
        else:
            out.append(
                f"{var_label(name)}: "
                + ", ".join(
                    f"{seat_name(p, seat)} {_value(game, layout, spec, v, seat, visibility == 'owner' and p != seat)}"
                    for p, v in enumerate(value)
                )
            )
    return out
