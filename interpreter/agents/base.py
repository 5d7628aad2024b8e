"""What an agent is given: a view of one seat (its legal moves, its observation), never the state."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from ..errors import RulesetError


class SeatView:
    """One seat's window on a game: the legal moves, and on request the observation."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: Any, seat: int):
        self._state = state
        self.seat = seat

    @property
    def legal_moves(self) -> list[Any]:
        return self._state.legal_moves()

    def observation(self) -> dict[str, Any]:
        """What this seat may see (see interpreter/observe.py)."""
        return self._state.observe(self.seat)

    @property
    def rules(self) -> Any:
        """The Game (the rules, not the state)."""
        return self._state.game


class Agent(Protocol):
    name: str

    def choose(self, view: SeatView) -> Any:
        """The move to play, one of ``view.legal_moves``."""


def agent_rng(seed: int | None, seat: int, name: str) -> random.Random:
    """A seat's own Random, derived from the game's seed (never the module-level one)."""
    return random.Random(f"{seed}:{seat}:{name}")


@contextmanager
def in_sampled_states(agent: str, seat: int) -> Iterator[None]:
    """Errors raised while an agent searches its sampled states say so (the rule's position kept):
    the rules failed in a state the agent imagined, not (yet) in the game itself."""
    try:
        yield
    except RulesetError as err:
        where = f"in a state sampled by agent {agent} of seat {seat} for its search, not in the game itself"
        raise type(err)(f"{err.message} ({where})", err.span, err.hint) from err
