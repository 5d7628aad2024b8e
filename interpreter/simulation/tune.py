"""`ruleset tune`: the value of a parameter (or several) that serves an objective best.

Each point of the grid (every combination of the values asked) is played under the same seeds
(game i of every point has the same seed, as `compare` does) and scored by its *loss*, lower is
better, with a 95% interval:

- ``balance``: the largest distance of a seat's win rate from the fair share;
- ``skill``: minus the skill gap of the first pairing (a game where skill pays more is better);
- ``length=LOW..HIGH``: how far the mean moves per game lie outside LOW..HIGH (0 inside).

A grid larger than ``budget`` points is searched instead: coordinate descent from the middle of
the grid, trying a step either way along each parameter, halving the step when no neighbour is
better. Every point plays the same seeds, so the points are compared with the best *paired*, game
by game (see :mod:`.paired`): the best is *clearly better* when every other point's loss minus the
best's has a 95% interval wholly above 0; points that played identical games are *identical*, and
a parameter that made no difference to any game is said to have *no effect*.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..agents import make_agents
from ..engine.game import Game
from ..errors import RulesetError
from . import paired, quality_defaults
from .evaluate import DEFAULT_PAIRS, Progress, parse_pair, skill_run
from .observer import observers
from .simulate import simulate

DEFAULT_BUDGET = quality_defaults.BUDGET
_RANGE = re.compile(r"^(-?\d+)\s*\.\.\s*(-?\d+)(?:\s*:\s*(\d+))?$")


@dataclass(frozen=True)
class Objective:
    """What a point is judged by: ``balance``, ``skill`` or ``length`` (within ``low``..``high`` moves)."""

    kind: str
    low: float = 0.0
    high: float = 0.0

    @property
    def text(self) -> str:
        return f"length={self.low:g}..{self.high:g}" if self.kind == "length" else self.kind


def parse_param(text: str) -> tuple[str, list[Any]]:
    """``limit=9..17`` (every whole number), ``limit=9..17:2`` (a step) or ``mode=a,b,c`` (a list)."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    hint = "for example --param limit=9..17, --param limit=9..17:2 or --param rounds=2,4,6"
    if not sep or not name or not spec:
        raise RulesetError(f"--param takes NAME=VALUES, not {text!r}", hint=hint)
    m = _RANGE.match(spec)
    if m:
        low, high, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if high < low or step < 1:
            raise RulesetError(f"--param {name}: the range {spec} is empty", hint=hint)
        return name, list(range(low, high + 1, step))
    values = [v.strip() for v in spec.split(",")]
    if not all(values):
        raise RulesetError(f"--param {name}: an empty value in {spec!r}", hint=hint)
    return name, [int(v) if re.fullmatch(r"-?\d+", v) else v for v in values]


def parse_objective(text: str) -> Objective:
    """``balance``, ``skill`` or ``length=LOW..HIGH``."""
    kind, _, spec = text.strip().partition("=")
    if kind in ("balance", "skill") and not spec:
        return Objective(kind)
    m = _RANGE.match(spec.strip()) if kind == "length" else None
    if m and not m.group(3) and int(m.group(1)) <= int(m.group(2)):
        return Objective("length", int(m.group(1)), int(m.group(2)))
    raise RulesetError(
        f"unknown objective {text!r}", hint="--objective balance, --objective skill or --objective length=60..90"
    )


# ---- one point -------------------------------------------------------------------------------------


def imbalance(stats: dict[str, Any]) -> dict[str, Any]:
    """The largest distance of a seat's win rate from the fair share, with a conservative interval:
    from the largest distance of an interval's near end (0 when it holds the fair share) to the
    largest distance of an interval's far end."""
    fair, seats = stats["fair_share"], stats["seats"]
    value = max(abs(s["win_rate"] - fair) for s in seats)
    lo = max(max(s["win_rate_ci"][0] - fair, fair - s["win_rate_ci"][1], 0.0) for s in seats)
    hi = max(max(abs(s["win_rate_ci"][0] - fair), abs(s["win_rate_ci"][1] - fair)) for s in seats)
    return {"value": value, "ci": [lo, hi]}


