"""Words for the values of the table: players, seats, teams, calls of functions, copy counts.
The phrases of these IR operators join phrases.py's table (EXPR) when it is imported."""

from __future__ import annotations

from typing import Any

from ..engine.player_exprs import members


class _Words:
    """The functions of phrases.py these phrases use, given by it (no import back: no cycle)."""

    say: Any = None
    grouped: Any = None
    human: Any = None
    _some: Any = None
    _count: Any = None
    coll: Any = None


P = _Words()


def bind(say: Any, grouped: Any, human: Any, some: Any, count: Any, coll: Any) -> None:
    """Give these phrases phrases.py's `say`, `grouped`, `human`, its phrases of `some` and
    `count` over cards and its words for a collection (`coll`)."""
    P.say, P.grouped, P.human, P._some, P._count, P.coll = say, grouped, human, some, count, coll


def _seats(of: dict[str, Any]) -> tuple[str, dict[str, Any] | None] | None:
    """("player" or "team", the condition or None) when a collection is the players or the teams."""
    src = of["of"] if of.get("op") == "filter" else of
    if src.get("op") not in ("players", "teams"):
        return None
    return ("player" if src["op"] == "players" else "team"), (of["where"] if of.get("op") == "filter" else None)


def _whom(who: str) -> str:
    return "for whom" if who == "player" else "for which"


def _such(who: str, where: dict[str, Any], ctx: Any, many: bool = False) -> str:
    """The condition of "a player for whom ...": "who is not eliminated" (are, for ``many``) when
    it is said of the player itself, else "for whom the total of that player is at least 10"."""
    text = P.say(where, ctx.with_bound(it=f"that {who}"))
    head = f"that {who} is "
    if text.startswith(head) and " and " not in text and " or " not in text:
        return f"{'who' if who == 'player' else 'which'} {'are' if many else 'is'} {text[len(head) :]}"
    return f"{_whom(who)} {text}"


def _every(n, ctx):  # every player where chips of it > 0
    seats = _seats(n["of"])
    if seats is None:  # every card in hand of player where ...
        sing, _, qual = P.coll(n["of"], ctx)
        return f"for every {sing}{qual}, {P.say(n['where'], ctx.with_bound(it=f'that {sing}'))}"
    who, where = seats
    return f"for every {who}, {P.say(where or n['where'], ctx.with_bound(it=f'that {who}'))}"


def _some(n, ctx):  # some player where chips of it > 0
    seats = _seats(n["of"])
    if seats is None:
        return P._some(n, ctx)
    who, where = seats
    text = f"there is {'a' if n['op'] == 'some' else 'no'} {who}"
    if where is not None:
        text += f" {_such(who, where, ctx)}"
    return text


def _count(n, ctx):  # count player where chips of it > 0
    seats = _seats(n["of"])
    if seats is None:
        return P._count(n, ctx)
    who, where = seats
    if where is None:
        return f"the number of {who}s"
    return f"the number of {who}s {_such(who, where, ctx, many=True)}"


def _for_each(n, ctx):  # max total of player for each player where ...
    over, agg = n["over"], n["agg"]
    each = {"sum": f"every {over}", "distinct": f"every {over}"}.get(agg, f"any {over}")
    value = P.say(n["value_expr"], ctx.with_bound(**{over: each}))
    value = value[4:] if value.startswith("the ") else value
    text = {
        "sum": f"the sum of the {value}",
        "max": f"the highest {value}",
        "min": f"the lowest {value}",
        "distinct": f"the number of different values of the {value}",
        "unique_max": f"exactly one {over} has the highest {value}",
        "unique_min": f"exactly one {over} has the lowest {value}",
    }[agg]
    if n.get("where") is not None:
        cond = P.say(n["where"], ctx.with_bound(**{over: f"that {over}"}))
        text += f", counting {'a player' if over == 'player' else 'a team'} only when {cond}"
    return text


