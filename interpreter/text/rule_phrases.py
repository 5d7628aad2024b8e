"""The rules as rulebook phrases: effects, card lines, zones, deals, moves and their guards,
triggers, scoring rules, definitions, variables, schedules, parameters and the game section.
Expressions are said by phrases.py (``say``), whose context (Ctx) and words these share.
`render.py` lays the phrases out as a rulebook; `diff.py` compares rules in the same words.
"""

from __future__ import annotations

from typing import Any

from ..language.copies import copies_for
from .phrases import PICK, VISIBILITY, Ctx, _article, _of_whom, _text, coll, count_of, human, say
from .value_phrases import copies_words, params_words


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
        elif eff["do"] == "each":
            out.append((depth, each_heading(eff, ctx), note))
            out += effect_lines(eff["effects"], ctx, depth + 1)
        elif eff["do"] == "repeat":
            out.append((depth, f"Until {say(eff['until'], ctx)}, again and again (none if it holds already):", note))
            out += effect_lines(eff["effects"], ctx, depth + 1)
        elif eff["do"] == "ask":  # the block reads the value chosen by its name, as the head says it
            inner = ctx.with_bound(**{eff["name"]: f"*{human(eff['name'])}*"})
            out.append(
                (
                    depth,
                    f"{_cap(say(eff['player'], ctx))} chooses {choice_words(eff['choice'], ctx)} "
                    f"(*{human(eff['name'])}*):",
                    note,
                )
            )
            out += [(depth + 1, f"{g['kind'].capitalize()}: {guard(g, inner)}.", g.get("note")) for g in eff["guards"]]
            out += effect_lines(eff["then"], inner, depth + 1)
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
            which = "from the top of" if eff.get("top") else "from"  # draw top N: the last N put there
            return f"Draw {amount} {which} {say(eff['from'], ctx)} to {say(eff['to'], ctx)}, while any are left."
        case "let":  # let leader = player of best_card
            return f"Let *{human(eff['name'])}* be {say(eff['value'], ctx)}."
        case "set":  # set chosen to red
            return f"Set {_var_target(eff, ctx)} to {say(eff['value'], ctx)}."
        case "add":  # add 1 to points of leader
            return f"Add {say(eff['value'], ctx)} to {_var_target(eff, ctx)}."
        case "next":  # next winner
            return f"{_cap(say(eff['player'], ctx))} moves next."
        case "if" | "each" | "repeat" | "ask":
            return " ".join(line for _, line, _ in effect_lines([eff], ctx))
        case "pay":  # pay 1 chips to pot
            amount = "all of" if eff["amount"] is None else say(eff["amount"], ctx) + " from"
            payer, payee = _var_target(eff["payer"], ctx), _var_target(eff["payee"], ctx)
            return f"Pay {amount} {payer} to {payee} (never below zero)."
        case "show":  # show hand of target to player
            seat = say(eff["to"], ctx)
            return f"Show {_moved(eff['what'], ctx)} to {seat} alone, who sees them while they stay there."
        case "reveal":  # reveal hole of dealer; reveal last card in hand of player to target
            if eff["to"] is None:
                return f"Reveal {_moved(eff['what'], ctx)} to every player, who know them while they stay there."
            seats = " and ".join(say(p, ctx) for p in eff["to"])
            return (
                f"Reveal {_moved(eff['what'], ctx)} to {seats}, who know them while they stay there "
                "(everyone sees that they were revealed)."
            )
        case "shuffle":  # shuffle stock
            return f"Shuffle {say(eff['zone'], ctx)}: its cards in a random order, where each lies unknown to all."
        case "swap":  # swap hand of player with hand of target
            return f"Swap the cards of {say(eff['what'], ctx)} with those of {say(eff['with'], ctx)}."
        case "tell":  # (issue 30) tell target color of cards in hand of target where ...
            seat = say(eff["to"], ctx)
            return (
                f"Tell {seat} the {human(eff['attr'])} of {_moved(eff['what'], ctx)}, without showing them; "
                "known while each stays in its zone."
            )
        case "eliminate":  # eliminate target
            return f"{_cap(say(eff['player'], ctx))} is eliminated: no more moves this round."
        case "do":  # do settle: a named block, said once under its name
            return f"Do *{human(eff['name'])}* (see *Effects by name*)."
        case "make":  # make player protected until their next turn
            until = " until their next turn" if eff["until_next_turn"] else ""
            return f"{_cap(say(eff['of'], ctx))} is {human(eff['var'])}{until}."
        case "reverse":  # turn order reverses
            return "The turn order reverses: from now on in this round the turn passes the other way round."
        case "skip":  # skip next of player
            return f"{_cap(say(eff['player'], ctx))} loses their next turn (the turn passes them by)."
    return str(eff["do"])


