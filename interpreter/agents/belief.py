"""Determinization: full game states sampled from what one seat could know, for search agents.

A sample starts from the round's deal as the seat saw it (its own cards, public zones, counts of
the hidden ones), puts the cards the seat has not seen at random into the hidden places, and
replays the round's moves as the seat saw them through the rules. The rules then move every card
exactly as in the real game wherever the seat could follow it (a pile taken face down holds
what the seat saw go in). Where the sample contradicts a move (a player played a card the sample
did not give them, or did not follow suit while holding the suit in the sample), unseen cards are
swapped so that the move is legal, and the seat learns that the player could not have held those
cards. A card only ever trades places with a card of its own deck (the engine refuses any other
swap): a sample is a world the rules can reach. Only the observation is read: never the real state.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..engine.card_sets import CardSet, Pick
from ..engine.cards import signature
from ..engine.records import pick_through
from ..engine.zones import sees
from . import round_start
from .agreement import Agreement
from .card_tables import tables
from .facts import learn_holding, learn_outcome
from .inference import fit_counts, redeal
from .orders import placed, reveal_ordered, set_ordered
from .repairs import Repairs
from .trades import events_renamed, held_renamed, seen_plays_kept

# The work of one decision's search for a world, counted (never timed: the same worlds on any
# machine): observed moves replayed and trades tried, at most WORK in all, whatever the length of
# the round. A search that rarely fits (a seat whose kept world no longer fits, late in a long
# round) stops there, and the decision goes on with the worlds it has, or none.
WORK = 600


class Belief(Repairs, Agreement):
    """Samples States consistent with one observation of one seat."""

    def __init__(self, game: Any, obs: dict[str, Any], rng: random.Random, memory: dict | None = None):
        """Prepare to sample for ``obs``; ``memory`` (a dict the agent keeps) carries what was learned."""
        self.game, self.obs, self.rng, self.seat = game, obs, rng, obs["seat"]
        self.n = obs["players"]
        self.lay = game.layout(self.n)
        # what does not change from one decision to the next: the rules' tables, for this many players
        self.kind_of, self.kind_of_object, self.ids_of, self.deck_zones = tables(game, self.n)
        self.patterns: dict[int, tuple] = {}  # id of an observed move -> what a legal move must match
        # (zone instance, card kind): that instance did not hold such a card at the deal
        # memory kept by an agent across its moves in one round: what it learned, deals that fitted,
        # the replay of its last decision (the deal in the key: a round may repeat the others)
        key = (obs["round"], obs["dealer"], tuple(obs["totals"]), obs["deal"])
        if memory is None or memory.get("key") != key:
            memory = {} if memory is None else memory
            memory.update(key=key, exclusions=set(), deals=[], world=None, early=None, witnessed={})
        self.memory = memory
        self.exclusions: set[tuple[int, int]] = memory["exclusions"]
        # the places the seat sees (an `others see` zone: every seat's but its own, which is
        # sampled as any hidden place is)
        self.visible = [inst for inst in range(self.lay.size) if sees(game, self.lay, inst, self.seat)]
        self.visible_set = frozenset(self.visible)
        # the round a fresh replay starts from, made when one is (a decision that plays on the
        # world kept from its last one makes none); its seed drawn now, as the sampler's chance goes
        self.base_seed, self._base = rng.randrange(2**31), None
        self.failures = 0  # replays that found no world
        self.why: Counter = Counter()  # why replays failed: (what, the observed move's name) -> how often
        self.searches = 0  # searches for a world (sample)
        self.mends = 0  # trials left to mend a replay whose move's outcome differs (_diverged): a replay's
        self.trials = 0  # trades tried to mend replays (_diverged, _run)
        self.replayed = 0  # observed moves replayed (those since the seat's last decision, when its replay fits)
        self.known: set[int] = set()  # cards whose last play, in a sample's replay, the seat saw (_swap)
        # card -> the moves of the round (their places in its log) where some replay played it in the
        # seat's sight (trade; kept in the memory with the world the next decision plays on)
        self.witnessed: dict[int, set[int]] = memory.setdefault("witnessed", {})
        # card -> kinds the card in its place is known not to be (a move it blocked: _repair)
        self.marks: dict[int, set[int]] = {}
        self.provisional: set[int] = set()  # cards the replay drew into the seat's sight (Replay)
        self.seen: set[int] = set()  # the cards the seat saw, in the world found (_run)
        self.world: Any = None  # that world, agreeing with the observation (sample re-deals it)
        self.asks = frozenset(r.name for r in game.moves if r.phase < 0)  # the answers' names
        self.out = frozenset(obs["eliminated"])  # the players out of the round now (none comes back in it)

    @property
    def base(self) -> Any:
        """A new game of the rules for this many players (``_start`` lays a sampled deal out on it)."""
        if self._base is None:
            self._base = self.game.new_game(self.n, self.base_seed, self.obs["params"])
        return self._base

    def kind(self, card: dict[str, Any]) -> int:
        """The kind (copies share it) of a card as an observation shows it."""
        k = self.kind_of_object.get(id(card))
        return self.kind_of[signature(card)] if k is None else k

    # ---- the deal --------------------------------------------------------------------------------
    def _deal(self) -> tuple[dict[str, Any], set[int]]:
        """A deal consistent with the seat's view of it, and the card ids the seat saw in it."""
        game, lay, rng = self.game, self.lay, self.rng
        free = {k: list(ids) for k, ids in self.ids_of.items()}
        for ids in free.values():
            rng.shuffle(ids)
        placed: dict[int, list[int]] = {}
        hidden: dict[int, int] = {}  # instance -> cards it still needs
        for name, views in self.obs["deal"].items():
            for inst, view in zip(lay.instances[game.zone_index[name]], views, strict=True):
                if isinstance(view, dict):
                    placed[inst], hidden[inst] = [], view["count"]
                else:
                    placed[inst] = [free[self.kind(c)].pop() for c in view]
        # a card a player was seen to play from one of their hidden zones was there at the deal
        for m in self.obs["moves"]:
            if "cards" in m and "to" not in m:  # an ask's set: cards of a zone its player saw
                continue
            played = [m.get("card")] if "cards" not in m else m["cards"]  # (a set: several)
            for card in played:
                if card is None:  # (a choice moves no card; a card unseen)
                    continue
                rule = next(r for r in game.moves if r.name == m["move"])
                inst = lay.base[rule.source] + (m["player"] if rule.source_per_player else 0)
                k = self.kind(card)
                if hidden.get(inst, 0) > 0 and free[k]:
                    placed[inst].append(free[k].pop())
                    hidden[inst] -= 1
        rest = [c for ids in free.values() for c in ids]
        rng.shuffle(rest)
        kind = game.cards.kind
        excl = self.exclusions
        slots = [inst for inst, k in hidden.items() for _ in range(k)]
        zone_of, deck_of, deck_zones = lay.zone_of, game.cards.deck_of, self.deck_zones
        # kinds some hidden place did not hold, decks that may go to every hidden place (then a card
        # of both may take any slot: the draw below without listing the slots, the same draw)
        barred = {k for i, k in excl if i in hidden}
        anywhere = {d for d, zones in deck_zones.items() if all(zone_of[inst] in zones for inst in hidden)}
        # cards with fewer possible places first
        rest.sort(key=lambda c: (len(deck_zones[deck_of[c]]), kind[c] not in barred))
        for c in rest:
            if deck_of[c] in anywhere and kind[c] not in barred:
                if not slots:
                    continue
                j = rng.randrange(len(slots))
            else:
                fits = [j for j, inst in enumerate(slots) if zone_of[inst] in deck_zones[deck_of[c]]]
                if not fits:  # no deal puts this card in a hidden place: it stays out (a deal short of it fails)
                    continue
                allowed = [j for j in fits if (slots[j], kind[c]) not in excl] or fits
                j = allowed[rng.randrange(len(allowed))]
            placed[slots[j]].append(c)
            slots[j] = slots[-1]
            slots.pop()
        for inst in hidden:
            rng.shuffle(placed[inst])
        cards = game.cards.json
        deal: dict[str, Any] = {}
        for z, spec in enumerate(game.zones):
            lists = [[cards[c] for c in placed.get(inst, [])] for inst in lay.instances[z]]
            deal[spec.name] = lists if (spec.per_player or len(lists) > 1) else lists[0]
        # (a deal names cards, not ids: the ids the seat saw are those it is laid out with)
        return deal, round_start.seen_in_deal(self, deal)

    # ---- a world at the observed point -----------------------------------------------------------
    def sample(self, attempts: int = 12) -> Any | None:
        """A full State at the observed point of the game, or None if none was found.

        The first call finds one world consistent with the observation (``_world``; a second call
        tries again when it found none, later ones do not); every call then re-deals its hidden
        cards under what the seat knows (inference.redeal): no replay, no sample wasted."""
        world = self.world
        if world is None:
            if self.searches >= 2:  # (twice in vain: this decision goes without worlds, not slower)
                return None
            self.searches += 1
            world = self.world = self._world(attempts)
            if world is None:
                return None
        state = world.copy()
        state.rng.seed(self.rng.randrange(2**31))  # (each world its own chance for what is to come)
        redeal(self, state)
        return state

    def _world(self, attempts: int) -> Any | None:
        """One world at the observed point: the world kept from the seat's last decision this round,
        played on by the moves since (``Replay``), else the round replayed on fresh deals, then on
        deals that fitted earlier in the round (kept in the memory); WORK in all at most."""
        kept = [
            w for w in (self.memory.get("world"), self.memory.get("early")) if w is not None and w.prefix_of(self.obs)
        ]
        # (early: the same world before the choices it made unseen; the one at the next move's player)
        for world in [w for w in kept if self._next_fits(w)][:1] or kept[:1]:
            found = self._run(world.copy())
            if found is not None:
                return found
            self.failures += 1
        good = self.memory["deals"]
        for i in range(attempts + len(good)):
            if self.spent():
                break
            fresh = i < attempts
            deal, seen = self._deal() if fresh else good[i - attempts]
            state = self._try(deal, set(seen))
            if state is not None:
                if fresh:
                    good.append((deal, seen))
                    del good[:-8]
                return state
            self.failures += 1
        return None

    def spent(self) -> bool:
        """Whether this decision's search has done its WORK (moves replayed, trades tried)."""
        return self.replayed + self.trials >= WORK

    def _next_fits(self, kept: Replay) -> bool:
        """Whether the kept world is at the player of the next observed move to play (or at the end,
        or that move an answer): the world chosen between the two kept, not a replay."""
        moves, state = self.obs["moves"], kept.state
        if len(moves) == len(kept.moves) or moves[len(kept.moves)]["move"] in self.asks:
            return True
        return not state.is_over and state.current_player == moves[len(kept.moves)]["player"]

    def _try(self, deal: dict[str, Any], seen: set[int]) -> Any | None:
        """Replay the round's moves on ``deal``; the State at the observed point, or None.

        The round starts with the variables kept from round to round as the seat sees them now (who
        starts it, set at the last round's end), unless the round's first move does not fit them
        (one set during the round, a President named as players finish): then as the game began, then
        with each value a player or none for a variable kept from round to round the seat does not
        see (who starts: set at the last round's end from cards it never saw)."""
        obs = self.obs
        first = obs["moves"][0] if obs["moves"] else None
        starts: list = [True, False] if obs["round"] > 1 else [False]  # (the first round: as the game began)
        if (
            obs["round"] > 1
        ):  # a variable kept from round to round the seat does not see (who starts): a player, or none
            hidden = [
                i
                for i, (name, per_player, per_round, _) in enumerate(self.game.vars)
                if not per_round and not per_player and obs["vars"][name] is None
            ]
            starts += [(i, v) for i in hidden for v in (None, *range(self.n))]
        for kept in starts:
            state = self._start(deal, kept)
            if self._ready(state, first, 0) if first is not None else self._first_now(state):
                break
        state, seen = round_start.agree(self, state, deal, seen, lambda d, kept=kept: self._start(d, kept))
        replay = Replay(state, seen, set(), {}, set(), 0, [], [])
        self.known, self.marks, self.provisional = replay.known, replay.marks, replay.provisional
        replay.done = self._events(state, seen, 0)
        self._under(state, seen)
        self._see(state, seen)
        return self._run(replay)

    def _first_now(self, state: Any) -> bool:
        """With no move yet in the round: whether the round just started has the seat to move now
        as its first player (a hidden starter may name another), unless its phase is chosen in at
        once (the choices held unseen are made at the end, as the world kept before them says), and
        with the players out of it those the seat sees out (Indian Poker's start puts out a player
        with no chip left: the variables as the seat sees them now, after the ante, put out one more)."""
        phases = self.game.phases
        if state.out != self.out:
            return False
        return state.is_over or phases[state.phase].simultaneous or state.current_player == self.obs["current"]

    def _start(self, deal: dict[str, Any], kept: Any) -> Any:
        """The round under way started on ``deal``, with the variables kept from round to round as
        ``_try``'s ``kept`` says (False: as the game began; True: as the seat sees them; a variable
        and a value: that one so, the others as the seat sees them)."""
        obs = self.obs
        state = self.base.copy()
        if kept:
            state.vars = [
                value if per_round else _merge(obs["vars"][name], value)
                for (name, _, per_round, _), value in zip(self.game.vars, state.vars, strict=True)
            ]
            if kept is not True:
                state.vars[kept[0]] = kept[1]
        state.restart_round(obs["round"] - 1, obs["dealer"], obs["totals"], deal)
        return state

    def _run(self, replay: Replay, retries: int = 8) -> Any | None:
        """Play ``replay`` on through the observed moves it has not played (and the choices held
        unseen since) and make the zones agree with what the seat sees, was shown and told; when all
        fits, keep it in the memory for the seat's next decision, and return the world at the
        observed point (``_finish``), or None. Where it does not fit, an earlier move's outcome may
        be what differs (cards handed over where the game drew one: the counts differ at the end):
        up to ``retries`` times, the replay goes back to the point before one of its last moves, trades
        cards there (``_trials``) and plays on from it."""
        self.known, self.marks, self.provisional = replay.known, replay.marks, replay.provisional
        todo = self.obs["moves"][len(replay.moves) :]
        # (a few trials for each move to replay, not many more, nor more than the decision's work left)
        self.mends = max(0, min(24 + 4 * len(todo), 96, WORK - self.replayed - self.trials))
        points: list[tuple[Replay, int]] = []  # the replay before each move played, and the move's index in todo
        world = self._play(replay, todo, 0, points)
        for _ in range(retries if world is None else 0):
            if not points or self.mends <= 0 or self.spent():
                break
            # a move that names a player whose places hold other counts than the seat sees, else any
            # of the last moves
            suspects = self._suspects(replay.state, points, todo)
            i = self.rng.choice(suspects) if suspects else self.rng.randrange(max(0, len(points) - 12), len(points))
            base, k = points[i]
            after = points[i + 1][0].state if i + 1 < len(points) else replay.state
            trials = self._trials(base, after, todo[k], 8)
            if not trials:
                continue
            self.mends -= 1
            self.trials += 1
            replay = base.copy()
            self.known, self.marks, self.provisional = replay.known, replay.marks, replay.provisional
            if trials[self.rng.randrange(len(trials))](replay) is None:
                continue
            del points[i:]
            world = self._play(replay, todo, k, points)
            if world is not None:
                break
        return world

    def _suspects(self, state: Any, points: list, todo: list[dict]) -> list[int]:
        """The points before moves that name (as mover, or chosen) a player one of whose places holds
        another number of cards in ``state`` than the seat sees."""
        game, lay = self.game, self.lay
        players = set()
        for name, views in self.obs["zones"].items():
            for inst, view in zip(lay.instances[game.zone_index[name]], views, strict=True):
                piles = game.zones[lay.zone_of[inst]].piles  # (a view shows a pile as one)
                count = view["count"] if isinstance(view, dict) else None if piles else len(view)
                if lay.owner[inst] is not None and count is not None and count != len(state.zone_cards(inst)):
                    players.add(lay.owner[inst])
        choosers = {r.name for r in game.moves if r.choice == "player"}
        return [
            i
            for i, (_, k) in enumerate(points)
            if todo[k]["player"] in players or (todo[k]["move"] in choosers and todo[k].get("value") in players)
        ]

    def _play(self, replay: Replay, todo: list[dict], k: int, points: list) -> Any | None:
        """``_run``'s replay of ``todo`` from its ``k``-th move, the point before each move kept in
        ``points`` (while mends are left); the world, or None."""
        obs, state, seen, done = self.obs, replay.state, replay.seen, replay.done
        self.known, self.marks, self.provisional = replay.known, replay.marks, replay.provisional
        before = None  # the replay before its last move, and that move (_diverged)
        told = None  # the replay before its last move, a choice of a player, and that move (facts.py)
        for j in range(k, len(todo)):
            m = todo[j]
            if self.spent():
                self.why["out of work", "-"] += 1
                return None
            self.replayed += 1
            if not self._ready(state, m, done):
                if before is None or (done := self._diverged(replay, *before, m)) is None:
                    last = before[2]["move"] if before else "(no mends left)" if self.mends <= 0 else "(start)"
                    self.why[f"diverged before {m['move']} after", last] += 1
                    return None
                state, seen = replay.state, replay.seen
                told = None  # (mended: what the replay before it said no longer holds)
            if told is not None:
                learn_outcome(self, told[0], state, told[1], m, seen)
            before = None
            if self.mends > 0:
                point = replay.copy()
                point.done = done
                points.append((point, j))
                before = (point, done, m)
            move = self._find(state, m, seen) or self._repair(state, m, seen)
            if move is not None and "place" in m:
                move = placed(self, state, move, m["place"], seen)
            elif move is not None and "cards" in m and move.card < 0:
                move = set_ordered(self, state, move, m)
            move = pick_through(state, move, lambda m=m, s=state, n=seen: self._find(s, m, n))  # (a set card by card)
            if move is None:
                self.why["no such move", m["move"]] += 1
                return None
            learn_holding(self, state, m, seen)
            told = (state.copy(), m) if _chooses_player(self.game, m) else None
            done = self._step(state, move, m, seen, done)
        events = obs.get("events", ())
        if done != len(events):  # (the sample made other reveals or shuffles than the game)
            self.why["other events", "-"] += 1
            return None
        # the choices held unseen first (then the zones), though a replay kept with them will not fit
        # the next decision's moves once they are revealed: Sushi Go's worlds fit twice as often so
        now = {"player": obs["current"], "move": None}  # (the seat to move now, as if a move of its came)
        # a world kept before those choices too: the next decision's moves may reveal them (War's battle)
        early = None
        if not state.is_over and self.game.phases[state.phase].simultaneous and state.current_player != obs["current"]:
            early = replay.copy()
            early.done, early.moves, early.events = done, list(obs["moves"]), list(events)
        if not self._ready(state, now, done) and before is not None and not obs["over"]:
            if (done := self._diverged(replay, *before, now)) is None:
                self.why["diverged before now after", before[2]["move"]] += 1
                return None
            state, seen = replay.state, replay.seen
            told = None
        if told is not None and not state.is_over and state.current_player == obs["current"]:
            learn_outcome(self, told[0], state, told[1], now, seen)
        if not fit_counts(self, state, seen):  # (hand-overs and draws the seat could not count, counted)
            self.why["counts differ", "-"] += 1
            return None
        for what, fits in (("zones differ", self._reconcile), ("shown", self._shown), ("told", self._told)):
            if not fits(state, seen):
                self.why[what, "-"] += 1
                return None
        replay.done, replay.moves, replay.events = done, list(obs["moves"]), list(events)
        kept = replay.copy()
        world = self._finish(state)
        if world is None:
            self.why["turn or phase", "-"] += 1
        else:
            self.memory["world"], self.memory["early"] = kept, early
            self.seen = seen
        return world

    def _ready(self, state: Any, m: dict[str, Any], done: int | None) -> bool:
        """Whether the replay is where observed move ``m`` was made: its player to move (an answer
        while held choices resolve: those chosen before it made, unseen), the same events so far, and
        no player out of the round whom the seat sees still in it (a Guard's guess that hit in the
        sample and missed in the game: found at once, not where the player's turn comes); at the
        observed point, the players out of the round those the seat sees out (a guess that missed in
        the sample and hit in the game: its last move, so the turn still fits)."""
        now = m["move"] is None  # (the observed point, _run)
        if now or m["move"] in self.asks:
            self._unseen_choices(state, m["player"])
        return (
            done is not None
            and not state.is_over
            and state.current_player == m["player"]
            and (not state.out or state.out <= self.out)
            and (not now or len(state.out) == len(self.out))
        )

    def _step(self, state: Any, move: Any, m: dict[str, Any], seen: set[int], done: int | None) -> int | None:
        """Play ``move``, the replay of observed ``m``; how many events the replay has made since."""
        state.apply(move)
        self._played(move, m, len(state.history[-1]["moves"]) - 1 if state.history else -1)
        if move.card >= 0 and m.get("card", 0) is None and state.loc[move.card] not in self.visible_set:
            seen.discard(move.card)  # (played unseen into a hidden place: the seat knows not where it is)
        if state.pending:  # the held choices the seat saw made: each card stays in its chooser's place,
            # seen there (no trade takes it, nor is it a guess where it comes into sight: a choice names it)
            seen.update(self._held_seen(state, self.known))
        done = self._events(state, seen, done)
        self._see(state, seen, self._named(move, m))
        return done

    @staticmethod
    def _held_seen(state: Any, known: set[int]) -> set[int]:
        """The cards of ``state``'s held choices (a simultaneous phase's) whose choice the seat saw
        (``known``: Replay's)."""
        cards = set()
        for _, mv in state.pending:
            cards.update((mv.card,) if mv.card >= 0 else mv.target.cards if type(mv.target) is CardSet else ())
        return cards & known

    def _finish(self, state: Any) -> Any | None:
        """The replayed ``state``, its cards where the seat sees them, made the observed point of the
        game: its turn and phase checked, a set being picked picked again, the variables as the
        seat sees them (else None)."""
        obs, game = self.obs, self.game
        self._unseen_choices(state, obs["current"])
        if state.is_over or state.current_player != obs["current"] or game.phases[state.phase].name != obs["phase"]:
            return None
        if "picking" in obs and not self._pick_again(state, obs["picking"]["cards"]):
            return None
        state.vars = [
            _merge(known, mine) for known, mine in zip((obs["vars"][n] for n, *_ in game.vars), state.vars, strict=True)
        ]
        state.cache.clear()
        state._legal = None  # the moves listed before may have read the replayed variables
        return state

    def _pick_again(self, state: Any, cards: list[dict[str, Any]]) -> bool:
        """Pick again, in the sample, the cards the seat has picked so far towards a set it chooses
        card by card (the observation's ``picking``: cards of its own, seen); whether it could."""
        json = self.game.cards.json
        for card in cards:
            want = signature(card)
            move = next(
                (m for m in state.legal_moves() if type(m.target) is Pick and signature(json[m.target.card]) == want),
                None,
            )
            if move is None:
                return False
            state.apply(move)
        return True

    def _unseen_choices(self, state: Any, seat: int) -> None:
        """Until ``seat`` is to move: the seats that chose already in a simultaneous phase, unseen
        (held until all have chosen), make any choice."""
        game, rng = self.game, self.rng
        while not state.is_over and state.current_player != seat and game.phases[state.phase].simultaneous:
            if state.asking is not None:
                return
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])

    def _events(self, state: Any, seen: set[int], done: int | None) -> int | None:
        """The reveals and shuffles the replay made since the ``done`` first, matched with those the
        seat saw (events.py): a revealed card is where it was revealed, in the sample as it was;
        a shuffled zone's cards are no longer known where they lie (unseen again, unless the seat
        sees the zone). How many the replay has made, or None when they differ from the seat's."""
        if done is None or not state.history:
            return done
        made = state.history[-1].get("events", ())
        saw = self.obs.get("events", ())
        for i in range(done, len(made)):
            # (the same kind of event after the same moves: a shuffle of the replay's made later than
            # the game's, or of other numbers of cards, is another world)
            if i >= len(saw) or ("reveal" in saw[i]) != (made[i][0] == "reveal") or saw[i]["after"] != made[i][1]:
                return None
            if made[i][0] == "shuffle" and len(made[i][3]) != saw[i]["count"]:  # (as many cards as the game's)
                return None
            if made[i][0] == "shuffle":  # (its cards as shuffled: the move may have drawn some since)
                seen.difference_update(made[i][3])
            else:  # (the cards revealed are seen where they lie: no later trade takes one away)
                kept = self._hold(state, saw[i]["reveal"], seen, amid=True, made=made[i][3])
                if kept is None:
                    return None
                seen.update(kept)
                reveal_ordered(self, state, state.history[-1], i, saw[i]["reveal"], kept)
        return len(made)

    def _played(self, move: Any, m: dict[str, Any], j: int) -> None:
        """Note the cards a replayed move played (the ``j``-th of the round's log): known when the
        seat saw which they were."""
        if move.card >= 0:
            if m.get("card") is not None:
                self.known.add(move.card)
                self.provisional.discard(move.card)
                self.witnessed.setdefault(move.card, set()).add(j)
            else:
                self.known.discard(move.card)
        elif "cards" in m:
            for c, x in zip(move.target.cards, m["cards"], strict=True):
                if x is not None:
                    self.known.add(c)
                    self.provisional.discard(c)
                    self.witnessed.setdefault(c, set()).add(j)
                else:
                    self.known.discard(c)

    def _swap(self, state: Any, a: int, b: int) -> None:
        """Trade two cards' places (State.swap_cards). What a card did goes with its place (a card
        played unseen: the sample's is any), but not for a card whose play the seat saw: that card
        did it, wherever the sample puts it since (drawn back from a discard pile, shuffled)."""
        self.trade(state, a, b)
        marks = self.marks
        if marks and (a in marks or b in marks):  # what is known not to be in a place stays with the place
            ma, mb = marks.pop(a, None), marks.pop(b, None)
            if ma is not None:
                marks[b] = ma
            if mb is not None:
                marks[a] = mb

    def trade(self, state: Any, a: int, b: int) -> None:
        """Trade two cards' places, what each did going as ``_swap`` says (the marks stay as they are)."""
        known = self.known
        facts = not known or (a not in known and b not in known)
        state.swap_cards(a, b, facts=facts)
        if facts:
            if state.history:
                log = state.history[-1]
                if "events" in log:
                    events_renamed(state, log, {a: b, b: a})
                w = self.witnessed
                if a in w or b in w:  # (a play the seat saw names the card it saw)
                    seen_plays_kept(log, self.obs["moves"], w.get(a, set()) | w.get(b, set()), {a: b, b: a})
        elif state.pending:
            held_renamed(state, {a: b, b: a})

    def _see(self, state: Any, seen: set[int], named: Any = None) -> None:
        """Add the cards now in zones the seat sees to ``seen``; with ``named`` (after a move: the
        cards the seat saw it move, by the observation), those that came into sight unnamed (drawn
        from a hidden pile, moved by the rules) are the sample's guess (``provisional``)."""
        prov = self.provisional
        for inst in self.visible:
            for c in state.zone_cards(inst):
                if c not in seen:
                    seen.add(c)
                    if named is not None and c not in named:
                        prov.add(c)

    @staticmethod
    def _named(move: Any, m: dict[str, Any]) -> set[int]:
        """The cards of a replayed ``move`` that its observation ``m`` names."""
        if move.card >= 0:
            return {move.card} if m.get("card") is not None else set()
        if "cards" in m:
            return {c for c, x in zip(move.target.cards, m["cards"], strict=True) if x is not None}
        return set()


