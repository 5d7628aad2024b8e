"""What a part of the rules reads of a state, found in its IR: the parts of the state a memo of
verify keys exactly (score_memo.py: the score rules; move_memo.py: a move rule's guards).

An allow-list: every operation is one whose value depends only on its operands and the rules'
fixed tables (card attributes, parameters, the players), or one that reads a part of the state
that goes into the memo's key (a zone by name, a variable, the totals, the round...). A single
operation outside the list (what a seat knows, a variable holding a zone) and the rules' reads
cannot be keyed: the memo is not made.
"""

from __future__ import annotations

from typing import Any

# operations whose value is their operands' and the rules' fixed tables' (card attributes, the
# parameters, the number of players, the teams' seating); `bound`: a name the rules bind (the
# player, the card, the target zone, `it`), whose value the other operations read
_PURE = """count sum max min unique distinct first last best worst union of_type filter except most cmp
    bound num none attr else if neg arith not and or is_none is_empty all_empty some no every for_each
    text seat seat_offset across team_of partner_of owner_of players teams is_type param cards piles call"""
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

Reads = tuple[frozenset[str], frozenset[str], frozenset[str]]


class _Unknown(Exception):
    """An operation a key cannot hold what it reads."""


def state_reads(ir: dict[str, Any], nodes: Any) -> Reads | None:
    """(the zones, the variables and the other parts of the state that the expressions ``nodes``
    read, with the definitions and `achieved when` conditions they call), or None when they may
    read something a key cannot hold."""
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
        walk(nodes)
    except _Unknown:
        return None
    return frozenset(zones), frozenset(names), frozenset(parts)
