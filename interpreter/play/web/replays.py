"""The replay viewer's side: the games of a record file, stepped through move by move.

Step 0 is the table right after the first deal; step k is after the record's k-th move. Each
game is played back through the rules once by ``records.replay``, as ``ruleset replay`` does (an
illegal move or a differing score is a RecordError), keeping a copy of the state at every step, so
stepping back costs nothing. The steps of the last ``KEEP`` games asked for are kept (a copy of the
state a step: kept for every game of a file of thousands, a visitor asking for each game grew the
server without bound), and one game is replayed at a time; the app calls ``view`` in a thread.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ...engine.records import replay
from ...errors import RecordError
from .views import ALL, SPECTATOR, seat_view

KEEP = 8  # games whose steps are kept


class ReplayBook:
    """The records of one file, each with the Game it was played with."""

    def __init__(self, records: list[tuple[dict[str, Any], Any]]):
        self.records = records
        self.kept: OrderedDict[int, list[Any]] = OrderedDict()
        self._kept_lock = threading.Lock()  # (the kept games, read and changed by several threads)
        self._replaying = threading.Lock()  # (one game replayed at a time: CPU, and memory while it runs)

    def summary(self) -> list[dict[str, Any]]:
        """The games on offer: their ruleset, players, totals and number of moves."""
        return [
            {
                "game": i,
                "ruleset": rec["ruleset"],
                "players": rec["players"],
                "agents": rec.get("agents"),
                "totals": rec.get("totals"),
                "moves": sum(len(r["moves"]) for r in rec["rounds"]),
            }
            for i, (rec, _) in enumerate(self.records)
        ]

    def steps(self, index: int) -> list[Any]:
        """The state after each move of game ``index`` (built on first use, by ``records.replay``)."""
        found = self._kept(index)
        if found is not None:
            return found
        with self._replaying:
            found = self._kept(index)  # (replayed for another request meanwhile)
            if found is not None:
                return found
            rec, game = self.records[index]
            out: list[Any] = []
            try:
                final = replay(game, rec, watch=lambda state, m: out.append(state.copy()))
            except RecordError as err:
                raise RecordError(f"game {index + 1}: {err.message}") from None
            with self._kept_lock:
                steps = self.kept[index] = [*out, final.copy()]
                while len(self.kept) > KEEP:
                    self.kept.popitem(last=False)
            return steps

    def _kept(self, index: int) -> list[Any] | None:
        with self._kept_lock:
            found = self.kept.get(index)
            if found is not None:
                self.kept.move_to_end(index)
            return found

    def view(self, index: Any, step: Any, seat: Any) -> dict[str, Any]:
        """Game ``index`` at ``step`` as ``seat`` saw it ("all": every seat's cards; "table": a spectator)."""
        if not isinstance(index, int) or not 0 <= index < len(self.records):
            raise RecordError(f"there is no game {index!r} in this file")
        states = self.steps(index)
        if not isinstance(step, int) or not 0 <= step < len(states):
            raise RecordError(f"game {index + 1} has steps 0 to {len(states) - 1}, not {step!r}")
        n = self.records[index][0]["players"]
        who = {"all": ALL, "table": SPECTATOR}.get(seat, seat)
        if not isinstance(who, int) or not (who in (ALL, SPECTATOR) or 0 <= who < n):
            raise RecordError(f"seat is all, table or 0 to {n - 1}, not {seat!r}")
        return {
            "type": "replay",
            "game": index,
            "step": step,
            "steps": len(states) - 1,
            "view": seat_view(states[step], who),
        }
