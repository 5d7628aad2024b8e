"""The greedy agent: one move ahead, by the round's score as the ruleset scores it."""

from __future__ import annotations

import time
from typing import Any

from ..engine.card_sets import CardSet, Pick
from ..engine.flow import holds
from ..engine.scoring import score_round
from .base import SeatView, agent_rng, in_sampled_states
from .belief import Belief


def position_values(state: Any, round_index: int) -> list[int]:
    """Each seat's total if the round were scored now (or its total once the round is over); in a
    cooperative game, the shared outcome for every seat: 1 when the players win (once the game is
    over) or would win if it ended now, else 0."""
    if state.game.cooperative:
        return [together_now(state)] * state.n
    if state.is_over or state.round != round_index:
        return list(state.totals)
    return [t + s for t, s in zip(state.totals, score_round(state), strict=True)]


def together_now(state: Any) -> int:
    """1 when a cooperative game is won (over) or its condition holds now (not yet over), else 0."""
    if state.is_over:
        return int(bool(state.won_together))
    flow = state.game.flow
    return int(holds(state, flow.all_win, flow.at.get("all_win"), "cooperative win"))


class GreedyAgent:
    """Plays the move whose immediate effect on its score is best; ties broken at random (seeded).

    The effect is measured on a sampled full state (see belief.py), averaged over ``samples``
    samples; no game knowledge.
    """

    def __init__(self, seat: int, seed: int | None, samples: int = 1):
        """An agent for ``seat``; its chance is seeded from the game's seed."""
        self.samples = max(1, int(samples))
        self.name = "greedy" if self.samples == 1 else f"greedy(samples={self.samples})"
        self.rng = agent_rng(seed, seat, "greedy")
        self.memory: dict = {}

    def choose(self, view: SeatView) -> Any:
        """The legal move with the best immediate score, by the rules' own scoring."""
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        with in_sampled_states(self.name, view.seat, view.rules):
            values = self._values(view, moves)
        best = max(values)
        top = [m for m, v in zip(moves, values, strict=True) if v == best]
        return top[self.rng.randrange(len(top))]

    def _values(self, view: SeatView, moves: list[Any]) -> list[float]:
        """Each move's score change for this seat, summed over the sampled states."""
        game = view.rules
        obs = view.observation()
        sign = 1 if game.winner_highest or game.cooperative else -1
        belief = Belief(game, obs, self.rng, self.memory)
        values = [0.0] * len(moves)
        key = {_key(game, m, view.places): i for i, m in enumerate(moves)}
        for done in range(self.samples):
            if done and view.deadline is not None and time.perf_counter() >= view.deadline:
                break  # a server's budget for the move: the samples so far decide
            state = belief.sample()
            if state is None:
                continue
            state.rounds = state.round + 1  # a move that ends the round ends the game: no next deal
            now = position_values(state, state.round)[view.seat]
            options = {_key(game, mv, state): mv for mv in reversed(state.legal_moves())}
            tries = [(key[k], mv) for k, mv in options.items() if k in key]
            last, round_index = len(tries) - 1, state.round
            for n, (i, mv) in enumerate(tries):
                after = state if n == last else state.copy(memo=True, log=False)  # (the sample is not read again)
                after.apply(mv)
                values[i] += sign * (position_values(after, round_index)[view.seat] - now)
        return values


def _key(game: Any, move: Any, state: Any = None) -> tuple[int, int, Any]:
    """A move as the seat tells it apart: rule, kind of card (copies are alike), target (a choice:
    its rule and value; a set of cards: the kinds of its cards, and where they go; a move `card at
    place`, read in ``state``: the place, never the card, which differs from sample to sample)."""
    if move.card >= 0:
        if state is not None and game.moves[move.rule].at_place:
            return (move.rule, -2, (state.zone_cards(state.loc[move.card]).index(move.card), move.target))
        return (move.rule, game.cards.kind[move.card], move.target)
    chosen = move.target
    if type(chosen) is CardSet:
        kind = game.cards.kind
        return (move.rule, move.card, (chosen.to, tuple(sorted(kind[c] for c in chosen.cards))))
    if type(chosen) is Pick:  # a card towards a set chosen card by card: its kind
        return (move.rule, move.card, ("pick", game.cards.kind[chosen.card]))
    return (move.rule, move.card, chosen)
