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

from .events import event_record
from .observe import deal_view, seen_move, unrevealed_removed


def round_log(state: Any, seat: int | None, round_index: int, last: int | None = None) -> list[dict[str, Any]]:
    """The entries of round ``round_index`` as ``seat`` was told of them (a round still going:
    the moves made so far, less those held until a simultaneous phase reveals them). ``last``: only
    the last ``last`` moves, each with what the rules did after it (no deal: a page that shows the
    latest entries of a long round words only those, not the whole round at every message)."""
    log = state.history[round_index]
    played = log["moves"]
    if round_index == len(state.history) - 1 and "scores" not in log and state.pending:
        played = unrevealed_removed(played, state.pending)
    start = 0 if last is None or last >= len(played) else len(played) - last
    if seat is None:  # every seat at once: each move as its own player saw it
        moves = [seen_move(state, p, p, m) for p, m in played[start:]]
    else:
        moves = [seen_move(state, seat, p, m) for p, m in played[start:]]
    after: dict[int, list[dict[str, Any]]] = {}  # move number -> the events right after it
    for ev in log.get("events", ()):
        if ev[1] > start or not start:
            after.setdefault(ev[1], []).append({"event": event_record(state, ev, seat)})
    out: list[dict[str, Any]] = [] if start else [{"deal": _deal(state, seat, round_index)}, *after.get(0, ())]
    for k, m in enumerate(moves, start + 1):
        out.append(m)
        out += after.get(k, ())
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
