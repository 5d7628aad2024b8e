"""Cards a seat does not see: never a choice of that seat, never named to it.

A player chooses only among cards they see. A card move (`move NAME card from ZONE to ...`) and a
set move (`move NAME N cards from ZONE ...`) choose from the mover's own instance of a per-player
ZONE, or from a shared ZONE; when the mover never sees the cards there (a `hidden` zone, a deck's
own zone), offering them would list every card it holds, and which of them the guards allow. So
the compiler refuses such a rule (``check_unseen_choices``), with a hint towards a draw (`move
NAME top N from ZONE to ...`), which names the pile and never the card. One kind is kept: a
**blind move**, a one-card move whose guards name the card (`require card = first card in stock
of player`) and read nothing else of it. The player does not choose a card there: the rules do,
and the player only decides to make the move (War's turned card). A **move by place** (`move NAME
card at place from ZONE to ...`) chooses a place of the player's own ZONE, not a card: its guards
may not read the card (``_check_place_move``), and the views name the place, never the card
(observe.offered_move). An `ask` that chooses a card offers only the cards its player sees or
was shown (choices.compile_card_choice; the resolver refuses a zone nobody sees).

``card_seen`` is the same rule at run time, for what is sent to a seat: the views word a card of
a move only when it holds (observe.offered_move), whatever the engine offered.
"""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError
from .expr_analysis import free_names
from .zones import sees


def card_seen(state: Any, seat: int, card: int) -> bool:
    """Whether ``seat``'s observation shows ``card`` where it lies now: in a zone instance the
    seat sees, or shown to the seat there (`show ... to`)."""
    inst = state.loc[card]
    return sees(state.game, state.layout, inst, seat) or (seat, card, inst) in state.shown


def mover_sees(zone: dict[str, Any] | None) -> bool:
    """Whether a move's player sees the cards of its source zone (their own instance of a
    per-player zone, the one instance of a shared zone); None is a deck's own zone (hidden)."""
    if zone is None:
        return False
    return zone.get("visibility") == "public" or (zone.get("visibility") == "owner" and zone.get("owner") == "player")


def _why(name: str, zone: dict[str, Any] | None) -> str:
    if zone is None:
        return f"'{name}' is a deck's own zone, which nobody sees"
    if zone.get("visibility") == "hidden":
        return f"'{name}' is hidden: nobody sees its cards, its owner neither"
    if zone.get("visibility") == "others":
        return f"'{name}' is seen by the others (`others see`), not by its owner"
    return f"nobody owns the shared zone '{name}' to see its cards"


def _names_card(guard: dict[str, Any]) -> bool:
    """`require card = CARD` (either way round), CARD reading nothing of the moved card."""
    expr = guard.get("expr") or {}
    if guard.get("kind") != "require" or guard.get("when") is not None:
        return False
    if expr.get("op") != "cmp" or expr.get("cmp") != "=":
        return False
    for mine, other in ((expr.get("left"), expr.get("right")), (expr.get("right"), expr.get("left"))):
        bound = isinstance(mine, dict) and mine.get("op") == "bound" and mine.get("name") == "card"
        if bound and "card" not in free_names(other):
            return True
    return False


def _check_place_move(m: dict[str, Any], src: str, zone: dict[str, Any] | None) -> None:
    """A move `card at place` from a zone its player does not see: the player chooses the place,
    so the zone must be their own (a per-player zone) and no guard may read the card (whether a
    place is offered would tell what lies there)."""
    name, at = m["name"], m.get("at")
    if zone is None or zone.get("owner") != "player":
        raise DeclarationError(
            f"move '{name}' chooses a card by its place in '{src}', which is no player's own zone",
            at,
            "a card at place comes from the player's own zone (`per player`, `hidden` or `others see`)",
        )
    for g in m["guards"]:
        if "card" in free_names([g.get("expr"), g.get("when")]):
            raise DeclarationError(
                f"move '{name}' chooses a card by its place in '{src}', which its player does not see, and "
                "this guard reads the card: whether a place is offered would tell what lies there",
                g.get("at") or at,
                "test the card in the move's triggers (`after NAME if ...`), once it is played",
            )


def check_unseen_choices(ir: dict[str, Any]) -> None:
    """Refuse a move that chooses a card, or several, from a zone its player does not see (see the
    module docstring); a blind move must name its card and read nothing else of it."""
    zones = {z["name"]: z for z in ir.get("zones") or []}
    for phase in ir["round"]["phases"]:
        for m in phase["moves"]:
            choice = m.get("choice")
            if choice is not None and choice.get("kind") != "cards":
                continue  # a choice that is no card, or a draw (it names the pile, never the card)
            src = choice["from"] if choice is not None else m["from"]
            dst = choice["to"] if choice is not None else m["to"]
            if mover_sees(zones.get(src)):
                continue
            name, at = m["name"], m.get("at")
            if m.get("at_place"):
                _check_place_move(m, src, zones.get(src))
                continue
            if choice is not None:  # several cards
                low = choice.get("low") or {}
                n = low["value"] if low.get("op") == "num" and "high" not in choice else "N"
                raise DeclarationError(
                    f"move '{name}' chooses cards among those of '{src}', which its player does not see: "
                    f"{_why(src, zones.get(src))}",
                    at,
                    f"to take cards unseen, draw them: `move {name} top {n} from {src} to {dst}` "
                    "(the top cards of the pile; the move names the pile, never the cards)",
                )
            naming = [g for g in m["guards"] if _names_card(g)]
            if not naming:
                of = " of player" if zones.get(src, {}).get("owner") == "player" else ""
                raise DeclarationError(
                    f"move '{name}' chooses a card among those of '{src}', which its player does not see: "
                    f"{_why(src, zones.get(src))}",
                    at,
                    f"to take a card unseen, draw it: `move {name} top card from {src} to {dst}`; or let the "
                    f"rules name the card the player takes: `require card = first card in {src}{of}`",
                )
            for g in m["guards"]:
                if g is not naming[0] and "card" in free_names([g.get("expr"), g.get("when")]):
                    raise DeclarationError(
                        f"move '{name}' takes the card its guards name from '{src}', which its player does not "
                        "see, and this guard reads more of that card: whether the move is offered would tell "
                        "what the card is",
                        g.get("at") or at,
                        "test the card in the move's triggers (`after NAME if ...`), once it is taken",
                    )
