"""The resolved rules (IR) as a rulebook: markdown or HTML, phrase by phrase from the IR.

``rulebook(ir)`` builds a list of blocks (headings, paragraphs, lists, tables, notes); the two
writers lay them out. Numbers that depend on the player count (cards per hand, the spare hands,
the rounds) are worked out for every count the ruleset allows.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any

from ..engine.cards import build_cards
from ..engine.game import compile_ir
from ..errors import shown
from . import flow_phrases as F
from . import phrases as P
from . import rule_phrases as R
from .value_phrases import teams_sentence

Block = tuple[Any, ...]


class _Unknown(Exception):
    """An expression that cannot be worked out before play (it reads cards or players)."""


# ---- numbers before play ----------------------------------------------------------------------------


def evaluate(
    node: dict[str, Any],
    players: int,
    values: dict[str, Any],
    schedules: dict[str, Any],
    defines: dict[str, Any] | None = None,
) -> Any:
    """The value of an expression that reads only the player count, parameters, schedules and
    ``defines`` (plain definitions by name: their bodies; see ``plain_defines``)."""
    op = node.get("op")
    ev = lambda n: evaluate(n, players, values, schedules, defines)  # noqa: E731
    match op:
        case "call" if defines and node["name"] in defines and node.get("arg") is None and not node.get("args"):
            return ev(defines[node["name"]])  # (the resolver refuses a definition that reads itself)
        case "num" | "text":
            return node["value"]
        case "none":
            return None
        case "builtin" if node["name"] == "players":
            return players
        case "param" if node["name"] in values:
            return values[node["name"]]
        case "schedule" if node["name"] in schedules:
            return schedules[node["name"]]
        case "neg":
            return -ev(node["of"])
        case "arith":
            a, b = ev(node["left"]), ev(node["right"])
            if node["sym"] == "/":
                if not b:
                    raise _Unknown
                return a // b
            return {"+": a + b, "-": a - b, "*": a * b}[node["sym"]]
        case "if":
            return ev(node["then"]) if ev(node["cond"]) else ev(node["else"])
        case "cmp":
            a, b = ev(node["left"]), ev(node["right"])
            ops = {"=": a == b, "!=": a != b}
            if node["cmp"] in ops:
                return ops[node["cmp"]]
            return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[node["cmp"]]
        case "and":
            return all(ev(a) for a in node["args"])
        case "or":
            return any(ev(a) for a in node["args"])
        case "not":
            return not ev(node["of"])
        case "else":
            for a in node["args"]:
                v = ev(a)
                if v is not None:
                    return v
            return None
    raise _Unknown


def plain_defines(ir: dict[str, Any]) -> dict[str, Any]:
    """The bodies of the definitions that take nothing (`define hand_size = ...`), by name."""
    return {d["name"]: d["body"] for d in ir.get("defines", []) if not d.get("of") and not d.get("params")}


def _uses_schedule(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["name"]} if node.get("op") == "schedule" else set()
        for v in node.values():
            found |= _uses_schedule(v)
        return found
    if isinstance(node, list):
        return set().union(*(_uses_schedule(x) for x in node)) if node else set()
    return set()


def _outcomes(node: dict[str, Any], n: int, values: dict[str, Any], ir: dict[str, Any]) -> list[Any]:
    """Every value an expression takes with n players, over the values of the schedules it reads."""
    names = sorted(_uses_schedule(node))
    defines = plain_defines(ir)
    combos: list[dict[str, Any]] = [{}]
    for s in ir.get("schedules", []):
        if s["name"] in names:
            vals = [evaluate(v, n, values, {}, defines) for v in s["values"]]
            combos = [{**c, s["name"]: v} for c in combos for v in dict.fromkeys(vals)]
    out = []
    for c in combos:
        v = evaluate(node, n, values, c, defines)
        if v not in out:
            out.append(v)
    return out


def _or_list(items: list[Any]) -> str:
    items = [str(x) for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def by_players(texts: dict[int, str]) -> str:
    """Values by player count: "12", or "6 with 3 players, 4 with 4, ..."."""
    if len(set(texts.values())) == 1:
        return next(iter(texts.values()))
    parts = [f"{t} with {n} players" if i == 0 else f"{t} with {n}" for i, (n, t) in enumerate(texts.items())]
    return ", ".join(parts)


def _seats(d: dict[str, Any], n: int, values: dict[str, Any], defines: dict[str, Any]) -> int:
    """The hands a deal to the players deals with n players (more when it deals as if for more)."""
    if d.get("as_players") is not None:
        when = d.get("as_players_when")
        if when is None or evaluate(when, n, values, {}, defines):
            return evaluate(d["as_players"], n, values, {}, defines)
    return n


def _taken(d: dict[str, Any], n: int, values: dict[str, Any], ir: dict[str, Any]) -> int | None:
    """The cards a deal takes from its deck with n players (None: all that are left)."""
    if d.get("amount") is None:
        return None
    defines = plain_defines(ir)
    each = evaluate(d["amount"], n, values, {}, defines)
    zone = next((z for z in ir.get("zones", []) if z["name"] == d["to"]), {})
    return each * (_seats(d, n, values, defines) if zone.get("owner") == "player" else zone.get("count", 1))


def deal_row(
    d: dict[str, Any], n: int, values: dict[str, Any], ir: dict[str, Any], deck_size: int, others: tuple = ((), ())
) -> list[str]:
    """One row of a deal's table: players, hands dealt, cards per hand, spare hands, the rest.
    ``others`` are the deals from the same deck before it and after it: those before leave it
    fewer cards, those after take theirs from its rest (a later deal of all takes the whole rest:
    the rest is named by its zone), unless this deal sends its rest to a zone."""
    where = P.human(d["rest"]) if d.get("rest") else "aside, unseen"
    try:
        seats = _seats(d, n, values, plain_defines(ir))
        spare = seats - n
        available = deck_size - sum(_taken(o, n, values, ir) or 0 for o in others[0])
        later = 0
        for o in () if d.get("rest") else others[1]:
            taken = _taken(o, n, values, ir)
            if taken is None:  # all that is left: that zone is where the rest goes
                where = P.human(o["to"])
                break
            later += taken
        if d.get("amount") is None:
            low, extra = divmod(available, seats)
            each = f"{low} or {low + 1}" if extra else str(low)
            rest = ["0"]
        else:
            amounts = _outcomes(d["amount"], n, values, ir)
            each = _or_list(amounts)
            rest = [str(x) if x >= 0 else "too few cards!" for x in (available - a * seats - later for a in amounts)]
    except (_Unknown, TypeError, ZeroDivisionError):
        return [str(n), "?", "?", "?", "?"]
    spare_text = f"{spare}, removed unseen" if spare else "none"
    rest_text = _or_list(list(dict.fromkeys(rest)))
    shown = rest_text if rest_text in ("0", "too few cards!") else f"{rest_text} ({where})"
    return [str(n), str(seats), each, spare_text, shown]


# ---- the rulebook -------------------------------------------------------------------------------------


def _items(depth: int, text: str, node: dict[str, Any] | None) -> list[tuple[int, str]]:
    """A list item, and under it the note written beside its rule."""
    note = (node or {}).get("note")
    return [(depth, text)] + ([(depth + 1, f"**Note:** {escape(note)}")] if note else [])


def _para(text: str, node: dict[str, Any]) -> list[Block]:
    """A paragraph, then the note written beside its rule."""
    return [("p", text)] + ([("note", escape(node["note"]))] if node.get("note") else [])


def escape(text: str) -> str:
    """Plain text (a comment) safe inside our markup."""
    return re.sub(r"([\\`*|])", r"\\\1", text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def rulebook(ir: dict[str, Any], sets: dict[str, Any] | None = None, source_text: str | None = None) -> list[Block]:
    """The blocks of the rulebook of an IR (``sets``: parameter values overriding the defaults)."""
    low = ir["players"]["min"]
    values = parameter_values(ir, sets)
    fixed = {k: v for k, v in values[low].items() if all(vals[k] == v for vals in values.values())}
    ctx = P.Ctx.of(ir, fixed)
    ctx.schedules = {x["name"]: R.schedule_values(x, ctx) for x in ir["schedules"]}
    out: list[Block] = [("h", 1, escape(ir["name"]))]
    out.append(("p", f"A rulebook generated from `{shown(ir.get('source', '?'))}` by `ruleset render`."))
    if sets:
        out.append(("p", "Parameters as set: " + ", ".join(f"`{k}={v}`" for k, v in sets.items()) + "."))
    out.append(("p", _players_sentence(ir)))
    out += _components(ir, ctx)
    out += _parameters(ir, ctx, values)
    out += _setup(ir, ctx, values)
    out += _round(ir, ctx)
    out += _named_blocks(ir, ctx)
    out += _scoring(ir, ctx)
    out += _end(ir, ctx, values)
    out += _checks(ir, ctx)
    if source_text is not None:
        out.append(("h", 2, "The rules file"))
        out.append(("pre", source_text))
    return out


def _components(ir: dict[str, Any], ctx: P.Ctx) -> list[Block]:
    table, _ = build_cards(ir)
    sizes = Counter(table.deck_of)
    out: list[Block] = [("h", 2, "Components")]
    for d, deck in enumerate(ir["decks"]):
        title = "Cards" if len(ir["decks"]) == 1 else f"The {P.human(deck['name'])} deck"
        out.append(("h", 3, f"{title} ({sizes[d]} cards)"))
        rows = []
        for line in deck["cards"]:
            attrs = "; ".join(f"{P.human(a['name'])}: {R.attribute_values(a)}" for a in line["attributes"])
            if line.get("achieved") is not None:
                attrs += f"; achieved when {P.say(line['achieved'], ctx)}"
            rows.append([f"**{P.human(line['type'])}**", attrs, R.per_value(line), str(R.line_copies(line))])
        rows.append(["**Total**", "", "", f"**{sizes[d]}**"])
        out.append(("table", ["Card", "Attributes (×copies)", "Copies", "Cards"], rows))
        notes = [(0, f"{P.human(x['type'])}: {escape(x['note'])}") for x in deck["cards"] if x.get("note")]
        if notes:
            out.append(("p", "Notes:"))
            out.append(("ul", notes))
    orders = []
    for name, attr in ir["attributes"].items():
        if attr["kind"] == "text" and ir.get("card_order") and name in ir["card_order"]:
            orders.append(f"{P.human(name)} from low to high: {', '.join(P.human(v) for v in attr['values'])}")
    if ir.get("card_order"):
        keys = ", then ".join(P.human(a) for a in ir["card_order"])
        out.append(("p", f"Cards compare by {keys}" + ("; " + "; ".join(orders) if orders else "") + "."))
    out.append(("h", 3, "Zones"))
    out.append(("ul", [i for z in ir["zones"] for i in _items(0, R.zone(z), z)]))
    extra = [i for d in ir["defines"] for i in _items(0, _cap(R.define(d, ctx)), d)]
    extra += [i for v in ir["vars"] for i in _items(0, _cap(R.var(v, ctx)), v)]
    extra += [i for s in ir["schedules"] for i in _items(0, "Schedule " + R.schedule(s, ctx), s)]
    if extra:
        out.append(("h", 3, "Definitions"))
        out.append(("ul", extra))
    return out


def _parameters(ir: dict[str, Any], ctx: P.Ctx, values: dict[int, dict[str, Any]]) -> list[Block]:
    if not ir["params"]:
        return []
    rows = []
    for p in ir["params"]:
        texts = {n: P._value(v[p["name"]]) for n, v in values.items()}
        rows.append([f"`{p['name']}`", P.say(p["default"], ctx), by_players(texts), escape(p.get("note", ""))])
    return [
        ("h", 2, "Parameters"),
        ("table", ["Parameter", "Default", "Value", "Note"], rows),
        ("p", "Change one with `--set NAME=VALUE`."),
    ]


def parameter_values(ir: dict[str, Any], sets: dict[str, Any] | None = None) -> dict[int, dict[str, Any]]:
    """The parameters' values for each player count the game allows (``sets`` overriding defaults)."""
    game = compile_ir(ir)
    return {n: game.param_values(n, sets or {}) for n in range(ir["players"]["min"], ir["players"]["max"] + 1)}


