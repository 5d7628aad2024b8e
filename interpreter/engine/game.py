"""The compiled rules of one game (immutable, shared by every State) and the IR -> Game compiler.

Why one module of about 710 lines: the Game's fields and ``compile_ir``, which fills each of them,
change together whenever the language gains a construct (the picks, the checks, the places, the
turn order, the plain turns and the deck's parameters each added a field and the line that computes
it); apart, every such change would touch two modules and a field could drift from the code that
sets it. What the compiler delegates lives beside it (cards, zones, expressions, moves, effects,
choices, card_sets, flow, scoring).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from ..errors import RUNTIME_FAILURES, ParameterError, PlayError, rule_failure
from ..language.ircheck import check_references, compile_error
from ..language.limits import default_max_moves, endless_round
from .card_sets import compile_set_choice
from .cards import CardTable, build_cards, derive_attributes
from .choices import compile_choice
from .coverage import RuleCounts
from .effects import Effect, compile_effects
from .events import compile_guard_knowledge
from .expr_analysis import Fn, Scope, binds_names, uses_env, zone_pure
from .expressions import ExprCompiler
from .moves import compile_generator
from .observe import CARD_TYPES
from .rule_fields import FlowFields, GameFields, MoveFields, PhaseFields, TriggerFields, fields_first
from .scoring import rule_runner
from .state_fields import StateFields
from .unseen import check_unseen_choices
from .zones import Layout, ZoneSpec, layout, zone_specs

# Every rule's env has these three slots first: who moves, the card moved, where it went.
PLAYER, CARD, TARGET = 0, 1, 2


@fields_first(MoveFields)
@dataclass(frozen=True)
class MoveRule:
    """A kind of move: a card from a zone of the mover to a zone, if the guards allow."""

    index: int
    name: str
    phase: int
    source: int  # zone index
    source_per_player: bool
    target: int
    target_per_player: bool
    generate: Any  # moves.Generator: gen(state, player, out); a choice's: gen(state, player, out, env=None)
    at: str
    choice: str | None = None  # not one card: its kind (pass, number, value, player, option, draw, cards)
    slot: int = -1  # ... the env slot of the value chosen
    then: Any = None  # an ask's block: the effects that run once the player has chosen
    count: Any = None  # a draw's number of cards (None: one), f(state, env)
    at_place: bool = False  # `card at place`: the player chooses a place of the zone, not a card it sees


@fields_first(TriggerFields)
@dataclass(frozen=True)
class TriggerRule:
    after: int  # move rule index
    condition: Fn | None
    effects: Effect
    at: str
    light: bool = False  # the condition binds no name: it reads player, card and target from a tuple


def _ENDED(state: Any, env: Any) -> bool:
    """The end of a phase without moves: it holds at once (its effects are the whole phase). Each
    time counts as a move toward the round's bound, so that a `repeat` of such phases whose `until`
    never holds stops as endless (limits.py) rather than hangs."""
    state.moves_in_round += 1
    if state.moves_in_round > state.game.max_moves_per_round:
        raise endless_round(state)
    return True


@fields_first(PhaseFields)
@dataclass(frozen=True)
class PhaseRule:
    name: str
    simultaneous: bool
    moves: tuple[MoveRule, ...]
    ends: Fn | None
    first_player: tuple[tuple[str, Fn, str], ...]  # (lowest|highest, key, number|card)
    at: str
    ends_env: bool = True  # whether `ends` reads or binds a name (else any env will do)
    ends_when_stuck: str | None = None  # `ends when nobody can move`: its position (for coverage)
    at_start: Effect | None = None  # the rules' own effects when the phase starts / ends
    at_end: Effect | None = None
    resolve: tuple[tuple[str, Fn, str], ...] = ()  # simultaneous: the order its moves take effect
    repeat_from: int = -1  # the last phase of a `repeat`: the first phase of it (else -1)
    until: Fn | None = None  # ... and the condition that stops repeating
    first_seat: Fn | None = None  # `first player is P`: who starts (else the dealer's left, or the keys)
    revealed: bool = False  # simultaneous, `revealed together`: all held moves shown as they take effect
    first_counts: bool = False  # rules counted and a first-player key may count one: each key read for every seat


@dataclass(frozen=True)
class DealRule:
    deck: int  # zone index of the deck's own zone
    zone: int
    amount: Fn | None
    one_at_a_time: bool
    as_players: Fn | None
    as_players_when: Fn | None
    rest: int | None
    at: str


@fields_first(FlowFields)
@dataclass(frozen=True)
class Flow:
    """A round's and a game's own effects and ends (None where the rules say nothing)."""

    round_start: Effect | None = None  # effects after the deal, before the first phase
    round_end: Effect | None = None  # effects after the last phase, before scoring
    round_ends: Fn | None = None  # the round ends early when this holds (checked before every turn)
    game_ends: Fn | None = None  # the game ends when this holds (checked after each round's scoring)
    all_win: Fn | None = None  # a cooperative game: everyone wins when this holds at the game's end
    at: dict[str, str] = field(default_factory=dict)  # what -> its rule's position


@dataclass(frozen=True)
class ScoreRule:
    each: Fn | None
    slot: int
    points: Fn
    condition: Fn | None
    negate: bool
    at: str
    run: Any = None  # scoring.rule_runner: f(state, env) -> the rule's points for env's player
    team: bool = False  # `each team: POINTS`: run once per team (its number in env[slot])


@dataclass(frozen=True)
class Check:
    """A line of the `checks` section: `always C`, `never C` or `sometimes C`, read in any state
    with no name bound (a `sometimes` is counted in coverage each time it holds)."""

    kind: str  # always | never | sometimes
    holds: Fn
    at: str
    node: dict[str, Any]  # the condition's IR (for its words)

    def broken(self, state: Any) -> bool:
        """Whether this state breaks an `always` (C does not hold) or a `never` (C holds)."""
        if self.kind == "sometimes":
            return False
        return self.held(state) != (self.kind == "always")

    def held(self, state: Any) -> bool:
        """Whether the condition holds in ``state`` (a rule failing in it names the check)."""
        try:
            return bool(self.holds(state, [None] * state.game.env_size))
        except RUNTIME_FAILURES as err:
            raise rule_failure(err, self.at, f"`{self.kind}` check", state.game.read_from_ir) from None


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: Fn


@fields_first(GameFields)
@dataclass(frozen=True, eq=False)
class Game:
    """Immutable rules: tables and closures. ``new_game`` makes a State to play them."""

    ir: dict[str, Any]
    name: str
    min_players: int
    max_players: int
    cards: CardTable
    zones: tuple[ZoneSpec, ...]
    zone_index: dict[str, int]
    params: tuple[Param, ...]
    schedules: tuple[tuple[str, tuple[Fn, ...], bool], ...]
    vars: tuple[tuple[str, bool, bool, Fn], ...]  # name, per player, per round, initial value
    deals: tuple[DealRule, ...]
    phases: tuple[PhaseRule, ...]
    moves: tuple[MoveRule, ...]
    triggers: tuple[tuple[TriggerRule, ...], ...]  # by move rule index
    score: tuple[ScoreRule, ...]
    rounds: Fn | None  # None: no cap (the game ends by `ends_when`)
    dealer_step: int
    winner_highest: bool
    env_size: int
    max_moves_per_round: int
    card_slots: frozenset[int] = frozenset()  # env slots that may hold cards (ExprCompiler.card_slots)
    card_vars: tuple[int, ...] = ()  # the variables (by index) that hold a card or cards
    coverage: RuleCounts | None = None  # rule position -> times it held (compile_ir(..., coverage=True))
    target_piles: tuple[bool, ...] = ()  # by move rule index: whether its target zone keeps piles
    flow: Flow = field(default_factory=lambda: Flow())
    extra: dict[str, Any] = field(default_factory=dict)
    checks: tuple[Check, ...] = ()  # the `checks` section: verify proves them; check and simulate assert them
    place_moves: bool = False  # whether some move chooses a card by its place (`card at place`): apply records it
    # by phase: whether a card move in it takes State.apply's short way (a phase played in turns, in a
    # game that asks nothing and has no set nor `card at place` move): computed here, so that a game
    # without those features reads none of their state on each move
    plain_turns: tuple[bool, ...] = ()
    score_memo: Any = None  # a search's memo of scoring by what the score rules read (verify/score_memo.py)

    def __repr__(self) -> str:
        """A line, not the tables: `<Game 'NAME', 3-6 players, from FILE.rules>`."""
        source = self.ir.get("source")
        return f"<Game {self.name!r}, {self.min_players}-{self.max_players} players" + (
            f", from {source}>" if source else ">"
        )

    @property
    def cooperative(self) -> bool:
        """Whether all players win or lose together (`everyone wins if CONDITION`)."""
        return self.flow.all_win is not None

    @property
    def read_from_ir(self) -> bool:
        """Whether the rules were read from IR written as data (a .json/.yaml file), which is
        schema-checked but not typed, rather than resolved from rules text."""
        path = (self.ir.get("origin") or {}).get("path", "")
        return path.endswith((".json", ".yaml", ".yml"))

    def layout(self, players: int) -> Layout:
        """Zone instances for this many players (cached)."""
        return _layout(self, players)

    def param_values(self, players: int, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
        """The parameters in force: defaults (which may use `players`), then overrides."""
        overrides = dict(overrides or {})
        unknown = [k for k in overrides if k not in {p.name for p in self.params}]
        if unknown:
            names = ", ".join(p.name for p in self.params) or "none"
            raise ParameterError(f"unknown parameter '{unknown[0]}'; this ruleset's parameters: {names}")
        values: dict[str, Any] = {}
        probe = _probe(players, values)
        for p in self.params:
            if p.name in overrides:
                values[p.name] = coerce(p, overrides[p.name])
            else:
                values[p.name] = p.default(probe, [None] * self.env_size)
        for name, laid in _deck_laid(self).items() if overrides else ():
            if name in overrides and values[name] != laid:  # (the deck was compiled for another value)
                raise ParameterError(
                    f"parameter '{name}' sets the deck, which was compiled with {name}={laid}",
                    hint="lay the deck out with the value first: deck_params.with_params(ir, values) "
                    "before compile_ir (every command does it for --set)",
                )
        return values

    def check_players(self, players: int) -> None:
        """Refuse a number of players the rules do not allow (a PlayError that names the range)."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise PlayError(f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}")

    def new_game(
        self,
        players: int,
        seed: int | None = 0,
        params: dict[str, Any] | None = None,
        deals: list[dict[str, Any]] | None = None,
        dealer: int = 0,
        shuffles: list[list[list[Any]]] | None = None,
        chance: random.Random | None = None,
        narrate: bool = False,
    ) -> Any:
        """A new game: ``players`` seats, all chance from ``random.Random(seed)``; ``deals`` lays out
        each round's deal as given (as a record does), and ``shuffles`` each round's `shuffle`
        effects' orders (each a list of card objects: events.recorded_shuffles); ``dealer`` is the
        first round's dealer (seat 0 unless said: a test may set up a position at any seat);
        ``chance``, a Random to shuffle with instead of ``Random(seed)`` (verify's, which
        chooses every order of a deck in turn);
        ``narrate``: the log also tells what the rules do to cards, for people to read (seat_log.py)."""
        from .state import State

        self.check_players(players)
        if not 0 <= dealer < players:
            raise PlayError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer}")
        return State(self, players, seed, self.param_values(players, params), deals, dealer, shuffles, chance, narrate)


