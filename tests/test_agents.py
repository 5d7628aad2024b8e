"""The agents: names with options, legal play in any ruleset, sampling what a seat cannot see,
and never reading the hidden cards of the real game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import interpreter
from conftest import EXAMPLES, RULESETS
from interpreter.agents import SeatView, make_agent, make_agents, split_agents
from interpreter.agents.base import seeded_random
from interpreter.agents.belief import Belief
from interpreter.engine.records import find_move, record
from interpreter.errors import RulesetError
from interpreter.simulation.one_game import game_seed, play_game


@pytest.fixture(scope="module")
def kedric() -> interpreter.Game:
    return interpreter.load(RULESETS / "poison-kedric-winks.rules")


def test_agent_names_take_options_after_a_colon_or_in_parentheses():
    assert split_agents("mcts(iterations=9,c=1),random") == ["mcts(iterations=9,c=1)", "random"]
    assert make_agent("mcts:40", 0, 1).iterations == 40
    agent = make_agent("mcts(time=0.5, c=1.2)", 0, 1)
    assert (agent.time, agent.c) == (0.5, 1.2)
    assert make_agent("greedy:3", 0, 1).samples == 3
    assert [a.name for a in make_agents("mcts:7,random", 3, 0)] == ["mcts(iterations=7)", "random", "random"]


@pytest.mark.parametrize("spec", ["wizard", "mcts(speed=3)", "mcts:lots", "random:3", "mcts(iterations=0)"])
def test_a_bad_agent_name_or_option_is_a_clear_error(spec):
    with pytest.raises(RulesetError) as err:
        make_agents(spec, 4, 0)
    assert "agent" in err.value.message


@pytest.mark.parametrize("spec", ["mcts(c=nan)", "mcts(time=inf)", "mcts(c=-inf)", "mcts(time=nan)"])
def test_an_option_that_is_not_a_finite_number_is_refused(spec):
    """nan compares false with every bound, so a search with it never ends or never explores: refused."""
    with pytest.raises(RulesetError, match="finite number"):
        make_agent(spec, 0, 0)


def test_an_agent_name_is_its_own_spec_so_records_name_agents_that_can_be_rebuilt():
    for spec in [
        "random",
        "greedy",
        "greedy:2",
        "mcts",
        "mcts:20",
        "mcts(time=0.25,depth=8)",
        "mcts(iterations=50,depth=0,samples=4)",
    ]:
        name = make_agent(spec, 0, 0).name
        assert make_agent(name, 0, 0).name == name


@pytest.mark.parametrize("rules", ["poison.rules", "poison-five-card.rules"])
def test_every_agent_plays_a_whole_game_legally(rules):
    game = interpreter.load(RULESETS / rules)
    state = play_game(game, 3, 5, "mcts(iterations=6,samples=3),greedy,random", {"rounds": "1"})
    assert state.is_over and len(state.totals) == 3


def test_agents_play_the_trick_taking_game_with_its_simultaneous_choice(kedric):
    state = play_game(kedric, 3, 2, "mcts(iterations=6,samples=3),greedy,random", {"hands": "2"})
    assert state.is_over


def _visible(obs):
    """The zones of an observation, each instance's cards as a sorted list (order within a hand aside)."""
    return {k: [v if isinstance(v, dict) else sorted(map(str, v)) for v in vs] for k, vs in obs["zones"].items()}


@pytest.mark.parametrize(
    ("rules", "players"), [("poison.rules", 4), ("poison.rules", 3), ("poison-kedric-winks.rules", 4)]
)
def test_a_sampled_state_looks_to_the_seat_exactly_like_the_real_one(rules, players):
    game = interpreter.load(RULESETS / rules)
    rng = random.Random(3)
    state = game.new_game(players, 11)
    checked = 0
    for step in range(60):
        seat = state.current_player
        obs = state.observe(seat)
        if step % 3 == 0:
            sample = Belief(game, obs, rng).sample()
            if sample is not None:
                got = sample.observe(seat)
                assert _visible(got) == _visible(obs)
                assert (got["current"], got["phase"], got["totals"], got["vars"]) == (
                    obs["current"],
                    obs["phase"],
                    obs["totals"],
                    obs["vars"],
                )
                checked += 1
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert checked >= 15


