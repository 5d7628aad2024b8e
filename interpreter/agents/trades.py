"""What a trade of two cards in a sampled world renames in the round's log, when each card keeps
what it did (belief.Belief.trade): the reveals that named a card still where it was revealed, and
the held choice that names a card by its place; when what each did goes with its place, the plays
the seat saw, which keep naming the card it saw."""

from __future__ import annotations

from typing import Any

from ..engine.card_sets import CardSet, swapped


def events_renamed(state: Any, log: Any, other: dict[int, int]) -> None:
    """The round's reveals (``log``'s events) naming, for a card still where it was revealed and not
    shuffled since, the card now at its place, as its moves do (State.swap_cards): a card the sample
    revealed where the seat saw another revealed is traded for one of that kind (agreement._hold),
    and the reveal is then of the card traded in. A card gone from there, or shuffled, is the card
    revealed, wherever a trade puts it since (a reveal the seat saw, then a shuffle, says what it saw)."""
    events, loc = log["events"], state.loc
    out = []
    for j, ev in enumerate(events):
        if ev[0] == "reveal" and any(c in other for c, _ in ev[3]):
            later = {e[2] for e in events[j + 1 :] if e[0] == "shuffle"}
            ev = (
                *ev[:3],
                tuple(
                    (other[c], i) if c in other and loc[other[c]] == i and i not in later else (c, i) for c, i in ev[3]
                ),
            )
        out.append(ev)
    log["events"] = out


def held_renamed(state: Any, other: dict[int, int]) -> None:
    """After two cards traded places keeping what each did (one whose play the seat saw, one that a
    held choice names): the held choice names the card now at its place, in the round's log too.
    The seat did not see that choice (the cards of those it saw are seen, and never trade): the
    sample guessed it, and made it of a place (War's turned card, the first of its stock); left on
    the card, it would take effect on a card out of its chooser's zone."""
    moves = state.history[-1]["moves"] if state.history else []
    held = []
    for p, m in state.pending:
        new = swapped(m, other)
        if new is not m and new != m:
            j = max((j for j, pm in enumerate(moves) if pm == (p, m)), default=None)
            if j is not None:  # (the latest equal one is the held one: observe.unrevealed_removed)
                moves[j] = (p, new)
        held.append((p, new))
    state.pending = held


def seen_plays_kept(log: Any, observed: list[dict[str, Any]], where: set[int], other: dict[int, int]) -> None:
    """After two cards traded places, what each did going with its place (the last play of each
    unseen): the round's moves whose card the seat saw (``observed``, the observation's moves, the
    first of ``log``'s; ``where``, the places among them of the plays the seat saw of the two) name
    again the card it saw, not the one now at its place. War's card turned up, won, then laid face
    down in a war: a trade of it named another card turned up in the past."""
    moves = log["moves"]
    n = min(len(moves), len(observed))
    for j in where:
        if j >= n or j < 0:
            continue
        p, mv = moves[j]
        m = observed[j]
        if mv.card >= 0:
            if mv.card in other and m.get("card") is not None:
                moves[j] = (p, mv._replace(card=other[mv.card]))
        elif "cards" in m and type(mv.target) is CardSet:
            cards = tuple(
                other[c] if c in other and x is not None else c
                for c, x in zip(mv.target.cards, m["cards"], strict=True)
            )
            if cards != mv.target.cards:
                moves[j] = (p, mv._replace(target=mv.target._replace(cards=cards)))