@cache
def _deck_laid(game: Game) -> dict[str, int]:
    """The parameters the game's deck reads, with the values it was compiled with."""
    from ..language.deck_params import deck_params

    return deck_params(game.ir)


@cache
def _layout(game: Game, players: int) -> Layout:
    return layout(list(game.zones), players)


def _probe(players: int, params: dict[str, Any]) -> StateFields:
    """The little a parameter default may read: the number of players and earlier parameters (a
    state's fields, the rest unset: the compiled expressions take a state's type, nothing else)."""
    probe = StateFields()
    probe.n = players
    probe.params = params
    return probe


def coerce(param: Param, raw: Any) -> Any:
    """A ``--set`` value (text from the command line, or a value) as the parameter's type."""
    if param.type == "number":
        if isinstance(raw, bool):
            raise ParameterError(f"parameter {param.name} is a number, not {raw!r}")
        if isinstance(raw, int):
            return raw
        try:
            return int(str(raw).strip())
        except ValueError:
            raise ParameterError(f"parameter {param.name} is a whole number, not {raw!r}") from None
    if param.type == "bool":
        text = str(raw).strip().lower()
        if text in ("true", "yes", "1"):
            return True
        if text in ("false", "no", "0"):
            return False
        raise ParameterError(f"parameter {param.name} is true or false, not {raw!r}")
    return str(raw)


