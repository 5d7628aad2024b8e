"""Several cards in one choice: `move NAME N cards [of one ATTR] from ZONE to ZONE` (or `N..M cards`).

A set move is a choice (choices.py): ``Move(rule, NO_CARD, CardSet(cards, to))``, the cards chosen
(in their zone's order) and the zone instance they go to. Its generator lists the sets in a fixed
order and never lists two alike: cards identical in every attribute (one kind, cards.py) are
interchangeable, so a set is a multiset of kinds, played with the first copies of each kind in
the zone's order. `of one ATTR` is used to prune: only cards sharing that attribute's value are
combined. Within that, sets go by size, then in the order of the zone (as combinations do); then
targets by index. The move's name binds the set (a collection of cards) for the guards and the
triggers, `target` the zone instance.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any, NamedTuple

from ..errors import PlayError
from .expr_analysis import Scope, free_names
from .expressions import ExprCompiler
from .moves import NO_CARD, Move, _condition
from .zones import sees

MAX_SETS = 50_000  # sets looked at in one listing of a player's moves: more is an error, not a wait


class CardSet(NamedTuple):
    """The value of a set move: the cards chosen, in their zone's order, and where they go."""

    cards: tuple[int, ...]
    to: int


def _kinds(cards: Any, kind: tuple[int, ...]) -> list[list[int]]:
    """The cards grouped by kind (copies alike), each group in the zone's order, groups by their first card."""
    groups: dict[int, list[int]] = {}
    for c in cards:
        groups.setdefault(kind[c], []).append(c)
    return list(groups.values())


def _combinations(groups: list[list[int]], k: int, i: int = 0) -> Iterator[tuple[int, ...]]:
    """The sets of ``k`` cards taken from ``groups[i:]`` (one per multiset of kinds: the first copies),
    in the zone's order: as many of the first kind as can be taken first."""
    if k == 0:
        yield ()
        return
    if i == len(groups):
        return
    rest = sum(len(g) for g in groups[i + 1 :])
    group = groups[i]
    for take in range(min(len(group), k), max(k - rest, 0) - 1, -1):
        head = tuple(group[:take])
        for tail in _combinations(groups, k - take, i + 1):
            yield head + tail


def _bounds(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> tuple[list, list]:
    """The `require` guards that bound the sets by a test the generator can make before listing
    them: ``count NAME = N`` (sizes: N only) and, with `of one ATTR`, ``max|min of ATTR in NAME
    CMP X`` (the values of ATTR the sets may have), each maybe `when C`, N, X and C reading
    neither the set nor the target. As (N, C) and (CMP, X, C) closures; the guards are still
    tested set by set (and counted), the bounds only spare listing sets they would refuse."""
    name, same = node["name"], node["choice"].get("same")
    sizes, values = [], []
    flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "!=": "!="}
    for g in node["guards"]:
        expr, when = g["expr"], g.get("when")
        if g["kind"] != "require" or expr.get("op") != "cmp":
            continue
        if when is not None and {name, "target"} & free_names(when):
            continue
        cond = None if when is None else cx.compile(when, scope)
        for mine, other, sym in (
            (expr["left"], expr["right"], expr["cmp"]),
            (expr["right"], expr["left"], flip[expr["cmp"]]),
        ):
            of = mine.get("of")
            if {name, "target"} & free_names(other) or not (isinstance(of, dict) and of.get("op") == "bound"):
                continue
            if of.get("name") != name:
                continue
            if mine["op"] == "count" and sym == "=":
                sizes.append((cx.compile(other, scope), cond))
            elif mine["op"] in ("max", "min") and mine.get("attr") == same and same is not None:
                values.append((_COMPARE[sym], cx.compile(other, scope), cond))
            break
    return sizes, values


