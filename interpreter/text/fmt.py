"""A rules file in its canonical layout: two-space blocks, aligned card and zone columns, one
spelling per construct, the author's parentheses kept and others added only where the grammar
needs them; every comment kept.

The printer walks the AST (``syntax.to_ast``) and puts each comment back by line: a comment on a
line of its own goes before the rule that follows it (at that rule's indentation), a comment
beside a rule stays beside it. Blank lines between rules are kept (at most one in a row), and a
section (cards, zones, round, game) always has one before it. Formatting twice changes nothing,
and the formatted text loads to the same rules (IR) as the original, notes included.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..language.ast_nodes import (
    AtTime,
    Cards,
    CardType,
    Checks,
    Choice,
    Deal,
    Define,
    Effect,
    EffectBlock,
    Ends,
    EnumOrder,
    Expr,
    Extends,
    FirstPlayer,
    GameItem,
    GameSection,
    Move,
    Param,
    Phase,
    Players,
    Repeat,
    ResolveOrder,
    Round,
    Ruleset,
    Schedule,
    Score,
    Teams,
    Title,
    Trigger,
    Var,
    Zones,
)
from ..language.syntax import to_ast

INDENT = "  "
# What a printed expression's open end could swallow: operators, or `where`/`except` (a collection
# written last, `count hand`, could take the `where` meant for an enclosing one).
OPS, WHERE = "ops", "where"
NOTHING: frozenset[str] = frozenset()
ZONE_WORDS = {
    "per_player": "per player",
    "owner": "owner sees",
    "revealed": "revealed when scored",
    "others": "others see",
}
SECTIONS = (Cards, Zones, Round, GameSection, Checks, EffectBlock)

# ---- expressions -----------------------------------------------------------------------------


def expression(e: Any) -> str:
    """An expression as canonical rules text (parenthesised where its author did or the grammar needs it)."""
    return _ex(e)[0]


def _wrap(e: Any, least: int, followed: frozenset[str] = NOTHING) -> tuple[str, frozenset[str]]:
    """A sub-expression, in parentheses if it binds too loosely or its open end would swallow what follows."""
    text, prec, tail = _ex(e)
    if prec < least or tail & followed:
        return f"({text})", NOTHING
    return text, tail


def _ex(e: Any) -> tuple[str, int, frozenset[str]]:
    """(text, binding level 1..9, what its open end could swallow); the author's parentheses kept."""
    if not isinstance(e, Expr):
        return str(e), 9, NOTHING
    if e.parens:  # (written so: the author grouped it, for the grammar or for the reader)
        return f"({_ex(replace(e, parens=False))[0]})", 9, NOTHING
    a = e.args
    match e.op:
        case "number" | "name":  # 12, hand
            return str(a[0]), 9, NOTHING
        case "string":  # "Big Win"
            return f'"{a[0]}"', 9, NOTHING
        case "none":
            return "none", 9, NOTHING
        case "paren":
            return _ex(a[0])
        case "of":  # color of card
            arg, tail = _wrap(a[1], 9)
            return f"{a[0]} of {arg}", 9, tail
        case "select":  # gem in hand of player where ... except card
            what, src, where, exc = a
            after = frozenset({WHERE}) if where is not None or exc is not None else NOTHING
            text, tail = _wrap(src, 9, after)
            text = f"{what} in {text}"
            return _where_except(text, tail, where, exc)
        case "filter":  # pot where color of it = red
            src, where, exc = a
            text, tail = _wrap(src, 9, frozenset({WHERE}))
            return _where_except(text, tail, where, exc)
        case "pick":  # first gem in it
            text, tail = _wrap(a[1], 8)
            return f"{a[0]} {text}", 9, tail | {WHERE}
        case "count":  # count trick
            text, tail = _wrap(a[0], 8)
            return f"count {text}", 9, tail | {WHERE}
        case "aggregate":  # sum of value in pot
            text, tail = _wrap(a[2], 8)
            return f"{a[0]} of {a[1]} in {text}", 9, tail | {WHERE}
        case "conditional":  # if players = 3 then 6 else players
            cond, _ = _wrap(a[0], 2)
            then, _ = _wrap(a[1], 2)
            other, tail = _wrap(a[2], 2)
            return f"if {cond} then {then} else {other}", 9, tail | {OPS, WHERE}
        case "neg":  # -1
            text, tail = _wrap(a[0], 7)
            return f"-{text}", 7, tail
        case "not":
            text, tail = _wrap(a[0], 4)
            return f"not {text}", 4, tail
        case "some" | "no":  # no pot where ...
            text, tail = _wrap(a[0], 8)
            return f"{e.op} {text}", 4, tail | {WHERE}
        case "every_empty":  # every hand is empty
            text, _ = _wrap(a[0], 8, frozenset({OPS}))
            return f"every {text} is empty", 4, NOTHING
        case "most":  # strictly most count gem in kept of player
            text, tail = _wrap(a[1], 5)
            return ("strictly most " if a[0] else "most ") + text, 4, tail
        case "compare":  # sum of value in pot > limit
            left, _ = _wrap(a[0], 5, frozenset({OPS}))
            right, tail = _wrap(a[2], 5)
            return f"{left} {a[1]} {right}", 4, tail
        case "is":  # card is wild, color of target is none
            subject, _ = _wrap(a[0], 5, frozenset({OPS}))
            return f"{subject} is {'not ' if a[1] else ''}{a[2]}", 4, NOTHING
        case "arith":  # 2 * players
            prec = 5 if a[1] in "+-" else 6
            left, _ = _wrap(a[0], prec, frozenset({OPS}))
            right, tail = _wrap(a[2], prec + 1)
            return f"{left} {a[1]} {right}", prec, tail
        case "and" | "or" | "else":
            prec = {"else": 1, "or": 2, "and": 3}[e.op]
            least = prec + 1
            followed = frozenset({OPS}) if e.op != "else" else NOTHING
            parts = [_wrap(x, least, followed)[0] for x in a[:-1]]
            last, tail = _wrap(a[-1], least)
            return f" {e.op} ".join([*parts, last]), prec, tail
        case "every":  # every player where chips of it > 0
            text, tail = _wrap(a[0], 8)
            return f"every {text}", 4, tail | {WHERE}
        case "for_each":  # max total of player for each player where ...
            value, _ = _wrap(a[1], 5)
            if a[3] is None:
                return f"{a[0]} {value} for each {a[2]}", 9, NOTHING
            cond, tail = _wrap(a[3], 2)
            return f"{a[0]} {value} for each {a[2]} where {cond}", 9, tail | {OPS, WHERE}
        case "call":  # beats(card, best card in trick)
            return f"{a[0]}({', '.join(expression(x) for x in a[1])})", 9, NOTHING
        case "seats_from":  # 2 seats left of dealer
            count, _ = _wrap(a[0], 9)
            of, tail = _wrap(a[2], 9)
            return f"{count} seats {a[1]} of {of}", 9, tail
        case "across":  # across dealer
            of, tail = _wrap(a[0], 9)
            return f"across {of}", 9, tail
        case "known":  # (issue 30) known color of card to owner
            card, _ = _wrap(a[1], 9)
            who, tail = _wrap(a[2], 9)
            return f"known {a[0]} of {card} to {who}", 9, tail
    raise ValueError(f"no canonical form for expression {e.op}")


