"""`verify --jobs N`: the deals shared out over N processes, and what each found merged into the
report one process gives, figure for figure and counterexample for counterexample (the time aside).

This process lists the deals (every order of the decks) and keeps the distinct ones; each worker
explores the states reachable from its share of them (explore.py, ``roots``). The states reachable
from a set of deals are the union of those reachable from each, so the merge is exact:

- distinct states: the union of the workers' keys; a state's depth: the fewest moves any worker
  reached it in; states reached: the orders dealt and, for each distinct state, the steps tried
  from it (a state two workers reached is counted once, as one process explores it once);
- a property's counterexample: one process keeps the first it meets, breadth-first, and its
  order is (depth, the numbers of the deal and the moves that lead there; explore.Graph.rank),
  whichever deals were explored together: the merge keeps the least of the workers' firsts. The
  worker that found it also words it and makes its record (report.py), from its own graph,
  which holds every state reachable from there (the game played on to its end, a loop's ring);
- a `sometimes` held if it held for one worker; a rule was reached if one worker reached it.

Two workers whose deals meet explore the states after the meeting twice: the price of sharing
nothing while they run. A space cut off by --max-states (per worker) is cut at another point
than in one process: only the figures of a whole space are the same whatever N.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import PlayError
from .chance import TooManyOrders, Unenumerable
from .explore import Result, Script, begin, deals, explore
from .properties import Failure, Properties, failure_kind
from .report import counterexample

Examples = dict[int, dict[str, Any]]  # a failure's index in Result.failures -> its counterexample


def verify(
    game: Any,
    players: int,
    params: dict[str, Any] | None = None,
    max_states: int = 500_000,
    progress: Callable[[int, int, float], None] | None = None,
    jobs: int = 1,
) -> tuple[Result, Examples]:
    """Explore ``game`` (compiled with coverage) over ``jobs`` processes: the result and the
    counterexample of each failure that has one (a game to show)."""
    if jobs <= 1:
        result = explore(game, players, params, max_states, progress)
        return result, examples_of(result, result.failures)
    return _shared(game, players, params, max_states, progress, jobs)


def examples_of(result: Result, failures: list[Failure]) -> Examples:
    """The counterexamples of ``failures`` (indexed as in the list), from ``result``'s graph."""
    out: Examples = {}
    for i, failure in enumerate(failures):
        ex = counterexample(result, failure)
        if ex is not None:
            out[i] = ex
    return out


@dataclass
class Part:
    """What one worker found from its deals: picklable, merged by ``_shared``."""

    states: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (depth, steps tried; -1 none)
    failures: list[tuple[Failure, dict[str, Any] | None]] = field(default_factory=list)
    held: set[str] = field(default_factory=set)
    reached: set[str] = field(default_factory=set)  # the rule positions reached
    cut: str | None = None
    first: int = 0  # the number of its first deal (the parts are merged in the deals' order)


def _shared(
    game: Any,
    players: int,
    params: dict[str, Any] | None,
    max_states: int,
    progress: Callable[[int, int, float], None] | None,
    jobs: int,
) -> tuple[Result, Examples]:
    from ..simulation.parallel import quiet_pool

    start = time.perf_counter()
    result, encoder, props = begin(game, players, params)
    values, classes = result.params, result.classes
    roots: list[tuple[int, Script]] = []
    firsts: list[tuple[Failure, dict[str, Any] | None]] = []  # the deals the rules cannot make
    seen: set[str] = set()
    try:
        for i, script, got in deals(game, players, values, classes, max(max_states, 1)):
            if script is None:  # (deals earlier orders gave)
                result.orders += got
                continue
            result.orders += 1
            if isinstance(got, BaseException):
                failure = Failure(*failure_kind(got), -1, (None, script), found=(-1, (i,), 0, 0))
                firsts.append((failure, counterexample(result, failure)))
            elif (key := encoder.key(got)) not in seen:
                seen.add(key)
                roots.append((i, script))
    except TooManyOrders as err:
        result.cut = f"{err}: more than --max-states {max_states:,}; shrink the deck (see docs/verify.md)"
    except Unenumerable as err:
        raise PlayError(f"verify cannot list every outcome of chance: {err}") from None
    result.deals = len(roots)
    parts: list[Part] = []
    if roots:
        shares = _shares(roots, jobs * 4)
        with quiet_pool(min(jobs, len(shares)), _start_worker, (game.ir, players, params, max_states)) as pool:
            for part in pool.imap_unordered(_explore_share, shares):
                parts.append(part)
                if progress:
                    progress(sum(len(p.states) for p in parts), max_states, time.perf_counter() - start)
    parts.sort(key=lambda p: p.first)
    examples = _merge(result, props, parts, firsts)
    result.seconds = time.perf_counter() - start
    return result, examples


