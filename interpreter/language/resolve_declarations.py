"""Resolving the named values a ruleset declares: parameters, schedules, variables and
definitions (`define NAME = ...`, typed in two passes so one may use another written after it).
A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesTypeError, UnknownNameError
from .resolve_types import NUMBER, T


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
        return self._noted({"name": param.name, "type": t.kind, "default": value}, param.span)

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
                **self._var_visibility(v),
            },
            v.span,
        )

    def _var_visibility(self, v: Any) -> dict[str, str]:
        """A counter's visibility (only when not public, so that public counters' IR is unchanged)."""
        if v.visibility == "public":
            return {}
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