# ---- the compiler ---------------------------------------------------------------------------------


def compile_ir(
    ir: dict[str, Any], coverage: bool = False, max_moves: int | None = None, consults: bool = False
) -> Game:
    """Compile checked IR into a Game; IR that names what it does not declare is a SchemaError.
    ``consults`` (with ``coverage``) also counts how often each guard was consulted (`check`)."""
    check_references(ir)
    try:
        check_unseen_choices(ir)  # (a player chooses only among cards they see)
        return _compile_ir(ir, coverage, max_moves, consults)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as err:  # hand-written IR
        raise compile_error(err) from None


def _compile_ir(
    ir: dict[str, Any], coverage: bool = False, max_moves: int | None = None, consults: bool = False
) -> Game:
    """Compile checked IR into a Game: expressions to closures, decks to tables.

    ``max_moves`` bounds the moves of one round (default: the game's `max moves per round`, else
    derived from the deck, see limits.py);
    a round that goes past it stops with a PlayError naming the rule that loops.

    With ``coverage``, the Game counts in ``game.coverage`` (by rule position, "file:line:col")
    how often each guard held, each trigger fired, each scoring rule scored, each card
    condition was achieved and each phase ended; without it, no rule pays for counting.
    """
    cards, conditions = build_cards(ir)
    specs = zone_specs(ir)
    zone_index = {z.name: i for i, z in enumerate(specs)}
    var_index = {v["name"]: i for i, v in enumerate(ir["vars"])}
    define_index = {d["name"]: i for i, d in enumerate(ir["defines"])}
    cx = ExprCompiler(cards, zone_index, var_index, define_index)
    cx.teams = ir.get("teams")
    cx.public_vars = {v["name"] for v in ir["vars"] if v.get("visibility", "public") == "public"}
    cx.public_zones = {z.name for z in specs if z.visibility == "public"}
    cx.define_ir = {d["name"]: d for d in ir["defines"]}
    cx.attributes = ir["attributes"]
    cx.asks = []  # the asks of effects, numbered after the phases' moves (see choice_rule)
    counts: RuleCounts | None = RuleCounts() if coverage else None
    cx.coverage = counts
    cx.consults = counts if consults else None
    base = cx.scope("player", "card", "target")  # slots 0, 1, 2
    cx.card_slots.add(base.slots["card"])
    cx.public_slots.update((base.slots["player"], base.slots["target"]))  # the mover, where a card went
    cards = cx.cards = derive_attributes(cx, ir, cards)

    def expr(node: dict[str, Any] | None, scope=base) -> Fn | None:
        return None if node is None else cx.compile(node, scope)

    cx.zone_pure = {i for i, d in enumerate(ir["defines"]) if d.get("of") and zone_pure(d["body"])}
    cx.define_fns.extend(
        cx.define(d["body"], d["of"] is not None, tuple(p["name"] for p in d.get("params", ()))) for d in ir["defines"]
    )
    for c in conditions:
        fn, card_slot, player_slot = cx.condition(c)
        cx.condition_fns.append((cx.counted(fn, c.get("at")), card_slot, player_slot))
    params = tuple(Param(p["name"], p["type"], expr(p["default"])) for p in ir["params"])
    schedules = tuple((s["name"], tuple(expr(v) for v in s["values"]), s["repeated"]) for s in ir["schedules"])
    variables = tuple((v["name"], v["per_player"], v["per_round"], expr(v["init"])) for v in ir["vars"])
    deals = _compile_deals(ir, zone_index, expr)
    phases, moves, triggers = _compile_phases(ir, cx, base, specs, expr)
    score = _compile_score(ir, cx, base, expr)
    game = ir["game"]
    flow = _compile_flow(ir, cx, base, expr)
    checks = tuple(
        Check(
            c["kind"],
            cx.counted(expr(c["if"]), c.get("at")) if c["kind"] == "sometimes" else expr(c["if"]),
            c.get("at", ""),
            c["if"],
        )
        for c in ir.get("checks", ())
    )
    card_moves = [m for ph in ir["round"]["phases"] for m in ph["moves"]]  # (numbered as `moves`)
    guard_known = {  # rule -> what its guards tell every seat of the card played (a narrating state's)
        i: known
        for i, m in enumerate(card_moves)
        if "choice" not in m and (known := compile_guard_knowledge(cx, m["guards"], base))
    }
    rare = bool(cx.asks) or any(m.at_place or m.choice == "cards" for m in moves)  # (see Game.plain_turns)
    for ask in cx.asks:  # the asks' choices (in triggers, then in round and phase effects), after every move
        ask.cell[0] = len(moves)
        moves.append(
            MoveRule(len(moves), ask.name, -1, -1, False, -1, False, ask.generate, ask.at, ask.kind, ask.slot, ask.then)
        )
        triggers.append([])
    return Game(
        ir=ir,
        name=ir["name"],
        min_players=ir["players"]["min"],
        max_players=ir["players"]["max"],
        cards=cards,
        zones=tuple(specs),
        zone_index=zone_index,
        params=params,
        schedules=schedules,
        vars=variables,
        deals=deals,
        phases=tuple(phases),
        moves=tuple(moves),
        triggers=tuple(tuple(t) for t in triggers),
        score=tuple(score),
        rounds=expr(game.get("rounds")),
        dealer_step={"clockwise": 1, "counterclockwise": -1, "stays": 0}[game.get("dealer", "clockwise")],
        winner_highest=game["winner"] == "highest",
        env_size=cx.env_size,
        card_slots=frozenset(cx.card_slots),
        card_vars=tuple(i for i, spec in enumerate(ir["vars"]) if spec["type"] in CARD_TYPES),
        max_moves_per_round=max_moves or game.get("max_moves_per_round") or default_max_moves(len(cards)),
        coverage=counts,
        target_piles=tuple(m.choice is None and specs[m.target].piles for m in moves),
        flow=flow,
        checks=checks,
        place_moves=any(m.at_place for m in moves),
        plain_turns=tuple(not ph.simultaneous and not rare for ph in phases),
        # name -> (zone it is of, or None; f(state, zone instance)): for showing derived values
        extra={
            "defines": {
                d["name"]: (d["of"], cx.define_fns[i])
                for i, d in enumerate(ir["defines"])
                if not d.get("params") and d["of"] != "card"
            },
            "guard_known": guard_known,
        },
    )


