"""Which agents play evaluate's observed run by default: the strongest rung of the skill ladder
whose work fits a budget, the work *counted* (engine moves), never timed, so that the choice, and
every figure after it, is the same on any machine.

A few random games (the pilot) tell the shape of the game: at each decision with a choice, how
many moves of the round came before it (a sampled world replays them), how many follow it (a
playout plays them) and how many moves are legal (greedy tries each); a few samples of the
agents' world sampler (agents/belief.py) at some of those decisions tell how many replays it
takes to find one world. An agent's cost per game is then its moves of search at each decision
plus the game's own moves; a rung fits when ``games`` games cost no more than the budget.
"""

from __future__ import annotations

import random
from typing import Any

from ..agents import SeatView, make_agent
from ..agents.belief import Belief
from ..agents.greedy import GreedyAgent
from ..agents.mcts import EMPTY_MISSES, MctsAgent
from ..agents.random_agent import RandomAgent
from ..engine.game import Game
from ..errors import RulesetError
from .one_game import game_seed

PILOT_GAMES = 2  # random games that tell the game's shape
GREEDY_REPLAYS = 20  # most replays a greedy sample takes: 12 fresh deals, 8 kept from earlier
# a scoring of the round costs about as much as this many moves (measured on shipped rules and classics:
# greedy, which scores each move it tries, in three games of each)
SCORING = 6
PROBES = 12  # decisions a pilot game where the sampler is tried (evenly spread over the game)


class Pilot:
    """The decisions of a few random games: (moves of the round before, after, legal moves) each,
    the game's own moves per game, and the sampler's replays per world found."""

    def __init__(self, decisions: list[tuple[int, int, int]], moves: float, replays: float):
        self.decisions, self.moves, self.replays = decisions, moves, replays


def pilot(game: Game, players: int, seed: int | None, params: dict[str, Any] | None) -> Pilot:
    """Play ``PILOT_GAMES`` random games (seeded from ``seed``) and count what an agent's search costs
    in them; the game's rule counts are left as they were."""
    counts = game.coverage
    saved = counts.copy() if counts is not None else None
    try:
        return _pilot(game, players, seed, params)
    finally:
        if saved is not None:
            counts.clear()
            counts.update(saved)


def _pilot(game: Game, players: int, seed: int | None, params: dict[str, Any] | None) -> Pilot:
    decisions: list[tuple[int, int, int]] = []
    total = tries = found = 0
    for i in range(PILOT_GAMES):
        s = game_seed(seed, 10_000 + i)  # (not the observed games' seeds: a pilot, not a sample of them)
        state = game.new_game(players, s, params)
        agents = [RandomAgent(seat, s) for seat in range(players)]
        rng = random.Random(f"{s}:pilot")
        rounds: list[list[tuple[int, int, Any]]] = [[]]  # per round: (moves before, legal, what the seat saw)
        lengths: list[int] = []  # moves per round
        round_index, before = state.round, 0
        while not state.over:
            if state.round != round_index:
                rounds.append([])
                lengths.append(before)
                round_index, before = state.round, 0
            seat = state.current
            view = SeatView(state, seat)
            legal = len(view.legal_moves)
            if legal > 1:
                rounds[-1].append((before, legal, view.observation()))
            state.apply(agents[seat].choose(view))
            before += 1
            total += 1
        lengths.append(before)
        flat = [d for r in rounds for d in r]
        step = max(1, len(flat) // PROBES)
        for k, (moves_before, _, obs) in enumerate(flat):
            if k % step == 0 and moves_before:
                belief = Belief(game, obs, rng, {})
                try:
                    worlds = sum(belief.sample(attempts=4) is not None for _ in range(2))
                except RulesetError:  # (the rules fail in a sampled world: the agents will say so, not the pilot)
                    worlds = 0
                tries += belief.failures + worlds
                found += worlds
        for r, length in zip(rounds, lengths, strict=True):
            decisions += [(b, length - b, legal) for b, legal, _ in r]
    replays = tries / found if found else float(tries or 1)
    return Pilot(decisions, total / PILOT_GAMES, replays)


def cost(spec: str, shape: Pilot) -> float | None:
    """Engine moves a game of ``spec`` in every seat costs, by the pilot's count, a scoring of the
    round counted as ``SCORING`` moves (None: an agent searching for a time, not a count of
    iterations, has no cost to count). The observed game scores the round after each of its moves."""
    agent = make_agent(spec, 0, 0)
    if isinstance(agent, RandomAgent):
        search = 0.0
    elif isinstance(agent, GreedyAgent):  # a sample: replays of the round (it gives up after 12 fresh deals
        world = min(shape.replays, GREEDY_REPLAYS)  # and those that fitted before), then each move tried, scored
        search = sum(agent.samples * (world * before + legal * SCORING) for before, _, legal in shape.decisions)
    elif isinstance(agent, MctsAgent) and agent.time <= 0:  # its worlds' replays (it gives up after a count of
        n, depth = agent.iterations, agent.depth  # misses), then a playout an iteration, scored at its end
        sampling = min(min(agent.samples, n) * shape.replays, min(n, EMPTY_MISSES) * 3)
        search = sum(
            sampling * before + n * ((min(after, depth) if depth else after) + SCORING)
            for before, after, _ in shape.decisions
        )
    else:
        return None
    return shape.moves * (1 + SCORING) + search / PILOT_GAMES


def choose_observer(
    game: Game,
    players: int,
    games: int,
    seed: int | None,
    params: dict[str, Any] | None,
    rungs: list[str] | tuple[str, ...],
    budget: float,
) -> dict[str, Any]:
    """The strongest of ``rungs`` (weakest first) whose ``games`` games fit ``budget`` engine moves,
    with every rung's estimated cost: ``{"by": "budget", "agent", "why", "budget", "costs": [{"agent",
    "moves", "fits"}]}``.
    The weakest rung is chosen when none fits."""
    shape = pilot(game, players, seed, params)
    costs = []
    for spec in rungs:
        per_game = cost(spec, shape)
        moves = None if per_game is None else round(per_game * games)
        costs.append(
            {"agent": make_agent(spec, 0, seed).name, "moves": moves, "fits": moves is not None and moves <= budget}
        )
    fitting = [c for c in costs if c["fits"]]
    chosen = fitting[-1] if fitting else costs[0]
    stronger = costs[costs.index(chosen) + 1 :]
    names, of = ", ".join(c["agent"] for c in costs), f"the budget of {budget:,} engine moves"
    why = f"the strongest agent of {names} whose {games} games fit {of}"
    if not fitting:
        why = f"the weakest agent of {names}: none fits {of}"
    if stronger and stronger[0]["moves"] is not None:
        why = f"{why} ({stronger[0]['agent']} would need about {stronger[0]['moves']:,})"
    return {"by": "budget", "agent": chosen["agent"], "why": why, "budget": budget, "costs": costs}
