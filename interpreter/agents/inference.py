"""A world's hidden cards dealt again under what the seat knows: a constrained assignment.

The sampler (belief.py) finds one world that agrees with everything the seat observed, by replaying
the round once (and, decision after decision, by playing that replay on by the moves since). The
cards the seat has not seen, in the places it does not see, may then trade places among themselves
within what the seat knows of each place:

- a card only takes the place of a card of its own deck (what any deal or move could do);
- a place the seat was told of (`tell`) takes only a card of the values told;
- a place known not to hold some kinds (a move of its player that such a card would have made
  illegal: belief's ``marks``, which go with the place) takes none of them;
- cards the seat saw, was shown or had revealed to it, and cards in zones of piles, stay.

The new places are a bipartite matching of those cards to those places, made at random: each deck
at once, a shuffle where no place of it is constrained, else the most constrained places first,
each taking a random card among those it allows (Kuhn's augmenting paths when none is left). The
world's own places are always a solution, so there is always one. Every world so made agrees with
the observation: no replay, no sample wasted. It reads nothing the seat cannot see: only the world
found and the seat's observation.

Before that, the world found is made to hold, in every zone, as many cards as the seat sees there
(``fit_counts``): what the seat knows of hidden places is their counts now, not how many cards each
move it could not see into moved (an answer's cards handed over, a card drawn), so a replay whose
moves all fit the observed ones has its counts put right by moving unseen cards, rather than being
thrown away (Go Fish: 79% of the replays were, for counts alone).
"""

from __future__ import annotations

from typing import Any


def redeal(belief: Any, state: Any) -> None:
    """Give the cards of ``state`` that ``belief``'s seat has not seen, in the places it does not see,
    new places at random under what the seat knows of them (the module docstring)."""
    game, lay, seat = belief.game, belief.lay, belief.seat
    seen, marks = belief.seen, belief.marks
    zones, zone_of = game.zones, lay.zone_of
    fixed = {c for to, c, _ in state.shown if to == seat} | seen if state.shown else seen
    told: dict[int, list[tuple[str, Any]]] = {}
    for to, c, inst, attr, value in state.told:
        if to == seat and state.loc[c] == inst:
            told.setdefault(c, []).append((attr, value))
    by_deck: dict[int, list[int]] = {}
    deck_of, visible = game.cards.deck_of, belief.visible_set
    for inst in range(lay.size):
        if inst in visible or zones[zone_of[inst]].piles:
            continue
        for c in state.zones[inst]:
            if c not in fixed:
                by_deck.setdefault(deck_of[c], []).append(c)
    rng = belief.rng
    target: dict[int, int] = {}  # a place (the card now there) -> the card that goes there
    for places in by_deck.values():
        cards = list(places)
        if not any(a in marks or ~a in marks or a in told for a in places):
            rng.shuffle(cards)
            target.update(zip(places, cards, strict=True))
        else:
            target.update(_matching(places, _candidates(game, places, marks, told), rng))
    _place(belief, state, target)


def _candidates(game: Any, places: list[int], marks: dict, told: dict) -> dict[int, list[int]]:
    """Per place (the card now there), the cards of ``places`` that may go there."""
    kind, attrs = game.cards.kind, game.cards.attrs
    of_kind: dict[int, list[int]] = {}
    for c in places:
        of_kind.setdefault(kind[c], []).append(c)
    out = {}
    for a in places:
        barred, facts, may = marks.get(a, ()), told.get(a, ()), marks.get(~a)
        out[a] = [
            c
            for k, cs in of_kind.items()
            if k == kind[a]
            or (k not in barred and (may is None or k in may) and all(attrs[at][cs[0]] == v for at, v in facts))
            for c in cs
        ]
    return out


