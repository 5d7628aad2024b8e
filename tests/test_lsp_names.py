"""`ruleset lsp` over stdio: names are per kind (the move `play` is not the phase `play`), a rename
that cannot be made is refused with a message the editor shows, and a file with a misspelt name
still answers hover, definition and outline from what resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_lsp import apply, line_of

from conftest import EXAMPLES, RULESETS
from interpreter.editor.analysis import analyse
from interpreter.editor.slots import slots
from interpreter.loader import ir_from_text
from lsp_client import Client, LspError

POISON = RULESETS / "poison.rules"
REQUEST_FAILED = -32803  # LSP's code for a request that was understood and cannot be done
# Every name poison.rules declares (zones, parameters, card types, attributes, its phase and move).
DECLARED = ["hand", "collected", "cauldron", "limit", "rounds", "potion", "poison", "color", "value", "play"]


@pytest.fixture(scope="module")
def client():
    c = Client("--playouts", "0")
    yield c
    c.close()


def rename(client, uri: str, text: str, fragment: str, offset: int, new: str) -> str:
    """The text after renaming the name at ``offset`` into the first line writing ``fragment``."""
    line, col = line_of(text, fragment)
    edit = client.at("textDocument/rename", uri, line, col + offset, newName=new)
    changes = {Path(u.removeprefix("file://")): e for u, e in edit["changes"].items()}
    return apply(text, changes[POISON.resolve()])


def code(text: str) -> str:
    """The text without its comments."""
    return "\n".join(line.split("#")[0] for line in text.splitlines())


def test_renaming_the_move_play_leaves_the_phase_play(client):
    text = POISON.read_text()
    uri = client.open(POISON, text)
    for fragment, offset in [("move play card", 5), ("after play if", 6)]:  # from its declaration or a use
        renamed = rename(client, uri, text, fragment, offset, "lay")
        assert "phase play" in renamed and "move lay card" in renamed and "after lay if" in renamed
        assert not re.search(r"\bplay\b", code(renamed).replace("phase play", ""))
        ir_from_text(renamed)  # still loads


def test_renaming_the_phase_play_leaves_the_move_play(client):
    text = POISON.read_text()
    uri = client.open(POISON, text)
    renamed = rename(client, uri, text, "phase play", 6, "turns")
    assert "phase turns" in renamed and "move play card" in renamed and "after play if" in renamed
    assert len(re.findall(r"\bturns\b", code(renamed))) == 1
    ir_from_text(renamed)


def test_hover_on_a_phase_or_a_move_of_one_name_shows_that_one(client):
    text = POISON.read_text()
    uri = client.open(POISON, text)
    phase = client.at("textDocument/hover", uri, *_shifted(text, "phase play", 6))["contents"]["value"]
    move = client.at("textDocument/hover", uri, *_shifted(text, "after play", 6))["contents"]["value"]
    assert phase.startswith("**Phase play** `play`: one player at a time") and "move" not in phase
    assert move.startswith("**Phase play, move** `play`: a card from") and "one player at a time" not in move


def _shifted(text: str, fragment: str, offset: int) -> tuple[int, int]:
    line, col = line_of(text, fragment)
    return line, col + offset


@pytest.mark.parametrize(
    ("new", "says"),
    [
        ("hand", "already the name of a zone"),  # another zone
        ("limit", "renaming 'cauldron' to 'limit' breaks the rules: expected cards"),  # a parameter's
        ("Bad Name", "cannot be a name"),
        ("from", "cannot be a name"),  # a word of the language
        ("9lives", "cannot be a name"),
    ],
)
def test_a_rename_that_cannot_be_made_is_refused_with_a_message(client, new, says):
    text = POISON.read_text()
    uri = client.open(POISON, text)
    line, col = line_of(text, "cauldron   3")
    with pytest.raises(LspError) as refused:
        client.at("textDocument/rename", uri, line, col, newName=new)
    assert refused.value.code == REQUEST_FAILED and says in str(refused.value)
    assert "Traceback" not in str(refused.value)
    hover = client.at("textDocument/hover", uri, line, col)["contents"]["value"]
    assert "cauldron   3, public" in hover  # the declaring line, as the file writes it


def test_a_move_may_take_a_name_another_kind_has(client):
    """The phase's name is free for a move: only a declaration of the same kind takes a name."""
    text = POISON.read_text().replace("phase play", "phase turns")
    uri = client.open(POISON, text)
    renamed = rename(client, uri, text, "phase turns", 6, "play")
    assert "phase play" in renamed


@pytest.mark.parametrize("typo", ["to collected of player", "in collected of player: -2"])
def test_a_misspelt_zone_leaves_every_other_name_answering(client, typo):
    """poison.rules with `colected` for `collected` at one place: hover on every declared name, the
    definition of a zone and the outline still answer; hover on the typo says what is wrong."""
    text = POISON.read_text()
    broken = text.replace(typo, typo.replace("collected", "colected"), 1)
    assert broken != text
    uri = client.open(POISON, broken)
    client.wait_diagnostics(uri, lambda d: any(x["severity"] == 1 for x in d))
    for name in DECLARED:
        line, col = _written(broken, name)
        hover = client.at("textDocument/hover", uri, line, col + 1)
        assert hover is not None and f"`{name}`" in hover["contents"]["value"], name
    line, col = line_of(broken, "colected")
    typo_hover = client.at("textDocument/hover", uri, line, col + 1)["contents"]["value"]
    assert "unknown name 'colected'" in typo_hover and "did you mean 'collected'" in typo_hover
    line, col = line_of(broken, "to cauldron")
    [where] = client.at("textDocument/definition", uri, line, col + 4)
    assert where["range"]["start"]["line"] == line_of(broken, "cauldron   3")[0]
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    [round_] = [s for s in symbols if s["name"] == "round"]
    [phase] = [s for s in round_["children"] if s["name"] == "phase play"]
    [move] = [s for s in phase["children"] if s["name"].startswith("move play")]
    assert move["detail"].startswith("Phase play, move")


def _written(text: str, name: str) -> tuple[int, int]:
    """The first place outside comments where ``name`` is written as a whole word."""
    for number, line in enumerate(text.splitlines()):
        m = re.search(rf"(?<![a-z_]){name}(?![a-z0-9_])", line.split("#")[0])
        if m:
            return number, m.start()
    raise AssertionError(name)


def test_each_name_in_a_phase_or_move_place_is_declared_of_that_kind():
    """Across the shipped and example rulesets, what slots.py calls a phase's or a move's name is
    declared as one (a trigger's `after a, b` lists moves; every form of `move` names one)."""
    seen = set()
    for path in sorted([*RULESETS.glob("*.rules"), *EXAMPLES.glob("*.rules")]):
        text = path.read_text()
        analysis = analyse(str(path.resolve()), text)
        if analysis.ir is None or any(f.severity == "error" for f in analysis.report.findings):
            continue
        lines = text.splitlines()
        for (line, col), kind in slots(str(path), text).items():
            name = re.match(r"[a-z_][a-z0-9_]*", lines[line][col:])[0]
            assert kind in {d.kind for d in analysis.declared(name)}, f"{path.name}:{line + 1}: {name}"
            seen.add(kind)
    assert seen == {"phase", "move"}
    text = POISON.read_text().replace("after play if", "after play, pass if")
    line, col = line_of(text, "after play, pass")
    places = slots(str(POISON), text)
    assert places[(line, col + 6)] == places[(line, col + 12)] == "move"
