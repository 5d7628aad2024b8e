"""What the seat learns of hidden hands from the moves it saw, kept as marks on the cards (issue 29).

The sampler (belief.py) replays the round's moves in a world it deals; a world dealt again
(inference.redeal) keeps only what the marks say: ``marks[c]``, the kinds the card ``c`` is known
not to be (the mark goes with the card as the rules move it). Two kinds of fact are read here, each
from the replay at the moment of a move, from the rules alone (nothing names a game):

- **a choice its player's hidden cards allowed** (an ask for a rank, legal only while the asker
  holds one): with the mover's unseen cards put aside, the choice is no longer legal; the kinds
  that, alone in the mover's place, make it legal again are what one of its cards must be: one
  card of the mover's of those kinds keeps them, under the key ``~card`` of the marks (a card's
  kinds it may be). Those are for dealing a world again only: a replay's mends trade cards as
  before (where they are bound by them, 3 Go Fish replays in 100 more found no world);
- **an outcome the seat saw** (whose turn came next, the events after): a player the move names
  (the player asked) who, holding a card of kind ``k`` instead of one of their own, would have made
  the replay give another player the turn (or other events) held none of that kind: each of their
  unseen cards then is marked with ``k`` (an answer "none of that rank": a hand-over would have
  kept the asker's turn). What the seat cannot tell apart (cards handed over or a lucky draw, both
  keep the turn) teaches nothing.

Each is a handful of trial moves on copies of the replay, once per observed move replayed; the
facts stay with the world kept for the seat's next decision. Only the sample and the observation
are read, never the real game.
"""

from __future__ import annotations

from typing import Any

from ..engine.records import find_move


def _hidden_places(belief: Any, player: int) -> list[int]:
    """The places of ``player`` the seat does not see (not of piles)."""
    game, lay = belief.game, belief.lay
    return [
        i
        for i in range(lay.size)
        if lay.owner[i] == player and i not in belief.visible_set and not game.zones[lay.zone_of[i]].piles
    ]


def _one_of_each_kind(belief: Any, state: Any, seen: set[int], skip: set[int]) -> dict[int, int]:
    """An unseen card of each kind in the hidden places not in ``skip`` (a kind -> a card)."""
    game, lay, kind = belief.game, belief.lay, belief.game.cards.kind
    out: dict[int, int] = {}
    for i in range(lay.size):
        if i in skip or i in belief.visible_set or game.zones[lay.zone_of[i]].piles:
            continue
        for c in state.zones[i]:
            if c not in seen:
                out.setdefault(kind[c], c)
    return out


def learn_holding(belief: Any, state: Any, m: dict[str, Any], seen: set[int]) -> None:
    """Before observed choice ``m`` is replayed in ``state``: if it is legal only while its mover
    holds some of their unseen cards, mark one such card with the kinds that could not stand for it."""
    if "card" in m or "cards" in m or "from" in m or m["player"] == belief.seat:
        return
    kind, marks = belief.game.cards.kind, belief.marks
    places = _hidden_places(belief, m["player"])
    mine = [c for i in places for c in state.zones[i] if c not in seen]
    if not mine:
        return
    trial = state.copy()
    park = belief.lay.base[belief.game.zone_index[belief.game.cards.deck_names[0]]]
    trial.move_cards(mine, park)
    if find_move(trial, m) is not None:  # (legal without them: it says nothing of them)
        return
    home = {c: state.loc[c] for c in mine}
    others = _one_of_each_kind(belief, state, seen, set(places))
    for c in mine:
        others.setdefault(kind[c], c)
    allow = set()
    for k, c in others.items():
        where = trial.loc[c]
        trial.move_cards([c], home.get(c, places[0]))
        if find_move(trial, m) is not None:
            allow.add(k)
        trial.move_cards([c], where)
    held = [c for c in mine if kind[c] in allow]
    if held and len(allow) < len(others):  # (any card would do: a count, no kind, is what it needs)
        marks[~held[0]] = allow


def learn_outcome(belief: Any, before: Any, after: Any, m: dict[str, Any], nxt: dict[str, Any], seen: set[int]) -> None:
    """Observed ``m`` was replayed from ``before`` to ``after``, where the next observed move
    ``nxt`` (its player) fits: mark the unseen cards of each hidden place of the player ``m``
    chose with the kinds that, in that place instead of one of its cards, give another outcome."""
    rule = next((r for r in belief.game.moves if r.name == m["move"]), None)
    if rule is None or rule.choice != "player" or m.get("value") in (None, belief.seat):
        return
    kind, marks = belief.game.cards.kind, belief.marks
    events = len(after.history[-1].get("events", ())) if after.history else 0
    for place in _hidden_places(belief, m["value"]):
        cards = [c for c in before.zones[place] if c not in seen]
        stayed = [c for c in cards if after.loc[c] == place]
        if not stayed:
            continue
        out = stayed[0]
        held = {kind[c] for c in cards}
        barred = set()
        for k, c in _one_of_each_kind(belief, before, seen, {place}).items():
            if k in held or belief.game.cards.deck_of[c] != belief.game.cards.deck_of[out]:
                continue
            trial = before.copy()
            trial.swap_cards(out, c)
            move = find_move(trial, m)
            if move is None:
                continue
            trial.apply(move)
            made = len(trial.history[-1].get("events", ())) if trial.history else 0
            if trial.is_over or trial.current_player != nxt["player"] or made != events:
                barred.add(k)
        if barred:
            for c in cards:
                marks.setdefault(c, set()).update(barred)
