"""Every `pip install` line in the repository installs this package, never the unrelated `ruleset`
on the public package index: from a checkout (`pip install ".[lsp]"`) or by our distribution name."""

from __future__ import annotations

import re
import subprocess
import tomllib

from conftest import ROOT
from interpreter.build import DISTRIBUTION

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXTRAS = set(PYPROJECT["project"]["optional-dependencies"])
TEXT = (".md", ".py", ".js", ".json", ".toml", ".sh", ".txt", ".cfg", ".yml", ".yaml", "")
# The first thing `pip install` is given after its options: `.`, `.[lsp]`, `"ruleset-cards[web]"`, ...
INSTALL = re.compile(r"""pip install((?:\s+-\S+)*)\s+\\?["']?([A-Za-z0-9_.\-]+)(\[[^\]\s]*\])?""")


def normal(name: str) -> str:
    """A distribution name as the index compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def install_lines() -> list[tuple[str, int, str, str]]:
    """(file, line, distribution, extras) for each `pip install` in the files git tracks."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    found = []
    for name in files.split():
        path = ROOT / name
        if path.suffix not in TEXT or not path.is_file() or "node_modules" in path.parts:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for match in INSTALL.finditer(line):
                found.append((name, number, match[2], (match[3] or "[]")[1:-1]))
    return found


def test_the_distribution_is_ours():
    assert PYPROJECT["project"]["name"] == DISTRIBUTION
    assert normal(DISTRIBUTION) != "ruleset"
    assert PYPROJECT["project"]["scripts"]["ruleset"] == "interpreter.commands.cli:main"


def test_the_install_lines_are_found():
    found = install_lines()
    where = {name for name, *_ in found}
    assert {"README.md", "docs/tutorial.md", "editors/vscode/README.md", "interpreter/commands/lsp.py"} <= where


def test_no_install_line_names_the_unrelated_ruleset():
    wrong = [(name, n, dist) for name, n, dist, _ in install_lines() if normal(dist) == "ruleset"]
    assert not wrong, f"these install the unrelated package named ruleset: {wrong}"


def test_each_extra_installed_exists():
    ours = {".", normal(DISTRIBUTION)}
    for name, number, dist, extras in install_lines():
        if normal(dist) in ours:
            for extra in filter(None, extras.split(",")):
                assert extra.strip() in EXTRAS, f"{name}:{number}: no extra {extra!r} in pyproject.toml"


def test_the_extras_that_name_this_package_name_it_by_its_distribution():
    """`all` lists the other extras as this package's: by the name `ruleset`, pip would fetch the
    unrelated package of that name from the index instead."""
    for extra, requirements in PYPROJECT["project"]["optional-dependencies"].items():
        for requirement in requirements:
            name = normal(re.match(r"[A-Za-z0-9_.\-]+", requirement)[0])
            assert name != "ruleset", f"extra {extra!r}: {requirement}"
            if name == normal(DISTRIBUTION):
                listed = re.search(r"\[(.*)\]", requirement)[1].split(",")
                assert {e.strip() for e in listed} <= EXTRAS - {extra}, f"extra {extra!r}: {requirement}"
