"""How often each rule fired over a run: the rules a Game compiled with coverage counts, by position.

``compile_ir(ir, coverage=True)`` counts, by the rule's "file:line:col", each time a guard held,
a trigger fired, a phase ended, a scoring rule gave points and a card's condition was achieved.
This module lists those rules from the IR (so a rule that never fired shows as 0) and names
each one by its kind, its place (``place``: the file as a user names it) and the line of the
rules file it stands on.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ..engine.game import flow_rules
from ..errors import Span, source_line
from ..language.files import shipped_name
from .stats import Moments


def countable_rules(ir: dict[str, Any]) -> list[tuple[str, str]]:
    """(position, what it is) of every rule that coverage counts, in the order of the IR."""
    out: list[tuple[str, str]] = []
    for deck in ir.get("decks", []):
        for line in deck.get("cards", []):
            achieved = line.get("achieved")
            if isinstance(achieved, dict) and achieved.get("at"):
                out.append((achieved["at"], f"card condition of {line.get('type', 'a card')}"))
    for phase in ir["round"]["phases"]:
        for move in phase["moves"]:
            for guard in move["guards"]:
                if guard.get("at"):
                    out.append((guard["at"], f"move {move['name']}: {guard.get('kind', 'guard')}"))
        for trigger in phase["triggers"]:
            if trigger.get("at"):
                out.append((trigger["at"], f"after {trigger['after']}"))
        ends = phase.get("ends")
        if ends and ends.get("at"):
            out.append((ends["at"], f"phase {phase['name']} ends"))
    for rule in ir["round"]["score"]:
        if rule.get("at"):
            out.append((rule["at"], "score"))
    out += [(node["at"], kind) for node, kind in flow_rules(ir) if node.get("at")]
    return out


def rule_text(at: str) -> str:
    """The rules-file line a position stands on, trimmed ('' when the file is not at hand)."""
    try:
        span = Span.parse(at)
    except ValueError:
        return ""
    return (source_line(span.file, span.line) or "").strip()


def place(at: str) -> str:
    """A rule's position as a user names its file: relative to the current directory when it lies
    below it, a shipped ruleset by its name (not where the package is installed), any other file
    by its full path; ``..`` resolved, so that a rule read through a variant's ``extends
    "../x.rules"`` has one name however it was reached."""
    try:
        file, line, col = at.rsplit(":", 2)
    except ValueError:
        return at
    if not file or file.startswith("<"):
        return at
    path = Path(file).resolve()
    if path.is_relative_to(Path.cwd()):
        return f"{path.relative_to(Path.cwd())}:{line}:{col}"
    return f"{shipped_name(path) or path}:{line}:{col}"


def rule_table(
    ir: dict[str, Any], counts: Counter, squares: Counter, games: int, present: Counter | None = None
) -> list[dict[str, Any]]:
    """Each countable rule (and any other counted position): times fired, and per game with its interval.

    ``counts[at]`` is the sum over games of the times the rule fired in a game, ``squares[at]``
    the sum of their squares (integers: exact in any order); ``present[at]``, when given, the
    games in which it fired at least once (then each row has ``games_fired``).
    """
    rules = dict(countable_rules(ir))
    for at in counts:
        rules.setdefault(at, "rule")
    out = []
    for at, what in rules.items():
        per_game = Moments(games, float(counts.get(at, 0)), float(squares.get(at, 0)))
        row = {
            "at": place(at),
            "rule": what,
            "text": rule_text(at),
            "fired": counts.get(at, 0),
            "per_game": per_game.mean,
            "per_game_sd": per_game.sd,
            "per_game_ci": per_game.summary()["ci"],
        }
        if present is not None:
            row["games_fired"] = present.get(at, 0)
        out.append(row)
    return out
