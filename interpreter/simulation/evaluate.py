"""`ruleset evaluate`: is the game any good? Skill gap, decisions, drama, balance and the rules
that matter, each with its 95% interval (definitions and sources: docs/evaluate.md).

Two kinds of run, both played by the machinery of `simulate` (chunks here, over processes or
on dask, folded in game-index order, so the figures are the same however they are spread):

- the *observed* run: ``games`` games with one line-up (random by default), each game observed
  move by move (measures.py): decisions, drama, balance, rules;
- one *skill* run per pairing ``A/B``: agent A at one seat, B at the others, A's seat turned one
  place each game (``Job.rotate``) so that every seat holds A equally often.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..agents import make_agent, make_agents
from ..engine.game import Game
from ..errors import RulesetError
from . import quality_defaults
from .measures import Measures
from .observer import observers
from .parallel import chunks, make_job, with_progress
from .rule_counts import rule_table
from .stats import Moments, wilson
from .tally import Tally

DEFAULT_GAMES = quality_defaults.GAMES
DEFAULT_SKILL_GAMES = quality_defaults.SKILL_GAMES
DEFAULT_PAIRS = quality_defaults.PAIRS
DEFAULT_LADDER = quality_defaults.LADDER

Progress = Callable[[int, int, float], None]
Stage = Callable[[str], Progress | None]  # the progress callback of a stage, given its label


def parse_pair(text: str) -> tuple[str, str]:
    """``"mcts:50/random"`` as (strong agent, baseline agent)."""
    strong, sep, weak = text.partition("/")
    if not sep or not strong.strip() or not weak.strip() or "/" in weak:
        raise RulesetError(f"a skill pairing is AGENT/BASELINE, not {text!r}", hint="for example --skill greedy/random")
    return strong.strip(), weak.strip()


def _played(job: Any, games: int, jobs: int, scheduler: Any, progress: Progress | None):
    """A run's chunks in game-index order, with progress."""
    return with_progress(chunks(job, games, jobs, scheduler), games, progress)


# ---- the observed run ------------------------------------------------------------------------------


