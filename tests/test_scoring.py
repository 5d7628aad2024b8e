"""Scoring (interpreter/engine/scoring.py) with AMIGO Poison's rules: the rulebook's own example."""

from __future__ import annotations

from conftest import card, position


def potion(color: str, value: int = 1) -> dict:
    return card("potion", color=color, value=value)


POISON = card("poison", color="green", value=4)


def collections() -> list[list[dict]]:
    """The collections of the rulebook's scoring example: Sarah, Richard, Karl, Johann."""

    def many(color: str, n: int) -> list[dict]:
        return [potion(color) for _ in range(n)]

    sarah = many("blue", 3) + many("red", 2) + [POISON]
    richard = many("red", 6) + many("violet", 2)
    karl = many("blue", 2) + many("red", 5) + many("violet", 6) + [POISON] * 2
    johann = many("blue", 6) + many("red", 1) + many("violet", 6) + [POISON] * 4
    return [sarah, richard, karl, johann]


def fit(seats: list[list[dict]], game) -> list[list[dict]]:
    """Give each potion a value the deck still has, so that the collections are a possible deal."""
    left: dict = {}
    for data in game.cards.json:
        key = (data["type"], data["color"], data["value"])
        left[key] = left.get(key, 0) + 1
    out = []
    for cards in seats:
        mine = []
        for c in cards:
            if c["type"] == "poison":
                mine.append(c)
                continue
            value = next(v for v in (1, 2, 4, 5, 7) if left.get(("potion", c["color"], v), 0))
            left[("potion", c["color"], value)] -= 1
            mine.append(potion(c["color"], value))
        out.append(mine)
    return out


def test_rulebook_scoring_example_sarah_7_richard_2_karl_17_johann_15(poison):
    seats = fit(collections(), poison)
    state = position(poison, 4, {"collected": seats})
    assert state.is_over  # no cards in hand: the round is scored at once
    assert state.history[0]["scores"] == [-7, -2, -17, -15]
    assert state.winners() == [1]  # Richard, with the fewest minus points


def test_a_tie_for_the_most_of_a_color_spares_nobody(poison):
    two_each = [[potion("red", 1), potion("red", 2)], [potion("red", 5), potion("red", 7)], [], []]
    state = position(poison, 4, {"collected": two_each})
    assert state.history[0]["scores"] == [-2, -2, 0, 0]


def test_the_most_poison_cards_still_score_two_each(poison):
    state = position(poison, 4, {"collected": [[POISON] * 3, [POISON], [], []]})
    assert state.history[0]["scores"] == [-6, -2, 0, 0]


def test_cards_left_in_cauldrons_do_not_count(poison):
    state = position(poison, 4, {"cauldron": [[potion("red", 7)], [POISON], []]})
    assert state.history[0]["scores"] == [0, 0, 0, 0]