def _where_except(text: str, tail: frozenset[str], where: Any, exc: Any) -> tuple[str, int, frozenset[str]]:
    if where is None and exc is None:
        return text, 8, tail | {WHERE}
    if where is not None:
        cond, tail = _wrap(where, 2, frozenset({WHERE}) if exc is not None else NOTHING)
        text += f" where {cond}"
        tail = tail | {OPS, WHERE}
    if exc is not None:
        value, tail = _wrap(exc, 9)
        text += f" except {value}"
    return text, 8, tail


# ---- declarations and rules -------------------------------------------------------------------------


def _copies(v: Any) -> str:
    """A value's copies as written after it (`x3`, `x (players)`); empty for one copy."""
    if isinstance(v.copies, Expr):
        return f"x ({expression(v.copies)})"
    return f"x{v.copies}" if v.copies != 1 else ""


def _value_item(v: Any, copies: bool = True) -> str:
    if isinstance(v.value, tuple):
        text = f"{v.value[0]}..{v.value[1]}"
    elif v.quoted:
        text = f'"{v.value}"'
    else:
        text = str(v.value)
    return " ".join(filter(None, [text, _copies(v) if copies else ""]))


def _attr_spec(spec: Any) -> tuple[str, str]:
    """An attribute's cell of a card line, and apart the copies of its value when it has one value
    (`name "Tempura"`, `x14`), so that the copies of such lines line up."""
    if len(spec.values) == 1:
        return f"{spec.name} {_value_item(spec.values[0], copies=False)}", _copies(spec.values[0])
    names = all(isinstance(v.value, str) for v in spec.values)
    return f"{spec.name} " + (" | " if names else ", ").join(_value_item(v) for v in spec.values), ""


