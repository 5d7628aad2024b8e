"""Rules that cannot apply, found without playing: a comparison with a value no card has, a limit
beyond what the whole deck can sum to, scoring over a zone nothing fills, an unused parameter or
definition, repeated objective cards; and a scoring rule that charges each player for every player's cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..engine.game import Game
from ..errors import RulesetError
from ..language.deck_params import deck_params
from .findings import Finding, Report, at

Node = dict[str, Any]


# ---- walking the IR -------------------------------------------------------------------------------
def rule_expressions(ir: dict[str, Any]) -> Iterator[tuple[str, Node, Node]]:
    """Every expression of the rules: (kind of rule, the rule's node, the expression)."""
    for p in ir["params"]:
        yield "parameter", p, p["default"]
    for s in ir["schedules"]:
        for v in s["values"]:
            yield "schedule", s, v
    for v in ir["vars"]:
        yield "variable", v, v["init"]
    for d in ir["defines"]:
        yield "definition", d, d["body"]
    for deck in ir["decks"]:
        for line in deck["cards"]:
            if line.get("achieved"):
                yield "objective", line, line["achieved"]
    for d in ir["round"]["deals"]:
        for k in ("amount", "as_players", "as_players_when"):
            if d.get(k):
                yield "deal", d, d[k]
    for ph in ir["round"]["phases"]:
        for key in (ph.get("first_player") or {}).get("keys", []):
            yield "first player", ph["first_player"], key["key"]
        if (ph.get("first_player") or {}).get("seat"):  # first player is left of dealer
            yield "first player", ph["first_player"], ph["first_player"]["seat"]
        for m in ph["moves"]:
            for x in (m.get("choice") or {}).values():  # a number's range, a draw's count, a set's size
                if isinstance(x, dict) and "op" in x:
                    yield "move", m, x
            for g in m["guards"]:
                yield "guard", g, g["expr"]
                if g.get("when"):
                    yield "guard", g, g["when"]
        for t in ph["triggers"]:
            if t.get("if"):
                yield "trigger", t, t["if"]
            for e in effect_expressions(t["effects"]):
                yield "trigger", t, e
        if ph.get("ends"):
            yield "phase end", ph["ends"], ph["ends"]["when"]
        for key in (ph.get("resolve") or {}).get("keys", []):
            yield "order of resolution", ph["resolve"], key["key"]
        for when in ("at_start", "at_end"):
            for e in effect_expressions((ph.get(when) or {}).get("effects", [])):
                yield "phase effect", ph[when], e
    rnd = ir["round"]
    for when in ("at_start", "at_end"):
        for e in effect_expressions((rnd.get(when) or {}).get("effects", [])):
            yield "round effect", rnd[when], e
    for loop in rnd.get("repeats", ()):
        yield "repeat", loop, loop["until"]
    if rnd.get("ends"):
        yield "round end", rnd["ends"], rnd["ends"]["when"]
    for r in ir["round"]["score"]:
        for k in ("each", "points", "if", "unless"):
            if r.get(k):
                yield "scoring rule", r, r[k]
    if ir.get("game", {}).get("rounds"):
        yield "game", ir["game"], ir["game"]["rounds"]
    if ir.get("game", {}).get("ends"):
        yield "game end", ir["game"]["ends"], ir["game"]["ends"]["when"]
    if ir.get("game", {}).get("all_win"):
        yield "cooperative win", ir["game"]["all_win"], ir["game"]["all_win"]["if"]


def effect_expressions(effects: list[Node]) -> Iterator[Node]:
    """The expressions inside effects, nested `if`s included."""
    for eff in effects:
        for k, v in eff.items():
            if k in ("then", "else", "effects"):
                yield from effect_expressions(v)
            elif isinstance(v, dict) and "op" in v:
                yield v
            elif k == "to" and isinstance(v, list):  # a reveal's players
                yield from v
            elif k in ("payer", "payee") and v["of"] is not None:  # a counter paid from or to: its player
                yield v["of"]
            elif k == "choice":  # an ask's: its range, or the zone of its card
                yield from (x for x in v.values() if isinstance(x, dict) and "op" in x)
            elif k == "guards":  # an ask's
                yield from (x for g in v for x in (g["expr"], g.get("when")) if x is not None)
            elif k == "by":  # a `for each card`'s order
                yield v["key"]


def walk(node: Any) -> Iterator[Node]:
    """Every expression node under ``node`` (itself first)."""
    if isinstance(node, dict):
        if "op" in node:
            yield node
        for k, v in node.items():
            if k != "at":
                yield from walk(v)
    elif isinstance(node, list):
        for x in node:
            yield from walk(x)


# ---- static values ------------------------------------------------------------------------------
def static_value(node: Node, players: int, params: dict[str, Any]) -> Any:
    """The value of an expression that reads only numbers, parameters and `players`; else LookupError."""
    match node["op"]:
        case "num":
            return node["value"]
        case "param":
            return params[node["name"]]
        case "builtin" if node["name"] == "players":
            return players
        case "neg":
            return -static_value(node["of"], players, params)
        case "arith":
            a, b = static_value(node["left"], players, params), static_value(node["right"], players, params)
            if node["sym"] == "/":
                if b == 0:
                    raise LookupError("division by zero")
                return a // b
            return {"+": a + b, "-": a - b, "*": a * b}[node["sym"]]
        case "if":
            cond = node["cond"]
            if cond["op"] != "cmp":
                raise LookupError("condition")
            a, b = static_value(cond["left"], players, params), static_value(cond["right"], players, params)
            held = _compare(cond["cmp"], a, b)
            return static_value(node["then" if held else "else"], players, params)
    raise LookupError(node["op"])


def _compare(sym: str, a: Any, b: Any) -> bool:
    return {
        "=": a == b,
        "!=": a != b,
        "<": a < b,
        ">": a > b,
        "<=": a <= b,
        ">=": a >= b,
    }[sym]


def _card_type(node: Node) -> str | None:
    """The card type a collection is restricted to (`trump in trick`), if any."""
    while node["op"] in ("filter", "except"):
        node = node["of"]
    return node.get("type") if node["op"] in ("cards", "of_type") else None


def _bounds(node: Node, game: Game) -> tuple[int, int, str] | None:
    """(least, most, what) a `sum of A in ...` or `count ...` can be over the whole deck."""
    cards = game.cards
    if node["op"] == "sum":
        typ = _card_type(node["of"])
        values = [
            v
            for c, v in enumerate(cards.attrs[node["attr"]])
            if v is not None and (typ is None or cards.types[c] == typ)
        ]
        what = f"the sum of {node['attr']} over {'every ' + typ if typ else 'the whole deck'}"
        return sum(v for v in values if v < 0), sum(v for v in values if v > 0), what
    if node["op"] == "count" and node["of"]["op"] != "piles":
        typ = _card_type(node["of"])
        n = sum(1 for t in cards.types if typ is None or t == typ)
        return 0, n, f"the number of {typ + ' cards' if typ else 'cards'} in all decks ({n})"
    return None


FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "!=": "!="}


