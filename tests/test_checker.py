"""`ruleset check` through its Python API (interpreter.checker) and as a command."""

from __future__ import annotations

import json
import re

import pytest

from conftest import EXAMPLES, RULESETS, run_cli
from interpreter.checker import check
from interpreter.checker.budget import run_playouts
from interpreter.checker.playouts import playout_seed
from interpreter.language.schema import validator

SHIPPED = ["poison.rules", "poison-five-card.rules", "poison-kedric-winks.rules"]


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_rulesets_check_clean(name):
    report = check(str(RULESETS / name), games=40, jobs=1)
    assert report.exit_code == 0
    assert report.count("error") == 0
    # The only warnings allowed are those where the rulebook itself is incomplete (repeated agendas).
    assert {f.code for f in report.findings if f.severity == "warning"} <= {"repeated-objective"}
    assert all(p["failed"] == 0 for p in report.playouts)


def test_a_file_with_several_mistakes_reports_them_all_sorted_by_line(tmp_path):
    text = (RULESETS / "poison.rules").read_text("utf-8")
    text = text.replace("allow card is poison", "allow card is poisn")
    text = text.replace("sum of value in target > limit", "sum of valu in target > limit")
    text = text.replace("each poison in collected of player: -2", "each poison in colected of player: -2")
    path = tmp_path / "three.rules"
    path.write_text(text, "utf-8")
    report = check(str(path), games=0)
    errors = [f for f in report.sorted() if f.severity == "error"]
    assert len(errors) == 3
    assert [f.at.line for f in errors] == sorted(f.at.line for f in errors)
    assert report.exit_code == 1


def test_a_ruleset_that_writes_both_the_rounds_and_a_longer_schedule_is_flagged(tmp_path):
    # Kedric Winks' rulebook says nine hands, then lists twelve hand sizes: a ruleset that wrote both.
    text = (RULESETS / "poison-kedric-winks.rules").read_text("utf-8")
    text, n = re.subn(r"^schedule size:.*$", "schedule size: 9, 6, 3, 9, 6, 3, 9, 6, 3, 9, 6, 3", text, flags=re.M)
    assert n == 1
    path = tmp_path / "kedric-both.rules"
    path.write_text(text, "utf-8")
    report = check(str(path), games=0)
    [finding] = [f for f in report.findings if f.code == "schedule-length"]
    assert finding.severity == "warning"
    assert "lists 12 entries, but the game has 9 rounds" in finding.message
    assert finding.at.line == text.splitlines().index("schedule size: 9, 6, 3, 9, 6, 3, 9, 6, 3, 9, 6, 3") + 1


def test_playouts_do_not_depend_on_the_number_of_jobs():
    path = str(RULESETS / "poison-five-card.rules")
    one, _ = run_playouts(path, {}, [3, 4], 60, 7, 1)
    two, _ = run_playouts(path, {}, [3, 4], 60, 7, 2)
    assert one == two


def test_each_game_has_its_own_seed_from_the_run_seed_players_and_index():
    seeds = {playout_seed(0, p, i) for p in (3, 4) for i in range(100)}
    assert len(seeds) == 200
    assert playout_seed(0, 3, 5) == playout_seed(0, 3, 5) != playout_seed(1, 3, 5)


def test_coverage_counts_every_rule_of_the_shipped_ruleset():
    report = check(str(RULESETS / "poison.rules"), games=20, jobs=1, players=4)
    kinds = {c["kind"] for c in report.coverage}
    assert {"allow guard", "trigger", "phase end", "scoring rule"} <= kinds
    assert all(c["count"] > 0 for c in report.coverage)


def test_json_output_follows_its_schema_and_text_has_caret_and_hint():
    proc = run_cli("check", "examples/broken/deadlock.rules", "--games", "5", "--jobs", "1", "--format", "json")
    report = json.loads(proc.stdout)
    assert not list(validator("check").iter_errors(report))
    [deadlock] = [f for f in report["findings"] if f["code"] == "deadlock"]
    assert deadlock["replay"]["seed"] and deadlock["replay"]["moves"]
    text = run_cli("check", "examples/broken/deadlock.rules", "--games", "5", "--jobs", "1").stdout
    assert "examples/broken/deadlock.rules:16:3: error: nobody can move" in text
    assert "    ^" in text and "hint:" in text
    assert re.search(r"1 error, 0 warnings, 1 info; 15 playouts", text)


def test_a_failing_playout_is_written_as_a_record_that_replay_stops_at(tmp_path):
    out = tmp_path / "failed.jsonl"
    proc = run_cli("check", "examples/broken/deadlock.rules", "--games", "3", "--jobs", "1", "--failures", str(out))
    assert proc.returncode == 1
    replayed = run_cli("replay", str(out))
    assert replayed.returncode == 1
    assert "nobody can move" in replayed.stderr


