"""Several cards in one choice (`move NAME N[..M] cards [of one ATTR] from ZONE to ZONE`): the sets
offered in concrete situations (exactly N, of one rank, alike cards once, a size read in play,
guards over the set and the target), what the move does (every card moves, played by the mover,
its triggers once), records and replay (a forged set refused at its position), what other seats
see, cards never made or lost, and each misuse as a positioned error."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import example, given, reject, settings
from hypothesis import strategies as st

import interpreter
from interpreter.engine.records import dumps, parse_line, record, replay
from interpreter.errors import PlayError, RecordError, RulesetError
from interpreter.simulation.simulate import simulate

RULES = """game "Sets"
players 2..3

cards
  card  color red | blue   rank 1..3 x2

zones
  hand    per player, owner sees
  pile    shared, public
  box     2, public
  secret  per player, hidden

var need per round = 2
var laid per round = 0

round
  deal 4 to hand, one at a time
  phase play
    move pair (need) cards from hand to pile
      require distinct of color in pair = 1 when need = 3
    move run 1..3 cards of one rank from hand to box
      require count target = 0 or max of rank in run > max of rank in target
    move hide 2 cards from hand to secret
      require laid > 0
    after pair
      add 1 to laid
      add count pair to need
    ends when nobody can move
  score
    count pile where player of it = player

game
  rounds 1
  winner highest total
"""


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.loads(RULES, "sets.rules")


def card(color: str, rank: int) -> dict:
    return {"type": "card", "color": color, "rank": rank}


def dealt(game, hands: list[list[tuple[str, int]]]):
    """A game whose hands are these (the other cards in the deck). Seat 0 deals: seat 1 moves first."""
    rest = [card(c, r) for c in ("red", "blue") for r in (1, 2, 3) for _ in range(2)]
    for h in hands:
        for x in h:
            rest.remove(card(*x))
    deal = {"hand": [[card(*x) for x in h] for h in hands], "deck": rest}
    return game.new_game(len(hands), 0, deals=[deal])


def offered(state, move: str) -> list:
    """The sets of ``move`` offered to the player to move: (cards as (color, rank), target index)."""
    out = []
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] == move:
            out.append(([(x["color"], x["rank"]) for x in d["cards"]], d["to"]["index"]))
    return out


def test_exactly_n_cards_and_alike_cards_make_one_choice(game):
    state = dealt(game, [[("blue", 3)], [("red", 1), ("red", 1), ("blue", 1), ("red", 2)]])
    pairs = [cards for cards, _ in offered(state, "pair")]
    # six pairs of four cards, but the two red 1s are alike: four distinct choices, in the hand's order
    assert pairs == [
        [("red", 1), ("red", 1)],
        [("red", 1), ("blue", 1)],
        [("red", 1), ("red", 2)],
        [("blue", 1), ("red", 2)],
    ]


def test_of_one_rank_offers_only_sets_of_one_rank_to_each_target(game):
    state = dealt(game, [[("blue", 3)], [("red", 1), ("red", 1), ("blue", 1), ("red", 2)]])
    runs = offered(state, "run")
    assert [cards for cards, to in runs if to == 0] == [
        [("red", 1)],
        [("blue", 1)],
        [("red", 1), ("red", 1)],
        [("red", 1), ("blue", 1)],
        [("red", 1), ("red", 1), ("blue", 1)],
        [("red", 2)],
    ]
    assert [to for _, to in runs] == [0, 1] * 6  # each set to each of the two boxes


def test_a_set_that_does_not_beat_the_target_is_not_offered(game):
    state = dealt(game, [[("blue", 3), ("red", 1)], [("red", 1), ("blue", 2), ("red", 2), ("red", 3)]])
    play(state, "run", [("red", 2), ("blue", 2)], to=0)
    play(state, "run", [("red", 1)], to=1)  # seat 0
    assert state.current_player == 1
    # box 0 holds two 2s, box 1 a 1: a 3 beats either, a 1 neither
    assert offered(state, "run") == [([("red", 3)], 0), ([("red", 3)], 1)]


def test_the_size_is_read_when_the_player_is_to_move_and_guards_read_the_set(game):
    hands = [[("blue", 3), ("blue", 2), ("blue", 1)], [("red", 1), ("red", 2), ("red", 3), ("blue", 1)]]
    state = dealt(game, hands)
    play(state, "pair", [("red", 1), ("red", 2)])  # need becomes 2 + 2 = 4: seat 0 holds 3 cards
    assert offered(state, "pair") == []
    state = dealt(game, hands)
    state.vars[0] = 3  # need 3: three cards, of one color (the guard over the set)
    state._legal = None
    assert [c for c, _ in offered(state, "pair")] == [[("red", 1), ("red", 2), ("red", 3)]]


def test_every_card_moves_played_by_the_mover_and_the_trigger_runs_once(game):
    state = dealt(game, [[("blue", 3)], [("red", 1), ("red", 2), ("blue", 2)]])
    play(state, "pair", [("red", 1), ("blue", 2)])
    pile = state.zones[state.layout.base[state.game.zone_index["pile"]]]
    assert sorted((state.game.cards.json[c]["color"], state.game.cards.json[c]["rank"]) for c in pile) == [
        ("blue", 2),
        ("red", 1),
    ]
    assert all(state.played_by[c] == 1 for c in pile)
    assert state.vars[1] == 1 and state.vars[0] == 4  # laid once; need + count pair


def play(state, move: str, cards: list[tuple[str, int]], to: int | None = None) -> None:
    for m in state.legal_moves():
        d = state.describe(m)
        got = sorted((x["color"], x["rank"]) for x in d.get("cards", []))
        if d["move"] == move and got == sorted(cards) and (to is None or d["to"]["index"] == to):
            state.apply(m)
            return
    raise AssertionError(f"{move} {cards} is not offered")


def test_records_write_sets_and_replay_refuses_a_forged_one_at_its_position(game):
    state = game.new_game(3, 4)
    rng = random.Random(4)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    line = dumps(record(state))
    rec = parse_line(line, 1)  # the record schema admits sets
    replay(game, rec)
    moves = rec["rounds"][0]["moves"]
    k = next(i for i, m in enumerate(moves) if "cards" in m)
    assert set(moves[k]) == {"player", "move", "cards", "to"} and len(moves[k]["cards"]) >= 1
    forged = json.loads(line)
    forged["rounds"][0]["moves"][k]["cards"][0] = card("blue", 9)  # a card nobody holds
    with pytest.raises(RecordError, match=rf"round 1, move {k + 1}: the rules do not allow this move"):
        replay(game, forged)
    forged = json.loads(line)
    forged["rounds"][0]["moves"][k]["cards"].reverse()  # the same set in another order: the same move
    replay(game, forged)


def test_a_set_to_a_hidden_zone_shows_its_cards_to_the_mover_only(game):
    state = dealt(game, [[("blue", 3)], [("red", 1), ("red", 2), ("blue", 2), ("blue", 1)]])
    play(state, "pair", [("red", 1), ("red", 2)])
    state.apply(state.legal_moves()[0])  # seat 0
    play(state, "hide", [("blue", 2), ("blue", 1)])
    mine, theirs = state.observe(1)["moves"][-1], state.observe(0)["moves"][-1]
    assert mine["move"] == "hide" and None not in mine["cards"]
    assert theirs["cards"] == [None, None] and theirs["to"] == mine["to"]


SIMULTANEOUS = """game "Pass three"
players 3..3