def deal_tables(ir: dict[str, Any], values: dict[int, dict[str, Any]]) -> list[tuple[dict[str, Any], int, list]]:
    """Each deal to a zone per player, the size of its deck, and its rows for each player count
    (``deal_row``'s: players, hands dealt, cards each, spare hands, the rest)."""
    table, _ = build_cards(ir)
    sizes = Counter(table.deck_of)
    decks = [d["name"] for d in ir["decks"]]
    deals = ir["round"]["deals"]
    zones = {z["name"]: z for z in ir["zones"]}
    out = []
    for i, d in enumerate(deals):
        if zones.get(d["to"], {}).get("owner") != "player":  # a set-up deal: its sentence says it all
            continue
        size = sizes[decks.index(d["deck"])] if d["deck"] in decks else 0
        same = [o["deck"] == d["deck"] for o in deals]
        others = (
            tuple(o for o, s in zip(deals[:i], same, strict=False) if s),
            tuple(o for o, s in zip(deals[i + 1 :], same[i + 1 :], strict=True) if s),
        )
        out.append((d, size, [deal_row(d, n, v, ir, size, others) for n, v in values.items()]))
    return out


def _setup(ir: dict[str, Any], ctx: P.Ctx, values: dict[int, dict[str, Any]]) -> list[Block]:
    out: list[Block] = [("h", 2, "Setup")]
    out.append(("p", "At the start of each round every deck is shuffled and dealt:"))
    deals = ir["round"]["deals"]
    zones = {z["name"]: z for z in ir["zones"]}
    shared = [d for d in deals if zones.get(d["to"], {}).get("owner") != "player"]
    later = {d["deck"] for d in shared}
    said = [F.shared_deal(d, ctx) if d in shared else R.deal(d, ctx, d["deck"] in later) for d in deals]
    out.append(("ul", [i for d, text in zip(deals, said, strict=True) for i in _items(0, _cap(text) + ".", d)]))
    start = ir["round"].get("at_start")
    if start:
        out.append(
            (
                "ul",
                [
                    i
                    for depth, text, note in F.timed_lines(start, "start", "each round", ctx)
                    for i in _items(depth, text, {"note": note})
                ],
            )
        )
    for d, size, rows in deal_tables(ir, values):
        title = f"Dealing to the {P.human(d['to'])} ({size} cards in the {P.human(d['deck'])}):"
        out.append(("p", title))
        out.append(("table", ["Players", "Hands dealt", "Cards each", "Spare hands", "Rest"], rows))
    return out


