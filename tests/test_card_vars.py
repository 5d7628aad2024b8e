"""A variable that holds a card (docs/language.md, *A variable that holds a card*): declared
`card` or set to a card without a type, one and the same variable; the rules read it as a card,
and a seat is told which card it holds only where it sees that card, so a public variable never
tells a hidden card. Every tool takes it: check, render, fmt, show, the editor's hover."""

from __future__ import annotations

import random
import re

import pytest

import interpreter
from conftest import ROOT
from interpreter.errors import RulesetError, RulesTypeError

DOC = (ROOT / "docs" / "language.md").read_text()
REMEMBER = next(b for b in re.findall(r"```rules\n(.*?)```", DOC, flags=re.S) if b.startswith('game "Remember"'))


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.loads(REMEMBER, "remember.rules")


def var(state, name: str):
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index(name)]


def played(game, seed: int, moves: int | None = None):
    """A seeded game of random moves (all of it, or its first ``moves``), each state after a move."""
    state, rng = game.new_game(3, seed), random.Random(seed)
    while not state.is_over and (moves is None or moves > 0):
        state.apply(rng.choice(state.legal_moves()))
        moves = None if moves is None else moves - 1
        yield state


def test_an_untyped_variable_set_to_a_card_is_typed_and_told_as_a_declared_one():
    """`var peek = none` set to the stock's top card is a card variable as `secret` is, told to no
    seat alike; only a declared one may be read as a card (`rank of peek` needs `var peek card`)."""
    text = REMEMBER.replace("var secret card per round = none", "var secret card per round = none\nvar peek = none")
    text = text.replace(
        "    set secret to first card in stock\n", "    set secret to first card in stock\n    set peek to secret\n"
    )
    game = interpreter.loads(text, "t.rules")
    assert {v["name"]: v["type"] for v in game.ir["vars"]}["peek"] == "card"
    for state in played(game, 1):
        assert var(state, "peek") == var(state, "secret") is not None
        for seat in range(3):
            obs = state.observe(seat)
            assert obs["vars"]["peek"] is obs["vars"]["secret"] is None
            assert ["peek"] in obs["unseen_vars"] and ["secret"] in obs["unseen_vars"]
    with pytest.raises(RulesTypeError) as err:
        interpreter.loads(text.replace("suit of secret and", "suit of peek and"), "t")
    assert "'peek' has no declared type" in err.value.message and "`var peek card = none`" in err.value.hint


def test_the_rules_read_it_as_a_card_and_set_is_checked_against_it(game):
    for state in played(game, 3, 6):
        pile = state.zone_cards(state.layout.base[game.zone_index["pile"]])
        strongest = var(state, "strongest")
        assert max(game.cards.json[c]["rank"] for c in pile) == game.cards.json[strongest]["rank"]
    bad = REMEMBER.replace("      set strongest to card", "      set strongest to 3")
    with pytest.raises(RulesTypeError):
        interpreter.loads(bad, "t.rules")
    with pytest.raises(RulesetError):
        interpreter.loads(REMEMBER.replace("set secret to first card in stock", "set secret to player"), "t.rules")


@pytest.mark.parametrize("read", ["rank of strongest > 3", "player of strongest = player"])
def test_an_untyped_variable_read_as_a_card_is_told_to_declare_its_type(read):
    """Set to cards, an untyped variable is told as a card variable, but only a declared one is read
    as a card: reading the other so says which variable, what it cannot be read as, and the fix
    (the rules are read before what `set` gives it is known)."""
    text = REMEMBER.replace("var strongest card per round = none", "var strongest per round = none").replace(
        "2 if player of strongest = player", f"2 if {read}"
    )
    with pytest.raises(RulesTypeError) as err:
        interpreter.loads(text, "remember.rules")
    assert "'strongest' has no declared type" in err.value.message, err.value.format()
    assert "var strongest card = none" in (err.value.hint or "")
    line = text.splitlines()[err.value.span.line - 1]
    assert line[err.value.span.col - 1 :].startswith("strongest"), err.value.format()


