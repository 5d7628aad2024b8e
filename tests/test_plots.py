"""`--plot FILE.png|svg` draws the statistics when matplotlib (the extra "plots", also pulled by
"test", so CI draws them) is installed, and says how to install it when not. A figure is read back
as a person reads it: its titles and legends (SVGs written with their text as text)."""

from __future__ import annotations

import re
import sys
from html import unescape

import pytest

from conftest import EXAMPLES, HANG, ROOT, RULESETS, run_cli
from interpreter.simulation.plots import box_stats


def matplotlib():
    """matplotlib, or a skip that says how to get it (pip install ".[test]" brings it, as CI does)."""
    return pytest.importorskip(
        "matplotlib", reason='matplotlib is not installed: pip install ".[test]" (or ".[plots]")'
    )


def test_simulate_plot_writes_a_png(tmp_path):
    """`simulate --plot out.png` writes a non-empty PNG."""
    matplotlib()
    out = tmp_path / "out.png"
    r = run_cli("simulate", str(EXAMPLES / "seat-zero-wins.rules"), "--games", "5", "--plot", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 1000


def test_compare_plot_writes_an_svg(tmp_path):
    """`compare --plot out.svg` draws the variants side by side as SVG."""
    matplotlib()
    out = tmp_path / "out.svg"
    r = run_cli(
        "compare", str(RULESETS / "poison.rules"), str(RULESETS / "poison-five-card.rules"),
        "--players", "3", "--games", "3", "--plot", str(out),
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "<svg" in out.read_text()


def test_without_matplotlib_plot_says_how_to_install_it(tmp_path):
    """With matplotlib hidden, --plot fails before playing, naming the extra to install; exit 2."""
    code = (
        "import sys; sys.modules['matplotlib'] = None; from interpreter.commands.cli import main; "
        f"sys.exit(main(['simulate', 'poison', '--games', '2', '--plot', {str(tmp_path / 'x.png')!r}]))"
    )
    import subprocess

    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=HANG)
    assert r.returncode == 2
    assert 'pip install "ruleset-cards[plots]"' in r.stderr
    assert not (tmp_path / "x.png").exists()


def test_plot_to_an_unknown_format_is_bad_input():
    """--plot out.gif is refused before any game is played."""
    r = run_cli("simulate", "poison", "--games", "2", "--plot", "out.gif")
    assert r.returncode == 2 and ".png or .svg" in r.stderr


def test_box_figures_come_from_the_score_histogram():
    """Quartiles, extremes and mean of 1,2,2,3,10 read from its histogram."""
    box = box_stats([[1, 1], [2, 2], [3, 1], [10, 1]], "seat 0")
    assert (box["whislo"], box["q1"], box["med"], box["q3"], box["whishi"]) == (1, 2, 2, 3, 10)
    assert box["mean"] == pytest.approx(3.6)


def svg_texts(path) -> list[str]:
    """The words an SVG figure shows (titles, legends, tick labels), in order."""
    return [unescape(x) for x in re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text())]


@pytest.fixture
def words_as_text(tmp_path, monkeypatch):
    """matplotlib writes an SVG's words as text, not glyph outlines (its rc file, read by every process
    started from the test): a figure's titles can then be read back."""
    matplotlib()
    rc = tmp_path / "mplrc"
    rc.mkdir()
    (rc / "matplotlibrc").write_text("svg.fonttype: none\n")
    monkeypatch.setenv("MATPLOTLIBRC", str(rc))


EXPERIMENT = """\
name: does a higher limit change Poison?
rulesets:
  - {poison}
  - file: {poison}
    label: Poison, limit 17
    set: {{limit: 17}}
players: [3, 4]
games: 2
seed: 1
output: results.json
"""


def test_an_experiments_plot_is_one_figure_naming_its_question_and_each_run_by_label_and_players(
    tmp_path, words_as_text
):
    """`simulate --config --plot` writes the one file asked for: titled by the experiment's name and
    its player counts, each run in the legend by the yaml's label (the ruleset's name without one) and
    its player count."""
    config = tmp_path / "exp.yaml"
    config.write_text(EXPERIMENT.format(poison=RULESETS / "poison.rules"))
    out = tmp_path / "plots" / "exp.svg"
    out.parent.mkdir()
    r = run_cli("simulate", "--config", str(config), "--plot", str(out), "--jobs", "1", "--quiet")
    assert r.returncode == 0, r.stderr
    assert [p.name for p in out.parent.iterdir()] == ["exp.svg"]
    words = svg_texts(out)
    assert "does a higher limit change Poison?: 3, 4 players, 2 games each" in words
    legend = ["A: Poison, 3p", "B: Poison, 4p", "C: Poison, limit 17, 3p", "D: Poison, limit 17, 4p"]
    assert all(words.count(label) == 2 for label in legend), words  # (the win rates' and the scores' legends)


def test_a_runs_plot_is_titled_by_its_game_games_and_players_with_a_box_per_seat(tmp_path, poison):
    """`simulate --plot` titles the figure with the game, the games played and the player count, and
    draws one score box per seat."""
    mpl = matplotlib()
    from interpreter.simulation.plots import plot_run
    from interpreter.simulation.simulate import simulate

    with mpl.rc_context({"svg.fonttype": "none"}):
        plot_run(simulate(poison, 4, 3, seed=0), str(tmp_path / "run.svg"))
    words = svg_texts(tmp_path / "run.svg")
    assert "Poison: 3 games, 4 players" in words
    assert [w for w in words if w.startswith("seat ")][:4] == ["seat 0", "seat 1", "seat 2", "seat 3"]


def test_runs_that_differ_only_by_their_agents_are_told_apart_by_them(tmp_path):
    """Two line-ups of one game and count: the legend says each run's agents."""
    mpl = matplotlib()
    from interpreter.simulation.plots import plot_compare

    run = {"ruleset": "Poison", "players": 3, "games": 2, "length": {"moves": {"mean": 60, "ci": None}}}
    run["first_player"] = {"score_lead": {"mean": 0.0, "ci": None}}
    seats = [{"seat": s, "win_rate": 0.3, "win_rate_ci": None, "score": {"mean": -9, "ci": None}} for s in range(3)]
    runs = [{**run, "seats": seats, "agents": agents} for agents in (["random"] * 3, ["greedy", "random", "random"])]
    with mpl.rc_context({"svg.fonttype": "none"}):
        plot_compare(runs, str(tmp_path / "two.svg"))
    words = svg_texts(tmp_path / "two.svg")
    assert "A: Poison, random" in words and "B: Poison, greedy,random,random" in words