def _round(ir: dict[str, Any], ctx: P.Ctx) -> list[Block]:
    phases = ir["round"]["phases"]
    names = ", then ".join(P.human(ph["name"]) for ph in phases)
    out: list[Block] = [("h", 2, "A round")]
    out.append(("p", f"A round has {P.count_of(len(phases), 'phase')}: {names}. It ends when its last phase ends."))
    rnd = ir["round"]
    for sentence, loop in F.repeats(rnd, ctx):
        out += _para(sentence, loop)
    if rnd.get("ends"):
        out += _para(F.round_end(rnd, ctx), rnd["ends"])
    for ph in phases:
        head = f"Phase: {P.human(ph['name'])}" + (" (simultaneous)" if ph["simultaneous"] else "")
        out.append(("h", 3, head))
        if ph.get("note"):
            out.append(("note", escape(ph["note"])))
        first = R.first_player(ph.get("first_player"), ctx)
        if ph["simultaneous"]:
            out.append(
                (
                    "p",
                    "Every player moves at the same time, starting from "
                    f"{first}: each makes one move, hidden from the others, and the moves take effect "
                    "together once everyone has chosen. A player with no move is left out."
                    + (" The moves are all revealed before the first takes effect." if ph.get("revealed") else ""),
                )
            )
        else:
            out.append(("p", F.turns_sentence(ph, first, ir)))
        if ph.get("first_player", {}).get("note"):
            out.append(("note", escape(ph["first_player"]["note"])))
        if ph.get("resolve"):
            out += _para(F.resolve_order(ph["resolve"], ctx), ph["resolve"])
        what = f"the phase {P.human(ph['name'])}"
        for when in ("start", "end"):
            if ph.get(f"at_{when}"):
                lines = F.timed_lines(ph[f"at_{when}"], when, what, ctx)
                out.append(("ul", [i for depth, text, note in lines for i in _items(depth, text, {"note": note})]))
        if ph["moves"]:
            out.append(("p", "**Moves.** A player makes one of these moves:"))
        items: list[tuple[int, str]] = []
        for m in ph["moves"]:
            items += _items(0, R.move(m, ctx), m)
            mctx = R.move_ctx(m, ctx)
            allow = [g for g in m["guards"] if g["kind"] == "allow"]
            require = [g for g in m["guards"] if g["kind"] == "require"]
            if not m["guards"]:
                items.append((1, "any such card and place is legal."))
            if allow:
                items.append((1, "legal when at least one of these holds:"))
                items += [i for g in allow for i in _items(2, R.guard(g, mctx), g)]
            if require:
                items.append((1, "and only when every one of these holds:"))
                items += [i for g in require for i in _items(2, R.guard(g, mctx), g)]
        if items:
            out.append(("ul", items))
        if ph["triggers"]:
            out.append(("p", "**After a move.**"))
            items = []
            moves = {m["name"]: m for m in ph["moves"]}
            for t in ph["triggers"]:
                mctx = F.trigger_ctx(t, moves, ctx)
                items += _items(0, R.trigger_head(t, mctx), t)
                for depth, text, note in R.effect_lines(t["effects"], mctx, 1):
                    items += _items(depth, text, {"note": note})
            out.append(("ul", items))
        if ph.get("ends"):
            again = (
                ", read when it starts and each time the chosen moves have all taken effect; until then "
                "every player chooses again"
                if ph["simultaneous"]
                else ""
            )
            out += _para(f"The phase ends when {P.say(ph['ends']['when'], ctx)}{again}.", ph["ends"])
        elif ph["moves"] and not ph.get("ends_when_nobody_can_move"):
            out.append(("p", "The phase ends once every player has moved."))
        if ph.get("ends_when_nobody_can_move"):
            also = "It also ends" if ph.get("ends") else "The phase ends"
            out += _para(f"{also} when no player has a legal move.", ph["ends_when_nobody_can_move"])
    end = ir["round"].get("at_end")
    if end:
        lines = F.timed_lines(end, "end", "each round, before scoring", ctx)
        out.append(("ul", [i for depth, text, note in lines for i in _items(depth, text, {"note": note})]))
    return out


