"""The rules' own doings between moves: effects `at start` / `at end` of a round or a phase, and
the conditions that end a round, a `repeat` or the game. Each runs with an empty env (nobody's
move: no player, card or target) and names its rule when it fails."""

from __future__ import annotations

from typing import Any

from ..errors import RUNTIME_FAILURES, PlayError, rule_failure


def run_effects(state: Any, effects: Any, at: str | None, what: str) -> None:
    """Run the rules' own effects on the state."""
    try:
        effects(state, [None] * state.game.env_size)
    except RUNTIME_FAILURES as err:
        raise rule_failure(err, at, what, state.game.read_from_ir) from None
    if state.asking is not None:
        raise PlayError(f"{what} cannot ask a player to choose (only a move's triggers can)", at)
    state.cache.clear()
    state._legal = None


def holds(state: Any, condition: Any, at: str | None, what: str) -> bool:
    """Whether a round's, a repeat's or the game's condition holds now."""
    try:
        return bool(condition(state, [None] * state.game.env_size))
    except RUNTIME_FAILURES as err:
        raise rule_failure(err, at, what, state.game.read_from_ir) from None
