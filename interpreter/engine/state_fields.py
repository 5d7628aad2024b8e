"""The fields of a game in progress (State's, state.py), as State's base class.

In the pure-Python engine this class only names the slots. The compiled engine declares it as an
extension type with those fields typed (state_fields.pxd), and the modules whose closures read a
state on every move (the expressions, effects, move loops, scoring) type their state argument with
it: a field is then read in place, not looked up by name. It is a base of its own, in a module that
imports nothing, so that those modules can name the type without importing state.py (which imports
them: a cycle the compiled modules' type imports cannot take).
"""

from __future__ import annotations


class LayoutFields:
    """The fields of a zone layout (zones.Layout, a frozen dataclass on this base): typed in the
    compiled engine (state_fields.pxd), so that a closure reads ``s.layout.base`` in place."""

    __slots__ = ()


class StateFields:
    """The slots of State (state.py); State.copy names each one."""

    __slots__ = (
        "_legal",
        "asking",
        "cache",
        "choosers",
        "current",
        "dealer",
        "deals_given",
        "expiring",
        "game",
        "history",
        "layout",
        "loc",
        "moves_in_round",
        "n",
        "narrating",
        "next_player",
        "out",
        "over",
        "params",
        "pending",
        "phase",
        "picking",
        "played_by",
        "resolving",
        "rng",
        "round",
        "rounds",
        "schedule",
        "seed",
        "shown",
        "shuffles_given",
        "skips",
        "to_move",
        "told",
        "totals",
        "turn_step",
        "vars",
        "won_together",
        "zmemo",
        "zones",
    )