def outside(low: float, high: float, mean: float, ci: list[float] | None) -> dict[str, Any]:
    """How far a mean (and its interval) lies outside low..high: 0 within."""

    def gap(x: float) -> float:
        return max(low - x, x - high, 0.0)

    if not ci:
        return {"value": gap(mean), "ci": None}
    a, b = ci
    nearest = 0.0 if a <= high and b >= low else min(gap(a), gap(b))
    return {"value": gap(mean), "ci": [nearest, max(gap(a), gap(b))]}


def score_point(
    game: Game,
    players: int,
    params: dict[str, Any],
    objective: Objective,
    games: int,
    seed: int | None,
    agents: str | None,
    pair: tuple[str, str],
    skill_games: int,
    options: dict[str, Any],
    progress: Progress | None,
) -> tuple[dict[str, Any], paired.Games]:
    """One point of the grid: its figure (what the objective reads) and its loss, each with its
    interval; and its games, for the paired comparison."""
    if objective.kind == "skill":
        shares: list[float] = []
        run = skill_run(game, players, pair, skill_games, seed, params, progress=progress, keep=shares, **options)
        gap = run["gap"]
        ci = gap["ci"]
        fair = run["fair_share"]
        row = {
            "figure": {"name": f"skill gap {run['pair']}", "value": gap["value"], "ci": ci},
            "loss": {"value": -gap["value"], "ci": [-ci[1], -ci[0]] if ci else None},
        }
        return row, paired.mean_games(shares, lambda mean: fair - mean, "shares of the wins")
    outcomes: list[dict[str, Any]] = []
    stats = simulate(
        game, players, games, seed, agents, params, progress=progress, count_rules=False, keep=outcomes, **options
    )
    if objective.kind == "balance":
        loss = imbalance(stats)
        return {"figure": {"name": "largest seat advantage", **loss}, "loss": loss}, paired.balance_games(
            outcomes, players
        )
    moves = stats["length"]["moves"]
    row = {
        "figure": {"name": "moves per game", "value": moves["mean"], "ci": moves["ci"]},
        "loss": outside(objective.low, objective.high, moves["mean"], moves["ci"]),
    }
    return row, paired.mean_games(
        [out["moves"] for out in outcomes],
        lambda mean: outside(objective.low, objective.high, mean, None)["value"],
        "number of moves",
    )


# ---- the search ------------------------------------------------------------------------------------


def search(values: list[list[Any]], budget: int, loss: Callable[[tuple], float]) -> list[tuple]:
    """Try the whole grid, or coordinate descent when it holds more than ``budget`` points; the points tried."""
    grid = list(itertools.product(*values))
    if len(grid) <= budget:
        for point in grid:
            loss(point)
        return grid
    return descend(values, budget, loss)


