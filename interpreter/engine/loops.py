"""Loops in effects, compiled to closures ``f(state, env)``: `for each` (players in seat order from
a seat, teams, the cards of a zone in an order) and `repeat until`.

Every loop is bounded. A `for each` takes its players, teams or cards once, before its first turn
(what its effects do to a zone does not change the turns it makes). A `repeat until C` makes at most
``MAX_PASSES`` passes: one more is a runaway loop, a PlayError at its line (the resolver refuses a
`repeat` whose effects change nothing that C reads). `until C` is read before each turn: the loop
stops as soon as it holds (a `repeat` whose condition holds at once runs no pass).

A loop whose effects ask (an `ask` waits for its player) leaves the turns still to go as a frame
(flow.py), run once the answer and its block have run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import PlayError
from ..language.limits import MAX_PASSES
from .expr_analysis import Scope
from .expressions import ExprCompiler
from .flow import Cards, Env, suspend

Effect = Callable[[Any, list], None]


def compile_each(
    cx: ExprCompiler, node: dict[str, Any], scope: Scope, compile_effects: Callable, asking: bool
) -> Effect:
    """for each player [from P] [where C] [until C], for each team ..., for each card in CARDS
    [where C] [by KEY] [until C]: the effects once for each, in turn."""
    over = _turns(cx, node, scope)
    inner, k = scope.bind(node["over"])
    if node["over"] == "card":
        cx.card_slots.add(k)
    elif node.get("where") is None or cx.public(node["where"], inner, also=k):  # every seat knows which
        cx.public_slots.add(k)
    where = None if node.get("where") is None else cx.compile(node["where"], inner)
    until = None if node.get("until") is None else cx.compile(node["until"], scope)
    order = _order(cx, node.get("by"), inner, k)
    body = compile_effects(cx, node["effects"], Scope(inner.slots, inner.counter))
    if asking:  # one ask per turn of the loop: the next turns wait for its answer
        return _asking_each(over, k, where, until, order, body, node["over"] == "card")

    def each(s, e):
        xs = over(s, e)
        if order is not None:
            xs = order(s, e, xs)
        for x in xs:
            if until is not None and until(s, e):
                return
            e[k] = x
            if where is None or where(s, e):
                body(s, e)

    return each


def _turns(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Callable[[Any, list], tuple]:
    """``turns(state, env)``: what the loop goes over, taken once: the players in seat order (from
    a seat, when it says), the teams, or the cards named (a zone's, in its order)."""
    at = node.get("at")
    if node["over"] == "card":
        what = cx.compile(node["in"], scope)
        whole_zone = node["in"]["op"] == "zone"

        def cards(s, e):
            got = what(s, e)
            if got is None:
                return ()
            if whole_zone:
                return tuple(s.zone_cards(got))
            return (got,) if isinstance(got, int) else tuple(got)

        return cards
    every = cx.compile({"op": "players" if node["over"] == "player" else "teams"}, scope)
    if node.get("from") is None:
        return lambda s, e: tuple(every(s, e))
    start = cx.compile(node["from"], scope)

    def players_from(s, e):
        p = start(s, e)
        if p is None:
            raise PlayError("no player to start the loop from", at)
        n = s.n
        return tuple(sorted(every(s, e), key=lambda q: (q - p) % n))

    return players_from


def _order(cx: ExprCompiler, by: dict[str, Any] | None, inner: Scope, k: int) -> Callable | None:
    """``order(state, env, cards)``: the cards by their key, lowest (or highest) first, ties in
    the order they were in."""
    if by is None:
        return None
    key = cx.compile(by["key"], inner)
    at = by["key"].get("at")
    highest = by["order"] == "highest"

    def order(s, e, xs):
        keyed = []
        for x in xs:
            e[k] = x
            v = key(s, e)
            if not isinstance(v, int) or isinstance(v, bool):
                raise PlayError(f"a card's order key is {v!r}, not a number", at)
            keyed.append(-v if highest else v)
        return tuple(x for _, x in sorted(zip(keyed, xs, strict=True), key=lambda kx: kx[0]))

    return order


def _asking_each(over: Any, k: int, where: Any, until: Any, order: Any, body: Effect, cards: bool) -> Effect:
    """`for each` whose body may ask: the turns still to go are left to run (flow.py); the cards
    of a `for each card` kept as ``Cards``, which a swap of two cards renames."""

    def walk(s, e, xs, start):
        for i in range(start, len(xs)):
            if until is not None and until(s, e):
                return
            e[k] = xs[i]
            if where is None or where(s, e):
                body(s, e)
                if s.asking is not None:
                    if i + 1 < len(xs):
                        suspend(s, rest, (xs, i + 1, Env(e)))
                    return

    def rest(s, arg):
        xs, start, env = arg
        walk(s, list(env), xs, start)

    def each(s, e):
        xs = over(s, e)
        xs = order(s, e, xs) if order is not None else tuple(xs)
        walk(s, e, Cards(xs) if cards else xs, 0)

    return each


def compile_repeat(
    cx: ExprCompiler, node: dict[str, Any], scope: Scope, compile_effects: Callable, asking: bool
) -> Effect:
    """repeat until C: the effects again while C does not hold, at most MAX_PASSES times."""
    at = node.get("at")
    until = cx.compile(node["until"], scope)
    body = compile_effects(cx, node["effects"], Scope(scope.slots, scope.counter))

    def runaway() -> PlayError:
        return PlayError(
            f"this `repeat until` made {MAX_PASSES} passes and its condition still does not hold",
            at,
            "let each pass bring the condition nearer (a loop is stopped at its bound, never left to run)",
        )

    if asking:

        def walk(s, e, done):
            while not until(s, e):
                if done >= MAX_PASSES:
                    raise runaway()
                body(s, e)
                done += 1
                if s.asking is not None:
                    suspend(s, rest, (done, Env(e)))
                    return

        def rest(s, arg):
            done, env = arg
            walk(s, list(env), done)

        return lambda s, e: walk(s, e, 0)

    def repeat(s, e):
        for _ in range(MAX_PASSES):
            if until(s, e):
                return
            body(s, e)
        if not until(s, e):
            raise runaway()

    return repeat
