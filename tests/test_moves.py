"""Legal moves and what a play triggers (interpreter/engine/moves.py, effects.py), by AMIGO Poison's rules."""

from __future__ import annotations

from conftest import card, position

POISON = card("poison", color="green", value=4)


def potion(color: str, value: int) -> dict:
    return card("potion", color=color, value=value)


def targets(state, wanted: dict) -> list[int]:
    """The cauldron indices the current player may play ``wanted`` into."""
    lay, game = state.layout, state.game
    return sorted(lay.number[m.target] for m in state.legal_moves() if game.cards.json[m.card] == wanted)


def cauldrons(*piles: list[dict]) -> dict:
    return {"cauldron": [list(p) for p in piles]}


def hands(seat1: list[dict], others: int = 3) -> dict:
    """Seat 1 (the dealer's left, who moves first) holds ``seat1``; seats 2.. hold nothing."""
    return {"hand": [[], seat1] + [[] for _ in range(others - 1)]}


def test_a_potion_must_go_to_the_cauldron_of_its_color(poison):
    blue = potion("blue", 2)
    state = position(poison, 4, {**cauldrons([potion("red", 1)], [potion("blue", 1)], []), **hands([blue])})
    assert state.current_player == 1
    assert targets(state, blue) == [1]


def test_a_potion_of_a_new_color_goes_to_any_undetermined_cauldron(poison):
    violet = potion("violet", 5)
    state = position(poison, 4, {**cauldrons([potion("red", 1)], [POISON], []), **hands([violet])})
    assert targets(state, violet) == [1, 2]  # the poison-only cauldron and the empty one


def test_a_potion_never_goes_to_a_cauldron_of_another_color(poison):
    violet = potion("violet", 5)
    state = position(
        poison,
        4,
        {**cauldrons([potion("red", 1)], [potion("blue", 1)], [potion("violet", 1)]), **hands([violet])},
    )
    assert targets(state, violet) == [2]


def test_the_color_of_a_cauldron_is_its_first_potion_even_under_poison(poison):
    red = potion("red", 2)
    state = position(poison, 4, {**cauldrons([POISON, potion("red", 1)], [], []), **hands([red])})
    assert targets(state, red) == [0]


def test_poison_goes_into_any_cauldron(poison):
    state = position(
        poison,
        4,
        {**cauldrons([potion("red", 1)], [potion("blue", 1)], [potion("violet", 1)]), **hands([POISON])},
    )
    assert targets(state, POISON) == [0, 1, 2]


def play(state, wanted: dict, cauldron: int) -> None:
    move = next(
        m
        for m in state.legal_moves()
        if state.game.cards.json[m.card] == wanted and state.layout.number[m.target] == cauldron
    )
    state.apply(move)


def zone(state, name: str, index: int) -> list[dict]:
    game, lay = state.game, state.layout
    return [game.cards.json[c] for c in state.zone_cards(lay.instances[game.zone_index[name]][index])]


def test_rulebook_example_1_a_two_fills_to_13_and_stays_a_four_takes_the_three_cards(poison):
    # Karl (seat 1) plays a 2 that fills the cauldron to 13; Sarah (seat 2) plays a 4 and exceeds it.
    two, four = potion("red", 2), potion("red", 4)
    start = [potion("red", 7), potion("red", 4)]
    state = position(
        poison,
        4,
        {**cauldrons(start, [], []), "hand": [[], [two], [four], [potion("blue", 1)]]},
        params={"rounds": 2},
    )
    play(state, two, 0)
    assert zone(state, "cauldron", 0) == [*start, two]
    assert zone(state, "collected", 1) == []
    play(state, four, 0)
    assert zone(state, "cauldron", 0) == [four]
    assert zone(state, "collected", 2) == [*start, two]


def test_rulebook_example_2_a_five_takes_the_cauldron_with_its_poison(poison):
    # Richard (seat 1) plays poison, filling to 11; Johann (seat 2) plays a 5 and takes both cards.
    five = potion("red", 5)
    state = position(
        poison,
        4,
        {**cauldrons([potion("red", 7)], [], []), "hand": [[], [POISON], [five], [potion("blue", 1)]]},
        params={"rounds": 2},
    )
    play(state, POISON, 0)
    assert sum(c["value"] for c in zone(state, "cauldron", 0)) == 11
    play(state, five, 0)
    assert zone(state, "cauldron", 0) == [five]
    assert zone(state, "collected", 2) == [potion("red", 7), POISON]


def test_a_player_whose_hand_is_empty_is_skipped(poison):
    state = position(poison, 4, {"hand": [[potion("red", 1)], [], [], [potion("blue", 1)]]}, params={"rounds": 2})
    assert state.current_player == 3  # seat 1 and 2 hold nothing
    state.apply(state.legal_moves()[0])
    assert state.current_player == 0


def test_legal_moves_come_in_a_fixed_order(poison):
    state = poison.new_game(4, seed=5)
    moves = state.legal_moves()
    hand = state.zones[state.layout.base[poison.zone_index["hand"]] + state.current_player]
    order = {c: i for i, c in enumerate(hand)}
    assert moves == sorted(moves, key=lambda m: (m.rule, order[m.card], m.target))
