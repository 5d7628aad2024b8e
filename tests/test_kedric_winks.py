"""Kedric Winks' Poison (rulesets/poison-kedric-winks.rules): tricks, follow suit, the schedule,
agendas, hidden choices, the first leader, and properties of whole games for 2 to 6 players."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
from interpreter.engine.records import record, replay
from interpreter.engine.scoring import score_round

ROOT = Path(__file__).resolve().parent.parent
RULESETS, EXAMPLES = ROOT / "rulesets", ROOT / "examples"
KW = RULESETS / "poison-kedric-winks.rules"
HOUSE = EXAMPLES / "poison-kedric-winks-house-agendas.rules"


@pytest.fixture(scope="module")
def kw() -> interpreter.Game:
    return interpreter.load(KW)


# ---- building positions by hand -------------------------------------------------------------------


def describe(text: str) -> dict:
    """A card object from short text: "wine 5", "bottle wine", "poison 7", "Purist"."""
    words = text.split()
    if words[0] == "bottle":
        return {"type": "bottle", "suit": words[1], "rank": 11}
    if words[0] == "poison":
        return {"type": "poison", "suit": "poison", "rank": int(words[1])}
    if words[0] in ("brandy", "cocktails", "wine", "sherry"):
        return {"type": "drink", "suit": words[0], "rank": int(words[1])}
    points = {"Suicide Bid": 6, "Purist": 3}[text]
    return {"type": "agenda", "name": text, "points": points}


def deal_of(game, hands: list[list[str]], offers: list[list[str]] | None = None) -> dict:
    """A recorded-deal dict: these hands and agenda offers; every other card stays in its deck."""
    offers = offers or [["Purist", "Suicide Bid"] for _ in hands]
    pool = list(game.cards.json)
    taken = [False] * len(pool)

    def take(text: str) -> dict:
        want = describe(text)
        for i, c in enumerate(pool):
            if not taken[i] and c == want:
                taken[i] = True
                return c
        raise AssertionError(f"no card left like {text}")

    deal = {"hand": [[take(x) for x in h] for h in hands], "offer": [[take(x) for x in o] for o in offers]}
    deal["deck"] = [c for i, c in enumerate(pool) if not taken[i] and c["type"] != "agenda"]
    deal["agendas"] = [c for i, c in enumerate(pool) if not taken[i] and c["type"] == "agenda"]
    return deal


def choose_agendas(state) -> None:
    """Everyone picks the first agenda offered (the simultaneous phase), so that tricks begin."""
    while state.observe(0)["phase"] == "choose":
        state.apply(state.legal_moves()[0])


def play(state, seat: int, text: str) -> None:
    """Seat ``seat`` plays the card described by ``text`` (it must be legal and their turn)."""
    assert state.current_player == seat
    want = describe(text)
    moves = [m for m in state.legal_moves() if state.game.cards.json[m.card] == want]
    assert moves, f"seat {seat} may not play {text}"
    state.apply(moves[0])


def trick(game, hands: list[list[str]], plays: list[str], leader: int = 0):
    """Play one trick from hand-built hands, ``leader`` leading; return the state after it."""
    state = game.new_game(len(hands), 0, deals=[deal_of(game, hands)])
    choose_agendas(state)
    state.current = leader
    for k, text in enumerate(plays):
        play(state, (leader + k) % len(hands), text)
    return state


def outcome(state) -> tuple[int, int]:
    """(the seat that won the one trick played so far, the points it earned)."""
    obs = state.observe(0)
    winners = [seat for seat, piles in enumerate(obs["zones"]["won"]) if piles]
    assert len(winners) == 1
    return winners[0], obs["vars"]["trick_points"][winners[0]]


# ---- trick winners -------------------------------------------------------------------------------


def test_led_suit_only_highest_of_the_led_suit_wins_plus_one(kw):
    hands = [["wine 5", "sherry 1"], ["wine 9", "sherry 2"], ["wine 2", "sherry 3"], ["brandy 10", "sherry 4"]]
    state = trick(kw, hands, ["wine 5", "wine 9", "wine 2", "brandy 10"])
    assert outcome(state) == (1, 1)
    won = state.observe(2)["zones"]["won"][1]
    assert won == [[describe(x) for x in ("wine 5", "wine 9", "wine 2", "brandy 10")]], "kept as one face-up pile"
    assert state.current_player == 1, "the trick's winner leads the next"


def test_a_poison_in_the_trick_the_highest_poison_wins_minus_one(kw):
    hands = [["wine 5", "sherry 1"], ["poison 2", "sherry 2"], ["wine 9", "sherry 3"], ["poison 7", "sherry 4"]]
    state = trick(kw, hands, ["wine 5", "poison 2", "wine 9", "poison 7"])
    assert outcome(state) == (3, -1)


def test_the_bottle_of_the_led_suit_beats_poison_and_scores_plus_one(kw):
    hands = [["wine 5", "sherry 1"], ["bottle wine", "sherry 2"], ["poison 9", "sherry 3"], ["wine 7", "sherry 4"]]
    state = trick(kw, hands, ["wine 5", "bottle wine", "poison 9", "wine 7"])
    assert outcome(state) == (1, 1)


def test_an_off_suit_bottle_does_not_win(kw):
    hands = [["wine 5", "sherry 1"], ["bottle brandy", "sherry 2"], ["wine 8", "sherry 3"], ["wine 2", "sherry 4"]]
    state = trick(kw, hands, ["wine 5", "bottle brandy", "wine 8", "wine 2"])
    assert outcome(state) == (2, 1)


def test_a_trick_led_with_poison_is_poisoned_and_the_highest_poison_wins(kw):
    hands = [["poison 3", "sherry 1"], ["wine 10", "sherry 2"], ["poison 8", "sherry 3"], ["bottle sherry", "sherry 4"]]
    state = trick(kw, hands, ["poison 3", "wine 10", "poison 8", "bottle sherry"])
    assert outcome(state) == (2, -1)


def test_two_players_a_trick_is_two_cards(kw):
    state = trick(kw, [["brandy 3", "sherry 1"], ["brandy 4", "sherry 2"]], ["brandy 3", "brandy 4"])
    assert outcome(state) == (1, 1)


# ---- follow suit ---------------------------------------------------------------------------------------


def test_a_player_holding_the_led_suit_must_follow_it(kw):
    hands = [["wine 5", "sherry 1"], ["wine 9", "poison 4", "bottle brandy"], ["brandy 1", "sherry 3"]]
    state = kw.new_game(3, 0, deals=[deal_of(kw, hands)])
    choose_agendas(state)
    state.current = 0
    play(state, 0, "wine 5")
    playable = [kw.cards.json[m.card] for m in state.legal_moves()]
    assert playable == [describe("wine 9")]


def test_a_player_without_the_led_suit_may_play_anything(kw):
    hands = [["wine 5", "sherry 1"], ["brandy 9", "poison 4", "bottle sherry"], ["brandy 1", "sherry 3"]]
    state = kw.new_game(3, 0, deals=[deal_of(kw, hands)])
    choose_agendas(state)
    state.current = 0
    play(state, 0, "wine 5")
    playable = sorted(str(kw.cards.json[m.card]) for m in state.legal_moves())
    assert playable == sorted(str(describe(x)) for x in hands[1])


def test_the_leader_may_lead_any_card(kw):
    hands = [["wine 5", "poison 1", "bottle sherry"], ["brandy 9", "sherry 2", "sherry 5"]]
    state = kw.new_game(2, 0, deals=[deal_of(kw, hands)])
    choose_agendas(state)
    state.current = 0
    assert len(state.legal_moves()) == 3


# ---- the schedule --------------------------------------------------------------------------------------


def random_game(game, players: int, seed: int, params=None):
    """A whole game with uniformly random moves."""
    state = game.new_game(players, seed, params)
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return state


def test_nine_hands_of_9_6_3_cards(kw):
    state = random_game(kw, 4, 3)
    assert state.rounds == 9
    sizes = [[len(h) for h in r["deal"]["hand"]] for r in state.history]
    assert sizes == [[s] * 4 for s in (9, 6, 3, 9, 6, 3, 9, 6, 3)]
    assert all(len(r["scores"]) == 4 for r in state.history)


def test_six_players_deal_all_54_cards_in_a_9_card_hand(kw):
    state = random_game(kw, 6, 1)
    first = state.history[0]["deal"]
    assert sum(len(h) for h in first["hand"]) == 54
    assert not first.get("deck"), "no drinks card is left undealt"
    assert len(state.history[1]["deal"]["deck"]) == 54 - 36, "in a 6-card hand the rest is set aside unseen"


def test_undealt_cards_are_unseen(kw):
    state = kw.new_game(2, 5)
    obs = state.observe(0)
    assert obs["zones"]["deck"] == [{"count": 54 - 18}]
    assert obs["zones"]["hand"][1] == {"count": 9}


# ---- agendas --------------------------------------------------------------------------------------


def agenda_position(game, players: int, won: dict[int, list[list[str]]], up=None, down=None):
    """A state at the start of a hand, with these won tricks and agendas laid out by hand."""
    state = game.new_game(players, 0)
    lay, z = state.layout, game.zone_index
    ids = {}
    for c, data in enumerate(game.cards.json):
        ids.setdefault(str(data), []).append(c)

    def take(text: str) -> int:
        return ids[str(describe(text))].pop()

    for seat, piles in won.items():
        for pile in piles:
            state.move_cards([take(x) for x in pile], lay.base[z["won"]] + seat)
    for zone, placed in (("agenda_up", up or {}), ("agenda_down", down or {})):
        for seat, name in placed.items():
            state.move_cards([take(name)], lay.base[z[zone]] + seat)
    return state


def test_suicide_bid_strictly_the_most_poison_in_won_tricks(kw):
    won = {0: [["wine 1", "poison 2"], ["poison 5", "brandy 1"]], 1: [["poison 7", "sherry 1"]]}
    state = agenda_position(kw, 3, won, up={0: "Suicide Bid", 1: "Suicide Bid"})
    assert score_round(state) == [6, 0, 0]


def test_suicide_bid_nobody_on_a_tie(kw):
    won = {0: [["wine 1", "poison 2"]], 1: [["poison 7", "sherry 1"]]}
    state = agenda_position(kw, 3, won, up={0: "Suicide Bid"}, down={1: "Suicide Bid"})
    assert score_round(state) == [0, 0, 0]


def test_suicide_bid_nobody_when_no_poison_was_won(kw):
    state = agenda_position(kw, 2, {0: [["wine 1", "wine 2"]]}, up={0: "Suicide Bid"})
    assert score_round(state) == [0, 0]


def test_a_face_down_agenda_scores_like_a_face_up_one(kw):
    won = {1: [["poison 7", "sherry 1"]]}
    state = agenda_position(kw, 2, won, down={1: "Suicide Bid"}, up={1: "Purist"})
    assert score_round(state) == [0, 6]


def test_purist_a_won_trick_all_of_one_suit_a_bottle_being_of_its_suit(kw):
    won = {0: [["wine 3", "brandy 4"], ["wine 9", "bottle wine", "wine 2"]]}
    state = agenda_position(kw, 3, won, up={0: "Purist"})
    assert score_round(state) == [3, 0, 0]


def test_purist_not_achieved_by_mixed_tricks(kw):
    won = {0: [["wine 3", "brandy 4"], ["poison 1", "sherry 8"]]}
    state = agenda_position(kw, 2, won, up={0: "Purist"}, down={1: "Purist"})
    assert score_round(state) == [0, 0]


def test_purist_a_trick_of_poison_alone_is_of_one_suit(kw):
    state = agenda_position(kw, 2, {1: [["poison 1", "poison 9"]]}, up={1: "Purist"})
    assert score_round(state) == [0, 3]


def test_two_copies_of_an_achieved_agenda_both_score(kw):
    state = agenda_position(kw, 2, {0: [["wine 1", "wine 2"]]}, up={0: "Purist"}, down={0: "Purist"})
    assert score_round(state) == [6, 0]


def test_the_agenda_deck_gives_every_seat_two_with_six_players(kw):
    agendas = [c for c in kw.cards.json if c["type"] == "agenda"]
    assert len(agendas) == 15
    assert {c["name"] for c in agendas} == {"Suicide Bid", "Purist"}
    state = kw.new_game(6, 2)
    assert all(len(offer) == 2 for offer in state.history[0]["deal"]["offer"])


# ---- hidden choices ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_face_down_choice_never_shows_to_another_seat_before_scoring(kw, players):
    state = kw.new_game(players, 11)
    rng = random.Random(11)
    rounds_seen = 0
    while not state.is_over:
        for seat in range(players):
            obs = state.observe(seat)
            for other in range(players):
                if other == seat:
                    continue
                assert isinstance(obs["zones"]["agenda_down"][other], dict), "only a count"
                assert isinstance(obs["zones"]["offer"][other], dict)
                if obs["phase"] == "choose":  # nobody's choice shows before everyone has chosen
                    assert obs["zones"]["agenda_up"][other] == []
                    assert all(m["move"] != "choose" for m in obs["last_moves"])
        if state.round > rounds_seen:  # a hand was just scored: now every seat sees the face-down ones
            rounds_seen = state.round
            shown = state.observe(0)["last_round"]
            assert shown["round"] == rounds_seen
            assert [len(x) for x in shown["revealed"]["agenda_down"]] == [1] * players
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])


def test_a_choice_names_the_card_and_the_zone_it_goes_to(kw):
    rec = record(random_game(kw, 3, 4))
    choices = [m for m in rec["rounds"][0]["moves"] if m["move"] == "choose"]
    assert [m["player"] for m in choices] == [1, 2, 0]
    for m in choices:
        assert m["card"]["type"] == "agenda" and set(m["card"]) == {"type", "name", "points"}
        assert m["to"] == {"zone": "agenda_up", "index": m["player"]}


# ---- the first leader ----------------------------------------------------------------------------------


def leader_of(game, hands: list[list[str]], totals: list[int]) -> int:
    """Who leads the first trick of a hand with these hands and totals."""
    state = game.new_game(len(hands), 0, deals=[deal_of(game, hands)])
    state.totals = list(totals)
    choose_agendas(state)
    return state.current_player


def test_the_lowest_total_leads(kw):
    hands = [["bottle wine"], ["brandy 1"], ["cocktails 10"], ["wine 2"]]
    assert leader_of(kw, hands, [3, 1, 4, 6]) == 1


def test_a_tie_on_the_lowest_total_is_broken_by_the_best_card_by_rank_then_suit(kw):
    hands = [["brandy 1"], ["wine 10", "brandy 2"], ["cocktails 10", "poison 1"], ["bottle sherry"]]
    assert leader_of(kw, hands, [2, 0, 0, 5]) == 2, "cocktails ranks above wine"
    hands = [["brandy 1"], ["bottle brandy"], ["cocktails 10"], ["wine 2"]]
    assert leader_of(kw, hands, [2, 0, 0, 5]) == 1, "a Bottle above any 10"
    hands = [["brandy 1"], ["poison 10"], ["brandy 10"], ["wine 2"]]
    assert leader_of(kw, hands, [0, 0, 0, 0]) == 2, "poison is the lowest suit"


@pytest.mark.parametrize("seed", range(4))
def test_in_the_first_hand_the_best_card_leads(kw, seed):
    rec = record(random_game(kw, 5, seed))
    first = rec["rounds"][0]
    key = {"poison": 0, "brandy": 1, "sherry": 2, "wine": 3, "cocktails": 4}
    best = [max((c["rank"], key[c["suit"]]) for c in hand) for hand in first["deal"]["hand"]]
    lead = next(m for m in first["moves"] if m["move"] == "play")
    assert lead["player"] == best.index(max(best))


# ---- properties of whole games ----------------------------------------------------------------------


def all_cards(state) -> list[int]:
    """Every card id in every zone instance, once per time it appears."""
    return sorted(c for inst in range(state.layout.size) for c in state.zone_cards(inst))


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31 - 1))
def test_cards_conserved_games_end_and_records_replay(kw, players, seed):
    state = kw.new_game(players, seed)
    rng = random.Random(seed)
    everything = list(range(len(kw.cards)))
    steps = 0
    while not state.is_over:
        assert all_cards(state) == everything, "every card in exactly one zone"
        moves = state.legal_moves()
        assert moves, "someone can always move until the game ends"
        state.apply(moves[rng.randrange(len(moves))])
        steps += 1
        assert steps < 2000, "the game must end"
    assert len(state.history) == 9
    again = replay(kw, record(state))
    assert again.scores() == state.scores() and again.winners() == state.winners()


# ---- the house-agendas variant ----------------------------------------------------------------------


def test_the_house_agendas_variant_plays_and_each_agenda_is_sometimes_achieved():
    from interpreter.engine.game import compile_ir
    from interpreter.loader import ir_from_path

    game = compile_ir(ir_from_path(HOUSE), coverage=True)
    names = {c["name"] for c in game.cards.json if c["type"] == "agenda"}
    assert len(names) >= 8
    for players in range(2, 7):
        for seed in range(6):
            state = random_game(game, players, seed)
            assert len(state.history) == 9
            assert replay(game, record(state)).scores() == state.scores()
    lines = [line for deck in game.ir["decks"] if deck["name"] == "agendas" for line in deck["cards"]]
    never = [line["attributes"][0]["values"][0]["value"] for line in lines if not game.coverage[line["achieved"]["at"]]]
    assert never == [], f"agendas never achieved in 180 random games: {never}"


def test_the_rules_decisions_stand_beside_their_rules_in_the_ir(kw):
    notes = " ".join(str(v) for v in _notes(kw.ir))
    for decision in (
        "suit order",
        "only 2 of the 15",
        "nobody on a tie",
        "a Bottle is of its drink's suit",
        "hidden from the others until the hand is scored",
        "simultaneous",
        "An off-suit Bottle never wins",
        "lowest total",
        "9, then 6, then 3",
    ):
        assert decision in notes, decision


def _notes(node):
    """Every `note` in an IR tree."""
    if isinstance(node, dict):
        yield from ([node["note"]] if "note" in node else [])
        for v in node.values():
            yield from _notes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _notes(v)
