"""The random agent: uniform over the legal moves."""

from __future__ import annotations

from typing import Any

from .base import SeatView, agent_rng


class RandomAgent:
    name = "random"

    def __init__(self, seat: int, seed: int | None):
        self.rng = agent_rng(seed, seat, self.name)
        self.bits = self.rng.getrandbits

    def choose(self, view: SeatView) -> Any:
        # rng.choice(moves), drawn as random.Random draws it (rejection over bit_length bits), in
        # place: the same move from the same seed, without two calls through random.py a move
        moves = view.legal_moves
        n = len(moves)
        k = n.bit_length()
        bits = self.bits
        r = bits(k)
        while r >= n:
            r = bits(k)
        return moves[r]