def _deal(d: Deal, rest_aside: bool) -> str:
    amount = "all" if d.amount is None else expression(d.amount)
    verb = "turn up" if d.face_up else "deal"
    text = f"{verb} {amount}" + (f" from {d.deck}" if d.deck else "") + f" to {'each ' if d.each else ''}{d.zone}"
    if d.one_at_a_time:
        text += ", one at a time"
    if d.as_players is not None:
        seats, when = d.as_players
        text += f", as {expression(seats)} players" + (f" when {expression(when)}" if when is not None else "")
    if d.rest is not None:
        text += f", rest to {d.rest}"
    elif rest_aside:
        text += ", rest aside"
    return text


def choice_text(c: Choice) -> str:
    """What a choice chooses, after its name: ` number from 0 to 3`, ` player`, `` (a pass)."""
    match c.kind:
        case "number":
            return f" number from {expression(c.low)} to {expression(c.high)}"
        case "value":
            return f" value of {c.attr}"
        case "player":
            return " player"
        case "option":
            return f" one of {', '.join(c.options)}"
        case "card":  # an ask's
            return f" card from {expression(c.low)}"
        case "zone":  # one instance of a zone
            return f" {c.attr}"
        case "draw":
            top = "card" if c.low is None else expression(c.low)
            return f" top {top} from {' or '.join(c.options)} to {c.attr}"
        case "cards":
            size = expression(c.low) if c.high is None else f"{expression(c.low)}..{expression(c.high)}"
            same = "" if c.attr is None else f" of one {c.attr}"
            word = "card" if size == "1" else "cards"
            return f" {size} {word}{same} from {c.options[0]} to {c.options[1]}"
        case "set":  # an ask's
            size = expression(c.low) if c.high is None else f"{expression(c.low)}..{expression(c.high)}"
            same = "" if c.attr is None else f" of one {c.attr}"
            word = "card" if size == "1" else "cards"
            return f" {size} {word}{same} from {expression(c.zone)}"
    return ""


def _effect_head(eff: Effect) -> str:
    a = eff.args
    match eff.kind:
        case "move":  # move cards in target except card to kept of player
            return f"move {expression(a[0])} to {expression(a[1])}" + (" as one pile" if a[2] else "")
        case "draw":  # draw 1 from deck to hand of player; draw top 1 from shoe to hand of player
            top = "top " if a[3] else ""
            return f"draw {top}{expression(a[0])} from {expression(a[1])} to {expression(a[2])}"
        case "let":
            return f"let {a[0]} = {expression(a[1])}"
        case "set":  # set chosen of player to red
            whose = f" of {_wrap(a[1], 9)[0]}" if a[1] is not None else ""
            return f"set {a[0]}{whose} to {expression(a[2])}"
        case "add":  # add 1 to points of leader
            whose = f" of {_wrap(a[1], 9)[0]}" if a[1] is not None else ""
            return f"add {expression(a[2])} to {a[0]}{whose}"
        case "next":
            return f"next {expression(a[0])}"
        case "if":
            return f"if {expression(a[0])}"
        case "each":  # for each player from left of dealer where ... until ...; for each card in pile by rank
            over, where, _, source, start, by, until = a
            parts = [f"for each {over}"]
            if source is not None:
                parts.append(f"in {_wrap(source, 9)[0]}")
            if start is not None:
                parts.append(f"from {_wrap(start, 9)[0]}")
            if where is not None:
                parts.append(f"where {expression(where)}")
            if by is not None:
                parts.append("by " + ("highest " if by[0] == "highest" else "") + expression(by[1]))
            if until is not None:
                parts.append(f"until {expression(until)}")
            return " ".join(parts)
        case "do":  # do settle
            return f"do {a[0]}"
        case "repeat":  # repeat until total of dealer >= 17
            return f"repeat until {expression(a[0])}"
        case "pay":  # pay 1 chips to pot of player
            amount = "all" if a[0] is None else expression(a[0])
            payer = a[1] + (f" of {_wrap(a[2], 9)[0]}" if a[2] is not None else "")
            payee = a[3] + (f" of {_wrap(a[4], 9)[0]}" if a[4] is not None else "")
            return f"pay {amount} {payer} to {payee}"
        case "show":
            return f"show {expression(a[0])} to {expression(a[1])}"
        case "reveal":  # reveal hole of dealer; reveal last card in hand of player to target, dealer
            to = f" to {', '.join(expression(p) for p in a[1])}" if a[1] else ""
            return f"reveal {expression(a[0])}{to}"
        case "shuffle":
            return f"shuffle {expression(a[0])}"
        case "swap":
            return f"swap {expression(a[0])} with {expression(a[1])}"
        case "eliminate":
            return f"eliminate {expression(a[0])}"
        case "tell":  # (issue 30) tell target color of cards in hand of target where ...
            return f"tell {_wrap(a[0], 9)[0]} {a[1]} of {expression(a[2])}"
        case "make":
            return f"make {_wrap(a[0], 9)[0]} {a[1]}" + (" until their next turn" if a[2] else "")
        case "ask":  # ask player to choose target player
            return f"ask {expression(a[0])} to choose {a[1]}{choice_text(a[2])}"
        case "reverse":
            return "turn order reverses"
        case "skip":  # skip next of player
            return f"skip {expression(a[0])}"
    raise ValueError(f"no canonical form for effect {eff.kind}")


