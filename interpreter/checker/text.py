"""The report as text for people: grouped by file and line, the source line and a caret, a hint."""

from __future__ import annotations

from ..errors import plural, quote, shown
from .defaults import CHUNK, MOST_GAMES
from .findings import Finding, Report

MOVES_SHOWN = 12  # the last moves of a failing game shown in text (JSON has them all)

# Why a player count's playouts stopped, when no --games was given (see budget.py); "most", the
# cap of games, goes without saying.
STOPPED = {"budget": "its share of the budget spent", "failures": "stopped: more than a tenth failed"}
BUDGETED = (
    "without --games, each player count plays until it has spent its share of a budget of moves "
    f"(--budget) to the nearest chunk of {CHUNK} games (to within a game, when a chunk of them would pass it), "
    f"played {MOST_GAMES} games, or seen more than a tenth "
    "of its playouts fail"
)


def format_finding(f: Finding, failures: str | None = None) -> list[str]:
    """One finding: `file:line:col: severity: message`, the line, a caret, hint, note, replay."""
    head = f"{f.at.shown()}: " if f.at else ""
    out = [f"{head}{f.severity}: {f.message}"]
    if f.at:
        out += quote(f.at)
    if f.hint:
        out.append(f"  hint: {f.hint}")
    if f.note:
        out.append("  note (from the ruleset): " + " ".join(f.note.split()))
    if f.replay:
        moves = f.replay.get("moves") or []
        out.append(f"  game: {f.replay['players']} players, seed {f.replay['seed']}, {plural(len(moves), 'move')}")
        if moves:
            shown = moves[-MOVES_SHOWN:]
            skipped = f"... {len(moves) - len(shown)} earlier, " if len(moves) > len(shown) else ""
            out.append(f"  moves: {skipped}{', '.join(shown)}")
            if failures:
                out.append(f"  its record is in {failures}: ruleset replay {failures} shows where it fails")
            else:
                out.append("  to replay it: add --failures FAILED.jsonl, then run ruleset replay FAILED.jsonl")
    return out


def format_report(report: Report, show_info: bool = True, failures: str | None = None) -> str:
    """The whole report: findings by file and position, then the playouts and a summary line."""
    lines: list[str] = []
    current = None
    for f in report.sorted():
        if f.severity == "info" and not show_info:
            continue
        file = shown(f.at.file) if f.at else report.file
        if file != current:
            lines.append(f"== {file}")
            current = file
        lines.extend(format_finding(f, failures))
    if report.playouts:
        figures = ", ".join(
            f"{p['players']} players: {plural(p['games'], 'game')}, {p['moves_per_game']:.0f} moves each"
            + (f" ({STOPPED[p['stopped']]})" if p.get("stopped") in STOPPED else "")
            for p in report.playouts
        )
        lines.append(f"playouts: {figures}")
        if any(p.get("stopped") for p in report.playouts):
            lines.append(f"  ({BUDGETED})")
    lines.append(report.summary())
    return "\n".join(lines)