def _seat_offset(n, ctx):  # 2 seats left of dealer
    by, of = n["by"], P.say(n["of"], ctx)
    if by.get("op") == "num" and abs(by["value"]) == 1:
        return f"the player to the {'left' if by['value'] > 0 else 'right'} of {of}"
    if by.get("op") == "neg":
        return f"the player {P.grouped(by['of'], ctx)} seats to the right of {of}"
    return f"the player {P.grouped(by, ctx)} seats to the left of {of}"


def _next_of(n, ctx):  # next of player: "the next player", who moves after them in the turn order
    if n["of"].get("op") == "bound" and n["of"].get("name") == "player":
        return "the next player in the turn order"
    return f"the player after {P.say(n['of'], ctx)} in the turn order"


def call_words(n, ctx):  # beats(card, best card in trick): phrases.py's `call` hands it the calls with arguments
    return f"*{P.human(n['name'])}* of {_and([P.say(a, ctx) for a in n['args']])}"


def params_words(params: list[dict[str, Any]]) -> str:
    """A function's parameters: "a card *a* and a card *b*"."""
    return _and([f"{'an' if p['type'][:1] in 'aeiou' else 'a'} {p['type']} *{p['name']}*" for p in params])


def teams_sentence(teams: dict[str, Any], low: int, high: int) -> str:
    """How the players sit in teams: "in 2 teams of 2; partners sit across the table from each
    other: seats 0 and 2 against seats 1 and 3"."""
    size, across = teams["size"], teams["seating"] == "across"
    count = f"{low // size} teams of {size}" if low == high else f"teams of {size}"
    where = "across the table from each other" if across else "side by side"
    text = f"in {count}; partners sit {where}"
    if low == high:
        n = low
        sides = [members(t, n, size, teams["seating"]) for t in range(n // size)]
        text += ": " + " against ".join(f"seats {_and(side)}" for side in sides)
    return text


def _and(xs: list[Any]) -> str:
    return ", ".join(map(str, xs[:-1])) + f" and {xs[-1]}" if len(xs) > 1 else str(xs[0])


def copies_words(c: Any, ctx: Any) -> str:
    """A value's copies: times 3, or times (2 times the number of players)."""
    return f" ×({P.say(c, ctx)})" if isinstance(c, dict) else (f" ×{c}" if c != 1 else "")


def _unique(n, ctx):  # unique highest of rank in trick
    _, plu, qual = P.coll(n["of"], ctx)
    extreme = "highest" if n["agg"] == "unique_max" else "lowest"
    return f"exactly one of the {plu}{qual} has the {extreme} {P.human(n['attr'])}"


VALUE_PHRASES: dict[str, Any] = {
    "some": _some,
    "no": _some,
    "count": _count,
    "players": lambda n, ctx: "the players",
    "teams": lambda n, ctx: "the teams",
    "every": _every,
    "for_each": _for_each,
    "seat": lambda n, ctx: f"the seat number of {P.say(n['of'], ctx)}",
    "seat_offset": _seat_offset,
    "across": lambda n, ctx: f"the player across the table from {P.say(n['of'], ctx)}",
    "known": lambda n, ctx: (  # (issue 30)
        f"the {P.human(n['name'])} of {P.say(n['of'], ctx)} as {P.say(n['to'], ctx)} was told it (none if not told)"
    ),
    "next_of": _next_of,
    "team_of": lambda n, ctx: f"the team of {P.say(n['of'], ctx)}",
    "partner_of": lambda n, ctx: f"the partner of {P.say(n['of'], ctx)}",
    "team_total": lambda n, ctx: f"the total of {P.say(n['of'], ctx)}",
    "team_zones": lambda n, ctx: f"the {P.human(n['name'])} of the players of {P.say(n['of'], ctx)}",
    "team_var": lambda n, ctx: f"the {P.human(n['name'])} of {P.say(n['of'], ctx)}",
    "unique": _unique,
}
