"""The AST: frozen dataclasses with source spans, one per construct of the language (syntax.py
builds them from the parse tree), and ``unparse``, an expression back as rules text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Span

# ---- expressions ---------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    """An expression: an operator name, its operands, and where it was written."""

    op: str
    args: tuple[Any, ...]
    span: Span
    parens: bool = field(default=False, compare=False)  # written in parentheses (fmt keeps them)

    def __str__(self) -> str:
        return unparse(self)


def unparse(e: Any) -> str:
    """The expression as (normalised) rules text: used as a key and in messages."""
    if not isinstance(e, Expr):
        return str(e)
    a = [unparse(x) if isinstance(x, Expr) else [unparse(y) for y in x] if isinstance(x, tuple) else x for x in e.args]
    match e.op:
        case "number" | "name":
            return str(a[0])
        case "string":
            return f'"{a[0]}"'
        case "none":
            return "none"
        case "of":
            return f"{a[0]} of {a[1]}"
        case "select":
            out = f"{a[0]} in {a[1]}"
            return out + (f" where {a[2]}" if a[2] else "") + (f" except {a[3]}" if a[3] else "")
        case "filter":
            return f"{a[0]} where {a[1]}" + (f" except {a[2]}" if a[2] else "")
        case "pick":
            return f"{a[0]} {a[1]}"
        case "count":
            return f"count {a[0]}"
        case "aggregate":
            return f"{a[0]} of {a[1]} in {a[2]}"
        case "conditional":
            return f"if {a[0]} then {a[1]} else {a[2]}"
        case "neg":
            return f"-{a[0]}"
        case "not":
            return f"not {a[0]}"
        case "some" | "no":
            return f"{e.op} {a[0]}"
        case "every_empty":
            return f"every {a[0]} is empty"
        case "most":
            return ("strictly most " if a[0] else "most ") + a[1]
        case "compare" | "arith":
            return f"{a[0]} {a[1]} {a[2]}"
        case "is":
            return f"{a[0]} is {'not ' if a[1] else ''}{a[2]}"
        case "and" | "or" | "else":
            return f" {e.op} ".join(a)
        case "paren":
            return f"({a[0]})"
        case "every":
            return f"every {a[0]}"
        case "for_each":
            return f"{a[0]} {a[1]} for each {a[2]}" + (f" where {a[3]}" if a[3] else "")
        case "call":
            return f"{a[0]}({', '.join(a[1])})"
        case "seats_from":
            return f"{a[0]} seats {a[1]} of {a[2]}"
        case "across":
            return f"across {a[0]}"
        case "known":  # (issue 30)
            return f"known {a[0]} of {a[1]} to {a[2]}"
    return f"{e.op}({', '.join(map(str, a))})"


# ---- declarations -------------------------------------------------------------------


@dataclass(frozen=True)
class Extends:
    path: str
    span: Span


@dataclass(frozen=True)
class Title:
    name: str
    span: Span


@dataclass(frozen=True)
class Players:
    low: int
    high: int
    span: Span


@dataclass(frozen=True)
class Teams:
    """`teams of N, partners across|adjacent`: the seats split into teams of N players."""

    size: int
    seating: str  # across: seat s is in team s % (players / size); adjacent: team s // size
    span: Span


@dataclass(frozen=True)
class Param:
    name: str
    default: Expr
    new: bool
    span: Span


@dataclass(frozen=True)
class Define:
    name: str
    of_zone: str | None  # a zone's name, or "card" (a derived card attribute)
    body: Expr
    span: Span
    params: tuple[str, ...] = ()  # define NAME(A, B) = ...: a function of its arguments
    # define NAME(A card, B) = ...: each parameter's declared type (None: told by its use), and where it is
    param_types: tuple[str | None, ...] = ()
    param_spans: tuple[Span, ...] = ()


@dataclass(frozen=True)
class Var:
    name: str
    per_player: bool
    per_round: bool
    init: Expr
    span: Span
    visibility: str = "public"  # public | owner | hidden (per-player counters only)
    declared: str | None = None  # var taker player = none: the type it holds (a type word, an attribute)
    per_team: bool = False  # var points per team = 0: one value for each team


@dataclass(frozen=True)
class Schedule:
    name: str
    values: tuple[Expr, ...]
    repeated: bool
    span: Span


@dataclass(frozen=True)
class ValueItem:
    value: Any  # a name, a number, a text, or a (low, high) range
    copies: int | Expr  # an expression: evaluated for each number of players (`x (2 * players)`)
    span: Span
    quoted: bool = False


@dataclass(frozen=True)
class AttrSpec:
    name: str
    values: tuple[ValueItem, ...]
    span: Span


@dataclass(frozen=True)
class CardType:
    name: str
    attrs: tuple[AttrSpec, ...]
    achieved: Expr | None
    span: Span


@dataclass(frozen=True)
class EnumOrder:
    attr: str
    values: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class CardOrder:
    attrs: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Cards:
    deck: str | None
    lines: tuple[Any, ...]
    span: Span


@dataclass(frozen=True)
class ZoneLine:
    name: str
    options: tuple[Any, ...]
    span: Span


@dataclass(frozen=True)
class Zones:
    lines: tuple[ZoneLine, ...]
    span: Span


@dataclass(frozen=True)
class Deal:
    amount: Expr | None  # None: all
    deck: str | None
    zone: str
    one_at_a_time: bool
    as_players: tuple[Expr, Expr | None] | None
    rest: str | None  # a zone name, or None: the rest stays aside in the deck
    span: Span
    each: bool = False  # `to each ZONE`: to every instance of a shared zone
    face_up: bool = False  # `turn up N to ZONE`


@dataclass(frozen=True)
class Guard:
    kind: str  # allow | require
    expr: Expr
    when: Expr | None
    span: Span


@dataclass(frozen=True)
class Choice:
    """What a move or an `ask` chooses that is not a card: `pass` (nothing), `number` (from ``low``
    to ``high``), `value` (of the attribute ``attr``), `player`, or `option` (one of ``options``);
    or a `draw`: the top ``low`` cards (None: one) of one of the zones ``options``, to the zone
    ``attr``; or `cards`: several cards at once, ``low`` of them (or ``low`` to ``high``) from the
    zone ``options[0]`` to ``options[1]``, all of one ``attr`` (None: any), at ``span``; or an
    ask's `card`: a card of the zone instance ``low`` (an expression); or an ask's `set`: ``low``
    (to ``high``) cards of the zone instance ``zone``, all of one ``attr`` (None: any); or `zone`:
    one instance of the zone named ``attr``."""

    kind: str
    low: Expr | None = None
    high: Expr | None = None
    attr: str | None = None
    options: tuple[str, ...] = ()
    span: Span | None = None  # where the set condition (`of one ATTR`) is written
    zone: Expr | None = None  # an ask's set: the zone instance its cards are chosen from


@dataclass(frozen=True)
class Move:
    name: str
    from_zone: str
    to_zone: str
    guards: tuple[Guard, ...]
    span: Span
    choice: Choice | None = None  # None: a card from ``from_zone`` to ``to_zone``
    at_place: bool = False  # `card at place`: the card is chosen by its place in the zone (issue 30)


@dataclass(frozen=True)
class Trigger:
    after: str  # the first move it follows; `moves` lists them all
    condition: Expr | None
    effects: tuple[Any, ...]
    span: Span
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ends:
    condition: Expr | None  # None: `ends when nobody can move`
    span: Span


@dataclass(frozen=True)
class AtTime:
    """`at start` / `at end` of a round or a phase, with its effects."""

    when: str  # start | end
    effects: tuple[Any, ...]
    span: Span


@dataclass(frozen=True)
class Repeat:
    """`repeat` phases `until` a condition (checked each time the last of them ends)."""

    phases: tuple[Any, ...]
    until: Expr
    span: Span


@dataclass(frozen=True)
class ResolveOrder:
    """The order in which a simultaneous phase's chosen moves take effect."""

    keys: tuple[tuple[str, Expr], ...]
    span: Span


