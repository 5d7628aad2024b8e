"""Who moves: the first player of a phase, the next player after a move, and the order in which a
simultaneous phase's moves take effect."""

from __future__ import annotations

from typing import Any

from .expr_analysis import card_ranks

_PLANS: dict[tuple[int, str], tuple[Any, tuple]] = {}  # (id of a phase, which) -> (the phase, its keys)


def _keys(phase: Any, card_key: tuple, which: str) -> tuple:
    """The phase's ordering keys as (key, lowest, rank by card or None, rank of none), built once.

    A key's rank is a tuple compared lexicographically, smallest first: ``(0, value)`` (the value
    negated for `highest`; a card by the declared card order), and none last for `lowest`, first
    for `highest`."""
    got = _PLANS.get((id(phase), which))
    if got is None or got[0] is not phase:
        keys = []
        for extreme, key, kind in getattr(phase, which):
            lowest = extreme == "lowest"
            by_card = None
            if kind == "card":  # a card's place in the card order ranks it as its sort key would
                by_card = tuple((0, r) if lowest else (0, -r) for r in card_ranks(card_key))
            keys.append((key, lowest, by_card, (1,) if lowest else (-1,)))
        got = _PLANS[(id(phase), which)] = (phase, tuple(keys))
    return got[1]


def _rank(state: Any, keys: tuple, env: list) -> list:
    """The rank of the env's player (and move) by ordering keys: smallest first."""
    rank = []
    for key, lowest, by_card, missing in keys:
        v = key(state, env)
        if v is None:
            rank.append(missing)
        elif by_card is not None:
            rank.append(by_card[v])
        else:
            rank.append((0, v) if lowest else (0, -v))
    return rank


def resolution_order(state: Any, phase: Any, pending: list) -> list:
    """A simultaneous phase's chosen moves in the order they take effect: by the phase's `resolve`
    keys (each read with the move's player, card and target), ties in the order they were chosen."""
    keys = _keys(phase, state.game.cards.key, "resolve")
    env = [None] * state.game.env_size
    ranked = []
    for i, (p, move) in enumerate(pending):
        env[0], env[1], env[2] = p, move[1], move[2]
        ranked.append((_rank(state, keys, env), i))
    ranked.sort()
    return [pending[i] for _, i in ranked]


def first_player(state: Any, phase: Any) -> int:
    """The phase's first player: the dealer's left, or the best by the phase's ordering keys.

    Players tied on every key keep clockwise order from the dealer's left.
    """
    n = state.n
    start = state.dealer + 1
    if phase.first_seat is not None:  # first player is left of dealer
        return phase.first_seat(state, [None] * state.game.env_size) % n
    if not phase.first_player:
        return start % n
    keys = _keys(phase, state.game.cards.key, "first_player")
    env = [None] * state.game.env_size
    best, best_rank = -1, None
    for k in range(n):
        player = (start + k) % n
        env[0] = player
        rank = _rank(state, keys, env)
        if best_rank is None or rank < best_rank:  # the first of the best, clockwise
            best, best_rank = player, rank
    return best
