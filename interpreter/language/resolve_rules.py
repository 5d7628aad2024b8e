"""Resolving the round's rules: phases (who starts, when a phase ends), moves and their guards,
triggers and the effects they run (`move`, `draw`, `let`, `set`, `add`, `next`, `if`).
A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesTypeError, UnknownNameError
from .ast_nodes import Effect, Guard
from .resolve_types import BOOL, CARD, CARDS, NUMBER, PLAYER, SET_NAME, TEXT, T
from .variants import PhaseParts


class RulesResolver:
    """Phases, their moves and guards, triggers and the effects they run."""

    def _phase(self, ph: PhaseParts) -> dict[str, Any]:
        node: dict[str, Any] = {"name": ph.name, "simultaneous": ph.simultaneous}
        if ph.revealed:  # (only then: the IR of other phases stays as it was)
            node["revealed"] = True
        if ph.first_player is not None:
            first: dict[str, Any] = {"keys": self._order_keys(ph.first_player.keys, {"player": PLAYER})}
            if ph.first_player.seat is not None:  # first player is left of dealer
                first["seat"] = self.expr(ph.first_player.seat, {}, PLAYER)
            node["first_player"] = self._noted(first, ph.first_player.span)
        if not ph.moves:  # a phase of effects only (resolve_flow.py)
            self._effects_only(ph)
        node["moves"] = self._each(ph.moves.values(), self._move)
        moves = {m.name: m for m in ph.moves.values()}
        node["triggers"] = self._each(ph.triggers, lambda t: self._trigger(t, moves))
        if ph.ends is not None:
            node["ends"] = self._noted({"when": self.expr(ph.ends.condition, {}, BOOL)}, ph.ends.span)
        elif ph.moves and not ph.simultaneous and ph.stuck_ends is None:
            raise DeclarationError(
                f"phase '{ph.name}' never ends", ph.span, "add `ends when CONDITION` or `ends when nobody can move`"
            )
        node.update(self._phase_flow(ph))
        return self._noted(node, ph.span)

    def _move_scope(self, m: Any) -> dict[str, T]:
        return {"player": PLAYER, "card": CARD, "target": T("zone", m.to_zone)}

    def _move(self, m: Any) -> dict[str, Any]:
        if m.choice is not None:  # a choice that is not a card: the move's name is the value chosen
            choice, scope = self._choice(m.name, m.choice, {"player": PLAYER}, m.span)
            guards = self._each(m.guards, lambda g: self._guard(g, scope))
            return self._noted({"name": m.name, "choice": choice, "guards": guards}, m.span)
        self._zone_named(m.from_zone, m.span)
        self._zone_named(m.to_zone, m.span)
        scope = self._move_scope(m)
        guards = self._each(m.guards, lambda g: self._guard(g, scope))
        node = {"name": m.name, "from": m.from_zone, "to": m.to_zone, "guards": guards}
        if m.at_place:  # (only then: other moves' IR is unchanged)
            node["at_place"] = True
        return self._noted(node, m.span)

    def _choice(self, name: str, c: Any, scope: dict[str, T], span: Any) -> tuple[dict[str, Any], dict[str, T]]:
        """A choice's IR and the scope its guards and effects read: ``name`` bound to the value
        chosen (a pass chooses nothing and binds nothing)."""
        node: dict[str, Any] = {"kind": c.kind}
        bound = dict(scope)
        if c.kind == "number":
            node["low"] = self.expr(c.low, scope, NUMBER)
            node["high"] = self.expr(c.high, scope, NUMBER)
            bound[name] = NUMBER
        elif c.kind == "value":
            attr = self._attr(c.attr, span)
            node["attr"] = c.attr
            bound[name] = TEXT if attr["kind"] == "text" else NUMBER
        elif c.kind == "player":
            bound[name] = PLAYER
        elif c.kind == "draw":
            for zone in c.options:
                if zone not in self.p.decks:
                    self._zone_named(zone, span)
            target = self._zone_named(m_to := c.attr, span)
            if target["owner"] != "player" and target["count"] != 1:
                raise DeclarationError(
                    f"a draw goes to one zone: '{m_to}' has {target['count']}", span, "draw to a per-player zone"
                )
            node["piles"], node["to"] = list(c.options), m_to
            if c.low is not None:
                node["count"] = self.expr(c.low, scope, NUMBER)
            bound[name] = T("zone", c.options[0] if len(set(c.options)) == 1 else None)
        elif c.kind == "cards":
            node, bound[name], bound["target"] = self._card_set(c, scope, span)
            bound[SET_NAME] = T("cards", name)  # (for the error on `card`, which a set has not)
        elif c.kind == "set":  # an ask's: several cards of a zone its player sees
            node = {"kind": "set", "zone": self._seen_zone(c.zone, scope), **self._set_size(c, scope, span)}
            bound[name] = CARDS  # (`card` is still the card of the move the ask follows, if any)
        elif c.kind == "card":  # an ask's: a card of a zone its player sees
            node["zone"] = self._seen_zone(c.low, scope)
            bound[name] = CARD
        elif c.kind == "zone":  # one instance of a zone (one of the rows)
            self._zone_named(c.attr, span)
            node["from"] = c.attr
            bound[name] = T("zone", c.attr)
        elif c.kind == "option":
            if len(set(c.options)) < len(c.options):
                raise DeclarationError("a choice lists the same option twice", span)
            node["options"] = list(c.options)
            bound[name] = TEXT
        if name in ("player", "card") and c.kind != "pass":  # (other names it shadows: the choice's block reads it)
            raise DeclarationError(f"'{name}' is already bound here", span, "give the choice another name")
        return node, bound

    def _seen_zone(self, expr: Any, scope: dict[str, T]) -> dict[str, Any]:
        """An ask's zone instance (of a card or a set): one its player may see, never a hidden zone."""
        node = self.expr(expr, scope, None)
        self._expect(T("zone"), expr.span)
        named = self._last_type.zone or ""
        zone = self.zones.get(named)
        if (zone is not None and zone["visibility"] == "hidden") or (zone is None and named in self.p.decks):
            what = f"zone '{named}'" if zone is not None else f"deck '{named}' (its cards not dealt)"
            raise DeclarationError(
                f"nobody sees the cards of {what}: an ask chooses among cards its player sees",
                expr.span,
                "choose from a zone the player sees (`owner sees`, `public`); to give a card unseen, "
                "`draw 1 from ZONE to ZONE`",
            )
        return node

    def _card_set(self, c: Any, scope: dict[str, T], span: Any) -> tuple[dict[str, Any], T, T]:
        """`N cards` or `N..M cards` [`of one ATTR`] `from Z to Z`: the set choice's IR, and the types
        its name (the cards chosen) and `target` (the zone instance they go to) are given."""
        src, dst = c.options
        if self._zone_named(src, span)["piles"]:
            raise DeclarationError(
                f"several cards are chosen from a zone of cards, not of piles ('{src}')",
                span,
                "choose from a zone declared without `piles`",
            )
        self._zone_named(dst, span)
        return {"kind": "cards", "from": src, "to": dst, **self._set_size(c, scope, span)}, CARDS, T("zone", dst)

    def _set_size(self, c: Any, scope: dict[str, T], span: Any) -> dict[str, Any]:
        """A set's size (`N` or `N..M` cards) and `of one ATTR`, as IR: low, high and same."""
        node: dict[str, Any] = {"low": self.expr(c.low, scope, NUMBER)}
        if c.high is not None:
            node["high"] = self.expr(c.high, scope, NUMBER)
        low, high = node["low"], node.get("high", node["low"])
        for end, e in ((low, c.low), (high, c.high or c.low)):
            if end.get("op") == "num" and end["value"] < 1:
                raise DeclarationError(
                    f"a set of cards has at least 1 card, not {end['value']}", e.span, "count from 1: `1..4 cards`"
                )
        if low.get("op") == "num" and high.get("op") == "num" and low["value"] > high["value"]:
            raise DeclarationError(
                f"the range of a set's size is upside down ({low['value']}..{high['value']})",
                c.low.span,
                f"write the smaller number first: `{high['value']}..{low['value']} cards`",
            )
        if c.attr is not None:
            self._attr(c.attr, c.span or span)
            if high.get("op") == "num" and high["value"] == 1:
                raise DeclarationError(
                    f"one card is always of one {c.attr}: `of one {c.attr}` says nothing here",
                    c.span or span,
                    f"remove it, or allow more cards (`1..4 cards of one {c.attr}`)",
                )
            node["same"] = c.attr
        return node

    def _ask(self, a: tuple, scope: dict[str, T], span: Any) -> dict[str, Any]:
        """`ask P to choose NAME KIND` with its guards, then the effects that run once P has chosen."""
        who, name, choice, guards, effects, items = a
        late = [
            g for i, g in enumerate(items) if isinstance(g, Guard) and any(isinstance(x, Effect) for x in items[:i])
        ]
        if late:
            raise DeclarationError(
                "an ask's guards come before its effects", late[0].span, "move the `allow`/`require` lines up"
            )
        node: dict[str, Any] = {"do": "ask", "player": self.expr(who, scope, PLAYER), "name": name}
        node["choice"], inner = self._choice(name, choice, scope, span)
        node["guards"] = self._each(guards, lambda g: self._guard(g, inner))
        node["then"] = self.effects(effects, dict(inner))
        return node

    def _guard(self, g: Any, scope: dict[str, T]) -> dict[str, Any]:
        guard = {"kind": g.kind, "expr": self.expr(g.expr, scope, BOOL)}
        if g.when is not None:
            guard["when"] = self.expr(g.when, scope, BOOL)
        return self._noted(guard, g.span)

    def _trigger(self, t: Any, moves: dict[str, Any]) -> dict[str, Any]:
        after, scope = self._trigger_moves(t, moves)
        node: dict[str, Any] = {"after": after}
        node["if"] = None if t.condition is None else self.expr(t.condition, scope, BOOL)
        node["effects"] = self.effects(t.effects, dict(scope))
        return self._noted(node, t.span)

    def effects(self, effects: tuple[Any, ...], scope: dict[str, T]) -> list[dict[str, Any]]:
        """Effects in order; `let` extends the scope of the effects after it. An `ask` ends its
        block: what follows the choice goes in the ask's own block."""
        out = []
        for i, eff in enumerate(effects):
            if eff.kind == "ask" and i + 1 < len(effects):
                raise DeclarationError(
                    "an effect after an `ask` would run before the player chooses",
                    effects[i + 1].span,
                    "indent it under the `ask`: its block runs once the choice is made",
                )
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
                what = self._zone_as_cards(what, self._last_type)
                to = self.expr(a[1], scope, None)
                self._expect(T("zone"), a[1].span)
                return {"do": "move", "what": what, "to": to, "one_pile": a[2]}
            case "draw":
                count = self.expr(a[0], scope, NUMBER)
                src = self.expr(a[1], scope, None)
                self._expect(T("zone"), a[1].span)
                dst = self.expr(a[2], scope, None)
                self._expect(T("zone"), a[2].span)
                node = {"do": "draw", "count": count, "from": src, "to": dst}
                return {**node, "top": True} if a[3] else node  # draw top N: the last N cards
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
                if var.per_team:  # set points of team of player to ...: each member holds the team's value
                    if whose is None:
                        raise RulesTypeError(
                            f"'{name}' is kept per team: say whose, `{name} of team of player`", eff.span
                        )
                    node["of"] = self.expr(whose, scope, None)
                    got = self._last_type
                    if got.kind not in ("team", "none", "any"):
                        said = f"`{name} of team of {whose}`" if got.kind == "player" else f"`{name} of team of P`"
                        raise RulesTypeError(
                            f"'{name}' is kept per team: say which team, not {got}", whose.span, f"write {said}"
                        )
                    node["team"] = True
                elif var.per_player:
                    if whose is None:
                        raise RulesTypeError(f"'{name}' is kept per player: say whose, `{name} of player`", eff.span)
                    node["of"] = self.expr(whose, scope, PLAYER)
                elif whose is not None:
                    raise RulesTypeError(f"'{name}' is not kept per player", whose.span)
                declared = self._var_type(var) if var.declared else None
                node["value"] = self.expr(value_e, scope, NUMBER if eff.kind == "add" else declared)
                if declared is None and var.init.op == "none":  # its type is what `set` gives it
                    self.assigned.setdefault(name, set()).add(self._last_type.kind)
                return node
            case "ask":
                return self._ask(a, scope, eff.span)
            case "next":
                return {"do": "next", "player": self.expr(a[0], scope, PLAYER)}
            case "pay" | "show" | "reveal" | "shuffle" | "swap" | "eliminate" | "make":
                return self._power(eff, scope)
            case "tell":  # (issue 30) resolve_knowledge.py
                return self._tell(eff, scope)
            case "if":
                cond = self.expr(a[0], scope, BOOL)
                return {
                    "do": "if",
                    "cond": cond,
                    "then": self.effects(a[1], dict(scope)),
                    "else": self.effects(a[2], dict(scope)),
                }
            case "each":  # resolve_loops.py
                return self._each_effect(eff, scope)
            case "reverse":  # turn order reverses
                return {"do": "reverse"}
            case "skip":  # skip next of player: that player loses their next turn
                return {"do": "skip", "player": self.expr(a[0], scope, PLAYER)}
            case "repeat":
                return self._repeat_effect(eff, scope)
            case "do":  # resolve_blocks.py
                return self._do_block(eff, scope)
        raise AssertionError(eff.kind)

    def _counter(self, name: str, whose: Any, scope: dict[str, T], span: Any) -> dict[str, Any]:
        """A counter that is paid from or to: a variable, with its player when kept per player
        (the mover, `player`, when not said)."""
        var = self.p.vars.get(name)
        if var is None:
            raise UnknownNameError(f"no variable '{name}'", span, self._suggest(name, list(self.p.vars)))
        if var.per_team:
            raise RulesTypeError(
                f"'{name}' is kept per team: pay takes a counter of one player or of the game",
                span,
                f"change it with `add N to {name} of team of P`",
            )
        if not var.per_player:
            if whose is not None:
                raise RulesTypeError(f"'{name}' is not kept per player", whose.span)
            return {"var": name, "of": None}
        if whose is None:
            if "player" not in scope:
                raise RulesTypeError(
                    f"'{name}' is kept per player and no player moved here: say whose",
                    span,
                    f"write `{name} of PLAYER`",
                )
            return {"var": name, "of": {"op": "bound", "name": "player"}}
        return {"var": name, "of": self.expr(whose, scope, PLAYER)}

    def _zone_as_cards(self, what: dict[str, Any], t: T) -> dict[str, Any]:
        """What `move` and `show` take, a zone however it is written: `hand of target` is a zone the
        engine reads as one; a zone held in a name (a `let`, a draw's pile, `target`), a definition
        or an `if` is a value like a card's, so its cards are taken here (`cards in NAME`)."""
        if t.kind == "zone" and what.get("op") != "zone":
            return self._cards_of(what, t)
        return what

    def _power(self, eff: Any, scope: dict[str, T]) -> dict[str, Any]:
        """pay, show ... to, reveal ... [to], shuffle, swap ... with, eliminate, make ... [until their next turn]"""
        a = eff.args
        match eff.kind:
            case "pay":  # pay 1 chips to pot, pay all pot to chips of winner
                amount = None if a[0] is None else self.expr(a[0], scope, NUMBER)
                return {
                    "do": "pay",
                    "amount": amount,
                    "payer": self._counter(a[1], a[2], scope, eff.span),
                    "payee": self._counter(a[3], a[4], scope, eff.span),
                }
            case "show":  # show hand of target to player
                what = self.expr(a[0], scope, None)
                if self._last_type.kind not in ("card", "cards", "zone"):
                    raise RulesTypeError(f"show takes a card, cards or a zone, not {self._last_type}", a[0].span)
                what = self._zone_as_cards(what, self._last_type)
                return {"do": "show", "what": what, "to": self.expr(a[1], scope, PLAYER)}
            case "reveal":  # reveal hole of dealer; reveal last card in hand of player to target
                what = self.expr(a[0], scope, None)
                if self._last_type.kind not in ("card", "cards", "zone"):
                    raise RulesTypeError(f"reveal takes a card, cards or a zone, not {self._last_type}", a[0].span)
                what = self._zone_as_cards(what, self._last_type)
                to = [self.expr(p, scope, PLAYER) for p in a[1]] or None
                return {"do": "reveal", "what": what, "to": to}
            case "shuffle":  # shuffle stock
                zone = self.expr(a[0], scope, None)
                self._expect(T("zone"), a[0].span)
                if self.zones.get(self._last_type.zone or "", {}).get("piles"):
                    raise RulesTypeError(
                        "shuffle puts the cards of a zone in a random order, not the piles of a zone of piles",
                        a[0].span,
                    )
                return {"do": "shuffle", "zone": zone}
            case "swap":  # swap hand of player with hand of target
                sides = []
                for side in a:
                    sides.append(self.expr(side, scope, None))
                    self._expect(T("zone"), side.span)
                    if self.zones.get(self._last_type.zone or "", {}).get("piles"):
                        raise RulesTypeError("swap exchanges the cards of two zones, not of zones of piles", side.span)
                return {"do": "swap", "what": sides[0], "with": sides[1]}
            case "eliminate":
                return {"do": "eliminate", "player": self.expr(a[0], scope, PLAYER)}
        whose, name, until = a  # make player protected until their next turn
        var = self.p.vars.get(name)
        if var is None or not var.per_player:
            raise UnknownNameError(
                f"no per-player variable '{name}' to make a player {name}",
                eff.span,
                f"declare it: `var {name} per player per round = 0`",
            )
        return {"do": "make", "var": name, "of": self.expr(whose, scope, PLAYER), "until_next_turn": until}
