"""The flow of a round and a game: set-up deals and `turn up`, effects `at start` / `at end`,
`repeat ... until`, a round's and the game's `ends when` (with or without a cap of rounds), a
simultaneous phase's order of resolution, one trigger for several moves and a phase that ends when
nobody can move; each in play, in records and replays, in the tools, and misused."""

from __future__ import annotations

import pytest

import interpreter
from conftest import position
from interpreter.engine.records import record, replay
from interpreter.errors import PlayError, RulesetError
from interpreter.text.fmt import format_text
from interpreter.text.render import rulebook, to_markdown

HEAD = """game "Flow"
players 2..3

cards
  card  suit a | b   rank 1..6
  order cards by rank

zones
  hand     per player, owner sees
  table    per player, public
  row      2, public
  discard  shared, public
  aside    shared, hidden
  pile     shared, public

var count_ = 0
var laps = 0
"""


def load(body: str) -> interpreter.Game:
    return interpreter.loads(HEAD + body, "flow.rules")


def error(body: str) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load(body)
    return info.value


def var(state, name: str):
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index(name)]


def play_out(state) -> None:
    while not state.is_over:
        state.apply(state.legal_moves()[0])


PLAIN_ROUND = """
round
  deal 1 to hand
  phase play
    move play card from hand to pile
    ends when every hand is empty
  score
    count pile
"""

# ---- game end -----------------------------------------------------------------------------------------


def test_a_game_without_a_cap_ends_after_the_round_at_whose_end_its_condition_holds():
    game = load(PLAIN_ROUND + "  at end\n    add 1 to laps\ngame\n  ends when laps = 3\n  winner highest total\n")
    state = game.new_game(2, 1)
    play_out(state)
    assert state.round == 3 and len(record(state)["rounds"]) == 3 and state.rounds is None


def test_a_cap_of_rounds_ends_the_game_first_when_the_condition_has_not_held():
    text = PLAIN_ROUND + "  at end\n    add 1 to laps\ngame\n  rounds 2\n  ends when laps = 3\n  winner highest total\n"
    state = load(text).new_game(2, 1)
    play_out(state)
    assert state.round == 2


def test_a_round_ends_early_when_its_condition_holds_and_is_scored():
    game = load(
        """
round
  deal 3 to hand
  phase play
    move play card from hand to pile
    ends when every hand is empty
  ends when count pile = 2
  score
    count hand of player
game
  rounds 1
  winner lowest total
"""
    )
    state = game.new_game(2, 1)
    play_out(state)
    assert len(state.history[0]["moves"]) == 2 and sorted(state.scores()) == [2, 2]


# ---- set-up -------------------------------------------------------------------------------------------


SETUP = """
round
  deal 2 to hand
  turn up 1 to discard
  deal 1 to each row
  deal 2 to aside
  phase play
    move play card from hand to pile
    ends when every hand is empty
  score
    count pile
game
  rounds 2
  winner highest total
"""


def test_set_up_deals_lay_cards_on_shared_zones_and_the_record_writes_them_with_the_deal():
    game = load(SETUP)
    state = game.new_game(3, 4)
    deal = state.history[0]["deal"]
    assert len(deal["discard"]) == 1 and [len(r) for r in deal["row"]] == [1, 1] and len(deal["aside"]) == 2
    assert "count" in str(state.observe(0)["zones"]["aside"])  # set aside unseen
    play_out(state)
    rec = record(state)
    assert all(m["move"] == "play" for r in rec["rounds"] for m in r["moves"])  # none is a player's move
    assert replay(game, rec).scores() == state.scores()


def test_set_up_is_dealt_after_the_players_from_what_the_deck_has_left():
    game = load(SETUP)
    state = game.new_game(2, 0)
    cards = sum(len(state.zone_cards(i)) for i in range(state.layout.size))
    assert cards == 12
    dealt = 2 * 2 + 1 + 2 + 2
    deck = state.layout.base[game.zone_index["deck"]]
    assert len(state.zone_cards(deck)) == 12 - dealt