cards
  card  rank 1..12

zones
  hand     per player, owner sees
  passing  per player, hidden

round
  deal all to hand
  phase pass_on, simultaneous
    move pass_on 3 cards from hand to passing
    at end
      for each player
        move passing of player to hand of left of player
  score
    sum of rank in hand of player

game
  rounds 1
  winner highest total
"""


def test_a_simultaneous_set_stays_hidden_until_everyone_has_chosen():
    game = interpreter.loads(SIMULTANEOUS, "pass.rules")
    state = game.new_game(3, 1)
    assert len(state.legal_moves()) == 4  # C(4, 3): four distinct sets of three
    first = state.current_player
    state.apply(state.legal_moves()[0])
    hand = state.layout.base[game.zone_index["hand"]] + first
    assert len(state.zones[hand]) == 4  # chosen, not yet made
    assert all(m["player"] != first for m in state.observe((first + 1) % 3)["moves"])
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert all(len(state.zones[state.layout.base[game.zone_index["hand"]] + p]) == 4 for p in range(3))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 3))
def test_set_moves_never_make_or_lose_a_card(game, seed, players):
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    everyone = list(range(len(game.cards)))
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        held = sorted(c for inst in range(state.layout.size) for c in state.zone_cards(inst))
        assert held == everyone
        assert all(state.zones[state.loc[c]].count(c) == 1 for c in everyone)


def test_every_agent_plays_sets():
    game = interpreter.loads(RULES, "sets.rules")
    for agent in ("random", "greedy", "mcts:10"):
        assert simulate(game, 3, 1, seed=2, agents=[agent] * 3)["games"] == 1


@pytest.mark.parametrize(
    "old, new, at, words",
    [
        ("(need) cards", "0 cards", "0 cards", "at least 1 card, not 0"),
        ("1..3 cards", "3..1 cards", "3..1 cards", "upside down (3..1)"),
        ("of one rank", "of one size", "size", "no card has an attribute 'size'"),
        ("1..3 cards of one rank", "1 card of one rank", "rank", "one card is always of one rank"),
        ("require laid > 0", "require rank of card > 0", "card > 0", "no one `card` here, `hide` is the set"),
        ("  box     2, public", "  box     2, public, piles", "    move run 1..3", "not of piles"),
    ],
)
def test_misused_sets_are_positioned_errors(old, new, at, words):
    """Each error points at the misuse (line and column) with words that say what is wrong."""
    assert old in RULES
    text = RULES.replace(old, new, 1)
    if "piles" in new:  # a set from a zone of piles
        text = text.replace("from hand to box", "from box to hand")
    with pytest.raises(RulesetError) as err:
        interpreter.loads(text, "sets.rules")
    line = text.splitlines()[err.value.span.line - 1]
    assert line[err.value.span.col - 1 :].startswith(at.strip()), (line, err.value.span)
    assert words in err.value.message, err.value.message


def test_check_follows_set_guards_and_triggers_in_its_playouts(tmp_path):
    """A set's guard that never holds and a trigger (reading the set) that never fires are reported
    at their lines; a trigger's condition reads the set by the move's name."""
    from interpreter.checker import check

    text = RULES.replace(
        "    move pair (need) cards from hand to pile\n",
        "    move pair (need) cards from hand to pile\n      allow count pair = 9\n      allow count pair < 9\n",
    ).replace("    after pair\n", "    after pair if count pair > 5\n      add 1 to laid\n    after pair\n")
    path = tmp_path / "sets.rules"
    path.write_text(text)
    report = check(str(path), games=20, seed=1)
    lines = text.splitlines()
    dead = sorted((f.at.line, lines[f.at.line - 1].strip()) for f in report.findings if f.severity == "warning")
    dead = [text for _, text in dead]
    assert dead == ["allow count pair = 9", "after pair if count pair > 5"]
    assert not [f for f in report.findings if f.severity == "error"]


def test_swapping_two_cards_follows_them_inside_a_chosen_set():
    """A search agent's sample trades hidden cards' places (State.swap_cards): a set chosen but not
    yet revealed, and the round's moves, then name the card that took the other's place."""
    game = interpreter.loads(SIMULTANEOUS, "pass.rules")
    state = game.new_game(3, 1)
    first = state.current_player
    state.apply(state.legal_moves()[0])
    ((_, pending),) = state.pending
    inside = pending.target.cards[0]
    elsewhere = state.zones[state.layout.base[game.zone_index["hand"]] + (first + 1) % 3][0]
    state.swap_cards(inside, elsewhere)
    ((_, now),) = state.pending
    assert elsewhere in now.target.cards and inside not in now.target.cards
    assert state.history[-1]["moves"][-1][1] == now


BIG = """game "Many sets"
players 2..2

