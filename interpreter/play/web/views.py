"""What a browser at one seat is sent: the seat's observation laid out by zone, and its legal moves.

Everything here is derived from ``state.observe(seat)`` (and, for the derived values of a zone,
from a copy of the state where the zones the seat cannot see are empty), so nothing hidden from
the seat is ever in a view. Nothing here knows a game: the zones, attributes and moves come from
the IR. A spectator is seat ``SPECTATOR`` (sees public zones only); ``ALL`` is every seat at
once (the replay viewer).
"""

from __future__ import annotations

from typing import Any

from ...engine.moves import Move
from ...engine.observe import offered_move, sees
from ...engine.seat_log import round_log
from ...text.event_words import entry_text, event_text
from ...text.move_words import held_order, move_text, move_words
from ...text.var_words import held_words, status_vars, var_label
from ..terminal import deck_in_play, derived, masked, own_zone_defines

SPECTATOR = -1  # sees what every seat sees: the public zones
ALL = -2  # sees what any seat sees (the replay viewer's "all seats")


def observation(state: Any, seat: int) -> dict[str, Any]:
    """``state.observe(seat)``; for ALL, each zone instance as a seat that sees its cards saw it."""
    if seat != ALL:
        return state.observe(seat)
    views = [state.observe(p) for p in range(state.n)]
    obs = dict(state.observe(SPECTATOR))
    obs["zones"] = {
        name: [
            next((v["zones"][name][i] for v in views if isinstance(v["zones"][name][i], list)), inst)
            for i, inst in enumerate(insts)
        ]
        for name, insts in obs["zones"].items()
    }
    obs["last_moves"] = [
        next((v["last_moves"][i] for v in views if _revealed(v["last_moves"][i])), m)
        for i, m in enumerate(obs["last_moves"])
    ]
    return obs


def _revealed(m: dict[str, Any]) -> bool:
    """Whether a move as one seat saw it shows its cards (a choice has none to hide)."""
    if "cards" in m:
        return None not in m["cards"]
    return "card" not in m or m["card"] is not None


def zones_view(state: Any, seat: int, obs: dict[str, Any]) -> list[dict[str, Any]]:
    """The declared zones (not the decks' own), each instance with its cards or its count, and the
    derived values of the instances the seat sees."""
    game, lay = state.game, state.layout
    who = None if seat == ALL else seat
    own = own_zone_defines(game)
    defined = {of for name, (of, _) in game.extra.get("defines", {}).items() if name not in own}
    mask = None  # the state masked for the seat, made once, when a definition needs it
    shown: dict[tuple[str, int], list[Any]] = {}  # hidden cards shown to this seat, by zone instance
    for x in obs.get("shown", []):
        shown.setdefault((x["zone"], x["index"]), []).append(x["card"])
    told: dict[tuple[str, int], list[str]] = {}  # what the seat was told of cards there (`tell`), in words
    for x in obs.get("told", []):
        told.setdefault((x["zone"], x["index"]), []).append(f"card {x['place'] + 1}: {x['attr']} {x['value']}")
    out = []
    declared = len(game.ir["zones"])  # (then the decks' own zones: shown while cards are drawn from them)
    for z, spec in enumerate(game.zones):
        if z >= declared and not deck_in_play(state, z):
            continue
        instances = []
        for inst, seen in zip(lay.instances[z], obs["zones"][spec.name], strict=True):
            item: dict[str, Any] = {"index": lay.number[inst], "owner": lay.owner[inst]}
            if (spec.name, lay.number[inst]) in told:
                item["told"] = told[spec.name, lay.number[inst]]
            if isinstance(seen, dict):  # hidden from this seat: how many cards, no more (but those shown to it)
                item["count"] = seen["count"]
                if (spec.name, lay.number[inst]) in shown:
                    item["shown"] = shown[spec.name, lay.number[inst]]
            else:
                if spec.visibility == "owner" and lay.owner[inst] == seat and not spec.piles:  # a hand, as held
                    item["positions"] = held_order(game, seen)  # (each card's place in the zone: a move's)
                    seen = [seen[i] for i in item["positions"]]
                item["piles" if spec.piles else "cards"] = seen
                item["count"] = sum(len(p) for p in seen) if spec.piles else len(seen)
                if seen and spec.name in defined and mask is None:
                    mask = masked(state, who)
                item["derived"] = derived(state, who, inst, mask) if seen else []
            instances.append(item)
        out.append(
            {
                "name": spec.name,
                "per_player": spec.per_player,
                "piles": spec.piles,
                "visibility": spec.visibility,
                "revealed": spec.revealed,
                "instances": instances,
            }
        )
    return out