def _matching(places: list[int], candidates: dict[int, list[int]], rng: Any) -> dict[int, int]:
    """A random perfect matching of places to cards (each place one of its candidates): the places
    with the fewest candidates first, each a random free candidate, else an augmenting path."""
    order = list(places)
    rng.shuffle(order)
    order.sort(key=lambda a: len(candidates[a]))
    owner: dict[int, int] = {}  # card -> the place it goes to
    for a in order:
        cands = candidates[a]
        rng.shuffle(cands)
        free = next((c for c in cands if c not in owner), None)
        if free is not None:
            owner[free] = a
        elif not _augment(a, candidates, owner, set()):  # (never: the world's own places are a matching)
            raise AssertionError("no matching of hidden cards to places")
    return {a: c for c, a in owner.items()}


def _augment(a: int, candidates: dict[int, list[int]], owner: dict[int, int], visited: set[int]) -> bool:
    """Kuhn's step: give place ``a`` a candidate, moving the place that holds it to another."""
    for c in candidates[a]:
        if c in visited:
            continue
        visited.add(c)
        if c not in owner or _augment(owner[c], candidates, owner, visited):
            owner[c] = a
            return True
    return False


def _place(belief: Any, state: Any, target: dict[int, int]) -> None:
    """Put each card where ``target`` says, by trades of two cards (belief.trade: what each did goes
    as the sampler's swaps say)."""
    holder = {a: a for a in target}  # place -> the card in it now
    where = {a: a for a in target}  # card -> the place it is in now
    swap = belief.trade
    for a, c in target.items():
        d = holder[a]
        if d == c:
            continue
        s = where[c]
        swap(state, d, c)
        holder[a], holder[s] = c, d
        where[c], where[d] = a, s