class Replay:
    """A replay of the round under way, kept from one decision of the seat to its next: the state
    after the observed ``moves`` (and ``done`` of the rules' events), the cards the seat saw in it,
    those whose play it saw (``known``), the kinds known absent from places (``marks``)."""

    __slots__ = ("done", "events", "known", "marks", "moves", "provisional", "seen", "state")

    def __init__(self, state, seen, known, marks, provisional, done, moves, events):
        self.state, self.seen, self.known, self.marks = state, seen, known, marks
        self.provisional = provisional  # cards the replay drew into the seat's sight, not yet the seen ones
        self.done, self.moves, self.events = done, moves, events

    def copy(self) -> Replay:
        """An independent copy (the state, the sets: the lists of moves are only read)."""
        marks = {c: set(k) for c, k in self.marks.items()}
        seen, known, provisional = set(self.seen), set(self.known), set(self.provisional)
        return Replay(self.state.copy(), seen, known, marks, provisional, self.done, self.moves, self.events)

    def prefix_of(self, obs: dict[str, Any]) -> bool:
        """Whether the moves and events replayed are the first of ``obs`` (the same round, none of
        them revealed since among them: a simultaneous phase's held moves)."""
        n, k = len(self.moves), len(self.events)
        return obs["moves"][:n] == self.moves and list(obs.get("events", ())[:k]) == self.events


def _chooses_player(game: Any, m: dict[str, Any]) -> bool:
    """Whether observed move ``m`` chose a player (an ask's player asked)."""
    return m.get("value") is not None and any(r.name == m["move"] and r.choice == "player" for r in game.moves)


def _merge(seen: Any, replayed: Any) -> Any:
    """A variable as the seat saw it; where it saw nothing (another seat's private counter), the
    value the sample's own replay gave: the sample never reads what the seat may not see."""
    if isinstance(seen, list):
        return [r if v is None else v for v, r in zip(seen, replayed, strict=True)]
    return replayed if seen is None else seen
