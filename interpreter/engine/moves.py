"""Legal-move generation: each move rule compiled into a generator over (card, target) pairs.

A move is legal when some `allow` holds (if the rule has any) and every `require` holds.
The guards are compiled once, with loop-invariant parts lifted out of the pair loop: a guard
(or a part of one) that does not mention the target is evaluated once per card, and a part
that does not mention the card once per target. This is plain code motion over the IR, the
same for every ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .expr_analysis import BINDS, MISSING, UNSET, Fn, Scope, free_names, reads, uses_env, zone_pure
from .expressions import ExprCompiler


class Move(NamedTuple):
    """One legal move: which move rule, which card, to which zone instance."""

    rule: int
    card: int
    target: int


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


Generator = Callable[[Any, int, list], None]


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
    allow targets one by one) gets a leaner loop that keeps one verdict per card group."""
    card_level: dict[str, list] = {"allow": [], "require": []}
    pair_level: dict[str, list] = {"allow": [], "require": []}
    player_lifts: list = []
    card_lifts: list = []
    target_lifts: list = []
    for g in guards:
        cond = {**_condition(g), "at": g.get("at")}  # the guard's own position, for coverage
        # A part that reads neither card nor target is computed once per generation, when first read.
        cond = _hoist(cond, frozenset({"player"}), frozenset(), player_lifts, "p")
        lifted_p = frozenset(name for name, _ in player_lifts)
        if "target" not in free_names(cond):
            card_level[g["kind"]].append(cond)
        else:
            cond = _hoist(cond, frozenset({"player", "card"}) | lifted_p, frozenset(), card_lifts, "c")
            cond = _hoist(cond, frozenset({"player", "target"}) | lifted_p, frozenset(), target_lifts, "t")
            pair_level[g["kind"]].append(cond)
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
    card_allow = _any([cx.counted(cx.compile(c, base), c["at"]) for c in card_level["allow"]])
    card_require = _all([cx.counted(cx.compile(c, base), c["at"]) for c in card_level["require"]])
    pair_require = _all([cx.counted(cx.compile(c, scope), c["at"]) for c in pair_level["require"]])
    p_lo, p_hi = _span(p_slots, "player")
    p_unset = [UNSET] * len(p_slots)
    t_slots = [slot for slot, _ in target_slots]
    t_lo, t_hi = _span(t_slots, "target")
    c_lo, c_hi = _span([slot for slot, _ in card_slots], "card")
    c_unset = [UNSET] * len(card_slots)
    # Each pair-level allow becomes a way to find the targets it allows for a card (see _allows).
    column = {name: j for j, (name, _) in enumerate(target_lifts)}
    lifted = {name: (slot, fn) for (name, _), (slot, fn) in zip(card_lifts, card_slots, strict=True)}
    allows = [_allows(c, column, lifted, cx.counted(cx.compile(c, scope), c["at"])) for c in pair_level["allow"]]
    allows.sort(key=lambda a: a[0] == "pair")  # lookups first; a full set stops the search early
    has_allows = card_allow is not None or bool(allows)

    counts = cx.coverage
    new = tuple.__new__  # builds a Move without the NamedTuple constructor's Python-level call
    t_fns = [fn for _, fn in target_slots]
    pure_calls = frozenset(name for name, k in cx.define_index.items() if k in cx.zone_pure)
    rows_pure = all(zone_pure(node, "target", pure_calls) for _, node in target_lifts)
    row_key = ("row", index)
    finders = [_finder(a, number, counts, (t_lo, t_hi)) for number, a in enumerate(allows)]
    size = cx.counter  # the env's size, final once the whole ruleset is compiled
    n_cards = len(cx.cards)
    src_zone, src_per_player = source
    dst_zone, dst_per_player = target
    plans: dict[int, tuple] = {}
    last: list[tuple] = [(None,)]

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
        last[0] = plan
        return plan

    def plan_and_cards(s: Any, p: int) -> tuple:
        """The plan of this state's layout (the last one used, most often), and player p's source cards."""
        plan = last[0]
        if plan[0] is not s.layout:
            plan = plan_for(s.layout)
        return plan, s.zones[plan[1][p]]

    if not has_allows and card_require is None and pair_require is None:  # no guard: every card, every target

        def generate_all(s, p, out):
            plan, cards = plan_and_cards(s, p)
            if not cards:
                return
            single = plan[5][p]
            if single is not None:
                out.extend(map(single.__getitem__, cards))
                return
            tab = plan[3][p]
            for c in cards:
                out.extend(tab[c])

        return generate_all

    shape = _attr_filter(card_level, pair_level, bool(card_lifts or target_lifts), counts)
    if shape is not None:  # require ATTR of card = V [when C]: the cards whose ATTR is V, or all
        first_free, eq, free_first = shape
        table = cx.cards.attrs[eq[0]]
        value = cx.compile(eq[1], base)
        negate = eq[2]
        free = cx.compile(first_free, base) if first_free is not None else None
        src_name = next(name for name, z in cx.zone_index.items() if z == src_zone)

        def passing(cards, v):
            """The cards whose ATTR is (or, negated, is not) ``v``."""
            return [c for c in cards if table[c] == v] if not negate else [c for c in cards if table[c] != v]

        def emit(plan, p, chosen, out):
            """Append the moves of the chosen cards (one target: a map in C)."""
            single = plan[5][p]
            if single is not None:
                out.extend(map(single.__getitem__, chosen))
                return
            tab = plan[3][p]
            for c in chosen:
                out.extend(tab[c])

        # C is `no card in the source where ATTR of it = V`: it holds exactly when no card passed
        if first_free is not None and _none_pass(first_free, eq, dict(player_lifts), src_name, src_per_player):
            free = None
            v_node = _plain(eq[1], dict(player_lifts))  # V itself, evaluated once here (not as a lazy slot)
            value = cx.compile(v_node, base)
            own_env = uses_env(v_node)  # else V reads and writes no slot: the env is not copied

            def generate_attr_or_all(s, p, out):
                plan, cards = plan_and_cards(s, p)
                if not cards:
                    return
                if own_env:
                    e = plan[4].copy()  # the env: lifted slots unset
                    e[0] = p
                    v = value(s, e)
                else:
                    v = value(s, plan[4])
                emit(plan, p, passing(cards, v) or cards, out)

            return generate_attr_or_all

        def generate_attr(s, p, out):
            plan, cards = plan_and_cards(s, p)
            if not cards:
                return
            e = plan[4].copy()  # the env: lifted slots unset
            e[0] = p
            if free_first and free(s, e):  # `C or ATTR = V`, C holds: every card
                chosen = cards
            else:
                chosen = passing(cards, value(s, e))
                # `ATTR = V or C`: C is read when some card fails the test, as a card-by-card test would
                if len(chosen) < len(cards) and free is not None and not free_first and free(s, e):
                    chosen = cards
            emit(plan, p, chosen, out)

        return generate_attr

    if not allows and pair_require is None and not t_fns:  # a verdict per card: all targets or none
        verdict = card_require if card_allow is None else card_allow if card_require is None else None
        if verdict is None:
            verdict = lambda s, e: card_require(s, e) and card_allow(s, e)  # noqa: E731

        def generate_cards(s, p, out):
            plan, cards = plan_and_cards(s, p)
            if not cards:
                return
            e = plan[4].copy()  # the env: lifted slots unset
            e[0] = p
            tab = plan[3][p]
            seen = [None] * groups  # group -> its verdict, once known
            for c in cards:
                g = kind[c]
                ok = seen[g]
                if ok is None:
                    e[1] = c
                    if c_hi:
                        e[c_lo:c_hi] = c_unset
                    ok = bool(verdict(s, e))
                    if by_kind:
                        seen[g] = ok
                if ok:
                    out.extend(tab[c])

        return generate_cards

    def generate(s, p, out):
        plan, cards = plan_and_cards(s, p)
        if not cards:
            return
        targets = plan[2][p]
        tab = plan[3][p]
        e = plan[4].copy()  # the env: lifted slots unset
        e[0] = p
        n = len(targets)
        everywhere = range(n)
        seen = [None] * groups  # group -> its target indices, once known
        rows = []
        if t_fns:
            zmemo = s.zmemo
            for t in targets:
                if rows_pure:  # the target's values depend on its cards only: kept until they change
                    memo_t = zmemo.get(t)
                    if memo_t is None:
                        memo_t = zmemo[t] = {}
                    row = memo_t.get(row_key)
                    if row is None:
                        e[2] = t
                        row = memo_t[row_key] = [fn(s, e) for fn in t_fns]
                    rows.append(row)
                else:
                    e[2] = t
                    rows.append([fn(s, e) for fn in t_fns])
        memo: dict[int, Any] = {}
        append = out.append
        for c in cards:
            g = kind[c]
            chosen = seen[g]
            if chosen is None:
                e[1] = c
                if c_hi:
                    e[c_lo:c_hi] = c_unset
                if card_require is not None and not card_require(s, e):
                    chosen = ()
                elif not has_allows or (card_allow is not None and card_allow(s, e)):
                    chosen = everywhere
                else:
                    found: set[int] = set()
                    for find in finders:
                        if len(found) == n:
                            break
                        find(s, e, rows, memo, found, targets)
                    chosen = sorted(found) if len(found) > 1 else tuple(found)
                if pair_require is not None and chosen:
                    kept = []
                    for i in chosen:
                        e[2] = targets[i]
                        if t_fns:
                            e[t_lo:t_hi] = rows[i]
                        if pair_require(s, e):
                            kept.append(i)
                    chosen = kept
                if by_kind:
                    seen[g] = chosen
            if chosen:
                row = tab[c]
                if chosen is everywhere:
                    out.extend(row)
                else:
                    for i in chosen:
                        append(row[i])

    return generate


