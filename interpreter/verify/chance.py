# cython: annotation_typing=False
"""Chance, enumerated. The engine draws all its chance from ``state.rng``, and verify's states only
ever shuffle (a deck before the deal, a `shuffle` effect): ``Scripted`` is a Random whose shuffles
follow a script of orders, one per shuffle, and that stops with ``NeedChance`` at the first shuffle
the script does not cover. ``outcomes`` then runs the step again once for each distinct order of
the cards being shuffled, so that every deal (and every later shuffle) is reached.

Alike cards are interchangeable: two orders that differ only by swapping two copies of one card
(same type and attributes, and, mid-round, played by the same seat) lead to the same game, so
only one of them is tried. Any other draw of chance (there is none in the engine today) stops
with ``Unenumerable``, so that nothing is sampled behind verify's back.

Many orders of the decks deal the same hands: when the deal places cards by their places in the
decks alone (order.dealt_by_place), ``outcomes_by_place`` tells from an order, without dealing
it, the cards each zone gets (``placed``); an order whose deal an earlier order gave is not dealt
again (on Kedric Winks' shrunk deck, 2,520 deals of 30,240 orders).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from math import factorial
from typing import Any

from ..engine.cards import signature


class NeedChance(Exception):
    """A shuffle the script does not cover: the cards to shuffle, each with its token (alike
    cards share a token)."""

    def __init__(self, cards: list[int], tokens: list[Any]):
        super().__init__("a shuffle to enumerate")
        self.cards, self.tokens = cards, tokens


class Unenumerable(Exception):
    """The rules drew chance other than a shuffle: verify cannot list its outcomes."""


class Scripted(random.Random):
    """A Random whose shuffles put the cards in the orders of ``script`` (lists of card ids)."""

    def __init__(self, script: tuple[tuple[int, ...], ...], classes: tuple[int, ...], state: Any = None):
        # (no seeding: nothing is ever drawn from the generator, and seeding costs as much as a move)
        self.script, self.at, self.classes, self.state = script, 0, classes, state

    def getstate(self) -> Any:  # what a copy of the state takes along (State.copy): the script's place
        return (self.script, self.at, self.classes)

    def setstate(self, state: Any) -> None:
        self.script, self.at, self.classes = state
        self.state = None

    def shuffle(self, x: list, random: Any = None) -> None:  # (random: the signature of Random's)
        if self.at >= len(self.script):
            played = self.state.played_by if self.state is not None else None
            cls = self.classes
            tokens = [cls[c] if played is None or played[c] < 0 else (cls[c], played[c]) for c in x]
            raise NeedChance(list(x), tokens)
        order = self.script[self.at]
        if sorted(order) != sorted(x):
            raise Unenumerable("a scripted shuffle got other cards than it was listed for")
        x[:] = order
        self.at += 1

    def random(self) -> float:
        raise Unenumerable("the rules draw a random number, not only shuffles")

    def getrandbits(self, k: int) -> int:
        raise Unenumerable("the rules draw random bits, not only shuffles")


def card_classes(game: Any) -> tuple[int, ...]:
    """Card id -> its class: cards alike (same type and attributes) share one."""
    seen: dict[tuple, int] = {}
    return tuple(seen.setdefault(signature(card), len(seen)) for card in game.cards.json)


def orders(cards: list[int], tokens: list[Any]) -> Iterator[tuple[int, ...]]:
    """Every distinct order of ``cards`` up to alike cards (same token): copies of one card are
    placed in id order, so each order of tokens is yielded once, as card ids. The orders come in
    the lexicographic order of their groups (a group: a token, numbered as it first comes)."""
    seq, ids = _groups(cards, tokens)
    return _orders(seq, ids)


def _groups(cards: list[int], tokens: list[Any]) -> tuple[list[int], list[list[int]]]:
    """The first order of a shuffle's groups of alike cards (a group: a token, numbered as it
    first comes; the groups in turn), and each group's cards in id order."""
    groups: dict[Any, list[int]] = {}
    for c, t in zip(cards, tokens, strict=True):
        groups.setdefault(t, []).append(c)
    ids = [sorted(same) for same in groups.values()]
    return [g for g, same in enumerate(ids) for _ in same], ids