def test_a_seat_is_told_the_card_only_where_it_sees_it(game):
    """`strongest` lies on the public pile: named to every seat. `secret` is the stock's hidden top
    card: public as a variable, yet no seat's observation, screen or table names it (`?`)."""
    from interpreter.play.terminal import screen
    from interpreter.play.web.views import seat_view

    for state in played(game, 4):
        secret, strongest = var(state, "secret"), var(state, "strongest")
        for seat in range(3):
            obs = state.observe(seat)
            assert obs["vars"]["secret"] is None and obs["unseen_vars"] == [["secret"]]
            assert obs["vars"]["strongest"] == strongest
            assert f"{game.cards.json[secret]}" not in repr(obs)
            line = next(x for x in screen(state, seat).splitlines() if x.startswith("variables: "))
            name = (
                "none" if strongest is None else " ".join(str(v) for v in list(game.cards.json[strongest].values())[1:])
            )
            assert line == f"variables: strongest {name}; secret ?"
            assert seat_view(state, seat)["vars"]["secret"] == "?"


def test_a_card_leaving_a_seats_sight_is_no_longer_named_to_it():
    """Each player's own last card, `owner sees`: its owner reads it while it is in hand; once it
    goes face down to the stock, nobody does (`?` to its owner, nothing to the others)."""
    text = REMEMBER.replace(
        "var secret card per round = none",
        "var secret card per round = none\nvar kept card per player, owner sees = none",
    ).replace(
        "    set secret to first card in stock\n",
        "    set secret to first card in stock\n"
        "    for each player\n"
        "      set kept of player to last card in hand of player\n",
    )
    text = text.replace(
        "    after play if", "    after play if card = kept of player\n      move card to stock\n    after play if"
    )
    game = interpreter.loads(text, "t.rules")
    state = game.new_game(3, 5)
    for seat in range(3):
        kept = var(state, "kept")[seat]
        assert state.observe(seat)["vars"]["kept"][seat] == kept
        assert state.observe((seat + 1) % 3)["vars"]["kept"][seat] is None
    seat = state.current_player
    kept = var(state, "kept")[seat]
    (move,) = [m for m in state.legal_moves() if m.card == kept]
    state.apply(move)
    obs = state.observe(seat)
    assert obs["vars"]["kept"][seat] is None and [["kept", seat]] == [x for x in obs["unseen_vars"] if x[0] == "kept"]


def test_every_tool_takes_it(game, tmp_path):
    from interpreter.checker import check
    from interpreter.editor.analysis import analyse
    from interpreter.language.schema import validator
    from interpreter.text.fmt import format_text
    from interpreter.text.render import render

    path = tmp_path / "remember.rules"
    path.write_text(REMEMBER)
    assert format_text(REMEMBER, str(path)) == REMEMBER
    report = check(str(path), games=20, jobs=1)
    assert not [f for f in report.findings if f.severity in ("error", "warning")]
    ir = interpreter.ir_from_path(path)
    assert not list(validator("ir").iter_errors(ir))
    book = render(ir)
    assert "Secret: a card, one for the game, set back each round, naming a card only to a seat that sees it" in book
    (strongest,) = analyse(str(path), REMEMBER).declared("strongest")
    assert "a card" in strongest.meaning and "only to a seat that sees it" in strongest.meaning


def test_a_sampled_trade_of_places_carries_the_variable_naming_the_card(game):
    """A search agent's sample trades two unseen cards' places (State.swap_cards): `secret` named
    the stock's top card, so it names the card now there, as the rules would have set it; a
    variable left naming the card that went into a hand would tell a sample the rules never reach."""
    state = next(s for s in played(game, 4) if var(s, "secret") is not None)
    top = var(state, "secret")
    stock = state.loc[top]
    assert state.zones[stock][0] == top
    elsewhere = next(c for c in range(len(state.loc)) if state.loc[c] not in (stock, -1))
    state.swap_cards(top, elsewhere)
    assert state.zones[stock][0] == elsewhere
    assert var(state, "secret") == elsewhere
