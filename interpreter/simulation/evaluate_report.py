"""The figures of `evaluate` and `tune` as text: each measure with its 95% interval and a line
saying what it means for this game."""

from __future__ import annotations

from typing import Any

from .report import (
    first_player_text,
    num_ci,
    pct,
    rate_ci,
    seat_advantage_text,
    shared_wins_text,
    together_text,
)


def _row(name: str, value: str, meaning: str) -> str:
    """One measure: its name, its value with the interval, what it means."""
    return f"  {name:<26}{value:<34}{meaning}"


def skill_meaning(s: dict[str, Any]) -> str:
    """What a skill gap says."""
    gap = s["gap"]
    if not gap["significant"]:
        return "no skill gap found: the agent wins its fair share (a game of luck, or too few games)"
    if gap["value"] > 0:
        return "skill pays: the agent wins more than its fair share"
    return "the agent wins less than its fair share: its way of playing misleads it in this game"


def skill_text(stats: dict[str, Any]) -> list[str]:
    """The skill gap of each pairing."""
    if not stats["skill"]:
        return []
    fair = stats["skill"][0]["fair_share"]
    out = [
        f"skill: an agent's share of the wins against the baseline's, its seat rotated "
        f"({stats['skill_games']} games a pairing; fair share {pct(fair)}; *: the interval excludes 0)"
    ]
    for s in stats["skill"]:
        share, gap = s["share"], s["gap"]
        mark = "*" if gap["significant"] else " "
        out.append(f"  {s['agent']} against {s['baseline']}")
        out.append(
            _row("  skill gap", f"{100 * gap['value']:+.1f} points {_points_ci(gap['ci'])}{mark}", skill_meaning(s))
        )
        out.append(_row("  win share", f"{pct(share['mean'])} {rate_ci(share['ci'])}", "its share of the wins"))
        lead = s["score_lead"]
        out.append(_row("  score lead", f"{lead['mean']:+.2f} {num_ci(lead['ci'])}", "its total over the others' mean"))
    return out


def ladder_text(stats: dict[str, Any]) -> list[str]:
    """The skill ladder: each rung's gap over the one below, and where the climb stops."""
    ladder = stats.get("ladder")
    if not ladder:
        return []
    out = [f"skill ladder: each agent against the one below it, its seat rotated ({ladder['games']} games a step)"]
    for s in ladder["steps"]:
        gap = s["gap"]
        mark = "*" if gap["significant"] else " "
        value = f"{100 * gap['value']:+.1f} points {_points_ci(gap['ci'])}{mark}"
        out.append(_row(f"  {s['agent']}", value, f"over {s['baseline']}"))
    if ladder["stops_at"] is None:
        out.append(f"  every step climbs: more skill still pays at {ladder['rungs'][-1]} (try a stronger rung)")
    else:
        out.append(
            f"  the ladder stops at {ladder['stops_at']}: it is not shown to beat the rung below "
            "(more skill than that does not pay here, or more games are needed: --skill-games N)"
        )
    return out


def _points_ci(ci: list[float] | None) -> str:
    """A difference of rates as [lo, hi] in percentage points."""
    return f"[{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]" if ci else "[-]"


def observer_text(observer: dict[str, Any] | None) -> list[str]:
    """Which agents played the observed games, when evaluate or tune chose them (without --agents), and why."""
    if not observer or observer.get("by") != "budget":
        return []
    return [
        f"observed games played by {observer['agent']} in every seat (--agents chooses otherwise):",
        f"  {observer['why']}; the moves counted on a few random games, never timed",
    ]


def decisions_text(d: dict[str, Any], games: int, agents: str) -> list[str]:
    """Choices per decision, forced share, decisions per player."""
    c, f, per, free = d["choices"], d["forced"], d["per_player"], d["free_per_player"]
    return [
        f"decisions ({games} games, agents {agents}; moves alike in rule, kind of card and target are one choice)",
        _row(
            "choices per decision",
            f"{c['mean']:.2f} {num_ci(c['ci'])}",
            f"a player picks among {c['mean']:.1f} moves (sd {c['sd_all']:.1f}, {c['min']:g} to {c['max']:g})",
        ),
        _row(
            "legal moves per decision",
            f"{d['legal']['mean']:.2f} {num_ci(d['legal']['ci'])}",
            "the same, with copies of a card told apart",
        ),
        _row(
            "forced decisions",
            f"{pct(f['mean'])} {rate_ci(f['ci'])}",
            "moves with a single real choice" + (": nothing to decide" if f["mean"] == 1 else ""),
        ),
        _row(
            "decisions per player",
            f"{per['mean']:.1f} {num_ci(per['ci'], 1)}",
            f"moves a player makes in a game, {free['mean']:.1f} of them real choices",
        ),
    ]


