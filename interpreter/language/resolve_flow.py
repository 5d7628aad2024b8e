"""Resolving the flow of a round and a game: set-up deals to shared zones, effects `at start` and
`at end`, `repeat ... until`, a round's and the game's `ends when`, a phase that ends when nobody
can move, the order a simultaneous phase's moves take effect, one trigger for several moves, and
a phase of effects only (no moves: the rules play it alone).

A mixin of Resolver (resolve.py): each method checks its construct's names and types and says,
at the construct's position, what is wrong and how to write it.
"""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesTypeError, Span, UnknownNameError
from .ast_nodes import AtTime, Ends
from .resolve_types import BOOL, CARD, NUMBER, PLAYER, SET_NAME, UNSHARED, T

NOBODYS = ("player", "card", "target")  # names a move binds, which the rules' own effects have not


class FlowResolver:
    """Set-up deals, effects at start and end, repeats, ends, orders of resolution, trigger moves."""

    def _deal_target(self, d: Any, zone: dict[str, Any]) -> dict[str, Any]:
        """The IR keys a deal adds for its target: `each` (every instance of a shared zone), `face_up`."""
        shared = zone["owner"] != "player"
        if d.each and not shared:
            raise DeclarationError(
                f"'{d.zone}' is kept per player: a deal to it already gives each player theirs",
                d.span,
                f"write `deal N to {d.zone}`",
            )
        if shared and zone["count"] > 1 and not d.each:
            raise DeclarationError(
                f"'{d.zone}' is {zone['count']} zones: say that each gets the cards",
                d.span,
                f"write `to each {d.zone}`",
            )
        if shared and (d.one_at_a_time or d.as_players is not None):
            raise DeclarationError(
                "`one at a time` and `as N players` say how players are dealt to; this deal is to a shared zone",
                d.span,
            )
        if d.face_up and zone["visibility"] != "public":
            raise DeclarationError(
                f"cards turned up go to a public zone; '{d.zone}' is {zone['visibility']}",
                d.span,
                f"declare `{d.zone}  shared, public`, or write `deal` to lay the cards face down",
            )
        return {**({"each": True} if d.each else {}), **({"face_up": True} if d.face_up else {})}

    def _nobodys_effects(self, timed: AtTime, what: str) -> dict[str, Any]:
        """The effects of an `at start` / `at end`: the rules' own, with no player, card or target."""
        for name, span in _names(timed.effects):
            if name in NOBODYS:
                raise UnknownNameError(
                    f"'{name}' is not known here: the effects at the {timed.when} of {what} are nobody's move",
                    span,
                    "name a player by a rule, e.g. `dealer`; `for each player` above the effects for every "
                    "player in turn; or let a trigger `after MOVE` do it",
                )
        return self._noted({"effects": self.effects(timed.effects, {})}, timed.span)

    def _phase_flow(self, ph: Any) -> dict[str, Any]:
        """A phase's own effects, its end when nobody can move, and its order of resolution."""
        node: dict[str, Any] = {}
        for when in ("start", "end"):
            if when in ph.at:
                node[f"at_{when}"] = self._nobodys_effects(ph.at[when], f"phase '{ph.name}'")
        if ph.stuck_ends is not None:
            node["ends_when_nobody_can_move"] = self._noted({}, ph.stuck_ends.span)
        if ph.resolve is not None:
            if not ph.simultaneous:
                raise DeclarationError(
                    f"phase '{ph.name}' is played in turns: each move takes effect as it is made",
                    ph.resolve.span,
                    f"an order of resolution is for a simultaneous phase: `phase {ph.name}, simultaneous`",
                )
            scope = {"player": PLAYER, "card": CARD, "target": T("zone")}
            node["resolve"] = self._noted({"keys": self._order_keys(ph.resolve.keys, scope)}, ph.resolve.span)
        return node

    def _effects_only(self, ph: Any) -> None:
        """A phase without moves is the rules' own: its effects at start (and at end) run, and it
        ends; nobody moves in it, so nothing says who starts it or when it ends."""
        if not ph.at:
            raise DeclarationError(
                f"phase '{ph.name}' has no move",
                ph.span,
                "add `move NAME card from ZONE to ZONE`; or, for a phase the rules play alone, its effects `at start`",
            )
        if ph.simultaneous:
            raise DeclarationError(
                f"phase '{ph.name}' has no move: nobody chooses in it at once",
                ph.span,
                f"write `phase {ph.name}`: a phase of effects only is the rules' own",
            )
        for part in (ph.ends, ph.stuck_ends):
            if part is not None:
                raise DeclarationError(
                    f"phase '{ph.name}' has no move: it ends as soon as its effects have run",
                    part.span,
                    "to run them again until C holds, put the phase in `repeat` ... `until C`",
                )
        if ph.first_player is not None:
            raise DeclarationError(f"phase '{ph.name}' has no move: nobody plays first in it", ph.first_player.span)

    def _order_keys(self, keys: Any, scope: dict[str, T]) -> list[dict[str, Any]]:
        """Ordering keys (`lowest KEY, then highest KEY`): each a number or a card of ordered cards."""
        out = []
        for extreme, e in keys:
            key = self.expr(e, scope, None)
            kind = self._last_type.kind
            if kind not in ("number", "card", "none"):
                raise RulesTypeError(f"players are ordered by a number or a card, not {self._last_type}", e.span)
            if kind == "card" and not self.card_order:
                raise DeclarationError(
                    "cards are compared here, but the cards have no order",
                    e.span,
                    "add `order cards by ATTRIBUTE, ...` to the cards section",
                )
            out.append({"extreme": extreme, "key": key, "type": kind})
        return out

    def _round_flow(self, phases: list[str]) -> dict[str, Any]:
        """The round's own effects, its early end, and its repeated groups of phases."""
        p = self.p
        node: dict[str, Any] = {}
        for when in ("start", "end"):
            if when in p.round_at:
                node[f"at_{when}"] = self._nobodys_effects(p.round_at[when], "the round")
        if p.round_ends is not None:
            node["ends"] = self._ends(p.round_ends, "a round")
        repeats = []
        for rep in p.repeats.values():
            names = [ph.name for ph in rep.phases]
            spots = [phases.index(n) for n in names]
            if spots != list(range(spots[0], spots[0] + len(spots))):
                raise DeclarationError("the phases of a `repeat` follow one another in the round", rep.span)
            loop = self._noted(
                {"first": names[0], "last": names[-1], "until": self.expr(rep.until, {}, BOOL)}, rep.span
            )
            until_note = p.note(rep.until.span)  # the comments beside `until` are the repeat's too
            if until_note:
                loop["note"] = f"{loop['note']} {until_note}" if loop.get("note") else until_note
            repeats.append(loop)
        if repeats:
            node["repeats"] = repeats
        return node

    def _ends(self, e: Ends, what: str) -> dict[str, Any]:
        """`ends when CONDITION` of a round or the game (`nobody can move` ends a phase only)."""
        if e.condition is None:
            raise DeclarationError(
                f"`nobody can move` ends a phase, not {what}",
                e.span,
                "write it in the phase whose turns stop, or give a condition",
            )
        return self._noted({"when": self.expr(e.condition, {}, BOOL)}, e.span)

    def _trigger_moves(self, t: Any, moves: dict[str, Any]) -> tuple[Any, dict[str, T]]:
        """The moves a trigger follows (IR: a name, or a list of several), and the scope its rules
        read: `target` is the zone the moves go to (any zone when they go to different ones)."""
        names = t.moves or (t.after,)
        for name in names:
            if name not in moves:
                raise UnknownNameError(
                    f"no move '{name}' in this phase to trigger after", t.span, self._suggest(name, list(moves))
                )
        if len(set(names)) < len(names):
            raise DeclarationError("a trigger names the same move twice", t.span)
        scopes = [self._trigger_scope(moves[n]) for n in names]
        if len(names) == 1:
            return names[0], scopes[0]
        return list(names), _shared_scope(names, scopes)

    def _trigger_scope(self, m: Any) -> dict[str, T]:
        """What a trigger after move ``m`` alone reads: `player`, `card` and `target` after a card
        moved; after a choice, the value chosen by the move's name (and a set's `target`)."""
        if m.choice is not None:
            scope = self._choice(m.name, m.choice, {"player": PLAYER}, m.span)[1]
            if m.choice.kind == "draw":  # after a draw, `card` is the top card it took
                scope["card"] = CARD
            return scope
        return {"player": PLAYER, "card": CARD, "target": T("zone", m.to_zone)}

    def _game_rounds(self, g: dict[str, Any]) -> dict[str, Any]:
        """`rounds N` (a cap, optional when the game `ends when`) and the game's end condition."""
        if "rounds" not in g and "ends" not in g:
            raise DeclarationError(
                "the game does not say how many rounds it has, nor when it ends",
                self.p.title.span,
                "add a `game` section with `rounds N`, or `ends when CONDITION`, or both",
            )
        node: dict[str, Any] = {}
        if "rounds" in g:
            node["rounds"] = self.expr(g["rounds"].value, {}, NUMBER)
        if "ends" in g:
            node["ends"] = self._ends(g["ends"], "the game")
        return node


