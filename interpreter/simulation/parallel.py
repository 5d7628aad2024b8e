"""Playing a run's games in chunks: in this process, over local processes (``--jobs N``), or on a
dask.distributed cluster (``--scheduler ADDRESS``, the optional extra ``cluster``).

Each game's seed comes from the run's seed and the game's index (``game_seed``), and every
worker compiles the same IR, so a game plays the same wherever it runs. Chunks come back in
game-index order, whatever order they finished in, so the statistics and the records of a run
are identical however it was spread.
"""

from __future__ import annotations

import hashlib
import json
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.game import Game, compile_ir
from ..engine.records import dumps, record
from ..errors import RulesetError
from .one_game import Seats, game_seed, play_game
from .tally import RuleTally, outcome, taken_in_turns


@dataclass(frozen=True)
class Job:
    """What a worker needs to play any game of a run: plain, picklable data."""

    ir: dict[str, Any]
    players: int
    seed: int | None
    agents: list[str]
    params: dict[str, Any] | None = None
    records: bool = False
    key: str = field(default="", compare=False)  # the IR's content_key, given to a job sent to a cluster
    count_rules: bool = True
    max_moves: int | None = None  # the game's bound on moves per round, when it was set by hand
    rotate: bool = False  # game i seats the agents turned i places: agents[0] sits at seat i % players
    observe: bool = False  # each outcome also holds the game's quality observation (measures.py)


def make_job(
    game: Game,
    players: int,
    seed: int | None,
    agents: list[str],
    params: Any,
    records: bool,
    count_rules: bool = True,
    rotate: bool = False,
    observe: bool = False,
) -> Job:
    """The Job of a run. A game compiled as the job's would be (no rule counts asked, none kept by
    the game, the same bound on moves) is the one its games play in this process, not compiled again."""
    params = dict(params) if params else None
    bound = game.max_moves_per_round
    job = Job(game.ir, players, seed, list(agents), params, records, "", count_rules, bound, rotate, observe)
    if not count_rules and game.coverage is None:
        _games()[_identity(job)] = (game.ir, game)
    return job


def content_key(ir: dict[str, Any]) -> str:
    """A digest of an IR's content: the key of a job sent to a cluster, whose workers keep one Game
    for every run of the same rules (each receives its own copy of the IR)."""
    return hashlib.sha256(json.dumps(ir, sort_keys=True).encode()).hexdigest()


def seated(agents: list[str], index: int, rotate: bool) -> list[str]:
    """The agents by seat in game ``index``: as given, or turned so that agents[0] sits at index % players."""
    if not rotate:
        return agents
    shift = index % len(agents)
    return agents[-shift:] + agents[:-shift] if shift else agents


@dataclass
class Chunk:
    """The outcomes (and record lines) of games ``start``..``stop - 1``, and how often each rule fired."""

    start: int
    outcomes: list[dict[str, Any]]
    lines: list[str]
    coverage: Counter
    squares: Counter  # per rule, the sum over games of (firings in the game) squared
    error: tuple[type, tuple] | None = None
    present: Counter = field(default_factory=Counter)  # per rule, the games in which it fired


_local = threading.local()


def _games() -> dict[Any, Any]:
    """This thread's compiled Games (threads never share a Game's counters)."""
    cache = getattr(_local, "games", None)
    if cache is None:
        cache = _local.games = {}
    return cache


def _identity(job: Job) -> tuple[int, bool, int | None]:
    """The key of a job's Game by the identity of its IR: found without reading the IR (an entry
    holds the IR itself, so that its id stays this IR's while the entry lives)."""
    return (id(job.ir), job.count_rules, job.max_moves)


def _game(job: Job) -> Game:
    """This thread's Game for a job's IR, compiled with rule counting when the job counts rules."""
    cache = _games()
    mine = _identity(job)
    hit = cache.get(mine)
    if hit is not None and hit[0] is job.ir:
        return hit[1]
    key = f"{job.key}/{job.count_rules}/{job.max_moves}" if job.key else None
    game = cache.get(key) if key else None
    if game is None:
        game = compile_ir(job.ir, coverage=job.count_rules, max_moves=job.max_moves)
        if key:
            cache[key] = game
    cache[mine] = (job.ir, game)
    return game


def play_chunk(job: Job, start: int, stop: int) -> Chunk:
    """Play games ``start``..``stop - 1`` of a run; an error comes back as data, to be raised by the caller."""
    game = _game(job)
    counts = game.coverage
    if counts is not None:
        counts.clear()
    rules = RuleTally(counts)
    outcomes, lines = [], []
    in_turns = taken_in_turns(game)
    seats = Seats(job.players)
    try:
        for index in range(start, stop):
            agents = seated(job.agents, index, job.rotate)
            seed = game_seed(job.seed, index)
            if job.observe:  # (evaluate's observed run: measures imports the search agents, which simulate need not)
                from .measures import play_observed

                state, seen = play_observed(game, job.players, seed, agents, job.params)
                outcomes.append({**outcome(state, in_turns), "observed": seen})
            else:
                state = play_game(game, job.players, seed, agents, job.params, seats)
                outcomes.append(outcome(state, in_turns))
            if job.records:
                lines.append(dumps(record(state, agents)) + "\n")
            rules.add()
    except RulesetError as err:
        return Chunk(start, [], [], Counter(), Counter(), error=(type(err), (err.message, err.span, err.hint)))
    sums, squares, present = rules.counters()
    return Chunk(start, outcomes, lines, sums, squares, present=present)


