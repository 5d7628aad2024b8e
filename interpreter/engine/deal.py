"""The deal: shuffle each deck, then deal to the players as the ruleset's deal lines say."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..errors import PlayError

if TYPE_CHECKING:  # (the compiled engine's type: this module's .pxd cimports StateFields and types
    # the deal's locals)
    from .state_fields import StateFields


def shuffle_decks(state: StateFields) -> None:
    """Every card back in its deck's zone, each deck shuffled (decks in declaration order)."""
    lay = state.layout
    decks, loc, _ = _round_plan(state.game, lay)
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


_PLAN: list[tuple] = [(None, None, None)]  # the last (game, layout, _round_plan): most often the one asked


def _round_plan(game: Any, lay: Any) -> tuple[tuple, tuple[int, ...], tuple[tuple, ...]]:
    """What a round's set-up reads of the rules for one layout, built once (kept for the last layout
    used, most often the one asked, and by layout: a layout is hashed by value, which is slow): each
    deck's zone instance with its cards in id order, where every card then is, and each deal line as
    (its rule, the deck's instance, whether it deals to a shared zone, the first instance dealt to,
    the instance of the rest or -1, its as-players and when, its amount, one at a time, whether its
    zone holds piles) so that a deal reads no rule's field by name."""
    last = _PLAN[0]
    if last[1] is lay and last[0] is game:
        return last[2]
    got = _PLANS.get(id(lay))
    if got is None or got[0] is not game or got[1] is not lay:
        inst_of = [lay.base[game.zone_index[name]] for name in game.cards.deck_names]
        loc = tuple(inst_of[deck] for deck in game.cards.deck_of)
        out = game.cards.absent(lay.players)  # copies this many players do not use (`x (2 * players)`)
        decks = tuple((inst, tuple(c for c, i in enumerate(loc) if i == inst and c not in out)) for inst in inst_of)
        lines = tuple(
            (
                rule,
                lay.base[rule.deck],
                not game.zones[rule.zone].per_player,
                lay.base[rule.zone],
                -1 if rule.rest is None else lay.base[rule.rest],
                rule.as_players,
                rule.as_players_when,
                rule.amount,
                rule.one_at_a_time,
                game.zones[rule.zone].piles,
            )
            for rule in game.deals
        )
        got = _PLANS[id(lay)] = (game, lay, (decks, loc, lines))
    _PLAN[0] = got
    return got[2]


_PLANS: dict[int, tuple[Any, Any, tuple]] = {}  # id of a layout -> (game, layout, _round_plan)


def deal(state: StateFields) -> None:
    """Run every deal line, in order, from the dealer's left (right after ``shuffle_decks``, which
    put every card in its deck: the cards dealt are relocated here, one zone at a time)."""
    n = state.n
    zones, loc = state.zones, state.loc  # (lists, as deck, dest and spare: typed in deal.pxd)
    env = [None] * state.game.env_size
    spares: dict[int, int] = {}  # deck zone -> how many removed cards (of spare seats) lie at its front
    for line in _round_plan(state.game, state.layout)[2]:
        rule, deck_inst, shared, first, aside, as_players, as_players_when, amount, one_at_a_time, piled = line
        deck = zones[deck_inst]
        if shared:
            _deal_shared(state, rule, deck, spares.get(rule.deck, 0), env)
            continue
        seats = n
        if as_players is not None and (as_players_when is None or as_players_when(state, env)):
            got = as_players(state, env)
            if not isinstance(got, int) or got < n:
                raise PlayError(f"cannot deal as if for {got} players to {n} players", rule.at)
            seats = got
        each = 1  # (one at a time: every seats-th card from the seat's first, a place apart)
        if amount is None:  # all, one at a time
            used = len(deck)
            one_at_a_time = True
        else:
            got = amount(state, env)
            if not isinstance(got, int) or got < 0:
                raise PlayError(f"cannot deal {got} cards to each player", rule.at)
            each = got
            used = each * seats
            if used > len(deck):
                raise PlayError(
                    f"the deal needs {used} cards ({each} for each of {seats} hands); the deck has {len(deck)}",
                    rule.at,
                )
        # The k-th seat from the dealer's left gets, one at a time, every seats-th card from the
        # deck's k-th (else the k-th run of `each`); a spare seat's cards (dealt as if for more
        # players) leave the round unseen, in the deck's own zone, in seat order.
        start = state.dealer + 1
        spare = []
        for seat in range(seats):
            k = (seat - start) % seats
            if one_at_a_time:
                lo, hi, step = k, used, seats
            else:
                lo, hi, step = k * each, (k + 1) * each, 1
            if seat >= n:
                spare.extend(deck[lo:hi:step])
                continue
            inst = first + seat
            place = inst  # (an object made once: compiled, each card's place set without making one)
            dest = zones[inst]
            if piled and lo < hi:  # a zone of piles: each seat's cards are one pile
                dest = []
                zones[inst].append(dest)
            i = lo
            while i < hi:  # (C integers, compiled: each card read and placed in place)
                card = deck[i]
                dest.append(card)
                c = card
                loc[c] = place
                i += step
        if aside >= 0:
            dest = zones[aside]
            place = aside
            for i in range(used, len(deck)):
                card = deck[i]
                dest.append(card)
                c = card
                loc[c] = place
            deck.clear()
        else:
            del deck[:used]
        if spare:
            deck[:0] = spare
            spares[rule.deck] = spares.get(rule.deck, 0) + len(spare)
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