@dataclass(frozen=True)
class FirstPlayer:
    keys: tuple[tuple[str, Expr], ...]
    span: Span
    seat: Expr | None = None  # `first player is EXPR` (a player), instead of ordering keys


@dataclass(frozen=True)
class Phase:
    name: str
    simultaneous: bool
    items: tuple[Any, ...]
    new: bool
    span: Span
    revealed: bool = False  # `simultaneous, revealed together`: the held moves shown before they take effect


@dataclass(frozen=True)
class Effect:
    """An effect: 'move', 'draw', 'let', 'set', 'add', 'next', 'if', 'pay', 'show', 'reveal',
    'shuffle', 'swap', 'eliminate', 'make', 'reverse' (the turn order) or 'skip', with its operands."""

    kind: str
    args: tuple[Any, ...]
    span: Span


@dataclass(frozen=True)
class EffectBlock:
    """`effect NAME` and its effects: done by name (`do NAME`) from triggers and other effects."""

    name: str
    effects: tuple[Any, ...]
    span: Span


@dataclass(frozen=True)
class ScoreRule:
    each: Expr | None
    points: Expr
    condition: tuple[str, Expr] | None  # ("if" | "unless", expr)
    span: Span


@dataclass(frozen=True)
class Score:
    rules: tuple[ScoreRule, ...]
    span: Span


@dataclass(frozen=True)
class Round:
    items: tuple[Any, ...]
    span: Span


@dataclass(frozen=True)
class GameItem:
    kind: str  # rounds | dealer | winner | max_moves
    value: Any  # a winner's: "highest" | "lowest" | the condition (Expr) of `everyone wins if`
    span: Span


@dataclass(frozen=True)
class GameSection:
    items: tuple[GameItem, ...]
    span: Span


@dataclass(frozen=True)
class CheckLine:
    """`always C`, `never C`, `sometimes C`: a property of every state (docs/verify.md)."""

    kind: str  # always | never | sometimes
    condition: Expr
    span: Span


@dataclass(frozen=True)
class Checks:
    """The `checks` section."""

    lines: tuple[CheckLine, ...]
    span: Span


@dataclass(frozen=True)
class Ruleset:
    file: str
    items: tuple[Any, ...]
    comments: dict[int, str] = field(default_factory=dict)
    comment_only: frozenset[int] = frozenset()

    def note(self, span: Span) -> str | None:
        """The comments written beside a rule: the lines just above it and its own line's."""
        if span.file != self.file:
            return None
        lines = []
        line = span.line - 1
        while line in self.comment_only:
            lines.append(self.comments[line])
            line -= 1
        lines.reverse()
        if span.line in self.comments and span.line not in self.comment_only:
            lines.append(self.comments[span.line])
        text = " ".join(x for x in lines if x)
        return text or None
