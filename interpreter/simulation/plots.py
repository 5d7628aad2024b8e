"""Plots of a run's statistics (``--plot FILE.png|svg``), with matplotlib: the optional extra ``plots``.

Drawn from the statistics alone (the JSON of `simulate`), so a saved result can be plotted again.
Uses matplotlib's object API (a Figure, no pyplot), so no window or display is ever needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RulesetError
from .report import agents_text

INSTALL = 'plots need matplotlib, the optional extra "plots": pip install "ruleset-cards[plots]"'
FORMATS = (".png", ".svg")


def check_plot_path(path: str) -> None:
    """Fail before any game is played if plotting cannot work: no matplotlib, or not a .png/.svg file."""
    if Path(path).suffix.lower() not in FORMATS:
        raise RulesetError(f"--plot writes .png or .svg files, not '{path}'", hint="for example --plot results.png")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise RulesetError(INSTALL, hint="or install matplotlib alone: pip install matplotlib") from None


def _figure(rows: int, cols: int) -> Any:
    """A Figure with a grid of axes."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6 * cols, 4 * rows), layout="constrained")
    return fig, fig.subplots(rows, cols, squeeze=False)


def _errors(values: list[float], cis: list[list[float] | None]) -> list[list[float]]:
    """Error-bar lengths below and above each value from its interval."""
    lows = [v - ci[0] if ci else 0.0 for v, ci in zip(values, cis, strict=True)]
    highs = [ci[1] - v if ci else 0.0 for v, ci in zip(values, cis, strict=True)]
    return [lows, highs]


def quantile(hist: list[list[float]], q: float) -> float:
    """The q-quantile of a histogram of [value, count] pairs (the lower value at a boundary)."""
    total = sum(c for _, c in hist)
    seen = 0
    for value, count in hist:
        seen += count
        if seen >= q * total:
            return value
    return hist[-1][0]


def box_stats(hist: list[list[float]], label: str) -> dict[str, Any]:
    """A box plot's figures (quartiles, extremes, mean) from a histogram, for ``Axes.bxp``."""
    total = sum(c for _, c in hist) or 1
    return {
        "label": label,
        "med": quantile(hist, 0.5),
        "q1": quantile(hist, 0.25),
        "q3": quantile(hist, 0.75),
        "whislo": hist[0][0],
        "whishi": hist[-1][0],
        "mean": sum(v * c for v, c in hist) / total,
        "fliers": [],
    }


def plot_run(stats: dict[str, Any], path: str) -> None:
    """One run: score distribution per seat, win rates with intervals, game length, mean score per round."""
    fig, ax = _figure(2, 2)
    seats = stats["seats"]
    dist = ax[0][0]
    boxes = [box_stats(hist, f"seat {s}") for s, hist in enumerate(stats["distributions"]["scores"])]
    dist.bxp(boxes, showmeans=True)
    dist.set(title="final score per seat (box: quartiles; whiskers: min, max)", ylabel="total score")

    wins = ax[0][1]
    rates = [s["win_rate"] for s in seats]
    wins.bar(range(len(seats)), rates, yerr=_errors(rates, [s["win_rate_ci"] for s in seats]), capsize=4)
    wins.axhline(stats["fair_share"], color="grey", linestyle="--", label="fair share")
    wins.set(title="win rate per seat (95% interval)", xlabel="seat", ylabel="win rate")
    wins.set_xticks(range(len(seats)))
    wins.legend()

    length = ax[1][0]
    hist = stats["distributions"]["moves"]
    length.bar([v for v, _ in hist], [c for _, c in hist], width=1.0)
    length.set(title="game length", xlabel="moves per game", ylabel="games")

    rounds = ax[1][1]
    for s in range(stats["players"]):
        per = [r["seats"][s] for r in stats["per_round"]]
        xs = [r["round"] for r in stats["per_round"]]
        means = [m["mean"] for m in per]
        err = _errors(means, [m["ci"] for m in per])
        rounds.errorbar(xs, means, yerr=err, capsize=3, marker="o", label=f"seat {s}")
    rounds.set(title="mean score per round (95% interval)", xlabel="round", ylabel="score")
    rounds.set_xticks([r["round"] for r in stats["per_round"]])
    rounds.legend()
    name = stats.get("label") or stats["ruleset"]  # (an experiment's run by its own label)
    fig.suptitle(f"{name}: {stats['games']} games, {stats['players']} players")
    fig.savefig(path)


