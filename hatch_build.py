"""Wheel build hook: compile the engine's hot modules with Cython, when it can.

The engine is plain Python and runs as such (from the source tree, the tests do). Building a
wheel (`pip install .`) also compiles the modules that play a game move by move into C
extension modules, beside their ``.py`` files; Python imports an extension before a source
file of the same name, so the installed engine is the compiled one. This compiles our engine's
code, never a ruleset: rules stay data. `ruleset --version` says which engine is installed.

If Cython or a C compiler is missing, or a module fails to compile, the wheel is pure Python
(with a warning) and everything works, only slower. ``RULESET_PURE_PYTHON=1`` skips compiling.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# The modules on the path of every move (and of search and checking playouts); keep in step
# with interpreter/build.py, which reports what is compiled.
COMPILED = [
    "interpreter/engine/state.py",
    "interpreter/engine/state_fields.py",
    "interpreter/engine/rule_fields.py",
    "interpreter/engine/moves.py",
    "interpreter/engine/move_loops.py",
    "interpreter/engine/expressions.py",
    "interpreter/engine/value_exprs.py",
    "interpreter/engine/truth_exprs.py",
    "interpreter/engine/comparison_exprs.py",
    "interpreter/engine/collection_exprs.py",
    "interpreter/engine/aggregate_exprs.py",
    "interpreter/engine/player_exprs.py",
    "interpreter/engine/effects.py",
    "interpreter/engine/turns.py",
    "interpreter/engine/deal.py",
    "interpreter/engine/scoring.py",
    "interpreter/engine/observe.py",
    "interpreter/engine/history.py",
    "interpreter/engine/card_sets.py",
    "interpreter/engine/choices.py",
    "interpreter/engine/flow.py",
    "interpreter/engine/loops.py",
    "interpreter/engine/knowledge.py",
    "interpreter/engine/events.py",
    "interpreter/engine/accounting.py",
    "interpreter/simulation/simulate.py",
    "interpreter/simulation/one_game.py",
    "interpreter/simulation/tally.py",
    "interpreter/simulation/stats.py",  # Tally folds each game into its moments (Moments.add)
    "interpreter/agents/base.py",
    "interpreter/agents/random_agent.py",
    "interpreter/agents/greedy.py",
    "interpreter/agents/belief.py",
    "interpreter/agents/inference.py",
    "interpreter/agents/repairs.py",
    "interpreter/agents/facts.py",
    "interpreter/agents/mcts.py",
    "interpreter/checker/playouts.py",
    # verify's search: its loop over states, their keys, chance enumerated, the properties checked
    "interpreter/verify/explore.py",
    "interpreter/verify/encode.py",
    "interpreter/verify/chance.py",
    "interpreter/verify/properties.py",
    "interpreter/verify/score_memo.py",
    "interpreter/verify/move_memo.py",
]


class CompileEngineHook(BuildHookInterface):
    """Adds the compiled modules to a standard (non-editable) wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version != "standard":
            return
        if os.environ.get("RULESET_PURE_PYTHON"):
            self.app.display_info("RULESET_PURE_PYTHON is set: building a pure-Python engine")
            return
        self._tmp = tempfile.mkdtemp(prefix="ruleset-build-")
        self.app.display_info(  # (pip shows a build's lines with -v only)
            f"compiling {len(COMPILED)} engine modules with Cython and a C compiler: several CPU minutes"
        )
        try:
            built = compile_modules(Path(self.root), Path(self._tmp))
        except Exception as err:  # no compiler, no Cython: the pure-Python engine still works
            self.app.display_warning(f"could not compile the engine ({type(err).__name__}: {err}); pure Python")
            return
        for path, target in built.items():
            build_data["force_include"][str(path)] = target
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"compiled {len(built)} engine modules with Cython")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def compile_modules(root: Path, out: Path) -> dict[Path, str]:
    """Compile COMPILED into ``out``; returns built file -> its path inside the wheel."""
    from Cython.Build import cythonize
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    cwd = os.getcwd()
    os.chdir(root)  # Cython names modules by their path from the package root
    try:
        extensions = cythonize(
            COMPILED,
            language_level=3,
            build_dir=str(out / "c"),
            compiler_directives={"binding": False, "embedsignature": True},
            nthreads=os.cpu_count() or 1,
            quiet=True,
        )
        if os.name == "posix":  # no debugging symbols: a third of the size, and a faster build
            for ext in extensions:
                ext.extra_compile_args = ["-g0"]
        dist = Distribution({"name": "ruleset-engine", "ext_modules": extensions})
        cmd = build_ext(dist)
        cmd.build_lib = str(out / "lib")
        cmd.build_temp = str(out / "tmp")
        cmd.parallel = os.cpu_count() or 1
        cmd.ensure_finalized()
        cmd.run()
    finally:
        os.chdir(cwd)
    built: dict[Path, str] = {}
    for path in (out / "lib").rglob("*"):
        if path.suffix in (".so", ".pyd"):
            built[path] = path.relative_to(out / "lib").as_posix()
    if len(built) != len(COMPILED):
        raise RuntimeError(f"built {len(built)} of {len(COMPILED)} modules")
    return built
