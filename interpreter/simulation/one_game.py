"""One game: its seed, derived from a run's seed, and its play to the end by agents."""

from __future__ import annotations

import random
from typing import Any

from ..agents import SeatView, make_agents
from ..engine.game import Game


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
    choosers = [agent.choose for agent in seats]
    apply = state.apply
    while not state.over:  # (is_over and current_player, without their property calls)
        seat = state.current
        apply(choosers[seat](views[seat]))
    return state