def test_no_progress_bar_when_stderr_is_not_a_terminal_and_exit_codes():
    clean = run_cli("check", "rulesets/poison.rules", "--games", "5", "--players", "4", "--jobs", "2")
    assert clean.returncode == 0 and clean.stderr == ""
    missing = run_cli("check", "no-such-file.rules")
    assert missing.returncode == 2
    assert "no such file" in missing.stdout + missing.stderr
    bad_players = run_cli("check", "rulesets/poison.rules", "--players", "9", "--games", "0")
    assert bad_players.returncode == 1


def poison_with(tmp_path, old: str, new: str):
    """Poison with one line changed, checked without playouts."""
    text = (RULESETS / "poison.rules").read_text("utf-8")
    assert old in text
    path = tmp_path / "changed.rules"
    path.write_text(text.replace(old, new), "utf-8")
    return check(str(path), games=0), path.read_text("utf-8").splitlines()


def test_a_value_listed_twice_is_a_warning_at_its_second_mention(tmp_path):
    """`color red | blue | violet | red` makes 14 more red potions, silently: warned at the second
    `red`, with the way to say copies on purpose."""
    report, lines = poison_with(tmp_path, "color red | blue | violet ", "color red | blue | violet | red ")
    found = [f for f in report.findings if f.code == "repeated-value"]
    assert len(found) == 1 and found[0].severity == "warning"
    where = found[0].at
    assert lines[where.line - 1][where.col - 1 :].startswith("red ") and lines[where.line - 1].count("red") == 2
    assert lines[where.line - 1][: where.col - 1].count("red") == 1
    assert "`red x2`" in found[0].hint


def test_a_number_listed_again_beside_its_range_is_a_warning(tmp_path):
    """`value 1 x3, 2 x3, 4 x2, 5 x3, 7 x3, 2`: 2 listed twice (copies are written with x)."""
    report, _ = poison_with(tmp_path, "value 1 x3, 2 x3, 4 x2, 5 x3, 7 x3", "value 1 x3, 2 x3, 4 x2, 5 x3, 7 x3, 2")
    assert [f.message for f in report.findings if f.code == "repeated-value"] == [
        "attribute value lists 2 twice: every card with it comes twice as often"
    ]


def test_a_scoring_rule_over_every_players_zone_is_a_warning_at_the_zone(tmp_path):
    """`each poison in collected: -2` (forgetting `of player`) charges every player for all the
    poison collected: warned at `collected`, with the fix."""
    report, lines = poison_with(tmp_path, "each poison in collected of player: -2", "each poison in collected: -2")
    found = [f for f in report.findings if f.code == "every-players-zone"]
    assert len(found) == 1 and found[0].severity == "warning"
    where = found[0].at
    assert lines[where.line - 1][where.col - 1 :].startswith("collected: -2")
    assert found[0].hint == "write `collected of player` to count the player's own cards"


def test_a_condition_over_every_players_zone_is_not_a_mistake(tmp_path):
    """Reading every player's zone in a condition (`unless` nobody collected poison) is meant."""
    report, _ = poison_with(
        tmp_path,
        "each poison in collected of player: -2",
        "each poison in collected of player: -2 unless count poison in collected = 8",
    )
    assert not [f for f in report.findings if f.code == "every-players-zone"]


@pytest.mark.parametrize(
    "path",
    sorted(RULESETS.glob("*.rules")) + sorted(p for p in EXAMPLES.rglob("*.rules") if p.parent.name != "broken"),
    ids=lambda p: p.stem,
)
def test_no_shipped_or_example_ruleset_has_an_unused_definition(path):
    """Definitions read by other definitions, by scoring or shown beside their zone are all used."""
    assert [f.message for f in check(str(path), games=0).findings if f.code == "unused-define"] == []


def test_a_definition_no_rule_reads_is_a_warning_at_its_line_and_strict_fails(tmp_path):
    """`bonus` is read by nothing; `double` only by `bonus`; `left` of a zone is shown at the table;
    `twice` is read through `points`, which scoring reads."""
    text = (
        (RULESETS / "poison.rules")
        .read_text("utf-8")
        .replace(
            "\ncards\n",
            "\ndefine double(n) = 2 * n\ndefine bonus = double(3)\ndefine left of hand = count it\n"
            "define twice = 2\ndefine points = -twice\n\ncards\n",
            1,
        )
    )
    text = text.replace("each poison in collected of player: -2", "each poison in collected of player: points")
    path = tmp_path / "defs.rules"
    path.write_text(text, "utf-8")
    found = {f.message: f.at.line for f in check(str(path), games=0).findings if f.code == "unused-define"}
    line = text.splitlines().index  # (0-based)
    assert found == {
        "definition 'bonus' is never used: no rule reads it": line("define bonus = double(3)") + 1,
        "definition 'double' is never used: only 'bonus', itself unused, reads it": line("define double(n) = 2 * n")
        + 1,
    }
    assert run_cli("check", str(path), "--games", "0", "--strict").returncode == 1