cards
  card  suit a | b | c | d   rank 1..17

zones
  hand  per player, owner sees
  pile  shared, public

var shift = 1

round
  deal 34 to hand
  phase play
    move put 1..4 cards from hand to pile
      require shift > 0
    ends when some player where hand of it is empty
  score
    count pile where player of it = player

game
  rounds 1
  winner highest total
"""


def test_a_hand_of_34_cards_chooses_1_to_4_of_them_card_by_card():
    """52,955 sets are too many to list: the player picks the cards one at a time (each pick a
    move), then plays the set picked; only the set is recorded, and replays."""
    from interpreter.engine.card_sets import Pick

    game = interpreter.loads(BIG, "big.rules")
    state = game.new_game(2, 1)
    p = state.current_player
    first = state.legal_moves()
    assert len(first) == 34 and all(type(m.target) is Pick for m in first)  # a first card: any of the 34
    state.apply(first[5])
    assert state.current_player == p and state.observe(p)["picking"]["cards"] == [state.describe(first[5])["pick"]]
    assert "picking" not in state.observe(1 - p)  # the other seat sees nothing of it
    now = state.legal_moves()
    assert state.describe(now[0])["cards"] == [state.describe(first[5])["pick"]]  # done: the set of one
    assert all(type(m.target) is Pick for m in now[1:]) and len(now) == 1 + 28  # or a card after it in the hand
    rng = random.Random(4)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    rec = record(state)
    sets = [m for r in rec["rounds"] for m in r["moves"]]
    assert all("cards" in m and 1 <= len(m["cards"]) <= 4 for m in sets) and "pick" not in json.dumps(rec)
    assert replay(game, rec).scores() == state.scores()


def test_a_guard_that_reads_neither_the_set_nor_the_target_is_tested_once_per_listing():
    """`require shift > 0` is asked once when a player's 286 sets of 3 (of 13 cards) are listed."""
    from interpreter.engine.expressions import consult_key
    from interpreter.engine.game import compile_ir
    from interpreter.loader import ir_from_text

    text = BIG.replace("deal 34 to hand", "deal 13 to hand").replace("1..4 cards", "3 cards")
    game = compile_ir(ir_from_text(text, "big.rules"), coverage=True, consults=True)
    state = game.new_game(2, 1)
    game.coverage.clear()
    state._legal = None
    assert len(state.legal_moves()) == 286
    guard = next(key for key in game.coverage if key.endswith(" asked"))
    assert game.coverage[guard] == 1 and guard == consult_key(guard.removesuffix(" asked"))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3))