def _never(sym: str, low: int, high: int, limit: Any) -> bool:
    """True when `x SYM limit` cannot hold for any x in low..high."""
    if not isinstance(limit, int):
        return False
    return {
        ">": limit >= high,
        ">=": limit > high,
        "<": limit <= low,
        "<=": limit < low,
        "=": limit > high or limit < low,
        "!=": False,
    }[sym]


# ---- the checks ---------------------------------------------------------------------------------
def check_rules(game: Game, counts: list[int], sets: dict[str, Any], report: Report) -> None:
    """All static "cannot apply" checks."""
    ir = game.ir
    _values_no_card_has(game, report)
    _limits_beyond_deck(game, counts, sets, report)
    _zones_never_filled(ir, report)
    _unused_params(ir, report)
    _unused_defines(ir, report)
    _reserved_names(ir, report)
    _unused_blocks(ir, report)
    _repeated_objectives(game, report)
    _score_reads_every_player(ir, report)


def _values_no_card_has(game: Game, report: Report) -> None:
    """`suit of card = red` where no card has suit red; `card is X` where no card is an X."""
    cards = game.cards
    present = {a: {v for v in vs if v is not None} for a, vs in cards.attrs.items()}
    types = set(cards.types)
    for kind, rule, root in rule_expressions(game.ir):
        for node in walk(root):
            if node["op"] == "cmp" and node["cmp"] in ("=", "!="):
                for attr, lit in ((node["left"], node["right"]), (node["right"], node["left"])):
                    if attr["op"] == "attr" and lit["op"] in ("text", "num"):
                        name, value = attr["name"], lit["value"]
                        if value not in present.get(name, set()):
                            holds = "never holds" if node["cmp"] == "=" else "always holds"
                            shown = ", ".join(map(str, sorted(present.get(name, set()), key=str))) or "none"
                            report.add(
                                Finding(
                                    "warning",
                                    "no-such-value",
                                    f"this {kind} {holds}: no card has {name} {value!r}",
                                    at(node) or at(rule),
                                    f"the values of {name} are: {shown}",
                                )
                            )
            elif node["op"] in ("is_type", "cards", "of_type") and node.get("type") and node["type"] not in types:
                report.add(
                    Finding(
                        "warning",
                        "no-such-card",
                        f"this {kind} cannot apply: the decks hold no card of type '{node['type']}'",
                        at(node) or at(rule),
                        "give the card type at least one copy",
                    )
                )


