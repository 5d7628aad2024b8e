"""Legal-move generation: each move rule compiled into a generator over (card, target) pairs.

A move is legal when some `allow` holds (if the rule has any) and every `require` holds.
The guards are compiled once, with loop-invariant parts lifted out of the pair loop: a guard
(or a part of one) that does not mention the target is evaluated once per card, and a part
that does not mention the card once per target. This is plain code motion over the IR, the
same for every ruleset. The loops that then list the moves of a state, one for each shape of
guards, are in move_loops.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from .expr_analysis import MISSING, UNSET, Fn, Scope, bound_in, free_names, reads, zone_pure
from .expressions import ExprCompiler, consult_key
from .move_loops import Generator, attr_filter, every_move, moves_by_attribute, moves_by_card, moves_by_pair

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields


class Move(NamedTuple):
    """One legal move: which move rule, which card, to which zone instance."""

    rule: int
    card: int
    target: int


NO_CARD = -1  # the card of a Move that chooses no one card (a choice: its value in the target's place)


TRIVIAL = {"num", "text", "none", "bound", "builtin", "param", "schedule"}


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
        name = bound_in(node, key)
        inner = shadowed if name is None else shadowed | {name}
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


class _Levels(NamedTuple):
    """A rule's guards sorted by what they read, with the parts lifted out of the loops."""

    card: dict[str, list]  # allow/require conditions that read no target: one verdict per card
    pair: dict[str, list]  # ... that read the target: one verdict per (card, target)
    player_lifts: list  # (name, node): parts that read neither card nor target, once per generation
    card_lifts: list  # ... parts of pair conditions that read the card, not the target
    target_lifts: list  # ... parts of pair conditions that read the target, not the card


class _Guards(NamedTuple):
    """A rule's guards compiled: the verdicts, the lifted slots and how cards fall into groups."""

    base: Scope  # the scope with the player-level lifted slots
    kind: Any  # card -> its group (cards alike for the guards share one verdict)
    groups: int
    by_kind: bool  # whether a group's verdict is shared by its cards
    card_allow: Fn | None
    card_require: Fn | None
    pair_require: Fn | None
    allows: list  # the pair-level allows, as ways to find targets (see _allows)
    has_allows: bool
    p_span: tuple[int, int]  # the player-level lifted slots, as a range
    p_unset: list
    c_span: tuple[int, int]  # the card-level lifted slots
    c_unset: list
    t_span: tuple[int, int]  # the target-level lifted slots
    t_fns: list  # the target-level lifted values


def compile_generator(
    cx: ExprCompiler,
    guards: list[dict[str, Any]],
    base: Scope,
    index: int,
    source: tuple[int, bool],
    target: tuple[int, bool],
) -> Generator:
    """A function ``gen(state, player, out)`` appending the player's legal (rule, card, target) moves.

    ``source`` and ``target`` are (zone index, per player). The generator keeps, for each layout,
    the source and targets of each player, and for each card its moves, built once (a Move is a
    value: the same tuple serves every state). A rule whose guards never read the target (nor
    allow targets one by one) gets a leaner loop that keeps one verdict per card group.

    In steps: sort the guards by what they read (_sort_guards), compile them (_compile_guards),
    make the per-layout plan (_planner), then take the leanest loop that fits (move_loops.py)."""
    levels = _sort_guards(guards)
    g = _compile_guards(cx, guards, levels, base)
    counts = cx.coverage
    finders = [_finder(a, number, counts, g.t_span, cx.consults) for number, a in enumerate(g.allows)]
    planner = _planner(cx, index, source, target, g.p_span, g.p_unset)
    if not g.has_allows and g.card_require is None and g.pair_require is None:  # no guard
        return every_move(planner)
    may_count = counts is not None and cx.may_count(guards)
    shape = attr_filter(levels.card, levels.pair, bool(levels.card_lifts or levels.target_lifts), may_count)
    if shape is not None:  # require ATTR of card = V [when C]: the cards whose ATTR is V, or all
        at = levels.card["require"][0]["at"]
        return moves_by_attribute(cx, shape, g, levels.player_lifts, source, planner, at)
    if not g.allows and g.pair_require is None and not g.t_fns:  # a verdict per card: all targets or none
        return moves_by_card(g, planner)
    pure_calls = frozenset(name for name, k in cx.define_index.items() if k in cx.zone_pure)
    rows_pure = all(zone_pure(node, "target", pure_calls) for _, node in levels.target_lifts)
    return moves_by_pair(g, finders, rows_pure, f"row {index}", planner)  # (a str: its hash is kept)


