"""Program to IR: every name resolved, every expression typed, into plain JSON-able data.

The IR is the contract between the front end and everything else (`ruleset show` prints it).
Expressions become objects like ``{"op": "attr", "name": "color", "of": {...}, "at": "f:3:5"}``
whose operator says exactly what to compute; the compiler never looks a name up again.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from ..errors import DeclarationError, RulesetError, RulesTypeError, Span, UnknownNameError
from .syntax import CardOrder, CardType, EnumOrder, Expr, ScoreRule
from .variants import DEFAULT_DECK, PhaseParts, Program

IR_FORMAT = 1
MAX_DECK = 10_000
MAX_DEPTH = 60


@dataclass(frozen=True)
class T:
    """The type of a value: a kind (number, text, bool, card, cards, zone, zones, pile, piles,
    player, none) and, for zones, which zone."""

    kind: str
    zone: str | None = None

    def __str__(self) -> str:
        names = {"zones": "several zones", "cards": "cards", "piles": "piles", "none": "none"}
        if self.kind == "zone" and self.zone:
            return f"a zone ({self.zone})"
        if self.kind == "zones" and self.zone:
            return f"zones ({self.zone})"
        return names.get(self.kind, f"a {self.kind}" if self.kind[0] not in "aeiou" else f"an {self.kind}")


NUMBER, TEXT, BOOL, CARD, CARDS, PLAYER, PILE, PILES, NONE = (
    T(k) for k in ("number", "text", "bool", "card", "cards", "player", "pile", "piles", "none")
)
BUILTINS = {"players": NUMBER, "round": NUMBER, "dealer": PLAYER}
PER_PLAYER_BUILTINS = {"total": NUMBER}


def _at(span: Span) -> str:
    return str(span)


class Resolver:
    """Resolves one Program into IR; holds the symbol tables."""

    def __init__(self, program: Program, errors: list[RulesetError] | None = None):
        self.p = program
        self.errors = errors  # collecting mode: record an error and go on with the next rule
        self.attrs: dict[str, dict[str, Any]] = {}
        self.types: dict[str, str] = {}  # card type -> deck
        self.zones: dict[str, dict[str, Any]] = {}
        self.params: dict[str, T] = {}
        self.defines: dict[str, tuple[str | None, T]] = {}
        self.depth = 0

    # ---- entry --------------------------------------------------------------------
    def resolve(self) -> dict[str, Any]:
        """The whole IR of the program."""
        p = self.p
        first = p.files[-1].file if p.files else "<rules>"
        if p.title is None:
            raise DeclarationError("the ruleset has no name", Span(first, 1, 1), 'start it with `game "Name"`')
        if p.players is None:
            raise DeclarationError(
                "the ruleset does not say how many can play", p.title.span, "add a line like `players 3..6`"
            )
        low, high = p.players.low, p.players.high
        if not 1 <= low <= high <= 64:
            raise DeclarationError(f"players {low}..{high} is not a range from 1 to 64, low first", p.players.span)
        if not p.decks:
            raise DeclarationError("the ruleset has no cards", p.title.span, "add a `cards` section")
        if not p.zones:
            raise DeclarationError("the ruleset has no zones", p.title.span, "add a `zones` section")
        if not p.phases:
            raise DeclarationError(
                "the round has no phase",
                p.round_span or p.title.span,
                "add a `round` section with a `phase NAME` and its moves",
            )
        ir: dict[str, Any] = {"format": IR_FORMAT, "name": p.title.name, "source": first}
        ir["players"] = {"min": low, "max": high}
        ir["params"] = self._each(p.params.values(), self._param)
        ir["decks"] = self._each(p.decks.items(), lambda x: self._deck(*x))
        self._each([None], lambda _: self._check_orders())
        ir["attributes"] = {
            n: {"kind": a["kind"], **({"values": a["values"]} if a["kind"] == "text" else {})}
            for n, a in self.attrs.items()
        }
        ir["card_order"] = self.card_order
        ir["zones"] = self._each(p.zones.values(), self._zone)
        ir["schedules"] = self._each(p.schedules.values(), self._schedule)
        ir["vars"] = self._each(p.vars.values(), self._var)
        self._declare_defines()
        ir["defines"] = self._each(p.defines.values(), self._define)
        for deck in ir["decks"]:  # card conditions may use defines and zones
            for line, src in zip(deck["cards"], self._card_lines(deck["name"]), strict=True):
                if src.achieved is not None:
                    self._each([src.achieved], lambda x, line=line: self._achieved(line, x))
        ir["round"] = {
            "deals": self._each(p.deals.values(), self._deal),
            "phases": self._each(p.phases.values(), self._phase),
            "score": self._each(p.score.values(), self._score),
        }
        ir["game"] = next(iter(self._each([None], lambda _: self._game())), None)
        return ir

    def _each(self, items: Any, fn: Any) -> list[Any]:
        """``fn`` over items; in collecting mode an item that fails is recorded and left out."""
        out = []
        for item in items:
            if self.errors is None:
                out.append(fn(item))
                continue
            try:
                out.append(fn(item))
            except RulesetError as err:
                self.depth = 0
                self.errors.append(err)
        return out

    def _achieved(self, line: dict[str, Any], cond: Expr) -> None:
        line["achieved"] = self.expr(cond, {"card": CARD, "player": PLAYER}, BOOL)

    def _noted(self, node: dict[str, Any], span: Span) -> dict[str, Any]:
        node["at"] = _at(span)
        note = self.p.note(span)
        if note:
            node["note"] = note
        return node

    # ---- declarations --------------------------------------------------------------------
    def _param(self, param: Any) -> dict[str, Any]:
        value = self.expr(param.default, {}, None)
        t = self._last_type
        if t.kind not in ("number", "text", "bool"):
            raise RulesTypeError(
                f"parameter {param.name} must be a number, a text or a truth value, not {t}",
                param.default.span,
            )
        self.params[param.name] = t
        return self._noted({"name": param.name, "type": t.kind, "default": value}, param.span)

    def _card_lines(self, deck: str) -> list[CardType]:
        return [x for x in self.p.decks[deck]["lines"].values() if isinstance(x, CardType)]

    def _deck(self, name: str, deck: dict[str, Any]) -> dict[str, Any]:
        if name in self.p.zones:
            raise DeclarationError(
                f"the deck '{name}' has the name of a zone",
                self.p.zones[name].span,
                "give the deck or the zone another name",
            )
        cards = []
        total = 0
        for line in self._card_lines(name):
            if self.types.get(line.name, name) != name:
                raise DeclarationError(f"card type '{line.name}' is declared in two decks", line.span)
            self.types[line.name] = name
            attributes, copies = [], 1
            for spec in line.attrs:
                values = []
                for item in spec.values:
                    if isinstance(item.value, tuple):
                        lo, hi = item.value
                        if hi < lo or hi - lo > MAX_DECK:
                            raise DeclarationError(
                                f"range {lo}..{hi} must go up and have at most {MAX_DECK} values", item.span
                            )
                        values += [{"value": v, "copies": item.copies} for v in range(lo, hi + 1)]
                    else:
                        values.append({"value": item.value, "copies": item.copies})
                self._note_attr(spec.name, values, spec.span)
                attributes.append({"name": spec.name, "values": values})
                copies *= sum(v["copies"] for v in values)
            total += copies
            if total > MAX_DECK:
                raise DeclarationError(
                    f"the deck '{name}' would hold more than {MAX_DECK} cards",
                    line.span,
                    "a deck this large is surely a mistake in the counts",
                )
            cards.append(self._noted({"type": line.name, "attributes": attributes}, line.span))
        if not cards:
            raise DeclarationError(f"the deck '{name}' has no cards", self.p.decks[name]["span"])
        return {"name": name, "cards": cards}

    def _note_attr(self, name: str, values: list[dict[str, Any]], span: Span) -> None:
        kind = "number" if all(isinstance(v["value"], int) for v in values) else "text"
        if any(isinstance(v["value"], int) for v in values) and kind == "text":
            raise RulesTypeError(f"attribute '{name}' mixes numbers and names", span)
        known = self.attrs.setdefault(name, {"kind": kind, "values": [], "span": span})
        if known["kind"] != kind:
            raise RulesTypeError(f"attribute '{name}' is a {known['kind']} elsewhere, here a {kind}", span)
        for v in values:
            if kind == "text" and v["value"] not in known["values"]:
                known["values"].append(v["value"])

    def _check_orders(self) -> None:
        self.card_order: list[str] = []
        for deck in self.p.decks.values():
            for line in deck["lines"].values():
                if isinstance(line, EnumOrder):
                    attr = self.attrs.get(line.attr)
                    if attr is None or attr["kind"] != "text":
                        raise UnknownNameError(
                            f"'{line.attr}' is not an attribute with named values",
                            line.span,
                            self._suggest(line.attr, [a for a, v in self.attrs.items() if v["kind"] == "text"]),
                        )
                    missing = set(attr["values"]) - set(line.values)
                    extra = set(line.values) - set(attr["values"])
                    if missing or extra:
                        raise DeclarationError(
                            f"the order of {line.attr} must list each of its values once: "
                            + (
                                f"missing {', '.join(sorted(missing))}"
                                if missing
                                else f"unknown {', '.join(sorted(extra))}"
                            ),
                            line.span,
                        )
                    attr["values"] = list(line.values)
                elif isinstance(line, CardOrder):
                    for a in line.attrs:
                        if a not in self.attrs:
                            raise UnknownNameError(
                                f"no attribute '{a}' to order cards by",
                                line.span,
                                self._suggest(a, list(self.attrs)),
                            )
                    self.card_order = list(line.attrs)

    def _zone(self, z: Any) -> dict[str, Any]:
        owner, count, visibility, piles, revealed = "shared", 1, "public", False, False
        for opt in z.options:
            if isinstance(opt, int):
                if not 1 <= opt <= 64:
                    raise DeclarationError(f"a zone may have from 1 to 64 instances, not {opt}", z.span)
                count = opt
            elif opt == "per_player":
                owner = "player"
            elif opt in ("public", "hidden", "owner"):
                visibility = opt
            elif opt == "piles":
                piles = True
            elif opt == "revealed":  # revealed when scored: every seat sees it once the round is scored
                revealed = True
        if owner == "player" and count != 1:
            raise DeclarationError("a per-player zone has one instance per player; drop the count", z.span)
        if owner == "shared" and visibility == "owner":
            raise DeclarationError("a shared zone has no owner to see it", z.span, "use public or hidden")
        node = {"name": z.name, "owner": owner, "count": count, "visibility": visibility, "piles": piles}
        if revealed:
            node["revealed"] = True
        self.zones[z.name] = node
        return self._noted(dict(node), z.span)

    def _schedule(self, s: Any) -> dict[str, Any]:
        values = [self.expr(v, {}, NUMBER) for v in s.values]
        return self._noted({"name": s.name, "values": values, "repeated": s.repeated}, s.span)

    def _var(self, v: Any) -> dict[str, Any]:
        init = self.expr(v.init, {}, None)
        t = self._last_type
        if t.kind not in ("number", "text", "bool", "none", "player"):
            raise RulesTypeError(f"a variable holds a number, a text, a truth value or a player, not {t}", v.init.span)
        return self._noted(
            {
                "name": v.name,
                "per_player": v.per_player,
                "per_round": v.per_round,
                "type": t.kind,
                "init": init,
            },
            v.span,
        )

    def _declare_defines(self) -> None:
        # Two passes so that a definition may use one written after it (no recursion: see _define).
        for d in self.p.defines.values():
            if d.of_zone is not None and d.of_zone not in self.zones:
                raise UnknownNameError(
                    f"no zone '{d.of_zone}' to define {d.name} of",
                    d.span,
                    self._suggest(d.of_zone, list(self.zones)),
                )
            self.defines[d.name] = (d.of_zone, T("any"))
        self._defining: list[str] = []
        self._each([d.name for d in self.p.defines.values()], self._define_type)

    def _define_type(self, name: str) -> T:
        of_zone, t = self.defines[name]
        if t.kind != "any":
            return t
        d = self.p.defines[name]
        if name in self._defining:
            raise DeclarationError(f"definition of '{name}' refers to itself", d.span)
        self._defining.append(name)
        scope = {"it": T("zone", of_zone)} if of_zone else {}
        try:
            self.expr(d.body, scope, None)
        finally:
            self._defining.pop()
        self.defines[name] = (of_zone, self._last_type)
        return self._last_type

    def _define(self, d: Any) -> dict[str, Any]:
        scope = {"it": T("zone", d.of_zone)} if d.of_zone else {}
        body = self.expr(d.body, scope, None)
        return self._noted({"name": d.name, "of": d.of_zone, "type": self._last_type.kind, "body": body}, d.span)

    def _deal(self, d: Any) -> dict[str, Any]:
        deck = d.deck or DEFAULT_DECK
        if deck not in self.p.decks:
            raise UnknownNameError(f"no deck '{deck}' to deal from", d.span, self._suggest(deck, list(self.p.decks)))
        zone = self._zone_named(d.zone, d.span)
        if zone["owner"] != "player":
            raise DeclarationError(
                f"cards are dealt to a per-player zone; '{d.zone}' is shared",
                d.span,
                "to set cards out, use `rest to ZONE`",
            )
        node: dict[str, Any] = {"deck": deck, "to": d.zone, "one_at_a_time": d.one_at_a_time}
        node["amount"] = None if d.amount is None else self.expr(d.amount, {}, NUMBER)
        if d.as_players is not None:
            seats, when = d.as_players
            node["as_players"] = self.expr(seats, {}, NUMBER)
            node["as_players_when"] = None if when is None else self.expr(when, {}, BOOL)
        if d.rest is not None:
            rest = self._zone_named(d.rest, d.span)
            if rest["owner"] != "shared" or rest["count"] != 1:
                raise DeclarationError(f"the rest of the deck goes to one shared zone; '{d.rest}' is not", d.span)
            node["rest"] = d.rest
        return self._noted(node, d.span)

    def _zone_named(self, name: str, span: Span) -> dict[str, Any]:
        if name not in self.zones:
            raise UnknownNameError(f"no zone '{name}'", span, self._suggest(name, list(self.zones)))
        return self.zones[name]

    def _phase(self, ph: PhaseParts) -> dict[str, Any]:
        node: dict[str, Any] = {"name": ph.name, "simultaneous": ph.simultaneous}
        if ph.first_player is not None:
            keys = []
            for extreme, e in ph.first_player.keys:
                key = self.expr(e, {"player": PLAYER}, None)
                kind = self._last_type.kind
                if kind not in ("number", "card", "none"):
                    raise RulesTypeError(f"players are ordered by a number or a card, not {self._last_type}", e.span)
                if kind == "card" and not self.card_order:
                    raise DeclarationError(
                        "cards are compared here, but the cards have no order",
                        e.span,
                        "add `order cards by ATTRIBUTE, ...` to the cards section",
                    )
                keys.append({"extreme": extreme, "key": key, "type": kind})
            node["first_player"] = self._noted({"keys": keys}, ph.first_player.span)
        if not ph.moves:
            raise DeclarationError(f"phase '{ph.name}' has no move", ph.span, "add `move NAME card from ZONE to ZONE`")
        node["moves"] = self._each(ph.moves.values(), self._move)
        moves = {m.name: m for m in ph.moves.values()}
        node["triggers"] = self._each(ph.triggers, lambda t: self._trigger(t, moves))
        if ph.ends is not None:
            node["ends"] = self._noted({"when": self.expr(ph.ends.condition, {}, BOOL)}, ph.ends.span)
        elif not ph.simultaneous:
            raise DeclarationError(f"phase '{ph.name}' never ends", ph.span, "add `ends when CONDITION`")
        return self._noted(node, ph.span)

    def _move_scope(self, m: Any) -> dict[str, T]:
        return {"player": PLAYER, "card": CARD, "target": T("zone", m.to_zone)}

    def _move(self, m: Any) -> dict[str, Any]:
        self._zone_named(m.from_zone, m.span)
        self._zone_named(m.to_zone, m.span)
        scope = self._move_scope(m)
        guards = self._each(m.guards, lambda g: self._guard(g, scope))
        return self._noted({"name": m.name, "from": m.from_zone, "to": m.to_zone, "guards": guards}, m.span)

    def _guard(self, g: Any, scope: dict[str, T]) -> dict[str, Any]:
        guard = {"kind": g.kind, "expr": self.expr(g.expr, scope, BOOL)}
        if g.when is not None:
            guard["when"] = self.expr(g.when, scope, BOOL)
        return self._noted(guard, g.span)

    def _trigger(self, t: Any, moves: dict[str, Any]) -> dict[str, Any]:
        if t.after not in moves:
            raise UnknownNameError(
                f"no move '{t.after}' in this phase to trigger after",
                t.span,
                self._suggest(t.after, list(moves)),
            )
        scope = self._move_scope(moves[t.after])
        node: dict[str, Any] = {"after": t.after}
        node["if"] = None if t.condition is None else self.expr(t.condition, scope, BOOL)
        node["effects"] = self.effects(t.effects, dict(scope))
        return self._noted(node, t.span)

    def _score(self, r: ScoreRule) -> dict[str, Any]:
        scope: dict[str, T] = {"player": PLAYER}
        node: dict[str, Any] = {"each": None}
        if r.each is not None:
            node["each"] = self.expr(r.each, scope, None)
            kind = self._last_type.kind
            if kind not in ("cards", "piles"):
                raise RulesTypeError(f"`each` goes over cards or piles, not {self._last_type}", r.each.span)
            scope = {**scope, ("card" if kind == "cards" else "pile"): CARD if kind == "cards" else PILE}
        node["points"] = self.expr(r.points, scope, NUMBER)
        if r.condition is not None:
            word, cond = r.condition
            node[word] = self.expr(cond, scope, BOOL)
        return self._noted(node, r.span)

    def _game(self) -> dict[str, Any]:
        g = self.p.game
        if "rounds" not in g:
            raise DeclarationError(
                "the game does not say how many rounds it has",
                self.p.title.span,
                "add a `game` section with `rounds N`",
            )
        if "winner" not in g:
            raise DeclarationError(
                "the game does not say who wins",
                g["rounds"].span,
                "add `winner highest total` or `winner lowest total` to the game section",
            )
        node = {
            "rounds": self.expr(g["rounds"].value, {}, NUMBER),
            "dealer": g["dealer"].value if "dealer" in g else "clockwise",
            "winner": g["winner"].value,
        }
        return self._noted(node, g["rounds"].span)

    # ---- effects ----------------------------------------------------------------------------
    def effects(self, effects: tuple[Any, ...], scope: dict[str, T]) -> list[dict[str, Any]]:
        """Effects in order; `let` extends the scope of the effects after it."""
        out = []
        for eff in effects:
            out.append(self._noted(self._effect(eff, scope), eff.span))
        return out

    def _effect(self, eff: Any, scope: dict[str, T]) -> dict[str, Any]:
        a = eff.args
        match eff.kind:
            case "move":
                what = self.expr(a[0], scope, None)
                if self._last_type.kind not in ("card", "cards", "zone", "pile"):
                    raise RulesTypeError(
                        f"move takes a card, cards or a zone's cards, not {self._last_type}", a[0].span
                    )
                to = self.expr(a[1], scope, None)
                self._expect(T("zone"), a[1].span)
                return {"do": "move", "what": what, "to": to, "one_pile": a[2]}
            case "draw":
                count = self.expr(a[0], scope, NUMBER)
                src = self.expr(a[1], scope, None)
                self._expect(T("zone"), a[1].span)
                dst = self.expr(a[2], scope, None)
                self._expect(T("zone"), a[2].span)
                return {"do": "draw", "count": count, "from": src, "to": dst}
            case "let":
                value = self.expr(a[1], scope, None)
                scope[a[0]] = self._last_type
                return {"do": "let", "name": a[0], "value": value}
            case "set" | "add":
                name, whose, value_e = a
                var = self.p.vars.get(name)
                if var is None:
                    raise UnknownNameError(f"no variable '{name}'", eff.span, self._suggest(name, list(self.p.vars)))
                node = {"do": eff.kind, "var": name, "of": None}
                if var.per_player:
                    if whose is None:
                        raise RulesTypeError(f"'{name}' is kept per player: say whose, `{name} of player`", eff.span)
                    node["of"] = self.expr(whose, scope, PLAYER)
                elif whose is not None:
                    raise RulesTypeError(f"'{name}' is not kept per player", whose.span)
                node["value"] = self.expr(value_e, scope, NUMBER if eff.kind == "add" else None)
                return node
            case "next":
                return {"do": "next", "player": self.expr(a[0], scope, PLAYER)}
            case "if":
                cond = self.expr(a[0], scope, BOOL)
                return {
                    "do": "if",
                    "cond": cond,
                    "then": self.effects(a[1], dict(scope)),
                    "else": self.effects(a[2], dict(scope)),
                }
        raise AssertionError(eff.kind)

    # ---- expressions ----------------------------------------------------------------------
    def expr(self, e: Expr, scope: dict[str, T], want: T | None) -> dict[str, Any]:
        """Resolve and type one expression; ``want`` is the type the context needs, if any."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.depth = 0
            raise DeclarationError(f"expression nested deeper than {MAX_DEPTH} levels", e.span)
        try:
            node, t = self._expr(e, scope)
        finally:
            self.depth -= 1
        node["at"] = _at(e.span)
        self._last_type = t
        if want is not None:
            self._expect(want, e.span)
        return node

    def _expect(self, want: T, span: Span) -> None:
        got = self._last_type
        if got.kind == "none" or want.kind == got.kind or got.kind == "any":
            return
        raise RulesTypeError(f"expected {want}, got {got}", span)

    def _sub(self, e: Expr, scope: dict[str, T], want: T | None = None) -> tuple[dict[str, Any], T]:
        node = self.expr(e, scope, want)
        return node, self._last_type

    def _suggest(self, name: str, known: list[str]) -> str | None:
        close = get_close_matches(name, known, n=1)
        return f"did you mean '{close[0]}'?" if close else None

    def _known_names(self, scope: dict[str, T]) -> list[str]:
        names = [*scope, *BUILTINS, *self.params, *self.p.schedules, *self.p.vars, *self.defines, *self.zones]
        for a in self.attrs.values():
            if a["kind"] == "text":
                names += a["values"]
        return names

    def _expr(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        a = e.args
        match e.op:
            case "number":  # 13
                if abs(a[0]) > 10**9:
                    raise DeclarationError("numbers are limited to 1,000,000,000", e.span)
                return {"op": "num", "value": a[0]}, NUMBER
            case "string":  # "Suicide Bid"
                return {"op": "text", "value": a[0]}, TEXT
            case "none":  # none
                return {"op": "none"}, NONE
            case "name":  # card, limit, led, hand
                return self._name(e, a[0], scope)
            case "of":  # color of card, hand of player
                return self._of(e, a[0], a[1], scope)
            case "select":  # gem in hand of player where ...
                return self._select(e, scope)
            case "filter":  # pot where color of it = red
                return self._filter(e, scope)
            case "pick":  # first gem in it
                coll, t = self._sub(a[1], scope)
                elem = self._element(t, a[1].span)
                if a[0] in ("best", "worst") and elem.kind == "card" and not self.card_order:
                    raise DeclarationError(
                        f"`{a[0]}` compares cards, but the cards have no order",
                        e.span,
                        "add `order cards by ATTRIBUTE, ...` to the cards section",
                    )
                return {"op": a[0], "of": self._as_collection(coll, t)}, elem
            case "count":  # count trick
                coll, t = self._sub(a[0], scope)
                self._element(t, a[0].span)
                return {"op": "count", "of": self._as_collection(coll, t)}, NUMBER
            case "aggregate":  # sum of value in target
                agg, attr, src = a
                coll, t = self._sub(src, scope)
                coll = self._as_cards(coll, t, src.span)
                info = self._attr(attr, e.span)
                if agg != "distinct" and info["kind"] != "number":
                    raise RulesTypeError(f"{agg} needs a number attribute; '{attr}' holds names", e.span)
                return {"op": agg, "attr": attr, "of": coll}, NUMBER
            case "conditional":  # if players = 3 then 6 else players
                cond = self.expr(a[0], scope, BOOL)
                then, t1 = self._sub(a[1], scope)
                other, t2 = self._sub(a[2], scope)
                return {"op": "if", "cond": cond, "then": then, "else": other}, self._join(t1, t2, e.span)
            case "neg":  # -1
                return {"op": "neg", "of": self.expr(a[0], scope, NUMBER)}, NUMBER
            case "not":  # not card is trump
                return {"op": "not", "of": self.expr(a[0], scope, BOOL)}, BOOL
            case "some" | "no":  # no pot where ...
                coll, t = self._sub(a[0], scope)
                self._element(t, a[0].span)
                return {"op": e.op, "of": self._as_collection(coll, t)}, BOOL
            case "every_empty":  # every hand is empty
                coll, t = self._sub(a[0], scope)
                if t.kind not in ("zones", "zone", "piles"):
                    raise RulesTypeError(f"`every ... is empty` goes over zones, not {t}", a[0].span)
                return {"op": "all_empty", "of": coll}, BOOL
            case "most":  # strictly most count trump in won of player
                if "player" not in scope:
                    raise RulesTypeError("`most` compares players, but no player is in question here", e.span)
                inner = self.expr(a[1], {**scope, "player": PLAYER}, NUMBER)
                return {"op": "most", "strict": a[0], "of": inner}, BOOL
            case "compare":  # sum of value in target > limit
                left, t1 = self._sub(a[0], scope)
                right, t2 = self._sub(a[2], scope)
                if a[1] in ("<", ">", "<=", ">="):
                    for t, x in ((t1, a[0]), (t2, a[2])):
                        if t.kind not in ("number", "none", "card", "any"):
                            raise RulesTypeError(f"`{a[1]}` compares numbers, not {t}", x.span)
                else:
                    self._join(t1, t2, e.span)
                return {"op": "cmp", "cmp": a[1], "left": left, "right": right}, BOOL
            case "is":  # card is trump, color of target is none
                return self._is(e, scope)
            case "and" | "or":
                return {"op": e.op, "args": [self.expr(x, scope, BOOL) for x in a]}, BOOL
            case "else":  # color of first gem in it else none
                parts = [self._sub(x, scope) for x in a]
                t = parts[0][1]
                for _, t2 in parts[1:]:
                    t = self._join(t, t2, e.span)
                return {"op": "else", "args": [n for n, _ in parts]}, t
            case "arith":  # 2 * players
                left = self.expr(a[0], scope, NUMBER)
                right = self.expr(a[2], scope, NUMBER)
                return {"op": "arith", "sym": a[1], "left": left, "right": right}, NUMBER
        raise AssertionError(e.op)

    def _join(self, t1: T, t2: T, span: Span) -> T:
        if t1.kind == "none" or t1.kind == "any":
            return t2
        if t2.kind in ("none", "any") or t1 == t2 or t1.kind == t2.kind:
            return t1
        raise RulesTypeError(f"these values cannot be compared or combined: {t1} and {t2}", span)

    def _name(self, e: Expr, name: str, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        if name in scope:
            return {"op": "bound", "name": name}, scope[name]
        if name in BUILTINS:
            return {"op": "builtin", "name": name}, BUILTINS[name]
        if name in self.p.schedules:
            return {"op": "schedule", "name": name}, NUMBER
        if name in self.params:
            return {"op": "param", "name": name}, self.params[name]
        if name in self.p.vars:
            var = self.p.vars[name]
            if var.per_player:
                raise RulesTypeError(f"'{name}' is kept per player: say whose, `{name} of player`", e.span)
            return {"op": "var", "name": name, "of": None}, self._var_type(var)
        if name in self.defines:
            of_zone, _ = self.defines[name]
            if of_zone is not None:
                raise RulesTypeError(f"'{name}' is defined of a {of_zone}: say which, `{name} of ...`", e.span)
            return {"op": "call", "name": name, "arg": None}, self._define_type(name)
        if name in self.zones:
            z = self.zones[name]
            if z["owner"] == "shared" and z["count"] == 1:
                return {"op": "zone", "name": name, "of": None}, T("zone", name)
            return {"op": "zones", "name": name}, T("zones", name)
        if name in self.p.decks:
            return {"op": "zone", "name": name, "of": None}, T("zone", name)
        for attr in self.attrs.values():
            if attr["kind"] == "text" and name in attr["values"]:
                return {"op": "text", "value": name}, TEXT
        if name in self.types:
            raise RulesTypeError(
                f"'{name}' is a card type, not a value",
                e.span,
                f"to test a card, write `card is {name}`; to pick such cards, `{name} in ZONE`",
            )
        if name in self.attrs:
            raise RulesTypeError(f"'{name}' is an attribute: say of what, `{name} of card`", e.span)
        raise UnknownNameError(f"unknown name '{name}'", e.span, self._suggest(name, self._known_names(scope)))

    def _var_type(self, var: Any) -> T:
        return T("number")  # variables are typed by their initial value; numbers are the common case

    def _attr(self, name: str, span: Span) -> dict[str, Any]:
        if name not in self.attrs:
            raise UnknownNameError(f"no card has an attribute '{name}'", span, self._suggest(name, list(self.attrs)))
        return self.attrs[name]

    def _of(self, e: Expr, name: str, arg_e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        arg, t = self._sub(arg_e, scope)
        k = t.kind
        if name in self.defines and self.defines[name][0] is not None and k == "zone":
            of_zone = self.defines[name][0]
            if t.zone != of_zone:
                raise RulesTypeError(f"'{name}' is defined of a {of_zone}, not of {t}", arg_e.span)
            return {"op": "call", "name": name, "arg": arg}, self._define_type(name)
        if name in self.attrs and k in ("card", "none"):
            kind = self.attrs[name]["kind"]
            return {"op": "attr", "name": name, "of": arg}, NUMBER if kind == "number" else TEXT
        if name in self.zones and self.zones[name]["owner"] == "player" and k == "player":
            return {"op": "zone", "name": name, "of": arg}, T("zone", name)
        if name in self.p.vars and self.p.vars[name].per_player and k == "player":
            return {"op": "var", "name": name, "of": arg}, self._var_type(self.p.vars[name])
        if name in PER_PLAYER_BUILTINS and k == "player":
            return {"op": name, "of": arg}, PER_PLAYER_BUILTINS[name]
        if name == "player" and k in ("card", "none"):
            return {"op": "player_of", "of": arg}, PLAYER
        if name == "owner" and k == "zone":
            return {"op": "owner_of", "of": arg}, PLAYER
        # explain what went wrong
        if name in self.attrs:
            raise RulesTypeError(f"'{name}' is an attribute of a card, not of {t}", arg_e.span)
        if name in self.zones:
            if self.zones[name]["owner"] != "player":
                raise RulesTypeError(
                    f"'{name}' is a shared zone: it belongs to no player", e.span, f"write just `{name}`"
                )
            raise RulesTypeError(f"'{name}' is a zone of a player, not of {t}", arg_e.span)
        if name in self.defines:
            raise RulesTypeError(f"'{name}' is not defined of {t}", arg_e.span)
        if name in self.p.vars:
            raise RulesTypeError(f"'{name}' is not kept per player", e.span)
        known = [
            *self.attrs,
            *self.zones,
            *self.defines,
            *self.p.vars,
            *PER_PLAYER_BUILTINS,
            "player",
            "owner",
        ]
        raise UnknownNameError(f"unknown name '{name}'", e.span, self._suggest(name, known))

    def _element(self, t: T, span: Span) -> T:
        """The type of one element of a collection."""
        match t.kind:
            case "cards" | "zone" | "pile":
                return CARD
            case "zones":
                return T("zone", t.zone)
            case "piles":
                return PILE
        raise RulesTypeError(f"expected cards, piles or zones, got {t}", span)

    def _as_collection(self, node: dict[str, Any], t: T) -> dict[str, Any]:
        """Zones and piles used as collections of cards become card lists."""
        if t.kind in ("zone", "pile"):
            return self._cards_of(node, t)
        return node

    def _cards_of(self, node: dict[str, Any], t: T) -> dict[str, Any]:
        return {
            "op": "cards",
            "from": node,
            "source": t.kind,
            "type": None,
            "piles": self._has_piles(t),
            "at": node["at"],
        }

    def _has_piles(self, t: T) -> bool:
        return t.kind in ("zone", "zones") and bool(self.zones.get(t.zone or "", {}).get("piles"))

    def _as_cards(self, node: dict[str, Any], t: T, span: Span) -> dict[str, Any]:
        if t.kind == "cards":
            return node
        if t.kind in ("zone", "zones", "pile"):
            return self._cards_of(node, t)
        raise RulesTypeError(f"expected cards or a zone, got {t}", span)

    def _select(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        what, src_e, where, except_ = e.args
        src, t = self._sub(src_e, scope)
        if what in ("pile", "piles"):
            if not (t.kind in ("zone", "zones") and self._has_piles(t)):
                raise RulesTypeError(f"piles are kept in zones declared with `piles`, not in {t}", src_e.span)
            node, elem, result = {"op": "piles", "from": src, "source": t.kind}, PILE, PILES
        else:
            if t.kind not in ("zone", "zones", "pile", "cards"):
                raise RulesTypeError(f"expected a zone or cards after `in`, got {t}", src_e.span)
            if what not in ("card", "cards") and what not in self.types:
                raise UnknownNameError(f"no card type '{what}'", e.span, self._suggest(what, [*self.types, "card"]))
            typ = None if what in ("card", "cards") else what
            if t.kind == "cards":
                node = {"op": "of_type", "of": src, "type": typ}
            else:
                node = {
                    "op": "cards",
                    "from": src,
                    "source": t.kind,
                    "type": typ,
                    "piles": self._has_piles(t),
                }
            elem, result = CARD, CARDS
        return self._where_except(node, elem, result, where, except_, scope)

    def _where_except(self, node, elem, result, where, except_, scope):
        if where is not None:
            node["at"] = _at(where.span)
            node = {"op": "filter", "of": node, "where": self.expr(where, {**scope, "it": elem}, BOOL)}
        if except_ is not None:
            node["at"] = _at(except_.span)
            node = {"op": "except", "of": node, "value": self.expr(except_, scope, elem)}
        return node, result

    def _filter(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        src_e, where, except_ = e.args
        src, t = self._sub(src_e, scope)
        elem = self._element(t, src_e.span)
        src = self._as_collection(src, t)
        result = {"card": CARDS, "pile": PILES}.get(elem.kind, T("zones", elem.zone))
        return self._where_except(src, elem, result, where, except_, scope)

    def _is(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        subject_e, negated, what = e.args
        subject, t = self._sub(subject_e, scope)
        if what == "none":
            node = {"op": "is_none", "of": subject}
        elif what == "empty":
            if t.kind not in ("zone", "pile", "cards", "zones", "piles"):
                raise RulesTypeError(f"only zones and collections can be empty, not {t}", subject_e.span)
            node = {"op": "is_empty", "of": self._as_collection(subject, t)}
        elif what == "achieved":
            if t.kind not in ("card", "none"):
                raise RulesTypeError(f"only a card is achieved, not {t}", subject_e.span)
            node = {"op": "achieved", "of": subject}
        elif t.kind in ("card", "none") and what in self.types:
            node = {"op": "is_type", "of": subject, "type": what}
        elif t.kind == "card":
            raise UnknownNameError(f"no card type '{what}'", e.span, self._suggest(what, list(self.types)))
        else:
            value, t2 = self._name(Expr("name", (what,), e.span), what, scope)
            value["at"] = _at(e.span)
            self._join(t, t2, e.span)
            node = {"op": "cmp", "cmp": "=", "left": subject, "right": value}
        if negated:
            node["at"] = _at(e.span)
            node = {"op": "not", "of": node}
        return node, BOOL


def resolve(program: Program, errors: list[RulesetError] | None = None) -> dict[str, Any]:
    """The IR of a program (see module docstring). Given a list ``errors``, resolution goes on
    past an error in one declaration or rule (recorded there, the rule left out of the IR)."""
    return Resolver(program, errors).resolve()
