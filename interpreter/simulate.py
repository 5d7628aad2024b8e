"""Playing many games with agents: per-seat statistics, throughput, and records as they finish."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .agents import SeatView, make_agents
from .game import Game
from .recordfile import RecordFile
from .records import record


def game_seed(run_seed: int | None, index: int) -> int:
    """Game ``index``'s seed, derived from the run's seed (the same in any order or process)."""
    return random.Random(f"{run_seed}/{index}").randrange(2**31)


def play_game(
    game: Game,
    players: int,
    seed: int | None,
    agents: str | list[str] | None = None,
    params: dict[str, Any] | None = None,
) -> Any:
    """Play one game to its end with the named agents; returns the final State."""
    state = game.new_game(players, seed, params)
    seats = make_agents(agents, players, seed)
    views = [SeatView(state, seat) for seat in range(players)]
    while not state.is_over:
        seat = state.current_player
        state.apply(seats[seat].choose(views[seat]))
    return state


def simulate(
    game: Game,
    players: int,
    games: int,
    seed: int | None = 0,
    agents: str | list[str] | None = None,
    params: dict[str, Any] | None = None,
    record_to: str | Path | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games and return their statistics (see docs/cli.md for the fields)."""
    names = [a.name for a in make_agents(agents, players, seed)]
    totals = [0.0] * players
    wins = [0] * players
    moves = rounds = 0
    out = RecordFile(record_to) if record_to else None  # whole lines, even when interrupted
    start = last = time.perf_counter()
    try:
        for i in range(games):
            state = play_game(game, players, game_seed(seed, i), names, params)
            for seat, t in enumerate(state.totals):
                totals[seat] += t
            for seat in state.winners():
                wins[seat] += 1
            moves += sum(len(r["moves"]) for r in state.history)
            rounds += state.rounds
            if out:
                out.write(record(state, names))
            now = time.perf_counter()
            if progress and (now - last > 0.2 or i + 1 == games):
                progress(i + 1, games, now - start)
                last = now
    except KeyboardInterrupt as err:
        if out:
            raise out.interrupted(err) from None
        raise
    finally:
        if out:
            out.close()
    seconds = max(time.perf_counter() - start, 1e-9)
    return {
        "ruleset": game.name,
        "players": players,
        "games": games,
        "seed": seed,
        "agents": names,
        "params": game.param_values(players, params),
        "seats": [
            {
                "seat": s,
                "agent": names[s],
                "mean_score": totals[s] / games if games else 0.0,
                "wins": wins[s],
                "win_rate": wins[s] / games if games else 0.0,
            }
            for s in range(players)
        ],
        "moves_per_game": moves / games if games else 0.0,
        "rounds_per_game": rounds / games if games else 0.0,
        "seconds": seconds,
        "games_per_second": games / seconds,
        "moves_per_second": moves / seconds,
    }
