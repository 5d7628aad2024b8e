"""One game: its seed, derived from a run's seed, and its play to the end by agents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..agents import SeatView, make_agents
from ..agents.base import seeded_random
from ..engine.game import Game
from ..errors import PlayError

if TYPE_CHECKING:  # (the compiled engine's types: one_game.pxd cimports State, whose fields and
    # cpdef methods a `state: State` reads and calls in place, not by name)
    from ..engine.state import State


def game_seed(run_seed: int | None, index: int) -> int:
    """Game ``index``'s seed, derived from the run's seed (the same in any order or process):
    ``random.Random(f"{run_seed}/{index}").randrange(2**31)``, drawn as randrange draws it
    (32 bits, again while the number is 2**31 or more)."""
    bits = seeded_random(f"{run_seed}/{index}").getrandbits
    r = bits(32)
    while r >= 2**31:
        r = bits(32)
    return r


class Seats:
    """A run's agents, made once and set again for each game: when every agent of a seating can be
    seeded again in place (``reseed(seed)``: the agent ``make_agents`` would make for that seed), the
    same agents play each game of the run; otherwise each game makes its own."""

    def __init__(self, players: int):
        self.players = players
        self.kept: dict[tuple[str, ...], list[Any]] = {}  # by the agents' names, seat by seat

    def for_game(self, agents: list[str], seed: int | None) -> list[Any]:
        """The agents of one game of the run, by seat, as ``make_agents(agents, players, seed)``."""
        kept = self.kept.get(tuple(agents))
        if kept is None:
            seats = make_agents(agents, self.players, seed)
            if all(hasattr(agent, "reseed") for agent in seats):
                self.kept[tuple(agents)] = seats
            return seats
        for agent in kept:
            agent.reseed(seed)
        return kept


def play_game(
    game: Game,
    players: int,
    seed: int | None,
    agents: str | list[str] | None = None,
    params: dict[str, Any] | None = None,
    seats: Seats | None = None,
) -> Any:
    """Play one game to its end with the named agents (a list of names when ``seats``, a run's Seats,
    makes them); returns the final State. The rules' `always` and `never` checks are asserted after
    every move (a PlayError when one breaks)."""
    state: State = game.new_game(players, seed, params)
    agents_by_seat = make_agents(agents, players, seed) if seats is None else seats.for_game(agents, seed)
    checks = [c for c in game.checks if c.kind != "sometimes"]
    picks: list = [getattr(agent, "pick", None) for agent in agents_by_seat]
    if not checks and None not in picks:  # agents that read the legal moves alone (base.Agent)
        while not state.over:  # (compiled: the fields read and the methods called in place)
            state.apply(picks[state.current](state.legal_moves()))
        return state
    views: list = [SeatView(state, seat) for seat in range(players)]
    choosers: list = [agent.choose for agent in agents_by_seat]
    if checks:
        return _asserting(state, choosers, views, checks, seed)
    while not state.over:  # (is_over and current_player, without their property calls)
        seat = state.current
        state.apply(choosers[seat](views[seat]))
    return state


def _asserting(state: Any, choosers: list, views: list, checks: list, seed: int | None) -> Any:
    """``play_game``'s loop, with the rules' checks read in every state."""
    moves = 0
    while True:
        for c in checks:
            if c.broken(state):
                raise PlayError(
                    f"the rules' `{c.kind}` check is broken after move {moves} of the game of seed {seed}",
                    c.at,
                    "`ruleset verify` finds the shortest game that breaks it; or simulate with --record and replay",
                )
        if state.over:
            return state
        seat = state.current
        state.apply(choosers[seat](views[seat]))
        moves += 1
