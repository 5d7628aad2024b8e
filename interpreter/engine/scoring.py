"""Scoring a round (per-card points, conditions, majorities) and the winners of a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import RUNTIME_FAILURES, PlayError, rule_failure


def score_round(state: Any) -> list[int]:
    """Each player's points for the round just ended, by the ruleset's score rules."""
    return [sum(points) for points in score_by_rule(state)]


def score_by_rule(state: Any) -> list[list[int]]:
    """For each player, what each score rule gives them for the round just ended (in rule order)."""
    game = state.game
    out = []
    for p in range(state.n):
        env = [None] * game.env_size
        env[0] = p
        points = []
        for rule in game.score:
            try:
                points.append((rule.run or _generic(rule))(state, env))
            except RUNTIME_FAILURES as err:
                raise rule_failure(err, rule.at, "scoring rule") from None
        out.append(points)
    return out


def _generic(rule: Any) -> Callable[[Any, list], int]:
    return lambda state, env: _rule_points(state, env, rule)


def rule_runner(rule: Any, source: tuple | None = None) -> Callable[[Any, list], int]:
    """One closure for what a score rule gives the player in the env: per card (or pile), or once.
    ``source``: (z, k, type index or -1, card types) when the rule goes over the cards (of a type) of
    zone instance ``base[z] (+ env[k])``, read in place."""
    each, slot, points, condition, negate, at = rule.each, rule.slot, rule.points, rule.condition, rule.negate, rule.at
    if each is None:

        def once(state: Any, env: list) -> int:
            if condition is not None and bool(condition(state, env)) == negate:
                return 0
            got = points(state, env)
            if not isinstance(got, int):
                raise PlayError(f"a score rule gave {got!r}, not a number", at)
            return got

        return once

    def total_of(state: Any, env: list, items: Any) -> int:
        total = 0
        for item in items:  # (scoring changes no zone: a zone's list is read as it is)
            env[slot] = item
            if condition is not None and bool(condition(state, env)) == negate:
                continue
            got = points(state, env)
            if not isinstance(got, int):
                raise PlayError(f"a score rule gave {got!r}, not a number", at)
            total += got
        return total

    if source is not None:
        z, k, ti, tidx = source

        def per_card(state: Any, env: list) -> int:
            base = state.layout.base[z]
            items = state.zones[base + env[k]] if k >= 0 else state.zones[base]
            return total_of(state, env, [c for c in items if tidx[c] == ti] if ti >= 0 else items)

        return per_card

    return lambda state, env: total_of(state, env, each(state, env))


def _rule_points(state: Any, env: list, rule: Any) -> int:
    """What one score rule gives the player in ``env`` (a rule made without a runner)."""
    return rule_runner(rule)(state, env)


def winners(totals: list[int], highest: bool) -> list[int]:
    """The seats with the best total; a tie shares the win."""
    best = max(totals) if highest else min(totals)
    return [seat for seat, t in enumerate(totals) if t == best]
