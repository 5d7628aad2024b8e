"""The statistics of `simulate` and `compare` as text tables; every estimate with its 95% interval."""

from __future__ import annotations

from typing import Any

from ..errors import plural
from .stats import holm, mean_difference, rate_difference, significant, wilson
from .table import Block, Column, Table, plain


def pct(x: float) -> str:
    """A rate as a percentage."""
    return f"{100 * x:.1f}%"


def rate(x: float) -> str:
    """A throughput: one decimal, or two significant digits below 1 (0.05 games/s, not 0.0)."""
    return f"{x:,.1f}" if x >= 1 else f"{x:.2g}"


def rate_ci(lo_hi: list[float] | None) -> str:
    """A rate's interval as [lo, hi] in percent."""
    return f"[{100 * lo_hi[0]:.1f}, {100 * lo_hi[1]:.1f}]" if lo_hi else "[-]"


def num_ci(lo_hi: list[float] | None, digits: int = 2) -> str:
    """A mean's interval as [lo, hi]."""
    return f"[{lo_hi[0]:.{digits}f}, {lo_hi[1]:.{digits}f}]" if lo_hi else "[-]"


def plus_minus(s: dict[str, Any], digits: int = 2) -> str:
    """A mean and its interval's half-width: "-8.61 ±0.30" (t intervals are symmetric)."""
    if not s["ci"]:
        return f"{s['mean']:.{digits}f}"
    return f"{s['mean']:.{digits}f} ±{(s['ci'][1] - s['ci'][0]) / 2:.{digits}f}"


def agents_text(names: list[str]) -> str:
    """The agents of a run: one name when every seat has the same agent."""
    return names[0] if len(set(names)) == 1 else ",".join(names)


def run_text(stats: dict[str, Any]) -> str:
    """The report of one simulate run, as plain text."""
    return plain(run_blocks(stats))


def run_blocks(stats: dict[str, Any]) -> list[Block]:
    """The report of one simulate run: lines and tables (seats, rounds, agents, rules)."""
    out: list[Block] = [
        f"{stats['ruleset']}: {plural(stats['games'], 'game')}, {stats['players']} players, seed {stats['seed']}, "
        f"agents {agents_text(stats['agents'])}"
    ]
    if stats["params"]:
        out.append("parameters: " + ", ".join(f"{k}={v}" for k, v in stats["params"].items()))
    out.append("")
    out.append(seats_table(stats))
    if "cooperative" in stats:  # one outcome for all: no seat wins more than another
        out.append(together_text(stats["cooperative"], stats["games"]))
    else:
        out.append(seat_advantage_text(stats))
        out += shared_wins_text(stats)
    out.append(first_player_text(stats["first_player"]))
    if stats["per_round"]:
        out.append("")
        out.append(rounds_table(stats["per_round"], stats["players"], stats.get("teams")))
    moves, rounds_ = stats["length"]["moves"], stats["length"]["rounds"]
    out.append("")
    out.append(
        f"game length: {moves['mean']:.1f} moves {num_ci(moves['ci'], 1)} (sd {moves['sd']:.1f}, "
        f"{moves['min']:g} to {moves['max']:g}); {rounds_['mean']:.2f} rounds {num_ci(rounds_['ci'])}"
    )
    if len(stats["by_agent"]) > 1:
        out.append("")
        out.append(agents_table(stats))
    if stats.get("teams"):
        out += _group_table(stats["teams"], "team", 6, "mean total", wins=True)
    if stats.get("rules"):
        out.append("")
        rules = Table(
            [Column("per game", right=True), Column("95% CI"), Column("rule at"), Column("rule")],
            title="rules fired, per game (95% CI):",
        )
        for r in stats["rules"]:
            never = "  (never fired)" if not r["fired"] else ""
            what = r["text"] or r["rule"]
            rules.rows.append([f"{r['per_game']:.2f}", num_ci(r["per_game_ci"]), r["at"], what + never])
        out.append(rules)
    out.append("")
    out.append(
        f"{plural(stats['games'], 'game')} in {stats['seconds']:.2f} s: {rate(stats['games_per_second'])} games/s, "
        f"{stats['moves_per_second']:,.0f} moves/s" + (f", {stats['jobs']} jobs" if stats.get("jobs", 1) > 1 else "")
    )
    return out


