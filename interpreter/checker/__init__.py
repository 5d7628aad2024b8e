"""`ruleset check`: everything wrong with a ruleset, before anyone plays it.

Static checks (loader errors gathered, deck arithmetic, rules that cannot apply) then dynamic
ones (seeded random playouts for every player count, within a budget of moves or a number of
games asked: budget.py; rule coverage). See docs/check.md.

Takes a ruleset's path; gives a report of findings, each at its file:line:col.
May import: ``interpreter.simulation``, ``interpreter.agents``, ``interpreter.engine``,
``interpreter.text`` (a failing playout's moves in the words every tool uses), ``interpreter.language``,
``interpreter.loader``, ``interpreter.errors``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .defaults import BUDGET, MOST_GAMES
from .findings import Finding, Report

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..language.variants import BaseFinder, BaseReader

# The engine and the parser are imported by the functions that use them: `ruleset check --help`
# (and every command's --jobs, which reads default_jobs) starts without them.

__all__ = ["BUDGET", "MOST_GAMES", "Finding", "Report", "check", "check_static", "default_jobs"]


def default_jobs() -> int:
    """The processes to use by default: one per CPU this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def check_static(
    path: str,
    report: Report,
    *,
    players: int | None = None,
    sets: dict[str, Any] | None = None,
    text: str | None = None,
    schema: bool = True,
    find: BaseFinder | None = None,
    read: BaseReader | None = None,
) -> tuple[dict[str, Any] | None, Game | None, list[int]]:
    """The checks made without playing (loader problems, deck arithmetic, dead rules) into ``report``;
    gives the IR, the compiled Game and the player counts a playout can deal (None, [] where it stops).
    ``text`` is the file's text when it differs from what is saved (an editor's unsaved buffer);
    ``schema`` False skips the schema check of IR resolved from text (see ``gather``); ``find``
    finds the files `extends` names and ``read`` reads them (see ``load_program``)."""
    from .deck import check_decks, player_counts
    from .gather import gather
    from .rules import check_rules

    sets = dict(sets or {})
    ir, game = gather(path, report, text, schema, find, read, sets)
    if game is None:
        return ir, None, []
    if players is not None and not game.min_players <= players <= game.max_players:
        message = f"--players {players}: the rules are for {game.min_players} to {game.max_players} players"
        report.add(Finding("error", "players", message, None))
        return ir, game, []
    counts = player_counts(game, players)
    bad = check_decks(game, counts, sets, report)
    check_rules(game, counts, sets, report)
    return ir, game, [p for p in counts if p not in bad]


def check(
    path: str,
    *,
    players: int | None = None,
    games: int | None = None,
    seed: int | None = 0,
    jobs: int = 1,
    sets: dict[str, Any] | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    max_moves: int | None = None,
    find: BaseFinder | None = None,
    budget: int = BUDGET,
) -> Report:
    """Check the ruleset at ``path``; the report holds every finding, sorted by position.
    ``games`` random playouts for each player count, or by default as many as ``budget`` moves
    allow (see budget.py); ``max_moves`` bounds the moves of a round in the playouts, instead of
    the game's own bound; ``find`` finds the files `extends` names (see ``load_program``)."""
    from .budget import run_playouts
    from .playouts import report_playouts

    start = time.perf_counter()
    report = Report(str(path))
    sets = dict(sets or {})
    ir, game, playable = check_static(str(path), report, players=players, sets=sets, find=find)
    if game is not None and games != 0 and playable:
        results, counts = run_playouts(str(path), sets, playable, games, seed, jobs, progress, max_moves, budget, ir)
        report_playouts(game, results, {c.players: c.stop if games is None else None for c in counts}, report)
    report.seconds = time.perf_counter() - start
    return report