def _limits_beyond_deck(game: Game, counts: list[int], sets: dict[str, Any], report: Report) -> None:
    """`sum of value in target > limit` where even the whole deck cannot sum past the limit."""
    values: dict[int, dict[str, Any]] = {}
    for p in counts:
        try:
            values[p] = game.param_values(p, sets)
        except RulesetError:
            continue
    if not values:
        return
    for kind, rule, root in rule_expressions(game.ir):
        for node in walk(root):
            if node["op"] != "cmp" or node["cmp"] == "!=":
                continue
            for side, other, sym in (
                (node["left"], node["right"], node["cmp"]),
                (node["right"], node["left"], FLIP[node["cmp"]]),
            ):
                bounds = _bounds(side, game)
                if bounds is None:
                    continue
                low, high, what = bounds
                try:
                    limits = {p: static_value(other, p, v) for p, v in values.items()}
                except (LookupError, TypeError):
                    continue
                if all(_never(sym, low, high, lim) for lim in limits.values()):
                    shown = sorted(set(limits.values()), key=str)
                    report.add(
                        Finding(
                            "warning",
                            "beyond-deck",
                            f"this {kind} can never hold: {what} is at most {high}"
                            + (f" and at least {low}" if low else "")
                            + f", and it is compared {sym} {'/'.join(map(str, shown))}",
                            at(node) or at(rule),
                            "check the limit against the deck (parameters can be overridden with --set)",
                        )
                    )


def _zone_names(node: Any) -> set[str]:
    """The zones an expression names."""
    return {n["name"] for n in walk(node) if n["op"] in ("zone", "zones", "team_zones")}


def _zones_never_filled(ir: dict[str, Any], report: Report) -> None:
    """A scoring rule over a zone that no deal, move or effect ever puts cards into."""
    filled = {d["name"] for d in ir["decks"]}
    for d in ir["round"]["deals"]:
        filled.add(d["to"])
        if d.get("rest"):
            filled.add(d["rest"])
    for ph in ir["round"]["phases"]:
        for m in ph["moves"]:
            to = m.get("to") or m.get("choice", {}).get("to")  # (a draw's or a set's zone; other choices: none)
            if to:
                filled.add(to)
        for t in ph["triggers"]:
            for dest in _destinations(t["effects"]):
                names = _zone_names(dest)
                if not names and dest.get("op") != "bound":
                    return  # a destination we cannot name: anything may be filled
                if dest.get("op") == "bound" and dest.get("name") != "target":
                    return
                filled |= names
    for r in ir["round"]["score"]:
        source = r.get("each") or r["points"]
        for name in sorted(_zone_names(source) - filled):
            report.add(
                Finding(
                    "warning",
                    "empty-zone",
                    f"this scoring rule counts cards in '{name}', but no deal, move or effect ever puts cards there",
                    at(r),
                    f"move cards to {name} somewhere (a move's `to`, a trigger's `move ... to`), or score another zone",
                )
            )


