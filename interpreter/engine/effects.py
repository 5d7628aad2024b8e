"""Effects (what a trigger does) compiled to closures ``f(state, env)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import PlayError
from .events import compile_reveal, compile_shuffle, note_shared
from .expr_analysis import Scope, card_valued, shared_attributes
from .expressions import ExprCompiler
from .flow import Env, suspend
from .knowledge import compile_tell
from .turns import compile_reverse, compile_skip

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports them)
    from .state import State
    from .state_fields import StateFields

Effect = Callable[[Any, list], None]


def compile_effects(cx: ExprCompiler, nodes: list[dict[str, Any]], scope: Scope) -> Effect:
    """One closure that runs the effects in order (one that stops when an `ask` waits, and
    leaves the rest to run after its answer, when one of them asks: see flow.py)."""
    steps = [compile_effect(cx, node, scope) for node in nodes]
    if len(steps) == 1:
        return steps[0]
    if asks(nodes):
        return _asking_sequence(steps)

    def run(s: StateFields, e):
        for step in steps:
            step(s, e)

    return run


def asks(nodes: list[dict[str, Any]]) -> bool:
    """Whether some effect among ``nodes`` (or in their blocks) is an `ask`."""
    return any(
        node["do"] == "ask" or any(asks(node.get(k) or []) for k in ("then", "else", "effects")) for node in nodes
    )


def _asking_sequence(steps: list[Effect]) -> Effect:
    """Effects in order; when one leaves an ask waiting, the rest runs after its answer."""

    def run(s: StateFields, e, start=0):
        for i in range(start, len(steps)):
            steps[i](s, e)
            if s.asking is not None:
                if i + 1 < len(steps):
                    suspend(s, rest, (i + 1, Env(e)))
                return

    def rest(s: StateFields, arg):
        start, env = arg
        run(s, list(env), start)

    return run


def compile_effect(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """The closure of one effect; `let` adds its name to ``scope`` for the effects after it."""
    build = _BUILDERS.get(node["do"])
    if build is None:
        raise AssertionError(node["do"])
    return build(cx, node, scope)


def _move(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """move cards in target except card to collected of player"""
    what = cx.compile(node["what"], scope)
    to = cx.compile(node["to"], scope)
    whole_zone = node["what"]["op"] == "zone"
    src, dst = cx.zone_parts(node["what"], scope), cx.zone_parts(node["to"], scope)
    if src is not None and dst is not None:  # move ZONE to ZONE of NAME: the instances read inline
        (zs, ks), (zd, kd) = src, dst

        def move_zone(s: State, e):  # (typed State, compiled: move_cards called directly, not by name)
            base = s.layout.base
            got = base[zs] + e[ks] if ks >= 0 else base[zs]
            dest = base[zd] + e[kd] if kd >= 0 else base[zd]
            content = s.zones[got]
            if content and isinstance(content[0], list):
                s.move_cards([c for pile in content for c in pile], dest, got)
            else:
                s.move_cards(list(content), dest, got)

        return move_zone

    shared = [
        (attr, cx.compile(v, scope)) for attr, v in shared_attributes(node["what"], lambda v: cx.public(v, scope))
    ]

    def move(s: State, e):
        got = what(s, e)
        dest = to(s, e)
        if got is None:
            return
        if whole_zone:  # all the zone's cards (piles flattened), as zone_cards lists them
            content = s.zones[got]
            if content and isinstance(content[0], list):
                s.move_cards([c for pile in content for c in pile], dest, got)
            else:
                s.move_cards(list(content), dest, got)
            return
        cards = [got] if isinstance(got, int) else list(got)
        s.move_cards(cards, dest)
        if shared and cards and s.narrating:  # what every seat knows of the cards: the narration tells it
            note_shared(s, tuple((attr, v(s, e)) for attr, v in shared))

    return move


def _draw(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """draw 1 from draw_pile to hand of player: the first N cards; `draw top N`: the last N, the
    top first, as a draw move takes them (choices.draw_cards)"""
    at = node.get("at")
    top = bool(node.get("top"))
    count = cx.compile(node["count"], scope)
    src = cx.compile(node["from"], scope)
    dst = cx.compile(node["to"], scope)

    def draw(s: State, e):
        n = count(s, e)
        if n is None or n < 0:
            raise PlayError(f"cannot draw {n} cards", at)
        pile = s.zones[src(s, e)]
        if pile and n:
            s.move_cards(pile[len(pile) - n :][::-1] if top else pile[:n], dst(s, e))

    return draw


def _let(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """let winner = player of winning"""
    value = cx.compile(node["value"], scope)
    a_card = card_valued(node["value"], lambda name: scope.slots.get(name) in cx.card_slots)
    known = cx.public(node["value"], scope)
    slot = scope.set(node["name"])
    if a_card:
        cx.card_slots.add(slot)
    if known:
        cx.public_slots.add(slot)

    def let(s: StateFields, e):
        e[slot] = value(s, e)

    return let


def _set(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """add 1 to trick_points of winner (or set ... to ...)"""
    at = node.get("at")
    k = cx.var_index[node["var"]]
    value = cx.compile(node["value"], scope)
    adding = node["do"] == "add"
    if node.get("team"):  # add 1 to points of team of player: every member holds the team's value
        team, seats = cx.compile(node["of"], scope), cx.team_seats()

        def set_team(s: StateFields, e):
            t = team(s, e)
            if t is None:
                raise PlayError(f"no team to change {node['var']} of", at)
            row = s.vars[k]
            new = (row[seats(s, t)[0]] + value(s, e)) if adding else value(s, e)
            for p in seats(s, t):
                row[p] = new
            s.cache.clear()

        return set_team
    if node.get("of") is None:

        def set_scalar(s: StateFields, e):
            s.vars[k] = (s.vars[k] + value(s, e)) if adding else value(s, e)
            s.cache.clear()

        return set_scalar
    j = cx.plain_slot(node["of"], scope)
    amount = _number(node["value"])
    if j is not None and adding and amount is not None:  # add 1 to points of winner

        def add_to(s: StateFields, e):
            p = e[j]
            if p is None:
                raise PlayError(f"no player to change {node['var']} of", at)
            s.vars[k][p] += amount
            s.cache.clear()

        return add_to
    of = cx.compile(node["of"], scope)

    def set_player(s: StateFields, e):
        p = of(s, e)
        if p is None:
            raise PlayError(f"no player to change {node['var']} of", at)
        row = s.vars[k]
        row[p] = (row[p] + value(s, e)) if adding else value(s, e)
        s.cache.clear()

    return set_player


def _number(node: dict[str, Any]) -> int | None:
    """The value of a literal number (``1``, ``-1``), or None for anything else."""
    if node.get("op") == "num" and isinstance(node.get("value"), int):
        return node["value"]
    if node.get("op") == "neg":
        inner = _number(node["of"])
        return None if inner is None else -inner
    return None


def _next(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """next winner"""
    at = node.get("at")
    j = cx.plain_slot(node["player"], scope)
    if j is not None:

        def next_named(s: StateFields, e):
            p = e[j]
            if p is None:
                raise PlayError("no player to move next", at)
            s.next_player = p

        return next_named
    who = cx.compile(node["player"], scope)

    def next_player(s: StateFields, e):
        p = who(s, e)
        if p is None:
            raise PlayError("no player to move next", at)
        s.next_player = p

    return next_player


def _if(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """if winning is trump ... else ..."""
    cond = cx.compile(node["cond"], scope)
    then = compile_effects(cx, node["then"], Scope(scope.slots, scope.counter)) if node["then"] else None
    other = compile_effects(cx, node["else"], Scope(scope.slots, scope.counter)) if node["else"] else None

    def branch(s: StateFields, e):
        if cond(s, e):
            if then:
                then(s, e)
        elif other:
            other(s, e)

    return branch


def _each(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """for each player [from P] [where C] [until C] ...: loops.py"""
    from .loops import compile_each

    return compile_each(cx, node, scope, compile_effects, asks(node["effects"]))


def _do(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """do settle: the named block's effects, as resolved where it is done (in the node)"""
    return compile_effects(cx, node["effects"], Scope(scope.slots, scope.counter))


