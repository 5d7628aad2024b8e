"""What the seat saw of the order of cards in a place it does not see, made so in a sampled world
(belief.Belief's replay): a move `card at place` played from the place the seat saw, a set's cards
in the order the seat saw them go (their order in their zone), a reveal's cards in the order it saw
them revealed. The sample deals hidden cards in any order; the game's order shows in these moves
and events, and a past that shows another order is a world the rules did not reach from what the
seat saw. Only cards the seat does not see where they lie change places, within their own zone."""

from __future__ import annotations

from typing import Any

from ..engine.card_sets import CardSet


def placed(belief: Any, state: Any, move: Any, place: int, seen: set[int]) -> Any:
    """A move `card at place` whose card the sample holds at another place than the game's: the
    card traded with the one at that place (that one unseen where it lies: the seat's own hand
    held facing out; or a guess the replay drew into sight; the card played unseen too, or seen in
    a place the seat sees, where it saw it played from that place), so that the move plays from
    the place the seat saw; else the move as found."""
    inst = state.loc[move.card]
    cards = state.zone_cards(inst)
    if place >= len(cards) or cards[place] == move.card:
        return move
    other, prov, known = cards[place], belief.provisional, belief.known
    # (the seat's own hand held facing out: what it saw there it never saw, as _reconcile says)
    blind = belief.lay.owner[inst] == belief.seat and inst not in belief.visible_set
    if move.card in known or other in known or (other in seen and other not in prov and not blind):
        return move
    if move.card in seen and move.card not in prov and not blind and inst not in belief.visible_set:
        return move
    if belief.game.cards.deck_of[other] != belief.game.cards.deck_of[move.card]:
        return move
    belief._swap(state, move.card, other)
    again = next(
        (
            mv
            for mv in state.legal_moves()
            if mv.card == move.card and mv.rule == move.rule and mv.target == move.target
        ),
        None,
    )
    if again is None:
        belief._swap(state, move.card, other)
        return move
    return again


def set_ordered(belief: Any, state: Any, move: Any, m: dict[str, Any]) -> Any:
    """A set move (all its cards at once, not a set picked card by card) whose cards, taken from
    one place, lie there in another order than the game's (the observed move lists them in their
    zone's order): those cards put in the observed order, among the places they hold; the move then
    listing them so (else the move as found)."""
    if type(move.target) is not CardSet or len(move.target.cards) < 2:
        return move
    cards = move.target.cards
    kind = belief.game.cards.kind
    want = [None if x is None else belief.kind(x) for x in m["cards"]]
    if all(w is None or w == kind[c] for w, c in zip(want, cards, strict=True)):
        return move
    inst = state.loc[cards[0]]
    # (a place the seat sees too, its own hand: the replay's draws into it may come in another order)
    if belief.game.zones[belief.lay.zone_of[inst]].piles or any(state.loc[c] != inst for c in cards):
        return move
    order = _ordered(list(cards), want, kind)
    if order is None:
        return move
    zone = state.zones[inst]
    slots = sorted(zone.index(c) for c in cards)
    for j, c in zip(slots, order, strict=True):
        zone[j] = c
    _moved(state)
    again = next(
        (
            mv
            for mv in state.legal_moves()
            if mv.rule == move.rule
            and type(mv.target) is CardSet
            and mv.target == CardSet(tuple(order), move.target.to)
        ),
        None,
    )
    if again is None:  # (the rules list other copies for it: the order as it was)
        for j, c in zip(slots, cards, strict=True):
            zone[j] = c
        _moved(state)
        return move
    return again


def reveal_ordered(belief: Any, state: Any, log: Any, i: int, saw: list[dict[str, Any]], kept: set[int]) -> None:
    """The ``i``-th event of the round's ``log``, a reveal the seat saw as ``saw`` (its cards in
    their zones' order), after the sample's cards were made those the seat saw (``kept``): in each
    place, the cards revealed put in the order seen, among the places they hold, and the reveal
    naming them so."""
    ev = log["events"][i]
    pairs = ev[3]
    if len(pairs) != len(saw):
        return
    kind = belief.game.cards.kind
    by_inst: dict[int, list[int]] = {}  # zone instance -> the positions of the reveal there
    for j, (_, inst) in enumerate(pairs):
        by_inst.setdefault(inst, []).append(j)
    names = [c for c, _ in pairs]
    changed = False
    for inst, js in by_inst.items():
        # (a place the seat sees too: its own hand revealed holds the cards in the order the game's
        # did, not as the replay drew them)
        zone = state.zones[inst]
        if belief.game.zones[belief.lay.zone_of[inst]].piles:
            continue
        mine = [c for c in zone if c in kept]
        if len(mine) != len(js):  # (cards revealed that the seat was not shown: as the sample has them)
            continue
        want = [None if saw[j]["card"] is None else belief.kind(saw[j]["card"]) for j in js]
        if all(w is None or w == kind[c] for w, c in zip(want, mine, strict=True)):
            for j, c in zip(js, mine, strict=True):
                changed |= names[j] != c
                names[j] = c
            continue
        order = _ordered(list(mine), want, kind)
        if order is None:
            continue
        slots = sorted(zone.index(c) for c in mine)
        for s, c in zip(slots, order, strict=True):
            zone[s] = c
        for j, c in zip(js, order, strict=True):
            names[j] = c
        changed = True
        _moved(state)
    if changed:
        events = list(log["events"])
        events[i] = (*ev[:3], tuple((c, inst) for c, (_, inst) in zip(names, pairs, strict=True)))
        log["events"] = events


def _ordered(cards: list[int], want: list, kind: Any) -> list[int] | None:
    """``cards`` reordered so that each position whose kind is wanted holds a card of that kind
    (the others, the cards left, in their order), or None if the kinds differ."""
    left = list(cards)
    out: list = [None] * len(want)
    for j, w in enumerate(want):
        if w is not None:
            c = next((c for c in left if kind[c] == w), None)
            if c is None:
                return None
            left.remove(c)
            out[j] = c
    rest = iter(left)
    return [c if c is not None else next(rest) for c in out]


def _moved(state: Any) -> None:
    """Forget what the state worked out from its zones (their order changed)."""
    state.zmemo = {}
    state.cache.clear()
    state._legal = None
