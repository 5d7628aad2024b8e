"""Limits of play: the bound on moves per round, and the error that names the rule that loops.

The front end's limits live beside what they limit: file size and extends depth in variants.py,
deck size, number size and expression depth in resolve.py, nesting of the text in syntax.py.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..errors import PlayError, source_line

MOVES_PER_CARD = 20
MOVES_EXTRA = 1000
RECENT = 1000  # the loop is looked for among this many of the last moves
MAX_ROUNDS = 10_000  # a game without a `rounds` cap that has not ended by then is endless
MAX_PASSES = 1000  # the most passes an effect's `repeat until` makes before it is a runaway loop


def default_max_moves(cards: int) -> int:
    """Moves a round may take before it counts as endless, unless the game says (`max moves per
    round N`): 20 per card of the game, plus 1000."""
    return MOVES_PER_CARD * cards + MOVES_EXTRA


def _quote(at: str | None) -> str:
    """The source text at a position ``file:line:col``, from the column on, or ''."""
    if not at:
        return ""
    file, line, col = at.rsplit(":", 2)
    text = source_line(file, int(line))
    return text[int(col) - 1 :].strip() if text else ""


def _where(at: str | None, here: str | None) -> str:
    """A position as ``line N`` when it is in the file at ``here``, else in full."""
    if not at:
        return "?"
    file, line, _ = at.rsplit(":", 2)
    return f"line {line}" if here and here.rsplit(":", 2)[0] == file else at


def endless_round(state: Any) -> PlayError:
    """The error for a round that went past the bound: the move played most, its triggers, the phase."""
    game = state.game
    phase = game.phases[state.phase]
    bound = game.max_moves_per_round
    log = state.history  # (None: a search state that keeps no log)
    recent = [move.rule for _, move in log[-1]["moves"][-RECENT:]] if log else []
    span = phase.at
    parts = [f"round {state.round + 1} has not ended after {bound} moves"]
    if recent:
        rule_index, times = Counter(recent).most_common(1)[0]
        rule = game.moves[rule_index]
        span = rule.at or span
        loop = f"move '{rule.name}' was played {times} of the last {len(recent)} times"
        fired = [_where(t.at, span) for t in game.triggers[rule_index] if t.at]
        if fired:
            loop += ", each followed by the trigger at " + ", ".join(fired)
        parts.append(loop)
    ends = game.ir["round"]["phases"][state.phase].get("ends") or {}
    if not phase.moves:  # a phase of effects only, played again and again
        parts.append(
            f"phase '{phase.name}' has no move and was played again and again: its `repeat`'s `until` never held"
        )
    elif ends:
        end_text = _quote(ends.get("at")) or "its end condition"
        parts.append(f"phase '{phase.name}' never reached `{end_text}` ({_where(ends.get('at'), span)})")
    else:
        parts.append(f"phase '{phase.name}' has no `ends when`, and somebody can always move")
    return PlayError(
        "; ".join(parts),
        span or None,
        "make each move bring the phase's end nearer; if the game is only long, "
        f"raise the bound: `max moves per round N` in the game section, or --max-moves N (now {bound} moves a round)",
    )