def _destinations(effects: list[Node]) -> Iterator[Node]:
    """The `to` expressions of moving effects (move, draw; both zones of a swap), nested `if`s included."""
    for eff in effects:
        if eff["do"] in ("move", "draw"):
            yield eff["to"]
        elif eff["do"] == "swap":
            yield eff["what"]
            yield eff["with"]
        elif eff["do"] == "if":
            yield from _destinations(eff["then"])
            yield from _destinations(eff["else"])
        elif eff["do"] in ("each", "repeat"):
            yield from _destinations(eff["effects"])
        elif eff["do"] == "ask":  # a follow-up choice's block
            yield from _destinations(eff["then"])


def _unused_params(ir: dict[str, Any], report: Report) -> None:
    """A parameter that no rule reads (setting it would change nothing)."""
    used = {n["name"] for _, _, root in rule_expressions(ir) for n in walk(root) if n["op"] == "param"}
    used |= set(deck_params(ir))  # (a range's end or a card line's copies)
    for p in ir["params"]:
        if p["name"] not in used:
            report.add(
                Finding(
                    "warning",
                    "unused-parameter",
                    f"parameter '{p['name']}' is never used: `--set {p['name']}=...` would change nothing",
                    at(p),
                    "use it in a rule, or remove it",
                    p.get("note"),
                )
            )


def _reserved_names(ir: dict[str, Any], report: Report) -> None:
    """A variable, parameter, definition or schedule named with a word of the language (`var best`):
    the word is the language's wherever a value is read, so no rule can read it (a reading is an
    error of its own, at the reading; this says it of a name only set, or never read)."""
    from ..language.parser import reserved_example, reserved_words

    words = reserved_words()
    for kind, key in (
        ("variable", "vars"),
        ("parameter", "params"),
        ("definition", "defines"),
        ("schedule", "schedules"),
    ):
        for item in ir.get(key, ()):
            name = item["name"]
            if name not in words:
                continue
            report.add(
                Finding(
                    "warning",
                    "reserved-name",
                    f"{kind} '{name}' can never be read: `{name}` is a word of the language "
                    f"(`{reserved_example(name)}`), reserved wherever a value is read",
                    at(item),
                    f"rename it (e.g. `{name}_so_far`) where it is declared and where it is set",
                    item.get("note"),
                )
            )


def _defines_read(node: Any) -> set[str]:
    """The names of the definitions an expression (or any IR part) reads: calls, and derived
    attributes of cards, read like attributes (`points of card`) or named by what reads an
    attribute of many cards (`sum of points in won`, `max of points in hand`, a choice's `value of
    points` or a set's `of one points`)."""
    names: set[str] = set()
    todo = [node]
    while todo:
        x = todo.pop()
        if isinstance(x, list):
            todo.extend(x)
        elif isinstance(x, dict):
            if x.get("op") in ("call", "attr"):
                names.add(x["name"])
            names.update(x[k] for k in ("attr", "same") if isinstance(x.get(k), str))
            todo.extend(v for k, v in x.items() if k != "at")
    return names


