# cython: annotation_typing=False
"""Legal moves, remembered: a move rule's moves listed once for each content of what its guards
read. After each move the engine lists the next player's legal moves (to pass a player who has
none), a fifth of a shrunk game's search, though many states hold the same cards where the guards
look (the mover's hand and the piles played to, not what was collected nor who played what).

What a rule's guards read is found in their IR (reads.py: an allow-list; a rule reading what a key
cannot hold is not remembered). The key holds the seat, the cards of the rule's source for that
seat and of every instance of its target zone and of the zones the guards name (card ids in
order, piles kept), and the variables and other parts they read: two states with one key have the
same legal moves, in the same order. A rule whose moves are listed from a choice's value, an ask's
or a place of the zone (draws, sets, `at place`) is not remembered.

The engine's coverage of the guards is what the first listing of each key counted (verify reads
only whether a rule was ever reached, as of the score rules, score_memo.py). The memo stands in for
the rule's generator (``MoveRule.generate``) for the search's time only (``install`` and
``uninstall``).
"""

from __future__ import annotations

from typing import Any

from .reads import state_reads
from .score_memo import KeyedMemo, content_key, keyed


class MoveMemo(KeyedMemo):
    """One move rule's generator (``gen(state, player, out)``), its lists of moves kept by the key of
    what the rule reads for each seat (``moves`` stands in for the generator)."""

    def __init__(self, generate: Any, instances: tuple, variables: tuple, parts: tuple):
        KeyedMemo.__init__(self, instances, variables, parts)  # (instances: seat -> the zone instances keyed)
        self.generate = generate  # the rule's own generator (moves.compile_generator)

    def moves(self, s: Any, p: int, out: list) -> None:
        """The rule's moves for seat ``p`` in state ``s``, appended to ``out``: listed by the rule's
        generator once for each key; every time once the first listings have shown few repeats
        (score_memo.TRIAL)."""
        if self.off:
            self.generate(s, p, out)
            return
        self.calls += 1
        key = content_key(s, self.instances[p], self.vars, self.parts, p)
        got = self.known.get(key)
        if got is None:
            found: list = []
            self.generate(s, p, found)  # (a guard that fails raises here: nothing is kept)
            got = self.kept(key, tuple(found))
        out.extend(got)


def memo_for(game: Any, players: int, rule: Any, node: dict[str, Any]) -> MoveMemo | None:
    """A memo of move rule ``rule`` (its IR ``node``), or None when its moves are not listed from
    its source's cards by guards whose reads a key can hold."""
    if rule.choice is not None or rule.at_place or "choice" in node or not node.get("guards"):
        return None  # (a choice, a place: listed otherwise; no guard: every card, listed at once)
    reads = state_reads(game.ir, node["guards"])  # (each guard's expression and its `when`)
    if reads is None:
        return None
    zones, names, parts = reads
    instances, variables, parts_read = keyed(game, players, zones, names, parts)
    lay = game.layout(players)
    fixed = set(instances) | set(lay.instances[rule.target])  # (a guard reads each target's cards)
    base = lay.base[rule.source]
    per_seat = tuple(tuple(sorted(fixed | {base + (p if rule.source_per_player else 0)})) for p in range(players))
    return MoveMemo(rule.generate, per_seat, variables, parts_read)


def install(game: Any, players: int) -> list[tuple[Any, MoveMemo]]:
    """A memo set as the generator of each of ``game``'s move rules that can have one (the rule
    and its memo); ``uninstall`` puts the rules' own generators back."""
    card_moves = [m for ph in game.ir["round"]["phases"] for m in ph["moves"]]  # (numbered as game.moves)
    out = []
    for rule, node in zip(game.moves, card_moves, strict=False):  # (the asks' rules come after)
        memo = memo_for(game, players, rule, node)
        if memo is not None:
            object.__setattr__(rule, "generate", memo.moves)  # (a frozen dataclass: the rules do not change)
            out.append((rule, memo))
    return out


def uninstall(memos: list[tuple[Any, MoveMemo]]) -> None:
    """The rules list every state's moves afresh again."""
    for rule, memo in memos:
        object.__setattr__(rule, "generate", memo.generate)
