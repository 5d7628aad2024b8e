"""IR to words: each expression of the resolved rules as a rulebook phrase (the rules around
them, effects, moves, scoring..., are phrased by rule_phrases.py with these words).

One dispatch per IR construct (no game is named here), so any ruleset reads back as text.
Phrases carry a little inline markup that both the markdown and the HTML writers understand:
`code` for parameters (what `--set` changes) and *emphasis* for names the ruleset defines.
`render.py` lays the phrases out as a rulebook; `diff.py` compares rules in the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import value_phrases
from .value_phrases import call_words

CMP_WORDS = {
    "=": "is",
    "!=": "is not",
    ">": "is more than",
    "<": "is less than",
    ">=": "is at least",
    "<=": "is at most",
}
ARITH = {"+": "+", "-": "−", "*": "×", "/": "÷", "%": "modulo"}
ARITH_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2}
PICK = {"first": "the first", "last": "the last", "best": "the best", "worst": "the worst"}
BUILTIN_WORDS = {"players": "the number of players", "round": "the round number", "dealer": "the dealer"}
BOUND_WORDS = {"player": "the player", "card": "the card", "it": "it", "pile": "the pile"}
VISIBILITY = {
    "public": "face up: everyone sees it",
    "owner": "only its owner sees it",
    "hidden": "face down: nobody sees it",
    "others": "everyone but its owner sees it (held facing out)",
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
    owner = grouped(whose, ctx)  # ("the hand of (the scum, else the dealer)")
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
    if n.get("args"):
        return call_words(n, ctx)
    if n.get("arg") is None:
        return f"*{human(n['name'])}*"
    return _named_of(f"*{human(n['name'])}*", n["arg"], ctx)


def _var(n, ctx):  # points of leader
    return _named_of(human(n["name"]), n.get("of"), ctx) if n.get("of") else f"the {human(n['name'])}"


def _cmp(n, ctx):  # sum of value in target > limit
    if n.get("status"):  # target is protected
        return f"{say(n['left']['of'], ctx)} is {human(n['left']['name'])}"
    return f"{operand(n['left'], ctx)} {CMP_WORDS[n['cmp']]} {operand(n['right'], ctx)}"


def operand(node: dict[str, Any], ctx: Ctx) -> str:
    """A side of a comparison or a test: in parentheses if its words run on with commas ("(the rank of
    the top card, else 0) is less than the card's rank", not "..., else 0 is less than ...")."""
    text = say(node, ctx)
    return f"({text})" if node.get("op") in COMPOUND else text


def _not(n, ctx):  # not card is wild
    inner = n["of"]
    op = inner.get("op")
    if op == "is_type":
        return f"{say(inner['of'], ctx)} is not {_article(human(inner['type']))} card"
    if op == "is_none":
        return f"{operand(inner['of'], ctx)} is not none"
    if op == "is_empty":
        return f"{say(_emptied(inner['of']), ctx)} is not empty"
    if op == "achieved":
        return f"{say(inner['of'], ctx)} is not achieved"
    if op == "eliminated":
        return f"{say(inner['of'], ctx)} is not eliminated"
    if inner.get("status"):
        return f"{say(inner['left']['of'], ctx)} is not {human(inner['left']['name'])}"
    if op == "cmp" and inner["cmp"] == "=":
        return f"{operand(inner['left'], ctx)} is not {operand(inner['right'], ctx)}"
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
    then = say(n["then"], ctx)
    if n["then"].get("op") in COMPOUND:  # (a choice inside a choice's first branch: grouped)
        then = f"({then})"
    return f"{then} if {say(n['cond'], ctx)}, else {say(n['else'], ctx)}"


def _neg(n, ctx):  # -1
    inner = n["of"]
    if inner.get("op") == "num":
        return f"-{inner['value']}"
    return f"minus {grouped(inner, ctx)}"


# Values whose words run on with commas (`20 if A, else 0`, `x, else y`): grouped in parentheses
# where they are a part of a larger value, or the reader cannot tell where they end.
COMPOUND = ("if", "else")


