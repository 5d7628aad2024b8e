"""The statistics of a run: each finished game reduced to an outcome, outcomes folded in
game-index order into a Tally, and the Tally's figures (each estimate with its interval).

An outcome is plain data (lists and ints), so a worker process or a dask worker can send it
back; folding in game-index order makes a serial, ``--jobs`` or dask run give the same figures.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..engine.scoring import team_results
from ..engine.scoring import winners as best_seats
from .stats import Clustered, Moments, holm, rate_p_value, rate_summary, significant, wilson

if TYPE_CHECKING:  # (Cython reads `cython.Py_ssize_t` annotations as C integers; plain Python never does)
    import cython

    from ..engine.coverage import RuleCounts


def outcome(state: Any, in_turns: list[bool] | None = None) -> dict[str, Any]:
    """What the statistics need of a finished game: totals, winners, rounds (first mover, scores), moves.

    A round's first mover is the first to move in a phase taken in turns (a simultaneous phase,
    like everyone choosing a card at once, has no first mover; an answer to an ask is no turn).
    ``in_turns`` (``taken_in_turns(game)``, made once for a run's games) says it of each move rule.
    """
    game, rounds, moves = state.game, [], 0
    if in_turns is None:
        in_turns = taken_in_turns(game)
    for r in state.history:
        played = r["moves"]
        moves += len(played)
        first = -1
        for p, m in played:
            if in_turns[m.rule]:
                first = p
                break
        scores = r.get("scores")
        rounds.append([first, list(scores) if scores else []])
    out = {"totals": list(state.totals), "winners": state.winners(), "rounds": rounds, "moves": moves}
    if game.cooperative:  # all seats won together, or none did
        out["together"] = bool(state.won_together)
    teams = game.ir.get("teams")
    if teams is not None:
        out["teams"] = [[t["total"], t["won"]] for t in team_results(state.totals, game.winner_highest, teams)]
    return out


def taken_in_turns(game: Any) -> list[bool]:
    """For each move rule of the game, whether it is played in turns (not in a simultaneous phase, not
    an answer to an ask)."""
    return [rule.phase >= 0 and not game.phases[rule.phase].simultaneous for rule in game.moves]


class RuleTally:
    """A chunk's rule counts folded one game at a time (parallel.play_chunk): per rule, the sum over
    games of the times it fired, the sum of their squares and the games in which it fired.

    ``coverage`` is the Game's own (``game.coverage``, an engine.coverage.RuleCounts; None when rules
    are not counted): a game is folded from the rules it counted (``touched``), each read at its
    place in the list of counts and set back to 0 there, with no dict read or store. The chunk keeps
    the rules in the order it first counted them (``order``), as a fold of each game's counts in
    turn into Counters would add them."""

    def __init__(self, coverage: RuleCounts | None):
        self.coverage = coverage
        self.sums: list[int] = []  # by rule index
        self.squares: list[int] = []
        self.present: list[int] = []
        self.order: list[int] = []  # the rule indexes counted in the chunk, in the order first counted

    def add(self) -> None:
        """Fold in the game just played, and set its counts back to 0."""
        coverage = self.coverage
        if coverage is None:
            return
        touched: list = coverage.touched  # (typed, as the lists below: compiled, each is read in place)
        if not touched:
            return
        counts: list = coverage.counts
        sums: list = self.sums
        squares: list = self.squares
        present: list = self.present
        order: list = self.order
        grown = len(counts) - len(sums)
        if grown > 0:
            for column in (sums, squares, present):
                column.extend([0] * grown)
        i: cython.Py_ssize_t
        for i in touched:
            n = counts[i]
            counts[i] = 0
            if not present[i]:
                order.append(i)
            sums[i] += n
            squares[i] += n * n
            present[i] += 1
        touched.clear()

    def counters(self) -> tuple[Counter, Counter, Counter]:
        """Per rule position: the sums, the squares and the games it fired in."""
        names = self.coverage.names if self.coverage is not None else []
        return tuple(
            Counter({names[i]: column[i] for i in self.order}) for column in (self.sums, self.squares, self.present)
        )


def histogram(counts: Counter) -> list[list[float]]:
    """A Counter of values as [value, count] pairs in value order (JSON-able)."""
    return [[value, counts[value]] for value in sorted(counts)]


class Tally:
    """Per-seat, per-round, per-agent and game-length figures, folded one game at a time."""

    def __init__(
        self,
        players: int,
        agents: list[str],
        highest: bool = True,
        teams: list[list[int]] | None = None,
        cooperative: bool = False,
    ):
        self.players = players
        self.cooperative = cooperative  # all players win or lose together: one win rate, the players'
        self.together_wins = 0
        self.teams = teams  # each team's seats, when the ruleset has teams
        self.team_scores = [Moments() for _ in teams or ()]
        self.team_wins = [0] * len(teams or ())
        self.agents = agents
        self.highest = highest
        self.games = 0
        self.scores = [Moments() for _ in range(players)]
        self.score_hist = [Counter() for _ in range(players)]
        self.wins = [0] * players
        self.winner_slots = 0  # sum over games of the number of winners (ties share a win)
        self.shared = 0  # games won by several seats at once (a tie for the win)
        self.round_scores: list[list[Moments]] = []
        self.round_team_scores: list[list[Moments]] = []  # per round, each team's points (its members' sum)
        self.first_lead = Moments()  # round score of the first mover minus the others' mean
        self.first_wins = self.first_rounds = self.round_winner_slots = 0
        # the same figures with a game's rounds as one cluster, for their intervals and the test
        self.first_lead_by_game, self.first_best_by_game = Clustered(), Clustered()
        self.moves = Moments()
        self.rounds = Moments()
        self.moves_hist: Counter = Counter()
        self.coverage: Counter = Counter()  # rule position -> times fired, over all games
        self.coverage_squares: Counter = Counter()  # rule position -> sum of (times fired in a game)^2
        names = list(dict.fromkeys(agents))
        self.agent_seats = {a: [s for s in range(players) if agents[s] == a] for a in names}
        self.agent_scores = {a: Moments() for a in names}
        self.agent_wins = dict.fromkeys(names, 0)

    def add(self, out: dict[str, Any]) -> None:
        """Fold in one game's outcome (call in game-index order)."""
        self.games += 1
        agents, agent_scores, score_hist = self.agents, self.agent_scores, self.score_hist
        scores: list = self.scores
        m: Moments  # (typed: compiled, each `m.add` is a C call, not a method looked up by name)
        for seat, t in enumerate(out["totals"]):
            m = scores[seat]
            m.add(t)
            score_hist[seat][t] += 1
            m = agent_scores[agents[seat]]
            m.add(t)
        winners = out["winners"]
        for seat in winners:
            self.wins[seat] += 1
            self.agent_wins[agents[seat]] += 1
        self.winner_slots += len(winners)
        self.shared += len(winners) > 1 and not self.cooperative
        self.together_wins += out.get("together", False)
        for t, (total, won) in enumerate(out.get("teams", ())):
            self.team_scores[t].add(total)
            self.team_wins[t] += won
        leads = bests = counted = 0
        players, highest, teams, round_scores = self.players, self.highest, self.teams, self.round_scores
        for index, (first, round_points) in enumerate(out["rounds"]):
            if not round_points:
                continue
            while len(round_scores) <= index:
                round_scores.append([Moments() for _ in range(players)])
            row: list = round_scores[index]
            for seat, x in enumerate(round_points):
                m = row[seat]
                m.add(x)
            if teams:  # a team's points are written on one member: the team's row is their sum
                while len(self.round_team_scores) <= index:
                    self.round_team_scores.append([Moments() for _ in teams])
                for t, seats in enumerate(teams):
                    self.round_team_scores[index][t].add(sum(round_points[p] for p in seats))
            if first >= 0 and players > 1:
                others = (sum(round_points) - round_points[first]) / (players - 1)
                lead = round_points[first] - others
                lead = lead if highest else -lead
                m = self.first_lead
                m.add(lead)
                best = best_seats(round_points, highest)
                self.first_rounds += 1
                self.first_wins += first in best
                self.round_winner_slots += len(best)
                leads, bests, counted = leads + lead, bests + (first in best), counted + 1
        self.first_lead_by_game.add(leads, counted)
        self.first_best_by_game.add(bests, counted)
        moves = out["moves"]
        m = self.moves
        m.add(moves)
        self.moves_hist[moves] += 1
        m = self.rounds
        m.add(len(out["rounds"]))

    def seats(self) -> list[dict[str, Any]]:
        """Per seat: mean score (and its spread and interval), wins, win rate and its interval, advantage."""
        n, fair = self.games, self.fair_share()
        # every seat is tested at once: Holm's correction keeps a fair game's false alarms at 5%
        p_values = [rate_p_value(w, n, fair) for w in self.wins]
        adjusted = holm(p_values)
        out = []
        for s in range(self.players):
            lo, hi = wilson(self.wins[s], n)
            out.append(
                {
                    "seat": s,
                    "agent": self.agents[s],
                    "mean_score": self.scores[s].mean,
                    "score": self.scores[s].summary(),
                    "wins": self.wins[s],
                    "win_rate": self.wins[s] / n if n else 0.0,
                    "win_rate_ci": [lo, hi],
                    "advantage": {
                        "value": (self.wins[s] / n if n else 0.0) - fair,
                        "ci": [lo - fair, hi - fair],
                        "p": p_values[s],
                        "p_adjusted": adjusted[s],
                        "correction": "holm",
                        "significant": significant(adjusted[s]),
                    },
                }
            )
        return out

    def by_team(self) -> list[dict[str, Any]]:
        """Per team: its seats, wins, win rate and mean total with their intervals (a tie shares the
        win, so the rates may add up to more than 1)."""
        return [
            {
                "team": t,
                "seats": seats,
                "wins": self.team_wins[t],
                "win_rate": rate_summary(self.team_wins[t], self.games),
                "score": self.team_scores[t].summary(),
            }
            for t, seats in enumerate(self.teams or ())
        ]

    def together(self) -> dict[str, Any]:
        """A cooperative game's figures: the games the players won together, and that win rate with
        its interval (every seat's own row says the same: all win or none does)."""
        return {"wins": self.together_wins, "win_rate": rate_summary(self.together_wins, self.games)}

    def fair_share(self) -> float:
        """The win rate every seat would have in a fair game (ties make it more than 1/players)."""
        return self.winner_slots / (self.games * self.players) if self.games else 0.0

    def first_player(self) -> dict[str, Any]:
        """The first mover's advantage per round: score lead over the others' mean, and best-score
        rate. The rounds of one game are not independent (the same seats, the same deal of luck), so
        the intervals, and the test, count a game's rounds as one cluster (see ``Clustered``)."""
        fair = self.round_winner_slots / (self.first_rounds * self.players) if self.first_rounds else 0.0
        best = rate_summary(self.first_wins, self.first_rounds)
        best["ci"] = self.first_best_by_game.rate_interval()
        lead = self.first_lead.summary()
        lead["ci"] = self.first_lead_by_game.mean_interval()
        return {
            "rounds": self.first_rounds,
            "games": self.first_lead_by_game.clusters,
            "clustered_by": "game",
            "score_lead": lead,
            "best_round_rate": best,
            "fair_share": fair,
            "significant": _outside(lead["ci"], 0) or _outside(best["ci"], fair),
        }

    def by_agent(self) -> list[dict[str, Any]]:
        """Per agent (over every seat it held): seat-games, wins, win rate and mean score with intervals."""
        out = []
        for name, seats in self.agent_seats.items():
            n = self.games * len(seats)
            out.append(
                {
                    "agent": name,
                    "seats": seats,
                    "seat_games": n,
                    "wins": self.agent_wins[name],
                    "win_rate": rate_summary(self.agent_wins[name], n),
                    "score": self.agent_scores[name].summary(),
                }
            )
        return out

    def summary(self) -> dict[str, Any]:
        """Every figure of the run as JSON-able data (see docs/simulation.md)."""
        seats = self.seats()
        by_agent = len(set(self.agents)) > 1  # then a seat's difference is its agent's as much as its own
        return {
            "seats": seats,
            "fair_share": self.fair_share(),
            "shared_wins": rate_summary(self.shared, self.games),
            "seat_advantage": [] if by_agent else [s["seat"] for s in seats if s["advantage"]["significant"]],
            "seats_differ_by_agent": by_agent,
            "first_player": self.first_player(),
            "per_round": [
                {
                    "round": i + 1,
                    "seats": [m.summary() for m in ms],
                    **({"teams": [m.summary() for m in self.round_team_scores[i]]} if self.teams else {}),
                }
                for i, ms in enumerate(self.round_scores)
            ],
            "length": {"moves": self.moves.summary(), "rounds": self.rounds.summary()},
            "moves_per_game": self.moves.mean,
            "rounds_per_game": self.rounds.mean,
            "by_agent": self.by_agent(),
            **({"teams": self.by_team()} if self.teams else {}),
            **({"cooperative": self.together()} if self.cooperative else {}),
            "distributions": {
                "scores": [histogram(h) for h in self.score_hist],
                "moves": histogram(self.moves_hist),
            },
        }


def _outside(ci: Any, value: float) -> bool:
    """Whether an interval (None with too few samples to have one) leaves out the value."""
    return ci is not None and not ci[0] <= value <= ci[1]
