"""Variants as small files (interpreter/language/variants.py): extends, parameters, the five-card variant."""

from __future__ import annotations

import random

import pytest

import interpreter
from conftest import RULESETS, run_cli
from interpreter.errors import ExtendsError, ParameterError, RulesetError


def hand_sizes(state) -> list[int]:
    base = state.layout.base[state.game.zone_index["hand"]]
    return [len(state.zones[base + p]) for p in range(state.n)]


def test_the_five_card_variant_is_a_few_lines_of_rules():
    lines = (RULESETS / "poison-five-card.rules").read_text().splitlines()
    rules = [x for x in lines if x.strip() and not x.strip().startswith("#")]
    assert len(rules) <= 15


def test_five_card_variant_deals_five_each_and_the_rest_is_a_draw_pile(five_card):
    for players in (3, 4, 6):
        state = five_card.new_game(players, seed=players)
        assert hand_sizes(state) == [5] * players
        pile = state.zones[state.layout.base[five_card.zone_index["draw_pile"]]]
        assert len(pile) == 50 - 5 * players  # with three players too: no spare hand


def test_five_card_variant_draws_after_each_play_while_the_pile_lasts(five_card):
    state = five_card.new_game(4, seed=1)
    pile_zone = state.layout.base[five_card.zone_index["draw_pile"]]
    rng = random.Random(1)
    while state.zones[pile_zone]:
        player = state.current_player
        first = state.zones[pile_zone][0]
        state.apply(rng.choice(state.legal_moves()))
        assert state.loc[first] == state.layout.base[five_card.zone_index["hand"]] + player
        assert hand_sizes(state)[player] == 5


def test_five_card_round_ends_with_an_empty_pile_and_empty_hands_using_the_whole_deck(five_card):
    state = five_card.new_game(3, seed=2)
    rng = random.Random(2)
    while state.round == 0:
        state.apply(rng.choice(state.legal_moves()))
    assert len(state.history[0]["moves"]) == 50  # three players play every card of the deck
    assert state.rounds == 6  # rounds as in the base game


def test_five_card_record_lists_the_draw_pile_in_drawing_order(five_card):
    from interpreter.engine.records import record

    state = five_card.new_game(4, seed=4)
    rec_pile = record(state)["rounds"][0]["deal"]["draw_pile"]
    rng = random.Random(4)
    player = state.current_player
    state.apply(rng.choice(state.legal_moves()))
    hand = state.zones[state.layout.base[five_card.zone_index["hand"]] + player]
    assert five_card.cards.json[hand[-1]] == rec_pile[0]


def test_set_overrides_reach_the_rules(poison):
    assert poison.new_game(3, seed=1, params={"rounds": "3"}).rounds == 3
    state = poison.new_game(4, seed=1, params={"limit": 20})
    rng = random.Random(1)
    sums = []
    while state.round == 0:
        state.apply(rng.choice(state.legal_moves()))
        for inst in state.layout.instances[poison.zone_index["cauldron"]]:
            sums.append(sum(poison.cards.attrs["value"][c] for c in state.zones[inst]))
    assert max(sums) > 13  # a limit of 20 is observed: cauldrons go past 13
    assert max(sums) <= 20 + 7  # and overflow past 20 (the played card stays)


def test_an_unknown_or_badly_typed_parameter_names_the_ones_that_exist(poison):
    with pytest.raises(ParameterError, match="limit, rounds"):
        poison.new_game(4, params={"limt": 3})
    with pytest.raises(ParameterError, match="whole number"):
        poison.new_game(4, params={"limit": "high"})


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_variant_in_another_folder_finds_its_base_relative_to_itself(tmp_path):
    (tmp_path / "base").mkdir()
    write(tmp_path / "base", "poison.rules", (RULESETS / "poison.rules").read_text())
    variant = write(tmp_path, "v.rules", 'extends "base/poison.rules"\ngame "V"\nparam limit = 17\n')
    game = interpreter.load(variant)
    assert game.name == "V"
    assert game.param_values(4)["limit"] == 17


def test_a_missing_base_file_is_an_error_at_the_extends_line(tmp_path):
    variant = write(tmp_path, "v.rules", '# a variant\nextends "nowhere.rules"\n')
    with pytest.raises(ExtendsError) as info:
        interpreter.load(variant)
    assert info.value.span.line == 2 and "not found" in info.value.message