def drama_text(d: dict[str, Any]) -> list[str]:
    """Lead changes, the winner behind, when the game was decided, the margin."""
    lc, wb, dec, m = d["lead_changes"], d["winner_behind"], d["decided_at"], d["margin"]
    out = ["drama (the lead: the best total if the round were scored as it stands, after each move)"]
    out.append(_row("lead changes per game", f"{lc['mean']:.2f} {num_ci(lc['ci'])}", "times the leading seats change"))
    rate = d.get("lead_changes_per_move")
    if rate and rate["n"]:
        out.append(
            _row(
                "lead changes per move",
                f"{rate['mean']:.3f} {num_ci(rate['ci'], 3)}",
                "the same over the game's length: comparable between long and short games",
            )
        )
    if wb["n"]:
        out.append(
            _row(
                "winner behind",
                f"{pct(wb['mean'])} {rate_ci(wb['ci'])}",
                "of the moves ended with the eventual winner not leading",
            )
        )
        out.append(
            _row(
                "decided at",
                f"{pct(dec['mean'])} {rate_ci(dec['ci'])}",
                "of the game, from which the eventual winner led for good (0%: from the deal)",
            )
        )
    out.append(
        _row("final margin", f"{m['mean']:.2f} {num_ci(m['ci'])}", "points between the winner and the next seat")
    )
    if "uncertainty" in d:
        seen = d["foreseen_at"]
        when = "only at the end" if seen is None or seen >= 1 else f"from {pct(seen)} of the game on"
        curve = " ".join(f"{100 * c['mean']:.0f}" for c in d["foresight"][::2])
        out.append(
            _row(
                "uncertainty",
                f"{d['uncertainty']['mean']:.2f} {num_ci(d['uncertainty']['ci'])}",
                f"the lead names the winner 90% of the time {when} (% at 0, 20, ..., 100% of the game: {curve})",
            )
        )
    return out


def balance_text(b: dict[str, Any]) -> list[str]:
    """Seat advantage after Holm's correction, first player, length."""
    if "cooperative" in b:  # all seats win or lose together: one win rate, no seat ahead of another
        out = ["balance", "  " + together_text(b["cooperative"], b["cooperative"]["win_rate"]["n"])]
        out.append("  " + first_player_text(b["first_player"]))
        return out + _length_rows(b)
    fair = b["fair_share"]
    out = [f"balance (fair share {pct(fair)}; *: a seat that differs from it after Holm's correction over the seats)"]
    word = "difference" if b.get("seats_differ_by_agent") else "advantage"  # (the agents' as much as the seats')
    for s in b["seats"]:
        adv = s["advantage"]
        mark = "*" if adv["significant"] else " "
        out.append(
            _row(
                f"seat {s['seat']}",
                f"{pct(s['win_rate'])} {rate_ci(s['win_rate_ci'])}{mark}",
                f"{word} {100 * adv['value']:+.1f} points, p {adv['p']:.3g} (Holm {adv['p_adjusted']:.3g})",
            )
        )
    for t in b.get("teams", ()):  # a team's members win together: its rate and its total, once
        wr, sc = t["win_rate"], t["score"]
        out.append(
            _row(
                f"team {t['team']} ({','.join(map(str, t['seats']))})",
                f"{pct(wr['rate'])} {rate_ci(wr['ci'])}",
                f"mean total {sc['mean']:.2f} {num_ci(sc['ci'])}",
            )
        )
    out.append("  " + seat_advantage_text(b))
    out += ["  " + line for line in shared_wins_text(b)]
    out.append("  " + first_player_text(b["first_player"]))
    return out + _length_rows(b)


def _length_rows(b: dict[str, Any]) -> list[str]:
    moves, rounds = b["length"]["moves"], b["length"]["rounds"]
    return [
        _row(
            "game length",
            f"{moves['mean']:.1f} moves {num_ci(moves['ci'], 1)}",
            f"{rounds['mean']:.2f} rounds {num_ci(rounds['ci'])}; {moves['min']:g} to {moves['max']:g} moves",
        )
    ]