def _orders(seq: list[int], ids: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Each order of the groups from ``seq`` on, lexicographically, as card ids."""
    taken = [0] * len(ids)
    while True:
        yield _order(seq, ids, taken)
        if not _next(seq):
            return


def _order(seq: list[int], ids: list[list[int]], taken: list[int]) -> tuple[int, ...]:
    """The cards of an order of the groups: the n-th of a group's places takes its n-th card."""
    for g in range(len(taken)):
        taken[g] = 0
    out = [0] * len(seq)
    for i in range(len(seq)):
        g = seq[i]
        out[i] = ids[g][taken[g]]
        taken[g] += 1
    return tuple(out)


def _next(seq: list[int]) -> bool:
    """The next order of the groups after ``seq`` (a multiset's next permutation), in place;
    False after the last."""
    n = len(seq)
    i = n - 2  # the last place whose group can grow
    while i >= 0 and seq[i] >= seq[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = n - 1
    while seq[j] <= seq[i]:
        j -= 1
    seq[i], seq[j] = seq[j], seq[i]
    j = n - 1
    i += 1
    while i < j:  # the places after it, reversed: their least order
        seq[i], seq[j] = seq[j], seq[i]
        i += 1
        j -= 1
    return True


def count_orders(tokens: list[Any]) -> int:
    """How many distinct orders ``orders`` yields: the multinomial of the tokens' counts."""
    total = factorial(len(tokens))
    counts: dict[Any, int] = {}
    for t in tokens:
        counts[t] = counts.get(t, 0) + 1
    for k in counts.values():
        total //= factorial(k)
    return total


def outcomes(
    step: Callable[[Scripted], Any], classes: tuple[int, ...], limit: int, script: tuple = ()
) -> Iterator[tuple[tuple[tuple[int, ...], ...], Any]]:
    """Each way chance can go in ``step(rng)``: (the script of orders, what the step gave). A step
    that shuffles n times is run once per combination of orders; ``limit`` bounds the orders of
    one shuffle (more is a ``TooManyOrders``: the deck must be shrunk)."""
    try:
        yield script, step(Scripted(script, classes))
    except NeedChance as need:
        many = count_orders(need.tokens)
        if many > limit:
            raise TooManyOrders(len(need.cards), many) from None
        for order in orders(need.cards, need.tokens):
            yield from outcomes(step, classes, limit, (*script, order))


class TooManyOrders(Exception):
    """A shuffle with more distinct orders than the exploration may hold."""

    def __init__(self, cards: int, many: int):
        size = f"{many:,}" if many < 10**15 else f"about 10^{len(str(many)) - 1}"
        super().__init__(f"a shuffle of {cards} cards has {size} distinct orders")
        self.cards, self.many = cards, many


def first_outcome(
    step: Callable[[Scripted], Any], classes: tuple[int, ...], limit: int
) -> tuple[tuple[tuple[int, ...], ...], Any, list[tuple[list[int], list[Any]]]]:
    """The first way chance goes in ``step`` (``outcomes``' first): its script, what the step gave,
    and each shuffle it made: (its cards, their tokens)."""
    script: tuple[tuple[int, ...], ...] = ()
    shuffles = []
    while True:
        try:
            return script, step(Scripted(script, classes)), shuffles
        except NeedChance as need:
            many = count_orders(need.tokens)
            if many > limit:
                raise TooManyOrders(len(need.cards), many) from None
            shuffles.append((need.cards, need.tokens))
            script = (*script, next(orders(need.cards, need.tokens)))


def outcomes_by_place(
    step: Callable[[Scripted], Any],
    classes: tuple[int, ...],
    limit: int,
    shuffles: list[tuple[list[int], list[Any]]],
    places: list[list[int]],
    sorted_at: bytes,
) -> Iterator[tuple[tuple[tuple[int, ...], ...] | None, Any]]:
    """``outcomes(step)`` for a step that begins with ``shuffles`` (the same cards whatever the
    orders: the decks) and deals by place: in the same sequence, but the orders of the decks that
    deal what an earlier order did (the same ``placed`` key) not run: (None, n) for n such outcomes
    in a row (an earlier order's outcomes: more shuffles after the deal count each), the step not run.

    The orders are walked as each shuffle's groups of alike cards (``orders``), the last shuffle's
    the fastest, and each order's deal is told from its groups' classes in C (``_placed_groups``):
    a card-id order is made only for a deal not seen before."""
    given: dict[bytes, int] = {}
    at = [bytes(a) for a in places]  # (fewer than 256 places: explore._deal_places)
    seqs, ids = [], []
    for cards, tokens in shuffles:
        seq, same = _groups(cards, tokens)
        seqs.append(seq)
        ids.append(same)
    # group -> its cards' class (a byte: explore._deal_places takes classes below 255)
    kinds = [bytes([classes[cs[0]] for cs in same]) for same in ids]
    taken = [[0] * len(same) for same in ids]
    skipped = 0
    while True:
        dealt = _placed_groups(seqs, kinds, at, sorted_at)
        k = given.get(dealt)
        if k is None:
            if skipped:
                yield None, skipped
                skipped = 0
            script = tuple([_order(seqs[x], ids[x], taken[x]) for x in range(len(seqs))])
            k = 0
            for out in outcomes(step, classes, limit, script):
                k += 1
                yield out
            given[dealt] = k
        else:
            skipped += k
        if not _advance(seqs):
            break
    if skipped:
        yield None, skipped


def _advance(seqs: list[list[int]]) -> bool:
    """The next combination of the shuffles' orders (the last shuffle's the fastest), in place;
    False after the last."""
    for k in range(len(seqs) - 1, -1, -1):
        if _next(seqs[k]):
            return True
        seqs[k].sort()  # (its first order again; the shuffle before it moves on)
    return False


def _placed_groups(seqs: list[list[int]], kinds: list[bytes], places: list[bytes], sorted_at: bytes) -> bytes:
    """``placed`` for the orders ``seqs`` (each shuffle's groups, one after the other) whose groups'
    classes are ``kinds``: the class at each place, then ``_placed_at``."""
    n = 0
    for k in range(len(seqs)):
        n += len(seqs[k])
    tokens = bytearray(n)
    i = 0
    for k in range(len(seqs)):
        seq = seqs[k]
        kind = kinds[k]
        for j in range(len(seq)):
            g = seq[j]
            tokens[i] = kind[g]
            i += 1
    return _placed_at(bytes(tokens), places, sorted_at)


def placed(script: tuple, places: list[list[int]], classes: bytes, sorted_at: bytes) -> bytes:
    """The classes of the cards each zone instance gets from the orders ``script`` (sorted in a
    zone whose order no rule tells), each zone closed by 255: ``places[i]`` lists the places, in
    the orders one after the other, whose cards zone instance i gets (``classes``: each card's,
    a byte below 255; fewer than 256 places)."""
    return _placed_at(bytes([classes[c] for order in script for c in order]), [bytes(a) for a in places], sorted_at)


def _placed_at(tokens: bytes, places: list[bytes], sorted_at: bytes) -> bytes:
    """``placed`` from the class of the card at each place (``tokens``) and each zone instance's
    places (bytes: fewer than 256 places)."""
    out = bytearray(len(tokens) + len(places))  # (written in place: a place's card, a zone's end)
    k = 0
    for i in range(len(places)):
        at = places[i]
        start = k
        ranked = len(at) > 1 and sorted_at[i]
        for j in at:
            token = tokens[j]
            m = k
            k += 1
            if ranked:  # (each token put in its place as it comes)
                while m > start and out[m - 1] > token:
                    out[m] = out[m - 1]
                    m -= 1
            out[m] = token
        out[k] = 255
        k += 1
    del out[k:]
    return bytes(out)