def _sort_guards(guards: list[dict[str, Any]]) -> _Levels:
    """Each guard at the level of what it reads (card, or card and target), with the parts that
    read less lifted out into slots of their own (computed once per generation, card or target)."""
    levels = _Levels({"allow": [], "require": []}, {"allow": [], "require": []}, [], [], [])
    for g in guards:
        cond = {**_condition(g), "at": g.get("at")}  # the guard's own position, for coverage
        # A part that reads neither card nor target is computed once per generation, when first read.
        cond = _hoist(cond, frozenset({"player"}), frozenset(), levels.player_lifts, "p")
        lifted_p = frozenset(name for name, _ in levels.player_lifts)
        if "target" not in free_names(cond):
            levels.card[g["kind"]].append(cond)
        else:
            cond = _hoist(cond, frozenset({"player", "card"}) | lifted_p, frozenset(), levels.card_lifts, "c")
            cond = _hoist(cond, frozenset({"player", "target"}) | lifted_p, frozenset(), levels.target_lifts, "t")
            levels.pair[g["kind"]].append(cond)
    return levels


def _compile_guards(cx: ExprCompiler, guards: list[dict[str, Any]], levels: _Levels, base: Scope) -> _Guards:
    """The sorted guards compiled: slots for the lifted parts (each range allocated together, for
    one slice assignment), lazy slots for the values computed when first read, the verdicts."""
    player_lifts, card_lifts, target_lifts = levels.player_lifts, levels.card_lifts, levels.target_lifts
    reads = _card_reads(guards)
    by_kind = reads is not None  # then the guards' verdict on a card is shared by its whole group
    kind = card_groups(cx.cards, reads) if by_kind else cx.cards.kind
    groups = max(kind, default=-1) + 1
    pscope = Scope(base.slots, base.counter)
    p_names = [pscope.set(name) for name, _ in player_lifts]  # together, for one slice assignment
    player_slots = [(slot, cx.compile(node, base)) for slot, (_, node) in zip(p_names, player_lifts, strict=True)]
    cx.lazy_slots.update(player_slots)
    p_slots = [slot for slot, _ in player_slots]
    base = pscope
    scope = Scope(base.slots, base.counter)
    card_names = [scope.set(name) for name, _ in card_lifts]
    target_names = [scope.set(name) for name, _ in target_lifts]  # together, for one slice assignment
    # Cards of one group compute a per-card value once per generation anyway: no memo then.
    card_slots = [
        (slot, cx.compile(node, base) if by_kind else _card_value(cx, node, base))
        for slot, (_, node) in zip(card_names, card_lifts, strict=True)
    ]
    target_slots = [(slot, cx.compile(node, base)) for slot, (_, node) in zip(target_names, target_lifts, strict=True)]
    # A per-card value is computed when first read (so `and`/`or` still short-circuit it).
    cx.lazy_slots.update({slot: fn for slot, fn in card_slots})
    card_allow = _any([cx.counted(cx.compile(c, base), c["at"], guard=True) for c in levels.card["allow"]])
    card_require = _all([cx.counted(cx.compile(c, base), c["at"], guard=True) for c in levels.card["require"]])
    pair_require = _all([cx.counted(cx.compile(c, scope), c["at"], guard=True) for c in levels.pair["require"]])
    p_span = _span(p_slots, "player")
    t_span = _span([slot for slot, _ in target_slots], "target")
    c_span = _span([slot for slot, _ in card_slots], "card")
    # Each pair-level allow becomes a way to find the targets it allows for a card (see _allows).
    column = {name: j for j, (name, _) in enumerate(target_lifts)}
    lifted = {name: (slot, fn) for (name, _), (slot, fn) in zip(card_lifts, card_slots, strict=True)}
    allows = [
        _allows(c, column, lifted, cx.counted(cx.compile(c, scope), c["at"], guard=True)) for c in levels.pair["allow"]
    ]
    allows.sort(key=lambda a: a[0] == "pair")  # lookups first; a full set stops the search early
    has_allows = card_allow is not None or bool(allows)
    return _Guards(
        base,
        kind,
        groups,
        by_kind,
        card_allow,
        card_require,
        pair_require,
        allows,
        has_allows,
        p_span,
        [UNSET] * len(p_slots),
        c_span,
        [UNSET] * len(card_slots),
        t_span,
        [fn for _, fn in target_slots],
    )


