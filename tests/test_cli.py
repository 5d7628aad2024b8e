"""The `ruleset` command as a user runs it: a real process, its output and its exit code."""

from __future__ import annotations

import json

import yaml

from conftest import run_cli
from interpreter.language.schema import check_record


def test_help_lists_the_commands():
    out = run_cli("--help")
    assert out.returncode == 0
    for command in ("simulate", "replay", "show"):
        assert command in out.stdout


def test_show_prints_the_whole_ir_as_json_and_yaml():
    out = run_cli("show", "rulesets/poison-five-card.rules")
    assert out.returncode == 0, out.stderr
    ir = json.loads(out.stdout)
    assert ir["name"] == "Poison, five-card variant" and ir["decks"][0]["cards"][0]["type"] == "potion"
    out = run_cli("show", "rulesets/poison.rules", "--format", "yaml", "--set", "limit=20")
    data = yaml.safe_load(out.stdout)
    assert next(p for p in data["params"] if p["name"] == "limit")["default"]["value"] == 20


def test_simulate_json_reports_scores_wins_and_throughput(tmp_path):
    records = tmp_path / "games.jsonl"
    out = run_cli(
        "simulate",
        "rulesets/poison.rules",
        "--players",
        "4",
        "--games",
        "5",
        "--seed",
        "3",
        "--record",
        str(records),
        "--format",
        "json",
    )
    assert out.returncode == 0, out.stderr
    stats = json.loads(out.stdout)
    assert stats["games"] == 5 and len(stats["seats"]) == 4
    assert stats["moves_per_game"] == 200  # 50 cards a round, four rounds
    assert stats["moves_per_second"] > 0 and stats["games_per_second"] > 0
    assert sum(s["wins"] for s in stats["seats"]) >= 5
    lines = records.read_text().splitlines()
    assert len(lines) == 5
    for line in lines:
        rec = json.loads(line)
        check_record(rec)
        assert rec["players"] == 4 and len(rec["rounds"]) == 4
        assert len(rec["rounds"][0]["deal"]["hand"]) == 4


def test_simulate_summarises_a_long_games_rounds_in_text_and_keeps_each_in_json():
    """A 30-round game once printed 30 rows of round scores: past 12, the text summarises them."""
    args = ("simulate", "rulesets/poison.rules", "--players", "3", "--games", "2", "--set", "rounds=30")
    text = run_cli(*args).stdout
    assert "mean score per round, summarised over the rounds" in text
    [head] = [line for line in text.splitlines() if line.startswith("30 rounds")]
    assert head.split()[2:] == ["seat", "0", "seat", "1", "seat", "2"]
    rows = {
        line.split()[0]: line for line in text.splitlines() if line.split()[:1] in (["mean"], ["lowest"], ["highest"])
    }
    assert set(rows) == {"mean", "lowest", "highest"} and rows["lowest"].count("(round ") == 3
    stats = json.loads(run_cli(*args, "--format", "json").stdout)
    assert [r["round"] for r in stats["per_round"]] == list(range(1, 31))
    short = run_cli("simulate", "rulesets/poison.rules", "--players", "3", "--games", "2").stdout
    assert "mean score per round (±" in short and "summarised" not in short


def test_the_same_seed_writes_the_same_records_byte_for_byte(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        assert (
            run_cli(
                "simulate", "poison", "--players", "3", "--games", "3", "--seed", "7", "--record", str(path)
            ).returncode
            == 0
        )
    assert a.read_bytes() == b.read_bytes()


def test_replay_accepts_a_recorded_game_and_refuses_a_tampered_one(tmp_path):
    records = tmp_path / "games.jsonl"
    run_cli("simulate", "rulesets/poison.rules", "--players", "4", "--games", "2", "--record", str(records))
    out = run_cli("replay", str(records))
    assert out.returncode == 0, out.stderr
    assert "2 games replayed" in out.stdout
    lines = records.read_text().splitlines()
    rec = json.loads(lines[1])
    first, second = rec["rounds"][0]["moves"][0], rec["rounds"][0]["moves"][1]
    rec["rounds"][0]["moves"][0], rec["rounds"][0]["moves"][1] = second, first  # out of turn
    (tmp_path / "bad.jsonl").write_text(lines[0] + "\n" + json.dumps(rec) + "\n")
    out = run_cli("replay", str(tmp_path / "bad.jsonl"))
    assert out.returncode == 1
    assert "line 2: round 1, move 1" in out.stderr and "Traceback" not in out.stderr


def test_replay_of_a_file_that_is_not_json_is_a_message(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    out = run_cli("replay", str(bad))
    assert out.returncode == 1
    assert "line 1: not valid JSON" in out.stderr and "Traceback" not in out.stderr


def test_players_outside_the_range_is_an_error_not_a_traceback():
    out = run_cli("simulate", "rulesets/poison.rules", "--players", "9", "--games", "1")
    assert out.returncode == 2
    assert "for 3 to 6 players, not 9" in out.stderr and "Traceback" not in out.stderr


def test_a_broken_ruleset_exits_2_with_the_position(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "X"\nplayers 2..4\ncards\n  card colour red\nzones\n  hand per player, owner seez\n')
    out = run_cli("show", str(bad))
    assert out.returncode == 2
    assert f"{bad}:6:" in out.stderr and "^" in out.stderr and "Traceback" not in out.stderr
