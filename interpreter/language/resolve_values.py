"""Resolving the values of the table: players and seats as values, teams, definitions with
parameters, derived card attributes and copy counts by expression. A mixin of the Resolver
(resolve.py), whose other methods (expr, _sub, _noted...) it calls."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesetError, RulesTypeError, Span, UnknownNameError
from .ast_nodes import Expr
from .copies import copies_for
from .resolve_types import BOOL, CARD, CARDS, NUMBER, PLAYER, TEXT, T

PLAYERS, TEAM, TEAMS = T("players"), T("team"), T("teams")
UNIQUE = {"unique highest": "unique_max", "unique lowest": "unique_min"}  # `unique highest ...`: the IR's word
SEAT_HINT = (
    "a player is not a number: write `left of P` or `N seats left of P` for another seat, `seat of P` for its number"
)
# An operand of arithmetic that is a name value or a truth inside a `where`: most often the rest of
# the line, meant to follow the collection, read as part of its condition.
WHERE_HINT = (
    "`where` takes the rest of the expression as its condition: to count (or sum) and then add, put "
    "the collection in parentheses, `(count card in hand where suit of it = red) + 1`"
)
# What a derived attribute or a copy count may read: nothing that changes in play.
STATIC_OPS = frozenset(
    {"num", "text", "none", "attr", "is_type", "cmp", "arith", "neg", "if", "else", "and", "or", "not", "is_none"}
)
SIDES = {"left": 1, "right": -1}
# What may be read (and a hint) where nothing that changes in play may be.
DERIVED_READS = (
    "the card's own attributes and numbers",
    "a card attribute is the same all game: for a value that changes in play, define a function"
    " of the card, `define NAME(c) = ...`",
)
COPY_READS = (
    "the number of players, parameters and numbers",
    "write a formula of `players`, e.g. `x (2 * players)` or `x (if players > 4 then 2 else 1)`",
)


class ValuesResolver:
    """Players, seats and teams as values; functions; derived attributes; copy counts."""

    # ---- collections of players and teams ---------------------------------------------------
    def _seat_collection(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T] | None:
        """`player` or `team` written where a collection goes (`some player where ...`): every seat
        (every team), else None."""
        if e.op != "name" or e.args[0] not in ("player", "team"):
            return None
        if e.args[0] == "team":
            self._need_teams(e)
            return {"op": "teams"}, TEAMS
        return {"op": "players"}, PLAYERS

    def _need_teams(self, e: Expr) -> None:
        if self.p.teams is None:
            raise RulesTypeError(
                "there are no teams in this game", e.span, "declare them, e.g. `teams of 2, partners across`"
            )

    def _values_expr(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        """The expressions of players, seats and functions (every, for each, seats, across, calls)."""
        a = e.args
        match e.op:
            case "every":  # every player where chips of it > 0, every card in hand of P where ...
                coll, elem, where_e = self._every_domain(e, scope)
                where = self.expr(where_e, {**scope, "it": elem}, BOOL)
                return {"op": "every", "of": coll, "where": where}, BOOL
            case "for_each":  # max total of player for each player where ...
                agg, value_e, over, where_e = a
                if over not in ("player", "team"):
                    raise RulesTypeError(
                        f"`for each` goes over `player` or `team`, not '{over}'",
                        e.span,
                        f"over cards, write `{agg} of ATTRIBUTE in ZONE`" if agg in ("sum", "max", "min") else None,
                    )
                if over == "team":
                    self._need_teams(e)
                inner = {**scope, over: PLAYER if over == "player" else TEAM}
                value = self.expr(value_e, inner, None)
                t = self._last_type
                if agg != "distinct" and t.kind not in ("number", "none"):
                    raise RulesTypeError(
                        f"`{agg}` adds or compares numbers, not {t}",
                        value_e.span,
                        "give it a number of each player: `total of player`, `count hand of player`",
                    )
                where = None if where_e is None else self.expr(where_e, inner, BOOL)
                if agg in UNIQUE:  # unique highest total of player for each player: one holds the best
                    node = {"op": "for_each", "agg": UNIQUE[agg], "value_expr": value, "over": over, "where": where}
                    return node, BOOL
                node = {"op": "for_each", "agg": agg, "value_expr": value, "over": over, "where": where}
                return node, NUMBER
            case "seats_from":  # 2 seats left of dealer
                count_e, side, of_e = a
                if side not in SIDES:
                    raise RulesTypeError(
                        f"seats are counted `left` or `right`, not '{side}'",
                        e.span,
                        "`2 seats left of dealer` is the second player after the dealer, clockwise",
                    )
                by = self.expr(count_e, scope, NUMBER)
                of = self.expr(of_e, scope, PLAYER)
                if side == "right":
                    by = {"op": "neg", "of": by, "at": by["at"]}
                return {"op": "seat_offset", "of": of, "by": by}, PLAYER
            case "across":  # across player
                odd = [n for n in range(self.p.players.low, self.p.players.high + 1) if n % 2]
                if odd:
                    raise RulesTypeError(
                        f"nobody sits across the table with {odd[0]} players, and this game allows {odd[0]}",
                        e.span,
                        f"allow even numbers of players only (`players {odd[0] + 1}..{odd[0] + 1}`),"
                        " or count seats: `2 seats left of P`",
                    )
                return {"op": "across", "of": self.expr(a[0], scope, PLAYER)}, PLAYER
            case "call":  # playable(card)
                return self._call(e, scope)
        raise AssertionError(e.op)

    def _every_domain(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T, Expr]:
        """What `every` goes over, its element and its condition: `every X where C [except Y]` and,
        as `some` takes it, `every NAME in ZONE where C [except Y]`. The condition is what each
        must meet; `except` takes its element out of the collection first."""
        src = e.args[0]
        if src.op == "filter":
            base, where_e, except_e = src.args
            coll, t = self._seat_collection(base, scope) or self._sub(base, scope)
            elem = self._element(t, base.span)
            coll = self._as_collection(coll, t)
        elif src.op == "select" and src.args[2] is not None:
            what, base, where_e, except_e = src.args
            coll, t = self._select(Expr("select", (what, base, None, None), src.span), scope)
            elem = self._element(t, src.span)
            coll = self._as_collection(coll, t)
        else:
            raise RulesTypeError(
                "`every X` needs a condition: `every X where C`, `every card in ZONE where C`"
                " (or `every ZONE is empty`)",
                e.span,
                "e.g. `every player where count hand of it > 0`, `every card in hand of P where suit of it = hearts`",
            )
        if except_e is not None:
            coll, _ = self._where_except(coll, elem, t, None, except_e, scope)
        return coll, elem, where_e

    def _of_value(self, name: str, arg: dict[str, Any], t: T, span: Span) -> tuple[dict[str, Any], T] | None:
        """`seat|left|right|next|team|partner of PLAYER`, `total of TEAM`, `ZONE of TEAM`; else None."""
        if t.kind == "player":
            if name == "seat":
                return {"op": "seat", "of": arg}, NUMBER
            if name in SIDES:
                return {"op": "seat_offset", "of": arg, "by": {"op": "num", "value": SIDES[name]}}, PLAYER
            if name == "next":  # who plays after P in the turn order, which may reverse (turns.py)
                return {"op": "next_of", "of": arg}, PLAYER
            if name in ("team", "partner") and self.p.teams is not None:
                if name == "partner" and self.p.teams.size != 2:
                    raise RulesTypeError(
                        f"`partner of` names the other player of a team of 2; these teams have {self.p.teams.size}",
                        span,
                        "name the team instead: `team of P`, `some player where team of it = team of P`",
                    )
                return {"op": f"{name}_of", "of": arg}, PLAYER if name == "partner" else TEAM
        if t.kind == "team":
            if name == "total":
                return {"op": "team_total", "of": arg}, NUMBER
            if name in self.zones and self.zones[name]["owner"] == "player":
                return {"op": "team_zones", "name": name, "of": arg}, T("zones", name)
        return None

    def _of_misuse(self, name: str, t: T, arg_e: Expr) -> None:
        """Explain `seat|left|right|team|partner|total of X` said of something it is not said of."""
        if name in ("team", "partner"):
            self._need_teams(arg_e)
        if name in ("seat", "left", "right", "next", "team", "partner"):
            raise RulesTypeError(
                f"`{name} of` is said of a player, not of {t}",
                arg_e.span,
                "name a player: `dealer`, `player`, `owner of ZONE`, `player of card`",
            )

    def _arith_operand(self, e: Expr, scope: dict[str, T]) -> dict[str, Any]:
        """One side of `+ - * / %`: a number (a player gets a hint to use seat arithmetic)."""
        node = self.expr(e, scope, None)
        return self._number_operand(node, self._last_type, e.span)

    def _number_operand(self, node: dict[str, Any], t: T, span: Span) -> dict[str, Any]:
        """An operand of arithmetic, resolved already as ``t``: a number, or an error."""
        self._last_type = t
        if t.kind in ("player", "team"):
            raise RulesTypeError(f"arithmetic takes numbers, not {t}", span, SEAT_HINT)
        if t.kind in ("text", "bool") and self.in_where:
            raise RulesTypeError(f"arithmetic takes numbers, not {t}", span, WHERE_HINT)
        self._expect(NUMBER, span)
        return node

    # ---- [issue 30] unions of zones: `fireworks + discard`, `hand of player + table` -------------
    def _plus(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        """`A + B`: numbers added, or, when A is a zone (zones, a pile, cards), the cards of both
        (a union, A's then B's, each in its order)."""
        a = e.args
        left, lt = self._sub(a[0], scope)
        if lt.kind not in UNION_KINDS:
            left = self._number_operand(left, lt, a[0].span)
            right = self._arith_operand(a[2], scope)
            return {"op": "arith", "sym": "+", "left": left, "right": right}, NUMBER
        right, rt = self._sub(a[2], scope)
        if rt.kind not in UNION_KINDS:
            raise RulesTypeError(
                f"`+` after a zone joins zones or cards, not {rt}", a[2].span, "write `ZONE + ZONE` (`discard + pile`)"
            )
        parts = [self._as_cards(left, lt, a[0].span), self._as_cards(right, rt, a[2].span)]
        return {"op": "union", "args": parts}, CARDS

    # ---- teams -----------------------------------------------------------------------------------
    def _teams(self) -> dict[str, Any] | None:
        """The teams line, checked against the player counts."""
        teams = self.p.teams
        if teams is None:
            return None
        low, high = self.p.players.low, self.p.players.high
        bad = [n for n in range(low, high + 1) if n % teams.size or n // teams.size < 2]
        if teams.size < 1 or bad:
            raise DeclarationError(
                f"{bad[0] if bad else low} players cannot sit as teams of {teams.size}",
                teams.span,
                f"play with a multiple of {teams.size} players, at least two teams (`players {2 * teams.size}..`)",
            )
        return self._noted({"size": teams.size, "seating": teams.seating}, teams.span)

    # ---- functions ---------------------------------------------------------------------------------
    def _param_types(self, d: Any) -> dict[str, T]:
        """Each parameter's type: as declared (`c card`), else told by its uses in the body (`rank of
        c`: c is a card), by the definitions it is passed to (`fits(c)`: what fits takes), or by
        what it is compared with (`suit of c = hue`: hue is a suit's value)."""
        found: dict[str, T] = {}
        for name, word, span in zip(
            d.params, d.param_types or (None,) * len(d.params), d.param_spans or (d.span,) * len(d.params), strict=True
        ):
            if word is not None:
                found[name] = self._declared_type(word, span, zones=True)
        for _ in range(2):  # a comparison with another parameter tells once that one is known
            self._infer_params(d, found)
        for name, span in zip(d.params, d.param_spans or (d.span,) * len(d.params), strict=True):
            if name not in found:
                raise RulesTypeError(
                    f"the use of parameter '{name}' in the body does not tell what it is",
                    span,
                    f"declare its type: `{d.name}({', '.join(p + (' card' if p == name else '') for p in d.params)})`"
                    f" (or number, player, team, an attribute such as a suit), or use it as a card (`rank of {name}`)",
                )
        return found

    def _infer_params(self, d: Any, found: dict[str, T]) -> None:
        """One walk of a definition's body, noting the type each use of a parameter tells."""
        stack = [d.body]
        while stack:
            e = stack.pop()
            if not isinstance(e, Expr):
                if isinstance(e, tuple):
                    stack.extend(reversed(e))
                continue
            for i, x in enumerate(e.args):
                if isinstance(x, Expr) and x.op == "name" and x.args[0] in d.params and x.args[0] not in found:
                    t = self._use_type(e, i) or self._compared_type(e, i, found)
                    if t is not None:
                        found[x.args[0]] = t
            if e.op == "call":  # b(p): p is what b takes in that place
                for j, x in enumerate(e.args[1]):
                    if x.op == "name" and x.args[0] in d.params and x.args[0] not in found:
                        t = self._callee_param_type(e.args[0], j)
                        if t is not None:
                            found[x.args[0]] = t
            stack.extend(reversed([x for x in e.args if isinstance(x, Expr | tuple)]))

    def _callee_param_type(self, name: str, j: int) -> T | None:
        """The type definition ``name`` takes as its ``j``-th argument (None: not known here)."""
        d = self.p.defines.get(name)
        inferring = self.__dict__.setdefault("_inferring", set())
        if d is None or j >= len(d.params) or name in inferring:
            return None  # (a wrong call or a cycle: the call's own check says what is wrong)
        inferring.add(name)
        try:
            return self._function_types(name)[d.params[j]]
        except RulesTypeError:
            return None
        finally:
            inferring.discard(name)

    def _compared_type(self, e: Expr, i: int, found: dict[str, T]) -> T | None:
        """`suit of c = hue`, `hue != led`: a parameter compared for equality has the other side's type."""
        if e.op != "compare" or e.args[1] not in ("=", "!=") or i not in (0, 2):
            return None
        other = e.args[2 - i]
        try:
            self._sub(other, dict(found))
        except RulesetError:
            return None  # (reads a parameter not known yet, or is wrong: the body's own check says so)
        t = self._last_type
        return None if t.kind in ("any", "none") else t

    def _use_type(self, e: Expr, i: int) -> T | None:
        """The type an operand in position ``i`` of ``e`` must have, when the operator tells it."""
        match e.op:
            case "of":
                name = e.args[0]
                if name in self.attrs or name == "player":
                    return CARD
                if name in self.zones and self.zones[name]["owner"] == "player":
                    return PLAYER
                if name in ("total", "seat", "left", "right", "next", "team", "partner"):
                    return PLAYER
                if name in self.p.vars and self.p.vars[name].per_player:
                    return PLAYER
                if name in self.p.vars and self.p.vars[name].per_team:
                    return TEAM
                if name in self.defines and self.defines[name][0] not in (None, "card"):
                    return T("zone", self.defines[name][0])
            case "is":
                what = e.args[2]
                if what in self.types or what == "achieved":
                    return CARD
            case "arith" | "neg":
                return NUMBER
            case "seats_from" | "across":
                return NUMBER if e.op == "seats_from" and i == 0 else PLAYER
            case "compare" if e.args[1] in ("<", ">", "<=", ">="):
                return NUMBER
            case "and" | "or" | "not":  # a truth value
                return BOOL
            case "conditional" if i == 0:
                return BOOL
        return None

    def _call(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        """A call of a definition with parameters, its arguments checked against their types."""
        name, args = e.args
        d = self.p.defines.get(name)
        if d is None or not d.params:
            hint = self._suggest(name, [n for n, x in self.p.defines.items() if x.params])
            if d is not None:
                raise RulesTypeError(f"'{name}' takes no arguments", e.span, f"write just `{name}`")
            raise UnknownNameError(f"no definition '{name}' with parameters", e.span, hint)
        if len(args) != len(d.params):
            raise RulesTypeError(
                f"{name} takes {len(d.params)} arguments ({', '.join(d.params)}), not {len(args)}",
                e.span,
                f"call it as `{name}({', '.join(d.params)})`, one value for each parameter",
            )
        types = self._function_types(name)
        nodes = []
        for p, arg_e in zip(d.params, args, strict=True):
            node, t = self._sub(arg_e, scope)
            want = types[p]
            if t.kind not in ("none", "any") and (t.kind != want.kind or (want.zone and t.zone != want.zone)):
                raise RulesTypeError(
                    f"{name} takes {want} as '{p}', not {t}",
                    arg_e.span,
                    f"'{p}' is {want} because of its use in the body of {name}",
                )
            nodes.append(node)
        return {"op": "call", "name": name, "args": nodes}, self._define_type(name)

    def _function_types(self, name: str) -> dict[str, T]:
        cache = self.__dict__.setdefault("_fn_types", {})
        if name not in cache:
            inferring = self.__dict__.setdefault("_inferring", set())
            inferring.add(name)
            try:
                cache[name] = self._param_types(self.p.defines[name])
            finally:
                inferring.discard(name)
        return cache[name]

    def _define_scope(self, d: Any) -> dict[str, T]:
        """What a definition's body may name: `it` (its zone or card), `card`, or its parameters."""
        if d.params:
            return dict(self._function_types(d.name))
        if d.of_zone == "card":
            return {"card": CARD, "it": CARD}
        return {"it": T("zone", d.of_zone)} if d.of_zone else {}

    # ---- derived attributes and copy counts -------------------------------------------------------
    def _derive_attributes(self) -> None:
        """`define NAME of card = ...`: an attribute of every card, computed from its own attributes."""
        for d in self.p.defines.values():
            if d.of_zone != "card":
                continue
            if d.name in self.attrs and not self.attrs[d.name].get("derived"):
                raise DeclarationError(
                    f"'{d.name}' is already an attribute of the cards",
                    d.span,
                    "give the derived attribute another name",
                )
            what = "a derived attribute is computed from the card alone"
            self._refuse_zones(d.body, what, DERIVED_READS)
            body = self.expr(d.body, {"card": CARD, "it": CARD}, None)
            t = self._last_type
            if t.kind not in ("number", "text"):
                raise RulesTypeError(
                    f"a card attribute is a number or a name, not {t}",
                    d.body.span,
                    "for a truth value, write `if CONDITION then 1 else 0`" if t == BOOL else None,
                )
            self._static(body, what, {"card", "it"})
            values = sorted(_texts(body)) if t == TEXT else []
            self.attrs[d.name] = {"kind": t.kind, "values": values, "span": d.span, "derived": True}

    def _static(self, node: Any, what: str, names: set[str], players: bool = False) -> None:
        """Refuse, at its place, any part of ``node`` that changes in play."""
        if isinstance(node, list):
            for x in node:
                self._static(x, what, names, players)
            return
        if not isinstance(node, dict):
            return
        op = node.get("op")
        if op is not None:
            ok = op in STATIC_OPS or (op == "bound" and node["name"] in names)
            ok = ok or (players and op == "builtin" and node["name"] == "players")
            ok = ok or (players and op == "param")  # (a copy count: a parameter whose value is a number)
            if not ok:
                self._not_static(what, COPY_READS if players else DERIVED_READS, node.get("at"))
        for k, v in node.items():
            if k != "at":
                self._static(v, what, names, players)

    def _not_static(self, what: str, reads: tuple[str, str], at: Any) -> None:
        raise DeclarationError(f"{what}: it may read {reads[0]} only", at, reads[1])

    def _refuse_zones(self, e: Any, what: str, reads: tuple[str, str]) -> None:
        """Refuse a zone read where nothing that changes in play may be read (a zone's cards move):
        zones are declared after cards, so without this the zone would be an unknown name."""
        if isinstance(e, tuple):
            for x in e:
                self._refuse_zones(x, what, reads)
        if not isinstance(e, Expr):
            return
        if e.op in ("name", "of") and e.args[0] in self.p.zones:
            self._not_static(what, reads, e.span)
        for x in e.args:
            self._refuse_zones(x, what, reads)

    def _copies(self, e: Expr) -> dict[str, Any]:
        """A copy count `x (EXPR)`: a number computed from `players` when the game starts."""
        what = "a copy count is known before the game starts"
        self._refuse_zones(e, what, COPY_READS)
        node = self.expr(e, {}, NUMBER)
        self._static(node, what, set(), players=True)
        node = self._deck_params(node)
        for n in range(self.p.players.low, self.p.players.high + 1):
            got = copies_for(node, n)
            if not 0 <= got <= 10_000:
                raise DeclarationError(
                    f"with {n} players this gives {got} copies, not 0 to 10,000",
                    e.span,
                    f"make it a number from 0 for every count in `players {self.p.players.low}..{self.p.players.high}`",
                )
        return node

    def _deck_params(self, node: Any) -> Any:
        """A copy count with each parameter it reads as its number, marked with the parameter's
        name (`{"op": "num", "value": 2, "param": "copies"}`): `--set` gives another (deck_params.py)."""
        if isinstance(node, list):
            return [self._deck_params(x) for x in node]
        if not isinstance(node, dict):
            return node
        if node.get("op") == "param":
            value = self.deck_param(node["name"], node.get("at"))
            return {"op": "num", "value": value, "param": node["name"], **({"at": node["at"]} if "at" in node else {})}
        return {k: self._deck_params(v) for k, v in node.items()}


def _texts(node: Any) -> set[str]:
    if isinstance(node, list):
        return set().union(*map(_texts, node)) if node else set()
    if not isinstance(node, dict):
        return set()
    out = {node["value"]} if node.get("op") == "text" else set()
    for k, v in node.items():
        if k != "at":
            out |= _texts(v)
    return out


UNION_KINDS = ("zone", "zones", "pile", "cards")
