"""The rules' own doings between moves: effects `at start` / `at end` of a round or a phase, and
the conditions that end a round, a `repeat` or the game. Each runs with an empty env (nobody's
move: no player, card or target) and names its rule when it fails.

What is left to run, when an `ask` waits
----------------------------------------
An `ask` (choices.compile_ask) stops whatever effects are running until its player answers, wherever
they run: a move's triggers, a simultaneous phase's held moves as they resolve, effects at the start
or end of a round or a phase, inside `if` and `for each`. ``state.asking`` is then
``(seat, rule, env, frames)``: the asked seat, the ask's move rule, the env its block runs with, and
``frames``: what is left to run once the block has run, innermost first. A frame is a pair
``(fn, arg)``, run as ``fn(state, arg)``; it is plain data that copies of the state share (``arg`` is
immutable: an env is kept as a tuple, an ``Env``, and copied again to run; a State method is a
function of the class, not bound to one state). Being data, it can be read: when two cards trade
places (State.swap_cards, for the search agents' samples), ``renamed`` renames the cards an env
holds in its card slots (``Game.card_slots``) and the card of a move kept in a frame.

One mechanism for every place an effect runs: a runner of steps (an effect block, a `for each`
loop, a move's triggers, the held moves of a simultaneous phase, the flow that starts and ends
phases and rounds) that sees ``state.asking`` set after one of its steps stops at once and calls
``suspend`` with the rest of its own steps; its caller sees ``asking`` set as well and does the
same with its own rest, so the frames collect from the ask outward, and the state's ``current``
becomes the asked seat. ``answer`` runs the ask's block, then each frame in turn; when one asks
again, the frames not yet run go after the new ask's own. After the last frame the caller goes on
exactly as after a move (State.apply advances to the next player who must move).

A runner checks ``asking`` only where the rules hold an ask: effects.py compiles the checking
runners only for blocks that contain one, and the state's runners check after a trigger or a
phase's or a round's effects, never in the per-move path of a game that asks nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import RUNTIME_FAILURES, rule_failure


def run_effects(state: Any, effects: Any, at: str | None, what: str) -> None:
    """Run the rules' own effects on the state (the caller sees whether they ask: ``state.asking``)."""
    try:
        effects(state, [None] * state.game.env_size)
    except RUNTIME_FAILURES as err:
        raise rule_failure(err, at, what, state.game.read_from_ir) from None
    state.cache.clear()
    state._legal = None


def holds(state: Any, condition: Any, at: str | None, what: str) -> bool:
    """Whether a round's, a repeat's or the game's condition holds now."""
    try:
        return bool(condition(state, [None] * state.game.env_size))
    except RUNTIME_FAILURES as err:
        raise rule_failure(err, at, what, state.game.read_from_ir) from None


class Env(tuple):
    """An env kept while an ask waits (as a tuple: copies of the state share it), marked so that
    a swap of two cards finds it among a frame's data and renames the cards it holds (``renamed``)."""

    __slots__ = ()


class Cards(tuple):
    """Cards kept while an ask waits (the turns a `for each card` loop has still to go: loops.py),
    marked so that a swap of two cards renames them as it renames an env's cards."""

    __slots__ = ()


def renamed(asking: tuple, other: dict[int, int], card_slots: frozenset[int], move_renamed: Callable) -> tuple:
    """``state.asking`` with each card of ``other`` (card -> the card taking its place) renamed:
    in the ask's env and in every frame's data (an env, a move); what is not a card is kept."""
    seat, rule, env, frames = asking

    def card(v: Any) -> Any:
        if type(v) is int:
            return other.get(v, v)
        if isinstance(v, (tuple, list)):  # (the cards of a set chosen, a collection let)
            return type(v)(other.get(x, x) if type(x) is int else x for x in v)
        return v

    def data(x: Any) -> Any:
        if type(x) is Env:
            return Env(card(v) if i in card_slots else v for i, v in enumerate(x))
        if type(x) is Cards:
            return Cards(other.get(c, c) for c in x)
        if hasattr(x, "_replace") and hasattr(x, "card"):  # a move (a named tuple of rule, card, target)
            return move_renamed(x, other)
        if type(x) is tuple:
            return tuple(data(y) for y in x)
        return x

    return (seat, rule, data(env), tuple((fn, data(arg)) for fn, arg in frames))


def suspend(state: Any, fn: Callable[[Any, Any], None], arg: Any) -> None:
    """An ask waits: ``fn(state, arg)`` runs once its answer and the frames inside it have run."""
    seat, rule, env, frames = state.asking
    state.asking = (seat, rule, env, (*frames, (fn, arg)))


def answer(state: Any, value: Any) -> None:
    """The asked player has chosen ``value``: the ask's block runs with it, then what was left."""
    _, rule_index, env, frames = state.asking
    state.asking = None
    rule = state.game.moves[rule_index]
    env = list(env)
    env[rule.slot] = value
    try:
        if rule.then is not None:
            rule.then(state, env)
            state.cache.clear()
        for i, (fn, arg) in enumerate(frames):
            if state.asking is not None:  # asked again: the frames left wait after the new ask's
                seat, r, e, inner = state.asking
                state.asking = (seat, r, e, inner + frames[i:])
                break
            fn(state, arg)
            state.cache.clear()
    except RUNTIME_FAILURES as err:
        raise rule_failure(err, rule.at, "ask", state.game.read_from_ir) from None
    state._legal = None