def ranges(games: int, workers: int, most: int = 100) -> list[tuple[int, int]]:
    """Games split into chunks: about 16 a worker (so all finish within a sixteenth of a worker's share
    of each other; each chunk costs the main process about a millisecond, so more would cost more
    than they balance), at most ``most`` games each."""
    size = max(1, min(most, -(-games // (workers * 16))))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def chunks(job: Job, games: int, jobs: int = 1, scheduler: Any = None) -> Iterator[Chunk]:
    """The run's chunks in game-index order: here, over ``jobs`` processes, or on a dask scheduler."""
    if scheduler is not None:
        yield from _on_dask(job, games, scheduler)
    elif jobs > 1:
        yield from _on_processes(job, games, jobs)
    else:
        for a, b in ranges(games, 1, most=10):
            yield _checked(play_chunk(job, a, b))


def with_progress(
    played: Iterator[Chunk], games: int, progress: Callable[[int, int, float], None] | None
) -> Iterator[Chunk]:
    """The chunks as they come, telling ``progress(done, games, seconds)`` at most 5 times a second and at the end."""
    start = last = time.perf_counter()
    done = 0
    for chunk in played:
        yield chunk
        done += len(chunk.outcomes)
        now = time.perf_counter()
        if progress and (now - last > 0.2 or done == games):
            progress(done, games, now - start)
            last = now


def _checked(chunk: Chunk) -> Chunk:
    """The chunk, or the error its games raised (raised here, in the caller's process)."""
    if chunk.error:
        cls, args = chunk.error
        raise cls(*args)
    return chunk


# ---- local processes ----------------------------------------------------------------------------

_job: Job | None = None
_STOPPING = {signal.SIGINT, signal.SIGTERM}


def _mask(how: int, signals: Any = _STOPPING) -> Any:
    """Block, unblock or set the signals held back from this thread (POSIX); the previous mask."""
    return signal.pthread_sigmask(how, signals) if hasattr(signal, "pthread_sigmask") else None


def _quiet_worker(initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """A pool worker's start: signals as the main process wants them, then the pool's own initializer.

    A forked worker inherits the main process's signal handlers (a record file's, which turns
    SIGTERM into KeyboardInterrupt): a worker takes the defaults back, so that the pool's SIGTERM
    at the end of a run stops it quietly, and leaves Ctrl-C (sent by a terminal to every process
    of the command) to the main process, which stops the pool. Signals stay blocked from the fork
    (see ``quiet_pool``) until these handlers are in place.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _mask(signal.SIG_UNBLOCK)
    if initializer is not None:
        initializer(*initargs)


def quiet_pool(processes: int, initializer: Callable[..., None] | None = None, initargs: tuple = ()) -> Any:
    """A multiprocessing Pool whose workers neither print tracebacks on Ctrl-C nor outlive the run:
    use it in a ``with`` block, whose end terminates them."""
    import multiprocessing

    blocked = _mask(signal.SIG_BLOCK)  # workers (and the pool's threads) start with them blocked
    try:
        return multiprocessing.Pool(processes, initializer=_quiet_worker, initargs=(initializer, initargs))
    finally:
        if blocked is not None:
            _mask(signal.SIG_SETMASK, blocked)


def _init_worker(job: Job) -> None:
    """Pool initializer: keep the run's job and compile its game once per process."""
    global _job
    _job = job
    _game(job)


def _play_range(bounds: tuple[int, int]) -> Chunk:
    """Pool task: play one range of games of the process's job."""
    assert _job is not None
    return play_chunk(_job, *bounds)


def _on_processes(job: Job, games: int, jobs: int) -> Iterator[Chunk]:
    """Chunks played by a pool of ``jobs`` processes, yielded in order as they complete."""
    _game(job)  # compiled here, once: a forked worker starts with it (spawned ones compile their own)
    with quiet_pool(jobs, _init_worker, (job,)) as pool:
        for chunk in pool.imap(_play_range, ranges(games, jobs)):
            yield _checked(chunk)


# ---- dask.distributed -----------------------------------------------------------------------------

INSTALL_CLUSTER = 'the --scheduler option needs dask.distributed: pip install "ruleset-cards[cluster]"'


def _on_dask(job: Job, games: int, scheduler: Any) -> Iterator[Chunk]:
    """Chunks played on a dask.distributed cluster (an address, or a Client), yielded in order."""
    try:
        from distributed import Client
    except ImportError:
        raise RulesetError(INSTALL_CLUSTER, hint='or install it alone: pip install "dask[distributed]"') from None
    own = not isinstance(scheduler, Client)
    try:
        client = Client(scheduler, set_as_default=False) if own else scheduler
    except (OSError, ValueError, TypeError) as err:
        raise RulesetError(
            f"cannot reach the dask scheduler at {scheduler}: {err}",
            hint="start one with `dask scheduler` and workers with `dask worker ADDRESS`",
        ) from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        shared = client.scatter(replace(job, key=job.key or content_key(job.ir)), broadcast=True)
        futures = [client.submit(play_chunk, shared, a, b, pure=False) for a, b in ranges(games, workers)]
        for future in futures:
            chunk = future.result()
            future.release()
            yield _checked(chunk)
    finally:
        if own:
            client.close()
