"""Which engine this is: compiled with Cython (the wheel `pip install .` builds, see
hatch_build.py) or pure Python (the source tree, or a wheel built without a C compiler)."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

# The name pip knows this package by (pyproject.toml's [project] name): the command stays `ruleset`
# and the import name `interpreter`, but `ruleset` on the public index is someone else's package.
DISTRIBUTION = "ruleset-cards"


def engine_build() -> str:
    """``"compiled"`` when the modules that play moves are C extensions, else ``"pure Python"``."""
    from .engine import state

    path = getattr(state, "__file__", "") or ""
    return "compiled" if path.endswith(tuple(EXTENSION_SUFFIXES)) else "pure Python"
