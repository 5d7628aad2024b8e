"""Which engine a benchmark measures, chosen before it imports ``interpreter``.

By default the installed package: the compiled engine when `pip install .` could build it (see
hatch_build.py), the one `ruleset` runs. With ``--source`` on the command line, or when nothing
(or a ruleset older than this tree) is installed, the source tree beside this file: the
pure-Python engine, the one the tests run. Every benchmark prints which one it measured
(``describe()``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def choose() -> None:
    """Put the source tree first on the path when asked (``--source``) or when nothing is installed."""
    source = "--source" in sys.argv
    if source:
        sys.argv.remove("--source")
    installed = importlib.util.find_spec("interpreter")
    # an install older than this tree (it has no build.py) is no figure for this tree: use the source
    stale = installed is None or not (Path(installed.origin or "").parent / "build.py").exists()
    if source or stale:
        sys.path.insert(0, str(ROOT))


def describe() -> str:
    """``engine: compiled (/…/site-packages/interpreter)`` or ``engine: pure Python (…)``."""
    import interpreter
    from interpreter.build import engine_build

    return f"engine: {engine_build()} ({Path(interpreter.__file__).parent})"
