"""`ruleset lsp` over stdio: the names a rule makes for itself (`let`, an ask's choice, a
definition's parameters) answer hover, definition, references and rename within their scope, as
Love Letter's `rival`, `mine` and `p` do."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_lsp import apply, line_of

from conftest import EXAMPLES
from interpreter.loader import ir_from_text
from lsp_client import Client, LspError

LOVE_LETTER = EXAMPLES / "classics" / "love_letter.rules"


@pytest.fixture(scope="module")
def client():
    c = Client("--playouts", "0")
    yield c
    c.close()


@pytest.fixture(scope="module")
def opened(client):
    text = LOVE_LETTER.read_text()
    return client.open(LOVE_LETTER, text), text


def lines_of(locations: list[dict]) -> list[int]:
    return sorted(loc["range"]["start"]["line"] for loc in locations)


def test_hover_and_definition_of_a_let_and_of_a_choice(client, opened):
    uri, text = opened
    line, col = line_of(text, "if mine > theirs")
    hover = client.at("textDocument/hover", uri, line, col + 4)
    assert "Local value" in hover["contents"]["value"] and "let mine = max of value" in hover["contents"]["value"]
    where = client.at("textDocument/definition", uri, line, col + 4)
    assert lines_of(where) == [line_of(text, "let mine =")[0]]
    rival_line, rival_col = line_of(text, "show hand of player to rival")
    hover = client.at("textDocument/hover", uri, rival_line, rival_col + len("show hand of player to "))
    assert "Choice" in hover["contents"]["value"] and "ask player to choose rival player" in hover["contents"]["value"]


def test_references_of_a_choice_stay_within_its_own_ask(client, opened):
    """Several cards ask for a `rival`: the references of one are its own ask's, not the others'."""
    uri, text = opened
    line, col = line_of(text, "show hand of player to rival")
    refs = lines_of(client.at("textDocument/references", uri, line, col + 23, context={"includeDeclaration": True}))
    lines = text.splitlines()
    ask = max(n for n in range(line) if "ask player to choose rival player" in lines[n])  # its own ask (Baron)
    assert all("rival" in lines[n] for n in refs)
    assert min(refs) == ask and "ask player to choose rival player" in lines[ask]
    other_asks = [n for n, t in enumerate(lines) if "ask player to choose rival player" in t and n != ask]
    assert not set(refs) & set(other_asks)


def test_a_definitions_parameter_is_its_own(client, opened):
    uri, text = opened
    line, col = line_of(text, "define strength(p)")
    refs = client.at(
        "textDocument/references", uri, line, col + len("define strength("), context={"includeDeclaration": True}
    )
    assert {loc["range"]["start"]["line"] for loc in refs} == {line} and len(refs) == 3  # (p), hand of p, discard of p
    hover = client.at("textDocument/hover", uri, line, col + len("define strength("))
    assert "Parameter" in hover["contents"]["value"] and "strength" in hover["contents"]["value"]


def test_renaming_a_local_changes_its_scope_only_and_the_rules_still_load(client, opened):
    uri, text = opened
    line, col = line_of(text, "let mine =")
    edit = client.at("textDocument/rename", uri, line, col + 4, newName="held")
    changes = {Path(u.removeprefix("file://")): e for u, e in edit["changes"].items()}
    renamed = apply(text, changes[LOVE_LETTER.resolve()])
    assert "let held = max of value in hand of player" in renamed and "if held > theirs" in renamed
    assert "mine" not in renamed.replace("# mine", "")  # Love Letter has one `mine`
    ir_from_text(renamed)
    with pytest.raises(LspError, match="already"):
        client.at("textDocument/rename", uri, line, col + 4, newName="theirs")
    with pytest.raises(LspError, match="already"):
        client.at("textDocument/rename", uri, line, col + 4, newName="hand")  # a zone's name


def test_completion_offers_the_locals_in_scope_and_the_kinds_of_declared_names(client):
    """Typing a new line at the end of the Baron's ask: its `rival`, `mine` and `theirs` are offered
    (and not a `lost` bound by another card's block); a zone comes with a zone's icon."""
    text = LOVE_LETTER.read_text()
    lines = text.splitlines()
    at = line_of(text, "let theirs = max of value in hand of rival")[0]
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    typed = "\n".join([*lines[: at + 1], indent + "move hand of ", *lines[at + 1 :]]) + "\n"
    uri = client.open(LOVE_LETTER, typed)
    items = client.at("textDocument/completion", uri, at + 1, len(indent + "move hand of "))["items"]
    labels = {i["label"]: i for i in items}
    assert {"rival", "mine", "theirs"} <= set(labels) and "lost" not in labels
    assert labels["rival"]["detail"].startswith("choice: ask player to choose rival player")
    assert labels["hand"]["kind"] == 5  # CompletionItemKind.Field: a zone


def decoded(client, uri: str, text: str) -> dict[tuple[int, int], tuple[str, int]]:
    """The semantic tokens of a document: (line, column) -> (type, modifiers), from the legend."""
    legend = client.capabilities["semanticTokensProvider"]["legend"]["tokenTypes"]
    data = client.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})["data"]
    out, line, col = {}, 0, 0
    for i in range(0, len(data), 5):
        dl, dc, _, kind, mods = data[i : i + 5]
        line, col = line + dl, (col + dc if dl == 0 else dc)
        out[(line, col)] = (legend[kind], mods)
    return out


def test_semantic_tokens_colour_names_by_kind(client):
    """In poison.rules: a zone, an attribute, a card type, the move `play` and the phase `play` each
    get their own type (the TextMate grammar sees them all as words); keywords get none."""
    from conftest import RULESETS

    poison = RULESETS / "poison.rules"
    text = poison.read_text()
    uri = client.open(poison, text)
    tokens = decoded(client, uri, text)
    line, col = line_of(text, "move play card from hand to cauldron")
    assert tokens[(line, col + 5)][0] == "method"  # the move play
    assert tokens[(line, col + len("move play card from "))][0] == "namespace"  # hand: a zone
    assert (line, col) not in tokens and (line, col + len("move play card ")) not in tokens  # keywords
    line, col = line_of(text, "phase play")
    assert tokens[(line, col + 6)][0] == "event"
    line, col = line_of(text, "param limit")
    assert tokens[(line, col + 6)] == ("variable", 1 | 2)  # a parameter: read-only, declared here


def test_document_highlight_marks_a_local_in_the_file(client):
    text = LOVE_LETTER.read_text()
    uri = client.open(LOVE_LETTER, text)
    line, col = line_of(text, "let mine =")
    marks = client.at("textDocument/documentHighlight", uri, line, col + 4)
    uses = [line, line_of(text, "if mine > theirs")[0], line_of(text, "else if theirs > mine")[0]]
    assert sorted(m["range"]["start"]["line"] for m in marks) == uses


def test_a_did_you_mean_is_a_one_click_fix_that_makes_the_rules_load(client):
    """poison.rules with `colected`: the problem's quick fix writes `collected` in its place."""
    from conftest import RULESETS

    poison = RULESETS / "poison.rules"
    text = poison.read_text()
    broken = text.replace("to collected of player", "to colected of player", 1)
    uri = client.open(poison, broken)
    diags = client.wait_diagnostics(uri, lambda d: any("colected" in x["message"] for x in d))
    typo = [d for d in diags if "did you mean 'collected'" in d["message"]]
    assert typo
    params = {"textDocument": {"uri": uri}, "range": typo[0]["range"], "context": {"diagnostics": typo}}
    [fix] = client.request("textDocument/codeAction", params)
    assert fix["title"] == "Change to 'collected'" and fix["kind"] == "quickfix" and fix["isPreferred"]
    fixed = apply(broken, fix["edit"]["changes"][uri])
    assert fixed == text
    ir_from_text(fixed)


def test_workspace_symbols_find_declared_names_of_the_open_files_by_their_letters(client):
    from conftest import RULESETS

    poison = RULESETS / "poison.rules"
    client.open(poison, poison.read_text())
    client.open(LOVE_LETTER, LOVE_LETTER.read_text())
    found = client.request("workspace/symbol", {"query": "cldr"})
    assert {(s["name"], s["location"]["uri"].rsplit("/", 1)[-1]) for s in found} == {("cauldron", "poison.rules")}
    assert found[0]["kind"] == 8  # SymbolKind.Field: a zone
    names = {s["name"] for s in client.request("workspace/symbol", {"query": "strength"})}
    assert {"strength", "best_strength"} <= names  # Love Letter's definitions


def test_definition_on_the_path_of_extends_opens_the_base_file(client):
    """F12 on `extends "poison.rules"` in the five-card variant: the base file, at its start."""
    from conftest import RULESETS

    five = RULESETS / "poison-five-card.rules"
    text = five.read_text()
    uri = client.open(five, text)
    line, col = line_of(text, 'extends "')
    [where] = client.at("textDocument/definition", uri, line, col + len('extends "') + 2)
    assert where["uri"] == (RULESETS / "poison.rules").resolve().as_uri()
    assert where["range"]["start"] == {"line": 0, "character": 0}


def test_references_from_a_base_list_its_variants_uses(client):
    """`hand` in poison.rules: its references include the five-card variant's, as rename edits them."""
    from conftest import RULESETS

    poison = RULESETS / "poison.rules"
    text = poison.read_text()
    uri = client.open(poison, text)
    line, col = line_of(text, "hand       per player")
    refs = client.at("textDocument/references", uri, line, col + 1, context={"includeDeclaration": True})
    files = {r["uri"].rsplit("/", 1)[-1] for r in refs}
    assert {"poison.rules", "poison-five-card.rules"} <= files


def test_a_variant_reads_its_base_from_the_unsaved_buffer_and_is_checked_again_when_it_changes(client, tmp_path):
    """A base and its variant open: a zone renamed in the base's buffer (not saved) makes the
    variant's use of the old name a problem at once, and renaming it back clears it."""
    base = tmp_path / "base.rules"
    variant = tmp_path / "variant.rules"
    from conftest import RULESETS

    base.write_text((RULESETS / "poison.rules").read_text())
    five = (RULESETS / "poison-five-card.rules").read_text()
    variant.write_text(five.replace('extends "poison.rules"', 'extends "base.rules"'))
    base_uri, variant_uri = client.open(base), client.open(variant)
    assert not errors_of(client.wait_diagnostics(variant_uri))
    renamed = base.read_text().replace("hand", "held")
    client.change(base_uri, renamed)
    diags = client.wait_diagnostics(variant_uri, lambda d: bool(errors_of(d)))
    assert any("'hand'" in d["message"] for d in errors_of(diags))
    assert base.read_text() != renamed  # nothing was saved
    client.change(base_uri, base.read_text(), version=3)
    assert not errors_of(client.wait_diagnostics(variant_uri, lambda d: not errors_of(d)))


def errors_of(diags: list[dict]) -> list[dict]:
    return [d for d in diags if d["severity"] == 1]


KEYWORD, PHASE = 14, 23  # the protocol's CompletionItemKind.Keyword and .Event (a phase's icon)
MOVE_LINE, SCORE_LINE = "move play card from hand to cauldron", "each poison in collected of player: -2"


@pytest.mark.parametrize(
    ("where", "typed", "fits", "misfits"),
    [
        (MOVE_LINE, "sum of ", {"value", "color"}, {"hand", "cauldron", "limit", "player"}),
        (MOVE_LINE, "move play card from ", {"hand", "collected", "cauldron"}, {"value", "limit", "potion"}),
        (SCORE_LINE, "each ", {"potion", "poison"}, {"hand", "limit", "play", "player"}),
        # the built-in names where any name fits
        (SCORE_LINE, "each poison in collected of ", {"player", "dealer", "players", "hand"}, set()),
    ],
)
def test_completion_offers_the_names_of_the_kind_that_fits(client, where, typed, fits, misfits):
    """After `sum of` an attribute, after `from` a zone, after a scoring rule's `each` a card type:
    the other declared names are not offered; elsewhere the built-in names are, and never a phase."""
    from conftest import RULESETS

    poison = RULESETS / "poison.rules"
    text = poison.read_text()
    line, col = line_of(text, where)
    lines = text.splitlines()
    lines[line] = lines[line][:col] + typed
    uri = client.open(poison, text)  # as it was, then typed into (a line being typed rarely parses)
    client.change(uri, "\n".join(lines) + "\n", version=2)
    items = client.at("textDocument/completion", uri, line, col + len(typed))["items"]
    labels = {i["label"] for i in items if i["kind"] != KEYWORD}  # names (a word of the language may be `player`)
    assert fits <= labels, fits - labels
    assert not misfits & labels, misfits & labels
    assert not [i for i in items if i["kind"] == PHASE]  # a phase's name is written only after `phase`


def test_snippets_at_the_start_of_a_line_expand_to_rules_that_load(client):
    """At the start of a line, the blocks that can start there are offered as snippets (a move rule
    among a phase's rules, an ask among a trigger's effects, not the other way round), and each,
    accepted as it stands, makes a file that parses."""
    from conftest import RULESETS
    from interpreter.editor.completion import expand
    from interpreter.language.parser import parse

    poison = RULESETS / "poison.rules"
    text = poison.read_text()
    for after, indent, wanted, unwanted in [
        ("allow color of target is none", 4, "move with a guard", "ask a player to choose"),
        ("move cards in target except card", 6, "ask a player to choose", "move with a guard"),
    ]:
        line = line_of(text, after)[0]
        lines = text.splitlines()
        lines.insert(line + 1, " " * indent)
        uri = client.open(poison, "\n".join(lines) + "\n")
        items = client.at("textDocument/completion", uri, line + 1, indent)["items"]
        snippets = {i["detail"]: i for i in items if i["kind"] == 15}  # CompletionItemKind.Snippet
        assert wanted in snippets and unwanted not in snippets, sorted(snippets)
        for item in snippets.values():
            assert item["insertTextFormat"] == 2
            expanded = [*lines[: line + 1], " " * indent + expand(item["insertText"]), *lines[line + 2 :]]
            parse("\n".join(expanded) + "\n", "snippet.rules")


def test_inlay_hints_give_the_cards_a_card_line_makes_and_a_deal_gives_each(client):
    """poison.rules: the potion line makes 3 colours x 14 values = 42 cards, the poison line 8; its
    `deal all to hand` gives each hand 10 cards with 5 players (50 cards), 12 or 13 with 3 (dealt as
    for 4) -- what `ruleset render`'s deal table says."""
    from conftest import RULESETS

    poison = RULESETS / "poison.rules"
    text = poison.read_text()
    uri = client.open(poison, text)
    client.wait_diagnostics(uri)
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": len(text.splitlines()), "character": 0}}
    hints = client.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole})
    by_line = {h["position"]["line"]: h["label"] for h in hints}
    assert by_line[line_of(text, "potion  color red")[0]] == " = 42 cards"
    assert by_line[line_of(text, "poison  color green")[0]] == " = 8 cards"
    deal = by_line[line_of(text, "deal all to hand")[0]]
    assert deal.startswith(" = 12 or 13 each with 3 players") and "10 with 5" in deal
