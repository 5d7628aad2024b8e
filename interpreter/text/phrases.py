"""IR to words: each expression, effect and rule of the resolved rules as a rulebook phrase.

One dispatch per IR construct (no game is named here), so any ruleset reads back as text.
Phrases carry a little inline markup that both the markdown and the HTML writers understand:
`code` for parameters (what `--set` changes) and *emphasis* for names the ruleset defines.
`render.py` lays the phrases out as a rulebook; `diff.py` compares rules in the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CMP_WORDS = {
    "=": "is",
    "!=": "is not",
    ">": "is more than",
    "<": "is less than",
    ">=": "is at least",
    "<=": "is at most",
}
ARITH = {"+": "+", "-": "−", "*": "×", "/": "÷"}
ARITH_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}
PICK = {"first": "the first", "last": "the last", "best": "the best", "worst": "the worst"}
BUILTIN_WORDS = {"players": "the number of players", "round": "the round number", "dealer": "the dealer"}
BOUND_WORDS = {"player": "the player", "card": "the card", "it": "it", "pile": "the pile"}
VISIBILITY = {
    "public": "face up: everyone sees it",
    "owner": "only its owner sees it",
    "hidden": "face down: nobody sees it",
}


def human(name: str) -> str:
    """A declared name as words: `draw_pile` reads "draw pile"."""
    return name.replace("_", " ")


def plural(noun: str) -> str:
    """A plain English plural of a noun phrase (its last word)."""
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


def count_of(n: int, noun: str) -> str:
    """ "1 card", "5 cards"."""
    return f"{n} {noun if n == 1 else plural(noun)}"


@dataclass
class Ctx:
    """What the phrases know besides the node: zones, parameter values, what bound names stand for."""

    zones: dict[str, dict[str, Any]] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)  # parameter -> value in force (render only)
    bound: dict[str, str] = field(default_factory=dict)  # bound name -> its words (target -> "the pot")
    schedules: dict[str, str] = field(default_factory=dict)  # schedule -> its values (render only)

    @classmethod
    def of(cls, ir: dict[str, Any], values: dict[str, Any] | None = None) -> Ctx:
        """The context of a whole IR."""
        return cls({z["name"]: z for z in ir.get("zones", [])}, dict(values or {}))

    def with_bound(self, **names: str) -> Ctx:
        """A copy in which some bound names read differently."""
        return Ctx(self.zones, self.values, {**self.bound, **names}, self.schedules)


# ---- expressions --------------------------------------------------------------------------------


def say(node: Any, ctx: Ctx | None = None) -> str:
    """An IR expression as words."""
    ctx = ctx or Ctx()
    if not isinstance(node, dict):
        return str(node)
    handler = EXPR.get(node.get("op", ""))
    return handler(node, ctx) if handler else node.get("op", "?")


def _text(v: Any) -> str:
    return f"“{v}”" if isinstance(v, str) and not v.replace("_", "").isalnum() else human(str(v))


def _bound(n, ctx):  # card, player, it, winner (a let)
    name = n["name"]
    if name in ctx.bound:
        return ctx.bound[name]
    return BOUND_WORDS.get(name, f"*{human(name)}*")


def _param(n, ctx):  # limit
    name = n["name"]
    if name in ctx.values:
        return f"`{name}` ({_value(ctx.values[name])})"
    return f"`{name}`"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _of_whom(what: str, whose: dict[str, Any], ctx: Ctx) -> str:
    """ "the player's hand", "the won of *winner*"."""
    owner = say(whose, ctx)
    if owner in ("the player", "the card", "the dealer"):
        return f"{owner}'s {what}"
    return f"the {what} of {owner}"


def _zone(n, ctx):  # hand of player, trick
    if n.get("of") is None:
        return f"the {human(n['name'])}"
    return _of_whom(human(n["name"]), n["of"], ctx)


def _zones(n, ctx):  # pot (every instance), hand (every player's)
    zone = ctx.zones.get(n["name"], {})
    if zone.get("owner") == "player":
        return f"every player's {human(n['name'])}"
    return f"every {human(n['name'])}"


def _attr(n, ctx):  # color of card
    return _named_of(human(n["name"]), n["of"], ctx)


def _named_of(name: str, of: Any, ctx: Ctx) -> str:
    if isinstance(of, dict) and of.get("op") == "bound" and of["name"] == "it" and "it" not in ctx.bound:
        return f"its {name}"
    if of is None:
        return name
    return _of_whom(name, of, ctx)


def _call(n, ctx):  # led, color of target
    if n.get("arg") is None:
        return f"*{human(n['name'])}*"
    return _named_of(f"*{human(n['name'])}*", n["arg"], ctx)


def _var(n, ctx):  # points of leader
    return _named_of(human(n["name"]), n.get("of"), ctx) if n.get("of") else f"the {human(n['name'])}"


def _cmp(n, ctx):  # sum of value in target > limit
    return f"{say(n['left'], ctx)} {CMP_WORDS[n['cmp']]} {say(n['right'], ctx)}"


def _not(n, ctx):  # not card is wild
    inner = n["of"]
    op = inner.get("op")
    if op == "is_type":
        return f"{say(inner['of'], ctx)} is not {_article(human(inner['type']))} card"
    if op == "is_none":
        return f"{say(inner['of'], ctx)} is not none"
    if op == "is_empty":
        return f"{say(inner['of'], ctx)} is not empty"
    if op == "achieved":
        return f"{say(inner['of'], ctx)} is not achieved"
    if op == "cmp" and inner["cmp"] == "=":
        return f"{say(inner['left'], ctx)} is not {say(inner['right'], ctx)}"
    return f"not ({say(inner, ctx)})"


def _article(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _junction(n, ctx):  # a and b, a or b
    word = f" {n['op']} "
    parts = []
    for arg in n["args"]:
        text = say(arg, ctx)
        if arg.get("op") in ("and", "or") and arg["op"] != n["op"]:
            text = f"({text})"
        parts.append(text)
    return word.join(parts)


def _else(n, ctx):  # color of first gem in it else none
    return ", else ".join(say(a, ctx) for a in n["args"])


def _if(n, ctx):  # if players = 3 then 2 * players else players
    return f"if {say(n['cond'], ctx)} then {say(n['then'], ctx)}, else {say(n['else'], ctx)}"


def _neg(n, ctx):  # -1
    inner = n["of"]
    if inner.get("op") == "num":
        return f"-{inner['value']}"
    return f"minus {say(inner, ctx)}"


def _arith(n, ctx):  # 2 * players
    prec = ARITH_PREC[n["sym"]]
    left, right = say(n["left"], ctx), say(n["right"], ctx)
    if n["left"].get("op") == "arith" and ARITH_PREC[n["left"]["sym"]] < prec:
        left = f"({left})"
    if n["right"].get("op") == "arith" and ARITH_PREC[n["right"]["sym"]] <= prec:
        right = f"({right})"
    return f"{left} {ARITH[n['sym']]} {right}"


def _pick(n, ctx):  # first gem in it
    sing, _, qual = coll(n["of"], ctx)
    return f"{PICK[n['op']]} {sing}{qual}"


def _count(n, ctx):  # count trick
    _, plu, qual = coll(n["of"], ctx)
    return f"the number of {plu}{qual}"


def _aggregate(n, ctx):  # sum of value in target
    _, plu, qual = coll(n["of"], ctx)
    attr = human(n["attr"])
    return {
        "sum": f"the total {attr} of the {plu}{qual}",
        "max": f"the highest {attr} among the {plu}{qual}",
        "min": f"the lowest {attr} among the {plu}{qual}",
        "distinct": f"the number of different {plural(attr)} among the {plu}{qual}",
    }[n["op"]]


def _some(n, ctx):  # some card in hand of player where ...
    sing, _, qual = coll(n["of"], ctx)
    return f"there is {_article(sing)}{qual}" if n["op"] == "some" else f"there is no {sing}{qual}"


def _all_empty(n, ctx):  # every hand is empty
    sing, _, qual = coll(n["of"], ctx)
    return f"every {sing}{qual} is empty"


def _most(n, ctx):  # strictly most count gem in won of player
    if n["strict"]:
        return f"{say(n['of'], ctx)} is strictly the most of all players (on a tie for the most, for nobody)"
    return f"{say(n['of'], ctx)} is the most of all players (a tie for the most counts)"


def _cards_phrase(n, ctx):  # a collection used as a value: the cards in the pot
    _, plu, qual = coll(n, ctx)
    return f"the {plu}{qual}"


def _is_empty(n, ctx):  # draw_pile is empty
    of = n["of"]
    if of.get("op") == "cards" and of.get("type") is None and of.get("source") == "zone":
        return f"{say(of['from'], ctx)} is empty"
    return f"{say(of, ctx)} is empty"


EXPR: dict[str, Any] = {
    "num": lambda n, ctx: str(n["value"]),  # 12
    "text": lambda n, ctx: _text(n["value"]),  # red, "Suicide Bid"
    "none": lambda n, ctx: "none",  # none
    "bound": _bound,
    "builtin": lambda n, ctx: BUILTIN_WORDS.get(n["name"], n["name"]),  # players
    "param": _param,
    "schedule": lambda n, ctx: (
        f"this round's `{n['name']}`" + (f" ({ctx.schedules[n['name']]})" if n["name"] in ctx.schedules else "")
    ),  # size
    "var": _var,
    "total": lambda n, ctx: _of_whom("total", n["of"], ctx),  # total of player
    "call": _call,
    "zone": _zone,
    "zones": _zones,
    "cards": _cards_phrase,
    "of_type": _cards_phrase,
    "piles": _cards_phrase,
    "filter": _cards_phrase,
    "except": _cards_phrase,
    "count": _count,
    "sum": _aggregate,
    "max": _aggregate,
    "min": _aggregate,
    "distinct": _aggregate,
    "first": _pick,
    "last": _pick,
    "best": _pick,
    "worst": _pick,
    "some": _some,
    "no": _some,
    "all_empty": _all_empty,
    "is_empty": _is_empty,
    "is_none": lambda n, ctx: f"{say(n['of'], ctx)} is none",
    "is_type": lambda n, ctx: f"{say(n['of'], ctx)} is {_article(human(n['type']))} card",
    "achieved": lambda n, ctx: f"{say(n['of'], ctx)} is achieved",
    "most": _most,
    "cmp": _cmp,
    "not": _not,
    "and": _junction,
    "or": _junction,
    "attr": _attr,
    "player_of": lambda n, ctx: f"the player who played {say(n['of'], ctx)}",
    "owner_of": lambda n, ctx: f"the owner of {say(n['of'], ctx)}",
    "else": _else,
    "if": _if,
    "neg": _neg,
    "arith": _arith,
}


def coll(node: dict[str, Any], ctx: Ctx) -> tuple[str, str, str]:
    """A collection as (one element, several elements, qualifier): ("gem card", "gem cards", " in it")."""
    op = node.get("op")
    if op == "cards":  # gem in kept of player
        noun = f"{human(node['type'])} card" if node.get("type") else "card"
        return noun, plural(noun), f" in {_place(node['from'], ctx)}"
    if op == "of_type":  # gem in (cards ...)
        noun = f"{human(node['type'])} card" if node.get("type") else "card"
        return noun, plural(noun), f" among {say(node['of'], ctx)}"
    if op == "piles":  # pile in won of player
        return "pile", "piles", f" in {_place(node['from'], ctx)}"
    if op == "zones":  # pot
        zone = ctx.zones.get(node["name"], {})
        noun = human(node["name"])
        if zone.get("owner") == "player":
            return f"player's {noun}", f"players' {plural(noun)}", ""
        return noun, plural(noun), ""
    if op == "filter":  # X where ...
        sing, plu, qual = coll(node["of"], ctx)
        return sing, plu, qual + " " + _where(node["where"], ctx)
    if op == "except":  # X except card
        sing, plu, qual = coll(node["of"], ctx)
        return sing, plu, f"{qual} except {say(node['value'], ctx)}"
    return "card", "cards", f" in {say(node, ctx)}"


def _place(node: dict[str, Any], ctx: Ctx) -> str:
    if node.get("op") == "zones":
        zone = ctx.zones.get(node["name"], {})
        noun = human(node["name"])
        return f"the players' {plural(noun)}" if zone.get("owner") == "player" else f"the {plural(noun)}"
    return say(node, ctx)


def _where(cond: dict[str, Any], ctx: Ctx) -> str:
    """A filter's condition: "whose color is red" when it tests an attribute of the element."""
    left = cond.get("left") if cond.get("op") == "cmp" else None
    if left and left.get("op") in ("attr", "call", "var", "total"):
        of = left.get("of", left.get("arg"))
        if isinstance(of, dict) and of.get("op") == "bound" and of["name"] == "it":
            name = human(left["name"]) if left["op"] != "total" else "total"
            if left["op"] == "call":
                name = f"*{name}*"
            return f"whose {name} {CMP_WORDS[cond['cmp']]} {say(cond['right'], ctx)}"
    return f"where {say(cond, ctx)}"


