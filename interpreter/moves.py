"""Legal-move generation: each move rule compiled into a generator over (card, target) pairs.

A move is legal when some `allow` holds (if the rule has any) and every `require` holds.
The guards are compiled once, with loop-invariant parts lifted out of the pair loop: a guard
(or a part of one) that does not mention the target is evaluated once per card, and a part
that does not mention the card once per target. This is plain code motion over the IR, the
same for every ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .expressions import UNSET, ExprCompiler, Fn, Scope

TRIVIAL = {"num", "text", "none", "bound", "builtin", "param", "schedule"}
BINDS = {"filter": ("where", "it"), "most": ("of", "player")}


def free_names(node: Any) -> frozenset[str]:
    """The bound names (player, card, target, ...) an IR expression reads from outside itself."""
    if isinstance(node, list):
        return frozenset().union(*(free_names(x) for x in node)) if node else frozenset()
    if not isinstance(node, dict):
        return frozenset()
    op = node.get("op")
    if op == "bound":
        return frozenset({node["name"]})
    names: set[str] = set()
    for key, child in node.items():
        if key == "at":
            continue
        inner = free_names(child)
        if op in BINDS and key == BINDS[op][0]:
            inner = inner - {BINDS[op][1]}
        names |= inner
    if op in ("achieved", "most"):
        names.add("player")  # read from the enclosing scope
    return frozenset(names)


def _hoist(node: Any, outside: frozenset[str], shadowed: frozenset[str], lifted: list, tag: str) -> Any:
    """Replace the largest non-trivial subtrees that read only ``outside`` names by new bindings."""
    if isinstance(node, list):
        return [_hoist(x, outside, shadowed, lifted, tag) for x in node]
    if not isinstance(node, dict) or "op" not in node:
        return node
    names = free_names(node)
    if node["op"] not in TRIVIAL and names <= outside and not (names & shadowed):
        name = f"${tag}{len(lifted)}"
        lifted.append((name, node))
        return {"op": "bound", "name": name, "at": node.get("at")}
    out = {}
    for key, child in node.items():
        inner = shadowed
        if node["op"] in BINDS and key == BINDS[node["op"]][0]:
            inner = shadowed | {BINDS[node["op"]][1]}
        out[key] = _hoist(child, outside, inner, lifted, tag) if key != "at" else child
    return out


def _condition(guard: dict[str, Any]) -> dict[str, Any]:
    """A guard as one boolean expression (`require X when C` is `X or not C`)."""
    expr = guard["expr"]
    when = guard.get("when")
    if when is None:
        return expr
    if guard["kind"] == "require":
        return {"op": "or", "args": [expr, {"op": "not", "of": when}]}
    return {"op": "and", "args": [expr, when]}


def _any(fns: list[Fn]) -> Fn | None:
    if not fns:
        return None
    if len(fns) == 1:
        return fns[0]
    if len(fns) == 2:
        a, b = fns
        return lambda s, e: a(s, e) or b(s, e)
    return lambda s, e: any(f(s, e) for f in fns)


def _all(fns: list[Fn]) -> Fn | None:
    if not fns:
        return None
    if len(fns) == 1:
        return fns[0]
    return lambda s, e: all(f(s, e) for f in fns)


def _card_reads(node: Any, parent: Any = None) -> set[tuple[str, ...]] | None:
    """What of the moved card an expression reads: ``("type",)`` and ``("attr", NAME)`` items, or
    None when it reads the card some other way (its identity, who played it, ...). Two cards that
    agree on every item read are always both legal or both not."""
    if isinstance(node, list):
        parts = [_card_reads(x, parent) for x in node]
        return None if any(p is None for p in parts) else set().union(*parts)
    if not isinstance(node, dict):
        return set()
    if node.get("op") == "bound" and node.get("name") == "card":
        if parent is None:
            return None
        op, name = parent
        if op == "attr":
            return {("attr", name)}
        if op == "is_type":
            return {("type",)}
        return set() if op == "is_none" else None  # the moved card is never none
    out: set[tuple[str, ...]] = set()
    for k, v in node.items():
        if k == "at":
            continue
        got = _card_reads(v, (node.get("op"), node.get("name")))
        if got is None:
            return None
        out |= got
    return out


def card_groups(cards: Any, reads: set[tuple[str, ...]]) -> tuple[int, ...]:
    """Card id -> a group number shared by the cards that agree on everything in ``reads``."""
    items = sorted(reads)
    keys: dict[tuple, int] = {}
    out = []
    for c in range(len(cards)):
        key = tuple(cards.type_index[c] if item == ("type",) else cards.attrs[item[1]][c] for item in items)
        out.append(keys.setdefault(key, len(keys)))
    return tuple(out)


Generator = Callable[[Any, list, int, tuple, list], None]


def compile_generator(cx: ExprCompiler, guards: list[dict[str, Any]], base: Scope, index: int) -> Generator:
    """A function ``gen(state, env, source, targets, out)`` appending legal (rule, card, target) moves."""
    from .state import Move

    card_level = {"allow": [], "require": []}
    pair_level = {"allow": [], "require": []}
    player_lifts: list = []
    card_lifts: list = []
    target_lifts: list = []
    for g in guards:
        cond = {**_condition(g), "at": g.get("at")}  # the guard's own position, for coverage
        # A part that reads neither card nor target is computed once per generation, when first read.
        cond = _hoist(cond, frozenset({"player"}), frozenset(), player_lifts, "p")
        lifted = frozenset(name for name, _ in player_lifts)
        if "target" not in free_names(cond):
            card_level[g["kind"]].append(cond)
        else:
            cond = _hoist(cond, frozenset({"player", "card"}) | lifted, frozenset(), card_lifts, "c")
            cond = _hoist(cond, frozenset({"player", "target"}) | lifted, frozenset(), target_lifts, "t")
            pair_level[g["kind"]].append(cond)
    pscope = Scope(base.slots, base.counter)
    player_slots = [(pscope.set(name), cx.compile(node, base)) for name, node in player_lifts]
    cx.lazy_slots.update(player_slots)
    p_slots = [slot for slot, _ in player_slots]
    base = pscope
    scope = Scope(base.slots, base.counter)
    card_names = [scope.set(name) for name, _ in card_lifts]
    target_names = [scope.set(name) for name, _ in target_lifts]  # together, for one slice assignment
    card_slots = [(slot, cx.compile(node, base)) for slot, (_, node) in zip(card_names, card_lifts, strict=True)]
    target_slots = [(slot, cx.compile(node, base)) for slot, (_, node) in zip(target_names, target_lifts, strict=True)]
    # A per-card value is computed when first read (so `and`/`or` still short-circuit it).
    cx.lazy_slots.update({slot: fn for slot, fn in card_slots})
    card_allow = _any([cx.counted(cx.compile(c, base), c["at"]) for c in card_level["allow"]])
    card_require = _all([cx.counted(cx.compile(c, base), c["at"]) for c in card_level["require"]])
    pair_allow = _any([cx.counted(cx.compile(c, scope), c["at"]) for c in pair_level["allow"]])
    pair_require = _all([cx.counted(cx.compile(c, scope), c["at"]) for c in pair_level["require"]])
    has_allows = card_allow is not None or pair_allow is not None
    t_slots = [slot for slot, _ in target_slots]
    t_lo, t_hi = (t_slots[0], t_slots[-1] + 1) if t_slots else (0, 0)
    assert t_slots == list(range(t_lo, t_hi)), "target slots are allocated together"
    c_slots = [slot for slot, _ in card_slots]

    reads = _card_reads(guards)
    by_kind = reads is not None  # then the guards' verdict on a card is shared by its whole group
    kind = card_groups(cx.cards, reads) if by_kind else cx.cards.kind

    new = tuple.__new__  # Move(...) without the named tuple's Python-level __new__ (hot)

    def generate(s, e, source, targets, out):
        cards = s.zones[source]
        if not cards:
            return
        for slot in p_slots:
            e[slot] = UNSET
        seen: dict[int, list[int]] | None = {} if by_kind else None
        if target_slots:
            per_target = []
            for t in targets:
                e[2] = t
                per_target.append([fn(s, e) for _, fn in target_slots])
        for c in cards:
            if seen is not None:
                done = seen.get(kind[c])
                if done is not None:
                    for t in done:
                        out.append(new(Move, (index, c, t)))
                    continue
                start = len(out)
            e[1] = c
            if (card_require is not None and not card_require(s, e)) or not (
                (allowed := not has_allows or (card_allow is not None and card_allow(s, e))) or pair_allow
            ):
                if seen is not None:
                    seen[kind[c]] = []
                continue
            if allowed and pair_require is None:
                for t in targets:
                    out.append(new(Move, (index, c, t)))
                if seen is not None:
                    seen[kind[c]] = list(targets)
                continue
            for slot in c_slots:
                e[slot] = UNSET
            for i, t in enumerate(targets):
                e[2] = t
                if target_slots:
                    e[t_lo:t_hi] = per_target[i]
                if (allowed or pair_allow(s, e)) and (pair_require is None or pair_require(s, e)):
                    out.append(Move(index, c, t))
            if seen is not None:
                seen[kind[c]] = [m.target for m in out[start:]]

    return generate
