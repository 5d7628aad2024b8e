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
from itertools import islice
from typing import Any

from ..engine.deal import deal, shuffle_decks
from ..engine.state import State
from ..errors import PlayError, RulesetError
from . import move_memo, score_memo
from .chance import (
    NeedChance,
    Scripted,
    TooManyOrders,
    Unenumerable,
    card_classes,
    first_outcome,
    outcomes,
    outcomes_by_place,
)
from .encode import Encoder
from .order import dealt_by_place
from .properties import Failure, Properties, failure_kind

Script = tuple[tuple[int, ...], ...]  # the orders of the shuffles one step made
PROBES = 100  # orders of the decks tried for a deal the rules make, to read the deal's places from
Step = tuple[Any, Script]  # (the move, or None for a deal; its shuffles' orders)


@dataclass
class Graph:
    """The states found: state number -> how it was reached, its depth, its successors."""

    parent: list[int] = field(default_factory=list)  # -1: a deal
    step: list[Step] = field(default_factory=list)
    edge: list[int] = field(default_factory=list)  # a deal's order's number; a move's, times 2^20, plus its outcome's
    depth: list[int] = field(default_factory=list)
    succ: list[tuple[int, ...]] = field(default_factory=list)
    tried: list[int] = field(default_factory=list)  # the steps tried from the state (-1: not explored)
    over: bytearray = field(default_factory=bytearray)

    def path(self, sid: int) -> list[Step]:
        """The steps from a deal to state ``sid``: the deal's first."""
        out = []
        while sid >= 0:
            out.append(self.step[sid])
            sid = self.parent[sid]
        return out[::-1]

    def rank(self, sid: int) -> tuple[int, ...]:
        """The numbers of the deal and the moves that lead to ``sid``: breadth-first order is
        (depth, rank), whichever deals were explored together (jobs.py)."""
        out = []
        while sid >= 0:
            out.append(self.edge[sid])
            sid = self.parent[sid]
        return tuple(out[::-1])


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
    keys: dict[str, int] = field(default_factory=dict)
    held: set[str] = field(default_factory=set)  # the `sometimes` checks that held in some state

    @property
    def complete(self) -> bool:
        return self.cut is None

    @property
    def exit_code(self) -> int:
        """0 every property holds everywhere; 1 one fails; 3 none failed but the space was cut off."""
        if self.failures:
            return 1
        return 0 if self.complete else 3


def deals(game: Any, players: int, values: dict[str, Any], classes: tuple[int, ...], limit: int) -> Any:
    """Every deal: (number, script of the orders, the state dealt or the error the rules raised);
    or (number, None, n) for n orders in a row that deal what earlier ones did, not dealt again
    (chance.outcomes_by_place), numbered from the first of them."""
    step = _dealing(game, players, values)
    by_place = _deal_places(game, players, step, classes, limit)
    if by_place is None:
        dealt: Any = outcomes(step, classes, limit)
    else:
        dealt = outcomes_by_place(step, classes, limit, *by_place)
    i = 0
    for script, got in dealt:
        yield i, script, got
        i += 1 if script is not None else got


def _deal_places(game: Any, players: int, step: Callable[[Scripted], Any], classes: tuple[int, ...], limit: int) -> Any:
    """(the decks' shuffles, the places each zone instance's cards come from, the zones keyed as
    sorted hands) when the deal places cards by place alone; else None. The places are read from
    a probe: the first deal's state, its decks shuffled and dealt again in the first order (its
    round's parameters and schedule are the deal's: the amounts read nothing else, order.py)."""
    if not dealt_by_place(game.ir) or max(classes, default=0) >= 255:
        return None
    script, first, shuffles = first_outcome(step, classes, limit)
    if len(shuffles) != len(game.cards.deck_names):
        return None  # (a shuffle besides the decks' at the round's start)
    if isinstance(first, BaseException):  # (the rules fail in the first deal: a later one for the probe)
        dealt = (out for out in islice(outcomes(step, classes, limit), PROBES) if isinstance(out[1], State))
        script, first = next(dealt, (script, first))
        if isinstance(first, BaseException):
            return None
    if first.round != 0:
        return None  # (the round over already: another dealer, another schedule)
    script = script[: len(shuffles)]
    probe = first.copy(memo=False, chance=Scripted(script, classes), log=False)
    try:
        shuffle_decks(probe)
        deal(probe)
    except Exception:  # (the deal itself fails: each order is dealt, its error its own)
        return None
    place = {c: k for k, c in enumerate(c for order in script for c in order)}
    if len(place) > 255:
        return None  # (a place a byte: chance.outcomes_by_place; no such deck has orders few enough)
    places = []
    for z in probe.zones:
        cards = [c for pile in z for c in pile] if z and type(z[0]) is list else z
        places.append([place[c] for c in cards])
    return shuffles, places, Encoder(game, classes, players).sorted_at


