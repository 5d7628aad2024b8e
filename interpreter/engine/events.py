"""What the rules do between moves that every seat is told of: a reveal (`reveal CARDS [to P]`)
and a shuffle (`shuffle ZONE`). Each is produced once, here, as data in the round's log
(history.py), written whole in records and given to each seat as its observation allows.

In the log an event is a tuple, with card ids and zone instances:

- ``("reveal", after, seats, ((card, instance), ...))``: ``seats`` None for every seat;
- ``("shuffle", after, instance, (card, ...))``: the zone's new order (first to last).

``after`` is how many moves of the round were made before it (0: at the round's start). A
revealed card is known, as a card shown to a seat is (``state.shown``), while it stays where it
was revealed; a shuffle forgets what was shown, revealed or told (knowledge.py) of the cards it
shuffles.

A narrating state (``new_game(..., narrate=True)``: play, the table, replays) also logs, for
people to read (seat_log.py, text/event_words.py), what records need not keep:

- ``("moved", after, ((card, instance, seats shown it there), ...), to[, shared])``: cards the rules
  moved; ``shared``, ``((attribute, value), ...)``, what every seat knows they all have, because the
  rules chose them by it with a value every seat knows (`move hand of asked where rank of it =
  fish_for ...`: the rank asked, not the suits; effects.py, expr_analysis.shared_attributes);
- ``("drawn", after, ...)``: the same, for the cards a draw move took (the drawer learns them);
- ``("show", after, (seat,), ((card, instance), ...))``: `show ... to` (a reveal to one seat);
- ``("swap", after, a, b, cards_a, cards_b)``: two zone instances exchanged their cards (what
  each holds after, told to the seats that see it);
- ``("eliminate", after, player)``;
- ``("known", after, player, card, source, target, ((attribute, value), ...))``: what a card move's
  guards tell every seat of the card played (`require suit of card = led`, `led` known to all: its
  suit), each value as the guard read it when the move was made (compile_guard_knowledge).

Each kind is one entry of ``SEEN`` below (as a seat is told of it) and of text/event_words.py's
table (in words); records and observations carry only ``RECORDED`` kinds, so a narrated game
plays and records byte for byte as any other.
"""

from __future__ import annotations

from typing import Any

from ..errors import PlayError
from .cards import signature
from .expr_analysis import Scope, attribute_tests
from .expressions import ExprCompiler
from .zones import sees


def _log(s: Any, event: tuple) -> None:
    """Add an event to the round's log (its list made at the first)."""
    log = s.history[-1]
    events = log.get("events")
    if events is None:
        events = log["events"] = []
    events.append(event)


