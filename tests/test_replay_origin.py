"""A record says where its rules came from (absolute path, shipped name, sha256 of the text), so
`replay` finds them from any folder and names a changed rules file as changed; old records
(without `origin`) still replay."""

from __future__ import annotations

import hashlib
import json
import shutil

from conftest import EXAMPLES, RULESETS, run_cli
from interpreter.loader import ir_from_path


def record_in(folder, rules_name: str, *extra: str) -> list[dict]:
    """Simulate two games from ``folder`` (rules named relative to it); their records."""
    out = folder / "games.jsonl"
    result = run_cli("simulate", rules_name, "--games", "2", "--record", str(out), *extra, cwd=folder)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_a_record_made_with_a_relative_path_replays_from_another_folder(tmp_path):
    """`simulate my.rules` in one folder, `replay ../made/games.jsonl` in another: found by its absolute path."""
    made, elsewhere = tmp_path / "made", tmp_path / "elsewhere"
    made.mkdir(), elsewhere.mkdir()
    shutil.copy(RULESETS / "poison.rules", made / "my.rules")
    rec = record_in(made, "my.rules")[0]
    assert rec["source"] == "my.rules" and rec["origin"]["path"] == str(made / "my.rules")
    result = run_cli("replay", "../made/games.jsonl", cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    assert "2 games replayed" in result.stdout


def test_a_shipped_ruleset_is_found_again_by_its_name(tmp_path):
    """A record of `simulate poison` names the shipped ruleset; moved paths do not matter."""
    rec = record_in(tmp_path, "poison")[0]
    assert rec["origin"]["shipped"] == "poison"
    rec["source"] = rec["origin"]["path"] = str(tmp_path / "gone" / "poison.rules")
    (tmp_path / "moved.jsonl").write_text(json.dumps(rec) + "\n")
    result = run_cli("replay", str(tmp_path / "moved.jsonl"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr


def test_the_hash_is_of_the_text_read_with_the_bases_it_extends():
    """A file alone: the sha256 of its text (what sha256sum says); a variant: its text, then its base's."""
    base = (RULESETS / "poison-kedric-winks.rules").read_text("utf-8")
    assert (
        ir_from_path(RULESETS / "poison-kedric-winks.rules")["origin"]["sha256"]
        == hashlib.sha256(base.encode()).hexdigest()
    )
    variant = (EXAMPLES / "poison-kedric-winks-house-agendas.rules").read_text("utf-8")
    got = ir_from_path(EXAMPLES / "poison-kedric-winks-house-agendas.rules")["origin"]["sha256"]
    assert got == hashlib.sha256((variant + base).encode()).hexdigest()


def test_a_changed_rules_file_is_reported_as_changed(tmp_path):
    """Poison's poison scored -3 after the games were recorded: the replay fails and says the file changed."""
    shutil.copy(RULESETS / "poison.rules", tmp_path / "my.rules")
    record_in(tmp_path, "my.rules", "--players", "4")
    rules = tmp_path / "my.rules"
    rules.write_text(rules.read_text().replace("collected of player: -2", "collected of player: -3"))
    result = run_cli("replay", "games.jsonl", cwd=tmp_path)
    assert result.returncode == 1
    assert "have changed since this game was recorded" in result.stderr, result.stderr


def test_a_comment_changed_is_a_note_and_the_games_still_replay(tmp_path):
    """A change that does not alter the games: exit 0, and a note that the file changed."""
    shutil.copy(RULESETS / "poison.rules", tmp_path / "my.rules")
    record_in(tmp_path, "my.rules")
    rules = tmp_path / "my.rules"
    rules.write_text("# a new first comment\n" + rules.read_text())
    result = run_cli("replay", "games.jsonl", cwd=tmp_path)
    assert result.returncode == 0 and "have changed since" in result.stderr


def test_an_old_record_without_origin_still_replays(tmp_path):
    """Records written before `origin` existed: found by `source` (or by the shipped game's name)."""
    recs = record_in(tmp_path, str(RULESETS / "poison.rules"))
    for rec in recs:
        del rec["origin"]
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert run_cli("replay", str(tmp_path / "old.jsonl")).returncode == 0
    for rec in recs:
        rec["source"] = "somewhere/else.rules"
    (tmp_path / "older.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    result = run_cli("replay", str(tmp_path / "older.jsonl"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
