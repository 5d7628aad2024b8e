"""`for each player [where C]` (and `for each team`) as an effect: the same effects once for each
player in seat order, `player` being that one; in every tool (resolve, engine, fmt, render, diff,
show's IR and its schema, check, the agents) and with a positioned error for each misuse."""

from __future__ import annotations

import json

import pytest

import interpreter
from conftest import position, run_cli
from interpreter.engine.records import record, replay
from interpreter.errors import RulesetError
from interpreter.text.diff import diff
from interpreter.text.fmt import format_text
from interpreter.text.render import rulebook, to_markdown

PASS_LEFT = """game "Pass left"
players 2..5

cards
  card  suit clubs | hearts   rank 1..8

zones
  hand     per player, owner sees
  passing  per player, hidden
  picked   per player, public

var seen per player = 0
var moved per player = 0

round
  deal 3 to hand
  repeat
    phase pick, simultaneous
      move pick card from hand to picked
      after pick
        let mover = player
        for each player where player != mover
          add 1 to seen of player
          add 1 to moved of mover
      at end
        for each player
          move card in hand of player to passing of left of player
        for each player where count passing of player > 0
          move card in passing of player to hand of player
  until every hand is empty
  score
    sum of rank in picked of player

game
  rounds 1
  winner highest total
"""


def load(text: str = PASS_LEFT) -> interpreter.Game:
    return interpreter.loads(text, "each.rules")


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def hands(state) -> list[list[int]]:
    base = state.layout.base[state.game.zone_index["hand"]]
    return [sorted(state.game.cards.json[i]["rank"] for i in state.zone_cards(base + s)) for s in range(state.n)]


def test_every_hand_goes_to_the_player_on_the_left_at_once():
    game = load()
    state = position(
        game,
        3,
        {"hand": [[c("clubs", 1), c("clubs", 2)], [c("clubs", 3), c("clubs", 4)], [c("hearts", 5), c("hearts", 6)]]},
    )
    for _ in range(3):
        state.apply(state.legal_moves()[0])  # each seat picks its first card
    assert hands(state) == [[6], [2], [4]]  # seat 2's hand went round to seat 0


def test_in_a_trigger_the_player_of_each_turn_hides_the_mover_who_stays_reachable_by_a_let():
    state = load().new_game(3, 4)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    names = [v["name"] for v in state.game.ir["vars"]]
    seen, moved = state.vars[names.index("seen")], state.vars[names.index("moved")]
    assert seen == [6, 6, 6]  # each of the 3 picks of each of the 2 others
    assert moved == [6, 6, 6]  # each of one's 3 picks, once for each of the 2 others


@pytest.mark.parametrize(
    ("old", "new", "marker", "words"),
    [
        ("for each player where player != mover", "for each pile", "for each pile", "`player`, `team` or `card`"),
        ("for each player where player != mover", "for each card", "for each card", "needs the cards"),
        ("for each player where player != mover", "for each team", "for each team", "no teams in this game"),
        ("for each player where count passing", "for each player where passing", "where passing", "a zone"),
        (
            "        for each player\n",
            "        for each player\n          add 1 to seen of mover\n",
            "seen of mover",
            "mover",
        ),
    ],
)
def test_each_misuse_is_a_positioned_error(old, new, marker, words):
    text = PASS_LEFT.replace(old, new, 1)
    with pytest.raises(RulesetError) as info:
        load(text)
    err = info.value
    line = next(i for i, t in enumerate(text.splitlines(), 1) if marker in t)
    assert err.span.line == line and words in err.message, err.format()
    if "pile" in new:
        assert "for every player" in err.hint, err.format()


def test_the_canonical_layout_keeps_it_and_is_stable():
    messy = PASS_LEFT.replace(
        "        for each player where count passing of player > 0",
        "        for  each player  where count passing of player>0",
    )
    once = format_text(messy)
    assert "        for each player where count passing of player > 0\n" in once
    assert format_text(once) == once == format_text(PASS_LEFT)


def test_the_rulebook_says_for_whom_and_in_which_order():
    book = " ".join(to_markdown(rulebook(load().ir)).split())
    assert (
        "For each player, in seat order: - Move the cards in the player's hand to the passing of the "
        "player to the left of the player." in book
    )
    assert "For each player for whom the player is not *mover*, in seat order:" in book


def test_diff_names_a_changed_condition_as_one_change():
    a = load().ir
    b = load(PASS_LEFT.replace("where player != mover", "where seat of player > 0")).ir
    changes = diff(a, b)
    assert [(x.change, x.item.kind) for x in changes] == [("changed", "trigger")], [x.as_text() for x in changes]
    assert "For each player for whom the seat number of the player is more than 0" in changes[0].as_text()


def test_show_writes_ir_the_schema_accepts_that_plays_the_same_games(tmp_path):
    path = tmp_path / "each.rules"
    path.write_text(PASS_LEFT)
    result = run_cli("show", str(path))
    assert result.returncode == 0, result.stderr
    ir = json.loads(result.stdout)
    (each,) = [e for e in ir["round"]["phases"][0]["at_end"]["effects"] if e["where"] is None]
    assert each["do"] == "each" and each["over"] == "player" and each["effects"][0]["do"] == "move"
    (tmp_path / "each.json").write_text(result.stdout)
    games = [interpreter.load(tmp_path / "each.json"), interpreter.load(path)]
    played = []
    for game in games:
        state = game.new_game(4, 9)
        while not state.is_over:
            state.apply(state.legal_moves()[-1])
        played.append({k: v for k, v in record(state).items() if k not in ("source", "origin")})
        replay(game, record(state))
    assert played[0] == played[1]


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts"])
def test_the_agents_play_it_and_check_finds_nothing_wrong(agent, tmp_path):
    from interpreter.checker import check
    from interpreter.simulation.simulate import simulate

    out = simulate(load(), 3, 2, seed=5, agents=[agent] * 3)
    assert out["games"] == 2
    if agent == "random":
        path = tmp_path / "each.rules"
        path.write_text(PASS_LEFT)
        report = check(str(path), games=20, jobs=1)
        assert not [f for f in report.findings if f.severity in ("error", "warning")], report.findings
