"""Resolving loops in effects: `for each player [from P] [where C] [until C]`, `for each team`,
`for each card in CARDS [where C] [by [lowest|highest] KEY] [until C]` and `repeat until C`.
A mixin of Resolver (resolve.py).

Every loop is bounded: a `for each` by its players, teams or cards (taken once, before its first
turn), a `repeat` by ``limits.MAX_PASSES`` at play (engine/loops.py). A `repeat until C` whose effects
change nothing that C reads can never end: it is an error here, at its line (``_cannot_end``).
"""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesTypeError
from .resolve_types import BOOL, CARD, NUMBER, PLAYER, T
from .resolve_values import TEAM

ANY_ZONE = "zone:*"  # what reads or changes some zone, which one not known here
# expressions that read where cards are, though they name no zone
_READS_ZONES = {"player_of", "owner_of", "achieved", "zones", "team_zones", "all_empty"}


class LoopsResolver:
    """`for each` and `repeat until` effects."""

    def _each_effect(self, eff: Any, scope: dict[str, T]) -> dict[str, Any]:
        """for each player [from P] [where C] [until C], for each team ..., for each card in CARDS
        [where C] [by KEY] [until C]: the effects once for each, the name bound to each in turn."""
        over, where_e, effects, source_e, start_e, by, until_e = eff.args
        if over not in ("player", "team", "card"):
            raise RulesTypeError(
                f"`for each` goes over `player`, `team` or `card`, not '{over}'",
                eff.span,
                "`for each player` repeats the effects below it for every player, `player` being each one",
            )
        if over == "team":
            self._need_teams(eff)
        if over == "card" and source_e is None:
            raise DeclarationError(
                "`for each card` needs the cards it goes over", eff.span, "write `for each card in ZONE`"
            )
        if over != "card" and (source_e is not None or by is not None):
            word = "in" if source_e is not None else "by"
            raise DeclarationError(
                f"`for each {over}` goes over every {over}: `{word}` is for `for each card in ZONE`",
                (source_e if source_e is not None else by[1]).span,
                "pick some with `where`; `for each player from P` starts at P",
            )
        if start_e is not None and over != "player":
            raise DeclarationError(
                "`from` names the seat `for each player` starts at", start_e.span, "write `for each player from P`"
            )
        node: dict[str, Any] = {"do": "each", "over": over}
        if source_e is not None:
            what = self.expr(source_e, scope, None)
            if self._last_type.kind not in ("card", "cards", "zone"):
                raise RulesTypeError(
                    f"`for each card in` takes cards or a zone, not {self._last_type}",
                    source_e.span,
                    "a zone of piles is not gone over card by card",
                )
            node["in"] = self._zone_as_cards(what, self._last_type)
        if start_e is not None:
            node["from"] = self.expr(start_e, scope, PLAYER)
        inner = {**scope, over: {"player": PLAYER, "team": TEAM, "card": CARD}[over]}
        node["where"] = None if where_e is None else self.expr(where_e, inner, BOOL)
        if by is not None:
            key = by[1]
            if key.op == "name" and key.args[0] in self.attrs and key.args[0] not in inner:  # by rank
                key = type(key)("of", (key.args[0], type(key)("name", ("card",), key.span)), key.span)
            node["by"] = {"order": by[0], "key": self.expr(key, inner, NUMBER)}
        if until_e is not None:
            node["until"] = self.expr(until_e, scope, BOOL)
        node["effects"] = self.effects(effects, dict(inner))
        return node

    def _repeat_effect(self, eff: Any, scope: dict[str, T]) -> dict[str, Any]:
        """repeat until C: the effects again while C does not hold (C is read before each pass)."""
        until_e, effects = eff.args
        until = self.expr(until_e, scope, BOOL)
        body = self.effects(effects, dict(scope))
        node = {"do": "repeat", "until": until, "effects": body}
        self._cannot_end(node, until_e.span)
        return node

    # ---- a loop that cannot end ----

    def _cannot_end(self, node: dict[str, Any], span: Any) -> None:
        """A `repeat until C` whose effects change nothing C reads would run until its bound at
        every play: an error at its condition, naming what C reads and what the effects change."""
        reads, writes = self._reads(node["until"]), set()
        for eff in node["effects"]:
            writes |= _writes(eff)
        if ANY_ZONE in writes and any(r.startswith("zone:") for r in reads):
            return
        if ANY_ZONE in reads and any(w.startswith("zone:") for w in writes):
            return
        if reads & writes:
            return

        def words(xs: set[str]) -> str:
            return ", ".join(sorted(x.split(":", 1)[1].replace("*", "some zone") for x in xs)) or "nothing"

        raise DeclarationError(
            f"this `repeat until` can never end: its effects change nothing the condition reads "
            f"(it reads {words(reads)}; the effects change {words(writes)})",
            span,
            "let the effects change what the condition reads (draw from the pile it counts, add to its counter)",
        )

    def _reads(self, x: Any, seen: frozenset[str] = frozenset()) -> set[str]:
        """What an expression's value depends on that effects change: counters (`var:NAME`) and
        zones (`zone:NAME`, or ``ANY_ZONE``), through the definitions it calls."""
        out: set[str] = set()
        if isinstance(x, list):
            for y in x:
                out |= self._reads(y, seen)
            return out
        if not isinstance(x, dict):
            return out
        op = x.get("op")
        if op == "var":
            out.add(f"var:{x['name']}")
        elif op == "zone":
            out.add(f"zone:{x['name']}")
        elif op == "eliminated":
            out.add("var:(who is eliminated)")
        elif op in _READS_ZONES:
            out.add(ANY_ZONE)
        elif op == "call" and x["name"] not in seen and x["name"] in self.p.defines:
            d = self.p.defines[x["name"]]
            body = self.expr(d.body, self._define_scope(d), None)
            out |= self._reads(body, seen | {x["name"]})
        for v in x.values():
            if isinstance(v, (dict, list)):
                out |= self._reads(v, seen)
        return out


def _writes(eff: dict[str, Any]) -> set[str]:
    """What an effect (and the effects in its blocks) may change: counters and zones."""
    out: set[str] = set()
    match eff["do"]:
        case "set" | "add" | "make":
            out.add(f"var:{eff['var']}")
        case "pay":
            out |= {f"var:{eff['payer']['var']}", f"var:{eff['payee']['var']}"}
        case "eliminate":
            out.add("var:(who is eliminated)")
        case "draw":
            out |= _zones_named(eff["from"]) | _zones_named(eff["to"])
        case "move":
            out |= {ANY_ZONE} | _zones_named(eff["to"])
        case "shuffle":
            out |= _zones_named(eff["zone"])
        case "swap":
            out |= _zones_named(eff["what"]) | _zones_named(eff["with"])
    for key in ("then", "else", "effects"):
        for inner in eff.get(key) or []:
            out |= _writes(inner)
    return out


def _zones_named(x: dict[str, Any]) -> set[str]:
    """The zone an effect's zone operand names (``ANY_ZONE`` when it is held in a name)."""
    return {f"zone:{x['name']}"} if x.get("op") == "zone" else {ANY_ZONE}
