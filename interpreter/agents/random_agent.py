"""The random agent: uniform over the legal moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import SeatView, agent_rng, agent_seed_text, reseed

if TYPE_CHECKING:  # (the compiled engine reads `cython.Py_ssize_t` annotations as C integers, which
    # plain Python never evaluates)
    import cython


_BIT_LENGTHS = tuple(n.bit_length() for n in range(256))  # n -> n.bit_length(), read from a table


class RandomAgent:
    """Draws each move uniformly from its seat's own Random (typed in the compiled engine:
    random_agent.pxd)."""

    name = "random"

    def __init__(self, seat: int, seed: int | None):
        self.seat = seat
        self.rng = agent_rng(seed, seat, self.name)
        self.bits = self.rng.getrandbits

    def reseed(self, seed: int | None) -> None:
        """Become the agent ``RandomAgent(self.seat, seed)`` would be (a run keeps its seats' agents
        from game to game: one_game.Seats), its Random seeded again in place."""
        reseed(self.rng, agent_seed_text(seed, self.seat, self.name))

    def choose(self, view: SeatView) -> Any:
        return self.pick(view.legal_moves)

    def pick(self, moves: list[Any]) -> Any:
        """One of ``moves``, uniformly: what ``choose`` plays, given the legal moves themselves (a
        loop that asks nothing else of the seat's view skips the view: one_game.play_game)."""
        # rng.choice(moves), drawn as random.Random draws it (rejection over bit_length bits), in
        # place: the same move from the same seed, without two calls through random.py a move
        n: cython.Py_ssize_t = len(moves)  # (C integers, compiled: the move read in place)
        k: cython.Py_ssize_t = _BIT_LENGTHS[n] if n < 256 else n.bit_length()  # (a call through Python, spared)
        r: cython.Py_ssize_t
        bits = self.bits
        r = bits(k)
        while r >= n:
            r = bits(k)
        return moves[r]
