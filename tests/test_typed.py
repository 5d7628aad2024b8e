"""Typed variables, state kept per team, `unique highest|lowest`, and definitions whose parameters
say their type or have it inferred through calls and comparisons (issue 24 items 3-4, issue 30
item 7): what each means in play, the errors at their place, and every tool that shows them."""

from __future__ import annotations

import random
import re

import pytest
from pygments import lex

import interpreter
from conftest import ROOT
from interpreter.errors import RulesetError, RulesTypeError, UnknownNameError
from interpreter.simulation.report import run_text
from interpreter.simulation.simulate import simulate
from interpreter.text.fmt import format_text
from interpreter.text.lexer import RulesLexer

DOC = (ROOT / "docs" / "language.md").read_text()
# The reference's example of these constructs: a whole game.
MAKERS = next(b for b in re.findall(r"```rules\n(.*?)```", DOC, flags=re.S) if b.startswith('game "Makers"'))


def load(text: str) -> interpreter.Game:
    return interpreter.loads(text, "t.rules")


def error(text: str) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load(text)
    return info.value


def at(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle)
    return text.count("\n", 0, start) + 1, start - (text.rfind("\n", 0, start) + 1) + 1


def var(state, name: str):
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index(name)]


def play_out(state, seed: int = 1) -> None:
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))


@pytest.fixture(scope="module")
def makers() -> interpreter.Game:
    return load(MAKERS)


def test_a_typed_variable_holds_a_player_that_rules_read_as_one(makers):
    state = makers.new_game(4, 3)
    assert var(state, "maker") == [None] * 4 or var(state, "maker") is None
    first = state.current_player
    state.apply(state.legal_moves()[0])
    assert var(state, "maker") == first and var(state, "trump") in ("clubs", "hearts", "spades")
    # `hand of maker` is a zone: the untyped `var maker = none` could not say so
    text = MAKERS.replace("var maker player per round = none", "var maker per round = none")
    text = text.replace("if maker is none", "if count hand of maker = 0")
    err = error(text)
    assert "'maker' has no declared type, so `hand of maker` cannot be read" in err.message
    assert "`var maker player = none`" in err.hint


def test_a_typed_variable_is_checked_where_it_is_set():
    text = MAKERS.replace("set maker to player", "set maker to 3")
    err = error(text)
    assert isinstance(err, RulesTypeError) and (err.span.line, err.span.col) == at(text, "3\n")
    err = error(MAKERS.replace("var trump suit per round", "var trump colour per round"))
    assert "'colour' is not a type" in err.message and "attribute" in err.hint
    err = error(MAKERS.replace("set trump to suit of card", "set trump to card"))  # a card is no suit
    assert isinstance(err, RulesTypeError) and (err.span.line, err.span.col) == at(MAKERS, "suit of card\n")


def test_a_team_variable_is_read_and_written_by_team_and_each_member_holds_it(makers):
    state = makers.new_game(4, 5)
    for _ in range(8):  # two tricks of four cards
        state.apply(state.legal_moves()[0])
        tricks = var(state, "tricks")
        assert tricks[0] == tricks[2] and tricks[1] == tricks[3]  # partners across: seats 0 and 2
    assert tricks[0] + tricks[1] == 2  # each trick counted once, for the side that took it
    play_out(state)
    totals = state.totals
    assert totals[2] == 0 and totals[3] == 0  # a side's points are written on its first seat


def test_a_team_variable_must_be_said_of_a_team():
    err = error(MAKERS.replace("add 1 to tricks of team of player of winning", "add 1 to tricks of winning"))
    assert "kept per team" in err.message
    err = error(MAKERS.replace("each team: tricks of team if", "each team: tricks of dealer if"))
    assert "kept per team" in err.message and "tricks of team of dealer" in err.message
    err = error(MAKERS.replace("var tricks per team per round = 0", "var tricks per team, owner sees = 0"))
    assert "no owner" in err.message
    whist = (ROOT / "examples" / "classics" / "oh_hell.rules").read_text()
    err = error(whist.replace("var bids number per player per round = none", "var bids number per team = none"))
    assert "there are no teams" in err.message


def test_unique_highest_is_false_on_a_tie_and_over_nothing():
    text = MAKERS.replace(
        "define clear_win = unique highest of rank in trick",
        "define clear_win = unique highest of rank in trick\ndefine low_one = unique lowest of rank in trick",
    )
    game = load(text)
    ir = {d["name"]: d["body"] for d in game.ir["defines"]}
    assert ir["clear_win"]["op"] == "unique" and ir["low_one"]["agg"] == "unique_min"
    from interpreter.engine.player_exprs import unique_extreme

    assert unique_extreme([3, 5, 4], "unique_max") and not unique_extreme([5, 3, 5], "unique_max")
    assert unique_extreme([5, 3, 5], "unique_min") and not unique_extreme([], "unique_max")
    err = error(MAKERS.replace("unique highest of rank in trick", "unique highest of suit in trick"))
    assert "number attribute" in err.message


