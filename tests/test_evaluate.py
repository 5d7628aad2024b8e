"""`ruleset evaluate`: the game-quality measures tell luck from skill, forced moves from choices,
and an unfair seat from a fair one (docs/evaluate.md)."""

from __future__ import annotations

import json

import pytest

import interpreter
from conftest import EXAMPLES, run_cli
from interpreter.engine.moves import Move
from interpreter.simulation.evaluate import evaluate, parse_pair, skill_run
from interpreter.simulation.measures import choices, drama

# Pure luck: a card each, shown, the highest wins; nobody ever has a choice. The last score rule
# can never give points (one round): a rule that never fires.
HIGH_CARD = """\
game "High card"
players 2..4

cards
  card  rank 1..13

zones
  hand   per player, owner sees
  shown  per player, public

round
  deal 1 to hand
  phase show
    move show card from hand to shown
    ends when every hand is empty
  score
    1 if max of rank in shown of player = max of rank in shown
    5 if round > 1

game
  rounds 1
  winner highest total
"""

CHEAP_MCTS = "mcts(iterations=10,samples=2)"


@pytest.fixture(scope="module")
def high_card(tmp_path_factory) -> interpreter.Game:
    path = tmp_path_factory.mktemp("rules") / "high-card.rules"
    path.write_text(HIGH_CARD)
    return interpreter.load(path)


@pytest.fixture(scope="module")
def luck(high_card) -> dict:
    pairs = (f"{CHEAP_MCTS}/random", "greedy/random")
    return evaluate(high_card, 3, games=60, seed=0, pairs=pairs, skill_games=60)


def test_a_game_of_pure_luck_has_no_skill_gap(luck):
    """Neither mcts nor greedy wins more than its fair share when nothing can be decided."""
    assert [s["agent"] for s in luck["skill"]] == [CHEAP_MCTS, "greedy"]
    for s in luck["skill"]:
        lo, hi = s["gap"]["ci"]
        assert lo <= 0 <= hi and not s["gap"]["significant"]
        assert s["games"] == 60 and s["fair_share"] == pytest.approx(1 / 3)


def test_a_game_of_pure_luck_has_only_forced_decisions(luck):
    """Every decision offers one move: 100% forced, one choice per decision, one decision per player."""
    d = luck["decisions"]
    assert d["forced"]["mean"] == 1.0 and d["forced"]["ci"] == [1.0, 1.0]
    assert d["choices"]["mean"] == 1.0 and d["legal"]["mean"] == 1.0 and d["distribution"] == [[1, 180]]
    assert d["per_player"]["mean"] == 1.0 and d["free_per_player"]["mean"] == 0.0


def test_a_rule_that_cannot_fire_is_listed_as_never_firing(luck):
    """`5 if round > 1` in a one-round game never fires; the phase's end fires in every game."""
    never = [r["text"] for r in luck["rules"]["never"]]
    always = [r["text"] for r in luck["rules"]["always"]]
    assert never == ["5 if round > 1"]
    assert "ends when every hand is empty" in always


def test_in_high_card_the_first_to_show_leads_until_a_higher_card_is_shown(luck):
    """The lead follows the cards shown: a winner who shows later was behind first (so the winner was
    behind after some moves, and the game is decided only after the deal); the margin is the 1 point."""
    dr = luck["drama"]
    assert dr["winner_behind"]["mean"] > 0 and 0 < dr["decided_at"]["mean"] <= 1
    assert dr["lead_changes"]["min"] >= 1  # the tie after the deal is broken by the first show
    assert dr["margin"]["mean"] == 1.0


def test_poison_rewards_skill_mcts_and_greedy_beat_random(poison):
    """AMIGO Poison: a cheap mcts and greedy both win clearly more than their fair share against random."""
    for pair in (f"{CHEAP_MCTS}/random", "greedy/random"):
        run = skill_run(poison, 3, parse_pair(pair), 15, 0, {"rounds": 3})
        assert run["gap"]["ci"][0] > 0 and run["gap"]["significant"]
        assert run["score_lead"]["ci"][0] > 0


