"""Spreading a run's games over processes (--jobs) or a dask cluster gives a serial run's
statistics and records, byte for byte: each game's seed comes from the run seed and its index,
and results are merged in game-index order."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import HANG, ROOT, RULESETS, ctrl_c_as_at_a_terminal, run_cli, wait_until
from interpreter.simulation.parallel import ranges
from interpreter.simulation.simulate import simulate

TIMING = {"seconds", "games_per_second", "moves_per_second", "jobs"}
GAMES = 24


def same_figures(a: dict, b: dict) -> None:
    """Every figure but the timings is equal."""
    assert {k: v for k, v in a.items() if k not in TIMING} == {k: v for k, v in b.items() if k not in TIMING}


@pytest.fixture(scope="module")
def serial(five_card, tmp_path_factory):
    path = tmp_path_factory.mktemp("serial") / "games.jsonl"
    return simulate(five_card, 3, GAMES, seed=7, record_to=path), path.read_text()


def test_chunks_cover_every_game_once_in_order():
    """The chunks of a run are consecutive and cover 0..games-1."""
    for games, workers in [(1, 1), (7, 2), (100, 3), (2000, 2)]:
        bounds = ranges(games, workers)
        assert bounds[0][0] == 0 and bounds[-1][1] == games
        assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))


def test_jobs_2_gives_the_serial_statistics_and_records(five_card, serial, tmp_path):
    """--jobs 2: the same figures, rule counts and record file as the serial run."""
    stats, records = serial
    path = tmp_path / "games.jsonl"
    spread = simulate(five_card, 3, GAMES, seed=7, record_to=path, jobs=2)
    same_figures(stats, spread)
    assert path.read_text() == records
    assert len(records.splitlines()) == GAMES
    assert all(json.loads(line)["players"] == 3 for line in records.splitlines())


def test_a_dask_local_cluster_gives_the_serial_statistics_and_records(five_card, serial, tmp_path):
    """--scheduler with a dask LocalCluster (threads, in this process): the same figures and records."""
    distributed = pytest.importorskip("distributed")
    stats, records = serial
    path = tmp_path / "games.jsonl"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        spread = simulate(five_card, 3, GAMES, seed=7, record_to=path, scheduler=cluster.scheduler_address)
    same_figures(stats, spread)
    assert path.read_text() == records


def test_cli_jobs_2_prints_the_serial_json():
    """`simulate --jobs 2 --format json` equals the serial run's JSON but for the timings."""
    args = ["simulate", str(RULESETS / "poison.rules"), "--players", "4", "--games", "6", "--format", "json"]
    one = run_cli(*args)
    two = run_cli(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    same_figures(json.loads(one.stdout), json.loads(two.stdout))


def test_bad_spread_options_are_errors_not_tracebacks():
    """--jobs -1, or --jobs with --scheduler, is bad input: exit 2 with a message (--jobs 0: one per CPU)."""
    r = run_cli("simulate", "poison", "--players", "4", "--games", "2", "--jobs", "-1")
    assert r.returncode == 2 and "expected 0 (one per CPU) or more" in r.stderr
    r = run_cli("simulate", "poison", "--games", "2", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert r.returncode == 2 and "not both" in r.stderr


def test_an_error_in_a_worker_is_raised_here_with_its_position():
    """A rules error inside a worker comes back as data and is raised as the same error, same span."""
    from interpreter.errors import PlayError, Span
    from interpreter.simulation.parallel import Chunk, _checked

    chunk = Chunk(0, [], [], None, None, (PlayError, ("the round never ends", Span("x.rules", 3, 5), "a hint")))
    with pytest.raises(PlayError) as err:
        _checked(chunk)
    assert (err.value.message, str(err.value.span), err.value.hint) == ("the round never ends", "x.rules:3:5", "a hint")


def children(pid: int) -> list[str]:
    """The child processes of ``pid`` (Linux's /proc)."""
    tasks = Path(f"/proc/{pid}/task")
    return [c for t in tasks.iterdir() for c in (t / "children").read_text().split()] if tasks.exists() else []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from Linux's /proc")
@pytest.mark.parametrize("command", ["simulate", "check"])
def test_ctrl_c_stops_a_run_over_processes_quietly(command):
    """Ctrl-C at a terminal reaches every process of the command, its pool workers too: the run
    stops at once with "interrupted" (exit 130), no worker prints a traceback and none is left."""
    args = [sys.executable, "-m", "interpreter", command, "poison", "--games", "1000000", "--jobs", "2", "--quiet"]
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        wait_until(lambda: len(children(proc.pid)) >= 2 or proc.poll() is not None, "the pool's workers")
        time.sleep(1)  # the workers are playing
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + signal.SIGINT, stderr
    assert stderr.strip() == "interrupted"
    assert not group_alive(proc.pid, wait=HANG), "a worker outlived the run"


def group_alive(pgid: int, wait: float) -> bool:
    """Whether a process group still has a process after waiting up to ``wait`` seconds for it to go."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True
