"""`--plot FILE.png|svg` draws the statistics when matplotlib (the extra "plots") is installed,
and says how to install it when not."""

from __future__ import annotations

import sys

import pytest

from conftest import EXAMPLES, HANG, ROOT, RULESETS, run_cli
from interpreter.simulation.plots import box_stats


def test_simulate_plot_writes_a_png(tmp_path):
    """`simulate --plot out.png` writes a non-empty PNG."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "out.png"
    r = run_cli("simulate", str(EXAMPLES / "seat-zero-wins.rules"), "--games", "5", "--plot", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 1000


def test_compare_plot_writes_an_svg(tmp_path):
    """`compare --plot out.svg` draws the variants side by side as SVG."""
    pytest.importorskip("matplotlib")
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
