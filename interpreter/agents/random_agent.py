"""The random agent: uniform over the legal moves."""

from __future__ import annotations

from typing import Any

from .base import SeatView, agent_rng


class RandomAgent:
    name = "random"

    def __init__(self, seat: int, seed: int | None):
        self.rng = agent_rng(seed, seat, self.name)

    def choose(self, view: SeatView) -> Any:
        moves = view.legal_moves
        return moves[self.rng.randrange(len(moves))]