Compile = Callable[..., Any]  # expr(node, scope=base): the closure of a node (None for no node)


def _compile_deals(ir: dict[str, Any], zone_index: dict[str, int], expr: Compile) -> tuple[DealRule, ...]:
    """The deals of a round, in order."""
    deck_zone = {d["name"]: zone_index[d["name"]] for d in ir["decks"]}
    return tuple(
        DealRule(
            deck=deck_zone[d["deck"]],
            zone=zone_index[d["to"]],
            amount=expr(d.get("amount")),
            one_at_a_time=d["one_at_a_time"],
            as_players=expr(d.get("as_players")),
            as_players_when=expr(d.get("as_players_when")),
            rest=zone_index[d["rest"]] if d.get("rest") else None,
            at=d.get("at", ""),
        )
        for d in ir["round"]["deals"]
    )


def _compile_phases(
    ir: dict[str, Any], cx: ExprCompiler, base: Scope, specs: list[ZoneSpec], expr: Compile
) -> tuple[list[PhaseRule], list[MoveRule], list[list[TriggerRule]]]:
    """The phases of a round, with their moves (numbered across phases) and each move's triggers."""
    phases: list[PhaseRule] = []
    moves: list[MoveRule] = []
    triggers: list[list[TriggerRule]] = []
    for pi, ph in enumerate(ir["round"]["phases"]):
        scopes: dict[str, Scope] = {}  # a choice's name -> the scope of its triggers (the value bound)
        phase_moves = []
        for i, m in enumerate(ph["moves"]):
            if "choice" in m:
                rule, scopes[m["name"]] = choice_rule(cx, m, pi, len(moves) + i, base, specs)
            else:
                rule = _move_rule(cx, m, pi, len(moves) + i, base, specs)
            phase_moves.append(rule)
        for rule in phase_moves:
            moves.append(rule)
            triggers.append([])
        by_name = {m.name: m.index for m in phase_moves}
        for t in ph["triggers"]:
            after = [t["after"]] if isinstance(t["after"], str) else t["after"]  # one trigger, several moves
            # after one move, what it binds; after several, what they all bind: player, card, target
            scope = scopes.get(after[0], base) if len(after) == 1 else base
            rule = _trigger_rule(cx, t, by_name[after[0]], scope, expr)
            for name in after:
                triggers[by_name[name]].append(replace(rule, after=by_name[name]))
        first = ph.get("first_player")
        first_counts = bool(first) and cx.coverage is not None and cx.may_count([k["key"] for k in first["keys"]])
        resolve = ph.get("resolve")
        stuck = "ends_when_nobody_can_move" in ph
        ends = cx.counted(expr(ph["ends"]["when"]), ph["ends"].get("at")) if ph.get("ends") else None
        if not phase_moves:  # a phase of effects only ends as soon as its effects at start have run
            ends = _ENDED
        phases.append(
            PhaseRule(
                name=ph["name"],
                simultaneous=ph["simultaneous"],
                revealed=ph.get("revealed", False),
                moves=tuple(phase_moves),
                ends=ends,
                first_player=tuple((k["extreme"], expr(k["key"]), k["type"]) for k in first["keys"]) if first else (),
                at=ph.get("at", ""),
                ends_env=bool(ph.get("ends")) and uses_env(ph["ends"]["when"]),
                ends_when_stuck=(ph["ends_when_nobody_can_move"].get("at", "") if stuck else None),
                at_start=_timed(cx, ph.get("at_start"), base),
                at_end=_timed(cx, ph.get("at_end"), base),
                resolve=tuple((k["extreme"], expr(k["key"]), k["type"]) for k in resolve["keys"]) if resolve else (),
                first_seat=expr(first.get("seat")) if first else None,
                first_counts=first_counts,
            )
        )
    phase_index = {ph.name: i for i, ph in enumerate(phases)}
    for loop in ir["round"].get("repeats", ()):  # the last phase of each `repeat` knows where it goes back to
        last = phase_index[loop["last"]]
        until = cx.counted(expr(loop["until"]), loop.get("at"))
        phases[last] = replace(phases[last], repeat_from=phase_index[loop["first"]], until=until)
    return phases, moves, triggers


