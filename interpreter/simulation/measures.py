"""Game-quality measures: what one game shows (its decisions and how the lead went), folded over
many games into figures with 95% intervals. The definitions, formulas and sources are in
docs/evaluate.md; the names below are the ones used there.

A game is played as ``one_game.play_game`` plays it, with two looks per move that change
nothing: before the move, the legal moves the agent was given (how many real choices); after
it, every seat's *position*, the total it would have if the round were scored as it stands
(``agents.greedy.position_values``, the rules' own scoring), oriented so that more is better.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from ..agents import SeatView, make_agents
from ..agents.greedy import position_values
from ..engine.game import Game
from ..engine.scoring import team_seats
from ..errors import RulesetError
from .stats import Moments

# ---- one game ---------------------------------------------------------------------------------


def choices(game: Game, legal: list[Any]) -> int:
    """The real choices among legal moves: moves alike in rule, kind of card and target count once.

    Copies of a card (same type and attributes) are alike to every rule, so playing one copy or
    another to the same place leads to the same position up to swapping the copies; the agents
    tell moves apart the same way (``agents.greedy._key``)."""
    if len(legal) < 2:
        return len(legal)
    kind = game.cards.kind
    return len({(m.rule, kind[m.card], m.target) for m in legal})


def positions(state: Any, sign: int) -> list[float]:
    """Every seat's position now, oriented (more is better). The round is scored as it stands;
    a ruleset whose scoring cannot be read mid-round (an error) gives the totals so far.
    Scoring here is a look, not play: the rule counts (``game.coverage``) are left as they were."""
    counts = state.game.coverage
    saved = counts.snapshot() if counts is not None else None
    try:
        values = position_values(state, state.round)
    except RulesetError:
        values = list(state.totals)
    finally:
        if saved is not None:
            counts.restore(saved)
    return [sign * v for v in values]


def leaders(values: list[float]) -> frozenset[int]:
    """The seats with the best position (several on a tie)."""
    best = max(values)
    return frozenset(s for s, v in enumerate(values) if v == best)


def by_team(values: list[float], teams: list[list[int]] | None) -> list[float]:
    """Each seat's position as its team's (the members' sum), so partners lead together; as is
    without teams."""
    if not teams:
        return values
    out = list(values)
    for seats in teams:
        total = sum(values[p] for p in seats)
        for p in seats:
            out[p] = total
    return out


def play_observed(
    game: Game,
    players: int,
    seed: int | None,
    agents: str | list[str] | None = None,
    params: dict[str, Any] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Play one game as ``play_game`` does, observing each decision and the lead after each move.

    Returns the final State and the game's observation (see ``drama`` and docs/evaluate.md)."""
    state = game.new_game(players, seed, params)
    seats = make_agents(agents, players, seed)
    views = [SeatView(state, seat) for seat in range(players)]
    sign = 1 if game.winner_highest or game.cooperative else -1
    teams = team_seats(game.ir.get("teams"), players)
    hist: Counter = Counter()  # real choices at a decision -> decisions
    forced = legal = 0
    trail = [leaders(by_team(positions(state, sign), teams))]
    while not state.over:
        seat = state.current
        view = views[seat]
        moves = view.legal_moves
        legal += len(moves)
        n = choices(game, moves)
        hist[n] += 1
        forced += n == 1
        state.apply(seats[seat].choose(view))
        trail.append(leaders(by_team(positions(state, sign), teams)))
    decisions = len(trail) - 1
    final = [sign * t for t in state.totals]
    if teams:  # the margin is between teams (a partner's total is not a rival's)
        final = [sum(final[p] for p in seats) for seats in teams]
    lead = drama(trail, frozenset(state.winners()), final)
    if game.cooperative:  # the players win or lose as one: no seat is a winner who could be behind
        lead |= {"behind": None, "decided": None}
    return state, {
        "decisions": decisions,
        "forced": forced,
        "legal": legal,
        "choices": sorted(hist.items()),
        **lead,
    }


def drama(trail: list[frozenset[int]], winners: frozenset[int], final: list[float]) -> dict[str, Any]:
    """The lead measures of one game from its leaders after the deal and after each of its T moves.

    lead_changes: moves after which the set of leaders differs from the one before (change_rate:
    the same per move, comparable between games of different lengths); behind: the
    share of the T moves after which no eventual winner led; decided: t*/T, t* the first point
    from which an eventual winner always led (0: from the deal on); margin: the winner's final
    lead over the best other seat (0 on a tie)."""
    moves = len(trail) - 1
    changes = sum(a != b for a, b in itertools.pairwise(trail))
    behind = sum(not (lead & winners) for lead in trail[1:])
    decided = len(trail)
    while decided > 0 and trail[decided - 1] & winners:
        decided -= 1
    ranked = sorted(final, reverse=True)
    # how well the lead tells the winner at each tenth of the game: a leader picked at random wins
    foresight = [len(trail[round(d * moves / 10)] & winners) / len(trail[round(d * moves / 10)]) for d in range(11)]
    return {
        "foresight": foresight,
        "lead_changes": changes,
        "change_rate": changes / moves if moves else None,
        "behind": behind / moves if moves else None,
        "decided": decided / moves if moves else None,
        "margin": ranked[0] - ranked[1] if len(ranked) > 1 else 0.0,
    }


# ---- many games -------------------------------------------------------------------------------


class Measures:
    """The decision and drama measures of many games, folded one observation at a time."""

    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.choices = Moments()  # per game: mean real choices per decision
        self.legal = Moments()  # per game: mean legal moves per decision (copies of a card apart)
        self.all_choices = Moments()  # every decision: its real choices (the spread of play)
        self.choice_hist: Counter = Counter()
        self.forced = Moments()  # per game: share of forced decisions
        self.decisions = Moments()  # per game: decisions per player
        self.free = Moments()  # per game: unforced decisions per player
        self.lead_changes = Moments()
        self.change_rate = Moments()  # per game: lead changes per move (Ludii's Lead Change)
        self.behind = Moments()
        self.decided = Moments()
        self.margin = Moments()
        self.foresight = [Moments() for _ in range(11)]  # per tenth of the game: the lead names a winner
        self.uncertain = Moments()  # per game: the mean over the tenths of 1 - that chance

    def add(self, obs: dict[str, Any]) -> None:
        """Fold in one game's observation (in game-index order, as Tally does)."""
        self.games += 1
        d = obs["decisions"]
        if d:
            total = sum(n * k for n, k in obs["choices"])
            self.choices.add(total / d)
            self.legal.add(obs["legal"] / d)
            self.forced.add(obs["forced"] / d)
        for n, k in obs["choices"]:
            self.choice_hist[n] += k
            self.all_choices.n += k
            self.all_choices.total += n * k
            self.all_choices.squares += n * n * k
            self.all_choices.low = min(self.all_choices.low, n)
            self.all_choices.high = max(self.all_choices.high, n)
        self.decisions.add(d / self.players)
        self.free.add((d - obs["forced"]) / self.players)
        self.lead_changes.add(obs["lead_changes"])
        for name in ("behind", "decided", "change_rate"):
            if obs[name] is not None:
                getattr(self, name).add(obs[name])
        self.margin.add(obs["margin"])
        if obs["behind"] is not None:  # (a cooperative game has no winner to foresee)
            for m, q in zip(self.foresight, obs["foresight"], strict=True):
                m.add(q)
            self.uncertain.add(sum(1 - q for q in obs["foresight"]) / len(obs["foresight"]))

    def decision_figures(self) -> dict[str, Any]:
        """Choices per decision (per-game mean, its interval; spread over every decision), forced share,
        decisions per player per game."""
        spread = self.all_choices.summary()
        return {
            "choices": {**self.choices.summary(), "sd_all": spread["sd"], "min": spread["min"], "max": spread["max"]},
            "legal": self.legal.summary(),
            "forced": self.forced.summary(),
            "per_player": self.decisions.summary(),
            "free_per_player": self.free.summary(),
            "distribution": [[n, self.choice_hist[n]] for n in sorted(self.choice_hist)],
        }

    def drama_figures(self) -> dict[str, Any]:
        """Lead changes, the share of moves the winner was behind, when the game was decided, the margin."""
        return {
            "lead_changes": self.lead_changes.summary(),
            "lead_changes_per_move": self.change_rate.summary(),
            "winner_behind": self.behind.summary(),
            "decided_at": self.decided.summary(),
            "margin": self.margin.summary(),
            **self.uncertainty(),
        }

    def uncertainty(self) -> dict[str, Any]:
        """Browne's uncertainty: how late the lead tells the eventual winner. ``foresight`` is, at each
        tenth of the game (0: after the deal, 10: the end), the chance that a leading seat picked at
        random is an eventual winner; ``uncertainty`` the mean over the tenths of what that chance
        lacks of certainty, 1 - chance (0: the deal tells the winner; near 1: nobody can tell until the
        end); ``foreseen_at`` the first tenth from which the chance stays at 90% or more (None: never
        before the end)."""
        if not self.foresight[0].n:
            return {}
        curve = [m.summary() for m in self.foresight]
        seen = next((d for d in range(11) if all(c["mean"] >= 0.9 for c in curve[d:])), None)
        return {
            "foresight": curve,
            "uncertainty": self.uncertain.summary(),
            "foreseen_at": None if seen is None else seen / 10,
        }