def each_heading(eff: dict[str, Any], ctx: Ctx) -> str:
    """`for each player where C`: "For each player for whom C, in seat order:"; with `from P`,
    `for each card in Z by KEY`, `until C` in the same words."""
    who = eff["over"]
    if who == "card":
        when = f" for which {say(eff['where'], ctx)}" if eff.get("where") is not None else ""
        by = eff.get("by")
        order = (
            f", {by['order']} {say(by['key'], ctx)} first (ties in the order they lie)"
            if by is not None
            else ", in the order they lie"
        )
        head = f"For each card of {say(eff['in'], ctx)}{when}{order}"
    else:
        when = f" for whom {say(eff['where'], ctx)}" if eff.get("where") is not None else ""
        if who == "team":
            order = ", in the order of their first seats"
        elif eff.get("from") is not None:
            order = f", in seat order from {say(eff['from'], ctx)}"
        else:
            order = ", in seat order"
        head = f"For each {who}{when}{order}"
    if eff.get("until") is not None:
        head += f", stopping as soon as {say(eff['until'], ctx)}"
    return head + ":"


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
    parts = [_text(v["value"]) + copies_words(v["copies"], Ctx()) for v in vals]
    numbers = all(isinstance(v["value"], int) for v in vals)
    if len(parts) > 2 and numbers and all(v["copies"] == vals[0]["copies"] for v in vals):
        values = [v["value"] for v in vals]
        if values == list(range(values[0], values[-1] + 1)):  # 2 to 14, times 3 each
            each = copies_words(vals[0]["copies"], Ctx())
            return f"{values[0]} to {values[-1]}" + (f",{each} each" if each else "")
    if any(isinstance(v["copies"], dict) for v in vals):
        return ", ".join(parts)
    if numbers or len(parts) == 1:
        return ", ".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def card_line(line: dict[str, Any], ctx: Ctx) -> str:
    """A deck line: "gem: color red or blue; value 1 x3, 2 x3 ..."."""
    attrs = "; ".join(f"{human(a['name'])} {attribute_values(a)}" for a in line["attributes"])
    text = f"{human(line['type'])}: {attrs}" if attrs else human(line["type"])
    text += f" — {line_copies(line)} cards" if line_copies(line) is not None else ""
    if line.get("achieved") is not None:
        text += f"; achieved when {say(line['achieved'], ctx.with_bound())}"
    return text


def line_copies(line: dict[str, Any], players: int | None = None) -> int | None:
    """How many cards a deck line makes (the product of its attributes' copies); None when that
    depends on the number of players and ``players`` is not given."""
    total = 1
    for a in line["attributes"]:
        if players is None and any(isinstance(v["copies"], dict) for v in a["values"]):
            return None
        total *= sum(copies_for(v["copies"], players or 0) for v in a["values"])
    return total


def per_value(line: dict[str, Any]) -> str:
    """The copies of a line by its enumerated attribute: "14 per color" (or just the total)."""
    total = line_copies(line)
    if total is None:
        return "by the number of players"
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


def deal(d: dict[str, Any], ctx: Ctx, more: bool = False) -> str:
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
    elif amount is not None and not more:  # (`more`: later deals go on from the rest)
        text += "; the rest are set aside unseen"
    return text