def descend(values: list[list[Any]], budget: int, loss: Callable[[tuple], float]) -> list[tuple]:
    """Coordinate descent over the indexes of each parameter's values, from the middle, within ``budget`` points."""
    tried: dict[tuple[int, ...], float] = {}

    def at(index: tuple[int, ...]) -> float:
        if index not in tried:
            tried[index] = loss(tuple(v[i] for v, i in zip(values, index, strict=True)))
        return tried[index]

    here = tuple(len(v) // 2 for v in values)
    at(here)
    step = max(1, max(len(v) for v in values) // 4)
    while step >= 1 and len(tried) < budget:
        moved = False
        for axis, options in enumerate(values):
            for sign in (-1, 1):
                i = here[axis] + sign * step
                if not 0 <= i < len(options) or len(tried) >= budget:
                    continue
                there = (*here[:axis], i, *here[axis + 1 :])
                if at(there) < at(here):
                    here, moved = there, True
        if not moved:
            step //= 2
    return [tuple(v[i] for v, i in zip(values, index, strict=True)) for index in tried]


def tune(
    game: Game,
    players: int,
    params: list[tuple[str, list[Any]]],
    objective: Objective,
    games: int = quality_defaults.GAMES,
    seed: int | None = 0,
    agents: str | None = None,
    fixed: dict[str, Any] | None = None,
    pairs: list[str] | tuple[str, ...] = DEFAULT_PAIRS,
    skill_games: int = quality_defaults.SKILL_GAMES,
    budget: int = DEFAULT_BUDGET,
    jobs: int = 1,
    scheduler: Any = None,
    stage: Callable[[str], Progress | None] | None = None,
) -> dict[str, Any]:
    """Score every point tried (see the module docstring); the table, the best point and whether it is
    clearly better than every other."""
    import time

    names = [n for n, _ in params]
    if len(set(names)) < len(names):
        raise RulesetError("a parameter is named twice in --param")
    for name in names:
        game.param_values(players, {**(fixed or {}), name: params[names.index(name)][1][0]})  # unknown names fail here
    if objective.kind == "skill" and not pairs:
        raise RulesetError("--objective skill needs a skill pairing", hint="--skill mcts:50/random")
    pair = parse_pair(pairs[0]) if pairs else ("random", "random")
    # balance and length are read from games played as evaluate observes them: --agents, else the
    # strongest rung that fits the budget, chosen once (on the rules as --set leaves them) so that
    # every point is played by the same agents on the same seeds
    observer = None
    if objective.kind != "skill":
        agents, observer = observers(game, players, games, seed, fixed, agents)
    options = {"jobs": jobs, "scheduler": scheduler}
    rows: list[dict[str, Any]] = []
    kept: list[paired.Games] = []
    start = time.perf_counter()

    def loss(point: tuple) -> float:
        setting = dict(zip(names, point, strict=True))
        label = ", ".join(f"{k}={v}" for k, v in setting.items())
        progress = stage(f"point {len(rows) + 1}: {label}") if stage else None
        scored, games_of_point = score_point(
            game,
            players,
            {**(fixed or {}), **setting},
            objective,
            games,
            seed,
            agents,
            pair,
            skill_games,
            options,
            progress,
        )
        rows.append({"params": setting, **scored})
        kept.append(games_of_point)
        return scored["loss"]["value"]

    tried = search([v for _, v in params], budget, loss)
    grid = len(list(itertools.product(*[v for _, v in params])))
    return {
        "ruleset": game.name,
        "players": players,
        "seed": seed,
        "objective": objective.text,
        "params": {n: v for n, v in params},
        "fixed": dict(fixed or {}),
        "search": "grid" if len(tried) == grid else "coordinate descent",
        "grid_size": grid,
        "games": skill_games if objective.kind == "skill" else games,
        **({"agents": [a.name for a in make_agents(agents, players, seed)], "observer": observer} if observer else {}),
        "points": rows,
        **verdict(rows, kept, names, seed),
        "seconds": time.perf_counter() - start,
        "jobs": jobs,
    }


def verdict(rows: list[dict[str, Any]], kept: list[paired.Games], names: list[str], seed: int | None) -> dict[str, Any]:
    """The best point (lowest loss); each point's paired difference from it (``vs_best``); whether
    the best is clearly better than every other point (each difference's interval above 0); the
    points that played identical games (``equal``: the objective reads the same in every game), those
    it cannot be told from (``as_good``: an interval reaching 0); and the parameters that changed
    nothing the objective reads in any game (``no_effect``)."""
    best = min(range(len(rows)), key=lambda i: rows[i]["loss"]["value"])
    ties, equal = [], []
    for i, (row, vs) in enumerate(zip(rows, paired.compare(kept, best, seed), strict=True)):
        row["vs_best"] = vs
        if i != best and vs["identical"]:
            equal.append(row["params"])
        elif i != best and vs["ci"][0] <= 0:
            ties.append(row["params"])
    return {
        "best": rows[best]["params"],
        "best_index": best,
        "clearly_better": not ties and not equal,
        "as_good": ties,
        "equal": equal,
        "reads": kept[best].reads,
        "all_identical": len(rows) > 1 and all(row["vs_best"]["identical"] for row in rows),
        "no_effect": paired.without_effect(names, [row["params"] for row in rows], kept),
    }
