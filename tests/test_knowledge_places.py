"""Who sees what, part 2 (issue 30): zones that everyone but their owner sees (`others see`),
knowledge told about cards (`tell`, `known`), cards chosen by their place (`card at place`) and
unions of zones (`A + B`), each through the engine, the records, the views, the sampler and the
tools; examples/hints.rules is the example game."""

from __future__ import annotations

import json
import random

import pytest

import interpreter
from conftest import ROOT, position, run_cli
from interpreter.agents.belief import Belief
from interpreter.engine.observe import offered_move
from interpreter.engine.records import find_move, record
from interpreter.errors import RulesetError
from interpreter.play.terminal import screen
from interpreter.play.web.views import moves_view, seat_view
from interpreter.text.move_words import move_words

HINTS = ROOT / "examples" / "hints.rules"

BASE = """game "T"
players 2..3

cards
  card  color red | blue   rank 1..4

zones
  hand     per player, {vis}
  rows     shared, public
  discard  shared, public

round
  deal 3 to hand
  phase turns
{moves}
    ends when count (rows + discard) >= 4
  score
    count card in rows

game
  rounds 1
  winner highest total
"""


def rules(vis: str = "others see", moves: str = "    move play card at place from hand to rows") -> str:
    return BASE.format(vis=vis, moves=moves)


@pytest.fixture(scope="module")
def hints() -> interpreter.Game:
    return interpreter.load(HINTS)


def c(color: str, rank: int) -> dict:
    return {"type": "card", "color": color, "rank": rank}


def hands(game, cards: list[list[tuple[str, int]]], stock: list[tuple[str, int]] = ()):
    """A game of hints from these hands (seat 0 deals: seat 1 moves first), this stock on top."""
    zones = {"hand": [[c(*x) for x in h] for h in cards], "stock": [c(*x) for x in stock]}
    return position(game, len(cards), zones)


def choose(state, move: str, **what) -> None:
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] == move and all(d.get(k) == v for k, v in what.items()):
            state.apply(m)
            return
    raise AssertionError(f"no {move} {what} among {[state.describe(m) for m in state.legal_moves()]}")


def place_of(state, seat: int, place: int):
    """The legal move of `play` at that place of the seat's hand."""
    for m in state.legal_moves():
        if offered_move(state, seat, m).get("place") == place and state.describe(m)["move"] == "play":
            return m
    raise AssertionError(f"no play at place {place}")


# ---- others see -------------------------------------------------------------------------------


def test_a_shared_zone_cannot_be_seen_by_all_but_its_owner():
    text = rules().replace("rows     shared, public", "rows     shared, others see")
    with pytest.raises(RulesetError, match="shared zone has no owner"):
        interpreter.loads(text, "t.rules")


def test_a_player_cannot_choose_among_their_own_cards_they_do_not_see():
    with pytest.raises(RulesetError, match=r"seen by the others \(`others see`\), not by its owner"):
        interpreter.loads(rules(moves="    move play card from hand to rows"), "t.rules")


# ---- cards chosen by their place --------------------------------------------------------------


def test_a_place_is_offered_for_each_card_and_the_card_is_never_named_to_its_owner():
    game = interpreter.loads(rules(), "t.rules")
    state = position(game, 2, {"hand": [[c("red", 1), c("red", 2), c("blue", 3)], [c("blue", 1)] * 1]})
    seat = state.current_player
    offered = [offered_move(state, seat, m) for m in state.legal_moves()]
    assert [o["place"] for o in offered] == list(range(len(offered)))
    assert all(o["card"] is None for o in offered)
    words = [move_words(game, o, seat, 2) for o in offered]
    assert words[0] == "play the card at place 1 of your hand to rows"
    shown, _ = moves_view(state, seat, state.legal_moves())
    assert [d["label"] for d in shown] == words and "rank" not in json.dumps(shown)


def test_a_guard_of_a_move_by_place_may_not_read_the_card():
    moves = "    move play card at place from hand to rows\n      require rank of card > 1"
    with pytest.raises(RulesetError, match="whether a place is offered would tell"):
        interpreter.loads(rules(moves=moves), "t.rules")


def test_a_move_by_place_from_a_hidden_zone_is_allowed():
    game = interpreter.loads(rules(vis="hidden"), "t.rules")
    state = game.new_game(2, 3)
    assert len(state.legal_moves()) == 3


def test_the_record_keeps_the_place_and_replay_takes_that_very_copy(hints):
    deal = [[("blue", 2), ("green", 2), ("green", 3)], [("red", 1), ("red", 1), ("blue", 1)]]
    for place in (0, 1):  # two red 1s in seat 1's hand: the record says which was played
        state = hands(hints, deal)
        state.apply(place_of(state, 1, place))
        recorded = record(state)["rounds"][0]["moves"][0]
        assert recorded["place"] == place and recorded["card"] == c("red", 1)
        again = hands(hints, deal)
        move = find_move(again, recorded)
        assert again.zone_cards(again.loc[move.card]).index(move.card) == place


