"""Several cards in one choice: `move NAME N cards [of one ATTR] from ZONE to ZONE` (or `N..M cards`).

A set move is a choice (choices.py): ``Move(rule, NO_CARD, CardSet(cards, to))``, the cards chosen
(in their zone's order) and the zone instance they go to. Its generator lists the sets in a fixed
order and never lists two alike: cards identical in every attribute (one kind, cards.py) are
interchangeable, so a set is a multiset of kinds, played with the first copies of each kind in
the zone's order. `of one ATTR` is used to prune: only cards sharing that attribute's value are
combined. Within that, sets go by size, then in the order of the zone (as combinations do); then
targets by index. The move's name binds the set (a collection of cards) for the guards and the
triggers, `target` the zone instance. An ask may choose a set too (`ask P to choose NAME N..M cards
from ZONE`: compile_set_ask), among the cards of one zone instance that P sees.

Guards that read neither the set nor the target are tested once per listing; guards of a few
shapes also bound the listing (_bounds). A listing of more than PICK_ABOVE moves is not offered:
the set is chosen card by card instead, each card a move of its own (Listing, Pick), which is how
a hand of 34 cards chooses 1 to 4 of them (52,955 sets) as quickly as 4 cards do. When no guard
reads the set (Cheat's `move lay 1..4 cards`), no set is looked at: the sets are counted, listed
straight, and a pick is offered when enough cards follow it. A rule's set and pick moves are made
once and kept (Made): a hand's sets change little from one turn to the next.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any, NamedTuple

from ..errors import PlayError
from .expr_analysis import Scope, free_names
from .expressions import ExprCompiler
from .moves import NO_CARD, Move, _condition
from .zones import cards_seen

MAX_SETS = 50_000  # sets looked at in one listing (more: chosen card by card) or one search for a legal set
PICK_ABOVE = 1_000  # moves of a set move in one listing: more, and the set is chosen card by card
KEEP = 20_000  # sets whose moves a rule keeps made (Made): past that, all are forgotten at once


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


def _combinations(
    groups: list[list[int]], k: int, weight: Any = None, cap: int | None = None
) -> Iterator[tuple[int, ...]]:
    """The sets of ``k`` cards taken from ``groups`` (one per multiset of kinds: the first copies),
    in the zone's order: as many of the first kind as can be taken first. With ``cap`` (and each
    card's ``weight``, never below 0), only the sets whose weights add up to ``cap`` at most: a
    partial set already past it is not grown (the order of those listed is the same)."""
    suffix = [0] * (len(groups) + 1)  # the cards in groups[i:]
    for i in range(len(groups) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + len(groups[i])

    def grow(i: int, k: int, total: int) -> Iterator[tuple[int, ...]]:
        if k == 0:
            yield ()
            return
        if suffix[i] < k:
            return
        group = groups[i]
        w = 0 if cap is None else weight[group[0]] or 0  # (copies alike: one weight)
        for take in range(min(len(group), k), max(k - suffix[i + 1], 0) - 1, -1):
            if cap is not None and total + take * w > cap:
                continue
            head = tuple(group[:take])
            for tail in grow(i + 1, k - take, total + take * w):
                yield head + tail

    return grow(0, k, 0)


def _count(pools: list, lo: int, hi: int) -> int:
    """How many sets of ``lo`` to ``hi`` cards the pools hold, alike cards once (each group of copies
    adds its number of ways to take 0, 1, ... of them)."""
    total = 0
    for groups in pools:
        ways = [1] + [0] * hi  # ways[k]: the sets of k cards of the groups so far
        for g in groups:
            m = len(g)
            for k in range(hi, 0, -1):  # (in place, the largest first: ways[< k] are still the groups' before)
                ways[k] = sum(ways[k - m if k > m else 0 : k + 1])
        total += sum(ways[lo : hi + 1])
    return total


def _cap(caps: list, s: Any, e: list) -> tuple[Any, int | None]:
    """The sum bound that applies now (see _bounds), as (each card's weight, the largest sum), the
    lowest of them; (None, None) when none does."""
    weight, cap = None, None
    for column, bound, cond in caps:
        if cond is None or cond(s, e):
            x = bound(s, e)
            if isinstance(x, int) and not isinstance(x, bool) and (cap is None or x < cap):
                weight, cap = column, x
    return weight, cap


def _sets(groups: list[list[int]], k: int, weight: Any, cap: int | None) -> Iterator[tuple[int, ...]]:
    """The sets of ``k`` cards of ``groups`` (see _combinations) whose weights add up to ``cap`` at
    most (None: any). Cards all unlike: as itertools.combinations lists them (the same order, in C)."""
    if cap is None and all(len(g) == 1 for g in groups):
        return combinations([g[0] for g in groups], k)
    return _combinations(groups, k, weight, cap)


def _bounds(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> tuple[list, list, list]:
    """The `require` guards that bound the sets by a test the generator can make before listing
    them: ``count NAME = N`` (sizes: N only), with `of one ATTR` ``max|min of ATTR in NAME CMP X``
    (the values of ATTR the sets may have), and ``sum of ATTR in NAME = X`` (or ``<= X``, ``< X``)
    for an attribute never below 0 (a partial set past X is not grown), each maybe `when C`, N, X
    and C reading neither the set nor the target. As (N, C), (CMP, X, C) and (weights, X, C)
    closures; the guards are still tested set by set (and counted), the bounds only spare listing
    sets they would refuse."""
    name, same = node["name"], node["choice"].get("same")
    sizes, values, sums = [], [], []
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
            elif mine["op"] == "sum" and sym in ("=", "<=", "<") and _never_negative(cx, mine.get("attr")):
                x = cx.compile(other, scope)
                sums.append((cx.cards.attrs[mine["attr"]], x if sym != "<" else _less_one(x), cond))
            break
    return sizes, values, sums


def _never_negative(cx: ExprCompiler, attr: Any) -> bool:
    """Whether every card's ``attr`` is a whole number of at least 0, or none (a sum's weight)."""
    column = cx.cards.attrs.get(attr) if isinstance(attr, str) else None
    return column is not None and all(
        v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0) for v in column
    )


def _less_one(x: Any) -> Any:
    """``X - 1`` (a sum below X is at most X - 1), or what X reads when it is not a number."""

    def bound(s, e):
        v = x(s, e)
        return v - 1 if isinstance(v, int) and not isinstance(v, bool) else v

    return bound


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


class Pick(NamedTuple):
    """The value of a move that picks one card towards a set chosen card by card (see Listing)."""

    card: int


class Made:
    """The moves of one rule's sets (and picks) made so far, kept so that a set offered again is
    not made again: a hand's sets change little from one turn to the next, and a move is a value
    (two alike are equal), so a kept one serves. Making them was most of a listing's cost (two
    tuples a set, and the collections of all those short-lived objects). At most about KEEP sets
    are kept: past that, all are forgotten at once."""

    __slots__ = ("by_targets", "picks")

    def __init__(self) -> None:
        self.by_targets: dict[tuple, dict[tuple[int, ...], tuple]] = {}  # (rule, targets) -> set -> its moves
        self.picks: dict[tuple[int, int], Move] = {}  # (rule, card) -> the move that picks it

    def table(self, index: int, targets: tuple) -> dict[tuple[int, ...], tuple]:
        """The moves kept of rule ``index``'s sets to ``targets``: set -> a move to each target."""
        tables = self.by_targets
        if sum(map(len, tables.values())) > KEEP:
            tables.clear()
        key = (index, targets)
        made = tables.get(key)
        if made is None:
            made = tables[key] = {}
        return made

    def pick(self, index: int, card: int) -> Move:
        """The move of rule ``index`` that picks ``card`` towards a set."""
        key = (index, card)
        move = self.picks.get(key)
        if move is None:
            if len(self.picks) > KEEP:
                self.picks.clear()
            move = self.picks[key] = tuple.__new__(Move, (index, NO_CARD, tuple.__new__(Pick, (card,))))
        return move