def begin(game: Any, players: int, params: dict[str, Any] | None) -> tuple[Result, Encoder, Properties]:
    """An exploration's empty result (the parameters in force, the card classes, the properties
    named), the keys of its states and its properties."""
    game.check_players(players)
    result = Result(game, players, game.param_values(players, params))
    result.classes = card_classes(game)
    props = Properties(game, players)
    result.properties = props.names()
    return result, Encoder(game, result.classes, players), props


def explore(
    game: Any,
    players: int,
    params: dict[str, Any] | None = None,
    max_states: int = 500_000,
    progress: Callable[[int, int, float], None] | None = None,
    roots: list[tuple[int, Script]] | None = None,
) -> Result:
    """Explore every reachable state of ``game`` (compiled with coverage, for the unreached rules)
    with ``players`` seats, up to ``max_states`` distinct states; from the deals ``roots`` only
    (their numbers and scripts, as ``deals`` gives them) when given (jobs.py)."""
    result, encoder, props = begin(game, players, params)
    values, classes = result.params, result.classes
    graph, keys = result.graph, result.keys
    found: dict[tuple[str, str], Failure] = {}
    frontier: deque[tuple[int, Any]] = deque()
    start = time.perf_counter()
    # where the search is, in its order: (depth and rank of the state explored, move, outcome)
    here: list = [-1, (), 0, 0]

    def fail(kind: str, message: str, at: str | None, sid: int, step: Step | None = None) -> None:
        if (kind, at or "") not in found:
            depth = graph.depth[sid] if sid >= 0 else -1
            where = (here[0], graph.rank(here[1]) if here[0] >= 0 else here[1], here[2], here[3])
            found[(kind, at or "")] = Failure(kind, message, at, sid, step, depth=depth, found=where)

    parents, steps, edges, depths = graph.parent, graph.step, graph.edge, graph.depth
    succs, tries, overs = graph.succ, graph.tried, graph.over

    def add(state: Any, parent: int, step: Step, edge: int) -> int:
        key = encoder.key(state)
        sid = keys.get(key)
        return sid if sid is not None else new(key, state, parent, step, edge)

    def new(key: str, state: Any, parent: int, step: Step, edge: int) -> int:
        """A state not found before: numbered, checked, and to explore unless the game is over."""
        if len(keys) >= max_states:
            raise _Budget
        sid = keys[key] = len(parents)
        parents.append(parent)
        steps.append(step)
        edges.append(edge)
        depths.append(depths[parent] + 1 if parent >= 0 else 0)
        succs.append(())
        tries.append(-1)
        overs.append(state.over)
        for kind, message, at in props.check(state):
            fail(kind, message, at, sid)
        if not state.over:
            frontier.append((sid, state))
        return sid

    plain = Scripted((), classes)  # the chance of every move that shuffles nothing
    alike = encoder.alike
    with _Collector() as collector, _Memos(game, players):
        limit = max(max_states, 1)
        try:
            if roots is None:
                dealt: Any = deals(game, players, values, classes, limit)
            else:
                dealt = ((i, script, _dealt(game, players, values, classes, script)) for i, script in roots)
            for i, script, got in dealt:
                if script is None:  # (deals earlier orders gave: states reached again)
                    result.orders += got
                    continue
                result.orders += 1
                here[1] = (i,)
                if isinstance(got, BaseException):
                    fail(*failure_kind(got), -1, (None, script))
                else:
                    known = len(keys)
                    add(got, -1, (None, script), i)
                    result.deals += len(keys) - known
            while frontier:
                if len(keys) >= max_states:
                    result.cut = (
                        f"--max-states {max_states:,} reached with {len(frontier):,} states not yet explored "
                        f"(depth {graph.depth[frontier[0][0]]})"
                    )
                    break
                sid, state = frontier.popleft()
                here[:] = [graph.depth[sid], sid, -1, -1]
                try:
                    moves = list(state.legal_moves())
                except RulesetError as err:
                    fail(*failure_kind(err), sid)
                    graph.tried[sid] = 0
                    continue
                if not moves:
                    fail("deadlock", f"seat {state.current} is to move but has no legal move", None, sid)
                    graph.tried[sid] = 0
                    continue
                kids: list[int] = []
                tried = 0
                played: dict | None = None  # a move's class (Encoder.move_class) -> the state it led to
                try:
                    for m, move in enumerate(moves):
                        here[2] = m
                        c = move.card  # (by name: a Move's item by number is a call in Python)
                        same = encoder.move_class(state, move) if c >= 0 and alike[c] else None
                        if same is not None and played is not None:
                            kid = played.get(same)
                            if kid is not None:  # (an alike card's move played already: its state again)
                                tried += 1
                                kids.append(kid)
                                continue
                        # the usual move, that shuffles nothing: played once, here (successors')
                        child = state.copy(memo=True, chance=plain, log=False)
                        plain.state = child
                        child.moves_in_round = 0  # (verify finds endless rounds as loops in the graph)
                        try:
                            child.apply(move)
                        except Exception:  # (chance to enumerate, or the rules failing: successors)
                            child = None
                        finally:
                            plain.state = None
                        if child is not None:
                            here[3] = 0
                            tried += 1
                            key = encoder.key(child)
                            kid = keys.get(key)
                            if kid is None:
                                kid = new(key, child, sid, (move, ()), m << 20)
                            kids.append(kid)
                            if same is not None:
                                if played is None:
                                    played = {}
                                played[same] = kid
                            continue
                        for o, (script, got) in enumerate(successors(state, move, plain, limit)):
                            here[3] = o
                            tried += 1
                            if isinstance(got, BaseException):
                                fail(*failure_kind(got), sid, (move, script))
                            else:
                                kids.append(add(got, sid, (move, script), (m << 20) + o))
                finally:  # (cut off amid a state: the successors found so far, for the loops)
                    graph.succ[sid] = tuple(kids)
                    result.states += tried
                graph.tried[sid] = tried
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
    result.depth = max(graph.depth, default=0)
    result.states += result.orders
    result.failures = sorted(found.values(), key=lambda f: f.depth)
    loop = props.loop(graph)
    if loop is not None:
        loop.depth = graph.depth[loop.state]
        loop.found = (loop.depth, graph.rank(loop.state))
        result.failures.append(loop)
    result.held = props.seen
    result.failures += props.never_held()
    result.unreached = props.unreached(result.complete) if result.distinct else []
    result.seconds = time.perf_counter() - start
    if progress:
        progress(len(keys), len(keys), result.seconds)
    return result


