"""Every option a command accepts does something, and the command line says what it means:
exit codes, messages in words (plurals right), a misspelled command's nearest names."""

from __future__ import annotations

import json
import re

import pytest

from conftest import RULESETS, run_cli


def test_render_to_a_folder_that_does_not_exist_is_the_users_error(tmp_path):
    """A bad output path: exit 2 and a plain message, not "a bug of ruleset"."""
    result = run_cli("render", "poison", "-o", str(tmp_path / "missing" / "x.md"))
    assert result.returncode == 2
    assert "cannot write" in result.stderr and "No such file or directory" in result.stderr
    assert "bug" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("play", "poison", "--format", "json"),
        ("show", "poison", "--seed", "3"),
        ("show", "poison", "--max-moves", "3"),
        ("replay", "x.jsonl", "--seed", "3"),
    ],
    ids=" ".join,
)
def test_an_option_a_command_would_ignore_is_refused(args):
    """Options that did nothing are gone: argparse names them as unrecognised (exit 2)."""
    result = run_cli(*args)
    assert result.returncode == 2 and "unrecognized arguments" in result.stderr


def test_simulate_output_without_config_is_refused():
    """`--output` is an experiment's results file; alone it would be silently ignored."""
    result = run_cli("simulate", "poison", "--games", "1", "--output", "x.json")
    assert result.returncode == 2 and "--config" in result.stderr


def test_max_moves_bounds_compare_and_play_as_it_bounds_simulate():
    """`--max-moves 2` stops Poison's first round as endless in every command that plays."""
    for args in (
        ("simulate", "poison", "--games", "1"),
        ("compare", "poison", "poison", "--games", "1"),
        ("play", "poison", "--agents", "random"),
    ):
        result = run_cli(*args, "--max-moves", "2", input="1\n" * 10 + "q\n")
        assert "has not ended after 2 moves" in result.stderr, (args, result.stdout[-500:], result.stderr)


def test_jobs_0_means_one_per_cpu_in_simulate_as_in_check():
    """`--jobs 0` is accepted by simulate (one process per CPU) and plays the same games as one job."""
    one = run_cli("simulate", "poison", "--games", "6", "--jobs", "1", "--format", "json")
    auto = run_cli("simulate", "poison", "--games", "6", "--jobs", "0", "--format", "json")
    assert auto.returncode == 0, auto.stderr
    key = lambda out: {k: v for k, v in json.loads(out).items() if "second" not in k and k != "jobs"}  # noqa: E731
    assert key(one.stdout) == key(auto.stdout)
    assert run_cli("simulate", "poison", "--jobs", "-1").returncode == 2


def test_jobs_has_one_default_in_every_command_and_its_help_says_it():
    """check, simulate, compare, evaluate and tune all spread their games over one process per CPU
    unless told otherwise, and each --help says so; simulate with no --jobs plays the games of
    --jobs 0."""
    commands = ("check", "simulate", "compare", "evaluate", "tune")
    helps = {cmd: " ".join(run_cli(cmd, "--help").stdout.split()) for cmd in commands}
    for cmd, text in helps.items():
        assert "--jobs N processes to play the games over (default 0: one per CPU" in text, (cmd, text)
    default = run_cli("simulate", "poison", "--games", "4", "--format", "json")
    assert default.returncode == 0, default.stderr
    from interpreter.checker import default_jobs

    assert json.loads(default.stdout)["jobs"] == default_jobs()


def test_quiet_has_one_meaning_in_every_command():
    """--quiet is described the same way wherever it is accepted."""
    helps = {cmd: run_cli(cmd, "--help").stdout for cmd in ("check", "simulate", "compare", "replay")}
    texts = {" ".join(h.split("\n  --quiet", 1)[1].split()).split(" --")[0] for h in helps.values()}
    assert len(texts) == 1, texts


def test_diff_exits_1_when_the_rules_differ_and_0_when_they_are_the_same():
    """As `diff` and `git diff --exit-code` do; --help says so."""
    assert run_cli("diff", "poison", "poison-five-card").returncode == 1
    assert run_cli("diff", "poison", "poison-five-card", "--format", "json").returncode == 1
    same = run_cli("diff", "poison", "poison")
    assert same.returncode == 0 and same.stdout == ""
    assert "1 when they differ" in " ".join(run_cli("diff", "--help").stdout.split())


