"""The sampler's repairs (a mixin of belief.Belief): where a replayed observed move does not fit the
world dealt, unseen cards trade places until it does, and the replay learns what the mover could
not hold. A card only ever trades places with one of its own deck (belief.Belief._swap), and a card
the seat saw stays where it saw it; nothing here reads the real game."""

from __future__ import annotations

from typing import Any

from ..engine.card_sets import Pick
from ..engine.records import find_move, find_set


class Repairs:
    """Finding the replay of an observed move in a sampled world, and repairing the world where
    none fits (the methods of belief.Belief that trade cards to make the observed moves legal)."""

    def _diverged(self, replay: Any, before: Any, done: int | None, last: dict, m: dict, tries: int = 24) -> int | None:
        """The replay cannot go on to ``m`` (another player to move, the round over, other events):
        what ``last`` did depended on unseen cards (an ask answered by the cards held, whether a card
        drawn fits). From ``before`` it, unseen cards trade places (``_trials``) and ``last`` is played
        again, until the replay is ready for ``m`` (``tries`` trials at most from one start,
        ``mends`` in all for the replay). A trial whose ``last`` moved other cards, but still not
        as observed, is a start for trials of its own (once: an ask answered otherwise now, whose
        draw must differ too). A single trade teaches the place that it could not hold the kind
        taken out (``marks``). The events made after, or None (``replay`` then as it was)."""
        kind = self.game.cards.kind
        starts = [(before, replay.state, [])]
        for base, after, prior in starts:
            for make in self._trials(base, after, last, tries):
                self.mends -= 1
                self.trials += 1
                trial = base.copy()
                self.known, self.marks, self.provisional = trial.known, trial.marks, trial.provisional
                swaps = make(trial)
                if swaps is None:
                    continue
                start = trial.copy() if len(starts) < 3 and not prior else None
                move = self._find(trial.state, last, trial.seen) or self._repair(trial.state, last, trial.seen)
                if move is None or (move.card < 0 and type(move.target) is Pick):
                    continue
                got = self._step(trial.state, move, last, trial.seen, done)
                if self._ready(trial.state, m, got):
                    if len(prior) + len(swaps) == 1:
                        a, b = swaps[0]
                        trial.marks.setdefault(b, set()).add(kind[a])  # (b now in a's place, which held no such card)
                    replay.state, replay.seen, replay.done = trial.state, trial.seen, got
                    replay.known, replay.marks, replay.provisional = trial.known, trial.marks, trial.provisional
                    return got
                if start is not None and _moved(start.state, trial.state) != _moved(base.state, after):
                    starts.append((start, trial.state, swaps))
        self.known, self.marks, self.provisional = replay.known, replay.marks, replay.provisional
        return None

    def _trials(self, before: Any, after: Any, last: dict, tries: int) -> list:
        """The trades to try before ``last`` (each a function of a copy of ``before`` that makes them
        and returns them, or None), at most ``tries`` and ``mends``: each unseen card ``last`` moved
        in the sample (a card drawn, cards handed over) with one card of each other kind, and the
        hidden places of the players ``last`` names (its mover, a player chosen) and those its cards
        came from or went to, each dealt again at random (a hand that must lack every card of a
        rank), in turn; then any unseen card with one of each other kind, small places first. When the
        move names the seat, the cards the sample drew into its sight are guesses that trade places
        too (``_guess``: Go Fish's asked seat hands over only what it holds)."""
        game, lay, rng, kind = self.game, self.lay, self.rng, self.game.cards.kind
        deck_of, marks = game.cards.deck_of, before.marks
        state, loc = before.state, before.state.loc
        hidden = [i for i in range(lay.size) if i not in self.visible_set and not game.zones[lay.zone_of[i]].piles]
        rule = next((r for r in game.moves if r.name == last["move"]), None)
        named = {last["player"]} | ({last["value"]} if rule is not None and rule.choice == "player" else set())
        cards = [c for i in hidden for c in state.zone_cards(i) if c not in before.seen]
        if self.seat in named:  # (the seat's own guessed cards, when the move is about the seat)
            # (never one whose play the seat saw: that card did it there, as the seat saw it)
            known = before.known
            cards += [c for c in before.provisional if c not in known and not game.zones[lay.zone_of[loc[c]]].piles]
        rng.shuffle(cards)

        def fits(a: int, b: int, within: bool = False) -> bool:  # a and b may trade places, by the deck and the marks
            return (
                deck_of[a] == deck_of[b]
                and (loc[a] != loc[b] or within)
                and kind[b] not in marks.get(a, ())
                and kind[a] not in marks.get(b, ())
            )

        source = (last.get("from") or {}).get("zone")  # (a draw: the zone the seat saw it drawn from)

        def partners(a: int, within: bool = False) -> list[int]:
            """One card of each other kind that may take ``a``'s place; ``within`` its own place too
            where ``last`` was seen to draw it from a place no player owns (a card drawn from a stock: another
            card of the stock in its place is another draw; in a hand, another card of the hand in
            its place is the same; cards the rules move aside, Go Fish's markers of who lacks what,
            are no draw: trading them there took the trials that mend its answers), for a kind with
            no card elsewhere (Switch's queen of spades, which only the stock holds)."""
            one: dict[int, int] = {}
            for c in cards:
                if kind[c] != kind[a] and fits(a, c):
                    one.setdefault(kind[c], c)
            if within and lay.owner[loc[a]] is None and game.zones[lay.zone_of[loc[a]]].name == source:
                for c in cards:
                    if kind[c] != kind[a] and kind[c] not in one and fits(a, c, within):
                        one[kind[c]] = c
            return list(one.values())

        def pair(a: int, b: int) -> Any:
            def make(trial: Any) -> list[tuple[int, int]]:
                self._guess(trial, a, b)
                return [(a, b)]

            return make

        def deal_again(inst: int) -> Any:
            def make(trial: Any) -> list[tuple[int, int]] | None:
                swaps = []
                where = trial.state.loc
                for a in [c for c in trial.state.zone_cards(inst) if c not in trial.seen or c in trial.provisional]:
                    others = [c for c in cards if where[c] != inst and fits(a, c)]
                    if others:
                        b = others[rng.randrange(len(others))]
                        self._guess(trial, a, b)
                        swaps.append((a, b))
                return swaps or None

            return make

        budget = min(tries, self.mends)
        moved = [c for c in cards if after.loc[c] != loc[c]]
        pairs = [pair(a, b) for a in moved for b in partners(a, within=True)]
        rng.shuffle(pairs)
        places = {i for i in range(lay.size) if lay.owner[i] in named}
        places |= {loc[c] for c in moved} | {after.loc[c] for c in moved}
        places = [
            i
            for i in sorted(places)
            if lay.owner[i] is not None
            and not game.zones[lay.zone_of[i]].piles
            and any(c not in before.seen or c in before.provisional for c in state.zone_cards(i))
        ]
        deals = [deal_again(i) for i in places] * 4
        out = []  # a place dealt again after every two single trades, while both last
        while pairs or deals:
            out += pairs[:2] + deals[:1]
            del pairs[:2], deals[:1]
        if len(out) < budget:
            for a in sorted(cards, key=lambda c: len(state.zones[loc[c]])):
                out += [pair(a, b) for b in partners(a)]
                if len(out) >= budget:
                    break
        return out[:budget]

    def _guess(self, replay: Any, a: int, b: int) -> None:
        """Trade the places of two cards of ``replay`` each unseen or a guess in the seat's sight
        (drawn there by the sample): the one now in sight is the guess, the other unseen."""
        self._swap(replay.state, a, b)
        prov, seen, visible, loc = replay.provisional, replay.seen, self.visible_set, replay.state.loc
        if a in prov or b in prov:
            for c in (a, b):
                if loc[c] in visible:
                    prov.add(c)
                    seen.add(c)
                else:
                    prov.discard(c)
                    seen.discard(c)

    def _find(self, state: Any, m: dict[str, Any], seen: set[int]) -> Any | None:
        """A legal move that looks to the seat like the observed one."""
        if "cards" in m:  # a set: its cards seen alike, the others among those the seat did not see
            return find_set(state, m, seen)
        if "card" not in m:  # a choice or a draw: seen by all, the same move in every sampled state
            return find_move(state, m)
        pattern = self.patterns.get(id(m))
        if pattern is None:  # (the move dicts live as long as the observation, so their ids are theirs)
            game, lay, to = self.game, self.lay, m.get("to") or m["from"]  # (an ask's card: where it is)
            rules = frozenset(i for i, r in enumerate(game.moves) if r.name == m["move"])
            targets = frozenset(
                t
                for t in range(lay.size)
                if game.zones[lay.zone_of[t]].name == to["zone"] and lay.number[t] == to["index"]
            )
            pattern = self.patterns[id(m)] = (rules, targets, self.kind(m["card"]) if m["card"] is not None else None)
        rules, targets, k = pattern
        kind, loc, visible = self.game.cards.kind, state.loc, self.visible_set
        # a card played unseen: any the seat does not see where it is now (one it saw go into that
        # hand too: a card picked up, then put away face down). A card seen played: any copy of its
        # kind there. Copies are alike, so the seat cannot tell which of two it saw played (Lost
        # Cities: a wager drawn back from a discard pile, and a copy of it held unseen since the
        # deal): a sample where the other copy was played, the drawn one still held, fits all it saw;
        # only who last played the copy left differs, a fact of a place the seat does not see.
        found = [
            mv
            for mv in state.legal_moves()
            if mv.rule in rules
            and mv.target in targets
            and (kind[mv.card] == k if k is not None else mv.card not in seen or loc[mv.card] not in visible)
        ]
        if "place" in m and found:  # a move `card at place`: that place, when the sample allows it
            placed = [mv for mv in found if state.zone_cards(state.loc[mv.card]).index(mv.card) == m["place"]]
            found = placed or found
        if not found and k is None and "to" not in m:  # an asked card, unseen: maybe one seen before
            found = [mv for mv in state.legal_moves() if mv.rule in rules and mv.target in targets]
        return found[self.rng.randrange(len(found))] if found else None

    def _repair(self, state: Any, m: dict[str, Any], seen: set[int]) -> Any | None:
        """Swap unseen cards so that the observed move becomes legal; learn what the mover lacked."""
        if "cards" in m:
            return self._repair_set(state, m, seen)
        if "card" not in m and "from" not in m:  # a choice: maybe it reads the seat's own unseen cards
            return self._repair_mine(state, m, seen)
        if m.get("card") is None:  # (a hidden card: nothing to swap)
            return None
        game, lay, p = self.game, self.lay, m["player"]
        if "to" in m:
            rule = next(r for r in game.phases[state.phase].moves if r.name == m["move"])
            src = lay.base[rule.source] + (p if rule.source_per_player else 0)
        else:  # an ask's card: the zone it was chosen from
            where = m["from"]
            src = next(i for i in lay.instances[game.zone_index[where["zone"]]] if lay.number[i] == where["index"])
        if game.zones[lay.zone_of[src]].piles:
            return None
        k = self.kind(m["card"])
        deck_of = game.cards.deck_of
        deck = deck_of[self.ids_of[k][0]]  # (a card trades places only with one of its own deck)
        swappable = self._swappable(state, src, seen)
        if not any(game.cards.kind[c] == k for c in state.zones[src]):
            # a card the sample drew where the seat sees it stands for one the seat saw there: any
            prov = self.provisional
            # (last, any card of the seat's: one passed to it by the rules, seen in the sample only)
            # (never a card whose play the seat saw, where the rules put it since: that one did it;
            # one shuffled and drawn since is a guess, as any)
            known = self.known
            mine = (
                [c for c in state.zones[src] if c not in seen and deck_of[c] == deck]
                or [c for c in state.zones[src] if c in prov and deck_of[c] == deck]
                or [c for c in state.zones[src] if deck_of[c] == deck and (c not in known or c in prov)]
            )
            there = (
                [c for c in self.ids_of[k] if c in swappable]
                # (a guess, never a card whose play the seat saw: that one is the card played, where it went)
                or [c for c in self.ids_of[k] if c in prov and state.loc[c] != src and c not in self.known]
                or [
                    c
                    for c in self.ids_of[k]
                    if self.lay.owner[state.loc[c]] == self.seat
                    and game.zones[self.lay.zone_of[state.loc[c]]].visibility == "owner"
                ]
            )
            if not mine or not there:
                return None
            came = self.rng.choice(there)
            self.rng.shuffle(mine)
            for went in mine:  # (each card of the mover's in turn: a rule may want the card at one place)
                self._swap(state, came, went)
                found = self._find(state, m, seen)
                if found is not None or went is mine[-1]:
                    break
                self._swap(state, came, went)
            if came in prov or went in prov:
                prov.discard(came)  # (the card the move names: the seat saw it)
                if state.loc[went] in self.visible_set:
                    prov.add(went)
                else:
                    prov.discard(went)
                    seen.discard(went)
            if game.zones[lay.zone_of[src]].visibility == "others":  # (issue 30) a hand held facing out:
                seen.discard(went)  # the seat saw it there in this sample only, not in the game
            if found is not None:
                return found
        # the card is there, maybe not where the rules want it (the card just drawn: the last)
        kind = game.cards.kind
        here = [c for c in state.zones[src] if kind[c] == k and c not in seen]
        for a in here[:1]:
            for b in [c for c in state.zones[src] if c not in seen and kind[c] != k]:
                self._swap(state, a, b)
                if found := self._find(state, m, seen):
                    return found
                self._swap(state, a, b)
        # the move is illegal with some unseen cards in the mover's zone: find which block it
        unseen = [c for c in state.zones[src] if c not in seen and game.cards.kind[c] != k]
        park = lay.base[game.zone_index[game.cards.deck_names[0]]]
        state.move_cards(unseen, park)
        if self._find(state, m, seen) is None:
            return None
        blocking = []
        for c in unseen:
            state.move_cards([c], src)
            if self._find(state, m, seen) is None:
                blocking.append(c)
            state.move_cards([c], park)
        state.move_cards(unseen, src)
        kinds = {game.cards.kind[c] for c in blocking}
        self.exclusions.update((src, kk) for kk in kinds)
        for c in state.zones[src]:  # the cards there then: none of those kinds (the marks go with the places)
            if c not in seen:
                self.marks.setdefault(c, set()).update(kinds)
        partners = [c for c in swappable if game.cards.kind[c] not in kinds]
        self.rng.shuffle(partners)
        for c in blocking:
            # the last partner of the blocking card's deck (of one deck only: the list as it was)
            j = next((j for j in range(len(partners) - 1, -1, -1) if deck_of[partners[j]] == deck_of[c]), None)
            if j is None:
                return None
            self._swap(state, c, partners.pop(j))
        return self._find(state, m, seen)

    def _repair_mine(self, state: Any, m: dict[str, Any], seen: set[int], tries: int = 64) -> Any | None:
        """A choice the sample does not allow, whose guards may read cards its player holds unseen by
        the seat (a rank asked for, which the asker must hold; a hint about the seat's own hand held
        facing out): one of those cards, at random, trades places with an unseen card of each other
        kind elsewhere (of its deck) in turn, until the choice is allowed; each trade that does not
        help is undone. The end makes the sample agree with what the seat was told (_told)."""
        game, lay, rng, kind = self.game, self.lay, self.rng, self.game.cards.kind
        hidden = [i for i in range(lay.size) if i not in self.visible_set and not game.zones[lay.zone_of[i]].piles]
        mine = [i for i in range(lay.size) if lay.owner[i] == m["player"] and not game.zones[lay.zone_of[i]].piles]
        # its unseen cards, and the seat's own: those the sample drew into its sight (a guess)
        prov = self.provisional
        ours = [c for i in mine for c in state.zone_cards(i) if c not in seen or c in prov]
        if not ours:
            return None
        deck_of, marks = game.cards.deck_of, self.marks
        theirs: dict[int, list[int]] = {}  # a kind -> its unseen cards elsewhere
        for i in hidden:
            if i not in mine:
                for c in state.zone_cards(i):
                    if c not in seen:
                        theirs.setdefault(kind[c], []).append(c)
        kinds = list(theirs)
        rng.shuffle(kinds)
        for k in kinds[:tries]:
            b = rng.choice(theirs[k])
            fit = [
                c
                for c in ours
                if deck_of[c] == deck_of[b] and k not in marks.get(c, ()) and kind[c] not in marks.get(b, ())
            ]
            if not fit:
                continue
            a = rng.choice(fit)
            self._swap(state, a, b)
            found = find_move(state, m)
            if found is not None:
                if a in prov:  # (b, a guess in the seat's sight now; a, unseen where b was)
                    prov.discard(a)
                    seen.discard(a)
                    prov.add(b)
                    seen.add(b)
                return found
            self._swap(state, a, b)
        return None

    def _repair_set(self, state: Any, m: dict[str, Any], seen: set[int]) -> Any | None:
        """A set move the sample does not allow: each card seen in it that the mover's zone lacks
        trades places with an unseen card of that zone (one not of a kind seen in the set)."""
        game, lay, p = self.game, self.lay, m["player"]
        if "to" not in m:  # an ask's set: chosen among cards every seat that sees the zone saw
            return None
        rule = next(r for r in game.moves if r.name == m["move"] and r.choice == "cards")
        src = lay.base[rule.source] + (p if rule.source_per_player else 0)
        kind = game.cards.kind
        wanted = [self.kind(c) for c in m["cards"] if c is not None]
        held = list(state.zones[src])
        for k in wanted:
            here = next((c for c in held if kind[c] == k), None)
            if here is not None:
                held.remove(here)
                continue
            deck = game.cards.deck_of[self.ids_of[k][0]]  # (a card trades places only with one of its own deck)
            mine = [c for c in held if c not in seen and kind[c] not in wanted and game.cards.deck_of[c] == deck]
            there = [c for c in self.ids_of[k] if c in self._swappable(state, src, seen)]
            if not mine or not there:
                return None
            victim = self.rng.choice(mine)
            self._swap(state, self.rng.choice(there), victim)
            held.remove(victim)
        return self._find(state, m, seen)

    def _swappable(self, state: Any, src: int, seen: set[int]) -> list[int]:
        """Unseen cards in hidden places other than ``src`` (not in piles) that may trade places."""
        game, lay = self.game, self.lay
        out = []
        visible = set(self.visible)
        for inst in range(lay.size):
            if inst == src or inst in visible or game.zones[lay.zone_of[inst]].piles:
                continue
            out.extend(c for c in state.zones[inst] if c not in seen)
        return out


def _moved(before: Any, after: Any) -> list[int]:
    """The cards that are elsewhere in ``after`` than in ``before``."""
    return [c for c, (x, y) in enumerate(zip(before.loc, after.loc, strict=True)) if x != y]
