"""`ruleset lsp` driven over stdio as an editor drives it: diagnostics as you type and after a
save, hover, definition across `extends`, completion, formatting, outline and rename."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import EXAMPLES, RULESETS
from interpreter.loader import ir_from_text
from interpreter.text.fmt import format_text
from lsp_client import Client, LspError

POISON = RULESETS / "poison.rules"
FIVE = RULESETS / "poison-five-card.rules"


@pytest.fixture(scope="module")
def client():
    c = Client("--playouts", "20")
    yield c
    c.close()


def line_of(text: str, fragment: str) -> tuple[int, int]:
    """The 0-based line and column of the first line (not a comment) that writes ``fragment``."""
    for number, line in enumerate(text.splitlines()):
        if fragment in line and not line.lstrip().startswith("#"):
            return number, line.index(fragment)
    raise AssertionError(fragment)


def errors(diags: list[dict]) -> list[dict]:
    return [d for d in diags if d["severity"] == 1]


def test_a_mistake_is_underlined_where_it_is_and_goes_when_fixed(client):
    """A misspelt zone is an error on the misspelt word, with the hint; fixing it clears it."""
    text = POISON.read_text()
    uri = client.open(POISON, text)
    assert not errors(client.wait_diagnostics(uri))
    wrong = text.replace("from hand to cauldron", "from hand to cauldrn")
    client.forget_diagnostics(uri)
    client.change(uri, wrong, 2)
    [err] = errors(client.wait_diagnostics(uri, lambda d: errors(d)))
    line, col = line_of(wrong, "cauldrn")
    assert err["range"]["start"] == {"line": line, "character": col}
    assert err["range"]["end"] == {"line": line, "character": col + len("cauldrn")}
    assert "cauldrn" in err["message"] and "did you mean 'cauldron'" in err["message"]
    client.change(uri, text, 3)
    assert not errors(client.wait_diagnostics(uri, lambda d: not errors(d)))


def test_a_syntax_error_is_positioned_and_the_server_keeps_its_names(client):
    """Half-typed text is a syntax error at its place; hover still knows the names declared before."""
    text = POISON.read_text()
    uri = client.open(POISON, text)
    client.wait_diagnostics(uri)
    half = text.replace("  cauldron   3, public\n", "  cauldron   3, public\n  pot per\n")
    client.forget_diagnostics(uri)
    client.change(uri, half, 2)
    [err] = errors(client.wait_diagnostics(uri, lambda d: errors(d)))
    assert err["code"] == "syntax" and err["range"]["start"]["line"] == line_of(half, "pot per")[0]
    line, col = line_of(half, "hand")
    assert "Zone" in client.at("textDocument/hover", uri, line, col + 1)["contents"]["value"]


def test_every_static_problem_of_a_file_is_reported_at_its_line(client):
    """The broken example of names and types: its three errors, each at the line it promises."""
    path = EXAMPLES / "broken" / "names-and-types.rules"
    uri = client.open(path)
    diags = client.wait_diagnostics(uri, lambda d: len(errors(d)) >= 3)
    assert sorted(d["range"]["start"]["line"] + 1 for d in errors(diags)) == [19, 20, 24]


def test_playouts_after_a_save_find_a_deadlock(client):
    """What only playing shows (a deadlock) arrives after the file is saved, at its rule."""
    path = EXAMPLES / "broken" / "deadlock.rules"
    uri = client.open(path)
    assert not errors(client.wait_diagnostics(uri))
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    diags = client.wait_diagnostics(uri, lambda d: errors(d))
    assert any("nobody can move" in d["message"] and d["range"]["start"]["line"] == 15 for d in diags)


def test_hover_gives_a_name_its_meaning_and_a_keyword_its_syntax(client):
    text = POISON.read_text()
    uri = client.open(POISON, text)
    line, col = line_of(text, "move play card from hand to cauldron")
    zone = client.at("textDocument/hover", uri, line, col + len("move play card from hand to c"))
    value = zone["contents"]["value"]
    assert "**Zone** `cauldron`" in value and "3, shared; face up: everyone sees it" in value
    keyword = client.at("textDocument/hover", uri, line, col + 1)["contents"]["value"]
    assert "move NAME card from NAME to NAME" in keyword
    line, col = line_of(text, "param limit")
    param = client.at("textDocument/hover", uri, line, col + 7)["contents"]["value"]
    assert "overflows" in param  # the comment beside the parameter


def test_definition_of_an_inherited_name_is_in_the_base_file(client):
    """In the five-card variant, `hand` is declared by poison.rules: definition jumps there."""
    text = FIVE.read_text()
    uri = client.open(FIVE, text)
    line, col = line_of(text, "to hand")
    [where] = client.at("textDocument/definition", uri, line, col + 4)
    assert where["uri"] == POISON.resolve().as_uri()
    base_line, base_col = line_of(POISON.read_text(), "hand       per player")
    assert where["range"]["start"] == {"line": base_line, "character": base_col}
    own = client.at("textDocument/definition", uri, *line_of(text, "draw_pile"))  # declared in the variant
    assert own[0]["uri"] == FIVE.resolve().as_uri()


def test_references_reach_into_the_base_file(client):
    text = FIVE.read_text()
    uri = client.open(FIVE, text)
    line, col = line_of(text, "hand of player")
    refs = client.at("textDocument/references", uri, line, col, context={"includeDeclaration": True})
    files = {r["uri"] for r in refs}
    assert files == {FIVE.resolve().as_uri(), POISON.resolve().as_uri()}
    written = sum(len(re.findall(r"\bhand\b", line.split("#")[0])) for line in (text + POISON.read_text()).splitlines())
    assert len(refs) == written


def test_completion_after_from_offers_the_zones(client):
    text = POISON.read_text()
    line, col = line_of(text, "move play card from hand to cauldron")
    typed = text.replace("move play card from hand to cauldron", "move play card from ")
    uri = client.open(POISON, typed)
    items = client.at("textDocument/completion", uri, line, col + len("move play card from "))["items"]
    labels = {i["label"] for i in items}
    assert {"hand", "collected", "cauldron"} <= labels
    assert "phase" not in labels  # a keyword the grammar does not accept there


def test_completion_offers_the_keywords_the_grammar_accepts(client):
    """At the start of a zone line's options: the options, no rule words."""
    text = POISON.read_text()
    typed = text.replace("  cauldron   3, public\n", "  cauldron   3, public\n  pot \n")
    line, col = line_of(typed, "pot ")
    uri = client.open(POISON, typed)
    labels = {i["label"] for i in client.at("textDocument/completion", uri, line, col + 4)["items"]}
    assert {"shared", "public", "per player", "owner sees"} <= labels
    assert "move" not in labels and "hand" not in labels


