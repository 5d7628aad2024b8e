"""The loops that list one move rule's legal moves in a state, one for each shape of guards: no
guard (every card, every target), an attribute filter (``require ATTR of card = V [when C]``), one
verdict per card (all its targets or none), and the general loop over (card, target) pairs.
compile_generator (moves.py) compiles the guards and picks the leanest loop that fits; each loop
is a closure ``generate(state, player, out)`` over what was compiled, and appends Moves to ``out``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .expr_analysis import free_names, uses_env
from .expressions import consult_key

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields

Generator = Callable[[Any, int, list], None]


def current_plan(planner: list, s: StateFields) -> tuple:
    """The plan of the state's layout (moves._planner): the last one used, most often, else made."""
    plan: tuple = planner[0]
    if plan[0] is not s.layout:
        plan = planner[1](s.layout)
    return plan


def every_move(planner: list) -> Generator:
    """No guard: every card of the source, to every target."""

    def generate_all(s: StateFields, p, out: list):
        plan = current_plan(planner, s)
        cards: list = s.zones[plan[1][p]]  # (the player's source cards)
        if cards:
            emit(plan, p, cards, out)

    return generate_all


def emit(plan: tuple, p: cython.Py_ssize_t, chosen: list, out: list) -> None:
    """Append to ``out`` the moves of the ``chosen`` cards for player ``p`` by the plan of the state's
    layout (moves._planner): each card's one move when there is one target, else its move to each."""
    c: cython.Py_ssize_t  # (a card id as a C integer, compiled: each list read in place)
    single: list = plan[5][p]
    if single is not None:  # (a loop, not a map of __getitem__: compiled, it is C without a call a card)
        for c in chosen:
            out.append(single[c])
        return
    tab: list = plan[3][p]
    for c in chosen:
        out.extend(tab[c])


def passing(cards: list, table: tuple, v: Any, negate: bool) -> list:
    """The cards whose attribute (``table``: card id -> its value) is ``v`` (or, negated, is not)."""
    out = []
    c: cython.Py_ssize_t  # (C integers, compiled: each table read in place)
    if negate:
        for c in cards:
            if table[c] != v:
                out.append(c)
    else:
        for c in cards:
            if table[c] == v:
                out.append(c)
    return out


def moves_by_attribute(
    cx: Any,
    shape: tuple,
    guards: Any,
    player_lifts: list,
    source: tuple[int, bool],
    planner: list,
    at: str | None,
) -> Generator:
    """``require ATTR of card = V [when C]`` (see attr_filter): the cards whose ATTR is V, or all.
    ``guards`` are the compiled guards (moves._Guards); with coverage on, the guard (at ``at``)
    counts as moves_by_card's test of each card would (see group_tally)."""
    src_zone, src_per_player = source
    first_free, eq, free_first = shape
    base = guards.base
    table: tuple = cx.cards.attrs[eq[0]]
    value = cx.compile(eq[1], base)
    negate = eq[2]
    free = cx.compile(first_free, base) if first_free is not None else None
    src_name = next(name for name, z in cx.zone_index.items() if z == src_zone)
    tally = group_tally(guards, table, negate, cx.coverage, cx.consults, at)

    # C is `no card in the source where ATTR of it = V`: it holds exactly when no card passed
    if first_free is not None and _none_pass(first_free, eq, dict(player_lifts), src_name, src_per_player):
        free = None
        v_node = _plain(eq[1], dict(player_lifts))  # V itself, evaluated once here (not as a lazy slot)
        value = cx.compile(v_node, base)
        own_env = uses_env(v_node)  # else V reads and writes no slot: the env is not copied

        def generate_attr_or_all(s: StateFields, p, out: list):
            plan = current_plan(planner, s)
            cards: list = s.zones[plan[1][p]]
            if not cards:
                return
            if own_env:
                e: list = plan[4].copy()  # the env: lifted slots unset
                e[0] = p
                v = value(s, e)
            else:
                v = value(s, plan[4])
            chosen = passing(cards, table, v, negate) or cards
            if tally is not None:
                tally(chosen, cards)
            emit(plan, p, chosen, out)

        return generate_attr_or_all

    def generate_attr(s: StateFields, p, out: list):
        plan = current_plan(planner, s)
        cards: list = s.zones[plan[1][p]]
        if not cards:
            return
        e: list = plan[4].copy()  # the env: lifted slots unset
        e[0] = p
        if free_first and free(s, e):  # `C or ATTR = V`, C holds: every card
            chosen = cards
        else:
            chosen = passing(cards, table, value(s, e), negate)
            # `ATTR = V or C`: C is read when some card fails the test, as a card-by-card test would
            if len(chosen) < len(cards) and free is not None and not free_first and free(s, e):
                chosen = cards
        if tally is not None:
            tally(chosen, cards)
        emit(plan, p, chosen, out)

    return generate_attr