def grouped(node: dict[str, Any], ctx: Ctx) -> str:
    """A value as a part of a larger one: in parentheses if it is a sum or a choice."""
    text = say(node, ctx)
    return f"({text})" if node.get("op") in ("arith", *COMPOUND) else text


def _arith(n, ctx):  # 2 * players
    prec = ARITH_PREC[n["sym"]]
    left, right = say(n["left"], ctx), say(n["right"], ctx)
    if n["left"].get("op") in COMPOUND or (n["left"].get("op") == "arith" and ARITH_PREC[n["left"]["sym"]] < prec):
        left = f"({left})"
    if n["right"].get("op") in COMPOUND or (n["right"].get("op") == "arith" and ARITH_PREC[n["right"]["sym"]] <= prec):
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
    return f"{say(_emptied(n['of']), ctx)} is empty"


def _emptied(of: dict[str, Any]) -> dict[str, Any]:
    """What `X is empty` is said of: the zone itself when X is all its cards (`draw_pile`)."""
    if of.get("op") == "cards" and of.get("type") is None and of.get("source") == "zone":
        return of["from"]
    return of


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
    "union": _cards_phrase,
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
    "is_none": lambda n, ctx: f"{operand(n['of'], ctx)} is none",
    "is_type": lambda n, ctx: f"{say(n['of'], ctx)} is {_article(human(n['type']))} card",
    "achieved": lambda n, ctx: f"{say(n['of'], ctx)} is achieved",
    "eliminated": lambda n, ctx: f"{say(n['of'], ctx)} is eliminated",
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
    if op == "union":  # (issue 30) discard + pile
        places = [_place(x["from"], ctx) if x.get("op") == "cards" else say(x, ctx) for x in node["args"]]
        return "card", "cards", f" in {' and '.join(places)}"
    text = say(node, ctx)
    if text.startswith("the cards "):  # cards named as such ("the cards chosen to lay"): not "cards in the cards"
        return "card", "cards", text.removeprefix("the cards")
    return "card", "cards", f" in {text}"


def _place(node: dict[str, Any], ctx: Ctx) -> str:
    if node.get("op") == "zones":
        zone = ctx.zones.get(node["name"], {})
        noun = human(node["name"])
        return f"the players' {plural(noun)}" if zone.get("owner") == "player" else f"the {plural(noun)}"
    return say(node, ctx)


def _where(cond: dict[str, Any], ctx: Ctx) -> str:
    """A filter's condition: "whose color is red" when it tests an attribute of the element,
    "played by the player" when it tests who played it, "that is empty" when it is the subject."""
    left = cond.get("left") if cond.get("op") == "cmp" else None
    if left and left.get("op") == "player_of" and cond["cmp"] == "=" and _is_it(left["of"]):
        return f"played by {say(cond['right'], ctx)}"
    if left and left.get("op") in ("attr", "call", "var", "total"):
        of = left.get("of", left.get("arg"))
        if isinstance(of, dict) and of.get("op") == "bound" and of["name"] == "it":
            name = human(left["name"]) if left["op"] != "total" else "total"
            if left["op"] == "call":
                name = f"*{name}*"
            return f"whose {name} {CMP_WORDS[cond['cmp']]} {say(cond['right'], ctx)}"
    subject = _emptied(cond["of"]) if cond.get("op") == "is_empty" else cond.get("of")
    if cond.get("op") in SUBJECT_FIRST and _is_it(subject) and "it" not in ctx.bound:
        return "that " + say(cond, ctx).removeprefix("it ")
    return f"where {say(cond, ctx)}"


# Conditions that read "SUBJECT is ...": about the element itself, "that is empty".
SUBJECT_FIRST = ("is_empty", "is_none", "is_type", "achieved", "eliminated")


def _is_it(node: Any) -> bool:
    return isinstance(node, dict) and node.get("op") == "bound" and node["name"] == "it"


value_phrases.bind(say, grouped, human, _some, _count, coll)
EXPR.update(value_phrases.VALUE_PHRASES)