# ---- effects and rules ------------------------------------------------------------------------------


def effect_lines(effects: list[dict[str, Any]], ctx: Ctx, depth: int = 0) -> list[tuple[int, str, str | None]]:
    """Effects as (depth, sentence, note) lines; `if` nests its branches one level deeper."""
    out: list[tuple[int, str, str | None]] = []
    for eff in effects:
        note = eff.get("note")
        if eff["do"] == "if":
            out.append((depth, f"If {say(eff['cond'], ctx)}:", note))
            out += effect_lines(eff["then"], ctx, depth + 1)
            if eff["else"]:
                out.append((depth, "Otherwise:", None))
                out += effect_lines(eff["else"], ctx, depth + 1)
        else:
            out.append((depth, effect(eff, ctx), note))
    return out


def effect(eff: dict[str, Any], ctx: Ctx) -> str:
    """One effect (not an `if`) as a sentence."""
    match eff["do"]:
        case "move":  # move cards in target except card to collected of player
            pile = " as one pile" if eff.get("one_pile") else ""
            return f"Move {_moved(eff['what'], ctx)} to {say(eff['to'], ctx)}{pile}."
        case "draw":  # draw 1 from draw_pile to hand of player
            n = eff["count"]
            amount = count_of(n["value"], "card") if n.get("op") == "num" else f"{say(n, ctx)} cards"
            return f"Draw {amount} from {say(eff['from'], ctx)} to {say(eff['to'], ctx)}, while any are left."
        case "let":  # let leader = player of best_card
            return f"Let *{human(eff['name'])}* be {say(eff['value'], ctx)}."
        case "set":  # set chosen to red
            return f"Set {_var_target(eff, ctx)} to {say(eff['value'], ctx)}."
        case "add":  # add 1 to points of leader
            return f"Add {say(eff['value'], ctx)} to {_var_target(eff, ctx)}."
        case "next":  # next winner
            return f"{_cap(say(eff['player'], ctx))} moves next."
        case "if":
            return " ".join(line for _, line, _ in effect_lines([eff], ctx))
    return str(eff["do"])