def test_effects_at_the_start_and_end_of_a_round_and_a_phase_run_in_order_once_each():
    game = load(
        """
round
  deal 1 to hand
  at start
    add 1 to laps
  phase play
    at start
      add 10 to laps
    move play card from hand to pile
    ends when every hand is empty
    at end
      add 100 to laps
  at end
    set count_ to laps
  score
    count pile
game
  rounds 1
  winner highest total
"""
    )
    state = game.new_game(2, 0)
    assert var(state, "laps") == 11
    play_out(state)
    assert var(state, "laps") == 111 and var(state, "count_") == 111


def test_an_effect_at_the_start_of_a_phase_may_say_who_moves_first():
    game = load(
        """
round
  deal 1 to hand
  phase play
    at start
      next dealer
    move play card from hand to pile
    ends when every hand is empty
  score
    count pile
game
  rounds 1
  winner highest total
"""
    )
    assert game.new_game(3, 0).current_player == 0  # the dealer, not the dealer's left


# ---- repeat, resolve, triggers, nobody can move --------------------------------------------------------


LOOP = """
round
  deal 3 to hand
  repeat
    phase pick, simultaneous
      move pick card from hand to pile
      resolve highest rank of card
    phase tally
      move drop card from table to discard
      ends when nobody can move
      at end
        add 1 to laps
  until every hand is empty
  score
    count pile
game
  rounds 1
  winner highest total
"""


def test_repeated_phases_are_played_until_the_condition_holds():
    state = load(LOOP).new_game(2, 3)
    play_out(state)
    assert var(state, "laps") == 3  # three picks each: the group ran three times


def test_a_simultaneous_phase_resolves_in_the_order_its_rules_give():
    game = load(LOOP)
    c = {"type": "card"}
    state = position(game, 2, {"hand": [[{**c, "suit": "a", "rank": 2}], [{**c, "suit": "b", "rank": 5}]]})
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    pile = state.zone_cards(state.layout.base[game.zone_index["pile"]])
    assert [game.cards.json[i]["rank"] for i in pile] == [5, 2]  # highest first, though seat 1 chose second


TWO = """
round
  deal 2 to hand
  phase play
    move play card from hand to pile
    move drop card from hand to discard
    after play, drop
      add 1 to count_
    ends when every hand is empty
  score
    count pile
game
  rounds 1
  winner highest total
"""


def test_one_trigger_follows_several_moves():
    state = load(TWO).new_game(2, 0)
    play_out(state)
    assert var(state, "count_") == 4  # two cards each, whether played or dropped


def test_a_phase_ends_when_nobody_can_move_instead_of_stopping_the_game():
    game = load(
        """
round
  deal 2 to hand
  phase play
    move play card from hand to pile
      require rank of card > 3
    ends when nobody can move
  score
    count hand of player
game
  rounds 1
  winner lowest total
"""
    )
    state = game.new_game(2, 5)
    play_out(state)
    assert all(game.cards.json[i]["rank"] > 3 for i in state.zone_cards(state.layout.base[game.zone_index["pile"]]))


ROUNDS_OF_CHOICES = """
round
  deal 3 to hand
  phase reveal, simultaneous
    move reveal card from hand to pile
      require rank of card > 0
    after reveal
      add 1 to count_
    ends when every hand is empty
  score
    count pile
game
  rounds 1
  winner highest total
"""


def test_a_simultaneous_phase_with_an_end_plays_rounds_of_choices_until_it_holds():
    """`ends when` in a simultaneous phase was never read: each player chose once and the phase ended."""
    game = load(ROUNDS_OF_CHOICES)
    state = game.new_game(3, 2)
    chosen = []
    while not state.is_over:
        chosen.append(state.current_player)
        if len(chosen) % 3:  # in the middle of a round of choices nothing has taken effect yet
            assert var(state, "count_") == (len(chosen) - 1) // 3 * 3
        state.apply(state.legal_moves()[0])
    assert var(state, "count_") == 9 and chosen == [1, 2, 0] * 3  # three rounds, each from the dealer's left
    assert replay(game, record(state)).totals == state.totals


