"""One seat's log of a game, the one every tool speaks (text/event_words.py words it): the terminal,
the browser table, `ruleset replay --seat` and the replay viewer.

A round's entries, in the order they happened: its deal (``{"deal": ...}``, as observe.deal_view),
then each move (as observe.seen_move) followed by what the rules did after it (``{"event": ...}``,
as events.event_record, every kind a narrating state logs), then its scoring (``{"scored": ...}``).
Everything is as ``seat`` was told of it: a card hidden from it is None, so no entry ever names a
card its observation did not show it. ``seat`` None is every seat at once (the replay viewer's
"all seats"); a seat below 0, a spectator's public view.
"""

from __future__ import annotations

from typing import Any

from .events import round_events
from .observe import deal_view, seen_move, unrevealed_removed


def round_log(state: Any, seat: int | None, round_index: int) -> list[dict[str, Any]]:
    """The entries of round ``round_index`` as ``seat`` was told of them (a round still going:
    the moves made so far, less those held until a simultaneous phase reveals them)."""
    log = state.history[round_index]
    played = log["moves"]
    if round_index == len(state.history) - 1 and "scores" not in log and state.pending:
        played = unrevealed_removed(played, state.pending)
    if seat is None:  # every seat at once: each move as its own player saw it
        moves = [seen_move(state, p, p, m) for p, m in played]
    else:
        moves = [seen_move(state, seat, p, m) for p, m in played]
    events = round_events(state, round_index, seat, every=True)
    out: list[dict[str, Any]] = [{"deal": _deal(state, seat, round_index)}]
    out += [{"event": e} for e in events if e["after"] == 0]
    for k, m in enumerate(moves, 1):
        out.append(m)
        out += [{"event": e} for e in events if e["after"] == k]
    if "scores" in log:
        out.append({"scored": {"round": round_index + 1, "scores": list(log["scores"]), "revealed": log["revealed"]}})
    return out


def _deal(state: Any, seat: int | None, round_index: int) -> dict[str, list[Any]]:
    """The deal as ``seat`` saw it (every seat at once: all of it)."""
    if seat is not None:
        return deal_view(state, seat, round_index)
    views = [deal_view(state, p, round_index) for p in range(state.n)]
    return {
        name: [next((v[name][i] for v in views if isinstance(v[name][i], list)), x) for i, x in enumerate(insts)]
        for name, insts in views[0].items()
    }