def _named_blocks(ir: dict[str, Any], ctx: P.Ctx) -> list[Block]:
    """`effect NAME`: each named block's effects once, under its name (the rules say `Do *name*`)."""
    out: list[Block] = [("h", 2, "Effects by name")] if ir.get("blocks") else []
    for b in ir.get("blocks", ()):
        out.append(("h", 3, f"Effect: {P.human(b['name'])}"))
        if b.get("note"):
            out.append(("note", escape(b["note"])))
        lines = R.effect_lines(b["effects"], ctx)
        out.append(("ul", [i for depth, text, note in lines for i in _items(depth, text, {"note": note})]))
    return out


def _players_sentence(ir: dict[str, Any]) -> str:
    """ "For 3 to 6 players.", with how teams sit and, when rules name seats, how they are numbered."""
    low, high = ir["players"]["min"], ir["players"]["max"]
    text = f"For {low} to {high} players" if low != high else f"For {low} players"
    if ir.get("teams"):
        text += ", " + teams_sentence(ir["teams"], low, high)
    text += "."
    if ir.get("teams") or _uses(ir, "seat"):
        text += " Seats are numbered clockwise from 0, the first dealer's."
    return text


def _uses(node: Any, op: str) -> bool:
    """Whether an IR subtree holds an expression of operator ``op``."""
    if isinstance(node, dict):
        return node.get("op") == op or any(_uses(v, op) for v in node.values())
    return isinstance(node, list) and any(_uses(v, op) for v in node)


