"""Who moves: the first player of a phase, and the next player after a move."""

from __future__ import annotations

from typing import Any


def first_player(state: Any, phase: Any) -> int:
    """The phase's first player: the dealer's left, or the best by the phase's ordering keys.

    Players tied on every key keep clockwise order from the dealer's left.
    """
    n = state.n
    order = [(state.dealer + 1 + k) % n for k in range(n)]
    if not phase.first_player:
        return order[0]
    card_key = state.game.cards.key

    def rank(player: int) -> tuple:
        env = [None] * state.game.env_size
        env[0] = player
        out = []
        for extreme, key, kind in phase.first_player:
            v = key(state, env)
            if v is None:
                value: tuple = (1,) if extreme == "lowest" else (-1,)
            elif kind == "card":
                value = (0, *card_key[v]) if extreme == "lowest" else (0, *(-x for x in card_key[v]))
            else:
                value = (0, v) if extreme == "lowest" else (0, -v)
            out.append(value)
        return tuple(out)

    return min(order, key=rank)
