"""verify's memo of legal moves (verify/move_memo.py): a move rule's moves listed once for each
content of what its guards read. Exact or not made: every state's moves are the rule's own, the
report is the one listing every state's moves gives, and a rule reading what the key cannot hold
keeps its own generator."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_build import _declared
from test_verify_deals import GAMES, RULESETS, _report

from conftest import TINY_RULES
from interpreter.engine.game import compile_ir
from interpreter.loader import ir_from_path, ir_from_text
from interpreter.verify import move_memo, score_memo
from interpreter.verify.explore import explore
from interpreter.verify.properties import Properties
from interpreter.verify.shrink import shrink

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# every shipped ruleset and example whose move rules have guards, at its fewest players
GUARDED = sorted([*RULESETS.glob("*.rules"), *EXAMPLES.glob("*.rules"), *(EXAMPLES / "classics").glob("*.rules")])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g[0].stem)
def test_the_move_memo_leaves_the_report_as_it_was(game, monkeypatch):
    remembered = _report(*game)
    monkeypatch.setattr(move_memo, "install", lambda game, players: [])  # every state's moves listed afresh
    assert _report(*game) == remembered


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GUARDED), st.integers(0, 2**32))
def test_remembered_moves_are_the_rules_own_in_every_state_of_a_random_game(path, seed):
    """Along a random game, each rule's memo (shared by every state, so most listings are
    remembered ones) lists exactly what the rule's own generator lists, in its order."""
    game = compile_ir(ir_from_path(str(path)))
    players = game.min_players
    memos = move_memo.install(game, players)
    try:
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        for _ in range(200):
            if state.over:
                break
            for _rule, memo in memos:
                for p in range(players):
                    remembered, own = [], []
                    memo.moves(state, p, remembered)
                    memo.moves(state, p, [])  # (now surely from the memo)
                    memo.generate(state, p, own)
                    assert remembered == own
            moves = state.legal_moves()
            state.apply(rng.choice(moves))
    finally:
        move_memo.uninstall(memos)


def test_amigo_lists_its_moves_from_a_few_thousand_contents_and_the_rules_get_their_generators_back(monkeypatch):
    made = []
    install = move_memo.install
    monkeypatch.setattr(move_memo, "install", lambda game, players: made.append(install(game, players)) or made[-1])
    game = compile_ir(
        shrink(
            ir_from_path(str(RULESETS / "poison.rules")),
            ["potion.color=red,blue", "potion.value=1,2"],
            ["potion=1", "poison=2"],
            [],
        ),
        coverage=True,
    )
    own = [rule.generate for rule in game.moves]
    result = explore(game, 3, {"rounds": "1", "limit": "3"})
    ((rule, memo),) = made[0]
    assert rule.name == "play" and not memo.off
    assert memo.calls > 5 * len(memo.known)  # (the mover's hand and the cauldrons repeat)
    # the mover's hand (one instance a seat) and the three cauldrons: not what was collected
    lay = game.layout(3)
    hands, cauldrons = (lay.instances[game.zone_index[z]] for z in ("hand", "cauldron"))
    assert memo.instances == tuple(tuple(sorted({hands[p], *cauldrons})) for p in range(3))
    assert result.complete and [rule.generate for rule in game.moves] == own  # (given back)


def test_a_rule_whose_guards_read_what_no_key_holds_keeps_its_own_generator():
    guarded = TINY_RULES.replace(
        "    move play card from hand to pile\n",
        "    move play card from hand to pile\n      require count cards in pile < 5\n",
    )
    game = compile_ir(ir_from_text(guarded))
    ((_, memo),) = move_memo.install(game, 2)
    assert memo.instances == ((0, 2), (1, 2))  # the seat's hand and the pile (zone instances)
    known = guarded.replace("require count cards in pile < 5", "require known color of card to player = red")
    game = compile_ir(ir_from_text(known))
    assert move_memo.install(game, 2) == []  # (what a seat was told: not in the key)
    unguarded = compile_ir(ir_from_text(TINY_RULES))  # (no guard: every card listed at once)
    assert move_memo.install(unguarded, 2) == []


def test_a_memo_whose_keys_are_mostly_new_is_given_up():
    game = compile_ir(ir_from_text(TINY_RULES))
    state = game.new_game(2, 0)
    calls = []

    def listed(s, p, out):
        calls.append(p)
        out.append(len(calls))

    memo = move_memo.MoveMemo(listed, ((), ()), (), ("totals",))
    for n in range(score_memo.TRIAL):
        state.totals[0] = n  # (a new key each time)
        out = []
        memo.moves(state, 0, out)
        assert out == [n + 1]
    assert memo.off and not memo.known
    memo.moves(state, 0, [])
    memo.moves(state, 0, [])
    assert len(calls) == score_memo.TRIAL + 2  # (given up: listed afresh every time)


def test_the_typed_memo_and_properties_declare_exactly_the_fields_the_source_sets():
    """The memos and Properties are extension types in the compiled engine (their .pxd files): a
    field the source sets that the .pxd does not declare fails there only, at run time."""
    game = compile_ir(ir_from_path(str(RULESETS / "poison.rules")), coverage=True)
    ((_, memo),) = move_memo.install(game, 3)
    move_memo.uninstall([(game.moves[0], memo)])

    def declared(pxd: str) -> dict[str, list[str]]:  # (by the class's name, its base left out)
        return {name.split("(")[0]: fields for name, fields in _declared(pxd).items()}

    keyed = declared("verify/score_memo.pxd")["KeyedMemo"]  # (the base both memos share)
    assert sorted(declared("verify/move_memo.pxd")["MoveMemo"] + keyed) == sorted(vars(memo))
    score = score_memo.install(game, 3)
    score_memo.uninstall(game)
    assert sorted(declared("verify/score_memo.pxd")["ScoreMemo"] + keyed) == sorted(vars(score))
    assert sorted(_declared("verify/properties.pxd")["Properties"]) == sorted(vars(Properties(game, 3)))
