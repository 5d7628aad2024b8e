"""Who moves: the first player of a phase, the next player after a move, and the order in which a
simultaneous phase's moves take effect.

The turn order: the turn passes to the left (``state.turn_step`` +1) until an effect `turn order
reverses` makes it pass to the right (-1), and back again at the next; every round starts to the
left. The next player by default, `next of P`, the search for a player who can move (a player who
cannot is passed by) and a simultaneous phase's order of choosing all follow it; `left of` and
`right of` stay the seats beside (docs/rules-decisions.md). `skip P` makes P lose their next turn:
the next time the turn comes to P in a phase played in turns, it passes P by, once per skip
(``state.skips``, one entry per turn to lose; a round starts with none). Neither costs a game that
never reverses nor skips more than the read of an int and of an empty tuple per move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import PlayError
from .expr_analysis import card_ranks

if TYPE_CHECKING:  # (the compiled engine's type: this module's .pxd cimports it)
    from .state_fields import StateFields

_PLANS: dict[tuple[int, str], tuple[Any, tuple]] = {}  # (id of a phase, which) -> (the phase, its keys)
_LAST: list[tuple] = [(None, None, ())]  # the last (phase, which, its keys) asked: most often the next


def _keys(phase: Any, card_key: tuple, which: str) -> tuple:
    """The phase's ordering keys as (key, lowest, rank by card or None, rank of none), built once.

    A key's rank is a tuple compared lexicographically, smallest first: ``(0, value)`` (the value
    negated for `highest`; a card by the declared card order), and none last for `lowest`, first
    for `highest`."""
    last = _LAST[0]
    if last[0] is phase and last[1] == which:
        return last[2]
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
    _LAST[0] = (phase, which, got[1])
    return got[1]


def _rank(state: StateFields, keys: tuple, env: list) -> list:
    """The rank of the env's player (and move) by ordering keys: smallest first."""
    return [_key_rank(state, key, env) for key in keys]


def _key_rank(state: StateFields, key: tuple, env: list) -> Any:
    """The rank of the env's player (and move) by one ordering key (see _keys)."""
    fn, lowest, by_card, missing = key
    v = fn(state, env)
    if v is None:
        return missing
    if by_card is not None:
        return by_card[v]
    return (0, v) if lowest else (0, -v)


def resolution_order(state: StateFields, phase: Any, pending: list) -> list:
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


def first_player(state: StateFields, phase: Any) -> int:
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
    order = [(start + k) % n for k in range(n)]
    # Key by key, the seats still tied on every key before it: a later key is read for them only
    # (the best by the whole rank, lexicographic, is the best by the first key, then among those
    # tied by the next...), unless a key may count a rule (coverage on: every key of every seat, as a
    # rule the keys read counts each time it holds).
    every = phase.first_counts
    tied = order
    for key in keys:
        if len(tied) == 1 and not every:
            break
        best = None
        kept = []  # the seats tied on the best rank so far, clockwise
        for player in order if every else tied:
            env[0] = player
            rank = _key_rank(state, key, env)
            if every and player not in tied:  # (read to be counted only)
                continue
            if not kept or rank < best:
                best = rank
                kept = [player]
            elif rank == best:
                kept.append(player)
        tied = kept
    return tied[0]  # the first of the best, clockwise


def lose_turn(state: StateFields, p: int) -> None:
    """``p``'s turn comes and is lost (one of its skips): a status `until their next turn` ends, as
    the turn came; the caller passes the turn on."""
    skips = list(state.skips)
    skips.remove(p)
    state.skips = tuple(skips)
    if state.expiring:
        state._expire(p)
    state._legal = None


def compile_reverse(cx: Any, node: dict[str, Any], scope: Any) -> Any:
    """turn order reverses: the turn passes the other way round from now on, in this round"""

    def reverse(s: StateFields, e):
        s.turn_step = -s.turn_step
        s.cache.clear()  # (`next of P` reads it)
        s._legal = None

    return reverse


def compile_skip(cx: Any, node: dict[str, Any], scope: Any) -> Any:
    """skip next of player: that player loses their next turn"""
    at = node.get("at")
    who = cx.compile(node["player"], scope)

    def skip(s: StateFields, e):
        p = who(s, e)
        if p is None:
            raise PlayError("no player to skip", at)
        s.skips = (*s.skips, p)
        s.cache.clear()
        s._legal = None

    return skip
