"""IR to words for the flow of a round and a game: set-up deals to shared zones, effects at the
start or end of a round or a phase, repeated phases, early ends, and the order of resolution of a
simultaneous phase. ``render.py`` lays them out; ``diff.py`` compares them in the same words."""

from __future__ import annotations

from typing import Any

from . import phrases as P
from . import rule_phrases as R


def shared_deal(d: dict[str, Any], ctx: P.Ctx) -> str:
    """A deal to a shared zone: "turn up 1 card onto the discard" / "deal 1 card face down to each row"."""
    amount = d.get("amount")
    if amount is None:
        text = "all the cards left"
    elif amount.get("op") == "num":
        text = P.count_of(amount["value"], "card")
    else:
        text = f"{P.say(amount, ctx)} cards"
    if d.get("deck", "deck") != "deck":
        text += f" from the {P.human(d['deck'])} deck"
    zone = ctx.zones.get(d["to"], {})
    where = f"each {P.human(d['to'])}" if d.get("each") else f"the {P.human(d['to'])}"
    if d.get("face_up"):
        return f"turn up {text} to {where}"
    face = {"hidden": ", face down, unseen", "public": ", face up", "others": ", facing out: seen by all but its owner"}
    face = face.get(zone.get("visibility", ""), "")
    return f"deal {text} to {where}{face}"


def timed_lines(timed: dict[str, Any], when: str, what: str, ctx: P.Ctx) -> list[tuple[int, str, str | None]]:
    """Effects at the start or end of a round or phase, headed by when they happen."""
    head = f"At the {when} of {what} (nobody's move):"
    return [(0, head, timed.get("note")), *R.effect_lines(timed["effects"], ctx, 1)]


def repeats(rnd: dict[str, Any], ctx: P.Ctx) -> list[tuple[str, dict[str, Any]]]:
    """Each repeated group of phases as a sentence, with its IR node (for its note)."""
    out = []
    for loop in rnd.get("repeats", ()):
        first, last = P.human(loop["first"]), P.human(loop["last"])
        which = f"Phase {first} is" if first == last else f"Phases {first} to {last} are"
        out.append(
            (f"{which} played again and again until {P.say(loop['until'], ctx)} (checked each time {last} ends).", loop)
        )
    return out


def round_end(rnd: dict[str, Any], ctx: P.Ctx) -> str:
    """A round's early end."""
    cond = P.say(rnd["ends"]["when"], ctx)
    return f"The round ends at once, whatever its phase, as soon as {cond} (checked before every turn)."


def resolve_order(node: dict[str, Any], ctx: P.Ctx) -> str:
    """The order in which a simultaneous phase's chosen moves take effect."""
    parts = []
    for i, key in enumerate(node["keys"]):
        head = "first the move for which" if i == 0 else "on a tie, the one for which"
        parts.append(f"{head} {P.say(key['key'], ctx)} is {key['extreme']}")
    return "The chosen moves take effect one by one: " + "; ".join(parts) + "; still tied, in turn order."


def game_end(g: dict[str, Any], ctx: P.Ctx, lasts: str | None) -> str:
    """When the game ends: after a number of rounds, when a condition holds after a round, or both."""
    cond = P.say(g["ends"]["when"], P.Ctx(ctx.zones)) if g.get("ends") else None
    if cond and lasts:
        return f"The game ends after the round at whose end {cond}, and at the latest after {lasts}"
    if cond:
        return f"Rounds are played until, at the end of a round, {cond}: then the game ends"
    return f"The game lasts {lasts}"


def trigger_ctx(t: dict[str, Any], moves: dict[str, dict[str, Any]], ctx: P.Ctx) -> P.Ctx:
    """The context of a trigger's rules: its move's (when its moves all go to one zone)."""
    names = [t["after"]] if isinstance(t["after"], str) else t["after"]
    if names[0] in moves and "choice" in moves[names[0]]:  # after a choice: its value by its name
        return R.move_ctx(moves[names[0]], ctx, after=True)
    targets = {moves[n].get("to") for n in names if n in moves}
    if len(targets) == 1 and names[0] in moves:
        return R.move_ctx(moves[names[0]], ctx, after=True)
    return ctx.with_bound(target="the zone the card went to")


def turns_sentence(ph: dict[str, Any], first: str, ir: dict[str, Any]) -> str:
    """Who moves in a phase played in turns, in which order: clockwise, or until the turn order
    reverses when some effect reverses it; or nobody, in a phase of effects only."""
    if not ph["moves"]:
        return "Nobody moves in this phase: the rules play it alone, and it ends once its effects have run."
    order = "clockwise"
    if _reverses(ir["round"]):
        order = "clockwise, and the other way round while the turn order is reversed (each round starts clockwise)"
    return f"The first player is {first}. Turns then go {order}; a player who has no legal move is skipped."


def _reverses(node: Any) -> bool:
    """Whether some effect among the rules reverses the turn order."""
    if isinstance(node, dict):
        return node.get("do") == "reverse" or any(_reverses(v) for v in node.values())
    if isinstance(node, list):
        return any(_reverses(v) for v in node)
    return False