def card_place(state: Any, card: int) -> dict[str, Any]:
    """Where a card lies: its zone, the instance's index, its position (piles flattened)."""
    game, lay = state.game, state.layout
    inst = state.loc[card]
    return {
        "zone": game.zones[lay.zone_of[inst]].name,
        "index": lay.number[inst],
        "pos": state.zone_cards(inst).index(card),
    }


def moves_view(state: Any, seat: int, moves: list[Move]) -> tuple[list[dict[str, Any]], list[Move]]:
    """The seat's legal moves as the page offers them, and the moves they stand for (same order).

    Each is its form as the seat may read it (observe.offered_move: a record's form, where a card
    the seat does not see is None) with its ``kind`` and its ``label`` in words (text.move_words):
    ``card`` (click the card, then its target), ``cards`` (several at once), ``draw`` (click the
    pile), or a choice that is no card (``pass``, ``number``, ``value``, ``player``, ``option``:
    buttons). The same words twice are offered once (but a card the seat sees, at each place it
    lies). A card the seat does not see (a blind move's, taken from a face-down pile: see
    engine/unseen.py) is never named nor placed: such a move is offered once per rule, source and
    target, with ``card`` and ``from`` None, whatever the engine offered. A card shown to the seat
    in a zone it does not see (an ask's) is named, not placed (``from`` None: its place in that
    zone is not the seat's to know).
    """
    game = state.game
    shown: list[dict[str, Any]] = []
    chosen: list[Move] = []
    labels: set[str] = set()
    for mv in moves:
        kind = game.moves[mv.rule].choice
        d = offered_move(state, seat, mv)
        del d["player"]
        if mv.card >= 0:  # one card (a move's or an ask's), clicked where it lies when the seat sees it there
            d["kind"] = "card"
            d["label"] = move_words(game, d, seat, state.n)
            where = state.loc[mv.card]  # (a card shown to the seat in a zone it does not see: a button)
            d["from"] = card_place(state, mv.card) if sees(game, state.layout, where, seat) else None
        else:
            d["kind"] = "cards" if "cards" in d else "pick" if "pick" in d else kind or "choice"
            d["label"] = move_words(game, d, seat, state.n, kind)
        if d["kind"] != "card" or d["from"] is None:  # (a card seen is offered where it lies, each copy)
            if d["label"] in labels:
                continue
            labels.add(d["label"])
        shown.append(d)
        chosen.append(mv)
    return shown, chosen


def _vars_named(state: Any, seat: int, values: dict[str, Any], unseen: list[list[Any]]) -> dict[str, Any]:
    """The variables as the seat sees them, a zone or a card held by its name (text/var_words.py),
    a card held that the seat does not see as `?` (observe.unseen_vars)."""
    out, game, lay = dict(values), state.game, state.layout
    for spec in game.ir["vars"]:
        name = spec["name"]
        if spec.get("type") in ("zone", "card", "cards") and name in out:
            v = out[name]
            if spec["per_player"]:
                out[name] = [
                    "?" if [name, p] in unseen else held_words(game, lay, spec, x, seat) for p, x in enumerate(v)
                ]
            else:
                out[name] = "?" if [name] in unseen else held_words(game, lay, spec, v, seat)
    return out