def _move_rule(
    cx: ExprCompiler, m: dict[str, Any], phase: int, index: int, base: Scope, specs: list[ZoneSpec]
) -> MoveRule:
    """One move rule, its guards compiled into a generator of legal moves (moves.py)."""
    zone_index = cx.zone_index
    source = (zone_index[m["from"]], specs[zone_index[m["from"]]].per_player)
    target = (zone_index[m["to"]], specs[zone_index[m["to"]]].per_player)
    return MoveRule(
        index=index,
        name=m["name"],
        phase=phase,
        source=source[0],
        source_per_player=source[1],
        target=target[0],
        target_per_player=target[1],
        generate=compile_generator(cx, m["guards"], base, index, source, target),
        at=m.get("at", ""),
        at_place=m.get("at_place", False),
    )


def choice_rule(
    cx: ExprCompiler, m: dict[str, Any], phase: int, index: int, base: Scope, specs: list[ZoneSpec]
) -> tuple[MoveRule, Scope]:
    """A move that chooses no card (choices.py), and the scope of its guards and triggers: its
    name bound to the value chosen."""
    scope, slot = base.bind(m["name"])
    choice = m["choice"]
    if choice["kind"] == "cards":  # several cards at once (card_sets.py)
        source = (cx.zone_index[choice["from"]], specs[cx.zone_index[choice["from"]]].per_player)
        target = (cx.zone_index[choice["to"]], specs[cx.zone_index[choice["to"]]].per_player)
        generate = compile_set_choice(cx, m, scope, slot, index, source, target)
        cx.card_slots.add(slot)  # (the cards chosen, a tuple)
        rule = MoveRule(index, m["name"], phase, *source, *target, generate, m.get("at", ""), "cards", slot)
        return rule, scope
    generate = compile_choice(cx, m, scope, slot, cx.attributes, lambda: index)
    if choice["kind"] != "draw":  # a value, a number, a player, an option: every seat sees the choice
        cx.public_slots.add(slot)
    target, per_player, count = -1, False, None
    if choice["kind"] == "draw":  # where the cards drawn go, and how many
        target = cx.zone_index[choice["to"]]
        per_player = specs[target].per_player
        count = cx.compile(choice["count"], base) if "count" in choice else None
    rule = MoveRule(
        index, m["name"], phase, -1, False, target, per_player, generate, m.get("at", ""), choice["kind"], slot
    )
    return replace(rule, count=count), scope