def _set_moves(made: dict, cards: tuple[int, ...], targets: tuple, index: int) -> tuple:
    """The moves of ``cards`` to each of ``targets``, made once (``made``: Made.table's)."""
    moves = made.get(cards)
    if moves is None:
        new = tuple.__new__
        moves = made[cards] = tuple([new(Move, (index, NO_CARD, new(CardSet, (cards, t)))) for t in targets])
    return moves


class Listing:
    """One listing of a set move's sets (its sizes and sum bound read now), and the moves of a set
    chosen card by card: when a player has more than PICK_ABOVE sets to choose from (or the sets
    looked at pass MAX_SETS), they pick the cards one at a time, in their zone's order, each pick
    a move ``Move(rule, NO_CARD, Pick(card))`` that changes nothing but ``state.picking`` (the seat,
    the rule and the cards picked so far: State.apply). The moves offered then: the set picked so
    far, finished, to each target its guards admit (if it is of a size allowed), then each next
    card that some legal set holds after those picked (found by a search that stops at the first:
    a pick never leads nowhere). Alike cards are picked as a set move lists them (the first copies
    of each kind), so that each set is picked one way only. Records write the finished set alone,
    as a set chosen at once: nothing of a pick is seen until the set is played.

    ``plain`` says whether ``admit`` reads the set: None when it does (a guard reads it), else what
    it answers for any set (True: every set is legal; False: none). Then no set is looked at: a
    next card leads to a legal set when enough cards follow it for the smallest size."""

    def __init__(
        self, admit: Any, lo: int, hi: int, weight: Any, cap: int | None, at: Any, made: Made, plain: bool | None = None
    ) -> None:
        self.admit, self.lo, self.hi, self.weight, self.cap, self.at = admit, lo, hi, weight, cap, at
        self.made, self.plain = made, plain if cap is None else None

    def picks(self, pools: list, chosen: tuple[int, ...], index: int, out: list) -> None:
        """Append the moves of a set picked card by card: finished (the cards ``chosen``), then each
        next pick that leads to a legal set."""
        pick = self.made.pick
        if chosen and self.lo <= len(chosen) <= self.hi:
            self.admit(chosen, out)
        if len(chosen) >= self.hi:
            return
        plain = self.plain
        floor = max(self.lo - len(chosen) - 1, 0)  # (plain) the cards that must follow a next pick
        for groups in pools:
            where = {c: (i, j) for i, g in enumerate(groups) for j, c in enumerate(g)}
            if chosen and chosen[0] not in where:
                continue
            if chosen:  # the next copy of the last card's kind, or the first of a kind after it
                i, j = where[chosen[-1]]
                nexts = ([groups[i][j + 1]] if j + 1 < len(groups[i]) else []) + [g[0] for g in groups[i + 1 :]]
            else:
                nexts = [g[0] for g in groups]
            if plain is None:
                for c in nexts:
                    i, j = where[c]
                    rest = [groups[i][j + 1 :], *groups[i + 1 :]]
                    if self._leads((*chosen, c), [g for g in rest if g]):
                        out.append(pick(index, c))
            elif plain:
                after = [0] * (len(groups) + 1)  # after[i]: the cards of groups[i:]
                for i in range(len(groups) - 1, -1, -1):
                    after[i] = after[i + 1] + len(groups[i])
                for c in nexts:
                    i, j = where[c]
                    if after[i] - j - 1 >= floor:
                        out.append(pick(index, c))

    def _leads(self, chosen: tuple[int, ...], rest: list[list[int]]) -> bool:
        """Whether some legal set holds the cards ``chosen`` and others of ``rest`` (taken after them)."""
        weight, cap = self.weight, self.cap
        if cap is not None:
            cap -= sum(weight[c] or 0 for c in chosen)
            if cap < 0:
                return False
        scratch: list = []
        looked = 0
        for more in range(max(self.lo - len(chosen), 0), self.hi - len(chosen) + 1):
            for tail in _sets(rest, more, weight, cap):
                looked += 1
                if looked > MAX_SETS:
                    raise PlayError(f"more than {MAX_SETS:,} sets looked at to find a legal one", self.at)
                if self.admit(chosen + tail, scratch):
                    return True
        return False


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
    size_bounds, value_bounds, sum_bounds = _bounds(cx, node, scope)
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

    counted = not (set_allows or pair_allows or set_requires or pair_requires)  # every set and target legal

    made = Made()

    def admit(s, e, cards, targets, table, every, out):
        """Append the moves of one set (to each target the guards admit; ``table``: those made,
        Made.table's); whether there is one."""
        e[slot] = cards
        if set_requires and not all(r(s, e) for r in set_requires):
            return False
        every = every or any(a(s, e) for a in set_allows)
        if every and not pair_requires:
            out.extend(_set_moves(table, cards, targets, index))
            return True
        found = False
        for t in targets:
            e[2] = t
            if not every and not any(a(s, e) for a in pair_allows):
                continue
            if all(r(s, e) for r in pair_requires):
                out.append(new(Move, (index, NO_CARD, new(CardSet, (cards, t)))))
                found = True
        return found

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
        every = not has_allows or any(a(s, e) for a in once_allows)
        targets = (lay.base[dst_zone] + p,) if dst_per_player else lay.instances[dst_zone]
        pools = _pools(held, kind, same, value_bounds, s, e)
        weight, cap = _cap(sum_bounds, s, e)
        picking = s.picking
        table = made.table(index, targets)
        admitted = lambda c, o: admit(s, e, c, targets, table, every, o)  # noqa: E731
        plain = every if counted else None  # (counted: every set is legal, or none is)
        if picking is not None and picking[0] == p and picking[1] == index:  # a set chosen card by card, under way
            Listing(admitted, lo, hi, weight, cap, at, made, plain).picks(pools, picking[2], index, out)
            return
        if counted and weight is None:  # no set is looked at: how many there are says whether to list them
            if _count(pools, lo, hi) * len(targets) > PICK_ABOVE:
                Listing(admitted, lo, hi, weight, cap, at, made, plain).picks(pools, (), index, out)
            elif every:
                _every_set(pools, lo, hi, table, targets, index, out)
            return
        _list_sets(pools, lo, hi, weight, cap, admitted, at, index, out, made)

    return generate


