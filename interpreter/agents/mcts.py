"""The mcts agent: information-set Monte Carlo tree search with determinization.

Each iteration takes a full state sampled from what the seat could know (belief.py), walks one
tree shared by all samples (moves told apart by rule, kind of card and target; a child is chosen
among the moves legal in this sample, by UCB with availability counts), adds one node, plays
``depth`` random moves (DEPTH unless asked; 0: to the end of the round), stopping at the end of
the round (and plays to it when the decision's first playout found it within REACH * depth
moves), then scores the round as it stands and backs up each player's score change, as the
ruleset scores it. A decision samples a pool of worlds (one for every ITERATIONS_PER_WORLD
iterations, SAMPLES at most) and the iterations cycle through copies of them; a sampled state
ends the game with its round (the search looks no further, so no playout deals the next one)
and its copies keep what it computed (``State.copy(memo=True)``: its legal moves, the values kept
with its zones) but no round log (``log=False``: nothing the search reads is in it). Nothing to
choose (one legal move, or copies of one card) is decided at once. It never reads the real state.
"""

from __future__ import annotations

import math
import time
from typing import Any

from .base import SeatView, agent_rng, in_sampled_states
from .belief import Belief
from .greedy import _key, position_values

# Sampling a world can fail (the sampler finds no deal the seat's view allows in its tries): a
# decision with no world yet keeps trying, up to one failed call (3 tries each) an iteration and
# EMPTY_MISSES at most, before it plays at random; once it has one, it stops adding worlds after
# FULL_MISSES failed calls and searches those it has. Counts, not seconds: the same decision on any
# machine.
EMPTY_MISSES = 100
FULL_MISSES = 8
# A playout plays DEPTH random moves at most, then the round is scored as it stands (the rules' own
# scoring: what greedy weighs a move by); a round of hundreds of moves cannot be played to its end
# at every iteration. A round that ends within REACH * depth random moves of the first playout of a
# decision (in its first world) is played to its end by every playout of the decision: near the
# end of a round, its result rather than a guess.
DEPTH = 8
REACH = 3
# ... to its end, or ENDLESS * REACH * depth moves at most: a sampled world the rules never end
# (a player who holds a card the public record says they lack: Go Fish's asks then go round for
# ever) is scored as it stands there, rather than stopping the game at the rules' bound of moves.
ENDLESS = 40
# The sampled worlds of a decision: one for every ITERATIONS_PER_WORLD iterations, SAMPLES at most
# (each world searched several times; sampling one is a copy and a deal).
ITERATIONS_PER_WORLD = 6
SAMPLES = 16