def _shared_scope(names: tuple[str, ...], scopes: list[dict[str, T]]) -> dict[str, T]:
    """What a trigger after any of several moves reads: what each of them binds (`player`; `card`
    after card moves; `target` after moves that put cards in a zone, any zone when they differ).
    A name only some of them bind (a choice's value, `card` beside a choice) would have no value
    after the others: it is marked, for the error that says so where it is read (resolve_names)."""
    shared: dict[str, T] = {}
    for name in sorted({k for sc in scopes for k in sc if k != SET_NAME}):
        types = {sc.get(name) for sc in scopes}
        if len(types) == 1:
            shared[name] = types.pop()
        elif None not in types and {x.kind for x in types} == {"zone"}:
            shared[name] = T("zone")
        else:
            binders = [n for n, sc in zip(names, scopes, strict=True) if name in sc]
            shared[UNSHARED + name] = T("none", ", ".join(binders))
    return shared


def _names(effects: tuple[Any, ...]) -> list[tuple[str, Span]]:
    """Every plain name the effects read (names a `let` binds before are left out, and so is the
    player or team a `for each` binds, in its own effects or expression)."""
    out: list[tuple[str, Span]] = []
    bound: set[str] = set()

    def walk(x: Any, inner: frozenset[str] = frozenset()) -> None:
        if getattr(x, "kind", None) == "let":
            walk(x.args[1], inner)
            bound.add(x.args[0])
            return
        if getattr(x, "kind", None) == "each":  # for each player [where C]: effects
            inner = inner | {x.args[0]}
        if getattr(x, "op", None) == "for_each":  # max V for each player [where C]
            inner = inner | {x.args[2]}
        if getattr(x, "op", None) == "name":
            if x.args[0] not in bound and x.args[0] not in inner:
                out.append((x.args[0], x.span))
            return
        if getattr(x, "op", None) == "for_each" and x.args[2] not in bound:  # `for each player` binds it
            bound.add(x.args[2])
            walk(x.args)
            bound.discard(x.args[2])
            return
        for child in getattr(x, "args", x if isinstance(x, tuple) else ()):
            if hasattr(child, "args") or isinstance(child, tuple):
                walk(child, inner)

    walk(tuple(effects))
    return out
