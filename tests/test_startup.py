"""`ruleset --help` starts at once: it imports no engine, no parser and no output library (the
figures are in the report of the change that made it so; no timed assert here)."""

from __future__ import annotations

import subprocess
import sys

from conftest import HANG, ROOT

HEAVY = ("interpreter.engine", "interpreter.loader", "interpreter.language", "lark", "jsonschema", "yaml", "rich")


def imported_by(*args: str) -> set[str]:
    """The modules `python -X importtime -m interpreter ARGS` imports."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "interpreter", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_help_imports_nothing_heavy():
    """`ruleset --help` and a command's --help load neither the engine nor lark, jsonschema, yaml or rich."""
    for args in (("--help",), ("simulate", "--help"), ("check", "--help"), ("evaluate", "--help")):
        modules = imported_by(*args)
        assert "interpreter.commands.cli" in modules
        heavy = sorted(m for m in modules if m.startswith(HEAVY))
        assert not heavy, (args, heavy)


def test_the_parser_read_back_from_the_cache_parses_as_a_built_one(tmp_path, monkeypatch):
    """Every command but --help builds the LALR tables (a quarter of a second): the first process keeps
    them as JSON in the user's cache folder and later ones read them back. The parser read back gives
    the same trees, positions and syntax errors; a damaged cache is built again, never an error."""
    from lark.exceptions import UnexpectedInput

    from interpreter.language.parser import RulesIndenter, open_grammar

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULESET_CACHE_DIR")  # (the test run's own cache folder: conftest.py)
    monkeypatch.delenv("RULESET_NO_CACHE", raising=False)
    options = {"propagate_positions": True, "maybe_placeholders": True}
    built = open_grammar("rules", RulesIndenter(), **options)
    (kept,) = (tmp_path / "ruleset").glob("grammar-rules-*.json")
    read_back = open_grammar("rules", RulesIndenter(), **options)
    assert read_back is not built

    def outcome(parser, text):
        try:
            tree = parser.parse(text)
        except UnexpectedInput as err:
            return (err.line, err.column, sorted(getattr(err, "expected", ()) or ()))
        return tree, [(t.meta.line, t.meta.column, t.meta.end_column) for t in tree.iter_subtrees() if not t.meta.empty]

    for path in sorted((ROOT / "rulesets").glob("*.rules")):
        text = path.read_text()
        for cut in (len(text), len(text) // 2):  # a whole file and one cut short (a syntax error)
            assert outcome(read_back, text[:cut]) == outcome(built, text[:cut])
    kept.write_text('{"data": ')  # damaged (a disk full): built again and kept anew
    again = open_grammar("rules", RulesIndenter(), **options)
    assert again.parse('game "x"\n') == built.parse('game "x"\n')
    assert kept.read_text().startswith('{"data":{')


def test_a_command_registers_itself_alone_and_help_lists_them_all():
    """A run of one command imports that command's module alone (each module of interpreter/commands/
    registers the command of its name); `ruleset --help` still lists every command."""
    import argparse
    import pkgutil

    from interpreter import commands
    from interpreter.commands.cli import build_parser

    names = sorted(m.name for m in pkgutil.iter_modules(commands.__path__) if m.name not in ("cli", "console"))
    for name in names:
        sub = next(a for a in build_parser(name)._actions if isinstance(a, argparse._SubParsersAction))
        assert list(sub.choices) == [name]
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert sorted(sub.choices) == names
    shows = (
        "import sys\nfrom interpreter.commands.cli import main\ntry:\n    main(['simulate', '--help'])\n"
        "finally:\n    print(sorted(m for m in sys.modules if m.startswith('interpreter.commands.')), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", shows], cwd=ROOT, capture_output=True, text=True, timeout=HANG)
    assert done.stderr.splitlines()[-1] == str(
        ["interpreter.commands.cli", "interpreter.commands.console", "interpreter.commands.simulate"]
    )


def test_a_simulate_whose_ir_is_kept_imports_no_parser_nor_search_agents(tmp_path, monkeypatch):
    """The second `simulate` of a file reads its IR back (interpreter/language/ir_cache.py): it imports
    neither lark nor the parser, the AST or the resolver; random agents import no search agent."""
    monkeypatch.setenv("RULESET_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("RULESET_NO_CACHE", raising=False)
    args = ("simulate", "rulesets/poison-five-card.rules", "--games", "1", "--jobs", "1", "--format", "json")
    first, second = imported_by(*args), imported_by(*args)
    front = {f"interpreter.language.{m}" for m in ("parser", "syntax", "ast_nodes", "variants", "resolve", "schema")}
    assert front <= first
    assert not sorted(m for m in second if m in front or m.startswith("lark"))
    assert not sorted(m for m in second if m.startswith(("interpreter.agents.greedy", "interpreter.agents.mcts")))