def _trigger_rule(cx: ExprCompiler, t: dict[str, Any], after: int, base: Scope, expr: Compile) -> TriggerRule:
    """One trigger: its condition, and its effects (counted when they run, see _counted_effects)."""
    scope = type(base)(base.slots, base.counter)
    return TriggerRule(
        after,
        cx.counted(expr(t["if"], base), t.get("at")) if t.get("if") else None,  # (a choice: its name bound)
        _counted_effects(cx, compile_effects(cx, t["effects"], scope), t.get("if"), t.get("at")),
        t.get("at", ""),
        bool(t.get("if")) and not binds_names(t["if"]) and len(base.slots) == 3,  # (a choice's value: not light)
    )


def _compile_score(ir: dict[str, Any], cx: ExprCompiler, base: Scope, expr: Compile) -> list[ScoreRule]:
    """The scoring rules of a round, each with the runner that scores it (scoring.py)."""
    score = []
    for r in ir["round"]["score"]:
        scope, slot = base, -1
        if r.get("team"):  # each team: POINTS
            scope, slot = base.bind("team")
        elif r.get("each") is not None:
            name = "pile" if r["each"]["op"] == "piles" or _yields_piles(r["each"]) else "card"
            scope, slot = base.bind(name)
        condition, negate = None, False
        if r.get("if") is not None:
            condition = expr(r["if"], scope)
        elif r.get("unless") is not None:
            condition, negate = expr(r["unless"], scope), True
        points = cx.counted(expr(r["points"], scope), r.get("at"))
        rule = ScoreRule(
            expr(r.get("each")), slot, points, condition, negate, r.get("at", ""), team=bool(r.get("team"))
        )
        source = cx.zone_source(r["each"], base) if r.get("each") is not None else None
        score.append(replace(rule, run=rule_runner(rule, source and (*source, cx.cards.type_index))))
    return score


