# cython: annotation_typing=False
"""Scoring, remembered: the points of a round's end worked out once for each content of what the
score rules read. Half the states of a shrunk game can be final ones, each scored afresh by the
engine, though many hold the same cards where the score rules look (the piles each player collected, say).

What the rules read is found in their IR (and in the definitions and `achieved when` conditions
they call) by an allow-list (reads.py): a single operation outside it (what a seat knows, a variable
holding a zone) and scoring is not remembered. The key holds those parts exactly (card ids in order,
piles kept: ``content_key``, which move_memo.py's keys share): two states with one key are scored
alike, and the engine's coverage of the score rules is what the first of them counted (verify reads
only whether a rule was ever reached).
"""

from __future__ import annotations

from typing import Any

from .reads import Reads, state_reads

TRIAL = 1000  # scorings after which a memo whose keys were mostly new is given up


def score_reads(ir: dict[str, Any]) -> Reads | None:
    """(the zones, the variables and the other parts of the state the score rules read), or None
    when they may read something the key cannot hold (reads.py)."""
    return state_reads(ir, (ir.get("round") or {}).get("score", []))


def keyed(
    game: Any, players: int, zones: frozenset[str], names: frozenset[str], parts: frozenset[str]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    """What ``content_key`` reads for the reads of ``state_reads``: the zone instances of the zones
    (in the zones' order), the variables' indexes, the other parts by name (sorted)."""
    lay = game.layout(players)
    instances = tuple(i for z in sorted(game.zone_index[n] for n in zones) for i in lay.instances[z])
    index = {name: k for k, (name, *_) in enumerate(game.vars)}
    return instances, tuple(sorted(index[n] for n in names)), tuple(sorted(parts))


PILE, END = -2, -1  # in a key: a pile begins, a zone ends (card ids are never below 0)


def content_key(s: Any, instances: tuple, variables: tuple, parts: tuple, first: int) -> tuple:
    """What state ``s`` holds in the zone ``instances`` (each one's card ids in order, each zone
    ended by END, each pile begun by PILE), then the variables ``variables`` and the other
    ``parts``, after ``first``: one flat tuple (the cheapest to hash and compare)."""
    zones = s.zones
    out = [first]
    for i in instances:
        z = zones[i]
        if len(z) and type(z[0]) is list:
            for pile in z:
                out.append(PILE)
                out.extend(pile)
        else:
            out.extend(z)
        out.append(END)
    if variables:
        v = s.vars
        for k in variables:
            x = v[k]
            out.append(tuple(x) if type(x) is list else x)
    for name in parts:  # (the rarer parts: by name)
        x = getattr(s, name)
        out.append(tuple(x) if type(x) is list else tuple(x.items()) if type(x) is dict else x)
    return tuple(out)


class KeyedMemo:
    """What a memo keys (zone instances, variables, other parts: ``content_key``) and what it has
    kept by key; given up once the first TRIAL uses have shown few repeats (keys cost more than
    they save)."""

    def __init__(self, instances: tuple, variables: tuple, parts: tuple):
        self.instances = instances
        self.vars = variables
        self.parts = parts
        self.known: dict[tuple, Any] = {}
        self.calls = 0  # uses asked
        self.off = False  # the memo given up: most keys were new (TRIAL)

    def kept(self, key: tuple, value: Any) -> Any:
        """``value`` kept for ``key`` (worked out for a key not seen before); the memo given up
        when, after TRIAL uses, most keys were new."""
        self.known[key] = value
        if self.calls >= TRIAL and len(self.known) * 2 > self.calls:
            self.off = True
            self.known = {}
        return value


class ScoreMemo(KeyedMemo):
    """The engine's scoring of one game's states, kept by the key of what the score rules read
    (``Game.score_memo``: the engine asks it, scoring.score_by_rule)."""

    def __init__(self, game: Any, players: int, zones: frozenset[str], names: frozenset[str], parts: frozenset[str]):
        KeyedMemo.__init__(self, *keyed(game, players, zones, names, parts))

    def key(self, s: Any) -> tuple:
        """What the score rules read in state ``s`` (``content_key``)."""
        return content_key(s, self.instances, self.vars, self.parts, 0)

    def scored(self, s: Any, score: Any) -> list[list[int]]:
        """``score(s)`` (each player's points by rule), worked out once for each key; every time
        once the first TRIAL scorings have shown few repeats (keys cost more than they save)."""
        if self.off:
            return score(s)
        self.calls += 1
        key = self.key(s)
        got = self.known.get(key)
        if got is None:
            got = self.kept(key, score(s))
        return [row[:] for row in got]


def install(game: Any, players: int) -> ScoreMemo | None:
    """A memo of ``game``'s scoring set as the game's (``Game.score_memo``), when what its score
    rules read can be keyed; None otherwise. ``uninstall`` takes it away."""
    reads = score_reads(game.ir)
    if reads is None or not game.score:
        return None
    memo = ScoreMemo(game, players, *reads)
    object.__setattr__(game, "score_memo", memo)  # (a frozen dataclass: the rules do not change)
    return memo


def uninstall(game: Any) -> None:
    """The game scores every state afresh again."""
    object.__setattr__(game, "score_memo", None)
