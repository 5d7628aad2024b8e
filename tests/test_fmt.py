"""`ruleset fmt`: the canonical layout keeps every comment, is a fixed point, and keeps the rules."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, RULESETS, run_cli
from interpreter.errors import Span
from interpreter.language.ast_nodes import Expr
from interpreter.language.syntax import comments_of, to_ast
from interpreter.loader import ir_from_text
from interpreter.text.diff import strip
from interpreter.text.fmt import expression, format_text

SHIPPED = sorted(RULESETS.glob("*.rules"))

MESSY = """# a small game
game   "Tiny"
players 2..4
param   goal= 10   # the points to reach

cards
  gem  color red|blue value 1..3 x2
  # wild cards go anywhere
  wild color none_of_them value 0 x4
zones
  hand per player,owner sees
  pot 2 , public

round
  deal 3 to hand,one at a time ,rest aside
  phase play
    move play card from hand to pot
      allow card is wild
      # same color
      allow color of first gem in target = color of card
    after play if (sum of value in target) > goal
      move cards in target to hand of player
    ends when every hand is empty
  score
    each gem in hand of player : -(value of card)
game
  rounds 2*players
  winner lowest total
"""


def _walk(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "note":
                yield v
            else:
                yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_formatting_twice_changes_nothing(path):
    """Formatting a formatted file gives the same text."""
    once = format_text(path.read_text(), str(path))
    assert format_text(once, str(path)) == once


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_comment_is_kept(path):
    """Every comment of the file is in the formatted text, as often as before."""
    text = path.read_text()
    once = format_text(text, str(path))
    assert Counter(comments_of(once).values()) == Counter(comments_of(text).values())


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_formatted_file_loads_to_the_same_rules_and_notes(path):
    """The formatted text resolves to the same IR as the file, positions aside, the notes included."""
    text = path.read_text()
    before = ir_from_text(text, str(path))
    after = ir_from_text(format_text(text, str(path)), str(path))
    assert strip(after) == strip(before)
    assert list(_walk(after)) == list(_walk(before))


CANONICAL = SHIPPED + sorted(EXAMPLES.glob("*.rules"))  # (examples/broken/ holds mistakes on purpose)


@pytest.mark.parametrize("path", CANONICAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_and_example_ruleset_is_in_the_canonical_layout(path):
    """What we ship passes `fmt --check`: the layout we recommend is the one we write."""
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text, f"run: ruleset fmt --write {path}"


def test_fmt_check_of_a_canonical_file_prints_nothing():
    """`fmt --check` on a shipped file: exit 0 and no output at all."""
    result = run_cli("fmt", "rulesets/poison-kedric-winks.rules", "--check")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_fmt_takes_many_files_and_check_fails_if_any_is_not_in_the_layout(tmp_path):
    """As `check` takes files: `fmt --check A B C` names each file not in the layout and exits 1;
    one that does not parse is its error, exit 2, and the others are still checked."""
    canonical = [str(p) for p in SHIPPED[:2]]
    messy = tmp_path / "messy.rules"
    messy.write_text(MESSY)
    result = run_cli("fmt", "--check", *canonical)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    result = run_cli("fmt", "--check", canonical[0], str(messy), canonical[1])
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{messy} is not in the canonical layout; `ruleset fmt --write {messy}` fixes it"
    ]
    broken = tmp_path / "broken.rules"
    broken.write_text("game\n")
    result = run_cli("fmt", "--check", str(broken), str(messy))
    assert result.returncode == 2 and f"{broken}:" in result.stderr and f"{messy} is not in" in result.stderr


def test_fmt_writes_or_prints_many_files(tmp_path):
    """`--write` rewrites each file; printing several heads each layout with its file, as a comment."""
    files = [tmp_path / "a.rules", tmp_path / "b.rules"]
    for f in files:
        f.write_text(MESSY)
    printed = run_cli("fmt", *map(str, files))
    assert printed.returncode == 0
    assert printed.stdout == "".join(f"# ==> {f} <==\n" + format_text(MESSY, str(f)) for f in files)
    assert run_cli("fmt", "--write", *map(str, files)).returncode == 0
    assert [f.read_text() for f in files] == [format_text(MESSY, "tiny.rules")] * 2


def test_a_messy_file_gets_the_canonical_layout():
    """Spacing, option order and spellings are normalised; comments stay beside their rules."""
    out = format_text(MESSY, "tiny.rules")
    assert 'game "Tiny"\n' in out
    assert "param goal = 10  # the points to reach\n" in out
    assert "\ncards\n  gem   color red | blue     value 1..3 x2\n" in out
    assert "  # wild cards go anywhere\n  wild  color none_of_them   value 0    x4\n" in out  # (copies line up)
    assert "\nzones\n  hand  per player, owner sees\n  pot   2, public\n" in out
    assert "  deal 3 to hand, one at a time, rest aside\n" in out
    assert "    after play if (sum of value in target) > goal\n" in out
    assert "    each gem in hand of player: -(value of card)\n" in out  # (the author's parentheses)
    assert "  rounds 2 * players\n" in out
    assert format_text(out, "tiny.rules") == out
    assert strip(ir_from_text(out, "tiny.rules")) == strip(ir_from_text(MESSY, "tiny.rules"))


def fmt_expr(text: str) -> str:
    return expression(to_ast(f"param p = {text}\n").items[0].default)


def test_the_authors_parentheses_stay_needed_or_not():
    """`(1 + 2) * 3` needs its parentheses; `1 + (2 * 3)` does not, but its author grouped it for the
    reader: both stay as written (doubled ones print once)."""
    assert fmt_expr("(1 + 2) * 3") == "(1 + 2) * 3"
    assert fmt_expr("1 + (2 * 3)") == "1 + (2 * 3)"
    assert fmt_expr("1 - (2 - 3)") == "1 - (2 - 3)"
    assert fmt_expr("(no a where b = 1) and c") == "(no a where b = 1) and c"
    assert fmt_expr("no a where (b = 1 and c)") == "no a where (b = 1 and c)"
    assert fmt_expr("((a))  +  b") == "(a) + b"


def test_a_deal_keeps_the_parentheses_of_its_amount():
    """`deal (if ...) to hand` is printed as written, not as `deal if ... to hand`."""
    text = MESSY.replace("deal 3 to hand", "deal (if players = 3 then 4 else 3) to hand")
    out = format_text(text, "tiny.rules")
    assert "  deal (if players = 3 then 4 else 3) to hand, one at a time, rest aside\n" in out
    assert strip(ir_from_text(out, "tiny.rules")) == strip(ir_from_text(text, "tiny.rules"))


def test_the_copies_of_one_value_card_lines_line_up():
    """Lines whose one value has copies (`name "Tempura" x14`) put their copies in one column, whatever
    the length of the value; lines with several values, or none with copies, are as before."""
    text = MESSY.replace(
        "  gem  color red|blue value 1..3 x2\n",
        '  tempura name "Tempura" x14\n  maki name "Maki roll" rolls 1 x6, 2 x12\n  chopsticks name "Chopsticks" x4\n',
    )
    out = format_text(text, "tiny.rules")
    assert (
        '  tempura     name "Tempura"    x14\n'
        '  maki        name "Maki roll"     rolls 1 x6, 2 x12\n'
        '  chopsticks  name "Chopsticks" x4\n'
        "  # wild cards go anywhere\n"
        "  wild        color none_of_them   value 0 x4\n"
    ) in out
    assert format_text(out, "tiny.rules") == out


# ---- property: any expression tree prints to text that parses back to the same tree ----------------

SPAN = Span("<t>", 1, 1)
NAMES = st.sampled_from(["a", "b", "hand", "pot2"])


def _e(op, *args):
    return Expr(op, tuple(args), SPAN)


def _shape(e):
    if isinstance(e, Expr):
        return (e.op, *(_shape(x) for x in e.args))
    return e


def _extend(inner):
    binary = st.sampled_from(["=", "!=", "<", ">", "<=", ">="])
    return st.one_of(
        st.builds(lambda n, x: _e("of", n, x), NAMES, inner),
        st.builds(lambda n, s, w, x: _e("select", n, s, w, x), NAMES, inner, st.none() | inner, st.none() | inner),
        st.builds(lambda s, w, x: _e("filter", s, w, x), inner, inner, st.none() | inner),
        st.builds(lambda k, x: _e("pick", k, x), st.sampled_from(["first", "best"]), inner),
        st.builds(lambda x: _e("count", x), inner),
        st.builds(lambda g, n, x: _e("aggregate", g, n, x), st.sampled_from(["sum", "max"]), NAMES, inner),
        st.builds(lambda c, t, o: _e("conditional", c, t, o), inner, inner, inner),
        st.builds(lambda x: _e("neg", x), inner),
        st.builds(lambda x: _e("not", x), inner),
        st.builds(lambda q, x: _e(q, x), st.sampled_from(["some", "no"]), inner),
        st.builds(lambda x: _e("every_empty", x), inner),
        st.builds(lambda s, x: _e("most", s, x), st.booleans(), inner),
        st.builds(lambda a, c, b: _e("compare", a, c, b), inner, binary, inner),
        st.builds(lambda x, n, w: _e("is", x, n, w), inner, st.booleans(), st.sampled_from(["none", "empty", "a"])),
        st.builds(lambda a, s, b: _e("arith", a, s, b), inner, st.sampled_from(["+", "-", "*", "/"]), inner),
        st.builds(
            lambda o, xs: _e(o, *xs), st.sampled_from(["and", "or", "else"]), st.lists(inner, min_size=2, max_size=3)
        ),
    )


LEAVES = st.one_of(
    st.builds(lambda n: _e("number", n), st.integers(0, 99)),
    st.builds(lambda n: _e("name", n), NAMES),
    st.builds(lambda t: _e("string", t), st.sampled_from(["Big Win", "x"])),
    st.just(_e("none")),
)


@settings(max_examples=300, deadline=None)
@given(st.recursive(LEAVES, _extend, max_leaves=8))
def test_any_expression_prints_to_text_that_parses_back_to_it(e):
    """The printer's parentheses are enough: printed text parses back to the very same tree."""
    text = expression(e)
    back = to_ast(f"param p = {text}\n").items[0].default
    assert _shape(back) == _shape(e), text


def test_fmt_check_fails_on_a_file_that_is_not_canonical(tmp_path):
    """`fmt --check` exits 1 and names the file; `--write` fixes it; then `--check` passes."""
    path = tmp_path / "tiny.rules"
    path.write_text(MESSY)
    check = run_cli("fmt", str(path), "--check")
    assert check.returncode == 1 and "tiny.rules" in check.stderr and check.stdout == ""
    assert run_cli("fmt", str(path), "--write").returncode == 0
    assert path.read_text() == format_text(MESSY, str(path))
    assert run_cli("fmt", str(path), "--check").returncode == 0


def test_fmt_prints_the_canonical_text_and_reports_syntax_errors(tmp_path):
    """`fmt FILE` prints the layout; a file that does not parse is an error with a position, exit 2."""
    path = tmp_path / "bad.rules"
    path.write_text('game "x"\nplayers 2..3 4\n')
    result = run_cli("fmt", str(path))
    assert result.returncode == 2 and "bad.rules:2:" in result.stderr and "Traceback" not in result.stderr
    ok = run_cli("fmt", "rulesets/poison.rules")
    assert ok.returncode == 0 and ok.stdout == (RULESETS / "poison.rules").read_text()
