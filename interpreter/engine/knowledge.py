"""Knowledge about cards, apart from sight (issue 30): `tell P ATTR of CARDS` tells a seat one
attribute of some cards without showing them ("these two are red"), and `known ATTR of CARD to P`
reads what that seat was told (none when it was not).

A fact is ``(seat, card, zone instance, attribute, value)`` in ``State.told``, kept while the card
stays in the zone instance where it was told: it goes with the card as the zone's order changes
(a card played from before it: the seat follows that), and is dropped when the card leaves
(State.move_cards) or its zone is shuffled (events.compile_shuffle: the seat can no longer tell
which card it was told of); the next round forgets every fact. A seat's observation lists its own
facts by place (``told``: zone, index, the card's place in it from 0, attribute, value), never by
card: the seat may not see it. The search agents' sampler makes every sample agree with them
(agents/belief.py).
"""

from __future__ import annotations

from typing import Any

from ..errors import PlayError
from .expr_analysis import Fn, Scope

Fact = tuple[int, int, int, str, Any]  # (seat, card, zone instance, attribute, value)


def compile_tell(cx: Any, node: dict[str, Any], scope: Scope) -> Fn:
    """tell target color of cards in hand of target where color of it = red"""
    at, attr = node.get("at"), node["attr"]
    table = cx.cards.attrs[attr]
    what = cx.compile(node["what"], scope)
    whole_zone = node["what"]["op"] == "zone"
    to = cx.compile(node["to"], scope)

    def tell(s, e):
        got, seat = what(s, e), to(s, e)
        if seat is None:
            raise PlayError("no player to tell", at)
        if got is None:
            return
        cards = s.zone_cards(got) if whole_zone else [got] if isinstance(got, int) else list(got)
        loc, told = s.loc, s.told
        new = tuple((seat, c, loc[c], attr, table[c]) for c in cards)
        s.told = (*(f for f in told if not any(f[:4] == x[:4] for x in new)), *new)
        s.cache.clear()
        s._legal = None

    return tell


class KnowledgeExprs:
    """`known ATTR of CARD to P` (a mixin of ExprCompiler)."""

    def op_known(self, n, sc):  # known color of card to owner of hand
        attr = n["name"]
        card, who = self.compile(n["of"], sc), self.compile(n["to"], sc)

        def known(s, e):
            if not s.told:
                return None
            c, seat = card(s, e), who(s, e)
            if c is None or seat is None:
                return None
            inst = s.loc[c]
            for f in s.told:
                if f[1] == c and f[0] == seat and f[3] == attr and f[2] == inst:
                    return f[4]
            return None

        return known


def told_view(state: Any, seat: int) -> list[dict[str, Any]]:
    """What ``seat`` was told and still holds (its cards still where they were told), by place."""
    if not state.told:
        return []
    game, lay, loc = state.game, state.layout, state.loc
    out = []
    for to, c, inst, attr, value in state.told:
        if to == seat and loc[c] == inst:
            where = {"zone": game.zones[lay.zone_of[inst]].name, "index": lay.number[inst]}
            out.append({**where, "place": state.zone_cards(inst).index(c), "attr": attr, "value": value})
    out.sort(key=lambda x: (x["zone"], x["index"], x["place"], x["attr"]))
    return out


def dropped(told: tuple[Fact, ...], cards: Any) -> tuple[Fact, ...]:
    """The facts (or the cards shown: each names its card second) less those about ``cards``, which
    leave their zone or their place."""
    gone = set(cards)
    return tuple(f for f in told if f[1] not in gone)