def _moved(what: dict[str, Any], ctx: Ctx) -> str:
    if what.get("op") in ("zone", "zones", "bound") or what.get("op") in PICK:
        return f"the cards of {say(what, ctx)}" if what.get("op") in ("zone", "zones") else say(what, ctx)
    return say(what, ctx)


def _var_target(eff: dict[str, Any], ctx: Ctx) -> str:
    name = human(eff["var"])
    return _of_whom(name, eff["of"], ctx) if eff.get("of") else f"the {name}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def attribute_values(attr: dict[str, Any]) -> str:
    """An attribute's values with their copies: "red, blue or violet", "1 x3, 2 x3"."""
    vals = attr["values"]
    parts = [_text(v["value"]) + (f" ×{v['copies']}" if v["copies"] != 1 else "") for v in vals]
    numbers = all(isinstance(v["value"], int) for v in vals)
    if len(parts) > 2 and numbers and all(v["copies"] == vals[0]["copies"] for v in vals):
        values = [v["value"] for v in vals]
        if values == list(range(values[0], values[-1] + 1)):
            return f"{values[0]} to {values[-1]}" + (f", ×{vals[0]['copies']} each" if vals[0]["copies"] != 1 else "")
    if numbers or len(parts) == 1:
        return ", ".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def card_line(line: dict[str, Any], ctx: Ctx) -> str:
    """A deck line: "gem: color red or blue; value 1 x3, 2 x3 ..."."""
    attrs = "; ".join(f"{human(a['name'])} {attribute_values(a)}" for a in line["attributes"])
    text = f"{human(line['type'])}: {attrs}" if attrs else human(line["type"])
    text += f" — {line_copies(line)} cards"
    if line.get("achieved") is not None:
        text += f"; achieved when {say(line['achieved'], ctx.with_bound())}"
    return text