def test_replay_of_an_empty_file_is_an_error(tmp_path):
    """No records is not a success: exit 2 and a message saying so."""
    path = tmp_path / "empty.jsonl"
    path.write_text("\n")
    result = run_cli("replay", str(path))
    assert result.returncode == 2 and "holds no records" in result.stderr


@pytest.mark.parametrize("command", [("simulate", "--games", "1"), ("play",), ("compare", "poison")])
def test_players_0_names_the_range_of_players(command):
    """--players 0: the rules' range, not a count of agents."""
    result = run_cli(command[0], "poison", *command[1:], "--players", "0", input="q\n")
    assert result.returncode == 2
    assert "Poison is for 3 to 6 players, not 0" in result.stderr and "agents" not in result.stderr


def test_one_game_is_one_game_not_1_games(tmp_path):
    """Plurals are right: "1 game" in simulate's report and in replay's summary."""
    records = tmp_path / "one.jsonl"
    out = run_cli("simulate", "poison", "--games", "1", "--record", str(records)).stdout
    assert "1 game," in out and "1 game in" in out
    assert not re.search(r"(?<![\d.])1 games", out)  # (a speed such as "60.1 games/s" is not a count)
    assert "1 game replayed" in run_cli("replay", str(records)).stdout


def test_a_misspelled_command_gets_the_nearest_names():
    """`ruleset simlate` asks "did you mean 'simulate'?" (exit 2)."""
    result = run_cli("simlate", "poison")
    assert result.returncode == 2 and "did you mean 'simulate'" in result.stderr
    assert "did you mean" not in run_cli("zzzz").stderr


def test_check_strict_counts_warnings_as_errors():
    """`check --strict` exits 1 on a ruleset with only warnings (0 without it); a clean one still exits 0."""
    warned = "examples/broken/unused-param.rules"
    assert run_cli("check", warned, "--games", "0").returncode == 0
    strict = run_cli("check", warned, "--games", "0", "--strict", "--format", "json")
    assert strict.returncode == 1 and json.loads(strict.stdout)["exit_code"] == 1
    assert run_cli("check", "poison", "--games", "0", "--strict").returncode == 0


def test_check_names_a_shipped_ruleset_as_the_user_named_it(tmp_path):
    """`ruleset check poison` from any folder names poison.rules in its findings (text and JSON) and a
    variant's findings in its shipped base the same way, never the installed package's path."""
    text = run_cli("check", "poison", "--games", "2", "--jobs", "1", cwd=tmp_path).stdout
    assert "== poison.rules\npoison.rules:30:3: info: deals" in text
    doc = json.loads(run_cli("check", "poison", "--games", "2", "--jobs", "1", "--format", "json", cwd=tmp_path).stdout)
    assert {f["file"] for f in doc["findings"]} == {"poison.rules"}
    assert {c["at"].rsplit(":", 2)[0] for c in doc["coverage"]} == {"poison.rules"}
    (tmp_path / "v.rules").write_text('extends "poison.rules"\ngame "V"\nparam limit = 400\n')
    text = run_cli("check", "v.rules", "--games", "0", cwd=tmp_path).stdout
    assert "poison.rules:43:19: warning: this trigger can never hold" in text
    assert str(RULESETS) not in text and "site-packages" not in text


def test_check_takes_several_files_and_exits_with_the_worst():
    """`check A B`: each file's report in turn (each under its own `== FILE` line); the exit code is
    the worst file's; JSON gives one document per file."""
    r = run_cli("check", "examples/broken/syntax-error.rules", "rulesets/poison.rules", "--games", "0", "--quiet")
    assert r.returncode == 2, r.stderr
    assert "== examples/broken/syntax-error.rules" in r.stdout and "== rulesets/poison.rules" in r.stdout
    r = run_cli("check", "rulesets/poison.rules", "rulesets/poison-five-card.rules", "--games", "0", "--format", "json")
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["exit_code"] == 0
    assert [d["file"] for d in doc["files"]] == ["rulesets/poison.rules", "rulesets/poison-five-card.rules"]
