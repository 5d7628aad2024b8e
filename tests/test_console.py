"""What the commands print: rich tables and colours on a terminal; plain, aligned text through a
pipe or with NO_COLOR; JSON the same byte for byte wherever it goes."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

from conftest import HANG, ROOT, run_cli

ESC = "\x1b["


def run_in_terminal(*args: str, **env: str) -> tuple[str, str]:
    """Run `ruleset ARGS` with stdout on a pseudo-terminal 160 columns wide (stderr too unless
    ``pipe_stderr``); its stdout (line ends as written) and its stderr."""
    pipe_stderr = env.pop("pipe_stderr", "")
    leader, follower = pty.openpty()
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "160", "TERM": "xterm", **env}
    if "NO_COLOR" not in env:
        environ.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.PIPE if pipe_stderr else follower,
        env=environ,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.wait(timeout=HANG)
    os.close(leader)
    return b"".join(chunks).decode().replace("\r\n", "\n"), err


def test_an_error_is_coloured_on_a_terminal_and_plain_with_no_color(tmp_path):
    """`error:` in red on a terminal; the same words without escape codes when NO_COLOR is set."""
    bad = tmp_path / "bad.rules"
    bad.write_text('game "X"\nplayers 2..4\nZones\n')
    coloured, _ = run_in_terminal("show", str(bad))
    assert ESC in coloured and "error:" in coloured and "names are lower case" in coloured
    plain, _ = run_in_terminal("show", str(bad), NO_COLOR="1")
    assert ESC not in plain and "error: unexpected 'Z'" in plain


def test_a_simulate_report_is_a_table_on_a_terminal_and_plain_columns_in_a_pipe():
    """On a terminal the seats are a rich table (a ruled header); through a pipe, plain text with no escapes."""
    shown, _ = run_in_terminal("simulate", "poison", "--games", "3", "--quiet")
    assert "─" * 20 in shown and ESC in shown and "win rate" in shown
    piped = run_cli("simulate", "poison", "--games", "3")
    assert ESC not in piped.stdout and "─" not in piped.stdout and "win rate" in piped.stdout


def test_json_is_the_same_byte_for_byte_on_a_terminal_and_in_a_pipe():
    """`--format json` is never drawn: a terminal gets exactly what a pipe gets (times aside)."""
    args = ("check", "poison", "--games", "5", "--jobs", "1", "--format", "json")
    shown, _ = run_in_terminal(*args, pipe_stderr="1")
    piped = run_cli(*args).stdout

    def timeless(text: str) -> str:
        return "\n".join(line for line in text.splitlines() if '"seconds"' not in line)

    assert timeless(shown) == timeless(piped)


def test_a_long_agent_name_keeps_the_seat_table_aligned():
    """`mcts(iterations=2)` is wider than the old fixed column: the wins column stays apart and aligned."""
    out = run_cli("simulate", "poison", "--games", "1", "--agents", "mcts(iterations=2),random").stdout
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("seat "))
    table = lines[head : head + 4]
    assert "mcts(iterations=2)0" not in out and "mcts(iterations=2)  " in table[1]
    ends = {line.index("%") for line in table[1:]}  # the win rates end in one column
    assert len(ends) == 1, table


def test_the_progress_bar_shows_the_rate_and_the_time_left_on_a_terminal():
    """A run longer than a second draws rich's bar on stderr: games done, games/s and the time left."""
    # (stderr shares the terminal: the bar is in the same stream)
    shown, _ = run_in_terminal("simulate", "poison", "--games", "60", "--agents", "greedy")
    assert "60/60" in shown and "games/s" in shown and "0:00:00" in shown


def test_play_colours_its_headers_on_a_terminal_only():
    """`ruleset play` on a terminal: the round's header in bold; through a pipe, the same words plain."""
    pty_out, _ = run_in_terminal("play", "poison", "--agents", "random")  # (stdin empty: it ends at once)
    assert f"{ESC}1m=== round 1 of 6, dealer you ===" in pty_out
    piped = run_cli("play", "poison", "--agents", "random", input="")
    assert "=== round 1 of 6, dealer you ===" in piped.stdout and ESC not in piped.stdout
