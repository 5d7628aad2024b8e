"""Whole records: an interrupted `simulate --record` leaves only complete lines and says how
many games it saved; a hand-edited record's first illegal move is named by line and move."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import HANG, ROOT, RULESETS, ctrl_c_as_at_a_terminal, run_cli
from interpreter.engine.records import parse_line, record, replay
from interpreter.simulation.one_game import play_game
from interpreter.simulation.recordfile import RecordFile, held_signals

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def lines_of(path) -> list[str]:
    """The lines of a file, read as bytes so that a cut line cannot hide."""
    data = path.read_bytes()
    assert not data or data.endswith(b"\n"), "the file ends inside a line"
    return data.decode("utf-8").splitlines()


def interrupt_a_run(tmp_path, signum: int, installed: bool = False) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Start a long recorded simulation, send ``signum`` once a few games are saved, wait for it.
    ``installed``: run the installed package (-I, from elsewhere) rather than the source tree."""
    out = tmp_path / "games.jsonl"
    python = [sys.executable, "-I"] if installed else [sys.executable]
    args = [*python, "-m", "interpreter", "simulate", str(RULESETS / "poison.rules"), "--players", "4"]
    args += ["--games", "1000000", "--record", str(out), "--quiet"]
    proc = subprocess.Popen(
        args,
        cwd=tmp_path if installed else ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    try:
        deadline = time.monotonic() + HANG
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.05)
        proc.send_signal(signum)
        stdout, stderr = proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
    return subprocess.CompletedProcess(args, proc.returncode, stdout, stderr), lines_of(out)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_run_leaves_only_whole_records_and_says_how_many(tmp_path, signum) -> None:
    """Ctrl-C or SIGTERM mid-run: every line parses as a record, and stderr gives their number."""
    result, lines = interrupt_a_run(tmp_path, signum)
    assert result.returncode == 128 + signum, result.stderr
    assert "Traceback" not in result.stderr
    assert len(lines) >= 3
    assert f"interrupted: {len(lines)} games saved to" in result.stderr
    for number, line in enumerate(lines, 1):
        parse_line(line, number)  # valid JSON and a valid game record


def test_the_compiled_engine_stops_on_ctrl_c_with_whole_records(installed, tmp_path) -> None:
    """Compiled code runs no Python bytecode between moves, where signals are handled: Ctrl-C must
    still stop `simulate --record` promptly, between games, leaving whole records."""
    result, lines = interrupt_a_run(tmp_path, signal.SIGINT, installed=True)
    assert result.returncode == 128 + signal.SIGINT, result.stderr
    assert f"interrupted: {len(lines)} games saved to" in result.stderr
    for number, line in enumerate(lines, 1):
        parse_line(line, number)


def test_the_saved_games_of_an_interrupted_run_replay(tmp_path) -> None:
    """What an interrupted run saved is a usable record file."""
    _, lines = interrupt_a_run(tmp_path, signal.SIGINT)
    replayed = run_cli("replay", str(tmp_path / "games.jsonl"), "--quiet")
    assert replayed.returncode == 0, replayed.stderr
    assert f"{len(lines)} games replayed" in replayed.stdout


def test_a_signal_during_a_write_waits_for_the_line(tmp_path) -> None:
    """SIGINT arriving while a line is written is raised only after the line is whole."""
    path = tmp_path / "one.jsonl"
    out = RecordFile(path)
    try:
        with pytest.raises(KeyboardInterrupt), held_signals():
            os.kill(os.getpid(), signal.SIGINT)
            out._file.write('{"half": ')
            out._file.write("1}\n")
            out._file.flush()
    finally:
        out.close()
    assert path.read_text() == '{"half": 1}\n'


def test_a_record_file_that_cannot_be_written_is_bad_input(tmp_path) -> None:
    """--record naming a directory: exit 2 and the reason, no traceback."""
    result = run_cli("simulate", "poison", "--games", "1", "--record", str(tmp_path))
    assert result.returncode == 2
    assert "cannot write records to" in result.stderr and "Traceback" not in result.stderr


# ---- a hand-edited record ------------------------------------------------------------------------


def recorded(poison, games: int = 3) -> list[dict]:
    """Records of a few 4-player games."""
    return [record(play_game(poison, 4, seed)) for seed in range(games)]


def test_replay_names_the_line_round_and_move_of_the_first_illegal_move(poison, tmp_path) -> None:
    """Move 5 of round 1 on line 2 edited to play a card the player was never dealt: that place is named."""
    recs = recorded(poison)
    fifth = recs[1]["rounds"][0]["moves"][4]
    hands = recs[1]["rounds"][0]["deal"]["hand"]
    own = hands[fifth["player"]]
    fifth["card"] = next(c for hand in hands for c in hand if c not in own)
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    result = run_cli("replay", str(path))
    assert result.returncode == 1
    assert "line 1:" in result.stdout and "replayed" in result.stdout
    assert "line 2: round 1, move 5: the rules do not allow this move" in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_names_a_move_by_the_wrong_player(poison, tmp_path) -> None:
    """A move given to the wrong seat: its line, round and move number, and whose turn it was."""
    rec = recorded(poison, 1)[0]
    move = rec["rounds"][1]["moves"][7]
    move["player"] = (move["player"] + 1) % 4
    path = tmp_path / "edited.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    result = run_cli("replay", str(path))
    assert result.returncode == 1
    assert "line 1: round 2, move 8: it is seat" in result.stderr


def test_replay_of_a_cut_line_names_the_line(poison, tmp_path) -> None:
    """A record cut in the middle (an editor's accident) is not valid JSON, at its line."""
    recs = recorded(poison, 2)
    path = tmp_path / "cut.jsonl"
    path.write_text(json.dumps(recs[0]) + "\n" + json.dumps(recs[1])[:200] + "\n")
    result = run_cli("replay", str(path))
    assert result.returncode == 1
    assert "line 2: not valid JSON" in result.stderr


def test_an_untouched_record_replays(poison) -> None:
    """The control: records as written replay to the same totals."""
    for rec in recorded(poison, 2):
        assert replay(poison, rec).totals == rec["totals"]


# ---- recorded runs over processes ---------------------------------------------------------------

PARALLEL_RUNS = """
import sys
from interpreter.loader import load
from interpreter.simulation.simulate import simulate
game = load(sys.argv[1])
for i in range(int(sys.argv[2])):
    simulate(game, 4, 20, seed=i, record_to=sys.argv[3], jobs=2)
    print(i, flush=True)
"""


def test_recorded_runs_over_processes_neither_hang_nor_print_tracebacks(tmp_path) -> None:
    """`simulate --jobs 2 --record`, many times over: the handler that keeps record lines whole is
    the main process's alone; pool workers stopped at the end of a run exit quietly, none hangs."""
    runs = 30
    args = [sys.executable, "-c", PARALLEL_RUNS, str(RULESETS / "poison.rules"), str(runs), str(tmp_path / "r.jsonl")]
    try:
        result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=HANG)
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"a recorded run over processes hung after {err.stdout!r}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(i) for i in range(runs)]
    assert "Traceback" not in result.stderr and "KeyboardInterrupt" not in result.stderr