@example(4659, 3)  # (a deal where nobody can move: once an error of the test's own game)
def test_sets_picked_card_by_card_are_the_sets_listed_at_once(seed, low):
    """Picking card by card reaches exactly the sets a listing at once offers (of a hand small
    enough to list), each one way only: the same choices, whichever way they are made."""
    from test_card_sets_picks import finished_sets, picking_above

    text = BIG.replace("deal 34 to hand", "deal 7 to hand").replace("1..4 cards", f"{low}..4 cards")
    text = text.replace("require shift > 0", "require sum of rank in put <= 20")
    game = interpreter.loads(text, "big.rules")
    try:
        state = game.new_game(2, seed)
    except PlayError as err:  # a hand whose `low` smallest ranks sum above 20: nobody can move, rightly
        assert "nobody can move" in err.message
        reject()
    at_once = sorted(tuple(m.target.cards) for m in state.legal_moves())
    with picking_above(0):
        state._legal = None
        found = finished_sets(state, lambda s, m: tuple(m.target.cards))
    assert sorted(found) == at_once


@pytest.mark.parametrize("agent", ["greedy", "mcts:3"])
def test_search_agents_pick_sets_card_by_card(agent):
    """A greedy or search seat (which samples what it does not see, then replays the round) plays
    a game of sets chosen card by card to its end."""
    game = interpreter.loads(BIG.replace("deal 34 to hand", "deal 16 to hand"), "big.rules")
    assert simulate(game, 2, 1, seed=3, agents=[agent, "random"])["games"] == 1


def test_a_sampled_state_carries_the_cards_picked_so_far():
    """The belief sampler replays the round from what the seat saw, then picks again the cards the
    seat has picked towards its set: the sampled state offers what the real one does."""
    from interpreter.agents.belief import Belief

    game = interpreter.loads(BIG.replace("deal 34 to hand", "deal 16 to hand"), "big.rules")
    state = game.new_game(2, 3)
    rng = random.Random(1)
    for _ in range(5):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    state.apply(state.legal_moves()[-1])
    p = state.current_player
    assert len(state.observe(p)["picking"]["cards"]) >= 1
    sample = Belief(game, state.observe(p), rng).sample()
    assert sample is not None and [state.describe(m) for m in sample.legal_moves()] == [
        state.describe(m) for m in state.legal_moves()
    ]


ASKED = """game "Many asked"
players 2..2

cards
  card  suit a | b | c | d   rank 1..17

zones
  hand  per player, owner sees
  pile  shared, public
  out   per player, public

round
  deal 30 to hand
  phase play
    move play card from hand to pile
    after play
      ask player to choose extra 1..4 cards from hand of player
        move extra to out of player
    ends when nobody can move
  score
    count out of player

game
  rounds 1
  winner highest total
"""


def test_an_ask_of_many_cards_is_answered_card_by_card_and_replays():
    """An ask whose sets are too many to list is answered as a set move is chosen: card by card;
    the record holds the set answered, which replays."""
    from interpreter.engine.card_sets import Pick

    game = interpreter.loads(ASKED, "asked.rules")
    state = game.new_game(2, 1)
    state.apply(state.legal_moves()[0])
    assert len(state.legal_moves()) == 29 and all(type(m.target) is Pick for m in state.legal_moves())
    rng = random.Random(3)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    rec = record(state)
    answers = [m for r in rec["rounds"] for m in r["moves"] if m["move"] == "extra"]
    assert answers and all(set(m) == {"player", "move", "cards", "from"} for m in answers)
    assert replay(game, rec).scores() == state.scores()


def test_a_pick_written_as_a_move_is_found_again():
    """A server journals each move it plays, a pick too (``{"player", "move", "pick"}``): after a
    restart the same pick is found among the legal moves."""
    from interpreter.engine.records import find_move, move_record

    game = interpreter.loads(BIG, "big.rules")
    state = game.new_game(2, 1)
    p = state.current_player
    chosen = state.legal_moves()[7]
    journal = move_record(state, p, chosen)
    assert set(journal) == {"player", "move", "pick"}
    assert find_move(game.new_game(2, 1), journal) == chosen
