"""Choices that are not cards: a pass, a number from a range, a value of a card attribute, a player,
one of a list of options. A move rule of such a kind (or an `ask` in an effect, a follow-up choice)
lists one Move per value its guards admit: ``Move(rule, NO_CARD, value)``, the value in the
target's place (None for a pass). The value chosen is bound to the choice's name, in its own env
slot, for its guards and for what follows it (the move's triggers, the ask's block).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..errors import PlayError
from .card_sets import compile_set_ask, describe_set
from .expr_analysis import Fn, Scope
from .expressions import ExprCompiler
from .flow import Env
from .moves import NO_CARD
from .zones import cards_seen

ChoiceGenerator = Callable[..., None]  # gen(state, player, out, env=None)


def choice_values(cx: ExprCompiler, choice: dict[str, Any], scope: Scope, attributes: dict[str, Any]) -> Fn:
    """``values(state, env)``: the values a choice offers, in a fixed order (numbers rising,
    attribute values as declared or rising, seats from 0, options as listed, a zone's instances by
    index; a pass: None alone)."""
    kind = choice["kind"]
    if kind == "pass":
        return lambda s, e: (None,)
    if kind == "player":
        return lambda s, e: range(s.n)
    if kind == "option":
        options = tuple(choice["options"])
        return lambda s, e: options
    if kind == "draw":
        return draw_piles(cx, choice)
    if kind == "zone":  # one instance of a zone, by index
        z = cx.zone_index[choice["from"]]
        return lambda s, e: s.layout.instances[z]
    if kind == "value":
        name = choice["attr"]
        declared = attributes.get(name, {}).get("values")
        if declared:
            values = tuple(declared)
        else:
            column = cx.cards.attrs[name]
            values = tuple(sorted({v for v in column if v is not None}))
        return lambda s, e: values
    low, high = cx.compile(choice["low"], scope), cx.compile(choice["high"], scope)
    at = choice["low"].get("at")

    def numbers(s, e):
        lo, hi = low(s, e), high(s, e)
        if not isinstance(lo, int) or not isinstance(hi, int):
            raise PlayError(f"a number is chosen from {lo!r} to {hi!r}: both ends must be whole numbers", at)
        return range(lo, hi + 1)

    return numbers


def choice_guards(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> tuple[list[Fn], list[Fn]]:
    """A choice's `allow` and `require` conditions, compiled (and counted by `check`)."""
    from .moves import _condition

    def guard(g: dict[str, Any]) -> Fn:
        return cx.counted(cx.compile(_condition(g), scope), g.get("at"), guard=True)

    guards = node["guards"]
    return [guard(g) for g in guards if g["kind"] == "allow"], [guard(g) for g in guards if g["kind"] == "require"]


def compile_choice(
    cx: ExprCompiler,
    node: dict[str, Any],
    scope: Scope,
    slot: int,
    attributes: dict[str, Any],
    index: Callable[[], int],
) -> ChoiceGenerator:
    """The generator of a choice's legal moves: each value its guards admit (some `allow` holds, if
    it has any, and every `require`). ``index()`` is the rule's number (known once every rule is
    numbered: an ask's rule is numbered after the phases' moves)."""
    from .moves import Move

    values = choice_values(cx, node["choice"], scope, attributes)
    allows, requires = choice_guards(cx, node, scope)
    size = cx.counter
    new = tuple.__new__

    def generate(s, p, out, env=None):
        if env is None:  # a move: the mover's own choice
            e = [None] * size[0]
            e[0] = p
        else:  # an ask: the env of the effect that asks (`player` is still the one whose move it follows)
            e = list(env)
        rule = index()
        for v in values(s, e):
            e[slot] = v
            if allows and not any(a(s, e) for a in allows):
                continue
            if all(r(s, e) for r in requires):
                out.append(new(Move, (rule, NO_CARD, v)))

    return generate


def compile_card_choice(
    cx: ExprCompiler, node: dict[str, Any], scope: Scope, slot: int, index: Callable[[], int]
) -> ChoiceGenerator:
    """The generator of an ask that chooses a card (`ask P to choose NAME card from ZONE`): each
    card of that zone instance that P sees (the zone is P's to see, or the card was shown to P)
    and the guards admit, as ``Move(rule, card, zone instance)``, in the zone's order."""
    from .moves import Move

    zone = cx.compile(node["choice"]["zone"], scope)
    allows, requires = choice_guards(cx, node, scope)
    new = tuple.__new__

    def generate(s, p, out, env=None):
        e = list(env)
        inst = zone(s, e)
        if inst is None:
            return
        rule = index()
        for c in cards_seen(s, inst, p):
            e[slot] = c
            if allows and not any(a(s, e) for a in allows):
                continue
            if all(r(s, e) for r in requires):
                out.append(new(Move, (rule, c, inst)))

    return generate


def describe_move(game: Any, lay: Any, p: int, move: Any) -> dict[str, Any]:
    """A move as records write it: player, move, card, target zone and index (a choice, or an
    ask's card: see describe_choice)."""
    rule = game.moves[move.rule]
    if move.card < 0 or rule.choice is not None:
        return describe_choice(game, lay, p, move)
    return {
        "player": p,
        "move": rule.name,
        "card": game.cards.json[move.card],
        "to": {"zone": game.zones[lay.zone_of[move.target]].name, "index": lay.number[move.target]},
    }