def _compile_flow(ir: dict[str, Any], cx: ExprCompiler, base: Scope, expr: Compile) -> Flow:
    """A round's own effects and early end, and the game's end condition."""
    game, rnd = ir["game"], ir["round"]
    return Flow(
        round_start=_timed(cx, rnd.get("at_start"), base),
        round_end=_timed(cx, rnd.get("at_end"), base),
        round_ends=cx.counted(expr(rnd["ends"]["when"]), rnd["ends"].get("at")) if rnd.get("ends") else None,
        game_ends=cx.counted(expr(game["ends"]["when"]), game["ends"].get("at")) if game.get("ends") else None,
        all_win=cx.counted(expr(game["all_win"]["if"]), game["all_win"].get("at")) if game.get("all_win") else None,
        at={
            what: node.get("at", "")
            for what, node in (
                ("round_start", rnd.get("at_start")),
                ("round_end", rnd.get("at_end")),
                ("round_ends", rnd.get("ends")),
                ("game_ends", game.get("ends")),
                ("all_win", game.get("all_win")),
            )
            if node
        },
    )


def _counted_effects(cx: ExprCompiler, effects: Effect, condition: Any, at: str | None) -> Effect:
    """A trigger without a condition counts when its effects run (see coverage.RuleCounts)."""
    coverage = cx.coverage
    if coverage is None or condition is not None or not at:
        return effects
    counts, touched, i = coverage.counts, coverage.touched, coverage.slot(at)

    def run(s, e):
        n = counts[i]
        if not n:
            touched.append(i)
        counts[i] = n + 1
        effects(s, e)

    return run


