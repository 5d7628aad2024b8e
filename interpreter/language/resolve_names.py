"""Resolving names (`card`, `limit`, `hand`, `red`) and `NAME of VALUE` (`color of card`,
`hand of player`): what a word means where it is written, or an error that says what it is.
A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import RulesTypeError, Span, UnknownNameError
from .ast_nodes import Expr
from .resolve_types import BUILTINS, NUMBER, PER_PLAYER_BUILTINS, PLAYER, SET_NAME, TEXT, UNSHARED, T


class NamesResolver:
    """Names and `NAME of VALUE`: what a name means where it is written."""

    def _name(self, e: Expr, name: str, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        if name in scope:
            return {"op": "bound", "name": name}, scope[name]
        if name == "card" and SET_NAME in scope:
            chosen = scope[SET_NAME].zone
            raise RulesTypeError(
                f"a set move chooses several cards: there is no one `card` here, `{chosen}` is the set",
                e.span,
                f"read the set by its name: `count {chosen}`, `max of rank in {chosen}`, `some {chosen} where ...`",
            )
        if name in BUILTINS:
            return {"op": "builtin", "name": name}, BUILTINS[name]
        if name in self.p.schedules:
            return {"op": "schedule", "name": name}, NUMBER
        if name in self.params:
            return {"op": "param", "name": name}, self.params[name]
        if name in self.p.vars:
            var = self.p.vars[name]
            if var.per_team:
                raise RulesTypeError(f"'{name}' is kept per team: say whose, `{name} of team of player`", e.span)
            if var.per_player:
                raise RulesTypeError(f"'{name}' is kept per player: say whose, `{name} of player`", e.span)
            return {"op": "var", "name": name, "of": None}, self._var_type(var)
        if name in self.defines:
            of_zone, _ = self.defines[name]
            if of_zone is not None:
                raise RulesTypeError(f"'{name}' is defined of a {of_zone}: say which, `{name} of ...`", e.span)
            params = self.p.defines[name].params
            if params:
                raise RulesTypeError(
                    f"'{name}' takes arguments: `{name}({', '.join(params)})`",
                    e.span,
                    f"give a value for each parameter, e.g. `{name}({', '.join(params)})` with values in their place",
                )
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
        if name in self.option_words:  # one of the options a choice lists
            return {"op": "text", "value": name}, TEXT
        unshared = scope.get(UNSHARED + name)
        if unshared is not None:
            raise UnknownNameError(
                f"'{name}' has a value after {unshared.zone} only: a trigger after several moves reads "
                "what every one of them binds",
                e.span,
                f"give what reads '{name}' a trigger of its own, `after {unshared.zone.split(', ')[0]}`",
            )
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
        if var.declared:  # var taker player = none; var led card = none
            # (a card held, declared or set untyped, is told to a seat only where it sees the card:
            # engine/observe.vars_view; a public variable never tells a hidden card)
            t = self._declared_type(var.declared, var.span)
            if t.kind == "team":
                self._need_teams(var)
            return t
        if var.init.op == "none":  # starts as none: whatever `set` gives it (a suit, a player...)
            return T("any")
        return T("number")  # variables are typed by their initial value; numbers are the common case

    def _untyped_read(self, name: str, var: str, span: Span) -> None:
        """`rank of last` with `var last = none`: a variable without a type holds whatever `set` gives
        it, so it is read as nothing in particular; the error says to declare what it holds."""
        wants = "a card" if name in self.attrs or name == "player" else "a player"
        word = "card" if wants == "a card" else "player"
        raise RulesTypeError(
            f"'{var}' has no declared type, so `{name} of {var}` cannot be read: say that it holds {wants}",
            span,
            f"declare it `var {var} {word} = none` (a typed variable holds {wants} or none, and is read as one)",
        )

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
        if name in self.p.vars and self.p.vars[name].per_team and k in ("team", "player"):
            if k == "player":
                raise RulesTypeError(
                    f"'{name}' is kept per team: say which team, `{name} of team of {arg_e}`", arg_e.span
                )
            return {"op": "team_var", "name": name, "of": arg}, self._var_type(self.p.vars[name])
        if name in PER_PLAYER_BUILTINS and k == "player":
            return {"op": name, "of": arg}, PER_PLAYER_BUILTINS[name]
        if name == "player" and k in ("card", "none"):
            return {"op": "player_of", "of": arg}, PLAYER
        if name == "owner" and k == "zone":
            return {"op": "owner_of", "of": arg}, PLAYER
        value = self._of_value(name, arg, t, e.span)  # seat, left, right, team, partner of a player; of a team
        if value is not None:
            return value
        # explain what went wrong
        if k == "any" and arg.get("op") == "var":  # an untyped variable that starts as none
            self._untyped_read(name, arg["name"], arg_e.span)
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
            if self.p.vars[name].per_team:
                raise RulesTypeError(f"'{name}' is kept per team: say which, `{name} of team of P`", arg_e.span)
            raise RulesTypeError(f"'{name}' is not kept per player", e.span)
        self._of_misuse(name, t, arg_e)
        known = [
            *self.attrs,
            *self.zones,
            *self.defines,
            *self.p.vars,
            *PER_PLAYER_BUILTINS,
            "player",
            "owner",
            "seat",
            "left",
            "right",
            "next",
        ]
        raise UnknownNameError(f"unknown name '{name}'", e.span, self._suggest(name, known))

    def _known_names(self, scope: dict[str, T]) -> list[str]:
        names = [n for n in scope if not n.startswith("$")]  # (SET_NAME, UNSHARED: not names one writes)
        names += [*BUILTINS, *self.params, *self.p.schedules, *self.p.vars, *self.defines, *self.zones]
        for a in self.attrs.values():
            if a["kind"] == "text":
                names += a["values"]
        return names