def test_a_simultaneous_phase_whose_end_holds_at_its_start_asks_nobody():
    state = load(ROUNDS_OF_CHOICES.replace("deal 3 to hand", "deal 0 to hand")).new_game(2, 0)
    assert state.is_over and var(state, "count_") == 0


def test_a_simultaneous_phase_where_nobody_can_choose_before_its_end_holds():
    stuck = ROUNDS_OF_CHOICES.replace("require rank of card > 0", "require rank of card > 2")
    with pytest.raises(PlayError, match="nobody can move in phase 'reveal'"):
        play_out(load(stuck).new_game(2, 4))
    loose = stuck.replace(
        "    ends when every hand is empty\n", "    ends when every hand is empty\n    ends when nobody can move\n"
    )
    game = load(loose)
    state = game.new_game(2, 4)
    play_out(state)
    pile = state.zone_cards(state.layout.base[game.zone_index["pile"]])
    assert pile and all(game.cards.json[i]["rank"] > 2 for i in pile)


def test_check_reads_a_simultaneous_phases_end_and_the_rulebook_says_when(tmp_path):
    from interpreter.checker import check

    path = tmp_path / "reveal.rules"
    path.write_text(HEAD + ROUNDS_OF_CHOICES)
    report = check(str(path), games=10, jobs=1)
    assert [f.message for f in report.findings if f.code == "dead-rule"] == []
    assert [c["count"] > 0 for c in report.coverage if c["kind"] == "phase end"] == [True]
    text = to_markdown(rulebook(load(ROUNDS_OF_CHOICES).ir))
    assert "each time the chosen moves have all taken effect; until then every player chooses again" in text


# ---- the tools ------------------------------------------------------------------------------------------


def test_the_canonical_layout_keeps_every_flow_construct():
    messy = LOOP.replace("  repeat\n", "  repeat   # again\n")
    text = format_text(HEAD + messy)
    assert "  repeat  # again\n" in text and "  until every hand is empty\n" in text
    assert format_text(text) == text
    assert "      ends when nobody can move\n" in text and "      resolve highest rank of card\n" in text
    assert "    after play, drop\n" in format_text(HEAD + TWO)


def test_the_rulebook_says_each_flow_construct():
    ir = load(SETUP.replace("  rounds 2\n", "  ends when laps > 1\n")).ir
    text = to_markdown(rulebook(ir))
    assert "Turn up 1 card to the discard." in text and "Deal 1 card to each row, face up." in text
    assert "Rounds are played until, at the end of a round, the laps is more than 1" in text
    loop = to_markdown(rulebook(load(LOOP).ir))
    assert "Phases pick to tally are played again and again until every player's hand is empty" in loop
    assert "first the move for which the card's rank is highest" in loop
    assert "After each play or drop:" in to_markdown(rulebook(load(TWO).ir))
    assert "The phase ends when no player has a legal move." in loop


# ---- misuse: each a positioned error --------------------------------------------------------------------


