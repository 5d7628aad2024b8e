"""Scoring a round (per-card points, conditions, majorities) and the winners of a game."""

from __future__ import annotations

from typing import Any

from .errors import RUNTIME_FAILURES, PlayError, rule_failure


def score_round(state: Any) -> list[int]:
    """Each player's points for the round just ended, by the ruleset's score rules."""
    game = state.game
    scores = [0] * state.n
    for p in range(state.n):
        env = [None] * game.env_size
        env[0] = p
        total = 0
        for rule in game.score:
            try:
                total += _rule_points(state, env, rule)
            except RUNTIME_FAILURES as err:
                raise rule_failure(err, rule.at, "scoring rule") from None
        scores[p] = total
    return scores


def _rule_points(state: Any, env: list, rule: Any) -> int:
    """What one score rule gives the player in ``env``: per card (or pile), or once."""
    each, condition, points = rule.each, rule.condition, rule.points
    if each is None:
        if condition is not None and bool(condition(state, env)) == rule.negate:
            return 0
        got = points(state, env)
        if not isinstance(got, int):
            raise PlayError(f"a score rule gave {got!r}, not a number", rule.at)
        return got
    total = 0
    slot = rule.slot
    for item in list(each(state, env)):
        env[slot] = item
        if condition is not None and bool(condition(state, env)) == rule.negate:
            continue
        got = points(state, env)
        if not isinstance(got, int):
            raise PlayError(f"a score rule gave {got!r}, not a number", rule.at)
        total += got
    return total


def winners(totals: list[int], highest: bool) -> list[int]:
    """The seats with the best total; a tie shares the win."""
    best = max(totals) if highest else min(totals)
    return [seat for seat, t in enumerate(totals) if t == best]