class Printer:
    """Prints one Ruleset, putting its comments and blank lines back by source line."""

    def __init__(self, ruleset: Ruleset, text: str):
        self.rs = ruleset
        self.src = text.splitlines()
        self.pending = sorted(ruleset.comments)
        self.out: list[str] = []
        self.opened = True  # nothing printed yet in the current block

    # ---- lines, comments, blank lines
    def _blank_before(self, line: int) -> bool:
        return line >= 2 and not self.src[line - 2].strip()

    def _put(self, depth: int, text: str, line: int, blank: bool) -> None:
        if blank and not self.opened and self.out and self.out[-1] != "":
            self.out.append("")
        self.out.append(INDENT * depth + text)
        self.opened = False

    def _comments_before(self, depth: int, line: int, force_blank: bool = False) -> None:
        """Print every comment not yet printed that stands above ``line``."""
        first = True
        while self.pending and self.pending[0] < line:
            at = self.pending.pop(0)
            text = self.rs.comments[at]
            self._put(depth, f"# {text}".rstrip(), at, self._blank_before(at) or (first and force_blank))
            first = False
        self._first_of_group = first

    def line(self, depth: int, text: str, line: int, force_blank: bool = False) -> None:
        """Print one rule line, after the comments above it and with the comment beside it."""
        self._comments_before(depth, line, force_blank)
        blank = self._blank_before(line) or (self._first_of_group and force_blank)
        if self.pending and self.pending[0] == line:
            self.pending.pop(0)
            text += f"  # {self.rs.comments[line]}".rstrip()
        self._put(depth, text, line, blank)

    def open_block(self) -> None:
        """The next line is the first of a block: no blank line before it."""
        self.opened = True

    def finish(self) -> str:
        """The whole text, with the comments after the last rule."""
        self._comments_before(0, 10**9)
        return "\n".join(self.out).rstrip("\n") + "\n"

    def _header_line(self, first_child: int) -> int:
        """The source line of a header without a span of its own (`else`): the last rule line above."""
        line = first_child - 1
        while line > 1 and (not self.src[line - 1].strip() or line in self.rs.comment_only):
            line -= 1
        return line

    # ---- the constructs
    def print(self) -> str:
        """The canonical text of the whole ruleset."""
        for item in self.rs.items:
            self.item(item)
        return self.finish()

    def item(self, it: Any) -> None:
        """One top-level declaration or section."""
        force = isinstance(it, SECTIONS)
        match it:
            case Extends():
                self.line(0, f'extends "{it.path}"', it.span.line)
            case Title():
                self.line(0, f'game "{it.name}"', it.span.line)
            case Players():
                self.line(0, f"players {it.low}..{it.high}", it.span.line)
            case Teams():
                self.line(0, f"teams of {it.size}, partners {it.seating}", it.span.line)
            case Param():
                self.line(0, f"{'new ' if it.new else ''}param {it.name} = {expression(it.default)}", it.span.line)
            case Define():
                params = [
                    f"{p} {t}" if t else p
                    for p, t in zip(it.params, it.param_types or [None] * len(it.params), strict=False)
                ]
                of = f" of {it.of_zone}" if it.of_zone else f"({', '.join(params)})" if it.params else ""
                self.line(0, f"define {it.name}{of} = {expression(it.body)}", it.span.line)
            case Var():
                per = (f" {it.declared}" if it.declared else "") + (" per team" if it.per_team else "")
                per += (" per player" if it.per_player else "") + (" per round" if it.per_round else "")
                if it.visibility != "public":
                    per += ", " + ZONE_WORDS.get(it.visibility, it.visibility)
                self.line(0, f"var {it.name}{per} = {expression(it.init)}", it.span.line)
            case Schedule():
                values = ", ".join(expression(v) for v in it.values)
                self.line(0, f"schedule {it.name}: {values}" + (" repeated" if it.repeated else ""), it.span.line)
            case Cards():
                self.line(0, "cards" + (f" {it.deck}" if it.deck else ""), it.span.line, force)
                self.cards(it)
            case Zones():
                self.line(0, "zones", it.span.line, force)
                self.open_block()
                width = max(len(z.name) for z in it.lines) + 2
                for z in it.lines:
                    opts = ", ".join(ZONE_WORDS.get(o, str(o)) for o in z.options)
                    self.line(1, f"{z.name.ljust(width)}{opts}", z.span.line)
            case EffectBlock():  # effect settle: its effects
                self.line(0, f"effect {it.name}", it.span.line, force)
                self.effects(1, it.effects)
            case Round():
                self.line(0, "round", it.span.line, force)
                self.open_block()
                for part in it.items:
                    self.round_part(part)
            case GameSection():
                self.line(0, "game", it.span.line, force)
                self.open_block()
                for g in it.items:
                    if isinstance(g, Ends):
                        self.phase_part(g, 1)
                        continue
                    self.line(1, _game_line(g), g.span.line)
            case Checks():  # always / never / sometimes lines (docs/verify.md)
                self.line(0, "checks", it.span.line, force)
                self.open_block()
                for c in it.lines:
                    self.line(1, f"{c.kind} {expression(c.condition)}", c.span.line)
            case _:
                raise ValueError(f"no canonical form for {type(it).__name__}")

    def cards(self, it: Cards) -> None:
        """A cards section: type names and attributes in aligned columns."""
        self.open_block()
        types = [x for x in it.lines if isinstance(x, CardType)]
        cells = {id(t): [_attr_spec(s) for s in t.attrs] for t in types}
        counted: dict[int, int] = {}  # column -> the width of its one-value cells that have copies
        for row_cells in cells.values():
            for i, (main, copies) in enumerate(row_cells):
                if copies:
                    counted[i] = max(counted.get(i, 0), len(main))
        rows = {
            id(t): [t.name, *(f"{m.ljust(counted[i])} {c}" if c else m for i, (m, c) in enumerate(cells[id(t)]))]
            for t in types
        }
        for t in types:
            if t.achieved is not None:
                rows[id(t)].append(f"achieved when {expression(t.achieved)}")
        widths: dict[int, int] = {}
        for row in rows.values():
            for i, cell in enumerate(row[:-1]):
                widths[i] = max(widths.get(i, 0), len(cell))
        for x in it.lines:
            if isinstance(x, CardType):
                row = rows[id(x)]
                cells = [cell.ljust(widths[i] + (2 if i == 0 else 3)) for i, cell in enumerate(row[:-1])]
                self.line(1, "".join(cells) + row[-1], x.span.line)
            elif isinstance(x, EnumOrder):
                self.line(1, f"order {x.attr}: " + " < ".join(x.values), x.span.line)
            else:
                self.line(1, "order cards by " + ", ".join(x.attrs), x.span.line)

    def round_part(self, part: Any) -> None:
        """A deal, a phase or the scoring of a round."""
        match part:
            case Deal():
                source = self.src[part.span.line - 1].split("#")[0]
                aside = part.rest is None and re.search(r"\brest[ \t]+aside\b", source) is not None
                self.line(1, _deal(part, aside), part.span.line)
            case Phase():
                self.phase(part, 1)
            case Repeat():  # repeat / its phases / until CONDITION
                self.line(1, "repeat", part.span.line)
                self.open_block()
                for ph in part.phases:
                    self.phase(ph, 2)
                self.line(1, f"until {expression(part.until)}", part.until.span.line)
            case AtTime() | Ends():
                self.phase_part(part, 1)
            case Score():
                self.line(1, "score", part.span.line)
                self.open_block()
                for r in part.rules:
                    text = f"each {_wrap(r.each, 8)[0]}: " if r.each is not None else ""
                    text += expression(r.points)
                    if r.condition is not None:
                        text += f" {r.condition[0]} {expression(r.condition[1])}"
                    self.line(2, text, r.span.line)

    def phase(self, part: Phase, depth: int) -> None:
        """A phase's head and its parts, one level deeper."""
        head = f"{'new ' if part.new else ''}phase {part.name}" + (", simultaneous" if part.simultaneous else "")
        head += ", revealed together" if part.revealed else ""
        self.line(depth, head, part.span.line)
        self.open_block()
        for x in part.items:
            self.phase_part(x, depth + 1)

    def phase_part(self, x: Any, depth: int = 2) -> None:
        """A move (with its guards), a trigger, an end, a first player, effects at start or end."""
        match x:
            case Move():
                if x.choice is None:
                    place = " at place" if x.at_place else ""
                    self.line(depth, f"move {x.name} card{place} from {x.from_zone} to {x.to_zone}", x.span.line)
                else:
                    self.line(depth, f"move {x.name}{choice_text(x.choice)}", x.span.line)
                self.open_block()
                self.guards(depth + 1, x.guards)
            case Trigger():
                cond = f" if {expression(x.condition)}" if x.condition is not None else ""
                self.line(depth, f"after {', '.join(x.moves or (x.after,))}{cond}", x.span.line)
                self.effects(depth + 1, x.effects)
            case Ends():
                what = "nobody can move" if x.condition is None else expression(x.condition)
                self.line(depth, f"ends when {what}", x.span.line)
            case FirstPlayer():
                keys = ", then ".join(f"{k} {expression(e)}" for k, e in x.keys)
                if x.seat is not None:
                    keys = f"is {expression(x.seat)}"
                self.line(depth, f"first player {keys}", x.span.line)
            case ResolveOrder():
                keys = ", then ".join(f"{k} {expression(e)}" for k, e in x.keys)
                self.line(depth, f"resolve {keys}", x.span.line)
            case AtTime():
                self.line(depth, f"at {x.when}", x.span.line)
                self.effects(depth + 1, x.effects)

    def effects(self, depth: int, effects: tuple[Any, ...]) -> None:
        """A block of effects; `if` with its `else` (an `else` holding one `if` prints as `else if`)."""
        self.open_block()
        for eff in effects:
            self.effect(depth, eff)

    def guards(self, depth: int, guards: tuple[Any, ...]) -> None:
        """The `allow` / `require` lines of a move or an ask."""
        for g in guards:
            when = f" when {expression(g.when)}" if g.when is not None else ""
            self.line(depth, f"{g.kind} {expression(g.expr)}{when}", g.span.line)

    def effect(self, depth: int, eff: Effect, prefix: str = "") -> None:
        """One effect; an `if` prints its branches, a `for each` its effects, an `ask` its guards and block."""
        self.line(depth, prefix + _effect_head(eff), eff.span.line)
        if eff.kind == "each":
            self.effects(depth + 1, eff.args[2])
        if eff.kind == "repeat":
            self.effects(depth + 1, eff.args[1])
        if eff.kind == "ask":
            self.open_block()
            self.guards(depth + 1, eff.args[3])
            for inner in eff.args[4]:
                self.effect(depth + 1, inner)
            return
        if eff.kind != "if":
            return
        _, then, otherwise = eff.args
        self.effects(depth + 1, then)
        if not otherwise:
            return
        if len(otherwise) == 1 and otherwise[0].kind == "if":
            self.effect(depth, otherwise[0], "else ")
            return
        self.line(depth, "else", self._header_line(otherwise[0].span.line))
        self.effects(depth + 1, otherwise)


def format_text(text: str, file: str = "<rules>") -> str:
    """Rules text in the canonical layout (raises the parser's errors on text that does not parse)."""
    return Printer(to_ast(text, file), text).print()


def _game_line(g: GameItem) -> str:
    """One line of the game section: rounds, dealer, max moves or who wins."""
    match g.kind:
        case "rounds":
            return f"rounds {expression(g.value)}"
        case "dealer":
            return "dealer stays" if g.value == "stays" else f"dealer rotates {g.value}"
        case "max_moves":
            return f"max moves per round {g.value}"
    if isinstance(g.value, str):
        return f"winner {g.value} total"
    return f"everyone wins if {expression(g.value)}"  # a cooperative game