def _scoring(ir: dict[str, Any], ctx: P.Ctx) -> list[Block]:
    rules = ir["round"]["score"]
    mine, teams = [r for r in rules if not r.get("team")], [r for r in rules if r.get("team")]
    out: list[Block] = [("h", 2, "Scoring")]
    if mine:
        out.append(("p", "At the end of each round, each player scores the sum of:"))
        out.append(("ul", [i for r in mine for i in _items(0, _cap(R.score_rule(r, ctx)) + ".", r)]))
    if teams:
        out.append(("p", f"At the end of each round, each team {'also ' if mine else ''}scores the sum of:"))
        out.append(("ul", [i for r in teams for i in _items(0, _cap(R.score_rule(r, ctx)) + ".", r)]))
        out.append(("p", "A team's points are written on its first (lowest) seat."))
    out.append(("p", "A player's round scores add up to their total."))
    if ir.get("teams"):
        out.append(("p", "A team's total is its players' totals together."))
    return out


def _end(ir: dict[str, Any], ctx: P.Ctx, values: dict[int, dict[str, Any]]) -> list[Block]:
    g = ir["game"]
    lasts = _lasts(g, ctx, values) if "rounds" in g else None
    sentence = f"{F.game_end(g, ctx, lasts)}; {R.game_dealer(g)}. At the end, {R.game_winner(g, ir.get('teams'), ctx)}."
    bound = R.game_max_moves(g)
    if bound:
        sentence += f" ({bound[0].upper()}{bound[1:]}.)"
    return [("h", 2, "End of the game"), *_para(sentence, g)]