def choice_words(c: dict[str, Any], ctx: Ctx) -> str:
    """What a choice chooses: "a number from 0 to 3", "a suit", "a player", "happy or sad", "nothing"."""
    match c["kind"]:
        case "number":
            return f"a number from {say(c['low'], ctx)} to {say(c['high'], ctx)}"
        case "value":
            return _article(human(c["attr"]))
        case "player":
            return "a player"
        case "option":
            return " or ".join(c["options"])
        case "card":  # an ask's: a card of a zone
            return f"a card of {say(c['zone'], ctx)}"
        case "zone":  # one of the rows
            return f"one of the {human(c['from'])} zones"
        case "draw":  # the pile named, never the card
            top = "the top card" if "count" not in c else f"the top {say(c['count'], ctx)} cards"
            piles = " or ".join(_zone_ref(z, ctx.zones.get(z, {}), "a") for z in c["piles"])
            where = _zone_ref(c["to"], ctx.zones.get(c["to"], {}))
            return f"{top} of {piles}, unseen until taken, into {where}"
        case "cards":  # 1 to 4 cards of one rank from the player's hand to the pile
            return _set_words(c, ctx)
        case "set":  # an ask's: 1 to 3 cards of the table
            return f"{_set_size(c, ctx)} of {say(c['zone'], ctx)}, chosen together"
    return "nothing (a pass)"


def _set_size(c: dict[str, Any], ctx: Ctx) -> str:
    """A set's size and sameness: "2 cards", "1 to 4 cards of one rank", "1 card"."""
    low = say(c["low"], ctx)
    size = low if "high" not in c else f"{low} to {say(c['high'], ctx)}"
    one = "high" not in c and c["low"].get("op") == "num" and c["low"]["value"] == 1
    same = "" if "same" not in c else f" of one {human(c['same'])}"
    return f"{size} {'card' if one else 'cards'}{same}"


def _set_words(c: dict[str, Any], ctx: Ctx) -> str:
    """A set move's choice: "2 cards from ...", "1 to 4 cards of one rank from ... to ..."."""
    src, dst = ctx.zones.get(c["from"], {}), ctx.zones.get(c["to"], {})
    where = f"from {_zone_ref(c['from'], src)} to {_zone_ref(c['to'], dst, 'a')}"
    return f"{_set_size(c, ctx)}, chosen together, {where}"


def chosen_words(name: str, c: dict[str, Any]) -> str:
    """How a move's choice reads in its guards and triggers: "the bid chosen", "the rank chosen"
    (a value of an attribute, by the attribute), "the pile drawn from"."""
    match c["kind"]:
        case "draw":
            return "the pile drawn from"
        case "value":
            return f"the {human(c['attr'])} chosen"
    return f"the {human(name)} chosen"


def move(m: dict[str, Any], ctx: Ctx) -> str:
    """A move rule's header: "play: a card from the player's hand to a pot"; a choice's: "bid: a
    number from 0 to 3"."""
    if "choice" in m:
        return f"{human(m['name'])}: {choice_words(m['choice'], ctx)}"
    src, dst = ctx.zones.get(m["from"], {}), ctx.zones.get(m["to"], {})
    which = "the card at a place the player chooses" if m.get("at_place") else "a card"
    return f"{human(m['name'])}: {which} from {_zone_ref(m['from'], src)} to {_zone_ref(m['to'], dst, 'a')}"


def _zone_ref(name: str, z: dict[str, Any], article: str = "the") -> str:
    if z.get("owner") == "player":
        return f"the player's {human(name)}"
    if z.get("count", 1) > 1:
        return f"{_article(human(name)) if article == 'a' else 'the ' + human(name)}"
    return f"the {human(name)}"


def move_ctx(m: dict[str, Any], ctx: Ctx, after: bool = False) -> Ctx:
    """The context of a move's guards (``after``: its triggers): the target reads as the zone it
    names, as "the pot the card goes into" (went into) when the zone has several instances, so
    that it reads apart from the zone's own words (`target = discard of player` is not "the
    player's discard is the player's discard"); a choice's name reads as the value chosen."""
    if "choice" in m:
        kind = m["choice"]["kind"]
        if kind == "cards":  # the set, and where it goes
            to = m["choice"]["to"]
            mine = ctx.zones.get(to, {}).get("owner") == "player"
            where = f"the player's {human(to)}" if mine else f"the {human(to)}"
            return ctx.with_bound(**{m["name"]: f"the cards chosen to {human(m['name'])}", "target": where})
        return ctx.with_bound(**{m["name"]: chosen_words(m["name"], m["choice"])})
    z = ctx.zones.get(m["to"], {})
    several = z.get("owner") == "player" or z.get("count", 1) > 1
    target = f"the {human(m['to'])}" + (f" the card {'went' if after else 'goes'} into" if several else "")
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
    names = [t["after"]] if isinstance(t["after"], str) else t["after"]  # one trigger, several moves
    return f"After each {' or '.join(human(n) for n in names)}{cond}:"