def rules_text(r: dict[str, Any], games: int) -> list[str]:
    """The rules that never fired and those that fired in every game."""
    out = ["rules that matter"]
    if not r["table"]:
        return [*out, "  (rules were not counted)"]
    if r["never"]:
        out.append(f"  never fired in {games} games (dead, or rare: check them):")
        out += [f"    {x['at']}  {x['text'] or x['rule']}" for x in r["never"]]
    else:
        out.append("  every rule fired in some game")
    if r["always"]:
        out.append("  fired in every game (the backbone of play, or a rule that could be a fact):")
        out += [f"    {x['at']}  {x['text'] or x['rule']}  ({x['per_game']:.2f} a game)" for x in r["always"]]
    return out


def evaluate_text(stats: dict[str, Any]) -> str:
    """The report of `ruleset evaluate`."""
    head = f"{stats['ruleset']}: {stats['players']} players, seed {stats['seed']}"
    if stats["params"]:
        head += "; parameters: " + ", ".join(f"{k}={v}" for k, v in stats["params"].items())
    agents = stats["agents"][0] if len(set(stats["agents"])) == 1 else ",".join(stats["agents"])
    out = [head, "[lo, hi]: 95% interval", ""]
    for part in (
        skill_text(stats),
        ladder_text(stats),
        observer_text(stats.get("observer")),
        decisions_text(stats["decisions"], stats["games"], agents),
        drama_text(stats["drama"]),
        balance_text(stats["balance"]),
        rules_text(stats["rules"], stats["games"]),
    ):
        if part:
            out += [*part, ""]
    jobs = f" over {stats['jobs']} processes" if stats.get("jobs", 1) > 1 else ""
    out.append(f"evaluated in {stats['seconds']:.1f} s{jobs}")
    return "\n".join(out)


def tune_text(result: dict[str, Any]) -> str:
    """The table of `ruleset tune`: each point's figure and loss with intervals, then the verdict."""
    params = ", ".join(f"{k}={','.join(map(str, v))}" for k, v in result["params"].items())
    out = [
        f"{result['ruleset']}: {result['players']} players, seed {result['seed']}; objective {result['objective']}; "
        f"{params}; {result['search']} ({len(result['points'])} of {result['grid_size']} points, "
        f"{result['games']} games each, the same seeds)",
        "",
    ]
    names = list(result["params"])
    width = max(12, *(len(n) + 2 for n in names))
    figure = result["points"][0]["figure"]["name"] if result["points"] else "figure"
    out.append(
        "".join(f"{n:<{width}}" for n in names) + f"{figure:<34}{'loss (lower is better)':<34}minus the best's, paired"
    )
    for i, row in enumerate(result["points"]):
        f, loss, vs = row["figure"], row["loss"], row["vs_best"]
        if i == result["best_index"]:
            against = "<- best"
        elif vs["identical"]:
            against = "= best, game by game"
        else:
            against = f"{vs['difference']:<8.3f}{num_ci(vs['ci'], 3)}"
        cells = "".join(f"{row['params'][n]!s:<{width}}" for n in names)
        out.append(
            f"{cells}{f['value']:<8.3f}{num_ci(f['ci'], 3):<26}"
            f"{loss['value']:<8.3f}{num_ci(loss['ci'], 3):<26}{against}"
        )
    out += ["", *observer_text(result.get("observer")), *verdict_lines(result)]
    out.append(f"tuned in {result['seconds']:.1f} s")
    return "\n".join(out)


def verdict_lines(result: dict[str, Any]) -> list[str]:
    """`tune`'s verdict in words: the best point, what it is better than (paired, game by game), the
    points equal to it, and the parameters with no effect."""

    def point(params: dict[str, Any]) -> str:
        return ", ".join(f"{k}={v}" for k, v in params.items())

    reads = result["reads"]
    if result["all_identical"]:
        return [
            f"no effect: every point gave the same {reads} in every game (the parameters swept do not change "
            "what the objective reads; more games would not help)"
        ]
    out = [f"best: {point(result['best'])}"]
    if result["clearly_better"]:
        out[0] += (
            ", clearly better than every other point "
            "(game by game on the same seeds, each other point's loss is higher: its interval lies above 0)"
        )
    if result["equal"]:
        out.append(f"  equal to it (the same {reads} in every game): " + "; ".join(map(point, result["equal"])))
    if result["as_good"]:
        out.append("  not clearly better than: " + "; ".join(map(point, result["as_good"])))
        out.append("  (more games narrow the intervals: --games N, or --skill-games N for --objective skill)")
    if result["no_effect"]:
        out.append(
            "no effect: "
            + ", ".join(result["no_effect"])
            + f" (points that differ only there gave the same {reads} in every game)"
        )
    return out