WIN_TOGETHER = "cooperative win"  # `everyone wins if`: read once a game, when it ends
STUCK_END = "phase end when nobody can move"  # consulted only when nobody can move: a safety net, never "dead"


def flow_rules(ir: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """The flow rules that coverage counts, with what each is: effects at the start or end of a
    phase or round (counted when they run), a phase's end when nobody can move, a `repeat`'s
    `until`, a round's and the game's `ends when` (counted when they hold)."""
    rnd, out = ir["round"], []
    for ph in rnd["phases"]:
        for key, kind in (
            ("at_start", "phase's start"),
            ("at_end", "phase's end"),
            ("ends_when_nobody_can_move", STUCK_END),
        ):
            if ph.get(key):
                out.append((ph[key], kind))
    for key, kind in (("at_start", "round's start"), ("at_end", "round's end")):
        if rnd.get(key):
            out.append((rnd[key], kind))
    out += [(loop, "repeat's until") for loop in rnd.get("repeats", ())]
    if rnd.get("ends"):
        out.append((rnd["ends"], "round end"))
    if ir["game"].get("ends"):
        out.append((ir["game"]["ends"], "game end"))
    if ir["game"].get("all_win"):
        out.append((ir["game"]["all_win"], WIN_TOGETHER))
    return out


def _timed(cx: ExprCompiler, node: dict[str, Any] | None, base: Any) -> Effect | None:
    """The effects of an `at start` / `at end` (counted as a trigger without condition), or None."""
    if not node:
        return None
    effects = compile_effects(cx, node["effects"], type(base)(base.slots, base.counter))
    return _counted_effects(cx, effects, None, node.get("at"))


def _yields_piles(node: dict[str, Any]) -> bool:
    while node["op"] in ("filter", "except"):
        node = node["of"]
    return node["op"] == "piles"


def seeded(seed: int | None, *salt: Any) -> random.Random:
    """A Random for one purpose, derived from a run's seed (never the module-level one)."""
    return random.Random(":".join(str(x) for x in (seed, *salt)))
