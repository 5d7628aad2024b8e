"""`ruleset check`: everything wrong with a ruleset, before anyone plays it.

Static checks (loader errors gathered, deck arithmetic, rules that cannot apply) then dynamic
ones (seeded random playouts for every player count, rule coverage). See docs/check.md.

Takes a ruleset's path; gives a report of findings, each at its file:line:col.
May import: ``interpreter.simulation``, ``interpreter.agents``, ``interpreter.engine``,
``interpreter.language``, ``interpreter.loader``, ``interpreter.errors``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .deck import check_decks, player_counts
from .findings import Finding, Report
from .gather import gather
from .playouts import check_playouts, default_jobs
from .rules import check_rules

__all__ = ["Finding", "Report", "check", "default_jobs"]


def check(
    path: str,
    *,
    players: int | None = None,
    games: int = 1000,
    seed: int | None = 0,
    jobs: int = 1,
    sets: dict[str, Any] | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> Report:
    """Check the ruleset at ``path``; the report holds every finding, sorted by position."""
    start = time.perf_counter()
    report = Report(str(path))
    sets = dict(sets or {})
    _, game = gather(str(path), report)
    if game is not None:
        if players is not None and not game.min_players <= players <= game.max_players:
            report.add(
                Finding(
                    "error",
                    "players",
                    f"--players {players}: the rules are for {game.min_players} to {game.max_players} players",
                    None,
                )
            )
        else:
            counts = player_counts(game, players)
            bad = check_decks(game, counts, sets, report)
            check_rules(game, counts, sets, report)
            playable = [p for p in counts if p not in bad]
            if games > 0 and playable:
                check_playouts(game, str(path), sets, playable, games, seed, jobs, report, progress)
    report.seconds = time.perf_counter() - start
    return report
