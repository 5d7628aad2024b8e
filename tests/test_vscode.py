"""The VS Code extension (editors/vscode/): its TextMate grammar colours a file exactly as the
Pygments lexer does, and the official packaging tool (@vscode/vsce) builds it into a .vsix."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

pytest.importorskip("pygments", reason="the TextMate grammar is made from the Pygments lexer")

from conftest import EXAMPLES, HANG, ROOT, RULESETS
from interpreter.text.lexer import RulesLexer

VSCODE = ROOT / "editors" / "vscode"
FILES = sorted(RULESETS.glob("*.rules")) + sorted(EXAMPLES.rglob("*.rules"))


def make_grammar():
    spec = importlib.util.spec_from_file_location("make_grammar", VSCODE / "make_grammar.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_grammar_is_the_one_made_from_the_lexer():
    """Change the lexer, run editors/vscode/make_grammar.py: the two never drift apart."""
    committed = (VSCODE / "syntaxes" / "rules.tmLanguage.json").read_text()
    assert committed == make_grammar().text(), "run: python editors/vscode/make_grammar.py"


def textmate_scopes(grammar: dict, line: str) -> list[tuple[str, str]]:
    """(text, scope) of each scoped piece of a line, scanned as a TextMate engine does: at each
    point the pattern whose match starts first (the first listed on a tie)."""
    rules = [(re.compile(p["match"]), p) for p in grammar["patterns"]]
    out, pos = [], 0
    while pos < len(line):
        found = [
            (m.start(), i, m, p)
            for i, (rx, p) in enumerate(rules)
            if (m := rx.search(line, pos)) and m.end() > m.start()
        ]
        if not found:
            break
        _, _, m, p = min(found, key=lambda f: (f[0], f[1]))
        if "name" in p:
            out.append((m.group(0), p["name"]))
        for group, cap in p.get("captures", {}).items():
            out.append((m.group(int(group)), cap["name"]))
        pos = m.end()
    return out


def pygments_scopes(module, line: str) -> list[tuple[str, str]]:
    """(text, scope) of each token Pygments gives a scope to."""
    out = []
    for token, text in RulesLexer().get_tokens(line + "\n"):
        name = module.scope(token)
        if name and text.strip():
            out.append((text, name))
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_editor_colours_every_shipped_file_as_pygments_does(path):
    module = make_grammar()
    grammar = module.grammar()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        assert textmate_scopes(grammar, line) == pygments_scopes(module, line), f"{path.name}:{number}: {line}"


def test_the_extension_starts_the_language_server_for_rules_files():
    package = json.loads((VSCODE / "package.json").read_text())
    [language] = package["contributes"]["languages"]
    assert language["extensions"] == [".rules"]
    assert (VSCODE / package["contributes"]["grammars"][0]["path"]).is_file()
    assert package["contributes"]["configuration"]["properties"]["ruleset.command"]["default"] == ["ruleset", "lsp"]
    config = json.loads((VSCODE / "language-configuration.json").read_text())
    assert config["comments"]["lineComment"] == "#"
    assert (
        "lsp"
        in subprocess.run(
            [sys.executable, "-m", "interpreter", "--help"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    )


NO_NPM = "npm (Node.js) is not installed: the .vsix cannot be built"


@pytest.mark.skipif(shutil.which("npm") is None and not os.environ.get("CI"), reason=NO_NPM)
def test_the_official_packaging_tool_builds_the_extension(tmp_path):
    """editors/vscode/build.sh: npm ci from the committed lock file (once per version of it: the tools
    are kept in the user's cache folder), then `vsce package`, which bundles the client into
    dist/extension.js with esbuild first (no node_modules shipped, no warning). CI always builds it:
    .ci/run installs Node.js from the package index where the machine has none."""
    assert shutil.which("npm"), NO_NPM
    work = tmp_path / "vscode"
    shutil.copytree(VSCODE, work, ignore=shutil.ignore_patterns("node_modules", "*.vsix"))
    done = subprocess.run(["bash", "build.sh", "out.vsix"], cwd=work, capture_output=True, text=True, timeout=HANG)
    if done.returncode and re.search(r"ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH", done.stderr):
        pytest.skip("the npm registry is unreachable: the packaging tool cannot be installed")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "you should bundle your extension" not in done.stdout + done.stderr  # vsce's warning
    names = zipfile.ZipFile(work / "out.vsix").namelist()
    members = ("package.json", "dist/extension.js", "syntaxes/rules.tmLanguage.json", "language-configuration.json")
    for member in members:
        assert f"extension/{member}" in names
    assert not any("node_modules/" in n for n in names)  # bundled: the client library is inside dist/extension.js
    # the bundle is valid JavaScript, needs no module but the editor's own and Node's, and restarts
    # the server when the settings change
    bundle = work / "dist" / "extension.js"
    checked = subprocess.run(["node", "--check", str(bundle)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    code = bundle.read_text()
    needed = set(re.findall(r'require\("([^"]+)"\)', code))
    assert "vscode" in needed and all(m == "vscode" or not m.startswith((".", "vscode-")) for m in needed)
    assert "onDidChangeConfiguration" in code