def compile_set_ask(cx: ExprCompiler, node: dict[str, Any], scope: Scope, slot: int, index: Any) -> Any:
    """The generator of an ask that chooses several cards (`ask P to choose NAME N..M cards from
    ZONE`): the sets of that zone instance's cards that P sees, as a set move lists them (sizes,
    `of one ATTR`, alike cards once), that the guards admit, as ``Move(rule, NO_CARD, CardSet(cards,
    zone instance))``; more than PICK_ABOVE of them, card by card (Listing). ``index()`` is the
    ask's rule number."""
    choice = node["choice"]
    at = choice["low"].get("at") or node.get("at")
    zone = cx.compile(choice["zone"], scope)
    low = cx.compile(choice["low"], scope)
    high = cx.compile(choice["high"], scope) if "high" in choice else None
    same = cx.cards.attrs[choice["same"]] if "same" in choice else None
    kind = cx.cards.kind
    once_allows, once_requires, set_allows, _, set_requires, _ = _sorted_guards(cx, node, scope)
    has_allows = bool(once_allows or set_allows)
    _, _, sum_bounds = _bounds(cx, node, scope)
    made = Made()

    def generate(s, p, out, env=None):
        e = list(env)
        inst = zone(s, e)
        if inst is None:
            return
        held = cards_seen(s, inst, p)
        if not held:
            return
        lo, hi = _sizes(low, high, s, e, len(held), at)
        if lo > hi or (once_requires and not all(r(s, e) for r in once_requires)):
            return
        every = not has_allows or any(a(s, e) for a in once_allows)
        rule = index()
        weight, cap = _cap(sum_bounds, s, e)
        pools = _pools(held, kind, same, [], s, e)
        table = made.table(rule, (inst,))

        def admit(cards, out):
            e[slot] = cards
            if set_requires and not all(r(s, e) for r in set_requires):
                return False
            if every or any(a(s, e) for a in set_allows):
                out.extend(_set_moves(table, cards, (inst,), rule))
                return True
            return False

        picking = s.picking
        plain = None if set_requires or set_allows else every  # (whether admit reads the set)
        if picking is not None and picking[0] == p and picking[1] == rule:  # card by card, under way
            Listing(admit, lo, hi, weight, cap, at, made, plain).picks(pools, picking[2], rule, out)
            return
        _list_sets(pools, lo, hi, weight, cap, admit, at, rule, out, made, plain)

    return generate


