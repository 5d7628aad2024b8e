"""The breadth-first search over a game's states: every deal (chance.py), then every legal move
and every answer to an ask from each state, each state kept once (encode.py). Breadth first, so
that the first state found breaking a property is at the fewest moves from a deal: the
counterexample the report replays is a shortest one.

The graph found is kept as arrays indexed by state number: how each state was first reached (its
parent and the step: a move and the orders of the shuffles it made), its depth, its successors
(for the loops, properties.py) and whether the game is over there. Only the frontier keeps whole
states; a state is rebuilt by replaying its steps from its deal (report.py).
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import PlayError, RulesetError
from .chance import NeedChance, Scripted, TooManyOrders, Unenumerable, card_classes, outcomes
from .encode import Encoder
from .properties import Failure, Properties, failure_kind

Script = tuple[tuple[int, ...], ...]  # the orders of the shuffles one step made
Step = tuple[Any, Script]  # (the move, or None for a deal; its shuffles' orders)


@dataclass
class Graph:
    """The states found: state number -> how it was reached, its depth, its successors."""

    parent: list[int] = field(default_factory=list)  # -1: a deal
    step: list[Step] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    succ: list[tuple[int, ...]] = field(default_factory=list)
    over: bytearray = field(default_factory=bytearray)

    def path(self, sid: int) -> list[Step]:
        """The steps from a deal to state ``sid``: the deal's first."""
        out = []
        while sid >= 0:
            out.append(self.step[sid])
            sid = self.parent[sid]
        return out[::-1]


