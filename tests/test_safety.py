"""Nothing in a ruleset is executed as code: the package never evals, execs or compiles text,
reads YAML only safely, and opens no network or shell. Rulesets that try are just bad input."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import interpreter
from conftest import ROOT, run_cli
from interpreter.errors import RulesetError

PACKAGE = ROOT / "interpreter"
SOURCES = sorted(PACKAGE.rglob("*.py"))

FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint"}
UNSAFE_YAML = {"unsafe_load", "unsafe_load_all", "full_load", "full_load_all", "load_all"}
FORBIDDEN_MODULES = {"shelve", "subprocess", "socket", "urllib", "http", "ftplib", "ctypes"}
UNPICKLERS = {"pickle", "marshal", "dill", "cloudpickle"}  # their load/loads run code
# The one network module a file may import, and why: `ruleset serve` binds its listening socket
# itself, before it prints the lobby's address, so that a port in use is a clear error.
NETWORK_ALLOWED = {("interpreter/commands/serve.py", "socket")}


def calls(tree: ast.AST):
    """Every call in a module's syntax tree."""
    return (node for node in ast.walk(tree) if isinstance(node, ast.Call))


def problems_in(path: Path) -> list[str]:
    """What a source file does that could run a ruleset's text as code, each as 'file:line: what'."""
    source = path.read_text("utf-8")
    tree = ast.parse(source, str(path))
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    found = []
    for call in calls(tree):
        func = call.func
        where = f"{rel}:{call.lineno}"
        if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
            found.append(f"{where}: {func.id}()")
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner, name = func.value.id, func.attr
            if owner == "yaml" and name in UNSAFE_YAML:
                found.append(f"{where}: yaml.{name}()")
            if owner == "yaml" and name == "load":
                loader = [k.value for k in call.keywords if k.arg == "Loader"] or call.args[1:2]
                safe = loader and isinstance(loader[0], ast.Attribute | ast.Name) and "Safe" in ast.unparse(loader[0])
                if not safe:
                    found.append(f"{where}: yaml.load() without SafeLoader")
            if owner in UNPICKLERS and name in {"load", "loads", "Unpickler"}:
                found.append(f"{where}: {owner}.{name}()")
            if owner == "os" and name in {"system", "popen", "execv", "execvp", "spawnv"}:
                found.append(f"{where}: os.{name}()")
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if top in FORBIDDEN_MODULES and (str(rel), top) not in NETWORK_ALLOWED:
                found.append(f"{rel}:{node.lineno}: import {name}")
    # The same by text, for what the syntax tree could hide (a call through a variable named eval).
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        if re.search(r"(?<![\w.])(eval|exec|compile)\s*\(", code) and not re.search(
            r"\bdef (eval|exec|compile)\b", code
        ):
            found.append(f"{rel}:{number}: {code.strip()}")
    return found


def test_the_scan_sees_the_whole_package() -> None:
    """The scan reads every module (a moved package would make it pass vacuously)."""
    names = {p.name for p in SOURCES}
    assert {"parser.py", "resolve.py", "loader.py", "cli.py"} <= names


def test_the_scan_catches_what_it_looks_for(tmp_path) -> None:
    """A file with each forbidden form is caught (the scan is not blind)."""
    bad = tmp_path / "probe.py"
    bad.write_text(
        "import yaml\nimport pickle\nx = eval('1')\nexec('y = 2')\nyaml.load(s)\nyaml.load(s, Loader=yaml.Loader)\n"
        "yaml.load(s, Loader=yaml.SafeLoader)\nyaml.unsafe_load(s)\ncompile('1', 'f', 'eval')\n"
        "import subprocess\npickle.loads(b'')\n"
    )
    found = problems_in(bad)
    text = "\n".join(found)
    for expected in ("eval()", "exec()", "compile()", "import subprocess", "pickle.loads()", "yaml.unsafe_load()"):
        assert expected in text
    assert text.count("yaml.load() without SafeLoader") == 2


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_can_run_text_as_code(path: Path) -> None:
    """No eval/exec/compile, no unsafe YAML, no unpickling, no shell or network in the package."""
    assert problems_in(path) == []


def test_python_in_a_ruleset_is_only_text(tmp_path) -> None:
    """A game named with Python code loads as a name; the code never runs."""
    marker = tmp_path / "ran"
    code = f"__import__('os').system('touch {marker}')"
    text = (ROOT / "rulesets" / "poison.rules").read_text("utf-8").replace('game "Poison"', f'game "{code}"')
    game = interpreter.loads(text.replace("'", "`"))
    assert "__import__" in game.name
    assert not marker.exists()


def test_yaml_ir_cannot_construct_python_objects(tmp_path) -> None:
    """A YAML tag that would call os.system is refused as bad input, and nothing runs."""
    marker = tmp_path / "ran"
    path = tmp_path / "evil.yaml"
    path.write_text(f'format: !!python/object/apply:os.system ["touch {marker}"]\n')
    with pytest.raises(RulesetError, match="not valid YAML"):
        interpreter.load(path)
    result = run_cli("show", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert not marker.exists()