def describe_choice(game: Any, lay: Any, p: int, move: Any) -> dict[str, Any]:
    """A choice as records write it: ``{"player", "move", "value"}`` (no value for a pass; a draw
    names the pile, never the card: ``{"player", "move", "from": {"zone", "index"}}``; a zone
    instance: ``"value": {"zone", "index"}``; a set of
    cards: see card_sets.describe_set, an ask's the same with "from" for "to"; an ask's card:
    ``{"player", "move", "card", "from": {"zone", "index"}}``)."""
    rule = game.moves[move.rule]
    if rule.choice == "cards":
        return describe_set(game, lay, p, rule, move.target)
    if rule.choice == "set":  # an ask's cards: where they were chosen, not where they go
        out = describe_set(game, lay, p, rule, move.target)
        if "to" in out:  # (a pick towards it names its card alone)
            out["from"] = out.pop("to")
        return out
    out: dict[str, Any] = {"player": p, "move": rule.name}
    if rule.choice == "card":
        out["card"] = game.cards.json[move.card]
        out["from"] = {"zone": game.zones[lay.zone_of[move.target]].name, "index": lay.number[move.target]}
    elif rule.choice == "draw":
        out["from"] = {"zone": game.zones[lay.zone_of[move.target]].name, "index": lay.number[move.target]}
    elif rule.choice == "zone":  # one instance of a zone: which, as a move's target is written
        out["value"] = {"zone": game.zones[lay.zone_of[move.target]].name, "index": lay.number[move.target]}
    elif rule.choice != "pass":
        out["value"] = move.target
    return out


def draw_piles(cx: ExprCompiler, choice: dict[str, Any]) -> Fn:
    """``piles(state, env)``: the instances of the piles a draw may take from that hold a card
    (a per-player pile: the mover's own), in the order named, then by index."""
    zones = [(cx.zone_index[z], None) for z in choice["piles"]]

    def piles(s, e):
        lay, p, zs = s.layout, e[0], s.zones
        out = []
        specs = s.game.zones
        for z, _ in zones:
            insts = (lay.base[z] + p,) if specs[z].per_player else lay.instances[z]
            out.extend(i for i in insts if zs[i])
        return out

    return piles


def draw_cards(state: Any, rule: Any, p: int, pile: int) -> list[int]:
    """Take the top card (or top N) of a pile: the cards put there last, the top first (returned:
    the first of them is the draw's `card` in its triggers)."""
    content = state.zones[pile]
    n = 1 if rule.count is None else rule.count(state, [p] + [None] * (state.game.env_size - 1))
    if not isinstance(n, int) or n < 0:
        raise PlayError(f"cannot draw {n!r} cards", rule.at)
    taken = content[len(content) - n :][::-1] if n else []
    lay = state.layout
    dest = lay.base[rule.target] + (p if rule.target_per_player else 0)
    state.move_cards(taken, dest)
    return taken


class Ask(NamedTuple):
    """An `ask` of an effect, as the compiler numbers it among the move rules."""

    cell: list  # [its rule number], filled in once every phase's moves are numbered
    name: str
    kind: str
    slot: int
    generate: ChoiceGenerator
    then: Any  # Effect: its block
    at: str


def compile_ask(cx: ExprCompiler, node: dict[str, Any], scope: Scope, compile_effects: Callable) -> Callable:
    """``ask P to choose NAME KIND``: the effect that asks P (when P has some choice: else the ask
    and its block are passed over) and leaves the state waiting for P's decision; the block runs
    once P has chosen (State._answer), with this env and the value in the name's slot."""
    at = node.get("at")
    who = cx.compile(node["player"], scope)
    inner = Scope(scope.slots, scope.counter)
    slot = inner.set(node["name"])
    cell: list = [None]
    if node["choice"]["kind"] == "card":
        cx.card_slots.add(slot)
        generate = compile_card_choice(cx, node, inner, slot, lambda: cell[0])
    elif node["choice"]["kind"] == "set":
        cx.card_slots.add(slot)  # (a tuple of cards: a swap renames them too, flow.renamed)
        generate = compile_set_ask(cx, node, inner, slot, lambda: cell[0])
    else:
        generate = compile_choice(cx, node, inner, slot, cx.attributes, lambda: cell[0])
        cx.public_slots.add(slot)  # (every seat sees the answer)
    then = compile_effects(cx, node["then"], Scope(inner.slots, inner.counter)) if node["then"] else None
    cx.asks.append(Ask(cell, node["name"], node["choice"]["kind"], slot, generate, then, at or ""))

    def ask(s, e):
        p = who(s, e)
        if not isinstance(p, int) or isinstance(p, bool):
            raise PlayError(f"no player to ask (got {p!r})", at)
        if s.asking is not None:
            raise PlayError("an ask while another waits for its answer", at)
        out: list = []
        generate(s, p, out, e)
        if out:  # what is left to run joins as the runners around this ask stop (flow.py)
            s.asking = (p, cell[0], Env(e), ())

    return ask