def observed_run(
    game: Game,
    players: int,
    games: int,
    seed: int | None,
    agents: str | list[str] | None,
    params: dict[str, Any] | None,
    jobs: int = 1,
    scheduler: Any = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Decisions, drama, balance (Holm-corrected seat advantage), length and rule firings of ``games`` games."""
    names = [a.name for a in make_agents(agents, players, seed)]
    tally = Tally(players, names, game.winner_highest, cooperative=game.cooperative)
    measures = Measures(players)
    present: Counter = Counter()
    job = make_job(game, players, seed, names, params, False, observe=True)
    for chunk in _played(job, games, jobs, scheduler, progress):
        for out in chunk.outcomes:
            tally.add(out)
            measures.add(out["observed"])
        tally.coverage.update(chunk.coverage)
        tally.coverage_squares.update(chunk.squares)
        present.update(chunk.present)
    rules = rule_table(game.ir, tally.coverage, tally.coverage_squares, games, present)
    return {
        "agents": names,
        "games": games,
        "decisions": measures.decision_figures(),
        "drama": measures.drama_figures(),
        "balance": balance(tally),
        "rules": {
            "never": [r for r in rules if not r["fired"]],
            "always": [r for r in rules if r["games_fired"] == games],
            "table": rules,
        },
    }


def balance(tally: Tally) -> dict[str, Any]:
    """Seat advantage (Holm-corrected over the seats, as Tally tests it), the first player's advantage, game length."""
    summary = tally.summary()
    return {
        "seats": summary["seats"],
        "fair_share": summary["fair_share"],
        "shared_wins": summary["shared_wins"],
        "correction": "holm",
        "seat_advantage": summary["seat_advantage"],
        "seats_differ_by_agent": summary["seats_differ_by_agent"],
        "first_player": summary["first_player"],
        "length": summary["length"],
        **({"cooperative": summary["cooperative"]} if "cooperative" in summary else {}),
        **({"teams": summary["teams"]} if "teams" in summary else {}),
    }


# ---- skill runs -----------------------------------------------------------------------------------


def skill_run(
    game: Game,
    players: int,
    pair: tuple[str, str],
    games: int,
    seed: int | None,
    params: dict[str, Any] | None,
    jobs: int = 1,
    scheduler: Any = None,
    progress: Progress | None = None,
    keep: list[float] | None = None,
) -> dict[str, Any]:
    """Agent A against agent B, A's seat rotated: A's share of the wins against the fair 1/players.

    ``games`` is rounded up to a multiple of the players, so that A holds every seat equally often.
    A game's share is 1/k when A is among k winners, else 0; the skill gap is its mean minus
    1/players (by symmetry the mean share of a seat-rotated agent no better than B), with the
    Wilson interval of the shares' total over the games. In a cooperative game a win is every
    seat's: the share is 1 when the players win, and the fair share is B's own win rate, from as
    many games with B in every seat. ``keep``, a list, receives A's share of each game in order."""
    strong, weak = (make_agent(spec, 0, seed).name for spec in pair)
    games = -(-games // players) * players
    job = make_job(game, players, seed, [strong] + [weak] * (players - 1), params, False, False, rotate=True)
    sign = 1 if game.winner_highest or game.cooperative else -1
    share, lead = Moments(), Moments()
    index = 0
    for chunk in _played(job, games, jobs, scheduler, progress):
        for out in chunk.outcomes:
            seat, winners, totals = index % players, out["winners"], out["totals"]
            won = float(out["together"]) if game.cooperative else 1 / len(winners) if seat in winners else 0.0
            share.add(won)
            if keep is not None:
                keep.append(won)
            others = [t for s, t in enumerate(totals) if s != seat]
            lead.add(sign * (totals[seat] - sum(others) / len(others)) if others else 0.0)
            index += 1
    fair = (
        1 / players
        if not game.cooperative
        else _together_rate(game, players, weak, games, seed, params, jobs, scheduler)
    )
    s = share.summary()
    # the Wilson interval of the rate (the total share over the games): within [0, 1], and not a
    # point when the agent wins every game (a tie counting as part of a win)
    s["ci"] = list(wilson(share.total, share.n))
    ci = [s["ci"][0] - fair, s["ci"][1] - fair]
    return {
        "pair": f"{strong}/{weak}",
        "agent": strong,
        "baseline": weak,
        "games": games,
        "fair_share": fair,
        "share": s,
        "gap": {"value": s["mean"] - fair, "ci": ci, "significant": ci[0] > 0 or ci[1] < 0},
        "score_lead": lead.summary(),
    }


def _together_rate(
    game: Game, players: int, agent: str, games: int, seed: int | None, params: Any, jobs: int, scheduler: Any
) -> float:
    """How often the players of a cooperative game win together with ``agent`` in every seat."""
    job = make_job(game, players, seed, [agent] * players, params, False, False)
    won = sum(out["together"] for chunk in _played(job, games, jobs, scheduler, None) for out in chunk.outcomes)
    return won / games if games else 0.0


def ladder_run(
    game: Game,
    players: int,
    rungs: list[str] | tuple[str, ...],
    games: int,
    seed: int | None,
    params: dict[str, Any] | None,
    jobs: int = 1,
    scheduler: Any = None,
    stage: Stage | None = None,
) -> dict[str, Any]:
    """The skill ladder: each rung (an agent) against the one below it, seats rotated as in a skill
    pairing. One skill gap against random saturates (an agent cannot win more than every game), so
    it cannot tell a good agent from a better one; the ladder asks, rung by rung, whether more skill
    still pays, and says where it stops paying: the first rung whose gap over the one below is not
    above 0 (``stops_at``; None when every step climbs)."""
    if len(rungs) < 2:
        raise RulesetError("a skill ladder needs at least two agents", hint="--ladder random,greedy,mcts:50")
    show = stage or (lambda label: None)
    steps = []
    for below, agent in itertools.pairwise(rungs):
        progress = show(f"ladder: {agent}/{below}")
        steps.append(skill_run(game, players, (agent, below), games, seed, params, jobs, scheduler, progress))
    stops = next((run["agent"] for run in steps if run["gap"]["ci"][0] <= 0), None)
    return {
        "rungs": [make_agent(spec, 0, seed).name for spec in rungs],
        "games": steps[0]["games"],
        "steps": steps,
        "stops_at": stops,
    }


# ---- the whole evaluation --------------------------------------------------------------------------


def evaluate(
    game: Game,
    players: int,
    games: int = DEFAULT_GAMES,
    seed: int | None = 0,
    agents: str | list[str] | None = None,
    params: dict[str, Any] | None = None,
    pairs: list[str] | tuple[str, ...] = DEFAULT_PAIRS,
    skill_games: int = DEFAULT_SKILL_GAMES,
    jobs: int = 1,
    scheduler: Any = None,
    stage: Stage | None = None,
    ladder: list[str] | tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """Every measure of docs/evaluate.md for one ruleset, player count and parameters, as JSON-able data.

    ``stage(label)`` (optional) gives the progress callback of each run as it starts; ``ladder``
    (agents, weakest first) adds the skill ladder."""
    import time

    if games < 1 or skill_games < 1:
        raise ValueError("evaluate needs at least one game a run")
    values = game.param_values(players, params)  # a bad --set fails here, before any game
    parsed = [parse_pair(p) for p in pairs]
    for strong, weak in parsed:  # an unknown agent fails here too
        make_agents([strong, weak], max(players, 2), seed)
    if ladder:
        make_agents(list(ladder), len(ladder), seed)
    start = time.perf_counter()
    show = stage or (lambda label: None)
    skill = [
        skill_run(game, players, pair, skill_games, seed, params, jobs, scheduler, show(f"skill: {'/'.join(pair)}"))
        for pair in parsed
    ]
    climbed = ladder_run(game, players, ladder, skill_games, seed, params, jobs, scheduler, stage) if ladder else None
    # the observed line-up: --agents, else the strongest rung whose games fit the budget (counted, not timed)
    agents, observer = observers(game, players, games, seed, params, agents, ladder)
    observed = observed_run(game, players, games, seed, agents, params, jobs, scheduler, show("observed games"))
    return {
        "ruleset": game.name,
        "players": players,
        "seed": seed,
        "params": values,
        "skill_games": skill[0]["games"] if skill else 0,
        "skill": skill,
        **({"ladder": climbed} if climbed else {}),
        **observed,
        "observer": observer,
        "seconds": time.perf_counter() - start,
        "jobs": jobs,
    }