def test_formatting_gives_the_canonical_layout(client):
    text = POISON.read_text()
    messy = text.replace("cauldron   3, public", "cauldron 3,public")
    uri = client.open(POISON, messy)
    [edit] = client.request(
        "textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}
    )
    assert edit["range"]["start"] == {"line": 0, "character": 0}
    assert edit["newText"] == format_text(messy) == format_text(text)


def test_outline_nests_moves_under_their_phase(client):
    uri = client.open(POISON)
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    [round_] = [s for s in symbols if s["name"] == "round"]
    [phase] = [s for s in round_["children"] if s["name"] == "phase play"]
    [move] = [s for s in phase["children"] if s["name"].startswith("move play")]
    assert move["detail"].startswith("Phase play, move")
    assert len(move["children"]) == 3  # its three allow lines


def apply(text: str, edits: list[dict]) -> str:
    """A text with single-line edits applied (last first)."""
    lines = text.split("\n")
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        start, end = e["range"]["start"], e["range"]["end"]
        assert start["line"] == end["line"]
        line = lines[start["line"]]
        lines[start["line"]] = line[: start["character"]] + e["newText"] + line[end["character"] :]
    return "\n".join(lines)


def test_rename_changes_the_file_its_bases_and_its_variants(client):
    """Renaming poison.rules' cauldron renames it in the five-card variant and the examples too,
    and every renamed file still loads."""
    text = POISON.read_text()
    uri = client.open(POISON, text)
    line, col = line_of(text, "cauldron   3")
    edit = client.at("textDocument/rename", uri, line, col, newName="pot")
    changed = {Path(u.removeprefix("file://")): e for u, e in edit["changes"].items()}
    assert POISON.resolve() in changed and (EXAMPLES / "poison-four-colors.rules").resolve() in changed
    assert FIVE.resolve() not in changed  # it never writes `cauldron`
    renamed = apply(text, changed[POISON.resolve()])
    assert "cauldron" not in "".join(line.split("#")[0] for line in renamed.splitlines())
    ir = ir_from_text(renamed)
    assert [z["name"] for z in ir["zones"]] == ["hand", "collected", "pot"]
    with pytest.raises(LspError, match="cannot be a name"):
        client.at("textDocument/rename", uri, line, col, newName="Pot")


