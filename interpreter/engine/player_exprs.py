"""Players, seats and teams as values, compiled to closures: the collections of every seat and
every team, `every ... where`, `V for each player`, seat arithmetic, a player's team and partner,
a team's total and zones, and calls of definitions with parameters. A mixin of ExprCompiler
(expressions.py), whose other methods (compile, plain_slot...) it calls.

Seats are numbers 0..n-1 (left of seat p is p + 1, modulo n). Teams are numbers 0..n/size-1:
with partners across, seat p is in team p % (n / size); adjacent, in team p // size."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import PlayError
from .expr_analysis import MISSING

if TYPE_CHECKING:  # (the compiled engine's type: this module's .pxd cimports it)
    from .state_fields import StateFields


def team_of(p: int, n: int, size: int, seating: str) -> int:
    """The team of seat ``p`` among ``n`` seats."""
    return p % (n // size) if seating == "across" else p // size


def members(t: int, n: int, size: int, seating: str) -> list[int]:
    """The seats of team ``t``, lowest first."""
    if seating == "across":
        return [t + k * (n // size) for k in range(size)]
    return list(range(t * size, (t + 1) * size))


def unique_extreme(values: list[Any], agg: str) -> bool:
    """Whether exactly one of ``values`` is the highest (``unique_max``) or the lowest; false of none."""
    if not values:
        return False
    best = max(values) if agg == "unique_max" else min(values)
    return values.count(best) == 1


class PlayerExprs:
    """Compiles the expressions about players, seats, teams and functions (see ExprCompiler)."""

    teams: dict[str, Any] | None = None  # the IR's teams line, set by the game compiler

    def op_players(self, n, sc):  # player (every seat, as a collection)
        def read(s: StateFields, e):
            return range(s.n)

        return read

    def op_teams(self, n, sc):  # team (every team, as a collection)
        size = self.teams["size"]

        def read(s: StateFields, e):
            return range(s.n // size)

        return read

    def op_every(self, n, sc):  # every player where chips of it > 0
        coll = self.compile(n["of"], sc)
        inner, k = sc.bind("it")
        test = self.compile(n["where"], inner)

        def every(s: StateFields, e):
            for x in coll(s, e):
                e[k] = x
                if not test(s, e):
                    return False
            return True

        return every

    def op_for_each(self, n, sc):  # max total of player for each player where ...
        over = self.op_players(n, sc) if n["over"] == "player" else self.op_teams(n, sc)
        inner, k = sc.bind(n["over"])
        value = self.compile(n["value_expr"], inner)
        where = None if n.get("where") is None else self.compile(n["where"], inner)
        agg = n["agg"]

        def values(s: StateFields, e):
            out = []
            for x in over(s, e):
                e[k] = x
                if where is None or where(s, e):
                    v = value(s, e)
                    if v is not None:
                        out.append(v)
            return out

        if agg in ("unique_max", "unique_min"):  # unique highest V for each player: one holds the best
            return lambda s, e: unique_extreme(values(s, e), agg)
        if agg == "sum":
            return lambda s, e: sum(values(s, e))
        if agg == "distinct":
            return lambda s, e: len(set(values(s, e)))
        pick = max if agg == "max" else min
        return lambda s, e: pick(vs) if (vs := values(s, e)) else None

    def op_seat(self, n, sc):  # seat of player
        return self.compile(n["of"], sc)

    def op_seat_offset(self, n, sc):  # 2 seats left of dealer, left of player
        of = self.compile(n["of"], sc)
        by = n["by"]
        if by.get("op") == "num":
            step = by["value"]

            def read(s: StateFields, e):
                return None if (p := of(s, e)) is None else (p + step) % s.n

            return read
        count = self.compile(by, sc)

        def read(s: StateFields, e):
            return None if (p := of(s, e)) is None else (p + count(s, e)) % s.n

        return read

    def op_next_of(self, n, sc):  # next of player: who plays after them in the turn order (turns.py)
        of = self.compile(n["of"], sc)

        def read(s: StateFields, e):
            return None if (p := of(s, e)) is None else (p + s.turn_step) % s.n

        return read

    def op_across(self, n, sc):  # across player
        of = self.compile(n["of"], sc)
        at = n.get("at")

        def across(s: StateFields, e):
            if s.n % 2:
                raise PlayError(f"nobody sits across the table from a player with {s.n} players", at)
            p = of(s, e)
            return None if p is None else (p + s.n // 2) % s.n

        return across

    def op_team_of(self, n, sc):  # team of player
        of = self.compile(n["of"], sc)
        size, seating = self.teams["size"], self.teams["seating"]

        def read(s: StateFields, e):
            return None if (p := of(s, e)) is None else team_of(p, s.n, size, seating)

        return read

    def op_partner_of(self, n, sc):  # partner of player (teams of 2)
        of = self.compile(n["of"], sc)
        if self.teams["seating"] == "across":

            def read(s: StateFields, e):
                return None if (p := of(s, e)) is None else (p + s.n // 2) % s.n

            return read
        return lambda s, e: None if (p := of(s, e)) is None else p ^ 1

    def op_team_total(self, n, sc):  # total of team
        of = self.compile(n["of"], sc)
        size, seating = self.teams["size"], self.teams["seating"]

        def read(s: StateFields, e):
            return sum(s.totals[p] for p in members(of(s, e), s.n, size, seating))

        return read

    def team_seats(self):
        """(state, team) -> the team's seats, lowest first."""
        size, seating = self.teams["size"], self.teams["seating"]
        return lambda s, t: members(t, s.n, size, seating)

    def op_team_var(self, n, sc):  # points of team of player (a value kept on each member alike)
        of, k = self.compile(n["of"], sc), self.var_index[n["name"]]
        size, seating = self.teams["size"], self.teams["seating"]

        def read(s: StateFields, e):
            return None if (t := of(s, e)) is None else s.vars[k][members(t, s.n, size, seating)[0]]

        return read

    def op_team_zones(self, n, sc):  # won of team (the zone of every member)
        of = self.compile(n["of"], sc)
        z = self.zone_index[n["name"]]
        size, seating = self.teams["size"], self.teams["seating"]

        def read(s: StateFields, e):
            return [s.layout.base[z] + p for p in members(of(s, e), s.n, size, seating)]

        return read

    def call_with_args(self, n, sc):  # beats(card, best card in trick)
        """A definition with parameters, its value kept in the state's cache by its arguments."""
        k = self.define_index[n["name"]]
        fns = self.define_fns
        args = [self.compile(a, sc) for a in n["args"]]

        def call(s: StateFields, e):
            key = (k, *(a(s, e) for a in args))
            cache = s.cache
            v = cache.get(key, MISSING)
            if v is MISSING:
                v = cache[key] = fns[k](s, key[1:])
            return v

        return call
