"""The tables a belief sampler reads at every decision, made once per rules and number of players:
card kinds by signature and by card object, the card ids of each kind in play, the zones each deck
may be dealt to."""

from __future__ import annotations

from typing import Any

from ..engine.cards import signature

# per rules and number of players (the rules kept alive with them): tables' answer
_TABLES: dict[tuple[int, int], tuple] = {}


def tables(game: Any, n: int) -> tuple[dict, dict, dict[int, list[int]], dict[int, set[int]]]:
    """The tables a Belief reads, the same at every decision (made once: a greedy decision spent a
    tenth of its time making them): card kind by signature and by card object, the card ids of each
    kind dealt to ``n`` players, the zones each deck's cards may be dealt to (its own, the deal
    lines' and their rests'). Only read."""
    got = _TABLES.get((id(game), n))
    if got is not None and got[0] is game:
        return got[1]
    cards = game.cards
    kind_of = {signature(c): k for c, k in zip(cards.json, cards.kind, strict=True)}
    # an observation shows the rules' own card objects: known by identity, no signature to build
    kind_of_object = {id(c): k for c, k in zip(cards.json, cards.kind, strict=True)}
    ids_of: dict[int, list[int]] = {}
    absent = cards.absent(n)  # copies this many players do not use: in no deal
    for cid, k in enumerate(cards.kind):
        if cid not in absent:
            ids_of.setdefault(k, []).append(cid)
    deck_zones: dict[int, set[int]] = {}
    for d, name in enumerate(cards.deck_names):
        own = game.zone_index[name]
        deck_zones[d] = {own} | {z for r in game.deals if r.deck == own for z in (r.zone, r.rest) if z is not None}
    made = (kind_of, kind_of_object, ids_of, deck_zones)
    _TABLES[id(game), n] = (game, made)
    return made