def _dealt(game: Any, players: int, values: dict[str, Any], classes: tuple[int, ...], script: Script) -> Any:
    """The deal a script gives (or the error the rules raised)."""
    return _dealing(game, players, values)(Scripted(script, classes))


def _dealing(game: Any, players: int, values: dict[str, Any]) -> Callable[[Scripted], Any]:
    """The step that deals a game with the given chance (the rules' errors given as a value),
    keeping no round log (as the states played from it, _play). ``values``: the parameters as
    ``begin`` worked them out, for the players checked there (Game.new_game would work them out
    again for every order of the deck)."""
    return _attempt(lambda rng: State(game, players, None, values, chance=rng, log=False))


class _Collector:
    """Python's cycle collector, paused while the states pile up: its full passes walk every state
    kept, again and again as they grow (a third of the time, on a shrunk game). A state holds no
    cycle (_play unlinks its chance from it), nor does the search (chance.orders made one per
    shuffle listed, once); a pass whenever the states kept have doubled collects what a rule's
    closures might leave, in time linear overall. At the end, what the search keeps (its graph)
    goes to the oldest generation unscanned: the first young collection after it would otherwise
    walk every object made since it began (a twentieth of the time)."""

    def __enter__(self) -> _Collector:
        self.was, self.next = gc.isenabled(), 50_000
        gc.disable()
        return self

    def tick(self, states: int) -> None:
        if states >= self.next:
            gc.collect()
            self.next = 2 * states

    def __exit__(self, *exc: object) -> None:
        gc.freeze()  # (every object tracked: to the permanent generation, then to the oldest)
        gc.unfreeze()
        if self.was:
            gc.enable()


class _Memos:
    """The game's memos of scoring (score_memo.py) and of its rules' legal moves (move_memo.py)
    for the search's time: a game played later scores and lists every state afresh."""

    def __init__(self, game: Any, players: int):
        self.game, self.players = game, players

    def __enter__(self) -> None:
        score_memo.install(self.game, self.players)
        self.moves = move_memo.install(self.game, self.players)

    def __exit__(self, *exc: object) -> None:
        score_memo.uninstall(self.game)
        move_memo.uninstall(self.moves)


class _Budget(Exception):
    """As many distinct states as --max-states allows: the exploration stops."""


def successors(state: Any, move: Any, plain: Scripted, limit: int) -> Any:
    """Each way chance can go when ``move`` is played from ``state``: (the script of the shuffles'
    orders, the state reached or the error the rules raised). A move that shuffles nothing (most)
    is played once, directly, with ``plain`` (an empty script, which no such move advances: one
    for every state); one that shuffles is played again for every order (chance.outcomes)."""
    try:
        return (((), _play(state, move, plain)),)
    except NeedChance:
        return outcomes(_attempt(lambda rng: _play(state, move, rng)), plain.classes, limit)
    except (Unenumerable, TooManyOrders):
        raise
    except Exception as err:  # a rule that breaks the engine is a counterexample, not a crash
        return (((), err),)


def _play(state: Any, move: Any, rng: Scripted) -> Any:
    """A copy of ``state`` with ``move`` played, chance drawn from ``rng``; the copy keeps no
    round log (no property, guard nor key reads it; a counterexample is replayed, report.py)."""
    child = state.copy(memo=True, chance=rng, log=False)
    rng.state = child
    child.moves_in_round = 0  # (verify finds endless rounds as loops in the graph)
    try:
        child.apply(move)
    finally:
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