def plot_compare(runs: list[dict[str, Any]], path: str, title: str | None = None) -> None:
    """Several runs side by side: win rate and mean score per seat, game length, first player's lead;
    ``title``, an experiment's name (its question), heads the figure."""
    fig, ax = _figure(2, 2)
    counts = sorted({r["players"] for r in runs})
    lineups = {agents_text(r["agents"]) for r in runs}
    labels = [  # (an experiment's own label; its player count and agents when the runs differ in them)
        f"{chr(65 + i)}: {r.get('label') or r['ruleset']}"
        + (f", {r['players']}p" if len(counts) > 1 else "")
        + (f", {agents_text(r['agents'])}" if len(lineups) > 1 else "")
        for i, r in enumerate(runs)
    ]
    players = max(r["players"] for r in runs)
    width = 0.8 / len(runs)
    for i, run in enumerate(runs):
        xs = [s["seat"] + (i - (len(runs) - 1) / 2) * width for s in run["seats"]]
        rates = [s["win_rate"] for s in run["seats"]]
        ci = [s["win_rate_ci"] for s in run["seats"]]
        ax[0][0].bar(xs, rates, width, yerr=_errors(rates, ci), capsize=3, label=labels[i])
        means = [s["score"]["mean"] for s in run["seats"]]
        ci = [s["score"]["ci"] for s in run["seats"]]
        ax[0][1].bar(xs, means, width, yerr=_errors(means, ci), capsize=3, label=labels[i])
    ax[0][0].set(title="win rate per seat (95% interval)", xlabel="seat", ylabel="win rate")
    ax[0][1].set(title="mean final score per seat (95% interval)", xlabel="seat", ylabel="score")
    for a in (ax[0][0], ax[0][1]):
        a.set_xticks(range(players))
        a.legend()
    colors = [f"C{i}" for i in range(len(runs))]
    moves = [r["length"]["moves"]["mean"] for r in runs]
    ci = [r["length"]["moves"]["ci"] for r in runs]
    ax[1][0].bar(range(len(runs)), moves, yerr=_errors(moves, ci), capsize=4, color=colors)
    ax[1][0].set_xticks(range(len(runs)), [chr(65 + i) for i in range(len(runs))])
    ax[1][0].set(title="game length (95% interval)", ylabel="moves per game")
    leads = [r["first_player"]["score_lead"]["mean"] for r in runs]
    ci = [r["first_player"]["score_lead"]["ci"] for r in runs]
    ax[1][1].bar(range(len(runs)), leads, yerr=_errors(leads, ci), capsize=4, color=colors)
    ax[1][1].axhline(0, color="grey", linewidth=0.8)
    ax[1][1].set_xticks(range(len(runs)), [chr(65 + i) for i in range(len(runs))])
    ax[1][1].set(title="first player's round score lead (95% interval)", ylabel="points over the others' mean")
    heading = f"{', '.join(map(str, counts))} players, {runs[0]['games']} games each"
    fig.suptitle(f"{title}: {heading}" if title else heading)
    fig.savefig(path)


