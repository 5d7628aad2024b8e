"""verify's memo of scoring (verify/score_memo.py): a final state is scored once for each content
of what the score rules read. Exact or useless: the report must be the one scoring every state
gives, and a rule reading what the key cannot hold turns the memo off."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_verify_deals import GAMES, RULESETS, _report

from conftest import TINY_RULES
from interpreter.engine.game import compile_ir
from interpreter.loader import ir_from_path, ir_from_text
from interpreter.verify import score_memo
from interpreter.verify.chance import _advance, _groups, _order, _placed_groups, orders, placed
from interpreter.verify.explore import explore


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g[0].stem)
def test_the_score_memo_leaves_the_report_as_it_was(game, monkeypatch):
    remembered = _report(*game)
    monkeypatch.setattr(score_memo, "install", lambda game, players: None)  # every state scored afresh
    assert _report(*game) == remembered


def test_amigo_scores_its_final_states_from_a_few_hundred_contents_and_the_game_forgets_the_memo(monkeypatch):
    made = []
    install = score_memo.install
    monkeypatch.setattr(score_memo, "install", lambda game, players: made.append(install(game, players)))
    game = compile_ir(ir_from_path(str(RULESETS / "poison.rules")), coverage=True)
    from interpreter.verify.shrink import shrink

    game = compile_ir(
        shrink(game.ir, ["potion.color=red,blue", "potion.value=1"], ["potion=1", "poison=2"], []), coverage=True
    )
    result = explore(game, 3, {"rounds": "1", "limit": "3"})
    memo = made[0]
    assert memo is not None and not memo.off
    assert memo.calls > 10 * len(memo.known)  # (the collected piles repeat: most final states are remembered)
    assert result.complete and game.score_memo is None  # (taken away once the search is over)


def test_what_the_score_rules_read_is_keyed_and_what_cannot_be_keyed_turns_the_memo_off():
    ir = ir_from_text(TINY_RULES)
    assert score_memo.score_reads(ir) == (frozenset({"pile"}), frozenset(), frozenset())
    kedric = ir_from_path(str(RULESETS / "poison-kedric-winks.rules"))  # a variable, and `achieved` conditions
    assert score_memo.score_reads(kedric) == (
        frozenset({"won", "agenda_up", "agenda_down"}),
        frozenset({"trick_points"}),
        frozenset(),
    )
    known = ir_from_text(TINY_RULES.replace("where color of it = red: 1", "where known color of it to player = red: 1"))
    assert score_memo.score_reads(known) is None  # (what a seat was told: not in the key)


def test_a_memo_whose_keys_are_mostly_new_is_given_up():
    game = compile_ir(ir_from_text(TINY_RULES))
    state = game.new_game(2, 0)
    same = score_memo.ScoreMemo(game, 2, frozenset({"pile"}), frozenset(), frozenset())
    new = score_memo.ScoreMemo(game, 2, frozenset({"pile"}), frozenset(), frozenset({"totals"}))
    for n in range(score_memo.TRIAL):
        state.totals[0] = n  # (a new key for the memo that reads the totals)
        assert same.scored(state, lambda s, n=n: [[n], [0]]) == [[0], [0]]  # the first scoring, remembered
        assert new.scored(state, lambda s, n=n: [[n], [0]]) == [[n], [0]]
    assert not same.off and len(same.known) == 1
    assert new.off and not new.known  # (given up: every state is scored afresh from now on)
    assert new.scored(state, lambda s: [[7], [0]]) == [[7], [0]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=6), st.lists(st.integers(0, 2), min_size=1, max_size=4))
def test_deals_told_from_groups_are_those_told_from_card_ids(first, second):
    """Every combination of two shuffles' orders, walked by groups (chance._advance), tells each
    deal (``_placed_groups``) as ``placed`` tells it from the orders' card ids."""
    tokens = [first, second]
    cards = [list(range(len(first))), list(range(len(first), len(first) + len(second)))]
    classes = bytes(first + second)
    n = len(classes)
    places = [list(range(0, n, 2)), list(range(1, n, 2))]
    sorted_at = bytes([1, 0])
    grouped = [_groups(cs, ts) for cs, ts in zip(cards, tokens, strict=True)]
    seqs, ids = [seq for seq, _ in grouped], [same for _, same in grouped]
    kinds = [bytes([classes[same[0]] for same in groups]) for groups in ids]
    expected = [(a, b) for a in orders(cards[0], tokens[0]) for b in orders(cards[1], tokens[1])]
    walked = []
    while True:
        script = tuple(_order(seqs[k], ids[k], [0] * len(ids[k])) for k in range(2))
        walked.append(script)
        told = _placed_groups(seqs, kinds, [bytes(p) for p in places], sorted_at)
        assert told == placed(script, places, classes, sorted_at)
        if not _advance(seqs):
            break
    assert walked == expected