CHECK_WORDS = {"always": "Always", "never": "Never", "sometimes": "Sometimes"}


def _checks(ir: dict[str, Any], ctx: P.Ctx) -> list[Block]:
    """The rules' own checks (`checks`): what must always, never or sometimes hold."""
    checks = ir.get("checks") or []
    if not checks:
        return []
    out: list[Block] = [("h", 2, "What the rules promise")]
    out.append(("p", "The designer checks these in every situation of play (`ruleset verify`):"))
    out.append(("ul", [i for c in checks for i in _items(0, f"{CHECK_WORDS[c['kind']]}: {P.say(c['if'], ctx)}.", c)]))
    return out


def _lasts(g: dict[str, Any], ctx: P.Ctx, values: dict[int, dict[str, Any]]) -> str:
    """How many rounds the game lasts, by number of players."""
    texts = {}
    for n, v in values.items():
        try:
            texts[n] = str(evaluate(g["rounds"], n, v, {}))
        except (_Unknown, TypeError, ZeroDivisionError):
            texts[n] = "?"
    rounds = P.say(g["rounds"], P.Ctx(ctx.zones))
    counted = by_players(texts)
    word = "round" if counted == "1" else "rounds"
    if rounds == counted:
        return f"{counted} {word}"
    if len(set(texts.values())) == 1:
        return f"{counted} {word} ({rounds})"
    return f"{rounds} rounds: {counted}"


# ---- writers ----------------------------------------------------------------------------------------------


def to_markdown(blocks: list[Block]) -> str:
    """The rulebook as markdown."""
    out: list[str] = []
    for block in blocks:
        match block:
            case ("h", level, text):
                out.append(f"{'#' * level} {text}")
            case ("p", text):
                out.append(text)
            case ("note", text):
                out.append(f"> **Note:** {text}")
            case ("ul", items):
                out.append("\n".join(f"{'  ' * depth}- {text}" for depth, text in items))
            case ("table", head, rows):
                lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
                lines += ["| " + " | ".join(rows_cell for rows_cell in row) + " |" for row in rows]
                out.append("\n".join(lines))
            case ("pre", text):
                out.append(f"```rules\n{text.rstrip()}\n```")
    return "\n\n".join(out) + "\n"