ROUNDS_LISTED = 12  # rounds the text lists one by one; a longer game's rounds are summarised (JSON has each)


def rounds_table(per_round: list[dict[str, Any]], players: int, teams: list[dict[str, Any]] | None = None) -> Table:
    """The mean score per round and seat (per team when the game has teams: a team's points are
    written on one member, so its seats' columns would show the partner at 0): a row per round,
    or for a game of many rounds (a 200-hand game) their mean, lowest and highest by column."""
    seats = [Column(f"seat {s}") for s in range(players)]
    if teams and all("teams" in r for r in per_round):
        seats = [Column(f"team {t['team']} ({','.join(map(str, t['seats']))})") for t in teams]
        per_round = [{**r, "seats": r["teams"]} for r in per_round]
        players = len(teams)
    if len(per_round) <= ROUNDS_LISTED:
        table = Table(
            [Column("round", right=True), *seats],
            title="mean score per round (±: half the 95% interval; sd: the spread):",
        )
        for r in per_round:
            table.rows.append([str(r["round"])] + [f"{plus_minus(m)}  sd {m['sd']:.2f}" for m in r["seats"]])
        return table
    table = Table(
        [Column(f"{len(per_round)} rounds"), *seats],
        title="mean score per round, summarised over the rounds (each round: --format json):",
    )
    columns = [[(r["seats"][s], r["round"]) for r in per_round] for s in range(players)]
    mean = [sum(m["mean"] * m["n"] for m, _ in c) / (sum(m["n"] for m, _ in c) or 1) for c in columns]
    table.rows.append(["mean"] + [f"{x:.2f}" for x in mean])
    for label, pick in (("lowest", min), ("highest", max)):
        ends = [pick(c, key=lambda mr: mr[0]["mean"]) for c in columns]
        table.rows.append([label] + [f"{m['mean']:.2f} (round {r})" for m, r in ends])
    return table


def seats_table(stats: dict[str, Any]) -> Table:
    """Per seat: agent, wins, win rate (* when it is not a fair share), mean score and its spread (a
    cooperative game's seats win together: their win rate is said once, by together_text)."""
    together = "cooperative" in stats
    win_columns = () if together else ("wins", "win rate", "95% CI")
    table = Table(
        [Column("seat", right=True), Column("agent")]
        + [Column(name, right=True) for name in (*win_columns, "mean score", "95% CI")]
        + [Column(name, right=True) for name in ("sd", "min", "max")]
    )
    for s in stats["seats"]:
        sc = s["score"]
        mark = "*" if s["advantage"]["significant"] else ""
        wins = [str(s["seat"]), s["agent"]]
        if not together:
            wins += [str(s["wins"]), pct(s["win_rate"]) + mark, rate_ci(s["win_rate_ci"])]
        score = [f"{sc['mean']:.2f}", num_ci(sc["ci"]), f"{sc['sd']:.2f}", f"{sc['min']:g}", f"{sc['max']:g}"]
        table.rows.append(wins + score)
    return table


def together_text(coop: dict[str, Any], games: int) -> str:
    """A cooperative game's one win rate: the games all the players won together."""
    wr = coop["win_rate"]
    return (
        f"cooperative: the players won together in {coop['wins']} of {plural(games, 'game')}: "
        f"win rate {pct(wr['rate'])} {rate_ci(wr['ci'])}"
    )


def agents_table(stats: dict[str, Any]) -> Table:
    """Per agent (when the seats have different ones): its seats, win rate and mean score."""
    table = Table(
        [Column("agent"), Column("seats")]
        + [Column(name, right=True) for name in ("win rate", "95% CI", "mean score", "95% CI")]
    )
    for a in stats["by_agent"]:
        wr, sc = a["win_rate"], a["score"]
        seats = ",".join(map(str, a["seats"]))
        score = [f"{sc['mean']:.2f}", num_ci(sc["ci"])]
        table.rows.append([a["agent"], seats, pct(wr["rate"]), rate_ci(wr["ci"]), *score])
    return table