def _repeat(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """repeat until C: loops.py"""
    from .loops import compile_repeat

    return compile_repeat(cx, node, scope, compile_effects, asks(node["effects"]))


def _counter(cx: ExprCompiler, counter: dict[str, Any], scope: Scope) -> Callable[[Any, list], tuple[list, int]]:
    """Where a counter's value is kept: (a list, an index) to read and write it."""
    k = cx.var_index[counter["var"]]
    if counter["of"] is None:
        return lambda s, e: (s.vars, k)
    of = cx.compile(counter["of"], scope)
    return lambda s, e: (s.vars[k], of(s, e))


def _pay(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """pay 1 chips to pot; pay all pot to chips of winner: never below zero"""
    at = node.get("at")
    amount = None if node["amount"] is None else cx.compile(node["amount"], scope)
    payer, payee = _counter(cx, node["payer"], scope), _counter(cx, node["payee"], scope)
    name = node["payer"]["var"]

    def pay(s: StateFields, e):
        row, i = payer(s, e)
        dest, j = payee(s, e)
        if i is None or j is None:
            raise PlayError("no player to pay from or to", at)
        has = row[i]
        n = has if amount is None else amount(s, e)
        if not isinstance(n, int) or n < 0:
            raise PlayError(f"cannot pay {n!r}", at)
        if n > has:
            whose = f" of seat {i + 1}" if row is not s.vars else ""
            raise PlayError(f"{name}{whose} is {has}: it cannot pay {n} (a counter never goes below zero)", at)
        row[i] = has - n
        dest[j] += n
        s.cache.clear()

    return pay


def _cards_of(s: StateFields, got: Any) -> list[int]:
    """The cards a `show` names: a card id, a list of them, or a zone instance's cards."""
    return [got] if isinstance(got, int) else list(got)


def _show(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """show hand of target to player: that seat sees those cards while they stay where they are"""
    at = node.get("at")
    what = cx.compile(node["what"], scope)
    whole_zone = node["what"]["op"] == "zone"
    to = cx.compile(node["to"], scope)

    def show(s: StateFields, e):
        got, seat = what(s, e), to(s, e)
        if seat is None:
            raise PlayError("no player to show the cards to", at)
        if got is None:
            return
        cards = s.zone_cards(got) if whole_zone else _cards_of(s, got)
        loc = s.loc
        s.shown = (*s.shown, *((seat, c, loc[c]) for c in cards))
        if s.narrating and cards:
            s.tell(("show", (seat,), tuple((c, loc[c]) for c in cards)))

    return show


def _swap(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """swap hand of player with hand of target"""
    a, b = cx.compile(node["what"], scope), cx.compile(node["with"], scope)
    return lambda s, e: s.swap_zones(a(s, e), b(s, e))


def _eliminate(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """eliminate target: no more moves this round"""
    at = node.get("at")
    who = cx.compile(node["player"], scope)

    def eliminate(s: StateFields, e):
        p = who(s, e)
        if p is None:
            raise PlayError("no player to eliminate", at)
        if s.narrating and p not in s.out:
            s.tell(("eliminate", p))
        s.out = s.out | {p}
        s.cache.clear()
        s._legal = None

    return eliminate


def _make(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """make player protected [until their next turn]"""
    at = node.get("at")
    k = cx.var_index[node["var"]]
    who = cx.compile(node["of"], scope)
    until = node["until_next_turn"]

    def make(s: StateFields, e):
        p = who(s, e)
        if p is None:
            raise PlayError(f"no player to make {node['var']}", at)
        s.vars[k][p] = 1
        s.cache.clear()
        if until:
            s.expiring = (*s.expiring, (p, k))

    return make


def _ask(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Effect:
    """ask player to choose target player (choices.py)"""
    from .choices import compile_ask

    return compile_ask(cx, node, scope, compile_effects)


_BUILDERS: dict[str, Callable[[ExprCompiler, dict[str, Any], Scope], Effect]] = {
    "move": _move,
    "draw": _draw,
    "let": _let,
    "set": _set,
    "add": _set,
    "next": _next,
    "if": _if,
    "each": _each,
    "repeat": _repeat,
    "do": _do,
    "pay": _pay,
    "show": _show,
    "reveal": compile_reveal,
    "shuffle": compile_shuffle,
    "swap": _swap,
    "eliminate": _eliminate,
    "make": _make,
    "ask": _ask,
    "tell": compile_tell,
    "reverse": compile_reverse,
    "skip": compile_skip,
}
