"""Which kind of thing a name written in a file stands for, by its place in the grammar.

Names are per kind: the name after `phase` is a phase's, the name after `move` and the names of a
trigger's `after` list are moves'; every other name belongs to the rules' shared vocabulary (zones,
parameters, attributes, card types, definitions, variables, and the choice a move's name binds, so a
move's name may be written there too). A phase's name is written nowhere else, so renaming the move
`play` leaves the phase `play` alone, and the other way round.
"""

from __future__ import annotations

from functools import cache, lru_cache

from lark import Token as LarkToken

from ..errors import RulesetError
from ..language.parser import parser
from .analysis import Analysis, Declaration, Token, tree

PHASE, MOVE = "phase", "move"
EFFECT = "effect"  # a named effect block: `effect NAME` declares it, `do NAME` does it
# The keyword that opens a kind's own place: (that kind, whether only the first NAME after it is
# the kind's: a trigger's `after` lists moves, `move NAME card from NAME ...` names one).
OPENED_BY: dict[str, tuple[str, bool]] = {
    "phase": (PHASE, True),
    "move": (MOVE, True),
    "after": (MOVE, False),
    "effect": (EFFECT, True),
    "do": (EFFECT, True),
}
# Kinds never written in an expression: only their own places name them.
ONLY_IN_OWN_PLACES = frozenset({PHASE, EFFECT})


@lru_cache(maxsize=16)
def slots(file: str, text: str) -> dict[tuple[int, int], str]:
    """The names written in a kind's own place, by 0-based (line, column): their kind. Raises the
    text's RulesSyntaxError when it does not parse. Kept for the last texts asked about (a hover
    after a hover on the same text parses it once); the answer is not to be changed."""
    out: dict[tuple[int, int], str] = {}
    places = own_places()
    for node in tree(file, text).iter_subtrees():
        own = places.get(str(node.data))
        if own is None:
            continue
        kind, first_only = own
        for child in node.children:
            if isinstance(child, LarkToken) and child.type == "NAME":
                out[(child.line - 1, child.column - 1)] = kind
                if first_only:
                    break
    return out


@cache
def own_places() -> dict[str, tuple[str, bool]]:
    """The grammar's rules (by the name a parse tree gives them) that open with one of the keywords
    of ``OPENED_BY`` and a NAME: every form of `move`, `phase` (`new phase` too) and the trigger."""
    words = {t.name: t.pattern.value for t in parser().terminals if t.pattern.type == "str"}
    out = {}
    for rule in parser().rules:
        symbols = [s.name for s in rule.expansion if words.get(s.name) != "new"]
        if len(symbols) >= 2 and words.get(symbols[0]) in OPENED_BY and symbols[1] == "NAME":
            out[str(rule.alias or rule.origin.name)] = OPENED_BY[words[symbols[0]]]
    return out


def same_kind(slot: str | None, kind: str | None) -> bool:
    """Whether a name written in a place of kind ``slot`` (None: the shared vocabulary) can stand
    for a declaration of ``kind`` (None: one of the shared vocabulary)."""
    if slot is not None:
        return slot == kind
    return kind not in ONLY_IN_OWN_PLACES


def meant(analysis: Analysis, token: Token) -> tuple[str | None, list[Declaration]]:
    """The kind the name under the cursor stands for (by its place: see slots.py; None for the
    shared vocabulary) and its declarations of that kind."""
    decls = analysis.declared(token.text)
    try:
        slot = slots(analysis.path, analysis.text).get((token.line, token.col))
    except RulesetError:  # a text that does not parse: every declaration of the name
        return None, decls
    kind = slot or (MOVE if any(d.kind == MOVE for d in decls) else None)
    return kind, [d for d in decls if d.kind == kind or (kind is None and same_kind(None, d.kind))]