def _group_table(rows: list[dict[str, Any]], key: str, width: int, score: str, wins: bool) -> list[str]:
    """The lines of a table by agent or by team: its seats, (wins,) win rate and mean score."""
    head = f"{key:<{width}}{'seats':<12}" + (f"{'wins':>7}" if wins else "")
    out = ["", f"{head}{'win rate':>10}  {'95% CI':<14}{score:>11}  95% CI"]
    for r in rows:
        seats = ",".join(map(str, r["seats"]))
        wr, sc = r["win_rate"], r["score"]
        cells = f"{r[key]!s:<{width}}{seats:<12}" + (f"{r['wins']:>7}" if wins else "")
        out.append(f"{cells}{pct(wr['rate']):>10}  {rate_ci(wr['ci']):<14}{sc['mean']:>11.2f}  {num_ci(sc['ci'])}")
    return out


def seat_advantage_text(stats: dict[str, Any]) -> str:
    """One line on whether any seat wins more or less often than a fair share; when the seats have
    different agents, a difference is not called a seat advantage (it is the agents' as much)."""
    fair = pct(stats["fair_share"])
    how = f"{len(stats['seats'])} seats tested at once, Holm's correction"
    marked = [s for s in stats["seats"] if s["advantage"]["significant"]]
    if stats.get("seats_differ_by_agent"):
        head = "seats differ by agent, so no seat advantage is measured (play one agent at every seat for that)"
        if not marked:
            return f"{head}; no seat's win rate differs from the fair share {fair} ({how})"
        parts = [f"seat {s['seat']} ({s['agent']}) {100 * s['advantage']['value']:+.1f} points" for s in marked]
        return f"{head}; win rates that differ from the fair share {fair} (*; {how}): " + ", ".join(parts)
    if not marked:
        return f"seat advantage: none found against the fair share {fair} ({how})"
    parts = [f"seat {s['seat']} {100 * s['advantage']['value']:+.1f} points" for s in marked]
    return f"seat advantage (*: differs from the fair share {fair}; {how}): " + ", ".join(parts)


def shared_wins_text(stats: dict[str, Any]) -> list[str]:
    """A line on the games won by several seats at once (none when no game was tied)."""
    shared = stats.get("shared_wins")
    if not shared or not shared["successes"]:
        return []
    return [
        f"shared wins: {pct(shared['rate'])} {rate_ci(shared['ci'])} of the games were won by several seats at once "
        "(a tie: each counts as a win above)"
    ]


def first_player_text(fp: dict[str, Any]) -> str:
    """One line on the first mover's advantage in a round."""
    if not fp["rounds"]:
        return "first player: no rounds with moves"
    lead, best = fp["score_lead"], fp["best_round_rate"]
    mark = " *" if fp["significant"] else ""
    return (
        f"first player of a round: scores {lead['mean']:+.2f} {num_ci(lead['ci'])} against the others' mean "
        f"(+ is better); has the best round score in {pct(best['rate'])} {rate_ci(best['ci'])} "
        f"of {fp['rounds']} rounds, fair share {pct(fp['fair_share'])}{mark}"
    )


# ---- compare ------------------------------------------------------------------------------------