def plot_evaluate(stats: dict[str, Any], path: str) -> None:
    """`evaluate`: skill gaps, seat win rates, real choices per decision, and the shares of play (forced
    decisions, the winner behind, the point the game was decided), each with its interval."""
    fig, ax = _figure(2, 2)
    skill = ax[0][0]
    gaps = [s["gap"]["value"] for s in stats["skill"]]
    skill.bar(range(len(gaps)), gaps, yerr=_errors(gaps, [s["gap"]["ci"] for s in stats["skill"]]), capsize=4)
    skill.axhline(0, color="grey", linewidth=0.8)
    skill.set_xticks(range(len(gaps)), [f"{s['agent'][:18]}\nvs {s['baseline']}" for s in stats["skill"]])
    skill.set(title="skill gap: win share over the fair share (95% interval)", ylabel="share - fair share")

    seats = stats["balance"]["seats"]
    wins = ax[0][1]
    rates = [s["win_rate"] for s in seats]
    colors = ["C3" if s["advantage"]["significant"] else "C0" for s in seats]
    wins.bar(range(len(seats)), rates, yerr=_errors(rates, [s["win_rate_ci"] for s in seats]), capsize=4, color=colors)
    wins.axhline(stats["balance"]["fair_share"], color="grey", linestyle="--", label="fair share")
    wins.set(title="win rate per seat (red: an advantage after Holm)", xlabel="seat", ylabel="win rate")
    wins.set_xticks(range(len(seats)))
    wins.legend()

    hist = stats["decisions"]["distribution"]
    choices = ax[1][0]
    choices.bar([n for n, _ in hist], [k for _, k in hist], width=1.0)
    choices.set(title="real choices at a decision", xlabel="choices", ylabel="decisions")

    shares = ax[1][1]
    names = ["forced\ndecisions", "winner\nbehind", "decided\nat"]
    figures = [stats["decisions"]["forced"], stats["drama"]["winner_behind"], stats["drama"]["decided_at"]]
    values = [f["mean"] for f in figures]
    shares.bar(range(3), values, yerr=_errors(values, [f["ci"] for f in figures]), capsize=4, color=["C1", "C2", "C4"])
    shares.set_xticks(range(3), names)
    shares.set_ylim(0, 1)
    shares.set(title="shares of play (95% interval)", ylabel="share")
    fig.suptitle(f"{stats['ruleset']}: {stats['players']} players, {stats['games']} games observed")
    fig.savefig(path)


def plot_tune(result: dict[str, Any], path: str) -> None:
    """`tune`: the loss at each point tried, with its interval; against the parameter's value when one
    parameter is swept, by point otherwise (the best point marked)."""
    fig, ax = _figure(1, 2)
    rows = result["points"]
    names = list(result["params"])
    numeric = len(names) == 1 and all(isinstance(r["params"][names[0]], int | float) for r in rows)
    order = sorted(range(len(rows)), key=lambda i: rows[i]["params"][names[0]]) if numeric else range(len(rows))
    xs = [rows[i]["params"][names[0]] for i in order] if numeric else list(range(len(rows)))
    labels = [", ".join(str(v) for v in rows[i]["params"].values()) for i in order]
    for a, key, title in (
        (ax[0][0], "figure", rows[0]["figure"]["name"]),
        (ax[0][1], "loss", "loss (lower is better)"),
    ):
        values = [rows[i][key]["value"] for i in order]
        a.errorbar(xs, values, yerr=_errors(values, [rows[i][key]["ci"] for i in order]), capsize=3, marker="o")
        best = list(order).index(result["best_index"])
        a.plot([xs[best]], [values[best]], marker="*", markersize=16, color="C3", linestyle="none", label="best")
        a.set(title=f"{title} (95% interval)", xlabel=", ".join(names))
        if not numeric:
            a.set_xticks(xs, labels, rotation=45, ha="right")
        a.legend()
    if len(names) == 2:
        ax[0][1].clear()
        _loss_map(ax[0][1], result)
    fig.suptitle(f"{result['ruleset']}: objective {result['objective']}, {result['games']} games a point")
    fig.savefig(path)


def _loss_map(a: Any, result: dict[str, Any]) -> None:
    """Two parameters: the loss over their grid as colours (blank where no point was tried), the best starred."""
    (xn, xv), (yn, yv) = result["params"].items()
    grid = [[float("nan")] * len(xv) for _ in yv]
    for row in result["points"]:
        grid[yv.index(row["params"][yn])][xv.index(row["params"][xn])] = row["loss"]["value"]
    image = a.imshow(grid, origin="lower", aspect="auto", cmap="viridis_r")
    a.figure.colorbar(image, ax=a, label="loss (lower is better)")
    a.set_xticks(range(len(xv)), [str(v) for v in xv])
    a.set_yticks(range(len(yv)), [str(v) for v in yv])
    best = result["best"]
    a.plot([xv.index(best[xn])], [yv.index(best[yn])], marker="*", markersize=16, color="C3", linestyle="none")
    a.set(title="loss over the grid (star: best)", xlabel=xn, ylabel=yn)