def _merge(result: Result, props: Properties, parts: list[Part], firsts: list[tuple[Failure, Any]]) -> Examples:
    """The workers' findings into ``result``, as one process would have found them; the examples."""
    depth: dict[str, int] = {}
    tried: dict[str, int] = {}
    for part in parts:
        for key, (d, t) in part.states.items():
            if d < depth.get(key, d + 1):
                depth[key] = d
            if t >= 0:
                tried[key] = t
        props.seen |= part.held
        if result.game.coverage is not None:
            result.game.coverage.update(part.reached)
    result.distinct = len(depth)
    result.depth = max(depth.values(), default=0)
    result.states = result.orders + sum(tried.values())
    result.cut = result.cut or next((p.cut for p in parts if p.cut), None)
    best: dict[tuple[str, str], tuple[Failure, Any]] = {}
    loop = None
    for f, ex in firsts + [x for part in parts for x in part.failures]:
        if f.kind == "loop":
            if loop is None or f.found < loop[0].found:
                loop = (f, ex)
        elif (f.kind, f.at or "") not in best or f.found < best[(f.kind, f.at or "")][0].found:
            best[(f.kind, f.at or "")] = (f, ex)
    chosen = sorted(best.values(), key=lambda x: (x[0].depth, x[0].found))
    if loop is not None:
        chosen.append(loop)
    chosen += [(f, None) for f in props.never_held()]
    result.held = props.seen
    result.failures = [f for f, _ in chosen]
    result.unreached = props.unreached(result.complete) if result.distinct else []
    return {i: ex for i, (_, ex) in enumerate(chosen) if ex is not None}


def _shares(roots: list[tuple[int, Script]], many: int) -> list[list[tuple[int, Script]]]:
    """The deals in (about) ``many`` runs of consecutive ones."""
    size = max(1, -(-len(roots) // many))
    return [roots[i : i + size] for i in range(0, len(roots), size)]


_work: tuple[Any, int, Any, int] | None = None  # a worker's game, players, parameters, budget


def _start_worker(ir: dict[str, Any], players: int, params: Any, max_states: int) -> None:
    """Pool initializer: compile the game once per process."""
    from ..engine.game import compile_ir

    global _work
    _work = (compile_ir(ir, coverage=True), players, params, max_states)


def _explore_share(roots: list[tuple[int, Script]]) -> Part:
    """Pool task: explore from ``roots``; the states found, the failures with their counterexamples."""
    assert _work is not None
    game, players, params, max_states = _work
    result = explore(game, players, params, max_states, roots=roots)
    graph = result.graph
    part = Part(cut=result.cut, held=set(result.held), first=roots[0][0])
    part.reached = {at for at, n in (game.coverage or {}).items() if n}
    part.states = {key: (graph.depth[sid], graph.tried[sid]) for key, sid in result.keys.items()}
    mine = [f for f in result.failures if f.found]  # (a `sometimes` held nowhere is the merge's to say)
    examples = examples_of(result, mine)
    part.failures = [(f, examples.get(i)) for i, f in enumerate(mine)]
    return part
