"""The package reads as the pipeline: each stage imports only the stages before it, and no
modules import each other in a cycle (an AST walk over every import, module level or not)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"

# What each part may import (besides itself). Top-level modules are parts of their own.
ALLOWED = {
    "errors": set(),
    "language": {"errors"},
    "engine": {"language", "errors"},
    "loader": {"language", "engine", "errors"},
    "agents": {"engine", "language", "errors"},
    "simulation": {"agents", "engine", "language", "errors", "loader"},
    "checker": {"simulation", "agents", "engine", "text", "language", "errors", "loader"},
    "text": {"engine", "language", "errors"},
    "verify": {"checker", "simulation", "agents", "engine", "text", "language", "errors", "loader"},
    "play": {"checker", "simulation", "agents", "engine", "text", "language", "errors", "loader"},
    "editor": {"checker", "text", "language", "engine", "errors", "loader"},
    "build": {"engine"},
    "commands": {"*"},
    "__init__": {"engine", "errors", "loader"},
    "__main__": {"commands"},
}


def module_name(path: Path) -> str:
    """``interpreter.engine.state`` for interpreter/engine/state.py (a package for its __init__)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The interpreter modules one file imports, resolved to absolute names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text())
    typing_only = {  # `if TYPE_CHECKING:` imports are for annotations, never run
        id(n)
        for guard in ast.walk(tree)
        if isinstance(guard, ast.If) and getattr(guard.test, "id", "") == "TYPE_CHECKING"
        for n in ast.walk(guard)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("interpreter"):
                continue
            for alias in node.names:  # `from . import phrases` imports a module
                sub = f"{target}.{alias.name}"
                found.add(sub if (PACKAGE.parent / sub.replace(".", "/")).with_suffix(".py").exists() else target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("interpreter"))
    return found - {name}


def part(module: str) -> str:
    """The stage a module belongs to: its first name under ``interpreter``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


GRAPH = {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_a_module_imports_only_earlier_stages(module):
    """Imports flow one way: language -> engine -> agents, simulation, checker, text, play -> commands."""
    allowed = ALLOWED[part(module)]
    wrong = sorted(
        t for t in GRAPH[module] if part(t) != part(module) and "*" not in allowed and part(t) not in allowed
    )
    assert not wrong, f"{module} imports {wrong}; its stage may import only {sorted(allowed)}"


def test_no_modules_import_each_other_in_a_cycle():
    """No import cycle, however indirect (a cycle makes the order of loading matter)."""
    seen: dict[str, int] = {}  # 1 on the current path, 2 done
    stack: list[str] = []

    def visit(m: str) -> None:
        seen[m] = 1
        stack.append(m)
        for t in sorted(GRAPH.get(m, ())):
            if t not in GRAPH or (part(t) == "__init__" and t == "interpreter"):
                continue
            if seen.get(t) == 1:
                cycle = [*stack[stack.index(t) :], t]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if t not in seen:
                visit(t)
        stack.pop()
        seen[m] = 2

    for m in sorted(GRAPH):
        if m not in seen:
            visit(m)