def _unused_blocks(ir: dict[str, Any], report: Report) -> None:
    """A named effect (`effect NAME`) that no rule does (`do NAME`)."""
    done: set[str] = set()
    stack: list[Any] = [{k: v for k, v in ir.items() if k != "blocks"}]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("do") == "do":
                done.add(node["name"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    for b in ir.get("blocks", ()):
        if b["name"] not in done:
            report.add(
                Finding(
                    "warning",
                    "unused-effect",
                    f"effect '{b['name']}' is never done: no rule says `do {b['name']}`",
                    at(b),
                    "do it where its effects belong, or remove it",
                    b.get("note"),
                )
            )


def _unused_defines(ir: dict[str, Any], report: Report) -> None:
    """A definition that no rule reads, directly or through the definitions the rules read.
    A definition of a zone counts as used: the table shows it beside the zone."""
    defines = {d["name"]: d for d in ir["defines"]}
    rules = {k: v for k, v in ir.items() if k != "defines"}
    used = {d["name"] for d in ir["defines"] if d.get("of") not in (None, "card")}
    used |= (_defines_read(rules) | set(ir.get("card_order", []))) & defines.keys()
    todo = list(used)
    while todo:  # what the used definitions read is used too
        for name in _defines_read(defines[todo.pop()]["body"]) & defines.keys():
            if name not in used:
                used.add(name)
                todo.append(name)
    for d in ir["defines"]:
        if d["name"] in used:
            continue
        name = d["name"]
        readers = sorted(n for n, other in defines.items() if n != name and name in _defines_read(other["body"]))
        why = f"only '{readers[0]}', itself unused, reads it" if readers else "no rule reads it"
        report.add(
            Finding(
                "warning",
                "unused-define",
                f"definition '{d['name']}' is never used: {why}",
                at(d),
                "use it in a rule, or remove it",
                d.get("note"),
            )
        )


def _repeated_objectives(game: Game, report: Report) -> None:
    """A deck holding several copies of one objective card (a card with `achieved when`)."""
    cards = game.cards
    copies = Counter(cards.kind[c] for c in range(len(cards)) if cards.conditions[c] >= 0)
    if not copies:
        return
    lines = [(deck["name"], line) for deck in game.ir["decks"] for line in deck["cards"] if line.get("achieved")]
    for cond_index, (deck, line) in enumerate(lines):
        ids = [c for c in range(len(cards)) if cards.conditions[c] == cond_index]
        repeated = {cards.kind[c]: copies[cards.kind[c]] for c in ids if copies[cards.kind[c]] > 1}
        if not repeated:
            continue
        sample = next(c for c in ids if cards.kind[c] in repeated)
        label = " ".join(str(v) for k, v in cards.json[sample].items() if k != "type" and isinstance(v, str))
        label = f"{line['type']} {label!r}" if label else line["type"]
        n = max(repeated.values())
        report.add(
            Finding(
                "warning",
                "repeated-objective",
                f"deck '{deck}' repeats an objective card: {n} copies of {label}"
                + (" (the ruleset's comment says why; see the note)" if line.get("note") else ""),
                at(line),
                "objective cards are usually all different: is the deck complete? If the rulebook prints "
                "only some of them, say so in a comment beside the line",
                line.get("note"),
            )
        )


# the parts of an expression that make its value (not a condition on it): a zone reached through
# them is what a scoring rule counts
_VALUE_PARTS = {
    "cards": ("from",),
    "piles": ("from",),
    "of_type": ("of",),
    "filter": ("of",),
    "except": ("of",),
    "union": ("args",),
    "count": ("of",),
    "sum": ("of",),
    "neg": ("of",),
    "arith": ("left", "right"),
    "if": ("then", "else"),
}


def _every_players_zones(node: Any, per_player: set[str]) -> Iterator[Node]:
    """The per-player zones an expression's value is made of, named without `of PLAYER` (every
    player's instance at once), skipping conditions (`where`, `most`, comparisons)."""
    if isinstance(node, list):  # (a union's parts)
        for x in node:
            yield from _every_players_zones(x, per_player)
        return
    if not isinstance(node, dict):
        return
    if node.get("op") == "zones" and node.get("name") in per_player:
        yield node
        return
    for key in _VALUE_PARTS.get(node.get("op"), ()):
        yield from _every_players_zones(node.get(key), per_player)


def _score_reads_every_player(ir: dict[str, Any], report: Report) -> None:
    """`each gem in taken: -3`: a scoring rule is scored for each player, so counting the
    cards of every player's zone charges each player for everyone's cards."""
    per_player = {z["name"] for z in ir["zones"] if z["owner"] == "player"}
    for r in ir["round"]["score"]:
        for key in ("each", "points"):
            for node in _every_players_zones(r.get(key), per_player):
                name = node["name"]
                report.add(
                    Finding(
                        "warning",
                        "every-players-zone",
                        f"this scoring rule, scored for each player, counts the cards of every player's "
                        f"'{name}': each player is charged for everyone's cards",
                        at(node) or at(r),
                        f"write `{name} of player` to count the player's own cards",
                        r.get("note"),
                    )
                )