@pytest.mark.parametrize(
    "body,marker,col,words",
    [
        (SETUP.replace("deal 1 to each row", "deal 1 to row"), "deal 1 to row", 3, "'row' is 2 zones"),
        (SETUP.replace("deal 2 to hand", "deal 2 to each hand"), "each hand", 3, "'hand' is kept per player"),
        (SETUP.replace("deal 2 to aside", "turn up 2 to aside"), "turn up 2", 3, "cards turned up go to a public zone"),
        (SETUP.replace("deal 2 to aside", "deal 2 to aside, one at a time"), "one at", 3, "to a shared zone"),
        (
            LOOP.replace("      resolve highest rank of card\n", "").replace(
                "  until", "      resolve lowest rank of card\n  until"
            ),
            "resolve lowest",
            7,
            "played in turns",
        ),
        (
            SETUP.replace("  phase play\n", "  at start\n    add 1 to count_ of player\n  phase play\n"),
            "count_ of player",
            24,
            "nobody's move",
        ),
        (SETUP.replace("  rounds 2\n", "  ends when nobody can move\n"), "nobody can", 3, "not the game"),
        (TWO.replace("after play, drop", "after play, dorp"), "dorp", 5, "no move 'dorp'"),
        (TWO.replace("after play, drop", "after drop, drop"), "after drop", 5, "names the same move twice"),
        (SETUP.replace("  rounds 2\n", ""), 'game "Flow"', 1, "nor when it ends"),
    ],
)
def test_each_misuse_is_a_positioned_error(body, marker, col, words):
    err = error(body)
    line = next(i for i, text in enumerate((HEAD + body).splitlines(), 1) if marker in text)
    assert words in err.message, err.format()
    assert (err.span.line, err.span.col) == (line, col), err.format()


def test_the_rules_own_effects_may_range_over_every_player():
    """`for each player` binds `player` itself: at the end of a round it is not the mover's name."""
    at_end = "  at end\n    set laps to max total of player for each player\n"
    game = load(SETUP.replace("  phase play\n", at_end + "  phase play\n", 1))
    state = game.new_game(2, seed=1)
    play_out(state)
    assert state.is_over


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts"])
@pytest.mark.parametrize("body", [SETUP, LOOP, TWO, ROUNDS_OF_CHOICES], ids=["setup", "loop", "two", "choices"])
def test_agents_play_games_that_use_the_flow_constructs(agent, body):
    """The agents see only their SeatView; the search agents' belief sampler replays the round from a
    sampled deal, set-up cards of hidden shared zones included."""
    from interpreter.simulation.simulate import simulate

    out = simulate(load(body), 3, 2, seed=7, agents=[agent] * 3)
    assert out["games"] == 2


def test_check_counts_flow_rules_and_calls_a_rare_safety_net_no_dead_rule(tmp_path):
    """`ends when nobody can move` is read only when nobody can move: never holding is no warning;
    a game's end condition is read after every round, even when the cap ends the game."""
    from interpreter.checker import check

    text = TWO.replace(
        "    ends when every hand is empty\n", "    ends when every hand is empty\n    ends when nobody can move\n"
    )
    text = text.replace("  rounds 1\n", "  rounds 1\n  ends when laps > 5\n")
    path = tmp_path / "net.rules"
    path.write_text(HEAD + text)
    report = check(str(path), games=20)
    dead = [f for f in report.findings if f.code == "dead-rule"]
    assert [f.at.line for f in dead] == [
        next(i for i, t in enumerate((HEAD + text).splitlines(), 1) if "laps > 5" in t)
    ]
    kinds = {c["kind"] for c in report.coverage}
    assert {"game end", "phase end when nobody can move"} <= kinds


def test_the_lexer_knows_the_flow_words():
    from pygments import lex
    from pygments.token import Keyword

    from interpreter.text.lexer import RulesLexer

    text = HEAD + LOOP + SETUP + "  at start\n    next dealer\n  at end\n    add 1 to laps\n"
    kinds = {v: t for t, v in lex(text, RulesLexer())}
    assert all(kinds[w] in Keyword for w in ("repeat", "until", "resolve", "at", "start", "end", "turn up"))
    assert kinds["nobody can move"] in Keyword


def test_diff_names_the_flow_rules_that_change():
    from interpreter.text.diff import diff

    a, b = load(SETUP).ir, load(SETUP.replace("  rounds 2\n", "  rounds 2\n  ends when laps > 1\n")).ir
    changes = [(c.change, c.item.label) for c in diff(a, b)]
    assert changes == [("added", "Game end")]


