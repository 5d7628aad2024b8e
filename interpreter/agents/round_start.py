"""A fresh replay's round start as the seat saw it (for belief.Belief): the cards a deal lays out,
and what the rules' start did with the cards the seat could not see.

A round's ``at start`` may lay dealt cards out in the seat's sight and set a variable from them
(Whist: the dealer's last card is turned up and its suit is trump). The seat saw that card, but once
the rules take it back into a hand (the dealer picks it up at the first trick), the observation
keeps only the variable it set. A replay dealt at random turns up some other card, so every trick
it replays is won by another player than in the game. Where a variable of the round that the seat
sees is set by the round's start and by nothing else, its value now is the value the start gave
it: the cards the start brought into the seat's sight are the sample's guesses, each traded in the
deal with an unseen card of another kind, and the round started again, until the start sets such
variables as the seat sees them. Only the observation and the rules are read; nothing names a game.
"""

from __future__ import annotations

from typing import Any

# per game (by id, the game kept alive with it): the variables only the round's start sets
_START_ONLY: dict[int, tuple[Any, tuple[int, ...]]] = {}

# trades tried at most to make one fresh replay's start agree with what the seat sees
TRIES = 16


def start_only(game: Any) -> tuple[int, ...]:
    """The indices of the round's variables (one for the table, not per player) that the round's
    ``at start`` sets and no other part of the rules does."""
    got = _START_ONLY.get(id(game))
    if got is not None and got[0] is game:
        return got[1]
    start = game.ir["round"].get("at_start")
    in_start, elsewhere = _written(start), _written({k: v for k, v in game.ir.items() if k != "round"})
    elsewhere |= _written({k: v for k, v in game.ir["round"].items() if k != "at_start"})
    out = tuple(
        i
        for i, (name, per_player, per_round, _) in enumerate(game.vars)
        if per_round and not per_player and name in in_start and name not in elsewhere
    )
    _START_ONLY[id(game)] = (game, out)
    return out


def _written(node: Any) -> set[str]:
    """The names of the variables the effects under ``node`` (IR) set, add to or make."""
    out: set[str] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            if "do" in n and isinstance(n.get("var"), str):
                out.add(n["var"])
            todo.extend(n.values())
        elif isinstance(n, list):
            todo.extend(n)
    return out


def laid_out(belief: Any, deal: dict[str, Any]) -> dict[int, list[int]]:
    """Per zone instance, the card ids ``deal`` (cards by what they are) is laid out with: copies of
    a card take their ids in the order they lie, zone by zone (engine/deal.py's ``place``)."""
    game, lay = belief.game, belief.lay
    free = {k: iter(ids) for k, ids in belief.ids_of.items()}
    out: dict[int, list[int]] = {}
    for z, spec in enumerate(game.zones):
        value = deal[spec.name]
        lists = value if (spec.per_player or len(lay.instances[z]) > 1) else [value]
        for inst, cards in zip(lay.instances[z], lists, strict=True):
            out[inst] = [next(free[belief.kind(c)]) for c in cards]
    return out


def seen_in_deal(belief: Any, deal: dict[str, Any]) -> set[int]:
    """The ids of the cards ``deal`` lays out where the seat saw the deal (its observation's deal
    shows them, not a count)."""
    game, lay = belief.game, belief.lay
    laid = laid_out(belief, deal)
    return {
        c
        for name, views in belief.obs["deal"].items()
        for inst, view in zip(lay.instances[game.zone_index[name]], views, strict=True)
        if not isinstance(view, dict)
        for c in laid[inst]
    }


def agree(belief: Any, state: Any, deal: dict[str, Any], seen: set[int], restart: Any) -> tuple[Any, set[int]]:
    """``state``, the round just started on ``deal`` (``restart(deal)`` starts it again), with the
    variables only the start sets as the seat sees them, where trades in the deal of the cards the
    start brought into the seat's sight can make it so (the module docstring); the state and the
    ids the seat saw in the deal. ``deal`` is changed in place where a trade fits."""
    game, obs = belief.game, belief.obs
    want = [(i, obs["vars"][game.vars[i][0]]) for i in start_only(game)]
    want = [(i, v) for i, v in want if v is not None]
    if not want or all(state.vars[i] == v for i, v in want):
        return state, seen
    kind = game.cards.kind
    guessed = {kind[c] for inst in belief.visible for c in state.zone_cards(inst) if c not in seen}
    if not guessed:
        return state, seen
    # the places in the deal the seat did not see, and the cards there
    spots: list[tuple[list, int]] = []
    lay = belief.lay
    for name, views in obs["deal"].items():
        z = game.zone_index[name]
        spec = game.zones[z]
        value = deal[name]
        lists = value if (spec.per_player or len(lay.instances[z]) > 1) else [value]
        for cards, view in zip(lists, views, strict=True):
            if isinstance(view, dict) and not spec.piles:
                spots.extend((cards, j) for j in range(len(cards)))
    rng, deck_of, ids_of = belief.rng, game.cards.deck_of, belief.ids_of
    tries = TRIES
    rng.shuffle(spots)
    for k in guessed:
        for a in [s for s in spots if belief.kind(s[0][s[1]]) == k][:1]:
            # one place of each other kind of its deck, those in the same place as it first (a card
            # of the hand it was dealt to, which that player may have been seen to play since)
            others: dict[int, tuple[list, int]] = {}
            for b in sorted(spots, key=lambda s: s[0] is not a[0]):
                j = belief.kind(b[0][b[1]])
                if j != k and deck_of[ids_of[j][0]] == deck_of[ids_of[k][0]]:
                    others.setdefault(j, b)
            for b in others.values():
                if tries <= 0 or belief.spent():
                    return state, seen
                tries -= 1
                belief.trials += 1
                a[0][a[1]], b[0][b[1]] = b[0][b[1]], a[0][a[1]]
                trial = restart(deal)
                if all(trial.vars[i] == v for i, v in want):
                    return trial, seen_in_deal(belief, deal)
                a[0][a[1]], b[0][b[1]] = b[0][b[1]], a[0][a[1]]
    return state, seen