def line_copies(line: dict[str, Any]) -> int:
    """How many cards a deck line makes (the product of its attributes' copies)."""
    total = 1
    for a in line["attributes"]:
        total *= sum(v["copies"] for v in a["values"])
    return total


def per_value(line: dict[str, Any]) -> str:
    """The copies of a line by its enumerated attribute: "14 per color" (or just the total)."""
    total = line_copies(line)
    for a in line["attributes"]:
        if len(a["values"]) > 1 and all(v["copies"] == 1 for v in a["values"]):
            return f"{total // len(a['values'])} per {human(a['name'])}"
    return str(total)


def zone(z: dict[str, Any]) -> str:
    """A zone: who holds it, how many, who sees it, piles."""
    if z["owner"] == "player":
        where = "one per player"
    elif z["count"] > 1:
        where = f"{z['count']}, shared"
    else:
        where = "one, shared"
    text = f"{human(z['name'])}: {where}; {VISIBILITY[z['visibility']]}"
    if z["visibility"] == "hidden" and z["owner"] == "player":
        text += ", not even its owner"
    if z.get("revealed"):
        text += "; everyone sees it once the round is scored"
    if z.get("piles"):
        text += "; its cards are kept as separate piles"
    return text


def deal(d: dict[str, Any], ctx: Ctx) -> str:
    """A deal line: "all cards, one at a time from the dealer's left, to each player's hand; ..."."""
    amount = d.get("amount")
    if amount is None:
        text = "all cards"
    elif amount.get("op") == "num":
        text = f"{count_of(amount['value'], 'card')} each"
    else:
        text = f"{say(amount, ctx)} cards each"
    if d.get("deck", "deck") != "deck":
        text += f" from the {human(d['deck'])} deck"
    text += ", one at a time from the dealer's left" if d.get("one_at_a_time") else ", in one packet each"
    text += f", into each player's {human(d['to'])}"
    if d.get("as_players") is not None:
        seats = say(d["as_players"], ctx)
        when = d.get("as_players_when")
        cond = f"when {say(when, ctx)}, " if when is not None else ""
        text += f"; {cond}deal as if for {seats} players and remove the spare hands unseen"
    if d.get("rest"):
        rest = ctx.zones.get(d["rest"], {})
        face = {"hidden": ", face down", "public": ", face up"}.get(rest.get("visibility", ""), "")
        text += f"; the rest form the {human(d['rest'])}{face}"
    elif amount is not None:
        text += "; the rest are set aside unseen"
    return text


