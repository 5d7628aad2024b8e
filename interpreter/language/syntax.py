"""Parse tree to AST (the nodes, frozen dataclasses with source spans, are in ast_nodes.py).

The Transformer is a thin map from grammar rule to node; it checks nothing (names and types
are the resolver's job).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from lark import Token, Transformer, Tree, v_args

from ..errors import DeclarationError, Span, remember_source
from .ast_nodes import (
    AtTime,
    AttrSpec,
    CardOrder,
    Cards,
    CardType,
    CheckLine,
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
    Guard,
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
    ScoreRule,
    Teams,
    Title,
    Trigger,
    ValueItem,
    Var,
    ZoneLine,
    Zones,
)
from .parser import parse
from .resolve_types import MAX_DEPTH

# ---- the transformer -------------------------------------------------------------------


def _span(file: str, meta: Any) -> Span:
    return Span(file, getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)


def _tok_span(file: str, tok: Token) -> Span:
    return Span(file, tok.line or 1, tok.column or 1)


def _text(tok: Token) -> str:
    return str(tok)[1:-1]


@v_args(meta=True)
class ToAst(Transformer):
    """Maps each grammar rule to its AST node."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def _s(self, meta: Any) -> Span:
        return _span(self.file, meta)

    def _e(self, op: str, meta: Any, *args: Any) -> Expr:
        return Expr(op, args, self._s(meta))

    # declarations
    def start(self, meta, items):
        return list(items)

    def extends(self, meta, c):
        return Extends(_text(c[0]), self._s(meta))

    def title(self, meta, c):
        return Title(_text(c[0]), self._s(meta))

    def players(self, meta, c):
        return Players(int(c[0]), int(c[1]), self._s(meta))

    def teams(self, meta, c):
        seating = str(c[1]).split()[-1] if c[1] is not None else "across"
        return Teams(int(c[0]), seating, self._s(meta))

    def param(self, meta, c):
        return Param(str(c[1]), c[2], c[0] is not None, self._s(meta))

    def define(self, meta, c):
        return Define(str(c[0]), str(c[1]) if c[1] else None, c[2], self._s(meta))

    def define_fn(self, meta, c):
        params = c[1:-1]  # (name, declared type or None, span) each
        return Define(
            str(c[0]),
            None,
            c[-1],
            self._s(meta),
            tuple(p[0] for p in params),
            tuple(p[1] for p in params),
            tuple(p[2] for p in params),
        )

    def fn_param(self, meta, c):  # c, or c card
        return (str(c[0]), str(c[1]) if c[1] is not None else None, self._s(meta))

    def var(self, meta, c):
        visibility = c[3] or "public"
        return Var(str(c[0]), c[1] is not None, c[2] is not None, c[4], self._s(meta), visibility)

    def typed_var(self, meta, c):  # var taker player = none, var points per team = 0
        declared, per_player, per_team = c[1]
        visibility = c[3] or "public"
        return Var(str(c[0]), per_player, c[2] is not None, c[4], self._s(meta), visibility, declared, per_team)

    def var_kind(self, meta, c):  # player, number per player, per team
        if len(c) == 1:  # per team alone
            return (None, False, True)
        word, per = c
        return (str(word), per is not None and per.type == "PER_PLAYER", per is not None and per.type == "PER_TEAM")

    def var_visibility(self, meta, c):
        return {"OWNER_SEES": "owner"}.get(c[0].type, c[0].type.lower())

    def schedule(self, meta, c):
        values = tuple(x for x in c[1:] if isinstance(x, Expr))
        return Schedule(str(c[0]), values, c[-1] is not None, self._s(meta))

    def cards(self, meta, c):
        return Cards(str(c[0]) if c[0] else None, tuple(c[1:]), self._s(meta))

    def card_type(self, meta, c):
        attrs = tuple(x for x in c[1:] if isinstance(x, AttrSpec))
        return CardType(str(c[0]), attrs, c[-1], self._s(meta))

    def attr_spec(self, meta, c):
        return AttrSpec(str(c[0]), tuple(c[1:]), self._s(meta))

    def value_item(self, meta, c):
        raw, count = c
        if isinstance(raw, tuple):
            value = raw
        elif raw.type == "INT":
            value = int(raw)
        elif raw.type == "STRING":
            value = _text(raw)
        else:
            value = str(raw)
        quoted = isinstance(raw, Token) and raw.type == "STRING"
        copies = count if isinstance(count, Expr) else int(str(count)[1:]) if count else 1
        return ValueItem(value, copies, self._s(meta), quoted)

    def copies(self, meta, c):
        return c[1]

    def range(self, meta, c):  # an end is a number, or a parameter's name (the resolver reads it)
        return tuple(int(x) if x.type == "INT" else str(x) for x in c)

    def achieved(self, meta, c):
        return c[0]

    def enum_order(self, meta, c):
        return EnumOrder(str(c[0]), tuple(str(x) for x in c[1:]), self._s(meta))

    def card_order(self, meta, c):
        return CardOrder(tuple(str(x) for x in c), self._s(meta))

    def zones(self, meta, c):
        return Zones(tuple(c), self._s(meta))

    def zone_line(self, meta, c):
        return ZoneLine(str(c[0]), tuple(c[1:]), self._s(meta))

    def zone_opt(self, meta, c):
        tok = c[0]
        if tok.type == "INT":
            return int(tok)
        words = {"PER_PLAYER": "per_player", "OWNER_SEES": "owner", "OTHERS_SEE": "others"}
        return words.get(tok.type, tok.type.lower())

    # a round
    def round(self, meta, c):
        return Round(tuple(c), self._s(meta))

    def deal(self, meta, c):
        kind, amount, deck, each, zone, *opts = c
        one = any(isinstance(o, Token) and o.type == "ONE_AT_A_TIME" for o in opts)
        as_players = next((o[1:] for o in opts if isinstance(o, tuple) and o[0] == "as"), None)
        rest = next((o[1] for o in opts if isinstance(o, tuple) and o[0] == "rest"), None)
        deck_name = str(deck) if deck else None
        span = self._s(meta)
        return Deal(amount, deck_name, str(zone), one, as_players, rest, span, each is not None, kind.type == "TURN_UP")

    def deal_amount(self, meta, c):
        return None if isinstance(c[0], Token) and c[0].type == "ALL" else c[0]

    def as_players(self, meta, c):
        return ("as", c[0], c[1])

    def rest_to(self, meta, c):
        return ("rest", str(c[0]))

    def phase(self, meta, c):
        new, name, simultaneous, together, *items = c
        phase = Phase(str(name), simultaneous is not None, tuple(items), new is not None, self._s(meta))
        return replace(phase, revealed=True) if together is not None else phase

    def move(self, meta, c):
        guards = tuple(g for g in c[3:] if isinstance(g, Guard))
        return Move(str(c[0]), str(c[1]), str(c[2]), guards, self._s(meta))

    def place_move(self, meta, c):  # [issue 30] `move NAME card at place from ZONE to ZONE`
        guards = tuple(g for g in c[4:] if isinstance(g, Guard))
        return Move(str(c[0]), str(c[2]), str(c[3]), guards, self._s(meta), at_place=True)

    def choice_move(self, meta, c):
        guards = tuple(g for g in c[2:] if isinstance(g, Guard))
        return Move(str(c[0]), "", "", guards, self._s(meta), c[1] or Choice("pass"))

    def draw_move(self, meta, c):
        name, *rest = c
        count = rest.pop(0) if isinstance(rest[0], Expr) else None  # `top card`: one
        names = [str(x) for x in rest if isinstance(x, Token)]
        guards = tuple(g for g in rest if isinstance(g, Guard))
        choice = Choice("draw", low=count, attr=names[-1], options=tuple(names[:-1]))  # (attr: where to)
        return Move(str(name), "", "", guards, self._s(meta), choice)

    def set_move(self, meta, c):
        name, (low, high), same, src, dst, *rest = c
        guards = tuple(g for g in rest if isinstance(g, Guard))
        attr, at = same if same is not None else (None, None)
        choice = Choice("cards", low=low, high=high, attr=attr, options=(str(src), str(dst)), span=at)
        return Move(str(name), str(src), str(dst), guards, self._s(meta), choice)

    def set_count(self, meta, c):
        return (c[0], c[1])

    def set_same(self, meta, c):
        return (str(c[0]), _tok_span(self.file, c[0]))

    def choose_number(self, meta, c):
        return Choice("number", low=c[0], high=c[1])

    def choose_value(self, meta, c):
        return Choice("value", attr=str(c[0]))

    def choose_player(self, meta, c):
        return Choice("player")

    def choose_option(self, meta, c):
        return Choice("option", options=tuple(str(x) for x in c))

    def choose_zone(self, meta, c):  # one instance of a zone (`row`: one of the rows)
        return Choice("zone", attr=str(c[0]))

    def choose_card(self, meta, c):  # an ask's: a card of a zone (`card from hand of player`)
        return Choice("card", low=c[0])

    def choose_set(self, meta, c):  # an ask's: several cards of a zone (`1..3 cards from table`)
        (low, high), same, zone = c
        attr, at = same if same is not None else (None, None)
        return Choice("set", low=low, high=high, attr=attr, span=at, zone=zone)

    def guard(self, meta, c):
        return Guard(str(c[0]), c[1], c[2], self._s(meta))

    def trigger(self, meta, c):
        names = [str(x) for x in c if isinstance(x, Token) and x.type == "NAME"]
        at_if = len(names)
        cond, effects = c[at_if + 1], c[at_if + 2 :]
        return Trigger(names[0], cond, tuple(effects), self._s(meta), tuple(names))

    def ends(self, meta, c):
        stuck = isinstance(c[0], Token) and c[0].type == "NOBODY_CAN_MOVE"
        return Ends(None if stuck else c[0], self._s(meta))

    def at_time(self, meta, c):
        return AtTime(str(c[0]), tuple(c[1:]), self._s(meta))

    def repeat(self, meta, c):
        return Repeat(tuple(c[:-1]), c[-1], self._s(meta))

    def resolve_order(self, meta, c):
        return ResolveOrder(tuple(c), self._s(meta))

    def first_player(self, meta, c):
        return FirstPlayer(tuple(c), self._s(meta))

    def first_player_is(self, meta, c):
        return FirstPlayer((), self._s(meta), c[0])

    def order_key(self, meta, c):
        return (str(c[0]), c[1])

    # effects
    def move_cards(self, meta, c):
        return Effect("move", (c[0], c[1], c[2] is not None), self._s(meta))

    def draw(self, meta, c):  # draw N from ZONE to ZONE: (count, from, to, top=False)
        return Effect("draw", (*c, False), self._s(meta))

    def draw_top(self, meta, c):  # draw top N from ZONE to ZONE: the last N cards
        return Effect("draw", (*c, True), self._s(meta))

    def let(self, meta, c):
        return Effect("let", (str(c[0]), c[1]), self._s(meta))

    def set_var(self, meta, c):
        return Effect("set", (str(c[0]), c[1], c[2]), self._s(meta))

    def add_var(self, meta, c):
        return Effect("add", (str(c[1]), c[2], c[0]), self._s(meta))

    def next_player(self, meta, c):
        return Effect("next", (c[0],), self._s(meta))

    def pay(self, meta, c):  # pay 1 chips of player to pot: (amount or None for all, var, of, var, of)
        amount = None if isinstance(c[0], Token) and c[0].type == "ALL" else c[0]
        return Effect("pay", (amount, str(c[1]), c[2], str(c[3]), c[4]), self._s(meta))

    def show(self, meta, c):
        return Effect("show", (c[0], c[1]), self._s(meta))

    def reveal(self, meta, c):  # reveal CARDS [to P, Q]: (what, the players named or ())
        return Effect("reveal", (c[0], tuple(x for x in c[1:] if x is not None)), self._s(meta))

    def shuffle(self, meta, c):
        return Effect("shuffle", (c[0],), self._s(meta))

    def swap(self, meta, c):
        return Effect("swap", (c[0], c[1]), self._s(meta))

    def tell(self, meta, c):  # [issue 30] tell P ATTR of CARDS
        return Effect("tell", (c[0], str(c[1]), c[2]), self._s(meta))

    def eliminate(self, meta, c):
        return Effect("eliminate", (c[0],), self._s(meta))

    def make(self, meta, c):  # make player protected until their next turn
        return Effect("make", (c[0], str(c[1]), c[2] is not None), self._s(meta))

    def reverse_order(self, meta, c):  # turn order reverses
        return Effect("reverse", (), self._s(meta))

    def skip(self, meta, c):  # skip next of player
        return Effect("skip", (c[0],), self._s(meta))

    def if_effect(self, meta, c):
        _if, cond, *rest = c
        otherwise = rest[-1] if rest and isinstance(rest[-1], tuple) else ()
        then = tuple(x for x in rest if isinstance(x, Effect))
        return Effect("if", (cond, then, otherwise), self._s(meta))

    def ask(self, meta, c):
        who, name, choice, *items = c
        guards = tuple(g for g in items if isinstance(g, Guard))
        effects = tuple(x for x in items if isinstance(x, Effect))
        return Effect("ask", (who, str(name), choice, guards, effects, items), self._s(meta))

    def else_effect(self, meta, c):
        return tuple(c)

    # ---- loops in effects ----
    def each_effect(self, meta, c):
        # for each NAME [in ZONE] [from P] [where C] [by KEY] [until C]: effects
        # args: (over, where, effects, in, from, (extreme, key) or None, until)
        _each, over, source, start, where, by, until, *effects = c
        return Effect("each", (str(over), where, tuple(effects), source, start, by, until), self._s(meta))

    def each_in(self, meta, c):
        return c[0]

    def each_from(self, meta, c):
        return c[0]

    def each_by(self, meta, c):  # by [lowest | highest] KEY
        return (str(c[0]) if c[0] is not None else "lowest", c[1])

    def each_until(self, meta, c):
        return c[0]

    def effect_block(self, meta, c):  # effect NAME: effects
        name, *effects = c
        return EffectBlock(str(name), tuple(effects), self._s(meta))

    def do_block(self, meta, c):  # do NAME; args: (name,)
        return Effect("do", (str(c[0]),), self._s(meta))

    def repeat_effect(self, meta, c):  # repeat until C: effects; args: (until, effects)
        until, *effects = c
        return Effect("repeat", (until, tuple(effects)), self._s(meta))

    def score(self, meta, c):
        return Score(tuple(c), self._s(meta))

    def score_rule(self, meta, c):
        _each, each, points, condition = c
        return ScoreRule(each, points, condition, self._s(meta))

    def condition(self, meta, c):
        return (str(c[0]), c[1])

    # the game
    def game(self, meta, c):
        return GameSection(tuple(c), self._s(meta))

    def checks(self, meta, c):  # `checks`: always / never / sometimes lines (docs/verify.md)
        return Checks(tuple(c), self._s(meta))

    def check_line(self, meta, c):
        return CheckLine(str(c[0]), c[1], self._s(meta))

    def rounds(self, meta, c):
        return GameItem("rounds", c[0], self._s(meta))

    def dealer(self, meta, c):
        return GameItem("dealer", str(c[0]) if c[0] else "clockwise", self._s(meta))  # or "stays"

    def max_moves(self, meta, c):
        return GameItem("max_moves", int(c[0]), self._s(meta))

    def winner(self, meta, c):
        return GameItem("winner", str(c[0]), self._s(meta))

    def winner_all(self, meta, c):  # `everyone wins if C`: the condition (an Expr) in place of highest/lowest
        return GameItem("winner", c[2], self._s(meta))

    # expressions
    def number(self, meta, c):
        return self._e("number", meta, int(c[0]))

    def string(self, meta, c):
        return self._e("string", meta, _text(c[0]))

    def none(self, meta, c):
        return self._e("none", meta)

    def name(self, meta, c):
        return self._e("name", meta, str(c[0]))

    def paren(self, meta, c):  # (a + b): the same expression, marked so that fmt keeps the author's parentheses
        return replace(c[0], parens=True) if isinstance(c[0], Expr) else c[0]

    def of(self, meta, c):
        return Expr("of", (str(c[0]), c[1]), _tok_span(self.file, c[0]))

    def pick(self, meta, c):
        return self._e("pick", meta, str(c[0]), c[1])

    def count(self, meta, c):
        return self._e("count", meta, c[0])

    def aggregate(self, meta, c):  # sum of value in pot; unique highest of rank in trick
        return self._e("aggregate", meta, " ".join(str(c[0]).split()), str(c[1]), c[2])

    def for_each(self, meta, c):  # max total of player for each player where ...; unique highest ...
        return self._e("for_each", meta, " ".join(str(c[0]).split()), c[1], str(c[2]), c[3])

    def call(self, meta, c):  # playable(card)
        return Expr("call", (str(c[0]), tuple(c[1:])), _tok_span(self.file, c[0]))

    def seats_from(self, meta, c):  # 2 seats left of dealer
        return self._e("seats_from", meta, c[0], str(c[1]), c[2])

    def known(self, meta, c):  # [issue 30] known ATTR of CARD to P
        return self._e("known", meta, str(c[1]), c[2], c[3])

    def across(self, meta, c):  # across player
        return self._e("across", meta, c[0])

    def every(self, meta, c):  # every player where total of it > 0
        return self._e("every", meta, c[1])

    def conditional(self, meta, c):
        return self._e("conditional", meta, c[1], c[2], c[3])

    def select(self, meta, c):
        return Expr("select", (str(c[0]), c[1], c[2], c[3]), _tok_span(self.file, c[0]))

    def filter(self, meta, c):
        return self._e("filter", meta, c[0], c[1], c[2])

    def where(self, meta, c):
        return c[0]

    def except_(self, meta, c):
        return c[0]

    def neg(self, meta, c):
        return self._e("neg", meta, c[0])

    def not_(self, meta, c):
        return self._e("not", meta, c[0])

    def quantified(self, meta, c):
        word = str(c[0])
        if word == "every":
            return self._e("every_empty", meta, c[1])
        return self._e(word, meta, c[1])

    def most(self, meta, c):
        return self._e("most", meta, c[0] is not None, c[1])

    def compare(self, meta, c):
        return self._e("compare", meta, c[0], str(c[1]), c[2])

    def is_(self, meta, c):
        return self._e("is", meta, c[0], c[1] is not None, str(c[2]))

    def is_what(self, meta, c):
        return c[0]

    def _chain(self, op: str, meta: Any, c: list) -> Expr:
        return self._e(op, meta, *c)

    def coalesce(self, meta, c):
        return self._chain("else", meta, c)

    def or_expr(self, meta, c):
        return self._chain("or", meta, c)

    def and_expr(self, meta, c):
        return self._chain("and", meta, c)

    def sum(self, meta, c):
        return self._left_assoc(meta, c)

    def product(self, meta, c):
        return self._left_assoc(meta, c)

    def _left_assoc(self, meta: Any, c: list) -> Expr:
        left = c[0]
        for i in range(1, len(c), 2):
            left = Expr("arith", (left, str(c[i]), c[i + 1]), left.span)
        return left


