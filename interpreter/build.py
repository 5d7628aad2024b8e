"""Which engine this is: compiled with Cython (the wheel `pip install .` builds, see
hatch_build.py) or pure Python (the source tree, or a wheel built without a C compiler)."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES


def engine_build() -> str:
    """``"compiled"`` when the modules that play moves are C extensions, else ``"pure Python"``."""
    from .engine import state

    path = getattr(state, "__file__", "") or ""
    return "compiled" if path.endswith(tuple(EXTENSION_SUFFIXES)) else "pure Python"