def move(m: dict[str, Any], ctx: Ctx) -> str:
    """A move rule's header: "play: a card from the player's hand to a pot"."""
    src, dst = ctx.zones.get(m["from"], {}), ctx.zones.get(m["to"], {})
    return f"{human(m['name'])}: a card from {_zone_ref(m['from'], src)} to {_zone_ref(m['to'], dst, 'a')}"


def _zone_ref(name: str, z: dict[str, Any], article: str = "the") -> str:
    if z.get("owner") == "player":
        return f"the player's {human(name)}"
    if z.get("count", 1) > 1:
        return f"{_article(human(name)) if article == 'a' else 'the ' + human(name)}"
    return f"the {human(name)}"


def move_ctx(m: dict[str, Any], ctx: Ctx) -> Ctx:
    """The context of a move's guards and triggers: the target reads as the zone it names."""
    z = ctx.zones.get(m["to"], {})
    target = f"the player's {human(m['to'])}" if z.get("owner") == "player" else f"the {human(m['to'])}"
    return ctx.with_bound(target=target)


def guard(g: dict[str, Any], ctx: Ctx) -> str:
    """An allow or require guard."""
    text = say(g["expr"], ctx)
    if g.get("when") is not None:
        text += f", whenever {say(g['when'], ctx)}"
    return text


