# cython: annotation_typing=False
"""A game in progress: the zones, whose turn it is, the scores. Cheap to copy; every card is
in exactly one zone. Moves are tuples ``(move rule index, card id, target zone instance)``,
listed by ``legal_moves`` in a fixed order: move rules as declared, then cards in their
zone's order, then target instances by index.

Why one module of about 850 lines (over the house's 600): State is one class on purpose. Its
slots and the loop that changes them (apply -> _perform -> _advance -> _next_phase ->
_start_round) are the hot path of every move of every game, search and checking playout; kept
together, that loop reads as one piece beside the slots it writes, and copy() names each of
StateFields.__slots__. A mixin holding half the methods would split each slot from the code that keeps
it consistent, for no gain in speed or clarity. The work it delegates already lives beside it:
deal.py, turns.py, scoring.py, observe.py, card_sets.py, choices.py, knowledge.py and flow.py
(which also keeps what is left to run while an ask waits: the flow's steps here are its frames).

The compiled engine makes State an extension type with typed fields (state.pxd, read by Cython
only: this file stays plain Python, and its first line tells Cython to take the types from there).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..errors import RUNTIME_FAILURES, IllegalMoveError, PlayError, rule_failure
from ..language.limits import MAX_ROUNDS, endless_round
from .card_sets import Pick, perform_set, swapped, swapped_cards
from .choices import describe_move, draw_cards
from .deal import deal, place, shuffle_decks
from .events import tell_guarded
from .flow import answer, holds, renamed, run_effects, suspend
from .history import RoundLog
from .knowledge import dropped
from .moves import Move
from .observe import revealed_zones
from .scoring import score_by_rule, winners
from .state_fields import StateFields
from .turns import first_player, lose_turn, resolution_order

if TYPE_CHECKING:  # (the Game makes States: state.py needs no Game at run time; Cython reads
    # `cython.cast` as a C cast, which plain Python never evaluates: _COMPILED)
    import cython

    from .game import Game

# whether this module is compiled (an extension module, not a .py): `apply` then reads a Move's
# fields from its tuple in place (by name, each is a lookup through the type and a descriptor's call)
_COMPILED = __file__.endswith((".so", ".pyd"))


class State(StateFields):
    """The changing part of a game; ``Game`` holds the rules."""

    __slots__ = ()  # (every field is StateFields', state_fields.py)

    def __init__(
        self,
        game: Game,
        players: int,
        seed: int | None,
        params: dict[str, Any],
        deals: list[dict[str, Any]] | None = None,
        dealer: int = 0,
        shuffles: list[list[list[Any]]] | None = None,
        chance: random.Random | None = None,
        narrate: bool = False,
        log: bool = True,
    ):
        """``log``: keep the round log (records are written from it); without it, as ``copy``'s."""
        self.game = game
        self.narrating = narrate  # the round's log also tells what the rules did to cards (seat_log.py)
        self.n = players
        self.seed = seed
        self.params = params
        self.rng = random.Random(seed) if chance is None else chance  # (verify's: it enumerates the shuffles)
        self.layout = game.layout(players)
        self.deals_given = deals
        self.shuffles_given = shuffles  # a replay's: each round's recorded shuffles (events.py)
        self.totals = [0] * players
        self.round = 0
        self.dealer = dealer
        self.over = False
        self.won_together: bool | None = None  # a cooperative game's outcome, once it is over
        self.history: list[RoundLog] | None = [] if log else None  # None: no log (State.copy too)
        self.played_by = [-1] * len(game.cards)
        self.cache: dict = {}  # values computed in this state, cleared by every change (effects.py too)
        self.zmemo: dict[int, dict] = {}  # zone instance -> values of definitions that read only it
        self._legal: tuple[int, list[Move]] | None = None
        self.next_player: int | None = None
        self.pending: list[tuple[int, Move]] = []
        # an ask waiting for its answer: (asked seat, its rule, env, what is left to run: flow.py)
        self.asking: tuple | None = None
        # a set move chosen card by card, under way: (seat, its rule, the cards picked so far: card_sets.Listing)
        self.picking: tuple | None = None
        self.to_move: list[int] = []
        self.choosers: tuple[int, ...] = ()  # a simultaneous phase: its seats, in the order they choose
        self.resolving = False  # a simultaneous phase's held moves take effect: all of them are revealed
        env = [None] * game.env_size
        self.vars = [
            ([init(self, env)] * players if per_player else init(self, env)) for _, per_player, _, init in game.vars
        ]
        rounds = game.rounds(self, env) if game.rounds is not None else None  # None: until `ends when`
        if rounds is not None and (not isinstance(rounds, int) or rounds < 1):
            raise PlayError(f"the game must have at least one round, not {rounds!r}", game.ir["game"].get("at"))
        self.rounds = rounds
        self._start_round()

    # ---- the public interface ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def current_player(self) -> int | None:
        """The seat to move, or None when the game is over."""
        return None if self.over else self.current

    def legal_moves(self) -> list[Move]:
        """The current player's legal moves, in the fixed order of the module docstring."""
        if self.over:
            return []
        cached = self._legal
        if cached is not None and cached[0] == self.current:
            return cached[1]
        return self._moves_for(self.current)

    def legal_moves_of(self, seat: int) -> list[Move]:
        """The moves ``seat`` may choose now: the current player's, or, in a simultaneous phase,
        those of a seat yet to choose (its choice reads nothing the others choose, which stays
        hidden until everyone has chosen); none for any other seat."""
        if self.over:
            return []
        if seat == self.current:
            return self.legal_moves()
        if self.asking is None and self.game.phases[self.phase].simultaneous and seat in self.to_move:
            return self._moves_for(seat)
        return []

    def apply(self, move: Move) -> None:
        """Play ``move`` for the current player; chance and other phases run until someone must move."""
        if self.over:
            raise IllegalMoveError("the game is over")
        p = self.current
        game = self.game
        self._legal = None  # (the cache stays: every change clears it, a card moved, a counter set...)
        # (compiled, a Move's fields are read from its tuple cast as one, in place: by name each costs
        # some 150 instructions, and an index on the Move itself some 800, through a tuple subclass's
        # generic sequence slot)
        if _COMPILED and isinstance(move, tuple):
            fields = cython.cast(tuple, move)
            c, rule, t = fields[1], fields[0], fields[2]
        else:
            c, rule, t = move.card, move.rule, move.target
        if c >= 0 and game.plain_turns[self.phase]:  # a card played in turn, in a game without asks,
            # picks nor places (Game.plain_turns): nothing of those to read; else the whole way below
            self.moves_in_round += 1
            if self.moves_in_round > game.max_moves_per_round:
                raise endless_round(self)
            history = self.history
            if history is not None:  # (None: a search state that keeps no log, State.copy)
                logged = history[-1]["moves"]  # (a list, typed in state.pxd: its own append, no lookup by name)
                logged.append((p, move))
            self.next_player = None
            self._play_card(p, rule, c, t)
            nxt = self.next_player
            self.current = nxt if nxt is not None else (p + self.turn_step) % self.n
            self._advance()
            return
        if move.card < 0 and type(move.target) is Pick:  # a card towards a set: the set is played once done
            self.picking = (p, move.rule, (() if self.picking is None else self.picking[2]) + (move.target.card,))
            return
        if self.picking is not None:
            self.picking = None
        self.moves_in_round += 1
        if self.moves_in_round > game.max_moves_per_round:
            raise endless_round(self)
        history = self.history
        if history is not None:
            log = history[-1]
            if game.place_moves and move.card >= 0 and game.moves[move.rule].at_place:  # the record keeps the place
                log.setdefault("places", {})[len(log["moves"])] = self.zone_cards(self.loc[move.card]).index(move.card)
            log["moves"].append((p, move))
        if self.asking is not None:  # the answer to an ask: its block, then what was left to run
            kind = game.moves[move.rule].choice
            answer(self, move.card if kind == "card" else move.target.cards if kind == "set" else move.target)
            if self.asking is not None:
                return self._hold()
        elif game.phases[self.phase].simultaneous:
            self.pending.append((p, move))
            self.to_move.pop(0)
        else:
            self.next_player = None
            self._perform(p, move)
            if self.asking is not None:  # an effect asks someone a follow-up choice: wait for it
                suspend(self, State._moved, p)
                return self._hold()
            nxt = self.next_player
            self.current = nxt if nxt is not None else (p + self.turn_step) % self.n
        self._advance()

    def scores(self) -> list[int]:
        """Each seat's total so far (over the rounds scored)."""
        return list(self.totals)

    def winners(self) -> list[int]:
        """The winning seats (when the game is over); a cooperative game's: every seat or none."""
        if self.game.flow.all_win is not None:
            return list(range(self.n)) if self.won_together else []
        return winners(self.totals, self.game.winner_highest, self.game.ir.get("teams"))

    def copy(self, memo: bool = False, chance: random.Random | None = None, log: bool = True) -> State:
        """An independent copy (zones, scores, chance) for search.

        With ``memo`` the copy also keeps what was computed in this state (its legal moves, values
        kept in the cache and with the zones), which stays right as long as both states change only
        through State's own methods (not when a caller empties zones by hand, as a display does).
        ``chance``: the copy draws from it instead of a copy of this state's (verify's enumerated
        shuffles). Without ``log`` the copy keeps no round log (``history`` None: no record, no
        observation of the moves made; what rules, keys and properties read is all there).

        Each slot is copied by name, as cheaply as it can be: what the engine only ever replaces
        (tuples, frozensets, numbers, the rules, a finished round's log) is shared; what it changes
        in place (zones, where cards lie, variables, totals...) is copied."""
        other = State.__new__(State)
        other.game = self.game
        other.layout = self.layout
        other.n = self.n
        other.seed = self.seed
        other.params = self.params
        other.deals_given = self.deals_given
        other.shuffles_given = self.shuffles_given
        other.rounds = self.rounds
        other.narrating = False  # (a copy searched or shown tells no one: its log stays as it was)
        # what a move may change: numbers, and containers the engine replaces rather than edits
        other.round = self.round
        other.dealer = self.dealer
        other.phase = self.phase
        other.current = self.current
        other.over = self.over
        other.won_together = self.won_together
        other.next_player = self.next_player
        other.moves_in_round = self.moves_in_round
        other.turn_step = self.turn_step
        other.resolving = self.resolving
        other.asking = self.asking
        other.picking = self.picking
        other.choosers = self.choosers
        other.schedule = self.schedule  # (a round's start makes a new one)
        other.out = self.out
        other.shown = self.shown
        other.told = self.told
        other.expiring = self.expiring
        other.skips = self.skips
        # what the engine changes in place: copied
        copied: list = []  # (a loop, not a comprehension: compiled, `z` is typed a list, its slice a C call)
        for z in self.zones:
            copied.append(z[:] if not z or type(z[0]) is not list else [pile[:] for pile in z])
        other.zones = copied
        other.loc = self.loc[:]
        other.played_by = self.played_by[:]
        other.vars = [v[:] if type(v) is list else v for v in self.vars]
        other.totals = self.totals[:]
        other.pending = self.pending[:] if self.pending else []
        other.to_move = self.to_move[:] if self.to_move else []
        if memo:  # the zones' entries are shared: a change of a zone drops its entry, never edits it
            other._legal = self._legal
            other.cache = self.cache.copy() if self.cache else {}
            other.zmemo = self.zmemo.copy() if self.zmemo else {}
        else:
            other._legal = None
            other.cache = {}
            other.zmemo = {}
        history = self.history
        if not log or history is None:
            other.history = None
        elif history:  # rounds before the current one are finished and never change: shared
            other.history = [*history[:-1], history[-1].ongoing_copy()]
        else:
            other.history = []
        if chance is None:  # a Random made without seeding (seeding reads the system's entropy), given this state
            rng = self.rng
            rng_type = type(rng)
            chance = rng_type.__new__(rng_type)
            chance.setstate(rng.getstate())
        other.rng = chance
        return other

    def restart_round(self, round_index: int, dealer: int, totals: list[int], deal: dict[str, Any]) -> None:
        """Start round ``round_index`` over with ``deal`` laid out (as a record gives a deal), the
        given dealer and totals; later rounds are dealt by chance. For search agents, which sample
        a deal consistent with what their seat saw and replay the round's moves on it."""
        self.round, self.dealer, self.totals, self.over = round_index, dealer, list(totals), False
        self.won_together, self.history, self.asking, self.picking, self.resolving = None, [], None, None, False
        self.deals_given = [None] * round_index + [deal]
        try:
            self._start_round()
        finally:
            self.deals_given = None

    def swap_cards(self, a: int, b: int, facts: bool = True) -> None:
        """Exchange the places of two cards (neither in a zone of piles), e.g. to resample hidden cards.

        Every fact the state keeps about a card goes with its place: who played it, a simultaneous
        choice not yet revealed, the current round's moves, a card shown to a seat, a card named
        by a waiting ask (its env, what is left to run: flow.py). Each card takes the other's part, so
        a sampled state stays one the rules could have reached: only two cards of one deck trade places
        (a card of another deck where it lies is a place no deal nor move could have put it). With
        ``facts`` False only the places change: each card keeps what it did (a card played in sight,
        drawn back or shuffled into a pile since, is the card that was played, wherever it goes)."""
        deck_of = self.game.cards.deck_of
        if deck_of[a] != deck_of[b]:
            raise ValueError(f"cards {a} and {b} are of different decks: neither can take the other's place")
        za, zb = self.zones[self.loc[a]], self.zones[self.loc[b]]
        ia, ib = za.index(a), zb.index(b)
        za[ia], zb[ib] = b, a
        self.loc[a], self.loc[b] = self.loc[b], self.loc[a]
        if self.picking is not None:  # (the cards picked are those where they lie: they go with the place)
            seat, rule, chosen = self.picking
            self.picking = (seat, rule, tuple(b if c == a else a if c == b else c for c in chosen))
        if not facts:
            self.zmemo = {}
            self.cache.clear()
            self._legal = None
            return
        played = self.played_by
        played[a], played[b] = played[b], played[a]
        other = {a: b, b: a}
        if self.pending:
            self.pending = [(p, swapped(m, other)) for p, m in self.pending]
        if self.shown:
            self.shown = tuple((seat, other.get(c, c), inst) for seat, c, inst in self.shown)
        if self.told:  # (what a seat was told goes with the place; belief.py makes the card fit it)
            self.told = tuple((f[0], other.get(f[1], f[1]), *f[2:]) for f in self.told)
        if self.asking is not None:
            self.asking = renamed(self.asking, other, self.game.card_slots, swapped)
        for i in self.game.card_vars:  # (a variable holding a card names the card at its place)
            self.vars[i] = swapped_cards(self.vars[i], other)
        if self.history:  # (one card's moves inline: the sampler swaps often; a set's in swapped)
            moves = self.history[-1]["moves"]
            moves[:] = [
                (p, m._replace(card=other[m.card]) if m.card in other else m if m.card >= 0 else swapped(m, other))
                for p, m in moves
            ]
        self.zmemo = {}
        self.cache.clear()
        self._legal = None

    def observe(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see; see observe.py."""
        from .observe import observe

        return observe(self, seat)

    def describe(self, move: Move) -> dict[str, Any]:
        """A move as a record writes it: player, move, card, target zone and index."""
        return describe_move(self.game, self.layout, self.current, move)

    def swap_zones(self, a: int, b: int) -> None:
        """Exchange the whole contents of two zone instances (neither of piles)."""
        if a == b:
            return
        zones, loc = self.zones, self.loc
        if self.narrating:
            self.tell(("swap", a, b, tuple(zones[b]), tuple(zones[a])))  # (what each holds after)
        if self.told:  # the cards leave their zones: what was told of them is dropped
            self.told = dropped(self.told, [*zones[a], *zones[b]])
        if self.shown:  # and what was shown or revealed of them where they were
            self.shown = dropped(self.shown, [*zones[a], *zones[b]])
        zones[a], zones[b] = zones[b], zones[a]
        for c in zones[a]:
            loc[c] = a
        for c in zones[b]:
            loc[c] = b
        self.zmemo.pop(a, None)
        self.zmemo.pop(b, None)
        self.cache.clear()
        self._legal = None

    def tell(self, event: tuple) -> None:
        """Add to the round's log what the rules did, ``(kind, ...)``, with the number of moves made
        before it put second (engine/events.py); only a narrating state tells (play, replays)."""
        log = self.history[-1]
        events = log.get("events")
        if events is None:
            events = log["events"] = []
        events.append((event[0], len(log["moves"]), *event[1:]))

    def _tell_moved(self, cards: list[int], dest: int, whole: int | None) -> None:
        """The cards about to move to ``dest``: each with where it lies and the seats it was shown
        to there (who knew it before it moved)."""
        loc, shown = self.loc, self.shown
        seen = [tuple(p for p, x, i in shown if x == c and i == loc[c]) for c in cards]  # (who saw each)
        self.tell(("moved", tuple((c, loc[c] if whole is None else whole, seen[k]) for k, c in enumerate(cards)), dest))

    def _told_as_move(self, kind: str) -> None:
        """The cards a draw or a set just moved are the move's own, not the rules': a set's are
        in its record (told once), a draw's are what the drawer learns (kind ``drawn``)."""
        events = self.history[-1].get("events")
        if not events or events[-1][0] != "moved" or events[-1][1] != len(self.history[-1]["moves"]):
            return
        if kind == "cards":
            events.pop()
        else:
            events[-1] = ("drawn", *events[-1][1:])

    def _expire(self, p: int) -> None:
        """The statuses set `until their next turn` of ``p`` end: ``p``'s turn begins."""
        ending = [k for q, k in self.expiring if q == p]
        if not ending:
            return
        self.expiring = tuple(x for x in self.expiring if x[0] != p)
        for k in ending:
            self.vars[k][p] = 0
        self.cache.clear()

    # ---- zones -----------------------------------------------------------------------------------
    def reindex(self) -> None:
        """Recompute where each card is (after a deal)."""
        loc = [-1] * len(self.game.cards)
        for inst, content in enumerate(self.zones):
            for item in content:
                if isinstance(item, list):
                    for c in item:
                        loc[c] = inst
                else:
                    loc[item] = inst
        self.loc = loc
        self.zmemo = {}

    def zone_cards(self, inst: int) -> list[int]:
        """The cards of a zone instance (piles flattened), as a new list."""
        content = self.zones[inst]
        if content and isinstance(content[0], list):
            return [c for pile in content for c in pile]
        return list(content)

    def move_cards(self, cards: list[int], dest: int, whole: int | None = None) -> None:
        """Move cards (from wherever they are) to the end of a zone; into a piles zone, as one pile.
        ``whole``: the cards are all those of that zone instance, in its order (it is emptied at once)."""
        if not cards:
            return
        if self.told:  # what a seat was told of a card is dropped when the card leaves its zone
            self.told = dropped(self.told, [c for c in cards if self.loc[c] != dest])
        zones, loc, zmemo = self.zones, self.loc, self.zmemo
        if self.narrating:
            self._tell_moved(cards, dest, whole)
        if self.shown:  # what was shown or revealed of a card is known while it stays where it was
            self.shown = dropped(self.shown, [c for c in cards if self.loc[c] != dest])
        if whole is not None:
            emptied = zones[whole]  # (lists typed in state.pxd, as ``target`` below: the list's own methods)
            emptied.clear()
            if zmemo:
                zmemo.pop(whole, None)
                zmemo.pop(dest, None)
            for c in cards:
                loc[c] = dest
        else:
            zmemo.pop(dest, None)
            for c in cards:
                zmemo.pop(loc[c], None)
                src = zones[loc[c]]
                if src and isinstance(src[0], list):
                    for pile in src:
                        if c in pile:
                            pile.remove(c)
                            if not pile:
                                src.remove(pile)
                            break
                else:
                    src.remove(c)
                loc[c] = dest
        target = zones[dest]
        if self.layout.piles[dest]:
            target.append(list(cards))
        else:
            target.extend(cards)
        self.cache.clear()
        self._legal = None

    # ---- the flow of a game ------------------------------------------------------------------------
    def _moves_for(self, p: int) -> list[Move]:
        out: list[Move] = []
        if self.asking is not None:  # only the asked choice
            rule = self.game.moves[self.asking[1]]
            rule.generate(self, p, out, self.asking[2])
            self._legal = (p, out)
            return out
        if self.picking is not None and self.picking[0] == p:  # a set under way: only its next picks, or done
            self.game.moves[self.picking[1]].generate(self, p, out)
            self._legal = (p, out)
            return out
        if self.out and p in self.out:  # an eliminated player has no move until the next round
            self._legal = (p, out)
            return out
        for rule in self.game.phases[self.phase].moves:
            try:
                rule.generate(self, p, out)
            except RUNTIME_FAILURES as err:
                raise rule_failure(err, rule.at, "move's guard", self.game.read_from_ir) from None
        self._legal = (p, out)
        return out

    def _perform(self, p: int, move: Move) -> None:
        rule_index, c, t = move
        if c >= 0:
            self._play_card(p, rule_index, c, t)
            return
        kind = self.game.moves[rule_index].choice  # a choice: nothing moves (but a draw's cards, a set's)
        if kind == "draw":  # its triggers' `card`: the top card taken
            taken = draw_cards(self, self.game.moves[rule_index], p, t)
            if taken:
                move = move._replace(card=taken[0])
        elif kind == "cards":
            perform_set(self, p, t)
        if self.narrating and kind in ("draw", "cards"):
            self._told_as_move(kind)
        self._triggers(p, move, 0)

    def _play_card(self, p: int, rule_index: int, c: int, t: int) -> None:
        """Player ``p`` moves card ``c`` to zone instance ``t`` by move rule ``rule_index`` (a Move's
        fields, read once), then the rule's triggers."""
        game = self.game
        if self.narrating:  # what the move's guards tell every seat of the card (events.py)
            tell_guarded(self, p, rule_index, c, t)
        zones, loc = self.zones, self.loc
        src = loc[c]
        source = zones[src]  # (lists typed in state.pxd: their own methods, no lookup by name)
        for i in range(len(source)):  # (its remove, each card read as a C integer: no objects compared)
            x = source[i]
            if x == c:
                source.pop(i)
                break
        else:  # (not there: as list.remove, an error)
            source.remove(c)
        zmemo = self.zmemo
        if zmemo:
            zmemo.pop(src, None)
            zmemo.pop(t, None)
        dest = zones[t]
        if game.target_piles[rule_index]:
            dest.append([c])
        else:
            dest.append(c)
        loc[c] = t
        self.played_by[c] = p
        if self.told and src != t:  # what a seat was told of the card goes as it leaves its zone
            self.told = dropped(self.told, (c,))
        if self.shown and src != t:  # and what was shown or revealed of it there
            self.shown = dropped(self.shown, (c,))
        cache = self.cache
        if cache:
            cache.clear()
        triggers = game.triggers[rule_index]
        for trig in triggers:
            try:
                if trig.light and not trig.condition(self, (p, c, t)):  # (it reads no slot past these)
                    continue
                env = [None] * game.env_size
                env[0], env[1], env[2] = p, c, t
                if trig.light or trig.condition is None or trig.condition(self, env):
                    trig.effects(self, env)
                    self.cache.clear()
                    if self.asking is not None:  # the trigger asks: the rest waits for the answer
                        suspend(self, State._triggers_from, (p, Move(rule_index, c, t), triggers.index(trig) + 1))
                        return
            except RUNTIME_FAILURES as err:
                raise rule_failure(err, trig.at, "trigger", self.game.read_from_ir) from None

    def _triggers(self, p: int, move: Move, start: int) -> None:
        """The triggers of a move from the ``start``-th on (after a choice, or after an answer)."""
        game = self.game
        rule_index, c, t = move
        rule = game.moves[rule_index]
        triggers = game.triggers[rule_index]
        for k in range(start, len(triggers)):
            trig = triggers[k]
            try:
                env = [None] * game.env_size
                env[0] = p
                if c < 0 or rule.choice == "draw":
                    if rule.choice == "cards":  # the set chosen, and where it went
                        env[rule.slot], env[2] = t.cards, t.to
                    else:
                        env[rule.slot] = t
                        if c >= 0:  # a draw: `card` is the top card it took
                            env[1] = c
                else:
                    env[1], env[2] = c, t
                if trig.condition is None or trig.condition(self, env):
                    trig.effects(self, env)
                    self.cache.clear()
                    if self.asking is not None:
                        suspend(self, State._triggers_from, (p, move, k + 1))
                        return
            except RUNTIME_FAILURES as err:
                raise rule_failure(err, trig.at, "trigger", self.game.read_from_ir) from None

    def _triggers_from(self, resume: tuple) -> None:
        """A frame (flow.py): the triggers of ``(player, move, start)`` left to run after an answer."""
        self._triggers(*resume)

    def _moved(self, p: int) -> None:
        """A frame (flow.py): once ``p``'s move and what it asked are done, the next player moves."""
        nxt = self.next_player
        self.current = nxt if nxt is not None else (p + self.turn_step) % self.n

    def _hold(self) -> None:
        """An ask waits: the asked seat is the one to move (only the asked choice: _moves_for)."""
        self.current = self.asking[0]
        self._legal = None

    def _resolve(self, _: None = None) -> None:
        """A simultaneous phase's held moves take effect, in ``pending``'s order (the first next:
        those not yet resolved stay held, and hidden, while a resolution's ask waits, or revealed
        to all in a phase `revealed together`: ``resolving``); then the phase ends, or, when it has an `ends
        when`, every seat chooses again, from the seat a held move's trigger named with `next P`
        (else as before). Also a frame (flow.py), to go on after an answer."""
        pending = self.pending
        self.resolving = self.game.phases[self.phase].revealed
        while pending:
            p, move = pending.pop(0)
            self._perform(p, move)
            if self.asking is not None:
                suspend(self, State._resolve, None)
                return
        self.resolving = False
        if self.game.phases[self.phase].ends is None:
            self._next_phase()
        else:  # everyone chooses again; _advance reads the phase's end first
            nxt = self.next_player
            if nxt is not None and nxt != self.choosers[0]:  # `next P` while they took effect: P chooses first
                self.choosers = tuple((nxt + k) % self.n for k in range(self.n))
            self.to_move = list(self.choosers)

    def _advance(self) -> None:
        """End phases and rounds whose time has come, until some player must move."""
        game = self.game
        round_ends = game.flow.round_ends
        while not self.over:
            if (
                round_ends is not None
                and not self.pending
                and holds(self, round_ends, game.flow.at.get("round_ends"), "round's end")
            ):
                self._end_round()  # (never amid a simultaneous phase's choices)
                if self.asking is not None:
                    return self._hold()
                continue
            ph = game.phases[self.phase]
            if ph.simultaneous:
                # `ends when` is read before each round of choices: when the phase starts and each
                # time the held moves have all taken effect (never between two of them)
                if ph.ends is not None and not self.pending and len(self.to_move) == self.n and self._phase_over(ph):
                    self._next_phase()
                    if self.asking is not None:
                        return self._hold()
                    continue
                while self.to_move and not self._moves_for(self.to_move[0]):
                    self.to_move.pop(0)
                if self.to_move:
                    self.current = self.to_move[0]
                    return
                if ph.ends is not None and not self.pending:  # nobody could choose, and the end does not hold
                    self._stuck(ph)
                    if self.asking is not None:
                        return self._hold()
                    continue
                if ph.resolve:
                    self.pending = resolution_order(self, ph, self.pending)
                if ph.ends is not None:  # (a `next P` among the held moves' triggers: who chooses first again)
                    self.next_player = None
                self._resolve()
                if self.asking is not None:
                    return self._hold()
                continue

            if ph.ends is not None and self._phase_over(ph):
                self._next_phase()
                if self.asking is not None:
                    return self._hold()
                continue
            current, n = self.current, self.n
            if self.skips and current in self.skips:  # a turn lost (`skip P`): passed by, once
                lose_turn(self, current)
                self.current = (current + self.turn_step) % n
                continue
            if self.expiring:
                self._expire(current)
            out: list[Move] = []  # the current player's moves, as _moves_for lists them
            if not (self.out and current in self.out):
                for rule in ph.moves:
                    try:
                        rule.generate(self, current, out)
                    except RUNTIME_FAILURES as err:
                        raise rule_failure(err, rule.at, "move's guard", self.game.read_from_ir) from None
            self._legal = (current, out)
            if out:
                return
            step = self.turn_step
            for k in range(1, n):  # the next players in turn order, each passed by who cannot move
                p = (current + k * step) % n
                if self.skips and p in self.skips:  # their turn comes and is lost
                    lose_turn(self, p)
                    continue
                if self.expiring:
                    self._expire(p)
                if self._moves_for(p):
                    self.current = p
                    return
            self._stuck(ph)
            if self.asking is not None:
                return self._hold()

    def _phase_over(self, ph: Any) -> bool:
        """Whether the phase's `ends when` holds now."""
        try:
            return bool(ph.ends(self, [None] * self.game.env_size if ph.ends_env else ()))  # (): it reads no name
        except RUNTIME_FAILURES as err:
            raise rule_failure(err, ph.at, "phase's end", self.game.read_from_ir) from None

    def _stuck(self, ph: Any) -> None:
        """Nobody can move and the phase's `ends when` does not hold: it ends if it says `ends when
        nobody can move`; otherwise the rules leave everyone stuck."""
        if ph.ends_when_stuck is None:
            raise PlayError(f"nobody can move in phase '{ph.name}', and its end condition does not hold", ph.at)
        if self.game.coverage is not None:
            self.game.coverage[ph.ends_when_stuck] += 1
        self._next_phase()

    def _start_round(self, advance: bool = True) -> None:
        """Deal the round and start its first phase; then, unless the caller is _advance (which
        goes on by itself), advance to the first player who must move."""
        game = self.game
        env = [None] * game.env_size
        for i, (_, per_player, per_round, init) in enumerate(game.vars):
            if per_round:
                self.vars[i] = [init(self, env)] * self.n if per_player else init(self, env)
        self.cache.clear()  # (the schedules may read the variables just set)
        self.schedule = {}
        for name, values, repeated in game.schedules:
            if self.round >= len(values) and not repeated:
                raise PlayError(f"schedule '{name}' has {len(values)} entries; round {self.round + 1} has none")
            self.schedule[name] = values[self.round % len(values)](self, env)
        self.played_by = [-1] * len(self.played_by)  # (one per card: __init__ sized it)
        self.out: frozenset[int] = frozenset()  # players eliminated from the round
        self.shown: tuple[tuple[int, int, int], ...] = ()  # (seat, card, zone instance) shown to a seat
        self.told: tuple = ()  # (seat, card, zone instance, attribute, value): `tell` (knowledge.py)
        self.expiring: tuple[tuple[int, int], ...] = ()  # (player, variable) back to 0 at their next turn
        self.turn_step = 1  # the turn passes to the left (+1), or to the right once the order reverses (-1)
        self.skips: tuple[int, ...] = ()  # seats that lose their next turn, once per entry (turns.py)
        if self.deals_given is not None:
            if self.round >= len(self.deals_given):
                raise PlayError(f"the record has no deal for round {self.round + 1}")
            place(self, self.deals_given[self.round])
        else:
            shuffle_decks(self)
            deal(self)
        if self.history is not None:  # (the deal: set-up effects are replayed from it)
            self.history.append(RoundLog(self.dealer, self))
        self.moves_in_round = 0
        self.cache.clear()
        self.phase = 0  # (the phase to come, while the round's start effects ask)
        if game.flow.round_start is not None:
            run_effects(self, game.flow.round_start, game.flow.at["round_start"], "effects at the start of the round")
            if self.asking is not None:  # the first phase starts once the answers are in
                suspend(self, State._start_phase, 0)
                if advance:
                    self._hold()
                return
        self._start_phase(0)
        if advance:
            if self.asking is not None:
                self._hold()
            else:
                self._advance()

    def _start_phase(self, index: int) -> None:
        self.phase = index
        ph = self.game.phases[index]
        self.current = first = first_player(self, ph)
        self.pending = []
        if ph.at_start is not None:
            self.next_player = None
            run_effects(self, ph.at_start, ph.at, f"effects at the start of phase '{ph.name}'")
            if self.asking is not None:
                suspend(self, State._phase_begins, first)
                return
        self._phase_begins(first)

    def _phase_begins(self, first: int) -> None:
        """The phase's first player (`next P` among its start effects: P) and, in a simultaneous
        phase, the seats to choose; a frame too (flow.py), after its start effects' answers."""
        ph = self.game.phases[self.phase]
        if ph.at_start is not None and self.next_player is not None:  # `next P` among them: P starts
            first = self.next_player
        self.current = first
        if ph.simultaneous:
            self.choosers = tuple([(first + k * self.turn_step) % self.n for k in range(self.n)])  # (no generator)
            self.to_move = list(self.choosers)

    def _next_phase(self) -> None:
        ph = self.game.phases[self.phase]
        if ph.at_end is not None:
            run_effects(self, ph.at_end, ph.at, f"effects at the end of phase '{ph.name}'")
            if self.asking is not None:
                suspend(self, State._phase_ended, None)
                return
        self._phase_ended()

    def _phase_ended(self, _: None = None) -> None:
        """The next phase (back to a `repeat`'s first), or the round's end; a frame too (flow.py)."""
        ph = self.game.phases[self.phase]
        if ph.until is not None and not holds(self, ph.until, ph.at, "repeat's `until`"):
            self._start_phase(ph.repeat_from)
            return
        if self.phase + 1 < len(self.game.phases):
            self._start_phase(self.phase + 1)
            return
        self._end_round()

    def _end_round(self) -> None:
        """The round's own end effects, its scoring, then the next round or the end of the game."""
        flow = self.game.flow
        if flow.round_end is not None:
            run_effects(self, flow.round_end, flow.at["round_end"], "effects at the end of the round")
            if self.asking is not None:
                suspend(self, State._score_round, None)
                return
        self._score_round()

    def _score_round(self, _: None = None) -> None:
        """The round's scoring, then the next round or the end of the game; a frame too (flow.py)."""
        flow = self.game.flow
        by_rule = score_by_rule(self)
        scores = [sum(points) for points in by_rule]
        for p in range(self.n):
            self.totals[p] += scores[p]
        self.cache.clear()  # (the game's end may read the totals, the round)
        history = self.history
        if history is not None:
            log = history[-1]
            log["scores"] = scores
            log["by_rule"] = by_rule  # (what the terminal shows; records keep the sums)
            log["revealed"] = revealed_zones(self)
        self.round += 1
        ended = flow.game_ends is not None and holds(self, flow.game_ends, flow.at.get("game_ends"), "game's end")
        if ended or (self.rounds is not None and self.round >= self.rounds):
            self.over = True
            if flow.all_win is not None:
                self.won_together = holds(self, flow.all_win, flow.at.get("all_win"), "cooperative win")
            return
        if self.rounds is None and self.round >= MAX_ROUNDS:
            raise PlayError(f"the game has not ended after {MAX_ROUNDS} rounds", flow.at.get("game_ends"))
        self.dealer = (self.dealer + self.game.dealer_step) % self.n
        self._start_round(advance=False)  # called by _advance only, whose loop goes on from here