def _every_set(pools: list, lo: int, hi: int, made: dict, targets: tuple, index: int, out: list) -> None:
    """Append the moves of every set of ``lo`` to ``hi`` cards of the pools, to each target (when
    every one is legal: no guard to ask), as _list_sets lists them (``made``: see _set_moves)."""
    extend = out.extend
    for groups in pools:
        n = sum(map(len, groups))
        for k in range(lo, min(hi, n) + 1):
            for cards in _sets(groups, k, None, None):
                moves = made.get(cards)
                extend(_set_moves(made, cards, targets, index) if moves is None else moves)


def _list_sets(
    pools: list,
    lo: int,
    hi: int,
    weight: Any,
    cap: Any,
    admit: Any,
    at: Any,
    index: int,
    out: list,
    made: Made,
    plain: bool | None = None,
) -> None:
    """Append the moves of every set of ``lo`` to ``hi`` cards of the pools that ``admit(cards, out)``
    admits (a set move's, an ask's), in the order of the module docstring; past MAX_SETS sets looked
    at or PICK_ABOVE moves, none of them: the set is chosen card by card instead (Listing, told
    ``plain``)."""
    start = len(out)
    looked = 0
    for groups in pools:
        n = sum(map(len, groups))
        for k in range(lo, min(hi, n) + 1):
            for cards in _sets(groups, k, weight, cap):
                looked += 1
                if looked > MAX_SETS or len(out) - start > PICK_ABOVE:  # too many: card by card
                    del out[start:]
                    Listing(admit, lo, hi, weight, cap, at, made, plain).picks(pools, (), index, out)
                    return
                admit(cards, out)


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
    if type(chosen) is Pick:
        return move._replace(target=Pick(other[chosen.card])) if chosen.card in other else move
    if type(chosen) is CardSet and not other.keys().isdisjoint(chosen.cards):
        return move._replace(target=chosen._replace(cards=tuple(other.get(x, x) for x in chosen.cards)))
    return move


def swapped_cards(value: Any, other: dict[int, int]) -> Any:
    """A variable's value (a card, cards, a player's each, or none) with each card of ``other``
    replaced by the card taking its place (State.swap_cards)."""
    if type(value) is int:
        return other.get(value, value)
    if type(value) is list:
        return [swapped_cards(v, other) for v in value]
    if type(value) is tuple:
        return tuple(swapped_cards(v, other) for v in value)
    return value


def describe_set(game: Any, lay: Any, p: int, rule: Any, chosen: Any) -> dict[str, Any]:
    """A set move as records write it: ``{"player", "move", "cards", "to": {"zone", "index"}}``;
    a pick towards one (Listing), as offered, never recorded: ``{"player", "move", "pick": card}``."""
    cards = game.cards.json
    if type(chosen) is Pick:
        return {"player": p, "move": rule.name, "pick": cards[chosen.card]}
    return {
        "player": p,
        "move": rule.name,
        "cards": [cards[c] for c in chosen.cards],
        "to": {"zone": game.zones[lay.zone_of[chosen.to]].name, "index": lay.number[chosen.to]},
    }
