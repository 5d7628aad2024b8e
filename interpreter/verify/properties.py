# cython: annotation_typing=False
"""What verify proves of every reachable state: the built-in properties (no deadlock, every round
ends, no card made or lost, every offered move applies, scores are numbers, the game ends) and the
designer's own `checks` (`always C`, `never C`, `sometimes C`); and, once the whole space is
explored, the rules that no state ever reached (exact, where check's list is sampled)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..checker.playouts import SOMETIMES, rule_positions
from ..engine.accounting import cards_accounted
from ..engine.game import STUCK_END
from ..errors import RulesetError, plural
from ..text.phrases import say

BUILT_IN = (
    ("deadlock", "no deadlock: while the game is not over, someone can move"),
    ("loop", "every round ends: no line of play comes back to a situation it left"),
    ("endless", "the game ends: no game goes on for ever, round after round"),
    ("cards", "no card made or lost: every card in exactly one zone"),
    ("play", "every offered move applies: no rule fails on a legal move"),
    ("score", "scores are whole numbers"),
)


@dataclass
class Failure:
    """A property broken: by state ``state`` (a state number; -1 a deal), or by the step
    ``step`` played from it (a move and its shuffles' orders; for a deal, (None, orders));
    a loop's ``loop``: the state numbers round it, ``state`` first; `sometimes`: no state."""

    kind: str
    message: str
    at: str | None
    state: int
    step: tuple | None = None
    loop: list[int] | None = None
    depth: int = -1  # the state's moves from its deal (-1: a deal that failed, or no state)
    found: tuple = ()  # where the search met it, in its order (explore.py): the first is kept


def failure_kind(err: BaseException) -> tuple[str, str, str | None]:
    """(property, message, rule position) of the rules failing while a move is played."""
    if isinstance(err, RulesetError):
        span = str(err.span) if getattr(err, "span", None) else None
        if "nobody can move" in err.message:
            return "deadlock", err.message, span
        if "has not ended after" in err.message and "round" in err.message and "moves" not in err.message:
            return "endless", err.message, span
        if "score rule gave" in err.message:
            return "score", err.message, span
        return "play", err.message, span
    return "play", f"the engine failed: {type(err).__name__}: {err}", None


class Properties:
    """The properties of one game with a number of players, checked state by state."""

    def __init__(self, game: Any, players: int):
        self.game = game
        self.absent = game.cards.absent(players)  # the copies this many players do not use
        self.checks = game.checks
        self.words = {c.at: f"{c.kind} {say(c.node)}" for c in self.checks}
        self.seen: set[str] = set()  # the `sometimes` checks that held somewhere

    def names(self) -> list[tuple[str, str, str | None]]:
        """Every property checked: (name, words, rule position)."""
        own = [(c.kind, self.words[c.at], c.at) for c in self.checks]
        return [(k, w, None) for k, w in BUILT_IN] + own

    def check(self, s: Any) -> list[tuple[str, str, str | None]]:
        """The properties state ``s`` breaks: (property, message, rule position)."""
        out = []
        why = cards_accounted(s, self.absent)
        if why:
            out.append(("cards", why, None))
        if s.over:
            bad = [t for t in s.totals if not isinstance(t, int) or isinstance(t, bool)]
            if bad:
                out.append(("score", f"a total is not a whole number: {bad[0]!r}", None))
        for c in self.checks:
            try:
                held = c.held(s)
            except RulesetError as err:
                out.append((c.kind, f"{self.words[c.at]}: cannot be worked out here: {err.message}", c.at))
                continue
            if c.kind == "sometimes":
                if held:
                    self.seen.add(c.at)
            elif held != (c.kind == "always"):
                out.append((c.kind, f"{self.words[c.at]}: broken in this state", c.at))
        return out

    def never_held(self) -> list[Failure]:
        """The `sometimes` checks no state reached satisfies."""
        return [
            Failure("sometimes", f"{self.words[c.at]}: holds in no state reached", c.at, -1)
            for c in self.checks
            if c.kind == "sometimes" and c.at not in self.seen
        ]

    def loop(self, graph: Any) -> Failure | None:
        """A loop in the graph of states (a round that can go on for ever): the one entered the
        soonest, the fewest moves round; None when there is none."""
        if rising(graph.succ, graph.depth):
            return None
        # (state numbers follow the breadth-first order, the fewest moves first: the lowest entry
        # is the soonest, and the same whatever processes found the states, jobs.py)
        best = min(((min(c), c) for c in cycles(graph.succ)), default=None)
        if best is None:
            return None
        entry, component = best
        ring = shortest_ring(graph.succ, entry, set(component))
        return Failure(
            "loop",
            f"a line of {plural(len(ring), 'move')} comes back to the situation it started from: "
            "the round can go on for ever",
            None,
            entry,
            loop=ring,
        )

    def unreached(self, complete: bool) -> list[tuple[str, str, str | None]]:
        """The rules no state explored reached: (position, kind, note). Only when ``complete``
        is this exact (for this instance); otherwise it is what the explored part did not reach."""
        counts = self.game.coverage or {}
        return [
            (at, kind, note)
            for at, kind, note in rule_positions(self.game.ir)
            if not counts.get(at, 0) and kind not in (STUCK_END, SOMETIMES)
        ]


def rising(succ: list[tuple[int, ...]], depth: list[int]) -> bool:
    """Whether every move leads one move deeper from the deals than the state it is played in: then
    the graph holds no cycle (round a cycle, the depth would have to come back down), and the
    search for one (``cycles``) is spared: most games, whose every move plays a card for good."""
    for v in range(len(succ)):
        d = depth[v] + 1
        for w in succ[v]:
            if depth[w] != d:
                return False
    return True


def cycles(succ: list[tuple[int, ...]]) -> list[list[int]]:
    """The strongly connected components of the graph that hold a cycle (Tarjan, without recursion;
    the states numbered from 0, so each mark is a list indexed by state)."""
    size = len(succ)
    index = [-1] * size  # -1: not visited yet
    low = [0] * size
    on = bytearray(size)  # on the stack
    stack: list[int] = []
    out: list[list[int]] = []
    work_v: list[int] = []  # the depth-first path: each state, and the next of its successors to follow
    work_i: list[int] = []
    counter = 0
    for root in range(size):
        if index[root] >= 0:
            continue
        work_v.append(root)
        work_i.append(0)
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on[root] = 1
        while work_v:
            v = work_v[-1]
            i = work_i[-1]
            kids = succ[v]
            if i < len(kids):
                work_i[-1] = i + 1
                w = kids[i]
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on[w] = 1
                    work_v.append(w)
                    work_i.append(0)
                elif on[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work_v.pop()
            work_i.pop()
            if work_v:
                u = work_v[-1]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on[w] = 0
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1 or v in kids:
                    out.append(component)
    return out


def shortest_ring(succ: list[tuple[int, ...]], entry: int, inside: set[int]) -> list[int]:
    """The states of a shortest cycle through ``entry`` within ``inside``, ``entry`` first."""
    back = {entry: -1}
    queue = [entry]
    for v in queue:
        for w in succ[v]:
            if w == entry:
                ring = [v]
                while back[ring[-1]] != -1:
                    ring.append(back[ring[-1]])
                return ring[::-1]
            if w in inside and w not in back:
                back[w] = v
                queue.append(w)
    return [entry]