@dataclass
class Result:
    """What an exploration found (report.py words it)."""

    game: Any
    players: int
    params: dict[str, Any]
    deals: int = 0  # distinct states right after the first deal
    orders: int = 0  # orders of the decks dealt (alike cards alike)
    states: int = 0  # successor states computed (with repeats)
    distinct: int = 0
    depth: int = 0
    seconds: float = 0.0
    cut: str | None = None  # why the space was not covered, or None
    failures: list[Failure] = field(default_factory=list)
    properties: list[tuple[str, str, str | None]] = field(default_factory=list)  # (name, words, at)
    unreached: list[tuple[str, str, str | None]] = field(default_factory=list)  # (at, kind, note)
    graph: Graph = field(default_factory=Graph)
    classes: tuple[int, ...] = ()
    keys: dict[bytes, int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.cut is None

    @property
    def exit_code(self) -> int:
        """0 every property holds everywhere; 1 one fails; 3 none failed but the space was cut off."""
        if self.failures:
            return 1
        return 0 if self.complete else 3


def explore(
    game: Any,
    players: int,
    params: dict[str, Any] | None = None,
    max_states: int = 500_000,
    progress: Callable[[int, int, float], None] | None = None,
) -> Result:
    """Explore every reachable state of ``game`` (compiled with coverage, for the unreached rules)
    with ``players`` seats, up to ``max_states`` distinct states."""
    game.check_players(players)
    values = game.param_values(players, params)
    result = Result(game, players, values)
    classes = result.classes = card_classes(game)
    encoder = Encoder(game, classes, players)
    props = Properties(game, players)
    result.properties = props.names()
    graph, keys = result.graph, result.keys
    found: dict[tuple[str, str], Failure] = {}
    frontier: deque[tuple[int, Any]] = deque()
    start = time.perf_counter()

    def fail(kind: str, message: str, at: str | None, sid: int, step: Step | None = None) -> None:
        if (kind, at or "") not in found:
            found[(kind, at or "")] = Failure(kind, message, at, sid, step)

    def add(state: Any, parent: int, step: Step) -> int:
        key = encoder.key(state)
        sid = keys.get(key)
        if sid is not None:
            return sid
        if len(keys) >= max_states:
            raise _Budget
        sid = keys[key] = len(graph.parent)
        graph.parent.append(parent)
        graph.step.append(step)
        d = graph.depth[parent] + 1 if parent >= 0 else 0
        graph.depth.append(d)
        graph.succ.append(())
        graph.over.append(1 if state.over else 0)
        result.depth = max(result.depth, d)
        for kind, message, at in props.check(state):
            fail(kind, message, at, sid)
        if not state.over:
            frontier.append((sid, state))
        return sid

    with _Collector() as collector:
        limit = max(max_states, 1)
        try:
            for script, got in outcomes(
                _attempt(lambda rng: game.new_game(players, None, values, chance=rng)), classes, limit
            ):
                result.orders += 1
                if isinstance(got, BaseException):
                    fail(*failure_kind(got), -1, (None, script))
                else:
                    known = len(keys)
                    add(got, -1, (None, script))
                    result.deals += len(keys) - known
            while frontier:
                if len(keys) >= max_states:
                    result.cut = (
                        f"--max-states {max_states:,} reached with {len(frontier):,} states not yet explored "
                        f"(depth {graph.depth[frontier[0][0]]})"
                    )
                    break
                sid, state = frontier.popleft()
                try:
                    moves = list(state.legal_moves())
                except RulesetError as err:
                    fail(*failure_kind(err), sid)
                    continue
                if not moves:
                    fail("deadlock", f"seat {state.current} is to move but has no legal move", None, sid)
                    continue
                kids: list[int] = []
                try:
                    for move in moves:
                        for script, got in successors(state, move, classes, limit):
                            result.states += 1
                            if isinstance(got, BaseException):
                                fail(*failure_kind(got), sid, (move, script))
                            else:
                                kids.append(add(got, sid, (move, script)))
                finally:  # (cut off amid a state: the successors found so far, for the loops)
                    graph.succ[sid] = tuple(kids)
                if progress and sid % 500 == 0:
                    progress(len(keys), max_states, time.perf_counter() - start)
                collector.tick(len(keys))
        except _Budget:
            result.cut = f"--max-states {max_states:,} reached with {len(frontier):,} states not yet explored" + (
                f" (depth {graph.depth[frontier[0][0]]})" if frontier else ""
            )
        except TooManyOrders as err:
            result.cut = f"{err}: more than --max-states {max_states:,}; shrink the deck (see docs/verify.md)"
        except Unenumerable as err:
            raise PlayError(f"verify cannot list every outcome of chance: {err}") from None
    result.distinct = len(keys)
    result.states += result.orders
    result.failures = sorted(found.values(), key=lambda f: graph.depth[f.state] if f.state >= 0 else -1)
    loop = props.loop(graph)
    if loop is not None:
        result.failures.append(loop)
    result.failures += props.never_held()
    result.unreached = props.unreached(result.complete) if result.distinct else []
    result.seconds = time.perf_counter() - start
    if progress:
        progress(len(keys), len(keys), result.seconds)
    return result


class _Collector:
    """Python's cycle collector, paused while the states pile up: its full passes walk every state
    kept, again and again as they grow (a third of the time, on shrunk AMIGO). A state holds no
    cycle (_play unlinks its chance from it), but a rule's closures may: one pass whenever the
    states kept have doubled collects those, in time linear overall."""

    def __enter__(self) -> _Collector:
        self.was, self.next = gc.isenabled(), 50_000
        gc.disable()
        return self

    def tick(self, states: int) -> None:
        if states >= self.next:
            gc.collect()
            self.next = 2 * states

    def __exit__(self, *exc: object) -> None:
        if self.was:
            gc.enable()


class _Budget(Exception):
    """As many distinct states as --max-states allows: the exploration stops."""


def successors(state: Any, move: Any, classes: tuple[int, ...], limit: int) -> Any:
    """Each way chance can go when ``move`` is played from ``state``: (the script of the shuffles'
    orders, the state reached or the error the rules raised). A move that shuffles nothing (most)
    is played once, directly; one that shuffles is played again for every order (chance.outcomes)."""
    try:
        return (((), _play(state, move, Scripted((), classes))),)
    except NeedChance:
        return outcomes(_attempt(lambda rng: _play(state, move, rng)), classes, limit)
    except (Unenumerable, TooManyOrders):
        raise
    except Exception as err:  # a rule that breaks the engine is a counterexample, not a crash
        return (((), err),)


def _play(state: Any, move: Any, rng: Scripted) -> Any:
    """A copy of ``state`` with ``move`` played, chance drawn from ``rng``."""
    child = state.copy(memo=True)
    rng.state = child
    child.rng = rng
    child.moves_in_round = 0  # (verify finds endless rounds as loops in the graph)
    child.apply(move)
    rng.state = None  # (no cycle from the state to itself: the garbage collector stays off, explore)
    return child


def _attempt(step: Callable[[Scripted], Any]) -> Callable[[Scripted], Any]:
    """``step``, with the rules failing (a PlayError, an engine error) given as a value."""

    def run(rng: Scripted) -> Any:
        try:
            return step(rng)
        except (NeedChance, Unenumerable, TooManyOrders):
            raise
        except Exception as err:  # a rule that breaks the engine is a counterexample, not a crash
            return err

    return run