def test_seat_zero_wins_shows_an_advantage_for_seat_zero_after_holm():
    """examples/seat-zero-wins.rules: seat 0 wins every game; the advantage survives Holm's correction."""
    game = interpreter.load(EXAMPLES / "seat-zero-wins.rules")
    stats = evaluate(game, 3, games=30, pairs=(), skill_games=1)
    b = stats["balance"]
    assert b["correction"] == "holm" and 0 in b["seat_advantage"]
    seat0 = b["seats"][0]["advantage"]
    assert seat0["value"] > 0 and seat0["significant"] and seat0["p_adjusted"] < 0.05
    assert stats["skill"] == []


def test_evaluate_gives_the_same_figures_over_processes(five_card):
    """--jobs 2 plays the same games as a serial run: every figure but the time is equal."""
    kwargs = {"games": 12, "seed": 3, "params": {"rounds": 1}, "pairs": ("greedy/random",), "skill_games": 6}
    kwargs["agents"] = "random"
    serial = evaluate(five_card, 3, **kwargs)
    spread = evaluate(five_card, 3, jobs=2, **kwargs)
    for run in (serial, spread):
        del run["seconds"], run["jobs"]
    assert serial == spread


# ---- the formulas -----------------------------------------------------------------------------------


def test_drama_counts_lead_changes_the_winner_behind_and_when_it_was_decided():
    """Leaders after the deal and after each of 4 moves; seat 0 wins with 5 against 3 and 1."""
    trail = [frozenset({0, 1}), frozenset({0}), frozenset({1}), frozenset({1}), frozenset({0})]
    got = drama(trail, frozenset({0}), [5, 3, 1])
    assert got["lead_changes"] == 3  # {0,1} -> {0} -> {1} -> {0}
    assert got["change_rate"] == 3 / 4  # per move: a game twice as long with 3 changes has half the rate
    assert got["behind"] == 2 / 4  # after moves 2 and 3
    assert got["decided"] == 4 / 4  # seat 0 leads for good only after the last move
    assert got["margin"] == 2
    # the leaders at each tenth of the 4 moves (t = 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4): half a chance
    # on the tie, then seat 0 (the winner), seat 1 twice, seat 0
    assert got["foresight"] == [0.5, 0.5, 1, 1, 0, 0, 0, 0, 0, 1, 1]
    early = drama([frozenset({0})] * 3, frozenset({0}), [2, 2, 0])
    assert early["decided"] == 0 and early["lead_changes"] == 0 and early["margin"] == 0  # a tie: margin 0
    assert early["foresight"] == [1.0] * 11  # the deal tells the winner: no uncertainty


def test_uncertainty_is_what_the_lead_lacks_of_naming_the_winner_over_the_game():
    """Two games: one whose winner leads from the deal (nothing uncertain), one whose winner leads
    only at the end: the uncertainty is the mean of the two, and the lead names the winner for
    sure only at the last tenth."""
    from interpreter.simulation.measures import Measures

    measures = Measures(2)
    sure = drama([frozenset({0})] * 11, frozenset({0}), [2, 0])
    late = drama([frozenset({1})] * 10 + [frozenset({0})], frozenset({0}), [2, 1])
    for lead in (sure, late):
        measures.add({"decisions": 0, "forced": 0, "legal": 0, "choices": [], **lead})
    figures = measures.drama_figures()
    assert figures["uncertainty"]["mean"] == pytest.approx((0 + 10 / 11) / 2)
    assert figures["foreseen_at"] == 1.0 and figures["foresight"][0]["mean"] == 0.5


def test_copies_of_a_card_to_the_same_place_are_one_choice(poison):
    """Two copies of one card played to one cauldron are one choice; to two cauldrons, two."""
    kind = poison.cards.kind
    a, b = next((a, b) for a in range(len(kind)) for b in range(a + 1, len(kind)) if kind[a] == kind[b])
    c = next(c for c in range(len(kind)) if kind[c] != kind[a])
    assert choices(poison, [Move(0, a, 5), Move(0, b, 5)]) == 1
    assert choices(poison, [Move(0, a, 5), Move(0, b, 6)]) == 2
    assert choices(poison, [Move(0, a, 5), Move(0, c, 5)]) == 2


