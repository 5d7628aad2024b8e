"""`check` on the values constructs: deck arithmetic with copy counts that depend on the number of
players, guards that are never consulted (not dead rules), and no false warnings on games that use
players, teams, functions and derived attributes."""

from __future__ import annotations

import json

import interpreter
from conftest import ROOT
from interpreter.checker import check
from interpreter.simulation.simulate import simulate

GAME = """game "Allows"
players 2..4
cards
  card  value 1..9 x (if players > 3 then 2 else 1)
  coin  value 1 x (2 * players)
zones
  hand  per player, owner sees
  pile  shared, public
round
  deal 3 to hand
  phase play
    move play card from hand to pile
{guards}
    ends when every hand is empty
  score
    count hand of player
    each coin in pile: 1
game
  rounds 1
  winner highest total
"""


def checked(tmp_path, guards: str = "", games: int = 40, **kw):
    path = tmp_path / "g.rules"
    path.write_text(GAME.format(guards=guards))
    return check(str(path), games=games, jobs=1, **kw)


def test_the_deck_is_counted_for_each_number_of_players(tmp_path):
    report = checked(tmp_path, games=0)
    (deal,) = [f for f in report.findings if f.code == "deal"]
    assert "13/15/26 cards for 2/3/4 players" in deal.message  # 9 + 2n, 18 + 8 with four
    assert report.count("error") == 0


def test_a_deck_short_only_at_some_counts_is_named_for_those(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(GAME.format(guards="").replace("deal 3 to hand", "deal 6 to hand"))
    report = check(str(path), games=0, jobs=1)
    (short,) = [f for f in report.findings if f.code == "deck-too-small"]
    # 13 cards for 12 with two players, 26 for 24 with four, but 15 for 18 with three
    assert short.message.startswith("with 3 players the deal cannot be made"), short.message
    assert "the deck has 15" in short.message


def test_playouts_with_copies_left_out_lose_no_card_and_replay(tmp_path):
    report = checked(tmp_path, games=20)
    assert all(p["failed"] == 0 for p in report.playouts), report.playouts
    assert report.count("error") == 0


def test_playouts_count_the_cards_in_play_and_check_them_whole_only_now_and_then(monkeypatch):
    """The quick count after every move is of the cards in play at this player count: copies left
    out do not send every move of such a game through the full check (every 8th move, the end)."""
    from interpreter.checker import playouts

    game = interpreter.loads(GAME.format(guards=""), "g.rules")
    assert len(game.cards) > len(game.cards) - len(game.cards.absent(2))  # copies left out with two
    full = []
    monkeypatch.setattr(playouts, "cards_accounted", lambda state: full.append(state.is_over))
    moves, failure, _ = playouts.play_checked(game, 2, 1, {})
    assert failure is None and moves == 6
    assert full == [True]  # once, at the end (no 8th move): not after each of the 6


def test_an_allow_after_one_that_always_holds_is_never_consulted_not_dead(tmp_path):
    guards = "      allow value of card > 0\n      allow value of card = 5"
    report = checked(tmp_path, guards)
    codes = {f.at.line: f.code for f in report.findings if f.severity == "warning"}
    assert codes.get(14) == "never-consulted"
    (f,) = [f for f in report.findings if f.code == "never-consulted"]
    assert "another `allow` of this move always held first" in f.message
    assert f.hint and "any allow holds" in f.hint
    assert "dead-rule" not in {f.code for f in report.findings if f.at and f.at.line == 14}


def test_an_allow_on_targets_after_one_that_admits_every_target_is_never_consulted(tmp_path):
    guards = "      allow count target >= 0\n      allow count target = 3"
    report = checked(tmp_path, guards)
    assert [f.at.line for f in report.findings if f.code == "never-consulted"] == [14]


def test_an_allow_that_is_consulted_and_never_holds_is_still_a_dead_rule(tmp_path):
    guards = "      allow value of card > 5\n      allow value of card < 0\n      allow value of card <= 5"
    report = checked(tmp_path, guards)
    lines = {f.at.line: f.code for f in report.findings if f.severity == "warning" and f.at}
    assert lines.get(14) == "dead-rule"
    assert 13 not in lines and 15 not in lines


def test_games_with_players_teams_and_functions_check_clean():
    report = check(str(ROOT / "examples" / "classics" / "whist.rules"), games=30, jobs=1)
    assert report.count("error") == 0
    assert not [f.code for f in report.findings if f.severity == "warning"]  # the target ends the game


WHIST = (ROOT / "examples" / "classics" / "whist.rules").read_text()
TEAM_RULE = "each team: count pile in won of team - 6 if count pile in won of team > 6"


def test_a_team_scoring_rule_over_a_zone_never_filled_is_flagged(tmp_path):
    won = next(line for line in WHIST.splitlines() if line.startswith("  won "))
    text = WHIST.replace(won, won + "\n  spare  per player")
    text = text.replace(TEAM_RULE, TEAM_RULE + "\n    each team: count card in spare of team")
    path = tmp_path / "w.rules"
    path.write_text(text)
    report = check(str(path), games=0, jobs=1)
    (empty,) = [f for f in report.findings if f.code == "empty-zone"]
    assert "'spare'" in empty.message
    assert empty.at.line == text[: text.index("each team: count card in spare")].count("\n") + 1
    assert report.count("error") == 0  # two team scoring rules are two rules, not one declared twice


def test_a_search_agent_samples_deals_without_the_copies_a_player_count_leaves_out(tmp_path):
    """With 2 players the deck has 13 cards of 17 made: mcts's sampled deals hold those 13 only."""
    path = tmp_path / "g.rules"
    path.write_text(GAME.format(guards=""))
    game = interpreter.load(path)
    stats = simulate(game, 2, 2, seed=3, agents="mcts,random", record_to=tmp_path / "r.jsonl")
    assert stats["games"] == 2
    for line in (tmp_path / "r.jsonl").read_text().splitlines():
        deal = json.loads(line)["rounds"][0]["deal"]
        assert sum(len(h) for h in deal["hand"]) + len(deal["deck"]) == 13


def test_coverage_counts_the_playouts_not_the_replays_of_every_fiftieth(tmp_path):
    """Games 0 and 50 of each count are played again and replayed (determinism): what those
    fire is no playout's; the phase's end holds once a game, so once for each playout."""
    report = checked(tmp_path, games=60)
    (end,) = [c for c in report.coverage if c["kind"] == "phase end"]
    assert end["count"] == 3 * 60  # 2, 3 and 4 players