def test_a_variant_overrides_the_game_end_and_adds_a_phase_effect(tmp_path):
    (tmp_path / "base.rules").write_text(HEAD + SETUP)
    (tmp_path / "v.rules").write_text(
        'extends "base.rules"\ngame "Flow, to two laps"\nround\n  phase play\n    at end\n      add 1 to laps\n'
        "game\n  ends when laps >= 2\n"
    )
    ir = interpreter.ir_from_path(tmp_path / "v.rules")
    assert ir["game"]["ends"]["when"]["op"] == "cmp" and ir["game"]["rounds"]["value"] == 2
    assert ir["round"]["phases"][0]["at_end"]["effects"][0]["do"] == "add"
    assert ir["round"]["deals"][1]["face_up"] is True


def test_check_warns_that_a_game_without_a_cap_may_outlast_a_schedule(tmp_path):
    from interpreter.checker import check

    text = HEAD.replace("var laps = 0\n", "var laps = 0\nschedule size: 1, 2\n") + PLAIN_ROUND
    path = tmp_path / "sched.rules"
    path.write_text(text + "game\n  ends when laps > 5\n  winner highest total\n")
    found = [f for f in check(str(path), games=5).findings if f.code == "schedule-length"]
    line = text.splitlines().index("schedule size: 1, 2") + 1
    assert [(f.severity, f.at.line) for f in found] == [("warning", line)]
    assert "round 3 stops with an error" in found[0].message


# ---- a property: any mix of the flow constructs loads, plays, and keeps its meaning through fmt ----------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = {
    "turn up": "  turn up 1 to discard\n",
    "each": "  deal 1 to each row\n",
    "aside": "  deal 1 to aside\n",
    "round start": "  at start\n    add 1 to laps\n",
    "round end": "  at end\n    set count_ to laps\n",
    "round ends": "  ends when count pile >= 3\n",
}
PHASE_PIECES = {
    "phase start": "    at start\n      add 1 to laps\n",
    "phase end": "    at end\n      add 1 to laps\n",
    "two moves": "    after play, drop\n      add 1 to count_\n",
    "stuck": "    ends when nobody can move\n",
}


def _ruleset(round_parts: list[str], phase_parts: list[str], loop: bool, cap: bool, ends: bool) -> str:
    phase = "    move play card from hand to pile\n      require rank of card > 1\n"
    phase += "    move drop card from hand to discard\n      require rank of card < 6\n"
    phase += "".join(PHASE_PIECES[p] for p in phase_parts) + "    ends when every hand is empty\n"
    body = "round\n  deal 2 to hand\n" + "".join(PIECES[p] for p in round_parts if p in ("turn up", "each", "aside"))
    body += "".join(PIECES[p] for p in round_parts if p not in ("turn up", "each", "aside"))
    if loop:
        body += "  repeat\n    phase play\n" + phase.replace("\n    ", "\n      ").replace("    move", "      move", 1)
        body += "  until laps >= 0\n"
    else:
        body += "  phase play\n" + phase
    body += "  score\n    count hand of player\ngame\n"
    body += ("  rounds 2\n" if cap or not ends else "") + ("  ends when laps > 4 or round > 3\n" if ends else "")
    return HEAD + "\n" + body + "  winner lowest total\n"


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.sampled_from(sorted(PIECES)), unique=True),
    st.lists(st.sampled_from(sorted(PHASE_PIECES)), unique=True),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(0, 50),
)
def test_any_mix_of_flow_constructs_plays_replays_and_survives_fmt(round_parts, phase_parts, loop, cap, ends, seed):
    text = _ruleset(round_parts, phase_parts, loop, cap, ends)
    game = interpreter.loads(text, "mix.rules")
    canonical = format_text(text)
    assert format_text(canonical) == canonical
    again = interpreter.loads(canonical, "mix.rules")

    def strip(node):
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ("at", "note")}
        return [strip(x) for x in node] if isinstance(node, list) else node

    assert strip(again.ir) == strip(game.ir)
    state = game.new_game(3, seed)
    play_out(state)
    assert replay(game, record(state)).scores() == state.scores()
    assert sum(len(r["moves"]) for r in record(state)["rounds"]) > 0 or not state.history