def test_an_extends_cycle_is_an_error(tmp_path):
    write(tmp_path, "a.rules", 'extends "b.rules"\ngame "A"\n')
    b = write(tmp_path, "b.rules", 'extends "a.rules"\ngame "B"\n')
    with pytest.raises(ExtendsError, match="cycle"):
        interpreter.load(b)


def test_overriding_what_the_base_does_not_have_names_the_base(tmp_path):
    write(tmp_path, "poison.rules", (RULESETS / "poison.rules").read_text())
    v = write(tmp_path, "v.rules", 'extends "poison.rules"\ngame "V"\nparam limt = 17\n')
    with pytest.raises(ExtendsError) as info:
        interpreter.load(v)
    text = info.value.format()
    assert "poison.rules has no parameter 'limt'" in text and "did you mean 'limit'" in text
    assert info.value.span.line == 3


def test_an_error_in_a_variant_points_at_the_variants_own_line(tmp_path):
    write(tmp_path, "poison.rules", (RULESETS / "poison.rules").read_text())
    v = write(
        tmp_path, "v.rules", 'extends "poison.rules"\ngame "V"\nround\n  phase play\n    ends when every hnd is empty\n'
    )
    with pytest.raises(RulesetError) as info:
        interpreter.load(v)
    assert info.value.span.file.endswith("v.rules") and info.value.span.line == 5


def test_a_variant_shows_as_one_whole_ir():
    base = interpreter.ir_from_path(RULESETS / "poison.rules")
    five = interpreter.ir_from_path(RULESETS / "poison-five-card.rules")
    assert five["name"] == "Poison, five-card variant"
    assert five["decks"] == base["decks"]
    assert [z["name"] for z in five["zones"]] == ["hand", "collected", "cauldron", "draw_pile"]
    assert len(five["round"]["phases"][0]["triggers"]) == 2


def test_cli_set_rounds_plays_three_rounds():
    out = run_cli(
        "simulate", "rulesets/poison.rules", "--players", "4", "--games", "2", "--set", "rounds=3", "--format", "json"
    )
    assert out.returncode == 0, out.stderr
    import json

    stats = json.loads(out.stdout)
    assert stats["rounds_per_game"] == 3 and stats["params"]["rounds"] == 3


def test_cli_bad_set_is_an_error_not_a_traceback():
    out = run_cli("simulate", "rulesets/poison.rules", "--players", "4", "--games", "1", "--set", "limt=3")
    assert out.returncode == 2
    assert "unknown parameter 'limt'" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("base", ["poison.rules", "poison"])
def test_a_variant_anywhere_extends_a_shipped_ruleset_by_name(tmp_path, base):
    """`extends "poison.rules"` in a folder that has no such file: the shipped Poison, as every
    command finds it by name."""
    variant = write(tmp_path, "v.rules", f'extends "{base}"\ngame "V"\nparam limit = 17\n')
    game = interpreter.load(variant)
    assert game.name == "V" and game.param_values(4)["limit"] == 17
    assert len(game.cards) == len(interpreter.load(RULESETS / "poison.rules").cards)


def test_a_base_file_beside_the_variant_comes_before_a_shipped_ruleset(tmp_path):
    """A file of that name beside the variant is the base (the shipped one is the fallback)."""
    write(tmp_path, "poison.rules", (RULESETS / "poison.rules").read_text().replace('game "Poison"', 'game "Mine"'))
    variant = write(tmp_path, "v.rules", 'extends "poison.rules"\nparam limit = 17\n')
    assert interpreter.load(variant).name == "Mine"


def test_a_missing_base_says_where_it_looked(tmp_path):
    """Not beside the variant, nor shipped: the error names the path tried and the shipped rulesets."""
    variant = write(tmp_path, "v.rules", 'extends "poisson.rules"\ngame "V"\n')
    with pytest.raises(ExtendsError) as info:
        interpreter.load(variant)
    message = info.value.message
    assert str(tmp_path / "poisson.rules") in message
    assert "shipped rulesets" in message and "poison.rules" in message
    assert "did you mean 'poison.rules'" in (info.value.hint or "")
