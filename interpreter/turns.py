"""Who moves: the first player of a phase, and the next player after a move."""

from __future__ import annotations

from typing import Any

_NEGATED: dict[int, tuple[tuple, tuple]] = {}  # id of a card-key table -> (the table, its keys negated)


def _negated(card_key: tuple) -> tuple:
    """Each card's sort key with every part negated (for `highest`), computed once per card table."""
    got = _NEGATED.get(id(card_key))
    if got is None or got[0] is not card_key:
        got = _NEGATED[id(card_key)] = (card_key, tuple(tuple(-x for x in k) for k in card_key))
    return got[1]


def first_player(state: Any, phase: Any) -> int:
    """The phase's first player: the dealer's left, or the best by the phase's ordering keys.

    Players tied on every key keep clockwise order from the dealer's left.
    """
    n = state.n
    start = state.dealer + 1
    keys = phase.first_player
    if not keys:
        return start % n
    card_key = state.game.cards.key
    negated = _negated(card_key) if any(extreme != "lowest" and kind == "card" for extreme, _, kind in keys) else ()
    env = [None] * state.game.env_size
    best, best_rank = -1, None
    for k in range(n):
        player = (start + k) % n
        env[0] = player
        rank = []
        for extreme, key, kind in keys:
            v = key(state, env)
            lowest = extreme == "lowest"
            if v is None:
                value: tuple = (1,) if lowest else (-1,)
            elif kind == "card":
                value = (0, *card_key[v]) if lowest else (0, *negated[v])
            else:
                value = (0, v) if lowest else (0, -v)
            rank.append(value)
        if best_rank is None or rank < best_rank:  # the first of the best, clockwise
            best, best_rank = player, rank
    return best