def test_unique_highest_decides_in_play(makers):
    """`each team: 1 if unique highest tricks of team for each team`: 3 tricks between two sides
    never tie, so exactly one side scores the point every round."""
    state = makers.new_game(4, 2)
    play_out(state, 2)
    for r in state.history:
        scores = r["scores"]
        assert scores[2] == scores[3] == 0 and scores[0] + scores[1] >= 1


def test_parameters_are_typed_by_declaration_calls_and_comparisons(makers):
    params = {d["name"]: d.get("params") for d in makers.ir["defines"]}
    assert [p["type"] for p in params["follows"]] == ["card", "text"]  # declared
    assert [p["type"] for p in params["may_follow"]] == ["card"]  # through the call of follows
    base = MAKERS.replace("define may_follow(c) = follows(c, led)", "define same(c, hue) = suit of c = hue")
    base = base.replace("may_follow(card)", "same(card, led)")
    assert [p["type"] for p in load(base).ir["defines"][2]["params"]] == ["card", "text"]  # through `=`
    zoned = MAKERS.replace("define led =", "define size(z hand) = count z\ndefine led =")
    assert {d["name"]: d.get("params") for d in load(zoned).ir["defines"]}["size"][0]["zone"] == "hand"


def test_a_parameter_nothing_types_is_an_error_at_the_parameter_with_the_declaration_to_write():
    text = MAKERS.replace("define led =", "define pick(a, b) = if a then b else none\ndefine led =")
    err = error(text)
    assert isinstance(err, RulesTypeError) and (err.span.line, err.span.col) == at(text, "b) =")
    assert "parameter 'b'" in err.message and "`pick(a, b card)`" in err.hint
    err = error(MAKERS.replace("define follows(c card, hue suit)", "define follows(c card, hue shade)"))
    assert isinstance(err, UnknownNameError) and "'shade' is not a type" in err.message


def test_definitions_that_call_each_other_are_an_error_not_a_loop_of_inference():
    text = MAKERS.replace(
        "define led =", "define ping(c) = rank of c > 1 and pong(c)\ndefine pong(d) = ping(d)\ndefine led ="
    )
    text = text.replace("if clear_win", "if clear_win and ping(card)")
    assert "refers to itself" in error(text).message  # (not a recursion of the inference)


def test_the_new_forms_format_render_and_lex():
    assert format_text(MAKERS, "t.rules") == MAKERS
    messy = MAKERS.replace("var maker player per round", "var  maker   player  per   round")
    assert format_text(messy, "t.rules") == MAKERS
    from interpreter.text.render import render

    text = render(load(MAKERS).ir, "markdown", {}, None)
    assert "one for each team" in text and "a player" in text and "exactly one" in text
    tokens = {v: t for t, v in lex(MAKERS, RulesLexer()) if v.strip()}
    assert "per team" in tokens and "unique highest" in tokens


def test_simulate_gives_a_team_games_rounds_by_team(makers):
    stats = simulate(makers, 4, 6, seed=1)
    assert all(len(r["teams"]) == 2 for r in stats["per_round"])
    text = run_text({**stats, "ruleset": "makers", "params": {}, "seed": 1})
    assert "team 0 (0,2)" in text and "team 1 (1,3)" in text


def test_evaluate_reads_a_team_game_by_team(makers):
    """Its balance has a row per team, and the lead is a team's: partners lead together."""
    from interpreter.simulation.evaluate_report import balance_text
    from interpreter.simulation.measures import by_team

    assert by_team([1, 0, 2, 0], [[0, 2], [1, 3]]) == [3, 0, 3, 0]
    assert by_team([1, 0, 2], None) == [1, 0, 2]
    stats = simulate(makers, 4, 6, seed=2)
    keys = ("seats", "fair_share", "first_player", "length", "teams", "seats_differ_by_agent")
    text = "\n".join(balance_text({k: stats[k] for k in keys}))
    assert "team 0 (0,2)" in text and "mean total" in text


def test_the_terminal_and_the_table_name_a_player_variables_seat(makers):
    from interpreter.play.terminal import screen
    from interpreter.play.web.views import seat_view

    state = makers.new_game(4, 3)
    first = state.current_player
    state.apply(state.legal_moves()[0])
    assert f"maker seat {first}" in screen(state, (first + 1) % 4)
    assert "maker you" in screen(state, first)
    assert seat_view(state, 0)["player_vars"] == ["maker"]


def test_the_editor_knows_a_typed_parameter_as_a_local_and_its_type_as_none():
    from interpreter.editor.locals import locals_of

    found = {(x.name, x.kind, x.owner) for x in locals_of("t.rules", MAKERS) if x.kind == "parameter"}
    assert ("c", "parameter", "follows") in found and ("hue", "parameter", "follows") in found
    assert not {name for name, _, _ in found} & {"card", "suit"}
