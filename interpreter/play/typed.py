"""A move typed at the terminal: its number, words of its text, or the names of its cards.

Card names are read first where a move asks for cards: ``sun 2`` is the card sun 2 (the
card the screen shows), never ``pot 2`` of another move's text; several cards may be typed at
once, separated any way (``hearts 12, spades 12``, ``hearts 12 spades 12``), then words of the
rest of the move (``sun 2 pot 3``). Cards named that are part of a set but not the
whole of one are kept, and the next line adds to them: a set chosen one card at a time.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

SEPARATORS = re.compile(r"[^\s,;+&]+")


def words(text: str) -> list[str]:
    """The words of a text, lower case, with no separators (``12,`` is ``12``; ``and`` is dropped)."""
    return [w for w in SEPARATORS.findall(text.lower()) if w != "and"]


class Offer(NamedTuple):
    """A move as the terminal offers it: its text and the names of the cards it plays (seen ones)."""

    text: str
    cards: tuple[str, ...]


class Reading(NamedTuple):
    """What a typed line names: the moves it fits (``hits``), and whether it named cards only part
    of a set (``partial``: the moves the cards so far may grow into)."""

    hits: list[int]
    partial: bool = False


def _fits(group: list[str], name: str) -> bool:
    have = Counter(words(name))
    return all(have[w] >= k for w, k in Counter(group).items())


def cards_named(typed: list[str], names: set[str]) -> tuple[list[set[str]], list[str]]:
    """The cards ``typed`` names, in order, as the longest runs of words that fit some card's
    name (each with the names it fits), and the words left after them."""
    groups: list[set[str]] = []
    i = 0
    while i < len(typed):
        best: tuple[int, set[str]] | None = None
        for j in range(i + 1, len(typed) + 1):
            fit = {n for n in names if _fits(typed[i:j], n)}
            if not fit:
                break
            best = (j, fit)
        if best is None:
            break
        i, fit = best
        groups.append(fit)
    return groups, typed[i:]


def _assign(groups: list[set[str]], cards: list[str]) -> bool:
    """Whether each named card can be a different card of ``cards``."""
    if not groups:
        return True
    first, rest = groups[0], groups[1:]
    return any(c in first and _assign(rest, cards[:k] + cards[k + 1 :]) for k, c in enumerate(cards))


def read(text: str, offers: list[Offer]) -> Reading:
    """The moves a typed line may mean: those whose cards are exactly the cards named (and whose
    other words hold the words left); else those whose text holds every word typed."""
    typed = words(text)
    if not typed:
        return Reading([])
    names = {n for o in offers for n in o.cards}
    groups, rest = cards_named(typed, names) if names else ([], typed)
    if groups:
        exact, grow = [], []
        for i, o in enumerate(offers):
            if not _fits(rest, o.text):
                continue
            if len(o.cards) == len(groups) and _assign(groups, list(o.cards)):
                exact.append(i)
            elif len(o.cards) > len(groups) and _assign(groups, list(o.cards)):
                grow.append(i)
        if exact:
            return Reading(exact)
        if grow and not rest:
            return Reading(grow, partial=True)
    return Reading([i for i, o in enumerate(offers) if _fits(typed, o.text)])
