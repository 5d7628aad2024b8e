"""Resolving the named values a ruleset declares: parameters, schedules, variables and
definitions (`define NAME = ...`, typed in two passes so one may use another written after it).
A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesTypeError, Span, UnknownNameError
from .resolve_types import BOOL, CARD, NUMBER, PLAYER, TEXT, T

# The words a declared type may be (`var taker player = none`, `define fits(c card, hue color)`),
# besides an attribute of the cards (a value of it) and, for a parameter, a zone's name.
TYPE_WORDS = {"number": NUMBER, "player": PLAYER, "team": T("team"), "card": CARD, "text": TEXT, "truth": BOOL}
TYPE_HINT = (
    "a type is number, player, team, card, text, truth, or an attribute of the cards (`suit`: one of its values)"
)


class DeclarationsResolver:
    """Parameters, schedules, variables and definitions (the named values of a ruleset)."""

    def _param(self, param: Any) -> dict[str, Any]:
        value = self.expr(param.default, {}, None)
        t = self._last_type
        if t.kind not in ("number", "text", "bool"):
            raise RulesTypeError(
                f"parameter {param.name} must be a number, a text or a truth value, not {t}",
                param.default.span,
            )
        self.params[param.name] = t
        self.param_defaults[param.name] = value
        return self._noted({"name": param.name, "type": t.kind, "default": value}, param.span)

    def deck_param(self, name: str, span: Span | None) -> int:
        """The value of a parameter the deck reads (a range's end, a copy count): its default,
        which must be a whole number (`--set` gives it another before the deck is laid out)."""
        if name not in self.params:
            raise UnknownNameError(
                f"no parameter '{name}' for the deck to read",
                span,
                self._suggest(name, list(self.params)) or f"declare it before the cards: `param {name} = 10`",
            )
        default = self.param_defaults[name]
        if default.get("op") != "num" or not isinstance(default.get("value"), int) or default["value"] < 0:
            raise DeclarationError(
                f"the deck reads parameter '{name}', whose value is not a whole number",
                span,
                f"give it a number: `param {name} = 10` (`--set {name}=N` changes it)",
            )
        return default["value"]

    def _schedule(self, s: Any) -> dict[str, Any]:
        values = [self.expr(v, {}, NUMBER) for v in s.values]
        return self._noted({"name": s.name, "values": values, "repeated": s.repeated}, s.span)

    def _var(self, v: Any) -> dict[str, Any]:
        declared = self._var_type(v) if v.declared else None
        if v.per_team:
            self._need_teams(v)
        init = self.expr(v.init, {}, declared)
        t = self._last_type
        if t.kind not in ("number", "text", "bool", "none", "player") and not (declared and t.kind == "team"):
            raise RulesTypeError(f"a variable holds a number, a text, a truth value or a player, not {t}", v.init.span)
        node = {
            "name": v.name,
            "per_player": v.per_player or v.per_team,  # a team's value is kept on each of its members
            "per_round": v.per_round,
            "type": declared.kind if declared else t.kind,
            "init": init,
            **self._var_visibility(v),
        }
        if v.per_team:
            node["per_team"] = True
        if v.declared:
            node["holds"] = v.declared
        return self._noted(node, v.span)

    def _type_by_sets(self, variables: list[dict[str, Any]]) -> None:
        """An untyped variable that starts as none (`var last = none`) takes the type of what the
        rules set it to, when every `set` gives one kind (a player, a zone, a card, a text...): the
        screen then names the seat, the zone or the card it holds, not a number. Its values, and so
        every game, are the same."""
        for node in variables:
            kinds = self.assigned.get(node["name"], set()) - {"none", "any"}
            if node["type"] == "none" and len(kinds) == 1:
                node["type"] = kinds.pop()

    def _declared_type(self, word: str, span: Any, zones: bool = False) -> T:
        """The type a declaration names: a type word, an attribute of the cards (one of its values),
        or (a parameter's) a zone."""
        if word in TYPE_WORDS:
            return TYPE_WORDS[word]
        if word in self.attrs:
            return NUMBER if self.attrs[word]["kind"] == "number" else TEXT
        if zones and word in self.zones:
            return T("zone", word)
        raise UnknownNameError(f"'{word}' is not a type", span, TYPE_HINT)

    def _var_visibility(self, v: Any) -> dict[str, str]:
        """A counter's visibility (only when not public, so that public counters' IR is unchanged)."""
        if v.visibility == "public":
            return {}
        if v.per_team and v.visibility == "owner":
            raise DeclarationError(f"'{v.name}' is kept per team: it has no owner to see it", v.span, "use hidden")
        if not v.per_player and v.visibility == "owner":
            raise DeclarationError(
                f"'{v.name}' is not kept per player: it has no owner to see it", v.span, "use hidden"
            )
        return {"visibility": v.visibility}

    def _declare_defines(self) -> None:
        # Two passes so that a definition may use one written after it (no recursion: see _define).
        for d in self.p.defines.values():
            if d.of_zone is not None and d.of_zone != "card" and d.of_zone not in self.zones:
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
        scope = self._define_scope(d)
        try:
            self.expr(d.body, scope, None)
        finally:
            self._defining.pop()
        self.defines[name] = (of_zone, self._last_type)
        return self._last_type

    def _define(self, d: Any) -> dict[str, Any]:
        scope = self._define_scope(d)
        body = self.expr(d.body, scope, None)
        node = {"name": d.name, "of": d.of_zone, "type": self._last_type.kind, "body": body}
        if d.params:
            node["params"] = [{"name": p, "type": scope[p].kind, "zone": scope[p].zone} for p in d.params]
        return self._noted(node, d.span)
