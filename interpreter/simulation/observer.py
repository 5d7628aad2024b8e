"""Which agents play evaluate's (and tune's) observed games by default: the strongest rung of the
skill ladder whose work fits a budget, the work *counted* (engine moves), never timed, so that the
choice, and every figure after it, is the same on any machine.

A few random games (the pilot) tell the shape of the game: at each decision with a choice, how
many moves of the round came before it (a sampled world that does not follow from the seat's last
one replays them), how many since the same seat's last decision (the world kept from that decision
plays only those on), how many follow it (a playout plays them), how many of the legal moves
differ (greedy tries one of each kind); a few samples of the agents' world sampler
(agents/belief.py) at some of those decisions tell how many replays it takes to find one world. An
agent's cost per game is then its moves of search at each decision plus the game's own moves; a
rung fits when ``games`` games cost no more than the budget.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from ..agents import SeatView, make_agent
from ..agents.belief import Belief
from ..agents.greedy import GreedyAgent
from ..agents.mcts import EMPTY_MISSES, REACH, MctsAgent
from ..agents.random_agent import RandomAgent
from ..engine.game import Game
from ..errors import RulesetError
from . import quality_defaults
from .one_game import game_seed

PILOT_GAMES = 2  # random games that tell the game's shape
GREEDY_REPLAYS = 20  # most replays a greedy sample takes: 12 fresh deals, 8 kept from earlier
# what a decision of a sampling agent costs besides its replays and tries, as so many moves: the
# sampler's fresh game and tables, the seat's observation, the world's copies (measured on shipped
# rules and classics, greedy in every seat: 0.7 to 1.4 ms a decision, 80 to 200 random moves of
# the same game; the lower end, as the tries and scorings are counted apart)
DECISION = 80
# a scoring of the round costs about as much as this many moves (measured on shipped rules and classics:
# greedy, which scores each move it tries, in three games of each)
SCORING = 6
PROBES = 12  # decisions a pilot game where the sampler is tried (evenly spread over the game)


class Decision(NamedTuple):
    """One decision with a choice in a pilot game, by the moves of its round."""

    before: int  # moves of the round before it
    after: int  # moves of the round after it
    since: int  # moves since the same seat's last decision in the round (all before it at its first)
    kinds: int  # legal moves that differ (greedy tries one of each: measures.choices)


class Pilot:
    """The decisions of a few random games, the game's own moves per game, and the sampler's
    replays per world found."""

    def __init__(self, decisions: list[Decision], moves: float, replays: float):
        self.decisions, self.moves, self.replays = decisions, moves, replays


def pilot(game: Game, players: int, seed: int | None, params: dict[str, Any] | None) -> Pilot:
    """Play ``PILOT_GAMES`` random games (seeded from ``seed``) and count what an agent's search costs
    in them; the game's rule counts are left as they were."""
    counts = game.coverage
    saved = counts.snapshot() if counts is not None else None
    try:
        return _pilot(game, players, seed, params)
    finally:
        if saved is not None:
            counts.restore(saved)


def _pilot(game: Game, players: int, seed: int | None, params: dict[str, Any] | None) -> Pilot:
    from .measures import choices

    decisions: list[Decision] = []
    total = tries = found = 0
    for i in range(PILOT_GAMES):
        s = game_seed(seed, 10_000 + i)  # (not the observed games' seeds: a pilot, not a sample of them)
        state = game.new_game(players, s, params)
        agents = [RandomAgent(seat, s) for seat in range(players)]
        rng = random.Random(f"{s}:pilot")
        rounds: list[list[tuple]] = [[]]  # per round: (moves before, since, kinds, what the seat saw)
        lengths: list[int] = []  # moves per round
        round_index, before, last = state.round, 0, {}
        while not state.over:
            if state.round != round_index:
                rounds.append([])
                lengths.append(before)
                round_index, before, last = state.round, 0, {}
            seat = state.current
            view = SeatView(state, seat)
            legal = view.legal_moves
            if len(legal) > 1:
                since = before - last.get(seat, 0)
                rounds[-1].append((before, since, choices(game, legal), view.observation()))
                last[seat] = before
            state.apply(agents[seat].choose(view))
            before += 1
            total += 1
        lengths.append(before)
        flat = [d for r in rounds for d in r]
        step = max(1, len(flat) // PROBES)
        for k, (moves_before, *_, obs) in enumerate(flat):
            if k % step == 0 and moves_before:
                belief = Belief(game, obs, rng, {})
                try:
                    worlds = sum(belief.sample(attempts=4) is not None for _ in range(2))
                except RulesetError:  # (the rules fail in a sampled world: the agents will say so, not the pilot)
                    worlds = 0
                tries += belief.failures + worlds
                found += worlds
        for r, length in zip(rounds, lengths, strict=True):
            decisions += [Decision(b, length - b, since, kinds) for b, since, kinds, _ in r]
    replays = tries / found if found else float(tries or 1)
    return Pilot(decisions, total / PILOT_GAMES, replays)


def cost(spec: str, shape: Pilot) -> float | None:
    """Engine moves a game of ``spec`` in every seat costs, by the pilot's count, a scoring of the
    round counted as ``SCORING`` moves (None: an agent searching for a time, not a count of
    iterations, has no cost to count). The observed game scores the round after each of its moves."""
    agent = make_agent(spec, 0, 0)
    if isinstance(agent, RandomAgent):
        search = 0.0
    elif isinstance(agent, GreedyAgent):
        # one world a decision: the world kept from the seat's last decision played on by the moves
        # since, and where worlds are hard to find (more than one replay a world) the round replayed
        # from its start for each further try (it gives up after 12 fresh deals and 8 that fitted
        # before); then each sample re-deals that world and tries one move of each kind, scored
        # after it (and once before)
        world = min(shape.replays, GREEDY_REPLAYS) - 1
        search = sum(
            DECISION + d.since + world * d.before + agent.samples * d.kinds * (1 + SCORING) + SCORING
            for d in shape.decisions
        )
    elif isinstance(agent, MctsAgent) and agent.time <= 0:  # its worlds' replays (it gives up after a count of
        n, depth = agent.iterations, agent.depth  # misses), then a playout an iteration, scored at its
        # end: cut at depth moves, unless the round ends within REACH * depth (then played to its end)
        sampling = min(min(agent.samples, n) * shape.replays, min(n, EMPTY_MISSES) * 3)
        search = sum(
            sampling * d.before + n * ((depth if depth and d.after > REACH * depth else d.after) + SCORING)
            for d in shape.decisions
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


def observers(
    game: Game,
    players: int,
    games: int,
    seed: int | None,
    params: dict[str, Any] | None,
    agents: str | list[str] | None,
    rungs: list[str] | tuple[str, ...] | None = None,
) -> tuple[str | list[str], dict[str, Any]]:
    """Who plays observed games (evaluate's observed run, tune's points): ``agents`` when given
    (``{"by": "agents"}``), else the strongest of ``rungs`` (the default ladder) whose ``games``
    games fit the default budget (``choose_observer``'s answer); the agents and that answer."""
    if agents:
        return agents, {"by": "agents"}
    chosen = choose_observer(
        game, players, games, seed, params, rungs or quality_defaults.LADDER, quality_defaults.OBSERVE_BUDGET
    )
    return chosen["agent"], chosen
