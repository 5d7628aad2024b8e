"""A world's hidden cards dealt again under what the seat knows: a constrained assignment.

The sampler (belief.py) finds one world that agrees with everything the seat observed, by replaying
the round once (and, decision after decision, by playing that replay on by the moves since). The
cards the seat has not seen, in the places it does not see, may then trade places among themselves
within what the seat knows of each place:

- a card only takes the place of a card of its own deck (what any deal or move could do);
- a place the seat was told of (`tell`) takes only a card of the values told;
- a place known not to hold some kinds (a move of its player that such a card would have made
  illegal: belief's ``marks``, which go with the place) takes none of them;
- cards the seat saw, was shown or had revealed to it, and cards in zones of piles, stay.

The new places are a bipartite matching of those cards to those places, made at random: each deck
at once, a shuffle where no place of it is constrained, else the most constrained places first,
each taking a random card among those it allows (Kuhn's augmenting paths when none is left). The
world's own places are always a solution, so there is always one. Every world so made agrees with
the observation: no replay, no sample wasted. It reads nothing the seat cannot see: only the world
found and the seat's observation.
"""

from __future__ import annotations

from typing import Any


def redeal(belief: Any, state: Any) -> None:
    """Give the cards of ``state`` that ``belief``'s seat has not seen, in the places it does not see,
    new places at random under what the seat knows of them (the module docstring)."""
    game, lay, seat = belief.game, belief.lay, belief.seat
    seen, marks = belief.seen, belief.marks
    zones, zone_of = game.zones, lay.zone_of
    fixed = {c for to, c, _ in state.shown if to == seat} | seen if state.shown else seen
    told: dict[int, list[tuple[str, Any]]] = {}
    for to, c, inst, attr, value in state.told:
        if to == seat and state.loc[c] == inst:
            told.setdefault(c, []).append((attr, value))
    by_deck: dict[int, list[int]] = {}
    deck_of, visible = game.cards.deck_of, belief.visible_set
    for inst in range(lay.size):
        if inst in visible or zones[zone_of[inst]].piles:
            continue
        for c in state.zones[inst]:
            if c not in fixed:
                by_deck.setdefault(deck_of[c], []).append(c)
    rng = belief.rng
    target: dict[int, int] = {}  # a place (the card now there) -> the card that goes there
    for places in by_deck.values():
        cards = list(places)
        if not any(a in marks or a in told for a in places):
            rng.shuffle(cards)
            target.update(zip(places, cards, strict=True))
        else:
            target.update(_matching(places, _candidates(game, places, marks, told), rng))
    _place(belief, state, target)


def _candidates(game: Any, places: list[int], marks: dict, told: dict) -> dict[int, list[int]]:
    """Per place (the card now there), the cards of ``places`` that may go there."""
    kind, attrs = game.cards.kind, game.cards.attrs
    of_kind: dict[int, list[int]] = {}
    for c in places:
        of_kind.setdefault(kind[c], []).append(c)
    out = {}
    for a in places:
        barred, facts = marks.get(a, ()), told.get(a, ())
        out[a] = [
            c
            for k, cs in of_kind.items()
            if k == kind[a] or (k not in barred and all(attrs[at][cs[0]] == v for at, v in facts))
            for c in cs
        ]
    return out


def _matching(places: list[int], candidates: dict[int, list[int]], rng: Any) -> dict[int, int]:
    """A random perfect matching of places to cards (each place one of its candidates): the places
    with the fewest candidates first, each a random free candidate, else an augmenting path."""
    order = list(places)
    rng.shuffle(order)
    order.sort(key=lambda a: len(candidates[a]))
    owner: dict[int, int] = {}  # card -> the place it goes to
    for a in order:
        cands = candidates[a]
        rng.shuffle(cands)
        free = next((c for c in cands if c not in owner), None)
        if free is not None:
            owner[free] = a
        elif not _augment(a, candidates, owner, set()):  # (never: the world's own places are a matching)
            raise AssertionError("no matching of hidden cards to places")
    return {a: c for c, a in owner.items()}


def _augment(a: int, candidates: dict[int, list[int]], owner: dict[int, int], visited: set[int]) -> bool:
    """Kuhn's step: give place ``a`` a candidate, moving the place that holds it to another."""
    for c in candidates[a]:
        if c in visited:
            continue
        visited.add(c)
        if c not in owner or _augment(owner[c], candidates, owner, visited):
            owner[c] = a
            return True
    return False


def _place(belief: Any, state: Any, target: dict[int, int]) -> None:
    """Put each card where ``target`` says, by trades of two cards (belief.trade: what each did goes
    as the sampler's swaps say)."""
    holder = {a: a for a in target}  # place -> the card in it now
    where = {a: a for a in target}  # card -> the place it is in now
    swap = belief.trade
    for a, c in target.items():
        d = holder[a]
        if d == c:
            continue
        s = where[c]
        swap(state, d, c)
        holder[a], holder[s] = c, d
        where[c], where[d] = a, s