LOG_KEPT = 400  # the log entries a page is sent (the latest): a long game's first rounds scroll off


def log_view(state: Any, seat: int) -> list[dict[str, Any]]:
    """The game as the seat was told of it, in words (engine/seat_log.py, text/event_words.py),
    the latest LOG_KEPT entries, each with its round's number; every seat at once for ALL, the
    public's for SPECTATOR."""
    who = None if seat == ALL else seat
    out: list[dict[str, Any]] = []

    def worded(entries: list[dict[str, Any]]) -> list[str]:
        texts = (entry_text(state.game, e, -1 if who is None else who, state.n) for e in entries)
        return [t for t in texts if t is not None]

    for r in range(len(state.history) - 1, -1, -1):  # (the latest rounds first, as many as are kept)
        need = LOG_KEPT - len(out)
        entries = round_log(state, who, r, last=need)  # (a long round: only its latest moves worded)
        texts = worded(entries)
        if len(texts) < need and entries and "deal" not in entries[0]:  # some said nothing: the whole round
            texts = worded(round_log(state, who, r))
        out[:0] = [{"round": r + 1, "text": t} for t in texts]
        if len(out) >= LOG_KEPT:
            return out[-LOG_KEPT:]
    return out


def asking_view(state: Any) -> dict[str, Any] | None:
    """Who is asked a follow-up choice now (a card's power), and which: seen by every seat."""
    if state.asking is None or state.over:
        return None
    rule = state.game.moves[state.asking[1]]
    return {"seat": state.asking[0], "move": rule.name, "kind": rule.choice}


def seat_view(state: Any, seat: int) -> dict[str, Any]:
    """The table as ``seat`` sees it (no moves: see moves_view)."""
    game = state.game
    obs = observation(state, seat)
    phase = game.phases[state.phase]
    waiting = list(state.to_move) if phase.simultaneous and not state.over else []
    return {
        "game": game.name,
        "seat": seat if seat >= 0 else None,
        "players": state.n,
        "round": obs["round"],
        "rounds": obs["rounds"],
        "dealer": obs["dealer"],
        "phase": obs["phase"],
        "simultaneous": bool(phase.simultaneous) and not state.over,
        "current": obs["current"] if not state.over else None,
        "waiting": waiting,
        "totals": obs["totals"],
        "vars": _vars_named(state, seat, obs["vars"], obs.get("unseen_vars", [])),
        "statuses": sorted(status_vars(game)),
        "hidden_vars": [v["name"] for v in game.ir["vars"] if v.get("visibility", "public") == "owner"],
        "internal_vars": [v["name"] for v in game.ir["vars"] if v.get("visibility") == "hidden"],
        "var_labels": {v["name"]: var_label(v["name"]) for v in game.ir["vars"]},
        "player_vars": [v["name"] for v in game.ir["vars"] if v.get("type") == "player"],  # shown as seats
        "eliminated": obs["eliminated"],
        "turn_order": obs["turn_order"],
        "skipped": obs["skipped"],
        "shown": obs.get("shown", []),
        "asking": asking_view(state),
        **({"picking": obs["picking"]} if "picking" in obs else {}),
        "params": obs["params"],
        "zones": zones_view(state, seat, obs),
        "attributes": {name: info.get("kind", "text") for name, info in game.ir["attributes"].items()},
        "last_moves": [{**m, "text": move_text(game, m, seat, state.n)} for m in obs["last_moves"]],
        "events": [{**e, "text": event_text(game, e, seat, state.n)} for e in obs.get("events", [])],
        "log": log_view(state, seat),
        "last_round": obs["last_round"],
        "over": state.over,
        "winners": state.winners() if state.over else [],
        **({"cooperative": "won" if state.won_together else "lost"} if game.cooperative and state.over else {}),
    }