def trigger_head(t: dict[str, Any], ctx: Ctx) -> str:
    """A trigger's first line: "After each play, if ...:"."""
    cond = f", if {say(t['if'], ctx)}" if t.get("if") is not None else ""
    return f"After each {human(t['after'])}{cond}:"


def trigger(t: dict[str, Any], ctx: Ctx) -> str:
    """A whole trigger on one line (for diffs)."""
    body = " ".join(line for _, line, _ in effect_lines(t["effects"], ctx))
    return f"{trigger_head(t, ctx)} {body}"


def first_player(fp: dict[str, Any] | None, ctx: Ctx) -> str:
    """Who moves first in a phase."""
    if not fp or not fp.get("keys"):
        return "the player at the dealer's left"
    parts = []
    for i, key in enumerate(fp["keys"]):
        head = "the player for whom" if i == 0 else "on a tie, for whom"
        parts.append(f"{head} {say(key['key'], ctx)} is {key['extreme']}")
    return "; ".join(parts) + "; still tied, the first of them clockwise from the dealer's left"


def score_rule(r: dict[str, Any], ctx: Ctx) -> str:
    """A scoring rule: "each gem card in the player's kept: -1, unless ..."."""
    if r.get("each") is not None:
        sing, _, qual = coll(r["each"], ctx)
        text = f"each {sing}{qual}: {say(r['points'], ctx)}"
    else:
        text = say(r["points"], ctx)
    if r.get("if") is not None:
        text += f", if {say(r['if'], ctx)}"
    if r.get("unless") is not None:
        text += f", unless {say(r['unless'], ctx)}"
    return text


def define(d: dict[str, Any], ctx: Ctx) -> str:
    """A definition: "the *color* of a pot is the color of the first gem card in it, else none"."""
    if d.get("of"):
        return f"the *{human(d['name'])}* of {_article(human(d['of']))} is {say(d['body'], ctx)}"
    return f"*{human(d['name'])}* is {say(d['body'], ctx)}"


def var(v: dict[str, Any], ctx: Ctx) -> str:
    """A variable: whose it is, when it resets, where it starts."""
    whose = "one for each player" if v["per_player"] else "one for the game"
    reset = ", set back each round" if v["per_round"] else ""
    return f"{human(v['name'])}: {whose}{reset}, starting at {say(v['init'], ctx)}"


def schedule_values(s: dict[str, Any], ctx: Ctx) -> str:
    """A schedule's values by round: "9, 6, 3, repeated"."""
    return ", ".join(say(v, ctx) for v in s["values"]) + (", repeated" if s["repeated"] else "")


def schedule(s: dict[str, Any], ctx: Ctx) -> str:
    """A schedule: its name and values by round."""
    return f"`{s['name']}`: {schedule_values(s, ctx)}"


def param(p: dict[str, Any], ctx: Ctx) -> str:
    """A parameter and its default."""
    return f"`{p['name']}` = {say(p['default'], Ctx(ctx.zones))}"


def game_rounds(g: dict[str, Any], ctx: Ctx) -> str:
    """The number of rounds."""
    return f"the game lasts {say(g['rounds'], ctx)} rounds"


def game_dealer(g: dict[str, Any]) -> str:
    """How the dealer passes."""
    return f"the dealer passes {g.get('dealer', 'clockwise')} after each round"


def game_winner(g: dict[str, Any]) -> str:
    """Who wins."""
    return f"the player with the {g['winner']} total wins; tied players share the win"