def _planner(
    cx: ExprCompiler,
    index: int,
    source: tuple[int, bool],
    target: tuple[int, bool],
    p_span: tuple[int, int],
    p_unset: list,
) -> list:
    """``[the last plan used, plan_for]``, read by move_loops.current_plan: the plan of a state's
    layout, built once per layout by ``plan_for(layout)``. A plan is (layout, each player's source
    instance, targets, moves by card for each target, a fresh env, and each card's one move when
    there is one target)."""
    new = tuple.__new__  # builds a Move without the NamedTuple constructor's Python-level call
    size = cx.counter  # the env's size, final once the whole ruleset is compiled
    n_cards = len(cx.cards)
    src_zone, src_per_player = source
    dst_zone, dst_per_player = target
    p_lo, p_hi = p_span
    plans: dict[int, tuple] = {}
    planner: list = [(None,), None]

    def plan_for(lay: Any) -> tuple:
        """For one layout: each player's source instance, targets and moves by card (for each target,
        and the one move when there is one target), and a fresh env (made here, once the whole
        ruleset is compiled and its size known)."""
        plan = plans.get(lay.players)
        if plan is None or plan[0] is not lay:
            srcs = tuple(lay.base[src_zone] + (p if src_per_player else 0) for p in range(lay.players))
            tgts = tuple(
                (lay.base[dst_zone] + p,) if dst_per_player else lay.instances[dst_zone] for p in range(lay.players)
            )
            tables: dict[tuple, list] = {}
            for t in tgts:
                if t not in tables:
                    tables[t] = [tuple([new(Move, (index, c, i)) for i in t]) for c in range(n_cards)]
            tabs = tuple(tables[t] for t in tgts)
            # with one target, each card's one move, to list them with a map in C
            singles = tuple([row[0] for row in tables[t]] if len(t) == 1 else None for t in tgts)
            env = [None] * size[0]
            env[p_lo:p_hi] = p_unset
            plan = plans[lay.players] = (lay, srcs, tgts, tabs, env, singles)
        planner[0] = plan
        return plan

    planner[1] = plan_for
    return planner


def _span(slots: list[int], what: str) -> tuple[int, int]:
    """The slots as one range ``lo:hi`` (they are allocated together, for one slice assignment)."""
    lo, hi = (slots[0], slots[-1] + 1) if slots else (0, 0)
    assert slots == list(range(lo, hi)), f"{what} slots are allocated together"
    return lo, hi


Finder = Callable[[Any, list, list, dict, set, tuple], None]


def _finder(allow: tuple, number: int, coverage: Any, target_span: tuple[int, int], asked: Any = None) -> Finder:
    """The closure that adds to ``found`` the target indices one pair-level allow admits for the
    card in ``env``: a dictionary lookup (``join``), a precomputed list (``split``) or tests pair by
    pair. ``memo`` keeps, for one generation, what is the same for every card. With ``coverage``
    (coverage.RuleCounts), a lookup counts the targets it admitted; with ``asked`` (the same,
    `check`'s consults), each time it is consulted."""
    how = allow[0]
    counts: list = coverage.counts if coverage is not None else None  # (typed: compiled, read in place)
    touched: list = coverage.touched if coverage is not None else None
    k: cython.Py_ssize_t = -1
    if coverage is not None and how != "pair":
        k = coverage.slot(allow[-1])
    if how == "join":  # T(target) = C(card): the targets whose T is C(card)
        _, col, slot, fn, at = allow

        def join(s: StateFields, e, rows: list, memo: dict, found: set, targets):
            table: dict = memo.get(number)  # (typed: compiled, its reads are the dict's own, not method calls)
            if table is None:
                table = memo[number] = {}
                for i, row in enumerate(rows):
                    table.setdefault(row[col], []).append(i)
            v = e[slot]
            if v is UNSET:
                v = e[slot] = fn(s, e)
            hits = table.get(v)
            if hits:
                found.update(hits)
                if k >= 0:
                    n = counts[k]
                    if not n:
                        touched.append(k)
                    counts[k] = n + len(hits)

        return join if asked is None else _asking(join, asked, consult_key(at), None)
    if how == "split":  # P(target) and Q(card): the targets where P holds, when Q holds
        _, cols, parts, at = allow

        def split(s: StateFields, e, rows: list, memo: dict, found: set, targets):
            chosen: list = memo.get(number)
            if chosen is None:
                if len(cols) == 1:
                    (col,) = cols
                    chosen = memo[number] = [i for i, row in enumerate(rows) if row[col]]
                else:
                    chosen = memo[number] = [i for i, row in enumerate(rows) if all(row[j] for j in cols)]
            if not chosen or found.issuperset(chosen):
                return
            for slot, fn in parts:
                v = e[slot]
                if v is UNSET:
                    v = e[slot] = fn(s, e)
                if not v:
                    return
            found.update(chosen)
            if k >= 0:
                n = counts[k]
                if not n:
                    touched.append(k)
                counts[k] = n + len(chosen)

        return split if asked is None else _asking(split, asked, consult_key(at), number)
    _, test = allow
    lo, hi = target_span

    def pairs(s: StateFields, e, rows: list, memo: dict, found: set, targets):
        for i, t in enumerate(targets):
            if i not in found:
                e[2] = t
                if rows:
                    e[lo:hi] = rows[i]
                if test(s, e):
                    found.add(i)

    return pairs