def comments_of(text: str) -> dict[int, str]:
    """Each line's comment (text after '#', outside quotes), by line number."""
    found: dict[int, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        quoted = False
        for i, ch in enumerate(line):
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted:
                found[number] = line[i + 1 :].strip()
                break
    return found


# Blocks and expressions together may nest this deep in the parse tree; the Transformer (and
# every later stage) recurses once per level, so deeper text would exhaust Python's stack.
MAX_NESTING = 64


def check_nesting(tree: Tree, file: str) -> None:
    """Refuse a parse tree nested deeper than MAX_NESTING levels, at the first place (no recursion)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            raise DeclarationError(
                f"the rules are nested deeper than {MAX_NESTING} levels here",
                _span(file, node.meta),
                "name a part of a long expression with `define`, or nest fewer blocks",
            )
        stack.extend((child, depth + 1) for child in reversed(node.children) if isinstance(child, Tree))


# Arithmetic nests one level an operator (`1 + 1 + 1` is `(1 + 1) + 1`), and the resolver refuses
# expressions deeper than MAX_DEPTH (60); more operators than this in one statement are refused
# before the text is parsed at all, so that a huge expression (an upload of `1+1+...`) costs a scan,
# not a parse of every operator first. Real rules have a handful a line.
MAX_OPERATORS = 250
_OPERATOR_SCAN = re.compile(r'"[^"\n]*"|#[^\n]*|[()\n]|[-+*/%]')


def check_operators(text: str, file: str) -> None:
    """Refuse a statement (a line, or the lines a parenthesis holds together) of more than
    MAX_OPERATORS arithmetic operators, at the first operator too many; strings and comments aside."""
    count = parens = 0
    for m in _OPERATOR_SCAN.finditer(text):
        ch = m.group()
        if ch == "(":
            parens += 1
        elif ch == ")":
            parens = max(0, parens - 1)
        elif ch == "\n":
            count = 0 if parens == 0 else count
        elif len(ch) == 1 and ch in "-+*/%":
            count += 1
            if count > MAX_OPERATORS:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - text.rfind("\n", 0, m.start())
                raise DeclarationError(
                    f"more than {MAX_OPERATORS} operators in one expression",
                    Span(file, line, col),
                    f"arithmetic nests a level an operator, {MAX_DEPTH} at most:"
                    " name parts of a long expression with `define`",
                )


# The resolver refuses numbers above a billion; a literal longer than this is refused before it is
# converted at all (Python will not convert a text of more than 4,300 digits to a number).
MAX_DIGITS = 10


def check_numbers(tree: Tree, file: str) -> None:
    """Refuse a number written with more than MAX_DIGITS digits (a count `x3` too), at its place."""
    for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type in ("INT", "COUNT")):
        if len(str(tok).lstrip("x").lstrip("0")) > MAX_DIGITS:
            raise DeclarationError(
                "numbers are limited to 1,000,000,000",
                _tok_span(file, tok),
                f"this number has {len(str(tok).lstrip('x'))} digits",
            )


def to_ast(text: str, file: str = "<rules>") -> Ruleset:
    """Parse rules text into its AST (a Ruleset)."""
    remember_source(file, text)  # (an error before the parse quotes its line too)
    check_operators(text, file)
    tree: Tree = parse(text, file)
    check_nesting(tree, file)
    check_numbers(tree, file)
    items = ToAst(file).transform(tree)
    comments = comments_of(text)
    lines = text.splitlines()
    only = frozenset(n for n in comments if lines[n - 1].lstrip().startswith("#"))
    return Ruleset(file, tuple(items), comments, only)