_COMPARE = {
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _pools(held: Any, kind: tuple[int, ...], same: Any, values: list, s: Any, e: list) -> list[list[list[int]]]:
    """The cards that may be combined: all of them, or (`of one ATTR`) those of each value of ATTR
    that the value bounds admit, each as groups of alike cards (see _kinds)."""
    if same is None:
        return [_kinds(held, kind)]
    by_value: dict[Any, list[int]] = {}
    for c in held:
        by_value.setdefault(same[c], []).append(c)
    for test, bound, cond in values:
        if cond is None or cond(s, e):
            x = bound(s, e)
            if isinstance(x, int) and not isinstance(x, bool):
                by_value = {v: cs for v, cs in by_value.items() if isinstance(v, int) and test(v, x)}
    return [_kinds(cards, kind) for cards in by_value.values()]


def _sorted_guards(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> tuple[list, ...]:
    """A set move's guards compiled, by what they read: the `allow`s and `require`s that read
    neither the set nor the target (tested once per listing, not once per set), those that read the
    set only (once per set) and those that read the target (once per set and target)."""
    name = node["name"]
    once: dict[str, list] = {"allow": [], "require": []}
    per_set: dict[str, list] = {"allow": [], "require": []}
    per_pair: dict[str, list] = {"allow": [], "require": []}
    for g in node["guards"]:
        cond = _condition(g)
        fn = cx.counted(cx.compile(cond, scope), g.get("at"), guard=True)
        names = free_names(cond)
        level = per_pair if "target" in names else per_set if name in names else once
        level[g["kind"]].append(fn)
    return once["allow"], once["require"], per_set["allow"], per_pair["allow"], per_set["require"], per_pair["require"]


def compile_set_choice(
    cx: ExprCompiler, node: dict[str, Any], scope: Scope, slot: int, index: int, source: tuple, target: tuple
) -> Any:
    """The generator of a set move's legal moves, ``gen(state, player, out, env=None)``: each set of
    cards (see the module docstring) and target its guards admit (some `allow`, if any, and every
    `require`). ``source`` and ``target`` are (zone index, per player)."""
    choice = node["choice"]
    at = choice["low"].get("at") or node.get("at")
    low = cx.compile(choice["low"], scope)
    high = cx.compile(choice["high"], scope) if "high" in choice else None
    same = cx.cards.attrs[choice["same"]] if "same" in choice else None
    kind = cx.cards.kind
    once_allows, once_requires, set_allows, pair_allows, set_requires, pair_requires = _sorted_guards(cx, node, scope)
    has_allows = bool(once_allows or set_allows or pair_allows)
    size_bounds, value_bounds = _bounds(cx, node, scope)
    size = cx.counter
    new = tuple.__new__
    src_zone, src_per_player = source
    dst_zone, dst_per_player = target

    def sizes(s, e, held):
        lo, hi = _sizes(low, high, s, e, held, at)
        for bound, cond in size_bounds:  # `count NAME = N`: N cards only
            if cond is None or cond(s, e):
                n = bound(s, e)
                if not isinstance(n, int) or isinstance(n, bool):
                    return 1, 0
                lo, hi = max(lo, n), min(hi, n)
        return lo, hi

    def generate(s, p, out, env=None):
        lay = s.layout
        held = s.zones[lay.base[src_zone] + (p if src_per_player else 0)]
        if not held:
            return
        e = [None] * size[0]
        e[0] = p
        lo, hi = sizes(s, e, len(held))
        if lo > hi:
            return
        if once_requires and not all(r(s, e) for r in once_requires):
            return
        every_set = not has_allows or any(a(s, e) for a in once_allows)
        targets = (lay.base[dst_zone] + p,) if dst_per_player else lay.instances[dst_zone]
        looked = 0
        for groups in _pools(held, kind, same, value_bounds, s, e):
            n = sum(map(len, groups))
            for k in range(lo, min(hi, n) + 1):
                sets = combinations([g[0] for g in groups], k) if n == len(groups) else _combinations(groups, k)
                for cards in sets:
                    looked += 1
                    if looked > MAX_SETS:
                        raise PlayError(f"more than {MAX_SETS:,} sets of cards to choose from", at)
                    e[slot] = cards
                    if set_requires and not all(r(s, e) for r in set_requires):
                        continue
                    every = every_set or any(a(s, e) for a in set_allows)
                    if every and not pair_requires:
                        out.extend([new(Move, (index, NO_CARD, CardSet(cards, t))) for t in targets])
                        continue
                    for t in targets:
                        e[2] = t
                        if not every and not any(a(s, e) for a in pair_allows):
                            continue
                        if all(r(s, e) for r in pair_requires):
                            out.append(new(Move, (index, NO_CARD, CardSet(cards, t))))

    return generate


def compile_set_ask(cx: ExprCompiler, node: dict[str, Any], scope: Scope, slot: int, index: Any) -> Any:
    """The generator of an ask that chooses several cards (`ask P to choose NAME N..M cards from
    ZONE`): the sets of that zone instance's cards that P sees, as a set move lists them (sizes,
    `of one ATTR`, alike cards once), that the guards admit, as ``Move(rule, NO_CARD, CardSet(cards,
    zone instance))``. ``index()`` is the ask's rule number."""
    choice = node["choice"]
    at = choice["low"].get("at") or node.get("at")
    zone = cx.compile(choice["zone"], scope)
    low = cx.compile(choice["low"], scope)
    high = cx.compile(choice["high"], scope) if "high" in choice else None
    same = cx.cards.attrs[choice["same"]] if "same" in choice else None
    kind = cx.cards.kind
    once_allows, once_requires, set_allows, _, set_requires, _ = _sorted_guards(cx, node, scope)
    has_allows = bool(once_allows or set_allows)
    new = tuple.__new__

    def generate(s, p, out, env=None):
        e = list(env)
        inst = zone(s, e)
        if inst is None:
            return
        seen = sees(s.game, s.layout, inst, p)
        held = [c for c in s.zone_cards(inst) if seen or (p, c, inst) in s.shown]
        if not held:
            return
        lo, hi = _sizes(low, high, s, e, len(held), at)
        if lo > hi or (once_requires and not all(r(s, e) for r in once_requires)):
            return
        every = not has_allows or any(a(s, e) for a in once_allows)
        rule = index()
        looked = 0
        for groups in _pools(held, kind, same, [], s, e):
            n = sum(map(len, groups))
            for k in range(lo, min(hi, n) + 1):
                for cards in _combinations(groups, k):
                    looked += 1
                    if looked > MAX_SETS:
                        raise PlayError(f"more than {MAX_SETS:,} sets of cards to choose from", at)
                    e[slot] = cards
                    if set_requires and not all(r(s, e) for r in set_requires):
                        continue
                    if every or any(a(s, e) for a in set_allows):
                        out.append(new(Move, (rule, NO_CARD, CardSet(cards, inst))))

    return generate


def _sizes(low: Any, high: Any, s: Any, e: list, held: int, at: Any) -> tuple[int, int]:
    """A set's smallest and largest size, read now (an error below 1), the largest at most ``held``."""
    lo = low(s, e)
    hi = lo if high is None else high(s, e)
    for n in (lo, hi):
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise PlayError(f"a set of cards has at least 1 card: its size reads {n!r}", at)
    return lo, min(hi, held)


def perform_set(state: Any, p: int, chosen: CardSet) -> None:
    """Every card of the set goes to its target, in the set's order; each was played by ``p``."""
    state.move_cards(list(chosen.cards), chosen.to)
    played = state.played_by
    for c in chosen.cards:
        played[c] = p


def swapped(move: Any, other: dict[int, int]) -> Any:
    """``move`` with each card of ``other`` (card -> the card taking its place) replaced, inside a
    set too (State.swap_cards: a sampled state where two cards traded places)."""
    c = move.card
    if c >= 0:
        return move._replace(card=other[c]) if c in other else move
    chosen = move.target
    if type(chosen) is CardSet and not other.keys().isdisjoint(chosen.cards):
        return move._replace(target=chosen._replace(cards=tuple(other.get(x, x) for x in chosen.cards)))
    return move


def describe_set(game: Any, lay: Any, p: int, rule: Any, chosen: CardSet) -> dict[str, Any]:
    """A set move as records write it: ``{"player", "move", "cards", "to": {"zone", "index"}}``."""
    cards = game.cards.json
    return {
        "player": p,
        "move": rule.name,
        "cards": [cards[c] for c in chosen.cards],
        "to": {"zone": game.zones[lay.zone_of[chosen.to]].name, "index": lay.number[chosen.to]},
    }