def test_greedy_and_mcts_tell_moves_by_place_apart_without_the_cards(hints):
    from interpreter.simulation.simulate import simulate

    out = simulate(hints, 2, 1, seed=3, agents=["greedy", "mcts:8"])
    assert out["games"] == 1


# ---- knowledge --------------------------------------------------------------------------------


def test_a_hint_tells_its_player_by_place_and_nobody_else(hints):
    state = hands(hints, [[("red", 1), ("blue", 2), ("red", 3)], [("green", 1), ("green", 2), ("blue", 3)]])
    choose(state, "hint_color", value="red")  # seat 1 hints seat 0's reds
    choose(state, "whom", value=0)
    told = state.observe(0)["told"]
    assert told == [
        {"zone": "hand", "index": 0, "place": 0, "attr": "color", "value": "red"},
        {"zone": "hand", "index": 0, "place": 2, "attr": "color", "value": "red"},
    ]
    assert state.observe(1)["told"] == []
    assert state.observe(0)["zones"]["hand"][0] == {"count": 3}  # told, not shown
    text = screen(state, 0)
    assert "told you: card 1 of your hand: color red; card 3 of your hand: color red" in text
    assert "your hand: 3 cards, facing out: the others see them, you do not" in text
    hand = next(z for z in seat_view(state, 0)["zones"] if z["name"] == "hand")["instances"][0]
    assert hand["told"] == ["card 1: color red", "card 3: color red"] and "cards" not in hand


def test_what_was_told_follows_the_card_within_its_zone_and_goes_when_it_leaves(hints):
    state = hands(
        hints,
        [[("red", 1), ("blue", 2), ("red", 3)], [("green", 1), ("green", 2), ("blue", 3)]],
        stock=[("blue", 1)],
    )
    choose(state, "hint_color", value="red")
    choose(state, "whom", value=0)
    choose(state, "hint_rank", value=1)  # seat 0 hints seat 1's 1s
    choose(state, "whom", value=1)
    state.apply(place_of(state, 1, 0))  # seat 1 plays its green 1 (place 0)
    state.apply(place_of(state, 0, 0))  # seat 0 plays its red 1: the red 3 moves to place 1
    places = [(x["place"], x["value"]) for x in state.observe(0)["told"]]
    assert places == [(1, "red")]  # the red 1 left with its fact; the red 3's moved with it


def test_a_shuffle_of_the_zone_forgets_what_was_told_of_its_cards():
    """A seat told "your cards 1 and 3 are red" cannot tell them apart once its hand is shuffled:
    the facts go (as a shown card's place does), so its observation never gives the red cards' new
    places and `known` reads none. (A fact follows its card within the zone, not through a shuffle.)"""
    told = "        tell whom color of card in hand of whom where color of it = hint_color\n"
    text = HINTS.read_text().replace(told, told + "        shuffle hand of whom\n")
    assert "shuffle hand of whom" in text
    game = interpreter.loads(text, "hints.rules")
    state = hands(game, [[("red", 1), ("blue", 2), ("red", 3)], [("green", 1), ("green", 2), ("blue", 3)]])
    choose(state, "hint_color", value="red")  # seat 1 hints seat 0's reds, then seat 0's hand is shuffled
    choose(state, "whom", value=0)
    assert "told" not in state.observe(0) and state.told == ()
    choose(state, "hint_rank", value=1)  # seat 0 hints seat 1's 1
    choose(state, "whom", value=1)
    choose(state, "hint_color", value="red")  # seat 0's reds are not known to it now: a red hint tells again
    choose(state, "whom", value=0)


def test_known_reads_what_a_seat_was_told(hints):
    state = hands(hints, [[("red", 1), ("blue", 2)], [("green", 1), ("green", 2)]])
    choose(state, "hint_color", value="red")  # seat 1 tells seat 0 of its red
    choose(state, "whom", value=0)
    choose(state, "hint_rank", value=1)  # seat 0 tells seat 1 of its 1
    choose(state, "whom", value=1)
    hints_left = state.observe(1)["vars"]["hints"]
    # seat 0's red is known to it: a second red hint would tell nothing new (`known ... is none`)
    choose(state, "hint_color", value="red")
    assert state.current_player == 0 and state.observe(0)["vars"]["hints"] == hints_left


def test_the_sampler_gives_the_seat_only_worlds_that_agree_with_what_it_was_told(hints):
    state = hands(hints, [[("red", 1), ("blue", 2), ("red", 3)], [("green", 1), ("green", 2), ("blue", 3)]])
    choose(state, "hint_color", value="red")
    choose(state, "whom", value=0)
    choose(state, "hint_rank", value=2)  # seat 0's move: hints seat 1's green 2
    choose(state, "whom", value=1)
    obs = state.observe(0)
    belief = Belief(hints, obs, random.Random(5))
    colors = set()
    for _ in range(12):
        sample = belief.sample()
        assert sample is not None
        mine = [hints.cards.json[x] for x in sample.zone_cards(sample.layout.base[0])]
        assert mine[0]["color"] == "red" and mine[2]["color"] == "red"
        colors.add(mine[1]["color"])
        assert sample.observe(0)["told"] == obs["told"]
    assert len(colors) > 1  # the untold place is any color