def comparison(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The figures of each run side by side, with each run's difference from the first run."""
    base = runs[0]
    rows: list[dict[str, Any]] = []

    def rate_row(label: str, get, family: str | None = None) -> None:
        """A row of rates (successes, n) with Newcombe differences."""
        cells = []
        k0, n0 = get(base)
        for run in runs:
            k, n = get(run)
            cell: dict[str, Any] = {"value": k / n if n else 0.0, "ci": list(wilson(k, n))}
            if run is not base:
                cell["difference"] = rate_difference(k0, n0, k, n)
            cells.append(cell)
        rows.append({"figure": label, "kind": "rate", "family": family or label, "cells": cells})

    def mean_row(label: str, get, family: str | None = None) -> None:
        """A row of means (summaries) with Welch differences."""
        cells = []
        s0 = get(base)
        for run in runs:
            s = get(run)
            cell = {"value": s["mean"], "ci": s["ci"]}
            if run is not base:
                cell["difference"] = mean_difference(s0, s)
            cells.append(cell)
        rows.append({"figure": label, "kind": "mean", "family": family or label, "cells": cells})

    for seat in range(base["players"]):
        rate_row(f"seat {seat} win rate", lambda r, s=seat: (r["seats"][s]["wins"], r["games"]), "seat win rates")
    for seat in range(base["players"]):
        mean_row(f"seat {seat} mean score", lambda r, s=seat: r["seats"][s]["score"], "seat mean scores")
    mean_row("moves per game", lambda r: r["length"]["moves"])
    mean_row("rounds per game", lambda r: r["length"]["rounds"])
    mean_row("first player's round lead", lambda r: r["first_player"]["score_lead"])
    rate_row(
        "first player best in round",
        lambda r: (r["first_player"]["best_round_rate"]["successes"], r["first_player"]["best_round_rate"]["n"]),
    )
    shared = [r["at"] for r in base.get("rules", []) if all(r["at"] in {x["at"] for x in o["rules"]} for o in runs)]
    for at in shared:

        def per_game(run, at=at):
            """The rule's firings per game as a summary."""
            r = next(x for x in run["rules"] if x["at"] == at)
            return {"mean": r["per_game"], "sd": r["per_game_sd"], "n": run["games"], "ci": r["per_game_ci"]}

        text = next(x["text"] for x in base["rules"] if x["at"] == at) or at.rsplit("/", 1)[-1]
        mean_row(f"fired/game: {text[:30]}", per_game, "rules fired")
    correct(rows, len(runs))
    return rows


def correct(rows: list[dict[str, Any]], runs: int) -> None:
    """Holm's correction within each family of rows (every seat's win rate, every seat's mean score,
    every rule), for each ruleset against the base: a difference is marked significant when its
    adjusted p-value is below 5%, so a family raises a false alarm in 5% of comparisons at most."""
    families: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        families.setdefault(row["family"], []).append(row)
    for family in families.values():
        for column in range(1, runs):
            diffs = [row["cells"][column]["difference"] for row in family]
            for diff, p in zip(diffs, holm([d["p"] for d in diffs]), strict=True):
                diff.update(p_adjusted=p, correction="holm", significant=significant(p))


def run_name(run: dict[str, Any]) -> str:
    """A run by its experiment's label when it has one (`label:` in the file), else its ruleset's name."""
    return run.get("label") or run["ruleset"]


def experiment_blocks(runs: list[dict[str, Any]]) -> list[Block]:
    """An experiment's runs side by side, one table per player count and line-up (the runs that
    differ only in their rules), as `compare` sets rulesets side by side: its question in a table."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for run in runs:
        groups.setdefault((run["players"], tuple(run["agents"])), []).append(run)
    out: list[Block] = []
    for group in groups.values():
        if len(group) > 1:
            out += ["", *compare_blocks(group, comparison(group))]
    return out


def compare_text(runs: list[dict[str, Any]], rows: list[dict[str, Any]]) -> str:
    """The side-by-side table of `compare`, as plain text."""
    return plain(compare_blocks(runs, rows))


def compare_blocks(runs: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[Block]:
    """The side-by-side table of `compare`; * marks a difference from the first ruleset that is significant."""
    base = runs[0]
    names = [f"{chr(65 + i)}: {run_name(r)}" for i, r in enumerate(runs)]
    out: list[Block] = [
        f"{base['players']} players, {plural(base['games'], 'game')} each, seed {base['seed']}, "
        f"agents {agents_text(base['agents'])}; the same seeds for every ruleset",
    ]
    for i, (name, run) in enumerate(zip(names, runs, strict=True)):
        params = ", ".join(f"{k}={v}" for k, v in run["params"].items())
        out.append(f"  {name}" + (f" ({params})" if params else "") + ("" if i else "  (the base)"))
    out.append("")
    table = Table(
        [Column("")] + [Column(chr(65 + i)) for i in range(len(runs))],
        note="[lo, hi]: 95% interval; +d: difference from A (rates in percentage points); "
        "*: significant at 5% after Holm's correction within each family of rows (the seats' win rates, "
        "the seats' mean scores, the rules fired)",
    )
    for row in rows:
        cells = []
        for cell in row["cells"]:
            diff = cell.get("difference")
            if row["kind"] == "rate":
                text = f"{pct(cell['value'])} {rate_ci(cell['ci'])}"
                if diff:
                    text += f" {100 * diff['difference']:+.1f}{'*' if diff['significant'] else ''}"
            else:
                text = f"{cell['value']:.2f} {num_ci(cell['ci'])}"
                if diff:
                    text += f" {diff['difference']:+.2f}{'*' if diff['significant'] else ''}"
            cells.append(text)
        table.rows.append([row["figure"], *cells])
    out.append(table)
    return out
