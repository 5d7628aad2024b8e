"""The deal: shuffle each deck, then deal to the players as the ruleset's deal lines say."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..errors import PlayError

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields


def shuffle_decks(state: StateFields) -> None:
    """Every card back in its deck's zone, each deck shuffled (decks in declaration order)."""
    lay = state.layout
    decks, loc = _decks(state.game, lay)
    # empty zones, one a zone instance (the layout's typed field read, not its size property: compiled,
    # a loop in C without a call a zone)
    zones = state.zones = [[] for _ in range(len(lay.zone_of))]
    rng = state.rng
    plain = type(rng) is random.Random
    for inst, cards in decks:
        zone = zones[inst] = list(cards)
        if plain:
            _shuffle(rng.getrandbits, zone)
        else:
            rng.shuffle(zone)
    state.loc = list(loc)


def _shuffle(getrandbits: Any, x: list) -> None:
    """``random.Random.shuffle(x)``, draw for draw (Fisher-Yates, each index drawn by rejection from
    ``getrandbits`` as ``Random._randbelow`` does), without a Python call per card."""
    k = len(x).bit_length()  # the bits of the number of places left, n: kept as n goes down
    low = 1 << k >> 1  # the least n of k bits
    for i in reversed(range(1, len(x))):
        n = i + 1
        if n < low:
            k -= 1
            low >>= 1
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


_DECKS: dict[int, tuple[Any, Any, tuple]] = {}  # id of a layout -> (game, layout, _decks)


def _decks(game: Any, lay: Any) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...]]:
    """Each deck's zone instance with its cards in id order, and where every card then is (kept by
    layout: a layout is hashed by value, which is slow)."""
    got = _DECKS.get(id(lay))
    if got is None or got[0] is not game or got[1] is not lay:
        inst_of = [lay.base[game.zone_index[name]] for name in game.cards.deck_names]
        loc = tuple(inst_of[deck] for deck in game.cards.deck_of)
        out = game.cards.absent(lay.players)  # copies this many players do not use (`x (2 * players)`)
        decks = tuple((inst, tuple(c for c, i in enumerate(loc) if i == inst and c not in out)) for inst in inst_of)
        got = _DECKS[id(lay)] = (game, lay, (decks, loc))
    return got[2]


def deal(state: StateFields) -> None:
    """Run every deal line, in order, from the dealer's left (right after ``shuffle_decks``, which
    put every card in its deck: the cards dealt are relocated here, one zone at a time)."""
    game, lay, n = state.game, state.layout, state.n
    zones, loc = state.zones, state.loc
    env = [None] * game.env_size
    spares: dict[int, int] = {}  # deck zone -> how many removed cards (of spare seats) lie at its front
    for rule in game.deals:
        deck = zones[lay.base[rule.deck]]
        if not game.zones[rule.zone].per_player:
            _deal_shared(state, rule, deck, spares.get(rule.deck, 0), env)
            continue
        seats = n
        if rule.as_players is not None and (rule.as_players_when is None or rule.as_players_when(state, env)):
            seats = rule.as_players(state, env)
            if not isinstance(seats, int) or seats < n:
                raise PlayError(f"cannot deal as if for {seats} players to {n} players", rule.at)
        start = state.dealer + 1
        hands: list[list[int]] = [[]] * seats  # each seat gets its own slice below
        if rule.amount is None:  # all, one at a time: the k-th from the dealer's left gets every seats-th card
            for k in range(seats):
                hands[(start + k) % seats] = deck[k::seats]
            used = len(deck)
        else:
            each = rule.amount(state, env)
            if not isinstance(each, int) or each < 0:
                raise PlayError(f"cannot deal {each} cards to each player", rule.at)
            used = each * seats
            if used > len(deck):
                raise PlayError(
                    f"the deal needs {used} cards ({each} for each of {seats} hands); the deck has {len(deck)}",
                    rule.at,
                )
            if rule.one_at_a_time:
                for k in range(seats):
                    hands[(start + k) % seats] = deck[k:used:seats]
            else:
                for k in range(seats):
                    hands[(start + k) % seats] = deck[k * each : (k + 1) * each]
        spare = [card for seat in range(n, seats) for card in hands[seat]] if seats > n else []
        rest = deck[used:]
        first: cython.Py_ssize_t = lay.base[rule.zone]
        inst: cython.Py_ssize_t  # (C integers, compiled: each card's place set in place)
        card: cython.Py_ssize_t
        piled = game.zones[rule.zone].piles  # a zone of piles: each seat's cards are one pile
        for seat in range(n):
            inst = first + seat
            if piled and hands[seat]:
                zones[inst].append(list(hands[seat]))
            else:
                zones[inst].extend(hands[seat])
            for card in hands[seat]:
                loc[card] = inst
        deck[:] = spare  # cards of a spare seat leave the round unseen, in the deck's own zone
        spares[rule.deck] = spares.get(rule.deck, 0) + len(spare)
        if rule.rest is not None:
            aside: cython.Py_ssize_t = lay.base[rule.rest]
            zones[aside].extend(rest)
            for card in rest:
                loc[card] = aside
        else:
            deck.extend(rest)
    state.zmemo = {}


