"""The sampler's agreement with what the seat sees (a mixin of belief.Belief): at the end of a
replay, the zones the seat sees hold what it sees, in its order (piles too), the hidden places
hold the cards shown or revealed to it and the values it was told, by trades of unseen cards of
one deck (belief.Belief._swap). Nothing here reads the real game: only the observation."""

from __future__ import annotations

from typing import Any


class Agreement:
    """Making a replayed state agree with the seat's observation (the methods of belief.Belief that
    put its zones right, card by card)."""

    def _reconcile(self, state: Any, seen: set[int]) -> bool:
        """Make the zones the seat sees hold what it sees, card by card in their order (cards
        drawn or played unseen may differ): a wrong card trades places with a right one from
        further on in the zone or with an unseen one from a hidden place. What the state knows of
        a place stays with it (who played its card: see ``State.swap_cards``), so a card the seat
        saw go into a hidden place (drawn from a public pile) is never the one traded: it would
        leave that place with another card holding its part."""
        game, lay, kind = self.game, self.lay, self.game.cards.kind
        visible = set(self.visible)
        for inst in range(lay.size):  # (issue 30) the seat's own hand held facing out: what the sample put
            if lay.owner[inst] == self.seat and game.zones[lay.zone_of[inst]].visibility == "others":
                seen.difference_update(state.zone_cards(inst))  # there the seat never saw, whatever it saw before
        for name, views in self.obs["zones"].items():
            z = game.zone_index[name]
            if game.zones[z].piles:
                if not all(self._piles(state, inst, view) for inst, view in zip(lay.instances[z], views, strict=True)):
                    return False
                continue
            for inst, view in zip(lay.instances[z], views, strict=True):
                if isinstance(view, dict):
                    if view["count"] != len(state.zones[inst]):
                        return False
                    continue
                content = state.zones[inst]
                if len(content) != len(view):
                    return False
                kinds = [self.kind(c) for c in view]
                for i, k in enumerate(kinds):
                    if kind[content[i]] == k:
                        continue
                    other = next((c for c in content[i + 1 :] if kind[c] == k), None)
                    if other is not None:  # two cards the seat sees, in another order: what each did goes as _swap says
                        if (
                            self._saw_played(state, content[i]) or self._saw_played(state, other)
                        ) and self._unseen_plays(state, content):
                            # (a card whose play the seat saw, in another place of the zone: the cards
                            # came in another order, and who played one the seat saw played unseen
                            # goes with its place, now another's: a trick shown after another)
                            return False
                        self._swap(state, content[i], other)
                        continue
                    if other is None:
                        other = next(
                            (
                                c
                                for c in self.ids_of[k]
                                if c not in seen
                                and state.loc[c] not in visible
                                and not game.zones[lay.zone_of[state.loc[c]]].piles
                            ),
                            None,
                        )
                    wrong = content[i]
                    if self._saw_played(state, wrong):  # (a copy of it nobody played goes instead: Lost
                        # Cities' discarded wager drawn back, a copy of it held; the played one stays)
                        alt = next(
                            (
                                c
                                for c in content
                                if c != wrong and kind[c] == kind[wrong] and not self._saw_played(state, c)
                            ),
                            None,
                        )
                        if alt is not None:
                            self._swap(state, wrong, alt)
                            wrong = content[i]
                    if other is None or self._saw_played(state, wrong):
                        # (a card whose play the seat saw, in a place the seat sees, where it sees no
                        # such card, or out of its order where the order decides who played a card:
                        # the rules moved it otherwise than in the game, a trick shown for another or
                        # after another; a trade there would leave a card nobody played, or another
                        # player's, where the game's was)
                        return False
                    self._swap(state, wrong, other)
                    # the seat never saw that card where the sample had it, nor where it goes now (a
                    # hidden place): another's hand held facing out (issue 30), a card the sample drew,
                    # a copy seen before that a replayed move left in place of the one it played
                    seen.discard(wrong)
        self.provisional.clear()  # (the zones the seat sees hold what it sees: no card there is a guess)
        return True

    def _saw_played(self, state: Any, card: int) -> bool:
        """Whether the seat saw ``card`` played (its last play, in the replay: ``known``) and sees it
        where it lies, not a guess of the replay's drawn into its sight since (``provisional``: a
        card played, shuffled into a stock, then drawn: the card the seat drew is another)."""
        return card in self.known and state.played_by[card] >= 0 and card not in self.provisional

    def _unseen_plays(self, state: Any, cards: list[int]) -> bool:
        """Whether some of ``cards`` were played unseen by the seat (who played each goes with its
        place: State.swap_cards)."""
        known, played = self.known, state.played_by
        return any(played[c] >= 0 and c not in known for c in cards)

    def _piles(self, state: Any, inst: int, view: Any) -> bool:
        """Make the piles of zone instance ``inst`` the seat sees hold their cards in the order it
        sees them (a pile made of cards the sample ordered otherwise: a hand's guessed cards);
        whether they hold those cards."""
        if isinstance(view, dict):
            return view["count"] == len(state.zone_cards(inst))
        piles, kind = state.zones[inst], self.game.cards.kind
        if len(piles) != len(view):
            return False
        for pile, cards in zip(piles, view, strict=True):
            want = [self.kind(c) for c in cards]
            if [kind[c] for c in pile] == want:
                continue
            if sorted(kind[c] for c in pile) != sorted(want):
                return False
            by_kind: dict[int, list[int]] = {}
            for c in pile:
                by_kind.setdefault(kind[c], []).append(c)
            pile[:] = [by_kind[k].pop() for k in want]  # (the same cards, in the same place: only their order)
            state.zmemo = {}
        return True

    def _shown(self, state: Any, seen: set[int]) -> bool:
        """Make the hidden places hold the cards shown or revealed to the seat (`show ... to`,
        `reveal`) that are still where it saw them."""
        kept = self._hold(state, self.obs.get("shown", ()), seen)
        if kept is None:
            return False
        seat, loc = self.seat, state.loc  # the seat was shown those cards, there: no other
        others = tuple(x for x in state.shown if x[0] != seat)
        state.shown = (*others, *((seat, c, loc[c]) for c in sorted(kept)))
        return True

    def _told(self, state: Any, seen: set[int]) -> bool:
        """Make the places the seat was told of (`tell`: the observation's ``told``, by place) hold
        cards of the values told: a card that differs trades places with an unseen one that fits
        (of its deck, from a hidden place no fact is about). The sample's facts of the seat are
        then the observed ones, about the cards now there (engine/knowledge.py)."""
        told = self.obs.get("told")
        if not told:  # (told nothing it still holds: facts the replay left it of a place are none of the game's)
            if state.told:
                seat = self.seat
                state.told = tuple(f for f in state.told if f[0] != seat)
            return True
        game, lay = self.game, self.lay
        attrs, deck_of = game.cards.attrs, game.cards.deck_of
        wanted: dict[tuple[int, int], dict[str, Any]] = {}
        for x in told:
            inst = lay.instances[game.zone_index[x["zone"]]][x["index"]]
            wanted.setdefault((inst, x["place"]), {})[x["attr"]] = x["value"]
        held = {}
        for inst, place in wanted:
            cards = state.zone_cards(inst)
            if place >= len(cards):
                return False
            held[inst, place] = cards[place]
        fixed = set(held.values())
        visible = set(self.visible)
        pool = [c for ids in self.ids_of.values() for c in ids]
        for where, values in wanted.items():
            c = held[where]
            if all(attrs[a][c] == v for a, v in values.items()):
                continue
            other = next(
                (
                    d
                    for d in pool
                    if d not in fixed
                    and d not in seen
                    and deck_of[d] == deck_of[c]
                    and all(attrs[a][d] == v for a, v in values.items())
                    and state.loc[d] not in visible
                    and not game.zones[lay.zone_of[state.loc[d]]].piles
                ),
                None,
            )
            if other is None:
                return False
            self._swap(state, c, other)
            fixed.add(other)
            held[where] = other
        seat = self.seat
        mine = tuple((seat, held[i, p], i, a, v) for (i, p), values in wanted.items() for a, v in values.items())
        state.told = (*(f for f in state.told if f[0] != seat), *mine)
        return True

    def _hold(self, state: Any, cards: Any, seen: set[int], amid: bool = False, made: tuple = ()) -> set[int] | None:
        """Make each zone instance named hold its card (``{"card", "zone", "index"}``; a card None
        is one the seat was not shown): a place that lacks one trades an unshown card of its own
        with one of that kind from another hidden place (both of one deck, and unseen otherwise: a
        card the seat saw go somewhere stays there). ``amid`` the replay (a reveal as it happens),
        the seat's own zones may give or take the card: the sample's draws are its own, and the end
        puts the seat's zones right (_reconcile). ``made``, the replay's reveal (its cards and their
        places, those of ``cards`` in turn): a card of the kind the seat saw revealed that lies in
        the same place first trades places with the card revealed (the last card of a stock: the seat
        knows which card lies there). The cards that stand for those named, or None."""
        game, lay, kind = self.game, self.lay, self.game.cards.kind
        deck_of = game.cards.deck_of
        visible = set(self.visible)
        for (c, inst), x in zip(made, cards, strict=False):
            if x["card"] is not None and kind[c] != (k := self.kind(x["card"])) and c not in seen:
                here = next((d for d in state.zones[inst] if kind[d] == k and d not in seen), None)
                if here is not None and deck_of[here] == deck_of[c]:
                    self._swap(state, c, here)
        kept: set[int] = set()  # cards standing for a shown card already
        missing = []
        revealed = [c for c, _ in made] + [None] * (len(cards) - len(made))
        for x, was in zip(
            cards, revealed, strict=False
        ):  # first the cards already in place, so that no trade takes one away
            if x["card"] is None:
                continue
            inst = next(i for i in lay.instances[game.zone_index[x["zone"]]] if lay.number[i] == x["index"])
            k = self.kind(x["card"])
            here = next((c for c in state.zones[inst] if kind[c] == k and c not in kept), None)
            if here is None:
                missing.append((inst, k, was))
            else:
                kept.add(here)
        for inst, k, was in missing:
            there = next(
                (
                    c
                    for c in self.ids_of[k]
                    if c not in kept
                    and c not in seen
                    and state.loc[c] not in visible
                    and state.loc[c] != inst
                    and not game.zones[lay.zone_of[state.loc[c]]].piles
                ),
                None,
            )
            if there is None and amid:
                there = next(
                    (
                        c
                        for c in self.ids_of[k]
                        if c not in kept
                        and state.loc[c] != inst
                        and lay.owner[state.loc[c]] == self.seat
                        and not game.zones[lay.zone_of[state.loc[c]]].piles
                    ),
                    None,
                )
                seen.discard(there)  # (the sample drew it there: the seat never saw it there)
            deck = deck_of[self.ids_of[k][0]]  # (a card trades places only with one of its own deck)
            mine = [c for c in state.zones[inst] if c not in kept and deck_of[c] == deck]
            # (the card the replay revealed there first: the reveal then names the card traded in)
            mine.sort(key=lambda c: c != was)
            victim = next((c for c in mine if c not in seen), mine[0] if amid and mine else None)
            if there is None or victim is None:
                return None
            self._swap(state, victim, there)
            kept.add(there)
        return kept

    def _under(self, state: Any, seen: set[int]) -> None:
        """At the start of a replay, the cards the rules turned up into a shared public zone (the
        card that starts a discard pile) are those the seat sees at the bottom of it now, where
        they lie under the cards played since (unless the zone was emptied since: a kind some move
        was seen to play is left as the sample has it, a guess the end puts right): each other card
        there trades places with an unseen one of the kind seen there, from a hidden place."""
        game, lay, kind, deck_of = self.game, self.lay, self.game.cards.kind, self.game.cards.deck_of
        # a kind some move was seen to play may lie there since (the zone emptied, then played on)
        played = {self.kind(c) for m in self.obs["moves"] for c in (m.get("cards") or [m.get("card")]) if c is not None}
        for name, views in self.obs["zones"].items():
            z = game.zone_index[name]
            spec = game.zones[z]
            if spec.per_player or spec.piles or spec.visibility != "public":
                continue
            for inst, view in zip(lay.instances[z], views, strict=True):
                content = state.zones[inst]
                if isinstance(view, dict) or not content or len(content) > len(view):
                    continue
                for i, k in enumerate(self.kind(c) for c in view[: len(content)]):
                    wrong = content[i]
                    if kind[wrong] == k or wrong in seen or k in played:
                        continue
                    other = next(
                        (
                            c
                            for c in self.ids_of[k]
                            if c not in seen
                            and deck_of[c] == deck_of[wrong]
                            and state.loc[c] not in self.visible_set
                            and not game.zones[lay.zone_of[state.loc[c]]].piles
                        ),
                        None,
                    )
                    if other is not None:
                        self._swap(state, wrong, other)
