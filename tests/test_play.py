"""`ruleset play` driven as a person would: a real process, typed input, what the screen shows."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

from conftest import ROOT, ctrl_c_as_at_a_terminal, run_cli


def _screens(out: str) -> list[str]:
    return out.split("=== ")[1:]


def test_a_whole_game_shows_the_seats_hand_and_never_another_seats(tmp_path):
    rec = tmp_path / "game.jsonl"
    r = run_cli(
        "play", "poison", "--players", "3", "--seat", "1", "--agents", "random",
        "--set", "rounds=1", "--seed", "4", "--record", str(rec), input="1\n" * 40,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = r.stdout
    assert "your hand: potion" in out or "your hand: poison" in out
    hands = [line for line in out.splitlines() if line.startswith("hand of seat")]
    assert hands and all(re.fullmatch(r"hand of seat [02]: \d+ card\(s\), hidden", h) for h in hands)
    assert "round 1 scored" in out and "game over" in out
    assert re.search(r"cauldron \d: .*\[color (red|blue|violet|none); sum of value \d+\]", out)
    # the hand the screen showed is the hand the record dealt to seat 1
    game = json.loads(rec.read_text())
    first = next(line for line in out.splitlines() if line.startswith("your hand:"))
    dealt = game["rounds"][0]["deal"]["hand"][1]
    assert len(first.split(": ", 1)[1].split("   [")[0].split(", ")) == len(dealt)


def test_the_recorded_game_replays_as_the_seat_saw_it(tmp_path):
    rec = tmp_path / "game.jsonl"
    run_cli("play", "poison", "--players", "4", "--set", "rounds=1", "--record", str(rec), input="1\n" * 40)
    r = run_cli("replay", str(rec), "--seat", "2")
    assert r.returncode == 0, r.stderr
    assert "seen from seat 2" in r.stdout and "your hand:" in r.stdout
    assert all("hidden" in line for line in r.stdout.splitlines() if line.startswith("hand of seat"))
    assert "every move legal" in r.stdout


def test_bad_input_asks_again_and_q_quits_cleanly():
    r = run_cli("play", "poison", "--players", "4", input="seven\n0\n99\n?\nq\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "not a move: 'seven'" in r.stdout
    assert "there is no move 0" in r.stdout and "there is no move 99" in r.stdout
    assert "move play card from hand to cauldron" in r.stdout  # ? shows the phase's rules
    assert "you quit" in r.stdout


def test_a_card_can_be_named_instead_of_numbered():
    first = run_cli("play", "poison", "--players", "4", "--seed", "1", input="q\n")
    card, where = re.search(r" 2\) play (.*) to (cauldron \d)", first.stdout).groups()  # e.g. "potion red 7"
    r = run_cli("play", "poison", "--players", "4", "--seed", "1", input=f"{card.upper()} {where}\nq\n")
    assert f"you: play {card} to {where}" in r.stdout


def test_end_of_input_ends_the_game_cleanly():
    r = run_cli("play", "poison", "--players", "4", input="")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "end of input" in r.stdout


def test_bots_are_named_per_seat_and_a_bad_name_is_exit_2():
    r = run_cli("play", "poison", "--players", "3", "--agents", "wizard", input="q\n")
    assert r.returncode == 2 and "unknown agent 'wizard'" in r.stderr
    r = run_cli("play", "poison", "--players", "3", "--agents", "greedy,mcts:5", "--seat", "0", input="1\n1\nq\n")
    assert r.returncode == 0 and "(mcts(iterations=5))" in r.stdout


def test_in_the_trick_taking_game_another_seats_face_down_agenda_stays_hidden():
    r = run_cli(
        "play", "rulesets/poison-kedric-winks.rules", "--players", "3", "--agents", "random",
        "--set", "hands=1", input="1\n" * 20,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "game over" in r.stdout
    for line in lines:
        if line.startswith(("agenda_down of seat", "hand of seat", "offer of seat")):
            assert line.endswith("hidden"), line


def test_ctrl_c_at_the_prompt_ends_without_a_traceback():
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "play", "poison", "--players", "4"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    line = ""
    while "your move" not in line:
        line = proc.stdout.readline()
        assert line, "the prompt never came"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err
    assert proc.returncode in (0, 130)