def test_a_sample_of_poison_knows_who_collected_what_since_the_seat_saw_it_in_the_cauldrons(poison):
    rng = random.Random(0)
    state = poison.new_game(4, 2)
    while not any(state.zones[i] for i in state.layout.instances[poison.zone_index["collected"]]):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    sample = Belief(poison, state.observe(state.current_player), rng).sample()
    kinds = poison.cards.kind
    for inst in state.layout.instances[poison.zone_index["collected"]]:
        assert sorted(kinds[c] for c in sample.zones[inst]) == sorted(kinds[c] for c in state.zones[inst])


def _hidden_places(game, deal, seat):
    """The places of a deal the seat does not see: (zone name, index or None), each holding cards."""
    out = []
    for spec in game.zones:
        content = deal.get(spec.name)
        if spec.visibility == "public" or spec.piles or not content:
            continue
        if isinstance(content[0], list):  # a zone of several instances: one list each
            out += [(spec.name, i) for i, cards in enumerate(content) if cards and not (spec.per_player and i == seat)]
        else:
            out.append((spec.name, None))
    return out


def _twin_with_other_hidden_cards(game, players, seed, steps):
    """A game after ``steps`` random moves, and a twin whose deal differs only in two cards the
    seat to move never saw, in two places it does not see (two other seats' hands, or a hand and
    a hidden pile such as the stock); both at the same point, with the seat to move."""
    rng = random.Random(seed)
    a = game.new_game(players, seed)
    for _ in range(steps):
        moves = a.legal_moves()
        a.apply(moves[rng.randrange(len(moves))])
    assert a.round == 0, "the twin replays the first round: take fewer steps"
    seat = a.current_player
    rec = record(a)
    kinds = game.cards.kind
    json = game.cards.json
    ids = {id(c): i for i, c in enumerate(json)}  # (a record's deal holds the card objects)
    places = _hidden_places(game, rec["rounds"][0]["deal"], seat)

    def cards_of(deal, place):
        name, i = place
        return deal[name] if i is None else deal[name][i]

    for n, px in enumerate(places):
        for py in places[n + 1 :]:
            deal0 = rec["rounds"][0]["deal"]
            pairs = [
                (i, j)
                for i, cx in enumerate(cards_of(deal0, px))
                for j, cy in enumerate(cards_of(deal0, py))
                if kinds[ids[id(cx)]] != kinds[ids[id(cy)]]
            ]
            for i, j in pairs:
                deal = record(a)["rounds"][0]["deal"]
                hx, hy = cards_of(deal, px), cards_of(deal, py)
                hx[i], hy[j] = hy[j], hx[i]
                b = game.new_game(players, seed, deals=[deal])
                for m in rec["rounds"][0]["moves"]:
                    move = find_move(b, m) if b.current_player == m["player"] else None
                    if move is None:
                        break  # this exchange would have changed what was played: try another
                    b.apply(move)
                else:
                    if a.observe(seat) == b.observe(seat):  # (else the seat saw one of them)
                        return a, b, seat
    raise AssertionError("no exchange of hidden cards keeps the moves legal")


@pytest.mark.parametrize("spec", ["greedy", "mcts(iterations=30,samples=4)"])
@pytest.mark.parametrize(
    ("rules", "players", "points"),
    [
        ("poison.rules", 4, [(1, 7), (2, 13)]),
        ("poison-kedric-winks.rules", 4, [(1, 7), (2, 13)]),  # two decks: the sampler's repairs
        # cards drawn from public discard piles into a hand: the sampler's final fix-ups
        ("classics/lost_cities.rules", 2, [(2, 20), (4, 16)]),
        # asks answered and hands shown to one seat: a sample swaps while an ask waits
        ("classics/love_letter.rules", 4, [(1, 3), (3, 5)]),
        # asks answered unseen: the replay's counts put right, what the answers told (facts.py)
        ("classics/go_fish.rules", 4, [(1, 9), (2, 15)]),
    ],
)
def test_an_agent_decides_the_same_whatever_the_cards_it_cannot_see(spec, rules, players, points):
    game = interpreter.load(RULESETS / rules if "/" not in rules else EXAMPLES / rules)
    for seed, steps in points:
        a, b, seat = _twin_with_other_hidden_cards(game, players, seed, steps)
        assert a.observe(seat) == b.observe(seat)
        assert [sorted(z) for z in a.zones] != [sorted(z) for z in b.zones]
        pick_a = make_agent(spec, seat, 9).choose(SeatView(a, seat))
        pick_b = make_agent(spec, seat, 9).choose(SeatView(b, seat))
        assert a.describe(pick_a) == b.describe(pick_b)


