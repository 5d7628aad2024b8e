"""The invariant soak, a small slice of benchmarks/soak.py: random games of every shipped ruleset
at every player count keep every card in exactly one zone after every move, never deadlock,
always end, and replay to the very same record. And the checks are not blind."""

from __future__ import annotations

import pytest
from test_limits import ENDLESS

import interpreter
from conftest import RULESETS
from interpreter.simulation.invariants import card_problems, soak, soak_game

GAMES = 16  # per ruleset and player count: 13 of them, about 200 games in all
SHIPPED = sorted(RULESETS.glob("*.rules"))


def configurations() -> list[tuple[str, int]]:
    """Every shipped ruleset with every player count it allows."""
    out = []
    for path in SHIPPED:
        game = interpreter.load(path)
        out += [(path.name, n) for n in range(game.min_players, game.max_players + 1)]
    return out


@pytest.fixture(scope="module")
def games() -> dict[str, interpreter.Game]:
    return {path.name: interpreter.load(path) for path in SHIPPED}


@pytest.mark.parametrize(("name", "players"), configurations())
def test_random_games_keep_every_invariant(games, name: str, players: int) -> None:
    """Cards conserved and each in one zone after every move; no deadlock; the end; identical replay."""
    result = soak(games[name], players, GAMES, first_seed=1000 * players)
    assert result["problems"] == []
    assert result["moves"] > 0


def test_the_card_check_sees_a_lost_and_a_doubled_card(poison) -> None:
    """A card removed from its zone, and one put in two zones, are both reported."""
    state = poison.new_game(4, seed=3)
    assert card_problems(state) == []
    hand = state.layout.base[poison.zone_index["hand"]]
    lost = state.zones[hand].pop()
    assert any("in no zone" in p for p in card_problems(state))
    state.zones[hand].append(lost)
    state.zones[hand + 1].append(state.zones[hand][0])
    problems = card_problems(state)
    assert any("more than one place" in p for p in problems)
    assert any("but the state places it in" in p for p in problems)


def test_the_soak_reports_a_game_that_never_ends() -> None:
    """The endless game is a problem naming the move that loops, not a hang."""
    game = interpreter.loads(ENDLESS, "endless.rules")
    moves, problems = soak_game(game, 2, seed=1)
    assert moves == game.max_moves_per_round
    assert len(problems) == 1 and "move 'put'" in problems[0]


def test_the_soak_reports_a_deadlock() -> None:
    """Nobody may ever move and the phase never ends: reported as such."""
    move = "    move put card from hand to pile\n"
    stuck = ENDLESS.replace(move, move + "      require count pile > 5\n")
    moves, problems = soak_game(interpreter.loads(stuck), 2, seed=1)
    assert moves == 0
    assert problems and "nobody can move" in problems[0]


def test_a_game_whose_rounds_need_no_moves_replays() -> None:
    """Rules that deal nothing end every round at once; their record still replays identically."""
    text = (RULESETS / "poison.rules").read_text("utf-8")
    game = interpreter.loads(text.replace("  deal all to hand, one at a time, as 4 players when players = 3\n", ""))
    assert soak(game, 4, 3)["problems"] == []
