"""What one seat may see of a game: public zones, its own zones, counts of the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .choices import describe_choice, describe_move
from .events import RECORDED, event_record
from .knowledge import told_view
from .unseen import card_seen
from .zones import sees

if TYPE_CHECKING:  # (the compiled engine's type: this module's .pxd cimports it)
    from .state_fields import StateFields


def observe(state: Any, seat: int) -> dict[str, Any]:
    """The observation of ``seat``: nothing hidden from that seat is in it.

    A zone instance shows its cards when the seat sees it (zones.sees: public; the seat's own
    with `owner sees`; another seat's with `others see`); otherwise only how many cards it
    holds. Moves not yet revealed (a simultaneous phase's, each until it takes effect) are not
    shown; in a phase `revealed together` all of them are once everyone has chosen (while an ask
    amid them waits, those still to take effect too: their cards are shown where they go, not
    yet moved). Zones declared `revealed when scored` are shown whole, as they were at scoring, in
    ``last_round`` once the round is scored.
    """
    game, lay, cards = state.game, state.layout, state.game.cards.json
    zones: dict[str, Any] = {}
    for z, spec in enumerate(game.zones):
        views = []
        for inst in lay.instances[z]:
            content = state.zones[inst]
            if not sees(game, lay, inst, seat):
                views.append({"count": len(state.zone_cards(inst))})
            elif spec.piles:
                views.append([[cards[c] for c in pile] for pile in content])
            else:
                views.append([cards[c] for c in content])
        zones[spec.name] = views
    last = state.history[-1]["moves"] if state.history else []
    revealed = unrevealed_removed(last, state.pending) if state.pending and not state.resolving else last
    moves = [seen_move(state, seat, p, m) for p, m in revealed]
    if state.history and "places" in state.history[-1]:
        _placed(moves, revealed, last, state.history[-1]["places"])
    out = {
        "seat": seat,
        "players": state.n,
        "round": state.round + 1 if not state.over else state.round,
        "rounds": state.rounds,
        "dealer": state.dealer,
        "phase": game.phases[state.phase].name,
        "current": state.current_player,
        "totals": list(state.totals),
        "vars": vars_view(state, seat),
        "zones": zones,
        "params": dict(state.params),
        "deal": deal_view(state, seat),
        "moves": moves,
        "last_moves": moves[-state.n :],
        "over": state.over,
        "last_round": last_round(state),
        "eliminated": sorted(state.out),
        # the turn order (turns.py): the way the turn passes now, and who loses their next turn
        "turn_order": "clockwise" if state.turn_step > 0 else "counterclockwise",
        "skipped": sorted(state.skips),
        "shown": shown_view(state, seat),
        "events": events_view(state, seat),
        **({"told": told_view(state, seat)} if state.told else {}),
        **({"unseen_vars": unseen} if (unseen := unseen_vars(state, seat)) else {}),
    }
    if state.picking is not None and state.picking[0] == seat:  # a set this seat chooses card by card
        out["picking"] = {"move": game.moves[state.picking[1]].name, "cards": [cards[c] for c in state.picking[2]]}
    return out


def _placed(moves: list[dict[str, Any]], revealed: list, last: list, places: dict[int, int]) -> None:
    """Give each move `card at place` seen its place (every seat sees which place was played)."""
    j = 0
    for seen, pm in zip(moves, revealed, strict=True):
        while last[j] is not pm:
            j += 1
        if j in places:
            seen["place"] = places[j]
        j += 1


def events_view(state: Any, seat: int) -> list[dict[str, Any]]:
    """The round's reveals and shuffles as ``seat`` saw them (events.py): a revealed card it was
    not shown, in a zone it does not see, is None; a shuffle tells its zone and count, not its order."""
    log = state.history[-1] if state.history else None
    if log is None or "events" not in log:
        return []
    return [event_record(state, ev, seat) for ev in log["events"] if ev[0] in RECORDED]


def unrevealed_removed(moves: list, pending: list) -> list:
    """The moves less those held (not yet revealed): the latest of equal moves is the held one
    (a card back in a hand may be chosen again in the same round, to the same place)."""
    held, out = list(pending), []
    for pm in reversed(moves):
        if pm in held:
            held.remove(pm)
        else:
            out.append(pm)
    out.reverse()
    return out


def shown_view(state: Any, seat: int) -> list[dict[str, Any]]:
    """The hidden cards shown to ``seat`` (`show ... to`) or revealed to it (`reveal`) that are
    still where they were shown: each with its zone and index (once, though shown twice)."""
    game, lay, cards = state.game, state.layout, state.game.cards.json
    out, loc, listed = [], state.loc, set()
    for to, c, inst in state.shown:
        if to == seat and loc[c] == inst and c not in listed and not sees(game, lay, inst, seat):
            listed.add(c)
            out.append({"card": cards[c], "zone": game.zones[lay.zone_of[inst]].name, "index": lay.number[inst]})
    return out


def vars_view(state: Any, seat: int) -> dict[str, Any]:
    """The variables as ``seat`` sees them: a private counter (`owner sees`, `hidden`) holds None
    in place of every value the seat may not see, and so does a variable that holds a card or
    cards (typed `card`, or set to them) where a card lies out of the seat's sight
    (``unseen_vars``): the variable says which card it is only to a seat that sees the card."""
    out = {}
    for (name, *_), value, spec in zip(state.game.vars, state.vars, state.game.ir["vars"], strict=True):
        visibility = spec.get("visibility", "public")
        if visibility != "public" and isinstance(value, list) and spec["per_player"]:
            value = [v if visibility == "owner" and p == seat else None for p, v in enumerate(value)]
        elif visibility == "hidden":
            value = None
        if spec["type"] in CARD_TYPES:
            value = [_held(state, seat, v) for v in value] if spec["per_player"] else _held(state, seat, value)
        out[name] = value
    return out


CARD_TYPES = ("card", "cards")  # what a variable holding a card, or cards, is typed


def _held(state: Any, seat: int, held: Any) -> Any:
    """A card (or cards) a variable holds, if ``seat`` sees every one where it lies; else None."""
    if held is None:
        return None
    cards = held if isinstance(held, list | tuple) else (held,)
    return held if all(card_seen(state, seat, c) for c in cards) else None


def unseen_vars(state: Any, seat: int) -> list[list[Any]]:
    """The card variables holding a card ``seat`` may read but does not see where it lies
    (vars_view gives them None): ``[name]``, or ``[name, p]`` for player p's value of a per-player
    one, so that the screens say `?` (a card the seat may not know), not `none`."""
    out: list[list[Any]] = []
    for (name, *_), value, spec in zip(state.game.vars, state.vars, state.game.ir["vars"], strict=True):
        visibility = spec.get("visibility", "public")
        if spec["type"] not in CARD_TYPES or visibility == "hidden":
            continue
        if spec["per_player"]:
            mine = [(p, v) for p, v in enumerate(value) if visibility == "public" or p == seat]
            out += [[name, p] for p, v in mine if v is not None and _held(state, seat, v) is None]
        elif value is not None and _held(state, seat, value) is None:
            out.append([name])
    return out


def revealed_zones(state: StateFields) -> dict[str, Any]:
    """The zones declared `revealed when scored`, as they stand when the round is scored (one list per
    instance, piles flattened)."""
    game, lay = state.game, state.layout
    last = _SHOWN[0]  # (game, layout, each revealed zone's name and instances): the last asked
    if last[0] is not game or last[1] is not lay:  # (read once per game's layout, not every round)
        shown = tuple((spec.name, tuple(lay.instances[z])) for z, spec in enumerate(game.zones) if spec.revealed)
        last = _SHOWN[0] = (game, lay, shown)
    out: dict[str, Any] = {}
    if not last[2]:
        return out
    cards, zones = game.cards.json, state.zones
    for name, insts in last[2]:
        lists = []
        for i in insts:
            content = zones[i]
            if content and isinstance(content[0], list):
                lists.append([cards[c] for pile in content for c in pile])
            else:
                lists.append([cards[c] for c in content])
        out[name] = lists
    return out


_SHOWN: list[tuple] = [(None, None, ())]


def last_round(state: Any) -> dict[str, Any] | None:
    """What every seat learns when a round is scored: its number, the scores, the zones revealed then."""
    scored = [r for r in state.history if "scores" in r]
    if not scored:
        return None
    return {"round": len(scored), "scores": list(scored[-1]["scores"]), "revealed": scored[-1]["revealed"]}


def deal_view(state: Any, seat: int, round_index: int = -1) -> dict[str, list[Any]]:
    """The round's deal (the current round's, or round ``round_index``'s) as ``seat`` saw it: per
    zone, per instance, its cards or ``{"count": n}``."""
    game, lay = state.game, state.layout
    snapshot = state.history[round_index]["deal"] if state.history else {}
    out: dict[str, list[Any]] = {}
    for z, spec in enumerate(game.zones):
        insts = lay.instances[z]
        value = snapshot.get(spec.name)
        if value is None:
            lists: list[Any] = [[] for _ in insts]
        else:
            lists = value if (spec.per_player or len(insts) > 1) else [value]
        out[spec.name] = [
            cards if sees(game, lay, inst, seat) else {"count": len(cards)}
            for inst, cards in zip(insts, lists, strict=True)
        ]
    return out


def seen_move(state: Any, seat: int, p: int, m: Any) -> dict[str, Any]:
    """A move as ``seat`` saw it: as records write it, but a card that went where this seat cannot
    see is shown only to the seat that moved it, if it saw the card where it took it from (not a
    blind move's card, unseen.py); a choice is seen by all once revealed."""
    game, lay = state.game, state.layout
    rule = game.moves[m.rule]
    if m.card < 0:
        seen = describe_choice(game, lay, p, m)
        if "cards" in seen and p != seat and not sees(game, lay, m.target.to, seat):  # a set gone out of sight
            seen["cards"] = [None] * len(seen["cards"])
        return seen
    if rule.choice is not None:  # an ask's card: seen by the asked seat and those who see its zone
        seen = describe_choice(game, lay, p, m)
        if p != seat and not sees(game, lay, m.target, seat):
            seen["card"] = None
        return seen
    mover_saw = p == seat and sees(game, lay, lay.base[rule.source] + (p if rule.source_per_player else 0), p)
    return {
        "player": p,
        "move": rule.name,
        "card": game.cards.json[m.card] if mover_saw or sees(game, lay, m.target, seat) else None,
        "to": {"zone": game.zones[lay.zone_of[m.target]].name, "index": lay.number[m.target]},
    }


def offered_move(state: Any, seat: int, move: Any) -> dict[str, Any]:
    """A legal move of ``seat`` as that seat may read it: as records write it, but every card the
    seat's observation does not show where it lies now (unseen.card_seen) is None; a card move's
    unseen card also names the zone instance it is taken from, ``"from": {"zone", "index"}``, and a
    move `card at place` its place there, ``"place"`` (from 0). The
    compiler refuses choices among unseen cards (unseen.py): this is what keeps a seat from being
    told of one all the same (a blind move's card, or any the engine may offer)."""
    game, lay = state.game, state.layout
    out = describe_move(game, lay, seat, move)
    if move.card >= 0:  # one card: a card move, or an ask's card
        if not card_seen(state, seat, move.card):
            inst = state.loc[move.card]
            out["card"] = None
            out["from"] = {"zone": game.zones[lay.zone_of[inst]].name, "index": lay.number[inst]}
            if game.moves[move.rule].at_place:  # `card at place`: which place of the zone, from 0
                out["place"] = state.zone_cards(inst).index(move.card)
    elif "cards" in out:  # several cards
        out["cards"] = [
            c if card_seen(state, seat, x) else None for c, x in zip(out["cards"], move.target.cards, strict=True)
        ]
    elif "pick" in out and not card_seen(state, seat, move.target.card):  # a card towards a set
        out["pick"] = None
    return out
