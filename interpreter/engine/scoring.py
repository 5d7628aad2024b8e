"""Scoring a round (per-card points, conditions, majorities) and the winners of a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import RUNTIME_FAILURES, PlayError, rule_failure
from .player_exprs import members

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields


def score_round(state: StateFields) -> list[int]:
    """Each player's points for the round just ended, by the ruleset's score rules."""
    return [sum(points) for points in score_by_rule(state)]


def score_by_rule(state: StateFields) -> list[list[int]]:
    """For each player, what each score rule gives them for the round just ended (in rule order). A
    rule that scores a team (`each team: ...`) gives the team's points to its first (lowest) seat, so
    that a team's total is always the sum of its members' totals."""
    memo = state.game.score_memo
    if memo is not None:  # a search's memo (verify/score_memo.py): what the same cards scored before
        return memo.scored(state, _by_rule)
    return _by_rule(state)


def _by_rule(state: StateFields) -> list[list[int]]:
    """``score_by_rule``, worked out."""
    game = state.game
    rules = game.score
    runs = _runs(rules)
    size = game.env_size
    out = []
    for p in range(state.n):
        env = [None] * size
        env[0] = p
        points = []
        for i in range(len(runs)):
            run = runs[i]
            if run is None:  # a team's rule: scored once per team, below
                points.append(0)
                continue
            try:
                points.append(run(state, env))
            except RUNTIME_FAILURES as err:
                raise rule_failure(err, rules[i].at, "scoring rule", state.game.read_from_ir) from None
        out.append(points)
    teams = game.ir.get("teams")
    if teams is not None:
        for i, rule in enumerate(rules):
            if rule.team:
                column = [0] * state.n
                _score_teams(state, rule, teams, column)
                for p in range(state.n):
                    out[p][i] = column[p]
    return out


_RUNS: list[tuple] = [((), ())]  # the last (score rules, their runs): a run's rules are one game's


def _runs(rules: tuple) -> tuple:
    """Each score rule's closure for a player (None for a team's rule), read once per game's rules
    rather than each rule's fields by name for each player and round."""
    last = _RUNS[0]
    if last[0] is not rules:
        last = _RUNS[0] = (rules, tuple(None if rule.team else rule.run or _generic(rule) for rule in rules))
    return last[1]


def _score_teams(state: StateFields, rule: Any, teams: dict[str, Any], scores: list[int]) -> None:
    env = [None] * state.game.env_size
    for t in range(state.n // teams["size"]):
        env[rule.slot] = t
        try:
            got = rule.run(state, env)
        except RUNTIME_FAILURES as err:
            raise rule_failure(err, rule.at, "scoring rule", state.game.read_from_ir) from None
        scores[members(t, state.n, teams["size"], teams["seating"])[0]] += got


def team_totals(totals: list[int], teams: dict[str, Any]) -> list[int]:
    """Each team's total: the sum of its members' totals."""
    n = len(totals)
    return [sum(totals[p] for p in members(t, n, teams["size"], teams["seating"])) for t in range(n // teams["size"])]


def team_seats(teams: dict[str, Any] | None, n: int) -> list[list[int]] | None:
    """The seats of each team among ``n`` players (lowest first), or None without teams."""
    if teams is None:
        return None
    return [members(t, n, teams["size"], teams["seating"]) for t in range(n // teams["size"])]


def team_results(totals: list[int], highest: bool, teams: dict[str, Any] | None) -> list[dict[str, Any]] | None:
    """Each team's seats, total and whether it won (a tie shares the win), or None without teams:
    what a record and the statistics say of the teams."""
    if teams is None:
        return None
    won = set(winners(totals, highest, teams))
    seats = team_seats(teams, len(totals)) or []
    return [{"seats": s, "total": sum(totals[p] for p in s), "won": s[0] in won} for s in seats]


def _generic(rule: Any) -> Callable[[Any, list], int]:
    return lambda state, env: _rule_points(state, env, rule)


def rule_runner(rule: Any, source: tuple | None = None) -> Callable[[Any, list], int]:
    """One closure for what a score rule gives the player in the env: per card (or pile), or once.
    ``source``: (z, k, type index or -1, card types) when the rule goes over the cards (of a type) of
    zone instance ``base[z] (+ env[k])``, read in place."""
    each, slot, points, condition, negate, at = rule.each, rule.slot, rule.points, rule.condition, rule.negate, rule.at
    if each is None:

        def once(state: StateFields, env: list) -> int:
            if condition is not None and bool(condition(state, env)) == negate:
                return 0
            got = points(state, env)
            if not isinstance(got, int):
                raise PlayError(f"a score rule gave {got!r}, not a number", at)
            return got

        return once
    if source is not None:
        z, k, ti, tidx = source

        def per_card(state: StateFields, env: list) -> int:
            inst = state.layout.base[z] + env[k] if k >= 0 else state.layout.base[z]
            # (scoring changes no zone: the zone's list is read as it is)
            return total_of(state, env, state.zones[inst], slot, condition, negate, points, at, ti, tidx)

        return per_card
    return lambda state, env: total_of(state, env, each(state, env), slot, condition, negate, points, at, -1, ())


def total_of(
    state: StateFields,
    env: list,
    items: Any,
    slot: cython.Py_ssize_t,
    condition: Any,
    negate: cython.bint,
    points: Any,
    at: Any,
    ti: cython.Py_ssize_t,
    tidx: tuple,
) -> Any:
    """The points of a score rule over ``items`` (those of type ``ti`` when it is not -1, by the
    card types ``tidx``), each bound to the env's ``slot``: those whose condition holds (or, with
    ``negate``, fails), added up."""
    total = 0
    for item in items:
        if ti >= 0:
            c = item  # (a card id: compiled, a C integer, its type read in place)
            if tidx[c] != ti:
                continue
        env[slot] = item
        if condition is not None and bool(condition(state, env)) == negate:
            continue
        got = points(state, env)
        if not isinstance(got, int):
            raise PlayError(f"a score rule gave {got!r}, not a number", at)
        total += got
    return total


def _rule_points(state: StateFields, env: list, rule: Any) -> int:
    """What one score rule gives the player in ``env`` (a rule made without a runner)."""
    return rule_runner(rule)(state, env)


def winners(totals: list[int], highest: bool, teams: dict[str, Any] | None = None) -> list[int]:
    """The seats with the best total; a tie shares the win. With teams, every member of the
    team(s) with the best team total."""
    if teams is not None:
        by_team = team_totals(totals, teams)
        best = max(by_team) if highest else min(by_team)
        n, size, seating = len(totals), teams["size"], teams["seating"]
        return sorted(p for t, v in enumerate(by_team) if v == best for p in members(t, n, size, seating))
    best = max(totals) if highest else min(totals)
    return [seat for seat, t in enumerate(totals) if t == best]