def trigger(t: dict[str, Any], ctx: Ctx) -> str:
    """A whole trigger on one line (for diffs)."""
    body = " ".join(line for _, line, _ in effect_lines(t["effects"], ctx))
    return f"{trigger_head(t, ctx)} {body}"


def first_player(fp: dict[str, Any] | None, ctx: Ctx) -> str:
    """Who moves first in a phase."""
    if fp and fp.get("seat") is not None:
        return say(fp["seat"], ctx)
    if not fp or not fp.get("keys"):
        return "the player at the dealer's left"
    parts = []
    for i, key in enumerate(fp["keys"]):
        head = "the player for whom" if i == 0 else "on a tie, for whom"
        parts.append(f"{head} {say(key['key'], ctx)} is {key['extreme']}")
    return "; ".join(parts) + "; still tied, the first of them clockwise from the dealer's left"


def score_rule(r: dict[str, Any], ctx: Ctx) -> str:
    """A scoring rule: "each gem card in the player's kept: -1, unless ..."."""
    if r.get("team"):  # the team's points: render lists these under "each team scores"
        ctx = ctx.with_bound(team="the team")
        text = say(r["points"], ctx)
    elif r.get("each") is not None:
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
    if d.get("params"):
        return f"*{human(d['name'])}* of {params_words(d['params'])} is {_whether(d['body'], ctx)}"
    if d.get("of"):
        return f"the *{human(d['name'])}* of {_article(human(d['of']))} is {say(d['body'], ctx)}"
    return f"*{human(d['name'])}* is {_whether(d['body'], ctx)}"


TRUTHS = frozenset(
    {"some", "no", "every", "all_empty", "is_empty", "cmp", "and", "or", "not", "is_none", "is_type", "unique"}
)


def _whether(body: dict[str, Any], ctx: Ctx) -> str:
    """A definition's body; a truth is "whether ...": "*out* is whether the hand is empty"."""
    text = say(body, ctx)
    if body.get("op") not in TRUTHS and not str(body.get("agg", "")).startswith("unique"):
        return text
    return f"whether, {text}" if text.startswith("for every ") else f"whether {text}"


def var(v: dict[str, Any], ctx: Ctx) -> str:
    """A variable: whose it is, when it resets, where it starts."""
    whose = (
        "one for each team" if v.get("per_team") else "one for each player" if v["per_player"] else "one for the game"
    )
    if v.get("holds"):  # var taker player = none
        whose = f"{'an' if v['holds'][:1] in 'aeiou' else 'a'} {human(v['holds'])}, {whose}"
    reset = ", set back each round" if v["per_round"] else ""
    seen = {"owner": ", seen by its owner only", "hidden": ", seen by nobody"}.get(v.get("visibility", ""), "")
    if v["type"] in ("card", "cards") and v.get("visibility") != "hidden":  # (engine/observe.vars_view)
        seen += ", naming a card only to a seat that sees it where it lies"
    return f"{human(v['name'])}: {whose}{reset}{seen}, starting at {say(v['init'], ctx)}"


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
    """How the dealer passes (or that the first dealer deals every round)."""
    if g.get("dealer") == "stays":
        return "the same player deals every round"
    return f"the dealer passes {g.get('dealer', 'clockwise')} after each round"


def game_max_moves(g: dict[str, Any]) -> str | None:
    """The game's own bound on the moves of a round, if it says one."""
    n = g.get("max_moves_per_round")
    return None if n is None else f"a round that has not ended after {n} moves is stopped as endless"


def game_winner(g: dict[str, Any], teams: dict[str, Any] | None = None, ctx: Ctx | None = None) -> str:
    """Who wins: a player, or with teams a team (all its players), or in a cooperative game all the
    players together or none."""
    if g.get("all_win"):
        cond = say(g["all_win"]["if"], ctx or Ctx({}))
        return f"all the players win together if {cond}; otherwise they all lose"
    if teams is not None:
        return (
            f"the team with the {g['winner']} total (its players' totals together) wins, and all its players "
            "with it; tied teams share the win"
        )
    return f"the player with the {g['winner']} total wins; tied players share the win"