class Node:
    """A tree node: the move into it, by whom, and its statistics."""

    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: int | None):
        """A node reached by a move of ``player`` (None at the root)."""
        self.player = player
        self.children: dict[tuple, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


class MctsAgent:
    """ISMCTS over sampled states; ``iterations`` per move, or ``time`` seconds per move."""

    def __init__(
        self,
        seat: int,
        seed: int | None,
        iterations: int = 300,
        time: float = 0.0,
        c: float = 0.7,
        depth: int = DEPTH,
        samples: int = 0,
    ):
        """An agent for ``seat``; its chance is seeded from the game's seed. ``depth`` 0 plays each
        playout to the end of the round; ``samples`` 0 takes a world for every
        ``ITERATIONS_PER_WORLD`` iterations, ``SAMPLES`` at most (``SAMPLES`` when searching for a time)."""
        self.iterations, self.time, self.c, self.depth = int(iterations), float(time), float(c), int(depth)
        if self.iterations < 1 and self.time <= 0:
            raise ValueError("mcts needs iterations >= 1 or time > 0")
        if self.depth < 0 or int(samples) < 0:
            raise ValueError("mcts's depth and samples are 0 or more")
        by_iterations = SAMPLES if self.time > 0 else min(SAMPLES, max(1, self.iterations // ITERATIONS_PER_WORLD))
        self.samples = int(samples) or by_iterations
        opts = [f"iterations={self.iterations}"] if self.time <= 0 else [f"time={self.time:g}"]
        opts += [f"c={self.c:g}"] if self.c != 0.7 else []
        opts += [f"depth={self.depth}"] if self.depth != DEPTH else []
        opts += [f"samples={self.samples}"] if int(samples) else []
        self.name = "mcts" if opts == ["iterations=300"] else f"mcts({','.join(opts)})"
        self.rng = agent_rng(seed, seat, "mcts")
        self.memory: dict = {}
        self.playouts = 0
        self.misses = 0  # failed sampling calls in the current decision (_sample)

    def choose(self, view: SeatView) -> Any:
        """The most visited move at the root after the search; at once when there is nothing to
        choose (one legal move, or every legal move a copy of one: the same key, as the search
        tells moves apart)."""
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        game, places = view.rules, view.places
        first = _key(game, moves[0], places)
        if all(_key(game, m, places) == first for m in moves):
            return moves[0]
        with in_sampled_states(self.name, view.seat, view.rules):
            return self._search(view, moves)

    def _search(self, view: SeatView, moves: list[Any]) -> Any:
        """The search itself: iterations over sampled states, then the most visited root move.
        One function, its names bound to locals once: it is the agent's hot loop."""
        game, rng = view.rules, self.rng
        kind = game.cards.kind  # a move's key is (rule, kind of card, target), as _key makes it (a choice: _key's)
        by_place = frozenset(r.index for r in game.moves if r.at_place)  # (their key: _key's, by place)
        randrange, log, sqrt, c, depth = rng.randrange, math.log, math.sqrt, self.c, self.depth
        sign = 1 if game.winner_highest or game.cooperative else -1
        belief = Belief(game, view.observation(), rng, self.memory)
        root = Node(None)
        lo = hi = 0.0
        deadline = time.perf_counter() + self.time if self.time > 0 else None
        iterations = self.iterations if deadline is None else None
        if view.deadline is not None:  # a server's budget for the move: it ends the search first
            deadline = view.deadline if deadline is None else min(deadline, view.deadline)
        perf_counter = time.perf_counter
        done = 0
        probe = depth > 0  # (the first playout: does the round end within REACH * depth moves?)
        pool: list[Any] = []
        self.misses = 0
        empty_misses = EMPTY_MISSES if iterations is None else min(iterations, EMPTY_MISSES)
        while (iterations is None or done < iterations) and (  # (one try at least, whatever the deadline)
            deadline is None or (done == 0 and not self.misses) or perf_counter() < deadline
        ):
            entry = self._sample(belief, pool, done)
            if entry is None:  # no world yet: sample again while the budget of misses lasts
                if self.misses < empty_misses:
                    continue
                break
            done += 1
            state, start = entry[0].copy(memo=True, log=False), entry[1]
            round_index = state.round
            legal_moves, apply = state.legal_moves, state.apply
            node, path = root, [root]
            # selection and expansion (a sample ends the game with its round: over is the end of the round)
            while not state.over and state.round == round_index:
                legal = {
                    (m[0], kind[m[1]], m[2]) if m[1] >= 0 and m[0] not in by_place else _key(game, m, state): m
                    for m in reversed(legal_moves())
                }
                children = node.children
                untried = [k for k in legal if k not in children]
                if untried:
                    k = untried[randrange(len(untried))]
                    child = children[k] = Node(state.current)
                    apply(legal[k])
                    path.append(child)
                    break
                best, best_k = -math.inf, None
                span = (hi - lo) or 1.0
                for k in legal:
                    ch = children[k]
                    ch.avail += 1
                    visits = ch.visits
                    score = (ch.total / visits - lo) / span + c * sqrt(log(ch.avail) / visits)
                    if score > best:
                        best, best_k = score, k
                node = children[best_k]
                apply(legal[best_k])
                path.append(node)
            _playout(state, round_index, depth, randrange)
            self.playouts += 1
            end = position_values(state, round_index)
            if probe:  # the first playout goes on unscored, to tell whether the round ends within reach
                probe = False
                if not state.over and state.round == round_index:
                    _playout(state, round_index, (REACH - 1) * depth, randrange)
                if state.over or state.round != round_index:  # it does: every playout plays to the end
                    depth = ENDLESS * REACH * depth
                    end = position_values(state, round_index)
            gain = [sign * (e - s) for e, s in zip(end, start, strict=True)]
            lo, hi = min(lo, *gain), max(hi, *gain)
            for nd in path:
                nd.visits += 1
                if nd.player is not None:
                    nd.total += gain[nd.player]
        return _most_visited(game, moves, root, rng, view.places)

    def _sample(self, belief: Belief, pool: list[Any], done: int) -> tuple | None:
        """The sampled world (a state, and its position values) to search in iteration ``done``: a
        new sample while the pool holds fewer than ``samples``, else (or when sampling fails) the
        pool's next one in turn; None when the pool is empty."""
        if len(pool) < self.samples and (not pool or self.misses < FULL_MISSES):
            sampled = belief.sample(attempts=3)
            if sampled is None:
                self.misses += 1
            else:
                sampled.rounds = sampled.round + 1  # the search looks no further: no next deal
                sampled.legal_moves()  # listed once here, kept by every copy (copy(memo=True))
                pool.append((sampled, position_values(sampled, sampled.round)))
                return pool[-1]
        return pool[done % len(pool)] if pool else None


def _playout(state: Any, round_index: int, depth: int, randrange: Any) -> None:
    """Random moves to the end of the round (or ``depth`` moves, when set)."""
    legal_moves, apply = state.legal_moves, state.apply
    if depth:
        steps = 0
        while not state.over and state.round == round_index and steps < depth:
            legal = legal_moves()
            apply(legal[randrange(len(legal))])
            steps += 1
    else:
        while not state.over and state.round == round_index:
            legal = legal_moves()
            apply(legal[randrange(len(legal))])


def _most_visited(game: Any, moves: list[Any], root: Node, rng: Any, places: Any = None) -> Any:
    """The legal move whose key the search visited most (ties broken by the agent's rng)."""
    counts = {k: ch.visits for k, ch in root.children.items()}
    ranked = sorted(moves, key=lambda m: -counts.get(_key(game, m, places), -1))
    best_count = counts.get(_key(game, ranked[0], places), -1)
    top = [m for m in ranked if counts.get(_key(game, m, places), -1) == best_count]
    return top[rng.randrange(len(top))]
