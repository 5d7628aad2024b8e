"""A bad or half-typed file never breaks the language server: random edits of the shipped rulesets,
and after each the server still answers diagnostics, hover, completion, outline and formatting."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, RULESETS
from lsp_client import Client

FILES = sorted(RULESETS.glob("*.rules")) + sorted(EXAMPLES.glob("*.rules"))
PIECES = ["\n", "  ", "    ", ":", "(", ")", "..", "x3", "of ", "from ", "where ", "if ", "phase ", "move ", "#", '"']


@pytest.fixture(scope="module")
def client():
    c = Client("--playouts", "0")
    yield c
    c.close()


@st.composite
def edited(draw):
    """A shipped ruleset with a few cuts, insertions and repeated lines, and a position in it."""
    path = draw(st.sampled_from(FILES))
    text = path.read_text()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        kind = draw(st.sampled_from(["cut", "insert", "repeat"]))
        if kind == "cut":
            text = text[:i] + text[j:]
        elif kind == "insert":
            word = draw(st.sampled_from(PIECES) | st.text("abcxyz_ 019=<>|,-\t\n", max_size=6))
            text = text[:i] + word + text[i:]
        else:
            text = text[:i] + text[i:j] + text[i:]
    lines = text.splitlines() or [""]
    line = draw(st.integers(0, len(lines) - 1))
    col = draw(st.integers(0, len(lines[line])))
    return path, text, line, col


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=edited())
def test_the_server_answers_whatever_the_text(client, case):
    path, text, line, col = case
    client.next_version = getattr(client, "next_version", 1) + 1
    uri = client.open(path, path.read_text())
    client.forget_diagnostics(uri)
    client.change(uri, text, client.next_version)
    diags = client.wait_diagnostics(uri)
    assert all(d["range"]["start"]["line"] >= 0 for d in diags)
    doc = {"textDocument": {"uri": uri}}
    client.at("textDocument/hover", uri, line, col)  # an error answer would raise LspError
    items = client.at("textDocument/completion", uri, line, col)["items"]
    assert all(i["label"] for i in items)
    client.at("textDocument/definition", uri, line, col)
    client.request("textDocument/documentSymbol", doc)
    client.request("textDocument/formatting", {**doc, "options": {"tabSize": 2, "insertSpaces": True}})
    assert client.proc.poll() is None
