# cython: annotation_typing=False
"""Scoring, remembered: the points of a round's end worked out once for each content of what the
score rules read. Half the states of a shrunk game can be final ones, each scored afresh by the
engine, though many hold the same cards where the score rules look (the piles each player collected, say).

What the rules read is found in their IR (and in the definitions and `achieved when` conditions
they call), by an allow-list: every operation is one whose value depends only on its operands and
the rules' fixed tables (card attributes, parameters, the players), or one that reads a part of the
state that goes into the memo's key (a zone by name, a variable, the totals, the round...). A single
operation outside the list (what a seat knows, a variable holding a zone) and scoring is not
remembered. The key holds those parts exactly (card ids in order, piles kept): two states with one
key are scored alike, and the engine's coverage of the score rules is what the first of them counted
(verify reads only whether a rule was ever reached).
"""

from __future__ import annotations

from typing import Any

# operations whose value is their operands' and the rules' fixed tables' (card attributes, the
# parameters, the number of players, the teams' seating)
_PURE = """count sum max min unique distinct first last best union of_type filter except most cmp bound num
    none attr else if neg arith not and or is_none is_empty all_empty some every for_each text seat
    seat_offset across team_of partner_of owner_of players teams is_type param cards piles call"""
PURE = frozenset(_PURE.split())
ZONES = frozenset(("zone", "zones", "team_zones"))  # name a zone: its every instance is keyed
VAR_TYPES = frozenset(("number", "text", "player"))  # variables whose value is keyed as it is
STATE = {  # operation -> the part of the state it reads (keyed whole)
    "total": "totals",
    "team_total": "totals",
    "player_of": "played_by",
    "next_of": "turn_step",
    "eliminated": "out",
    "schedule": "schedule",
}
BUILTIN = {"round": "round", "dealer": "dealer", "players": None}
TRIAL = 1000  # scorings after which a memo whose keys were mostly new is given up


class _Unknown(Exception):
    """An operation the memo cannot key: scoring is not remembered."""


def score_reads(ir: dict[str, Any]) -> tuple[frozenset[str], frozenset[str], frozenset[str]] | None:
    """(the zones, the variables and the other parts of the state the score rules read), or None
    when they may read something the key cannot hold."""
    defines = {d["name"]: d for d in ir.get("defines", [])}
    var_types = {v["name"]: v.get("type") for v in ir.get("vars", [])}
    zones: set[str] = set()
    names: set[str] = set()
    parts: set[str] = set()
    followed: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, list):
            for y in x:
                walk(y)
            return
        if not isinstance(x, dict):
            return
        op = x.get("op")
        if op is not None:
            if op in ZONES:
                zones.add(x["name"])
            elif op in ("var", "team_var"):
                if var_types.get(x["name"]) not in VAR_TYPES:
                    raise _Unknown(op)
                names.add(x["name"])
            elif op in STATE:
                parts.add(STATE[op])
            elif op == "builtin":
                if x.get("name") not in BUILTIN:
                    raise _Unknown(op)
                if BUILTIN[x["name"]] is not None:
                    parts.add(BUILTIN[x["name"]])
            elif op == "achieved":  # (a card's own condition: every deck's, walked once)
                if "achieved" not in followed:
                    followed.add("achieved")
                    walk(ir.get("decks", []))
            elif op not in PURE:
                raise _Unknown(op)
            if op == "call" and x.get("name") not in followed:
                followed.add(x["name"])
                if x["name"] not in defines:
                    raise _Unknown(op)
                walk(defines[x["name"]].get("body"))
        for key, value in x.items():
            if key != "at" and isinstance(value, (dict, list)):
                walk(value)

    try:
        walk((ir.get("round") or {}).get("score", []))
    except _Unknown:
        return None
    return frozenset(zones), frozenset(names), frozenset(parts)


class ScoreMemo:
    """The engine's scoring of one game's states, kept by the key of what the score rules read
    (``Game.score_memo``: the engine asks it, scoring.score_by_rule)."""

    def __init__(self, game: Any, players: int, zones: frozenset[str], names: frozenset[str], parts: frozenset[str]):
        lay = game.layout(players)
        self.instances = tuple(i for z in sorted(game.zone_index[n] for n in zones) for i in lay.instances[z])
        index = {name: k for k, (name, *_) in enumerate(game.vars)}
        self.vars = tuple(sorted(index[n] for n in names))
        self.parts = tuple(sorted(parts))
        self.known: dict[tuple, list[list[int]]] = {}
        self.calls = 0  # scorings asked
        self.off = False  # the memo given up: most keys were new (TRIAL)

    def key(self, s: Any) -> tuple:
        """What the score rules read in state ``s``: each zone's cards in order (piles as tuples),
        the variables, the other parts."""
        zones = s.zones
        out = []
        for i in self.instances:
            z = zones[i]
            if len(z) and type(z[0]) is list:
                out.append(tuple([tuple(p) for p in z]))
            else:
                out.append(tuple(z))
        if self.vars:
            v = s.vars
            for k in self.vars:
                x = v[k]
                out.append(tuple(x) if type(x) is list else x)
        for name in self.parts:  # (the rarer parts: by name)
            x = getattr(s, name)
            out.append(tuple(x) if type(x) is list else tuple(x.items()) if type(x) is dict else x)
        return tuple(out)

    def scored(self, s: Any, score: Any) -> list[list[int]]:
        """``score(s)`` (each player's points by rule), worked out once for each key; every time
        once the first TRIAL scorings have shown few repeats (keys cost more than they save)."""
        if self.off:
            return score(s)
        self.calls += 1
        key = self.key(s)
        got = self.known.get(key)
        if got is None:
            got = self.known[key] = score(s)
            if self.calls >= TRIAL and len(self.known) * 2 > self.calls:
                self.off = True
                self.known = {}
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