def compile_reveal(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Any:
    """reveal hole of dealer; reveal last card in hand of player to target, dealer"""
    at = node.get("at")
    what = cx.compile(node["what"], scope)
    whole_zone = node["what"]["op"] == "zone"
    to = None if node["to"] is None else [cx.compile(p, scope) for p in node["to"]]

    def reveal(s, e):
        got = what(s, e)
        if got is None:
            return
        if to is None:
            seats = None
        else:
            seats = tuple(dict.fromkeys(p(s, e) for p in to))  # (in the order named, once each)
            if None in seats:
                raise PlayError("no player to reveal the cards to", at)
        cards = s.zone_cards(got) if whole_zone else [got] if isinstance(got, int) else list(got)
        if not cards:
            return
        loc = s.loc
        placed = tuple((c, loc[c]) for c in cards)
        # (what was shown of a card that has moved since is forgotten: a game of many reveals kept
        # them all, copied at each, and a card back where it was revealed counted as seen again)
        kept = tuple(x for x in s.shown if loc[x[1]] == x[2])
        s.shown = (*kept, *((p, c, i) for p in (range(s.n) if seats is None else seats) for c, i in placed))
        if s.history is not None:  # (None: a search state that keeps no log, State.copy)
            _log(s, ("reveal", len(s.history[-1]["moves"]), seats, placed))

    return reveal


def compile_shuffle(cx: ExprCompiler, node: dict[str, Any], scope: Scope) -> Any:
    """shuffle stock: its cards in a random order, from the game's seeded chance (a replay: the
    order its record gives)"""
    at = node.get("at")
    zone = cx.compile(node["zone"], scope)

    def shuffle(s, e):
        inst = zone(s, e)
        if inst is None:
            raise PlayError("no zone to shuffle", at)
        cards = s.zones[inst]
        if s.shuffles_given is not None:
            done = sum(1 for ev in s.history[-1].get("events", ()) if ev[0] == "shuffle")
            cards[:] = _recorded_order(s, inst, done, at)
        else:
            s.rng.shuffle(cards)
        if s.shown:  # what was shown or revealed of their places is forgotten
            s.shown = tuple(x for x in s.shown if x[2] != inst)
        if s.told:  # and what was told of the cards: no seat can tell which is which any more
            s.told = tuple(f for f in s.told if f[2] != inst)
        s.zmemo.pop(inst, None)
        s.cache.clear()
        s._legal = None
        if s.history is not None:
            _log(s, ("shuffle", len(s.history[-1]["moves"]), inst, tuple(cards)))

    return shuffle


def _recorded_order(s: Any, inst: int, k: int, at: str | None) -> list[int]:
    """The ``k``-th shuffle of the round as the record gives it: the zone's cards in that order."""
    given = s.shuffles_given[s.round] if s.round < len(s.shuffles_given) else []
    name = s.game.zones[s.layout.zone_of[inst]].name
    if k >= len(given):
        raise PlayError(f"the record has no order for this shuffle of {name}", at)
    by_kind: dict[tuple, list[int]] = {}
    for c in s.zones[inst]:
        by_kind.setdefault(signature(s.game.cards.json[c]), []).append(c)
    order = []
    for card in given[k]:
        ids = by_kind.get(signature(card)) if isinstance(card, dict) else None
        if not ids:
            raise PlayError(f"the record's shuffle of {name} holds a card that is not there: {card}", at)
        order.append(ids.pop(0))
    if len(order) != len(s.zones[inst]):
        raise PlayError(f"the record's shuffle of {name} has {len(order)} cards; there are {len(s.zones[inst])}", at)
    return order


def recorded_shuffles(rounds: list[dict[str, Any]]) -> list[list[list[Any]]]:
    """Each recorded round's shuffles, in order: the cards of each, as the record lists them."""
    return [[ev["cards"] for ev in r.get("events", ()) if "shuffle" in ev] for r in rounds]


def _place(s: Any, inst: int) -> dict[str, Any]:
    lay = s.layout
    return {"zone": s.game.zones[lay.zone_of[inst]].name, "index": lay.number[inst]}


def _seen_cards(s: Any, placed: tuple, seat: int | None, told: bool) -> list[dict[str, Any]]:
    """Cards at their places as ``seat`` may read them: a card is None unless the seat was told
    (``told``), sees its place, or was shown it there (a third item, the seats shown it)."""
    cards, game, lay = s.game.cards.json, s.game, s.layout
    return [
        {
            "card": cards[x[0]] if told or sees(game, lay, x[1], seat) or (len(x) > 2 and seat in x[2]) else None,
            **_place(s, x[1]),
        }
        for x in placed
    ]


def _reveal_seen(s: Any, ev: tuple, seat: int | None) -> dict[str, Any]:
    seats, placed = ev[2], ev[3]
    out: dict[str, Any] = {
        "after": ev[1],
        ev[0]: _seen_cards(s, placed, seat, seat is None or seats is None or seat in seats),
    }
    if seats is not None:
        out["to"] = list(seats)
    return out


def _shuffle_seen(s: Any, ev: tuple, seat: int | None) -> dict[str, Any]:
    out = {"after": ev[1], "shuffle": _place(s, ev[2])}
    if seat is None:
        out["cards"] = [s.game.cards.json[c] for c in ev[3]]
    else:
        out["count"] = len(ev[3])
    return out


def _moved_seen(s: Any, ev: tuple, seat: int | None) -> dict[str, Any]:
    """Cards moved: each named when the seat saw it where it was, or sees where it went; what they
    all have that every seat knows, ``"shared"`` (``{"rank": 5}``), whatever the seat."""
    told = seat is None or sees(s.game, s.layout, ev[3], seat)
    out = {"after": ev[1], ev[0]: _seen_cards(s, ev[2], seat, told), "to": _place(s, ev[3])}
    if len(ev) > 4:
        out["shared"] = dict(ev[4])
    return out


def note_shared(s: Any, shared: tuple) -> None:
    """Add to the cards the rules just moved (the round's last event, a narrating state's) what
    every seat knows they all have: ``((attribute, value), ...)``."""
    events = s.history[-1].get("events")
    if events and events[-1][0] == "moved" and events[-1][1] == len(s.history[-1]["moves"]):
        events[-1] = (*events[-1][:4], shared)


def compile_guard_knowledge(cx: ExprCompiler, guards: list[dict[str, Any]], scope: Scope) -> tuple:
    """What a card move's guards tell every seat of the card played: ``((attribute, f(state, env)),
    ...)`` for each test ``ATTR of card = V`` that must hold with V known to every seat (a `require`
    without `when`, or the move's only `allow`); () if none."""
    allows = [g for g in guards if g["kind"] == "allow"]
    binding = [g for g in guards if not g.get("when") and (g["kind"] == "require" or len(allows) == 1)]
    return tuple(
        (attr, cx.compile(v, scope))
        for g in binding
        for attr, v in attribute_tests(g["expr"], "card", lambda v: cx.public(v, scope))
    )


def tell_guarded(s: Any, p: int, rule: int, card: int, target: int) -> None:
    """A narrating state, as player ``p`` moves ``card`` to ``target`` by move rule ``rule`` (before
    it moves): what its guards tell every seat of the card (``("known", ...)``), the values read
    now, as the guards read them."""
    known = s.game.extra.get("guard_known", {}).get(rule)
    if not known or s.game.phases[s.phase].simultaneous:  # (a held move's guards read another time)
        return
    env = [None] * s.game.env_size
    env[0], env[1], env[2] = p, card, target
    s.tell(("known", p, card, s.loc[card], target, tuple((attr, v(s, env)) for attr, v in known)))


def _known_seen(s: Any, ev: tuple, seat: int | None) -> dict[str, Any]:
    """The card a move played, named to a seat that saw it (where it went, or its own from where it
    took it), with what its guards told every seat of it (``"shared"``)."""
    game, lay, (p, card, source, target) = s.game, s.layout, ev[2:6]
    told = seat is None or sees(game, lay, target, seat) or (seat == p and sees(game, lay, source, p))
    known = {"player": p, "card": s.game.cards.json[card] if told else None, **_place(s, target)}
    return {"after": ev[1], "known": known, "shared": dict(ev[6])}


def _swap_seen(s: Any, ev: tuple, seat: int | None) -> dict[str, Any]:
    """Two places exchanged: each with the cards it now holds (``holds``) when the seat sees it."""
    places = []
    for inst, cards in ((ev[2], ev[4]), (ev[3], ev[5])):
        place = _place(s, inst)
        if seat is None or sees(s.game, s.layout, inst, seat):
            place["holds"] = [s.game.cards.json[c] for c in cards]
        places.append(place)
    return {"after": ev[1], "swap": places}


def _eliminate_seen(s: Any, ev: tuple, seat: int | None) -> dict[str, Any]:
    return {"after": ev[1], "eliminate": ev[2]}


RECORDED = ("reveal", "shuffle")  # the kinds records keep and observations carry
SEEN = {  # kind -> the event as a seat is told of it (seat None: all of it)
    "reveal": _reveal_seen,
    "shuffle": _shuffle_seen,
    "show": _reveal_seen,
    "moved": _moved_seen,
    "drawn": _moved_seen,
    "swap": _swap_seen,
    "eliminate": _eliminate_seen,
    "known": _known_seen,
}


def event_record(s: Any, ev: tuple, seat: int | None = None) -> dict[str, Any]:
    """An event as records write it (``seat`` None), or as ``seat`` saw it: a card it was not
    shown and does not see is None; a shuffle's order is no seat's to know. Its kind is the key
    named as the kind (``"reveal"``, ``"moved"``...)."""
    return SEEN[ev[0]](s, ev, seat)


def round_events(s: Any, round_index: int, seat: int | None = None, every: bool = False) -> list[dict[str, Any]]:
    """The events of a round, as records write them or as ``seat`` saw them: the recorded kinds,
    or ``every`` kind a narrating state logged."""
    return [event_record(s, ev, seat) for ev in s.history[round_index].get("events", ()) if every or ev[0] in RECORDED]
