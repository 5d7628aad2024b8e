"""Playing many games with agents: per-seat statistics, throughput, and records as they finish."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..agents import make_agents
from ..engine.game import Game
from ..engine.scoring import team_seats
from .parallel import chunks, make_job, with_progress
from .recordfile import RecordFile


def simulate(
    game: Game,
    players: int,
    games: int,
    seed: int | None = 0,
    agents: str | list[str] | None = None,
    params: dict[str, Any] | None = None,
    record_to: str | Path | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    jobs: int = 1,
    scheduler: Any = None,
    count_rules: bool = True,
    keep: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games and return their statistics (see docs/simulation.md for the fields).

    ``jobs`` > 1 plays them over local processes, ``scheduler`` (an address or a dask Client) on
    a dask.distributed cluster; either way the statistics and records equal a serial run's.
    ``count_rules=False`` skips counting rule firings (a little faster; ``rules`` is then empty).
    ``keep``, a list, receives each game's outcome (winners, totals, moves) in game-index order.
    """
    from .rule_counts import rule_table
    from .tally import Tally

    if games < 1:  # (the command line refuses it too: --games takes a number of at least 1)
        raise ValueError(f"simulate needs at least one game, not {games}")
    game.check_players(players)  # before the agents: their count is checked against it
    names = [a.name for a in make_agents(agents, players, seed)]
    values = game.param_values(players, params)  # a bad --set fails here, before any game
    tally = Tally(
        players, names, game.winner_highest, team_seats(game.ir.get("teams"), players), cooperative=game.cooperative
    )
    job = make_job(game, players, seed, names, params, record_to is not None, count_rules)
    out = RecordFile(record_to) if record_to else None  # whole lines, even when interrupted
    start = time.perf_counter()
    try:
        for chunk in with_progress(chunks(job, games, jobs, scheduler), games, progress):
            for result in chunk.outcomes:
                tally.add(result)
            if keep is not None:
                keep.extend(chunk.outcomes)
            tally.coverage.update(chunk.coverage)
            tally.coverage_squares.update(chunk.squares)
            if out:
                for line in chunk.lines:
                    out.write_line(line)  # one whole line a write, flushed
    except KeyboardInterrupt as err:
        if out:
            raise out.interrupted(err) from None
        raise
    finally:
        if out:
            out.close()
    seconds = max(time.perf_counter() - start, 1e-9)
    if game.coverage is not None:  # a Game compiled with coverage counts this run's firings too
        game.coverage.update(tally.coverage)
    return {
        "ruleset": game.name,
        "players": players,
        "games": games,
        "seed": seed,
        "agents": names,
        "params": values,
        **tally.summary(),
        "rules": rule_table(game.ir, tally.coverage, tally.coverage_squares, games) if count_rules else [],
        "seconds": seconds,
        "games_per_second": games / seconds,
        "moves_per_second": tally.moves.total / seconds,
        "jobs": jobs,
    }