def test_a_new_round_forgets_what_was_told():
    moves = (
        "    move hint\n"
        "    move play card at place from hand to rows\n"
        "    after hint\n"
        "      tell left of player color of hand of left of player\n"
    )
    text = rules(moves=moves).replace("rounds 1", "rounds 2").replace(">= 4", ">= 2")
    game = interpreter.loads(text, "t.rules")
    state = game.new_game(2, 4)
    choose(state, "hint")  # seat 1 tells seat 0 the colors of its whole hand
    assert len(state.observe(0)["told"]) == 3 and state.observe(1)["told"] == []
    while state.round == 0:
        choose(state, "play")
    assert state.told == () and "told" not in state.observe(0)


# ---- unions of zones --------------------------------------------------------------------------


def test_a_union_of_zones_is_the_cards_of_both_and_plus_still_adds_numbers():
    text = rules().replace("    count card in rows\n", "    count (rows + discard) + 1\n")
    game = interpreter.loads(text, "t.rules")
    assert game.ir["round"]["phases"][0]["ends"]["when"]["left"]["of"]["op"] == "union"
    state = game.new_game(2, 1)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert state.scores() == [5, 5]  # the 4 cards played, and 1


def test_a_zone_plus_a_number_is_an_error():
    with pytest.raises(RulesetError, match="joins zones or cards"):
        interpreter.loads(rules().replace("count (rows + discard) >= 4", "count (rows + 1) >= 4"), "t.rules")


# ---- the tools --------------------------------------------------------------------------------


def test_the_example_checks_formats_renders_and_shows_clean():
    path = "examples/hints.rules"
    report = json.loads(run_cli("check", path, "--games", "40", "--jobs", "1", "--format", "json").stdout)
    assert report["summary"]["errors"] == 0 and report["summary"]["warnings"] == 0, report["findings"]
    assert run_cli("fmt", "--check", path).returncode == 0
    ir = json.loads(run_cli("show", path, "--format", "json").stdout)
    assert any(m.get("at_place") for m in ir["round"]["phases"][0]["moves"])
    book = run_cli("render", path).stdout
    assert "everyone but its owner sees it" in book and "the card at a place the player chooses" in book
    assert "without showing them" in book and "was told it" in book


def test_the_new_words_are_keywords_of_the_lexer():
    from pygments import lex
    from pygments.token import Error, Keyword

    tokens = [(t, v) for t, v in lex(HINTS.read_text(), __import__("interpreter.text.lexer").text.lexer.RulesLexer())]
    assert not [v for t, v in tokens if t in Error]
    kinds = {v: t for t, v in tokens}
    for word in ("others see", "at place", "tell", "known"):
        assert kinds[word] in Keyword, word


def test_diff_names_a_move_made_by_place(tmp_path):
    a = tmp_path / "a.rules"
    b = tmp_path / "b.rules"
    a.write_text(rules(vis="owner sees", moves="    move play card from hand to rows"))
    b.write_text(rules())
    out = run_cli("diff", str(a), str(b)).stdout
    assert "place" in out and "everyone but its owner" in out


def test_a_table_journals_a_move_by_its_place_and_resumes_that_very_card(tmp_path):
    from interpreter.play.web.catalogue import Catalogue
    from interpreter.play.web.store import TableStore
    from interpreter.play.web.tables import Tables

    store = TableStore(tmp_path)
    try:
        tables = Tables(Catalogue([str(HINTS)], store.uploads), store)
        table = tables.create(
            {"rules": "file/0", "players": 2, "seed": 3, "params": {}, "seats": [{"kind": "human"}] * 2}
        )
        seat = table.state.current_player
        offered = table.message(seat)["moves"]
        index = next(i for i, m in enumerate(offered) if m.get("place") == 1)
        assert offered[index]["card"] is None and "card at place 2" in offered[index]["label"]
        table.choose(seat, index, table.version)
        table.pump()
        path = tmp_path / "tables" / table.id / "moves.jsonl"
        line = json.loads(path.read_text().splitlines()[0])
        assert line["place"] == 1 and line["card"] is not None
    finally:
        store.close_all()


def test_the_sampler_finds_worlds_that_agree_with_the_seat_in_played_games(hints):
    found = 0
    for seed in range(8):
        state, rng = hints.new_game(3, seed), random.Random(seed)
        for _ in range(rng.randrange(5, 20)):
            if not state.is_over:
                moves = state.legal_moves()
                state.apply(moves[rng.randrange(len(moves))])
        if state.is_over:
            continue
        seat = state.current_player
        obs = state.observe(seat)
        sample = Belief(hints, obs, random.Random(seed)).sample()
        if sample is None:
            continue
        found += 1
        seen = sample.observe(seat)
        assert seen["zones"] == obs["zones"] and seen.get("told", []) == obs.get("told", [])
    assert found >= 4