def _asking(find: Finder, asked: Any, key: str, number: int | None) -> Finder:
    """A lookup finder that counts in ``asked[key]`` (coverage.RuleCounts) each time it is consulted
    (`check` only, so the finders of play pay nothing). A split (``number``: its memo of chosen
    targets) is not consulted when the targets it would admit are admitted already."""
    counts: list = asked.counts
    touched: list = asked.touched
    k: cython.Py_ssize_t = asked.slot(key)

    def counted(s: StateFields, e, rows: list, memo: dict, found: set, targets):
        chosen = None if number is None else memo.get(number)
        if not chosen or not found.issuperset(chosen):
            n = counts[k]
            if not n:
                touched.append(k)
            counts[k] = n + 1
        find(s, e, rows, memo, found, targets)

    return counted


def _card_value(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Fn:
    """A lifted per-card value; a costly one is memoized in the state by the card's attributes it
    reads, so that every card alike (same color, say) computes it once per state."""
    fn = cx.compile(node, scope)
    if node["op"] in ("attr", "is_type", "call") or reads(node).get("card", set()) is None:
        return fn
    key = cx.memo_key(node, scope)

    def memo(s: StateFields, e):
        k = key(s, e)
        v = s.cache.get(k, MISSING)
        if v is MISSING:
            v = s.cache[k] = fn(s, e)
        return v

    return memo


def _allows(cond: dict[str, Any], column: dict[str, int], lifted: dict[str, tuple], fn: Fn) -> tuple:
    """How to find the targets a pair-level `allow` admits for one card.

    After hoisting, an allow often reads only lifted values: ``T = C`` (a target value equals a card
    value: look the card's value up among the targets'), or ``P and Q`` with each part about the
    target only or the card only (the targets where P holds, when Q holds). Anything else is tested
    pair by pair. (With coverage on, a lookup counts the targets it allowed, as pair-by-pair tests would.)
    """

    def target_col(node: Any) -> int | None:
        return column.get(node.get("name")) if isinstance(node, dict) and node.get("op") == "bound" else None

    def card_part(node: Any) -> tuple | None:
        return lifted.get(node.get("name")) if isinstance(node, dict) and node.get("op") == "bound" else None

    if cond.get("op") == "cmp" and cond.get("cmp") == "=":
        left, right = cond["left"], cond["right"]
        for t_side, c_side in ((left, right), (right, left)):
            col, part = target_col(t_side), card_part(c_side)
            if col is not None and part is not None:
                return ("join", col, *part, cond.get("at"))
    parts = cond["args"] if cond.get("op") == "and" else [cond]
    if all(target_col(p) is not None or card_part(p) is not None for p in parts):
        cols = [target_col(p) for p in parts if target_col(p) is not None]
        return ("split", cols, [card_part(p) for p in parts if target_col(p) is None], cond.get("at"))
    return ("pair", fn)