def test_the_random_agent_draws_as_random_choice_would() -> None:
    """Its inlined draw is Random.choice's: the same seed picks the same moves (records depend on it)."""
    from interpreter.agents.base import agent_rng
    from interpreter.agents.random_agent import RandomAgent

    class View:
        def __init__(self) -> None:
            self.legal_moves: list[int] = []

    agent, reference = RandomAgent(2, 7), agent_rng(7, 2, "random")
    view = View()
    lengths = [1, 2, 3, 5, 8, 9, 16, 17, 31, 64, 100] * 30
    picks = []
    for n in lengths:
        view.legal_moves = list(range(n))
        picks.append(agent.choose(view))
        assert picks[-1] == reference.choice(view.legal_moves)
    assert len(set(picks)) > 20  # it does choose, not always the first


def test_a_game_of_random_agents_plays_the_same_through_their_pick_as_through_their_views(kedric) -> None:
    """play_game hands agents that read only the legal moves those moves (``pick``), not a view:
    the game is the one ``choose`` on each seat's view plays, move for move."""
    for seed in (3, 11):
        fast = play_game(kedric, 4, seed)
        state, seats = kedric.new_game(4, seed), make_agents("random", 4, seed)
        while not state.over:
            state.apply(seats[state.current].choose(SeatView(state, state.current)))
        assert record(fast, ["random"] * 4) == record(state, ["random"] * 4)
        assert fast.totals == state.totals and sum(len(r["moves"]) for r in fast.history) > 100


def test_mcts_searches_every_iteration_asked_however_often_the_sampler_fails(monkeypatch):
    """A sample the sampler fails to find uses up no iteration: with the first 8 calls failing,
    mcts still plays its 10 playouts; with every call failing, it stops after a count of misses
    (one an iteration, never a time) and plays a legal move; a deadline still ends the tries."""
    from interpreter.agents import mcts

    game = interpreter.load(RULESETS / "poison.rules")
    state = game.new_game(3, 4)
    calls = {"n": 0, "fail": 8}

    class Flaky(Belief):
        def sample(self, attempts: int = 12):
            calls["n"] += 1
            return None if calls["n"] <= calls["fail"] else super().sample(attempts)

    monkeypatch.setattr(mcts, "Belief", Flaky)
    agent = make_agent("mcts(iterations=10,samples=2)", state.current, 1)
    assert agent.choose(SeatView(state, state.current)) in state.legal_moves()
    assert agent.playouts == 10
    calls.update(n=0, fail=10**9)
    agent = make_agent("mcts(iterations=10,samples=2)", state.current, 1)
    assert agent.choose(SeatView(state, state.current)) in state.legal_moves()
    assert agent.playouts == 0 and calls["n"] == 10
    calls.update(n=0)  # a server's budget for the move, already spent: one try, not the misses' count
    agent = make_agent("mcts(iterations=10,samples=2)", state.current, 1)
    assert agent.choose(SeatView(state, state.current, deadline=0.0)) in state.legal_moves()
    assert calls["n"] == 1


def test_mcts_decides_at_once_when_every_legal_move_is_a_copy_of_one(monkeypatch):
    """Two copies of one card in hand are one choice: mcts plays one without sampling a world or
    playing out anything; with two different cards it searches."""
    from conftest import TINY_RULES
    from interpreter.agents import mcts

    class Refused(Belief):
        def sample(self, attempts: int = 12):
            raise AssertionError("sampled a world for a decision with nothing to choose")

    copies = interpreter.loads(TINY_RULES.replace("red | blue   value 1 x2", "red   value 1 x4"))
    state = copies.new_game(2, 1)
    moves = state.legal_moves()
    assert len(moves) == 2 and moves[0].card != moves[1].card
    monkeypatch.setattr(mcts, "Belief", Refused)
    agent = make_agent("mcts:20", state.current, 1)
    assert agent.choose(SeatView(state, state.current)) in moves and agent.playouts == 0
    monkeypatch.undo()
    mixed = interpreter.loads(TINY_RULES)
    for seed in range(20):  # a deal of a red and a blue card to the first player
        state = mixed.new_game(2, seed)
        if len({mixed.cards.kind[m.card] for m in state.legal_moves()}) == 2:
            break
    agent = make_agent("mcts:20", state.current, 1)
    agent.choose(SeatView(state, state.current))
    assert agent.playouts == 20


