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

    def _diverged(self, replay: Any, before: Any, done: int | None, last: dict, m: dict, tries: int = 16) -> int | None:
        """The replay cannot go on to ``m`` (another player to move, the round over, other events):
        what ``last`` did depended on unseen cards (a guess at a hand, an ask answered by the cards
        held). From ``before`` it, an unseen card in a hidden place (a small one first: a hand)
        trades places with one of each other kind from another hidden place, and ``last`` is played
        again, until the replay is ready for ``m`` (``tries`` trades at most, ``mends`` in all for
        the decision: where they rarely help, a shedding game's draws, fresh deals do); the place learns it
        could not hold the kind taken out (``marks``). The events made after, or None (``replay``
        then as it was)."""
        game, lay, rng, kind = self.game, self.lay, self.rng, self.game.cards.kind
        deck_of = game.cards.deck_of
        state = before.state
        hidden = [i for i in range(lay.size) if i not in self.visible_set and not game.zones[lay.zone_of[i]].piles]
        cards = [c for i in hidden for c in state.zone_cards(i) if c not in before.seen]
        rng.shuffle(cards)
        trials = []  # each card (those of small places first: a hand), with one card of each other kind
        for a in sorted(cards, key=lambda c: len(state.zones[state.loc[c]])):
            partners: dict[int, int] = {}
            for c in cards:
                if kind[c] != kind[a] and deck_of[c] == deck_of[a] and state.loc[c] != state.loc[a]:
                    partners.setdefault(kind[c], c)
            trials += [(a, b) for b in partners.values()]
        for a, b in trials[: min(tries, self.mends)]:
            self.mends -= 1
            trial = before.copy()
            self.known, self.marks, self.provisional = trial.known, trial.marks, trial.provisional
            self._swap(trial.state, a, b)
            move = self._find(trial.state, last, trial.seen) or self._repair(trial.state, last, trial.seen)
            if move is None or (move.card < 0 and type(move.target) is Pick):
                continue
            got = self._step(trial.state, move, last, trial.seen, done)
            if self._ready(trial.state, m, got):
                trial.marks.setdefault(b, set()).add(kind[a])  # (b now in a's place, which held no such card)
                replay.state, replay.seen, replay.done = trial.state, trial.seen, got
                replay.known, replay.marks, replay.provisional = trial.known, trial.marks, trial.provisional
                return got
        self.known, self.marks, self.provisional = replay.known, replay.marks, replay.provisional
        return None

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
        kind = self.game.cards.kind
        found = [
            mv
            for mv in state.legal_moves()
            if mv.rule in rules
            and mv.target in targets
            and (kind[mv.card] == k if k is not None else mv.card not in seen)
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
            mine = (
                [c for c in state.zones[src] if c not in seen and deck_of[c] == deck]
                or [c for c in state.zones[src] if c in prov and deck_of[c] == deck]
                or [c for c in state.zones[src] if deck_of[c] == deck]
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
            came, went = self.rng.choice(there), self.rng.choice(mine)
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

            if found := self._find(state, m, seen):
                return found
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

    def _repair_mine(self, state: Any, m: dict[str, Any], seen: set[int], tries: int = 24) -> Any | None:
        """A choice the sample does not allow, whose guards may read cards its player holds unseen by
        the seat (a rank asked for, which the asker must hold; a hint about the seat's own hand held
        facing out): a few of those cards, at random, trade places with unseen cards elsewhere (of
        their deck) until it is allowed; each trade that does not help is undone. The end makes the
        sample agree with what the seat was told (_told)."""
        game, lay, rng = self.game, self.lay, self.rng
        visible = set(self.visible)
        hidden = [i for i in range(lay.size) if i not in visible and not game.zones[lay.zone_of[i]].piles]
        mine = [i for i in hidden if lay.owner[i] == m["player"]]
        deck_of = game.cards.deck_of
        for _ in range(tries if mine else 0):
            ours = [c for i in mine for c in state.zone_cards(i) if c not in seen]
            if not ours:
                return None
            a = rng.choice(ours)
            theirs = [
                c
                for i in hidden
                if i not in mine
                for c in state.zone_cards(i)
                if c not in seen and deck_of[c] == deck_of[a]
            ]
            if not theirs:
                return None
            b = rng.choice(theirs)
            self._swap(state, a, b)
            found = find_move(state, m)
            if found is not None:
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