GRAMMAR = Path(__file__).resolve().parents[1] / "grammar" / "rules.lark"
DOC_BLOCKS = re.findall(
    r"```rules\n(.*?)```", (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(), re.S
)
# Words that no shipped, example or reference ruleset writes yet: a text that does.
UNWRITTEN = {"new": 'extends "poison"\nnew param bonus = 2\n'}


def grammar_keywords() -> dict[str, set[str]]:
    """Every keyword of grammar/rules.lark, read from the grammar's text (its quoted words and its
    keyword terminals such as `/partners[ \\t]+(across|adjacent)\\b/`), each with the spellings of
    the same terminal (written in the same places)."""
    text = GRAMMAR.read_text()
    out = {w: {w} for w in re.findall(r'"([a-z]+)"', text)}
    for m in re.finditer(r"^[A-Z_]+(?:\.\d+)?:\s*/(.*)/\w*\s*$", text, re.M):
        pattern = re.sub(r"\[ \\t\][+*]", " ", m.group(1)).replace("\\b", "")
        alt = re.fullmatch(r"([a-z ]*)\(([a-z|]+)\)([a-z ]*)", pattern)
        words = {alt[1] + w + alt[3] for w in alt[2].split("|")} if alt else {pattern}
        for w in words:
            if re.fullmatch(r"[a-z]+( [a-z]+)*", w):
                out.setdefault(w, set()).update(words)
    return out


def written_places(tmp_path: Path) -> list[tuple[Path, str]]:
    """Rulesets that write the language's constructs: the shipped ones, the examples (not the
    broken ones), the reference's examples and the texts of UNWRITTEN."""
    root = Path(__file__).resolve().parents[1]
    files = [*sorted((root / "rulesets").glob("*.rules")), *sorted((root / "examples").rglob("*.rules"))]
    out = [(f, f.read_text()) for f in files if "broken" not in f.parts]
    for i, text in enumerate([*DOC_BLOCKS, *UNWRITTEN.values()]):
        path = tmp_path / f"written{i}.rules"
        path.write_text(text)
        out.append((path, text))
    return out


def places_tried(client, opened, places, keyword: str, group: set[str]) -> int | None:
    """None once completion offers ``keyword`` with the cursor where a ruleset writes a word of its
    group; otherwise how many such places were tried."""
    words = "|".join(r"[ \t]+".join(map(re.escape, w.split())) for w in group)
    pattern = re.compile(rf"(?<![\w])(?:{words})(?![\w])")
    tried = 0
    for path, text in places:
        for number, line in enumerate(text.splitlines()):
            for m in pattern.finditer(line):
                if "#" in line[: m.start()] or line[: m.start()].count('"') % 2:
                    continue  # (in a comment or a quoted text)
                tried += 1
                if path not in opened:
                    opened[path] = client.open(path, text)
                items = client.at("textDocument/completion", opened[path], number, m.start())["items"]
                if keyword in {i["label"] for i in items}:
                    return None
    return tried


def test_completion_offers_every_keyword_of_the_grammar_where_it_is_legal(client, tmp_path):
    """Each keyword of grammar/rules.lark (so also those added later) is offered by completion at
    some place a ruleset writes it (or a word of the same terminal), with the cursor before it."""
    places, opened = written_places(tmp_path), {}
    missing = {}
    for keyword, group in sorted(grammar_keywords().items()):
        tried = places_tried(client, opened, places, keyword, group)
        if tried is not None:
            missing[keyword] = tried
    assert not missing, (
        f"completion never offers these keywords where they are written (places tried): {missing}; "
        "a keyword no ruleset writes needs an example in docs/language.md"
    )


def test_hover_on_a_keyword_of_the_grown_language_shows_its_construct(client):
    """`ask`, `show` and a draw's `top` (written in another form of the move rule) hover with their
    grammar shape; so does every keyword of the grammar."""
    from interpreter.editor.hover import _keyword

    root = Path(__file__).resolve().parents[1] / "examples" / "classics"
    cases = [
        ("love_letter", "ask", "ask expr to choose NAME (choice | card_choice)"),
        ("love_letter", "show", "show expr to expr"),
    ]
    cases.append(("lost_cities", "top", "move NAME top (card | sum) from NAME"))
    for name, word, shape in cases:
        path = root / f"{name}.rules"
        text = path.read_text()
        line, _ = line_of(text, f"{word} ")
        col = text.splitlines()[line].index(f"{word} ")
        hover = client.at("textDocument/hover", client.open(path, text), line, col + 1)
        assert hover and shape in hover["contents"]["value"], (word, hover)
    plain = [w for k in grammar_keywords() for w in k.split() if not _keyword(w).startswith(f"**{w}**")]
    assert not plain, f"keywords whose hover finds no rule of the grammar: {sorted(set(plain))}"