def test_mcts_playouts_stop_after_depth_moves_unless_the_round_ends_within_reach(monkeypatch):
    """A long round (Lost Cities, some 280 moves) is scored as it stands after `depth` random moves
    of each playout (the first one goes on, unscored, to see whether the round ends within reach); a
    round that ends within reach (three moves left of a four-card game, depth 1) is played to its end
    by every playout."""
    from conftest import TINY_RULES
    from interpreter.agents import mcts

    runs: list[tuple[int, bool]] = []  # (moves played, the round ended) of each playout call

    def recorded(state, round_index, depth, randrange):
        before = state.moves_in_round
        played(state, round_index, depth, randrange)
        ended = state.over or state.round != round_index
        runs.append((state.moves_in_round - before if not ended else -1, ended))

    played = mcts._playout
    monkeypatch.setattr(mcts, "_playout", recorded)
    long = interpreter.load(EXAMPLES / "classics" / "lost_cities.rules").new_game(2, 3)
    make_agent("mcts(iterations=10,depth=4)", long.current, 1).choose(SeatView(long, long.current))
    assert runs[0] == (4, False) and runs[1] == (8, False)  # the first playout, then its look further
    assert runs[2:] == [(4, False)] * 9
    runs.clear()
    short = interpreter.loads(TINY_RULES).new_game(2, 0)
    make_agent("mcts(iterations=10,depth=1)", short.current, 1).choose(SeatView(short, short.current))
    assert len(runs) == 11 and all(ended for _, ended in runs[1:])  # (one move played, three left)


@given(text=st.text(max_size=40))
def test_a_seat_s_random_is_the_one_random_random_makes_of_its_text(text: str) -> None:
    """seeded_random seeds without random.py's frames: the same state, so the same numbers, for any
    text (every agent's and every game's seed comes from one)."""
    ours, theirs = seeded_random(text), random.Random(text)
    assert ours.getstate() == theirs.getstate()
    assert [ours.random(), ours.gauss(0, 1), ours.randrange(10**9)] == [
        theirs.random(),
        theirs.gauss(0, 1),
        theirs.randrange(10**9),
    ]


@given(run_seed=st.one_of(st.none(), st.integers(-(2**40), 2**40)), index=st.integers(0, 10**6))
def test_a_game_s_seed_is_drawn_as_randrange_draws_it(run_seed: int | None, index: int) -> None:
    assert game_seed(run_seed, index) == random.Random(f"{run_seed}/{index}").randrange(2**31)


@given(
    first=st.one_of(st.none(), st.integers(-(2**40), 2**40)),
    second=st.one_of(st.none(), st.integers(-(2**40), 2**40)),
    seat=st.integers(0, 7),
    draws=st.integers(0, 50),
)
def test_a_random_agent_seeded_again_draws_what_a_new_one_draws(
    first: int | None, second: int | None, seat: int, draws: int
) -> None:
    """A run keeps its random agents from game to game (one_game.Seats) and seeds them again: after
    any draws in one game, the agent picks what a new agent of the next game's seed picks."""
    kept = make_agent("random", seat, first)
    moves = list(range(1, 30))
    for _ in range(draws):
        kept.pick(moves[: 1 + draws % 29])
    kept.reseed(second)
    fresh = make_agent("random", seat, second)
    assert [kept.pick(moves[: n + 1]) for n in range(29)] == [fresh.pick(moves[: n + 1]) for n in range(29)]
    assert kept.rng.getstate() == fresh.rng.getstate()


@pytest.mark.parametrize("agents", [["random"] * 4, ["greedy:2", "random", "random", "random"]])
def test_a_run_s_kept_agents_play_the_games_new_agents_play(kedric: interpreter.Game, agents: list[str]) -> None:
    """Seats keeps agents that can be seeded again (random) and makes the others anew each game:
    every game of a run plays move for move as with agents made for that game alone."""
    from interpreter.simulation.one_game import Seats

    seats = Seats(4)
    for index in range(6):
        seed = game_seed(3, index)
        kept = play_game(kedric, 4, seed, agents, seats=seats)
        fresh = play_game(kedric, 4, seed, agents)
        assert record(kept, agents) == record(fresh, agents)
    assert list(seats.kept) == ([tuple(agents)] if agents[0] == "random" else [])
