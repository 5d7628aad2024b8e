"""Scoring a round (per-card points, conditions, majorities) and the winners of a game."""

from __future__ import annotations

from typing import Any

from .errors import PlayError


def score_round(state: Any) -> list[int]:
    """Each player's points for the round just ended, by the ruleset's score rules."""
    game = state.game
    scores = [0] * state.n
    for p in range(state.n):
        env = [None] * game.env_size
        env[0] = p
        for rule in game.score:
            items = rule.each(state, env) if rule.each is not None else (None,)
            for item in list(items):
                if rule.each is not None:
                    env[rule.slot] = item
                if rule.condition is not None and bool(rule.condition(state, env)) == rule.negate:
                    continue
                points = rule.points(state, env)
                if not isinstance(points, int):
                    raise PlayError(f"a score rule gave {points!r}, not a number", rule.at)
                scores[p] += points
    return scores


def winners(totals: list[int], highest: bool) -> list[int]:
    """The seats with the best total; a tie shares the win."""
    best = max(totals) if highest else min(totals)
    return [seat for seat, t in enumerate(totals) if t == best]