_INLINE = re.compile(r"\\(.)|`([^`]*)`|\*\*(.+?)\*\*|\*(.+?)\*", re.S)


def inline_html(text: str) -> str:
    """Our inline markup (`code`, **strong**, *em*, backslash escapes) as HTML."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos : m.start()]))
        if m.group(1) is not None:
            out.append(html.escape(m.group(1)))
        elif m.group(2) is not None:
            out.append(f"<code>{html.escape(m.group(2))}</code>")
        elif m.group(3) is not None:
            out.append(f"<strong>{inline_html(m.group(3))}</strong>")
        else:
            out.append(f"<em>{inline_html(m.group(4))}</em>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def highlight(source: str) -> tuple[str, str]:
    """Rules text as highlighted HTML and its CSS (with Pygments), or a plain <pre> without it."""
    try:
        from pygments import highlight as pyg_highlight
        from pygments.formatters import HtmlFormatter

        from .lexer import RulesLexer
    except ImportError:
        return f"<pre>{html.escape(source)}</pre>", ""
    formatter = HtmlFormatter(cssclass="highlight")
    return pyg_highlight(source, RulesLexer(), formatter), formatter.get_style_defs(".highlight")


CSS = """body { font-family: Georgia, serif; max-width: 50em; margin: 2em auto; line-height: 1.45; padding: 0 1em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: .3em .6em; text-align: left; vertical-align: top; }
blockquote { border-left: 3px solid #bbb; margin-left: 0; padding-left: 1em; color: #444; }
code, pre { font-family: Menlo, Consolas, monospace; font-size: 90%; }
pre { background: #f6f6f6; padding: .8em; overflow-x: auto; }"""


def _html_list(items: list[tuple[int, str]]) -> str:
    out, depth = ["<ul>"], 0
    for i, (d, text) in enumerate(items):
        while depth < d:
            out.append("<ul>")
            depth += 1
        while depth > d:
            out.append("</ul></li>")
            depth -= 1
        nxt = items[i + 1][0] if i + 1 < len(items) else 0
        out.append(f"<li>{inline_html(text)}" + ("" if nxt > d else "</li>"))
    while depth > 0:
        out.append("</ul></li>")
        depth -= 1
    out.append("</ul>")
    return "\n".join(out)


def to_html(blocks: list[Block]) -> str:
    """The rulebook as a standalone HTML page."""
    body, styles = [], [CSS]
    title = next((b[2] for b in blocks if b[0] == "h" and b[1] == 1), "Rules")
    for block in blocks:
        match block:
            case ("h", level, text):
                body.append(f"<h{level}>{inline_html(text)}</h{level}>")
            case ("p", text):
                body.append(f"<p>{inline_html(text)}</p>")
            case ("note", text):
                body.append(f"<blockquote><strong>Note:</strong> {inline_html(text)}</blockquote>")
            case ("ul", items):
                body.append(_html_list(items))
            case ("table", head, rows):
                cells = "".join(f"<th>{inline_html(h)}</th>" for h in head)
                lines = [f"<table>\n<tr>{cells}</tr>"]
                lines += ["<tr>" + "".join(f"<td>{inline_html(c)}</td>" for c in row) + "</tr>" for row in rows]
                body.append("\n".join(lines) + "\n</table>")
            case ("pre", text):
                code, css = highlight(text)
                body.append(code)
                if css:
                    styles.append(css)
    style = "\n".join(styles)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{inline_html(title)}</title>\n<style>\n{style}\n</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def render(
    ir: dict[str, Any], fmt: str = "markdown", sets: dict[str, Any] | None = None, source_text: str | None = None
) -> str:
    """The rulebook of an IR as markdown or HTML."""
    blocks = rulebook(ir, sets, source_text)
    return to_html(blocks) if fmt == "html" else to_markdown(blocks)