# ---- the command ------------------------------------------------------------------------------------


def test_evaluate_command_prints_each_measure_with_its_meaning():
    """Text: the skill, decisions, drama, balance and rules sections, each figure with an interval."""
    out = run_cli(
        "evaluate", "examples/seat-zero-wins.rules", "--players", "3", "--games", "20", "--skill", "greedy/random",
        "--skill-games", "3", "--jobs", "1",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for heading in ("skill:", "decisions (", "drama (", "balance (", "rules that matter"):
        assert heading in text
    assert "forced decisions          100.0% [100.0, 100.0]" in text
    assert "Holm's correction): seat 0 +66.7 points" in text


def test_evaluate_json_holds_every_measure():
    out = run_cli(
        "evaluate", "examples/seat-zero-wins.rules", "--games", "10", "--skill", "none", "--format", "json",
        "--jobs", "1",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["skill"] == [] and doc["games"] == 10
    assert set(doc) >= {"decisions", "drama", "balance", "rules", "params", "seed"}
    assert doc["balance"]["seats"][0]["advantage"]["p_adjusted"] < 0.05


def test_a_bad_skill_pairing_is_a_plain_error():
    out = run_cli("evaluate", "examples/seat-zero-wins.rules", "--skill", "greedy", "--games", "2")
    assert out.returncode == 2 and "a skill pairing is AGENT/BASELINE" in out.stderr
    out = run_cli("evaluate", "examples/seat-zero-wins.rules", "--skill", "wizard/random", "--games", "2")
    assert out.returncode == 2 and "unknown agent 'wizard'" in out.stderr


def test_evaluate_plot_is_written(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "quality.png"
    out = run_cli(
        "evaluate", "examples/seat-zero-wins.rules", "--games", "10", "--skill", "greedy/random",
        "--skill-games", "2", "--plot", str(path), "--jobs", "1",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_observing_a_game_changes_nothing_in_it(five_card):
    """The observed games are the games `simulate` plays: same wins, scores, lengths and rule counts."""
    from interpreter.simulation.evaluate import observed_run
    from interpreter.simulation.simulate import simulate

    plain = simulate(five_card, 3, 10, seed=5, params={"rounds": 2})
    seen = observed_run(five_card, 3, 10, 5, None, {"rounds": 2})
    assert [s["wins"] for s in seen["balance"]["seats"]] == [s["wins"] for s in plain["seats"]]
    assert [s["score"] for s in seen["balance"]["seats"]] == [s["score"] for s in plain["seats"]]
    assert seen["balance"]["length"] == plain["length"]
    assert [(r["at"], r["fired"]) for r in seen["rules"]["table"]] == [(r["at"], r["fired"]) for r in plain["rules"]]


# Three cards each, one shown, the higher total wins: picking the highest card is all the skill there is.
BEST_OF_THREE = """\
game "Best of three"
players 2..2

cards
  card  rank 1..9 x2

zones
  hand   per player, owner sees
  shown  per player, public

round
  deal 3 to hand
  phase show
    move show card from hand to shown
    ends when count shown of dealer = 1 and count shown of left of dealer = 1
  score
    each card in shown of player: rank of card

game
  rounds 1
  winner highest total
"""


def test_the_skill_ladder_climbs_while_skill_pays_and_says_where_it_stops(tmp_path):
    """greedy (which shows its highest card) beats random; mcts can do no better than the highest
    card, so the ladder stops at mcts: a one-step skill gap against random would call both strong."""
    path = tmp_path / "best.rules"
    path.write_text(BEST_OF_THREE)
    out = run_cli(
        "evaluate", str(path), "--skill", "none", "--ladder", "random,greedy,mcts(iterations=10)",
        "--skill-games", "60", "--games", "4", "--jobs", "1", "--format", "json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    ladder = json.loads(out.stdout)["ladder"]
    assert ladder["rungs"] == ["random", "greedy", "mcts(iterations=10)"] and ladder["games"] == 60
    up, flat = ladder["steps"]
    assert (up["agent"], up["baseline"]) == ("greedy", "random") and up["gap"]["ci"][0] > 0
    assert flat["baseline"] == "greedy" and flat["gap"]["ci"][0] <= 0
    assert ladder["stops_at"] == "mcts(iterations=10)"
    bad = run_cli("evaluate", str(path), "--ladder", "greedy", "--jobs", "1")
    assert bad.returncode == 2 and "--ladder takes two agents or more" in bad.stderr


# ---- the observed games' agents ---------------------------------------------------------------------


def test_the_observed_games_are_played_by_the_strongest_rung_whose_counted_cost_fits_the_budget(tmp_path):
    """Without --agents, the strongest rung of the ladder whose games fit the budget of engine moves
    plays the observed games: a count from a pilot, never a time, so the same choice on any machine."""
    from interpreter.simulation.observer import choose_observer
    from interpreter.simulation.quality_defaults import LADDER, OBSERVE_BUDGET

    path = tmp_path / "best.rules"
    path.write_text(BEST_OF_THREE)
    game = interpreter.load(path)
    first = choose_observer(game, 2, 200, 0, None, LADDER, OBSERVE_BUDGET)
    assert first == choose_observer(game, 2, 200, 0, None, LADDER, OBSERVE_BUDGET)  # deterministic
    moves = [c["moves"] for c in first["costs"]]
    assert moves == sorted(moves) and moves[0] > 0  # each rung costs more than the one below
    for budget in (moves[0] - 1, moves[1], moves[2] - 1, moves[3]):
        got = choose_observer(game, 2, 200, 0, None, LADDER, budget)
        fits = [c["agent"] for c in got["costs"] if c["moves"] <= budget]
        assert got["agent"] == (fits[-1] if fits else "random")
    assert "none fits the budget" in choose_observer(game, 2, 200, 0, None, LADDER, 0)["why"]
    assert choose_observer(game, 2, 200, 0, None, LADDER, moves[1])["why"].startswith(
        "the strongest agent of random, greedy, mcts(iterations=20,samples=4), mcts(iterations=80,samples=4) "
        f"whose 200 games fit the budget of {moves[1]:,} engine moves (mcts(iterations=20,samples=4) would need "
        f"about {moves[2]:,})"
    )


def test_evaluate_says_which_agents_played_the_observed_games_and_why(poison, tmp_path):
    """AMIGO Poison's 200 observed games by greedy would cost over the budget (evaluate at its defaults
    within 30 s of CPU): random plays them, and the report says what greedy would need. A game as
    small as best of three fits the strongest rung; the report says which and why, and --agents
    chooses instead."""
    from interpreter.simulation.evaluate_report import evaluate_text
    from interpreter.simulation.observer import choose_observer
    from interpreter.simulation.quality_defaults import LADDER, OBSERVE_BUDGET

    amigo = choose_observer(poison, 3, 200, 0, None, LADDER, OBSERVE_BUDGET)
    greedy = next(c for c in amigo["costs"] if c["agent"] == "greedy")
    assert amigo["agent"] == "random" and greedy["moves"] > OBSERVE_BUDGET
    assert f"(greedy would need about {greedy['moves']:,})" in amigo["why"]
    path = tmp_path / "best.rules"
    path.write_text(BEST_OF_THREE)
    game = interpreter.load(path)
    stats = evaluate(game, 2, games=4, pairs=())
    assert stats["observer"]["by"] == "budget" and stats["observer"]["agent"] == LADDER[-1]
    assert stats["agents"] == [LADDER[-1]] * 2
    text = evaluate_text(stats)
    assert f"observed games played by {LADDER[-1]} in every seat (--agents chooses otherwise):\n  the strongest" in text
    assert f"fit the budget of {OBSERVE_BUDGET:,} engine moves" in text
    chosen = evaluate(game, 2, games=4, pairs=(), agents="random")
    assert chosen["observer"] == {"by": "agents"} and chosen["agents"] == ["random"] * 2
    assert "observed games played by" not in evaluate_text(chosen)
