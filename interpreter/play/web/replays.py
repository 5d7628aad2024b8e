"""The replay viewer's side: the games of a record file, stepped through move by move.

Step 0 is the table right after the first deal; step k is after the record's k-th move. Each
game is played back through the rules once by ``records.replay``, as ``ruleset replay`` does (an
illegal move or a differing score is a RecordError), keeping a copy of the state at every step, so
stepping back costs nothing.
"""

from __future__ import annotations

from typing import Any

from ...engine.records import replay
from ...errors import RecordError
from .views import ALL, SPECTATOR, seat_view


class ReplayBook:
    """The records of one file, each with the Game it was played with."""

    def __init__(self, records: list[tuple[dict[str, Any], Any]]):
        self.records = records
        self._steps: dict[int, list[Any]] = {}

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
        if index not in self._steps:
            rec, game = self.records[index]
            out: list[Any] = []
            try:
                final = replay(game, rec, watch=lambda state, m: out.append(state.copy()))
            except RecordError as err:
                raise RecordError(f"game {index + 1}: {err.message}") from None
            self._steps[index] = [*out, final.copy()]
        return self._steps[index]

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