def _attr_filter(card_level: dict, pair_level: dict, lifts: bool, counts: Any) -> tuple | None:
    """When the rule's only guard is ``ATTR of card = V`` (or !=), alone or or-ed with one condition
    C that does not read the card (``require ATTR of card = V when C`` is ``ATTR = V or not C``), V
    not reading the card either: (C or None, (ATTR, V, negate), whether C comes first). Then the
    legal cards are those whose ATTR is V, or all when C holds; V and C are evaluated exactly when
    a test of each card in turn would evaluate them (once: they are the same for every card).
    Not with coverage on, which counts the guard card by card."""
    if counts is not None or lifts or card_level["allow"] or pair_level["allow"] or pair_level["require"]:
        return None
    if len(card_level["require"]) != 1:
        return None
    cond = card_level["require"][0]
    parts = cond["args"] if cond.get("op") == "or" and len(cond["args"]) == 2 else [cond]
    for i, part in enumerate(parts):
        eq = _attr_test(part)
        if eq is None:
            continue
        others = parts[:i] + parts[i + 1 :]
        if any("card" in free_names(o) for o in others):
            return None
        return (others[0] if others else None, eq, i == 1)
    return None


def _plain(node: Any, lifted: dict[str, Any]) -> Any:
    """The node with lifted names replaced by what they stand for, and without source positions."""
    if isinstance(node, list):
        return [_plain(x, lifted) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("op") == "bound" and node.get("name") in lifted:
        return _plain(lifted[node["name"]], lifted)
    return {k: _plain(v, lifted) for k, v in node.items() if k != "at"}


def _none_pass(cond: dict[str, Any], eq: tuple, lifted: dict[str, Any], source: str, per_player: bool) -> bool:
    """Whether ``cond`` is ``no card in SOURCE where ATTR of it = V`` (``not some ...``) for the rule's
    own source zone, ATTR, comparison and V: true exactly when no card of the source passes the test
    (every value read is the same in one state, so the test need not be made twice)."""
    attr, value, negate = eq
    c = _plain(cond, lifted)
    if c.get("op") == "not":
        c = {"op": "no", "of": c["of"]["of"]} if c["of"].get("op") == "some" else c
    if c.get("op") != "no" or c["of"].get("op") != "filter":
        return False
    cards, where = c["of"]["of"], c["of"]["where"]
    owner = {"op": "bound", "name": "player"} if per_player else None
    zone = {"op": "zone", "name": source, "of": owner}
    if cards != {"op": "cards", "from": zone, "source": "zone", "type": None, "piles": False}:
        return False
    it = {"op": "attr", "name": attr, "of": {"op": "bound", "name": "it"}}
    sym = "!=" if negate else "="
    v = _plain(value, lifted)
    if "it" in free_names(value):
        return False
    return where in (
        {"op": "cmp", "cmp": sym, "left": it, "right": v},
        {"op": "cmp", "cmp": sym, "left": v, "right": it},
    )


def _attr_test(node: dict[str, Any]) -> tuple | None:
    """``ATTR of card = V`` (or !=) with V not reading the card: (ATTR, V, negate); else None."""
    if node.get("op") != "cmp" or node.get("cmp") not in ("=", "!="):
        return None
    for mine, other in ((node["left"], node["right"]), (node["right"], node["left"])):
        of = mine.get("of")
        if (
            mine.get("op") == "attr"
            and isinstance(of, dict)
            and of.get("op") == "bound"
            and of.get("name") == "card"
            and "card" not in free_names(other)
        ):
            return (mine["name"], other, node["cmp"] == "!=")
    return None


def _span(slots: list[int], what: str) -> tuple[int, int]:
    """The slots as one range ``lo:hi`` (they are allocated together, for one slice assignment)."""
    lo, hi = (slots[0], slots[-1] + 1) if slots else (0, 0)
    assert slots == list(range(lo, hi)), f"{what} slots are allocated together"
    return lo, hi


Finder = Callable[[Any, list, list, dict, set, tuple], None]


def _finder(allow: tuple, number: int, counts: Any, target_span: tuple[int, int]) -> Finder:
    """The closure that adds to ``found`` the target indices one pair-level allow admits for the
    card in ``env``: a dictionary lookup (``join``), a precomputed list (``split``) or tests pair by
    pair. ``memo`` keeps, for one generation, what is the same for every card."""
    how = allow[0]
    if how == "join":  # T(target) = C(card): the targets whose T is C(card)
        _, col, slot, fn, at = allow

        def join(s, e, rows, memo, found, targets):
            table = memo.get(number)
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
                if counts is not None:
                    counts[at] += len(hits)

        return join
    if how == "split":  # P(target) and Q(card): the targets where P holds, when Q holds
        _, cols, parts, at = allow

        def split(s, e, rows, memo, found, targets):
            chosen = memo.get(number)
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
            if counts is not None:
                counts[at] += len(chosen)

        return split
    _, test = allow
    lo, hi = target_span

    def pairs(s, e, rows, memo, found, targets):
        for i, t in enumerate(targets):
            if i not in found:
                e[2] = t
                if rows:
                    e[lo:hi] = rows[i]
                if test(s, e):
                    found.add(i)

    return pairs


def _card_value(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Fn:
    """A lifted per-card value; a costly one is memoized in the state by the card's attributes it
    reads, so that every card alike (same color, say) computes it once per state."""
    fn = cx.compile(node, scope)
    if node["op"] in ("attr", "is_type", "call") or reads(node).get("card", set()) is None:
        return fn
    key = cx.memo_key(node, scope)

    def memo(s, e):
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