def fit_counts(belief: Any, state: Any, seen: set[int]) -> bool:
    """Make the zones of a replayed ``state`` hold as many cards as the seat sees in each, and the
    piles it sees, by moving cards between places: a replay whose moves all fit may still have
    handed over or drawn other numbers of cards than the game where the seat could not see it (an
    answer's cards, unseen; a card drawn; a book laid down from them), and the seat knows only the
    zones now. A zone of piles the seat sees is made of its cards as it sees them (the cards first
    from that zone, then unseen ones from hidden places, then from places the seat sees, put right
    below); a place the seat sees gives up the cards it does not see there (none a player played
    there: then the replay went otherwise than the game, and it does not fit) and takes, of the
    kinds it sees, unseen cards from hidden places; a hidden place with too many gives up unseen cards
    (never one the seat saw go there, nor one shown or told to it) to those with too few, each card
    only to a zone its deck may be dealt to. What was known of a moved card's old place (``marks``)
    does not go with it. Whether the zones agree now (else the state is left half moved)."""
    game, lay, rng, kind = belief.game, belief.lay, belief.rng, belief.game.cards.kind
    zones, zone_of, deck_of = game.zones, lay.zone_of, game.cards.deck_of
    want: dict[int, int] = {}  # a place not of piles -> its count
    views: dict[int, list] = {}  # a place the seat sees -> the kinds it sees there (piles: by pile)
    for name, vs in belief.obs["zones"].items():
        z = game.zone_index[name]
        for inst, view in zip(lay.instances[z], vs, strict=True):
            if zones[z].piles:
                if not isinstance(view, dict):
                    views[inst] = [[belief.kind(c) for c in pile] for pile in view]
            elif isinstance(view, dict):
                want[inst] = view["count"]
            else:
                want[inst], views[inst] = len(view), [belief.kind(c) for c in view]
    piles = [i for i in views if i not in want]
    if all(len(state.zones[i]) == n for i, n in want.items()) and all(
        [[kind[c] for c in pile] for pile in state.zones[i]] == views[i] for i in piles
    ):
        return True
    marks, played = belief.marks, state.played_by
    fixed = {c for to, c, _ in state.shown if to == belief.seat} | {c for to, c, *_ in state.told if to == belief.seat}
    hidden = [i for i in want if i not in views]
    # a hidden place with more cards than the seat counts there holding a card a player played: the
    # rules moved it there in the replay, and maybe into the seat's sight in the game (a trick shown
    # or buried by what its face-down cards were), so a place the seat sees is short of a played card
    # that no unplayed card stands for (who played a card the seat sees is part of what it sees)
    strayed = any(played[c] >= 0 for i in hidden if len(state.zones[i]) > want[i] for c in state.zones[i])
    pool: list[int] = []  # cards taken out (still where they were), to go where cards are missing
    taken: set[int] = set()  # cards chosen for the piles the seat sees

    def unseen_of(k: int) -> int | None:  # an unseen card of kind k in a hidden place (or the pool)
        c = next((c for c in pool if kind[c] == k), None)
        if c is None:
            c = next(
                (
                    c
                    for i in hidden
                    for c in state.zones[i]
                    if kind[c] == k and c not in seen and c not in fixed and c not in taken
                ),
                None,
            )
        if c in pool:
            pool.remove(c)
        return c

    for inst in piles:  # the piles the seat sees, as it sees them
        had = state.zone_cards(inst)
        if [[kind[c] for c in pile] for pile in state.zones[inst]] == views[inst]:
            continue
        spare = list(had)
        made = []
        for pile in views[inst]:
            cards = []
            for k in pile:
                c = next((c for c in spare if kind[c] == k), None)
                if c is not None:
                    spare.remove(c)
                elif strayed:  # (a card short here: see above)
                    return False
                else:
                    c = unseen_of(k)
                if c is None:  # one the seat saw go into a hidden place, then one the sample put in its sight
                    free = [c for c in belief.ids_of[k] if c not in taken and c not in fixed]
                    c = next((c for c in free if state.loc[c] in hidden), None)
                    c = c if c is not None else next((c for c in free if state.loc[c] in want), None)
                if c in pool:
                    pool.remove(c)
                if c is None:
                    return False
                cards.append(c)
                taken.add(c)
            made.append(cards)
        if any(played[c] >= 0 for c in spare):  # (a card played there: see below)
            return False
        pool.extend(spare)
        seen.difference_update(spare)
        for cards in made:
            state.move_cards(cards, inst)
            seen.update(cards)
            for c in cards:
                marks.pop(c, None)
                marks.pop(~c, None)
    for inst in want:  # the places the seat sees: the cards it does not see there out, those it sees in
        if inst not in views or len(state.zones[inst]) == want[inst]:
            continue
        left = list(views[inst])
        extra = []
        for c in state.zones[inst]:
            if kind[c] in left:
                left.remove(kind[c])
            else:
                extra.append(c)
        out = len(state.zones[inst]) - want[inst]
        if out > 0:
            # (never a card a player played: who played a card the seat sees is part of what it
            # sees, and it played there means the replay went otherwise than the game: a trick won
            # by another player, which no move of its cards mends)
            if any(played[c] >= 0 for c in extra[:out]):
                return False
            pool.extend(extra[:out])
            seen.difference_update(extra[:out])
            continue
        if strayed:  # (a card short here: see above)
            return False
        for k in left[:-out]:
            c = unseen_of(k)
            if c is None:
                return False
            state.move_cards([c], inst)
            seen.add(c)
            marks.pop(c, None)
            marks.pop(~c, None)
    for inst in hidden:  # then the hidden places with too many give up unseen cards
        over = len(state.zones[inst]) - want[inst]
        if over > 0:
            free = [c for c in state.zones[inst] if c not in seen and c not in fixed and c not in pool]
            if len(free) < over:
                return False
            rng.shuffle(free)
            pool.extend(free[:over])
    rng.shuffle(pool)
    for inst in hidden:  # to those with too few: a card of a kind the place is not known to lack, first
        short = want[inst] - len(state.zones[inst])
        if short <= 0:
            continue
        held = [marks.get(c, set()) for c in state.zones[inst] if c not in seen]
        lacks = set.intersection(*held) if held else set()
        for _ in range(short):
            fit = [c for c in pool if zone_of[inst] in belief.deck_zones[deck_of[c]]]
            c = next((c for c in fit if kind[c] not in lacks), fit[0] if fit else None)
            if c is None:
                return False
            pool.remove(c)
            state.move_cards([c], inst)
            marks.pop(~c, None)
            if lacks:  # (the place still lacks those kinds: the card stands for one it was given unseen)
                marks[c] = set(lacks)
            else:
                marks.pop(c, None)
    return not pool  # (a card with nowhere to go: no zone the seat sees nor hidden place wanted it)
