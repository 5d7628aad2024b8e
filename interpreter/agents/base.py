"""What an agent is given: a view of one seat (its legal moves, its observation), never the state."""

from __future__ import annotations

import random
from _random import Random as _CRandom
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from ..errors import RulesetError

try:  # (as random.py takes it: the lean module first)
    from _sha512 import sha512
except ImportError:  # pragma: no cover
    from hashlib import sha512


class SeatView:
    """One seat's window on a game: the legal moves, and on request the observation. A search stops
    at ``deadline`` (a ``time.perf_counter()`` value) when one is given, whatever its own options say:
    a server's budget for one move."""

    __slots__ = ("_state", "deadline", "seat")

    def __init__(self, state: Any, seat: int, deadline: float | None = None):
        self._state = state
        self.seat = seat
        self.deadline = deadline

    @property
    def legal_moves(self) -> list[Any]:
        return self._state.legal_moves()

    def observation(self) -> dict[str, Any]:
        """What this seat may see (see interpreter/observe.py)."""
        return self._state.observe(self.seat)

    @property
    def places(self) -> Any:
        """What a move `card at place` needs to be told apart by its place (greedy._key): the
        zones and where each card lies, read for the seat's own legal moves only."""
        return _Places(self._state)

    @property
    def rules(self) -> Any:
        """The Game (the rules, not the state)."""
        return self._state.game


class _Places:
    """The place of a card in its zone (zone_cards, loc), and nothing else of a state."""

    __slots__ = ("loc", "zone_cards")

    def __init__(self, state: Any):
        self.loc, self.zone_cards = state.loc, state.zone_cards


class Agent(Protocol):
    name: str

    def choose(self, view: SeatView) -> Any:
        """The move to play, one of ``view.legal_moves``."""

    # An agent whose choice reads nothing but the legal moves may also have ``pick(moves)``, the
    # move ``choose`` would play given ``view.legal_moves`` (and drawing the same numbers): a game
    # played by such agents alone asks the state for its moves directly (one_game.play_game).


def agent_rng(seed: int | None, seat: int, name: str) -> random.Random:
    """A seat's own Random, derived from the game's seed (never the module-level one)."""
    return seeded_random(agent_seed_text(seed, seat, name))


def agent_seed_text(seed: int | None, seat: int, name: str) -> str:
    """What a seat's Random is seeded with (``agent_rng``)."""
    return f"{seed}:{seat}:{name}"


_c_seed = _CRandom.seed  # Random's seeding in C, without random.py's frames around it


def seeded_random(text: str) -> random.Random:
    """``random.Random(text)``, the same numbers, made for less: Random.seed turns a str into the
    integer of its UTF-8 bytes followed by their SHA-512 digest (version 2) and seeds with that;
    done here directly, without the frames of Random.__init__ and seed (a run makes one for each
    game and each seat of it)."""
    rng = random.Random.__new__(random.Random)
    reseed(rng, text)
    return rng


def reseed(rng: random.Random, text: str) -> None:
    """Set ``rng`` to the state ``random.Random(text)`` starts in (see ``seeded_random``): a seat's
    agent kept from one game of a run to the next draws what a new one would."""
    data = text.encode()
    _c_seed(rng, int.from_bytes(data + sha512(data).digest()))
    rng.gauss_next = None


@contextmanager
def in_sampled_states(agent: str, seat: int, game: Any) -> Iterator[None]:
    """An agent's search on its sampled states leaves no trace in the game: the rules it made fire
    there are not counted (``game.coverage`` counts the game's own moves), and an error raised
    there says so (the rule's position kept): the rules failed in a state the agent imagined."""
    counts = game.coverage
    before = counts.snapshot() if counts is not None else None
    try:
        yield
    except RulesetError as err:
        where = f"in a state sampled by agent {agent} of seat {seat} for its search, not in the game itself"
        raise type(err)(f"{err.message} ({where})", err.span, err.hint) from err
    finally:
        if before is not None:  # (the same lists, which the compiled rules hold: set back in place)
            counts.restore(before)