def group_tally(guards: Any, table: Any, negate: bool, coverage: Any, asked: Any, at: str | None) -> Callable | None:
    """``tally(chosen, cards)``: counts the one guard of an attribute filter (moves_by_attribute) from
    the cards it passed (``chosen``, of the source's ``cards``), exactly as moves_by_card's test of
    each card counts it: +1 for each group of alike cards (``guards.kind``) whose verdict holds, or
    each card when cards are not grouped; with `check`'s consults, +1 under the consult key for each
    group tested (that key first, as the test does). None when coverage is off. The cards an
    un-negated filter passes share their ATTR: one group when the groups are ATTR's values.
    (Counted in the coverage's list in place, see coverage.RuleCounts.)"""
    if coverage is None or not at:
        return None
    kind: tuple = tuple(guards.kind)  # (typed, as the lists below: compiled, each is read in place)
    by_kind = guards.by_kind
    counts: list = coverage.counts
    touched: list = coverage.touched
    i: cython.Py_ssize_t = coverage.slot(at)
    j: cython.Py_ssize_t = coverage.slot(consult_key(at)) if asked is not None else -1
    one_group = by_kind and not negate and len(set(kind)) == len(set(table)) == len(set(zip(kind, table, strict=True)))
    groups: cython.Py_ssize_t = guards.groups if by_kind else -1

    def tally(chosen: list, cards: list):
        every: cython.Py_ssize_t = 0  # (C integers, compiled: no int object made nor tested)
        add: cython.Py_ssize_t = 0
        n: cython.Py_ssize_t
        if j >= 0 or chosen is cards:
            every = kinds_among(cards, kind, groups)
        if j >= 0 and every:
            n = counts[j]
            if not n:
                touched.append(j)
            counts[j] = n + every
        if chosen is cards:
            add = every
        elif chosen:
            add = 1 if one_group else kinds_among(chosen, kind, groups)
        if add:
            n = counts[i]
            if not n:
                touched.append(i)
            counts[i] = n + add

    return tally


def kinds_among(cards: list, kind: tuple, groups: cython.Py_ssize_t) -> cython.Py_ssize_t:
    """How many groups the cards fall into (``kind``: card id -> group, of ``groups``), or how many
    cards there are when ``groups`` < 0 (cards not grouped). Compiled, in C: a bit per group when
    there are at most 64, else a set."""
    if groups < 0:
        return len(cards)
    if groups > 64:
        return len({kind[c] for c in cards})
    seen: cython.ulonglong = 0
    bit: cython.ulonglong
    one: cython.ulonglong = 1
    n: cython.Py_ssize_t = 0
    c: cython.Py_ssize_t
    g: cython.Py_ssize_t
    for c in cards:
        g = kind[c]
        bit = one << g
        if not seen & bit:
            seen |= bit
            n += 1
    return n


def moves_by_card(guards: Any, planner: list) -> Generator:
    """Guards that never read the target: one verdict per card (per card group), all its targets or none.
    ``guards`` are the compiled guards (moves._Guards)."""
    card_allow, card_require = guards.card_allow, guards.card_require
    kind: tuple = guards.kind  # (typed, as the lists below: compiled, each is read in place)
    groups, by_kind = guards.groups, guards.by_kind
    c_lo, c_hi = guards.c_span
    c_unset = guards.c_unset
    verdict = card_require if card_allow is None else card_allow if card_require is None else None
    if verdict is None:
        verdict = lambda s, e: card_require(s, e) and card_allow(s, e)  # noqa: E731

    def generate_cards(s: StateFields, p, out: list):
        plan = current_plan(planner, s)
        cards: list = s.zones[plan[1][p]]
        if not cards:
            return
        e: list = plan[4].copy()  # the env: lifted slots unset
        e[0] = p
        tab: list = plan[3][p]
        seen: list = [None] * groups  # group -> its verdict, once known
        c: cython.Py_ssize_t  # (C integers, compiled: each list read in place)
        g: cython.Py_ssize_t
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


def moves_by_pair(guards: Any, finders: list, rows_pure: bool, row_key: str, planner: list) -> Generator:
    """The general loop: for each card (per card group), the targets its allows find (``finders``,
    see moves._finder) and its requires keep. ``rows_pure``: the target-level values depend on the
    target's cards only, so they are kept (under ``row_key``) until those change."""
    card_allow, card_require, pair_require = guards.card_allow, guards.card_require, guards.pair_require
    has_allows = guards.has_allows
    kind: tuple = guards.kind  # (typed, as the lists below: compiled, each is read in place)
    groups, by_kind = guards.groups, guards.by_kind
    c_lo, c_hi = guards.c_span
    c_unset = guards.c_unset
    t_lo, t_hi = guards.t_span
    t_fns = guards.t_fns

    def generate(s: StateFields, p, out: list):
        plan = current_plan(planner, s)
        cards: list = s.zones[plan[1][p]]
        if not cards:
            return
        targets: tuple = plan[2][p]
        tab: list = plan[3][p]
        e: list = plan[4].copy()  # the env: lifted slots unset
        e[0] = p
        n = len(targets)
        everywhere = range(n)
        seen: list = [None] * groups  # group -> its target indices, once known
        rows = []
        if t_fns:
            zmemo = s.zmemo
            for t in targets:
                if rows_pure:  # the target's values depend on its cards only: kept until they change
                    memo_t: dict = zmemo.get(t)
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
        c: cython.Py_ssize_t  # (C integers, compiled: each list read in place)
        g: cython.Py_ssize_t
        i: cython.Py_ssize_t
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
                row: tuple = tab[c]
                if chosen is everywhere:
                    out.extend(row)
                else:
                    for i in chosen:
                        append(row[i])

    return generate


def attr_filter(card_level: dict, pair_level: dict, lifts: bool, may_count: bool) -> tuple | None:
    """When the rule's only guard is ``ATTR of card = V`` (or !=), alone or or-ed with one condition
    C that does not read the card (``require ATTR of card = V when C`` is ``ATTR = V or not C``), V
    not reading the card either: (C or None, (ATTR, V, negate), whether C comes first). Then the
    legal cards are those whose ATTR is V, or all when C holds; V and C are evaluated exactly when
    a test of each card in turn would evaluate them (once: they are the same for every card).
    Not when evaluating the guard ``may_count`` (coverage on and it reads a card's `achieved`
    condition: the fast path evaluates C and V fewer times than a test of each card would)."""
    if may_count or lifts or card_level["allow"] or pair_level["allow"] or pair_level["require"]:
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