def _deal_shared(state: StateFields, rule: Any, deck: list[int], spare: int, env: list) -> None:
    """Deal N cards (or all) from the deck to a shared zone, or to each of its instances (`each`):
    set-up, nobody's move. Cards of spare seats at the deck's front stay there, unseen."""
    insts = state.layout.instances[rule.zone]
    available = len(deck) - spare
    if rule.amount is None:  # all, one at a time round the instances
        piles = [deck[spare + k :: len(insts)] for k in range(len(insts))]
        used = available
    else:
        each = rule.amount(state, env)
        if not isinstance(each, int) or each < 0:
            raise PlayError(f"cannot deal {each} cards to {state.game.zones[rule.zone].name}", rule.at)
        used = each * len(insts)
        if used > available:
            raise PlayError(f"the deal needs {used} cards; the deck has {available} left", rule.at)
        piles = [deck[spare + k * each : spare + (k + 1) * each] for k in range(len(insts))]
    zones, loc = state.zones, state.loc
    piled = state.game.zones[rule.zone].piles
    for inst, cards in zip(insts, piles, strict=True):
        if piled and cards:
            zones[inst].append(list(cards))
        else:
            zones[inst].extend(cards)
        for card in cards:
            loc[card] = inst
    del deck[spare : spare + used]


def place(state: StateFields, contents: dict[str, Any]) -> None:
    """Lay out a recorded deal instead of shuffling and dealing (for replays)."""
    from .cards import signature

    game, lay = state.game, state.layout
    pool = game.cards.by_signature()
    absent = game.cards.absent(state.n)  # copies this many players do not use
    if absent:
        pool = {sig: tuple(c for c in ids if c not in absent) for sig, ids in pool.items()}
    taken: dict[tuple, int] = {}
    zones = state.zones = [[] for _ in range(lay.size)]

    def card_id(card: Any) -> int:
        if not isinstance(card, dict):
            raise PlayError(f"a card in a record is an object of its type and attributes, not {card!r}")
        sig = signature(card)
        ids = pool.get(sig)
        k = taken.get(sig, 0)
        if not ids or k >= len(ids):
            raise PlayError(f"the recorded deal holds a card the rules do not have (or too many): {card}")
        taken[sig] = k + 1
        return ids[k]

    for name, value in contents.items():
        if name not in game.zone_index:
            raise PlayError(f"the recorded deal names no zone of these rules: '{name}'")
        z = game.zone_index[name]
        spec = game.zones[z]
        instances = lay.instances[z]
        lists = [value] if len(instances) == 1 and not spec.per_player else value
        if not isinstance(lists, list) or len(lists) != len(instances):
            raise PlayError(f"the recorded deal of '{name}' should list {len(instances)} piles of cards")
        for inst, cards in zip(instances, lists, strict=True):
            ids = [card_id(c) for c in cards]
            zones[inst] = [ids] if spec.piles and ids else ids  # a zone of piles: its dealt cards, one pile
    if sum(taken.values()) != len(game.cards) - len(absent):
        have = len(game.cards) - len(absent)
        raise PlayError(f"the recorded deal holds {sum(taken.values())} cards; the rules have {have}")
    state.reindex()