def test_thousands_of_findings_are_gathered_in_time_linear_in_their_number(tmp_path, monkeypatch):
    """3,000 unused parameters: each reported once, and adding a finding does not compare it with
    every finding before it (that made an upload of 20,000 parameters never finish)."""
    from interpreter.errors import Span

    n = 3000
    path = tmp_path / "many.rules"
    text = (RULESETS / "poison.rules").read_text()
    path.write_text(text + "".join(f"\nparam unused{i} = {i}" for i in range(n)) + "\n")
    compared = [0]
    equal = Span.__eq__

    def counting(self, other):
        compared[0] += 1
        return equal(self, other)

    monkeypatch.setattr(Span, "__eq__", counting)
    report = check(str(path), games=0)
    unused = [f for f in report.findings if "is never used" in f.message]
    assert len(unused) == n
    assert compared[0] < 10 * n, f"{compared[0]:,} comparisons of positions for {n:,} findings"


KINDS_OF_MOVES = """game "Every kind of move"
players 2..3

cards
  card  rank 1..5   suit red | blue

zones
  hand   per player, owner sees
  stock  shared, hidden
  table  shared, public

var bids per player per round = -1
var trump = none
var luck per player = 0

round
  deal 3 to hand, rest to stock
  phase bidding
    move bid number from 0 to count hand of player
      require bids of player = -1
    move pass
      require bids of player = -1
    move name_trump value of suit
      require trump is none and player = dealer
    move wish one of good_luck, no_luck
      require luck of player = 0 and player = dealer
    after bid
      set bids of player to bid
    after pass
      set bids of player to 0
    after name_trump
      set trump to name_trump
    after wish
      add 1 to luck of player
    ends when no player where bids of it < 0
  phase play
    move play card from hand to table
    move lay 2 cards from hand to table
    move draw top card from stock to hand
      require count hand of player < 2
    after play if rank of card = 1
      ask player to choose victim player
        require victim != player
        add -1 to luck of victim
    ends when count table = 9
  score
    luck of player

game
  rounds 2
  winner highest total
"""


def test_a_failing_playout_words_every_kind_of_move_and_keeps_its_real_failure(tmp_path):
    """Numbers, passes, values, options, draws, several cards and an ask's answer: a failing game
    holding them once stopped `check` with "KeyError: 'card'" (only one card's move had words)."""
    path = tmp_path / "kinds.rules"
    path.write_text(KINDS_OF_MOVES, "utf-8")
    report = check(str(path), games=12, jobs=1)
    stuck = [f for f in report.findings if f.code == "deadlock"]
    assert stuck and all("nobody can move in phase 'play'" in f.message for f in stuck)
    said = []
    for f in stuck:
        rec, words = f.replay["record"], f.replay["moves"]
        moves = [(r, m) for r, rnd in enumerate(rec["rounds"], 1) for m in rnd["moves"]]
        assert len(words) == len(moves)
        for text, (r, m) in zip(words, moves, strict=True):
            assert text.startswith(f"r{r} seat {m['player']}: {m['move']}")  # never "you": no seat reads it
            said.append(text.split(": ", 1)[1])
    assert any(re.fullmatch(r"bid \d", s) for s in said) or "pass" in said
    assert any(re.fullmatch(r"play \d (red|blue) to table", s) for s in said)  # a plain card by its values
    text = run_cli("check", str(path), "--games", "4", "--jobs", "1").stdout
    assert "nobody can move in phase 'play'" in text
    assert re.search(r"  moves: (\.\.\. \d+ earlier, )?r\d seat \d: \w+", text)


def test_a_derived_attribute_read_only_by_a_sum_or_a_max_is_used(tmp_path):
    """`sum of heads in won of player` reads `heads` of every card there: once called "never used"."""
    text = (
        'game "Heads"\nplayers 2..3\n\n'
        "define heads of card = if rank of card > 3 then 2 else 1\n"
        "define tails of card = 7 - rank of card\n"
        "define spare of card = rank of card\n\n"
        "cards\n  card  suit a | b   rank 1..6\n\n"
        "zones\n  hand  per player, owner sees\n  won   per player, public\n\n"
        "round\n  deal 3 to hand\n  phase play\n    move keep card from hand to won\n"
        "      require count won of player = 0 or max of tails in won of player > 2\n"
        "    ends when every hand is empty\n"
        "  score\n    sum of heads in won of player\n\n"
        "game\n  rounds 1\n  winner highest total\n"
    )
    path = tmp_path / "heads.rules"
    path.write_text(text, "utf-8")
    unused = [f.message for f in check(str(path), games=0).findings if f.code == "unused-define"]
    assert unused == ["definition 'spare' is never used: no rule reads it"]
