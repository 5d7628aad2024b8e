"""`ruleset check`: everything wrong with a ruleset, before anyone plays it.

Static checks (loader errors gathered, deck arithmetic, rules that cannot apply) then dynamic
ones (seeded random playouts for every player count, rule coverage). See docs/check.md.

Takes a ruleset's path; gives a report of findings, each at its file:line:col.
May import: ``interpreter.simulation``, ``interpreter.agents``, ``interpreter.engine``,
``interpreter.text`` (a failing playout's moves in the words every tool uses), ``interpreter.language``,
``interpreter.loader``, ``interpreter.errors``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..engine.game import Game
from ..language.variants import BaseFinder, BaseReader
from .deck import check_decks, player_counts
from .findings import Finding, Report
from .gather import gather
from .playouts import check_playouts, default_jobs
from .rules import check_rules

__all__ = ["Finding", "Report", "check", "check_static", "default_jobs"]


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
    games: int = 1000,
    seed: int | None = 0,
    jobs: int = 1,
    sets: dict[str, Any] | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    max_moves: int | None = None,
    find: BaseFinder | None = None,
) -> Report:
    """Check the ruleset at ``path``; the report holds every finding, sorted by position.
    ``max_moves`` bounds the moves of a round in the playouts, instead of the game's own bound;
    ``find`` finds the files `extends` names (see ``load_program``)."""
    start = time.perf_counter()
    report = Report(str(path))
    sets = dict(sets or {})
    _, game, playable = check_static(str(path), report, players=players, sets=sets, find=find)
    if game is not None and games > 0 and playable:
        check_playouts(game, str(path), sets, playable, games, seed, jobs, report, progress, max_moves)
    report.seconds = time.perf_counter() - start
    return report
