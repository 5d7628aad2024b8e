"""Every limit stops bad input with a clear, positioned error: deck size, numbers, nesting,
extends depth and cycles, file size, IR data size, and the moves a round may take."""

from __future__ import annotations

import json
import os

import pytest

import interpreter
from conftest import RULESETS, run_cli
from interpreter.engine.game import compile_ir
from interpreter.errors import ExtendsError, PlayError, ReadError, RulesetError, SchemaError
from interpreter.language.limits import default_max_moves
from interpreter.language.resolve import MAX_DECK, MAX_DEPTH
from interpreter.language.syntax import MAX_NESTING, MAX_OPERATORS
from interpreter.language.variants import MAX_EXTENDS_DEPTH, MAX_FILE_BYTES
from interpreter.loader import MAX_IR_DEPTH, ir_from_path, ir_from_text

# A small game whose round never ends: the card put on the pile comes straight back.
ENDLESS = """\
game "Endless"
players 2..3

cards
  token value 1 x4

zones
  hand per player, owner sees
  pile shared, public

round
  deal 2 to hand
  phase play
    move put card from hand to pile
    after put
      move cards in pile to hand of player
    ends when every hand is empty

game
  rounds 1
  winner highest total
"""


def small(cards: str = "  token value 1 x4", limit: str = "2") -> str:
    """The endless game with other card lines and a parameter ``limit`` of the given expression."""
    text = ENDLESS.replace("  token value 1 x4", cards)
    return text.replace("players 2..3\n", f"players 2..3\nparam limit = {limit}\n")


def error_of(text: str, file: str = "<rules>") -> RulesetError:
    """The error loading ``text`` raises (failing the test if it loads)."""
    with pytest.raises(RulesetError) as info:
        interpreter.loads(text, file)
    assert info.value.span is not None
    return info.value


# ---- the deck, numbers, nesting ---------------------------------------------------------------


def test_a_deck_of_more_than_the_most_cards_is_refused_at_its_line() -> None:
    """10,001 copies of a card: the deck limit, named, at the card line."""
    err = error_of(small(f"  token value 1 x{MAX_DECK + 1}"))
    assert str(MAX_DECK) in err.message
    assert err.span.line == 6


def test_a_huge_range_of_values_is_refused() -> None:
    """A value range 1..1000000 would make a million cards."""
    err = error_of(small("  token value 1..1000000"))
    assert str(MAX_DECK) in err.message


def test_a_deck_at_the_limit_loads() -> None:
    """Exactly the most cards a deck may hold is fine."""
    game = interpreter.loads(small(f"  token value 1 x{MAX_DECK}"))
    assert len(game.cards) == MAX_DECK


def test_a_number_too_large_is_refused_where_it_is_written() -> None:
    """Numbers are bounded (no arithmetic on thousand-digit integers)."""
    err = error_of(small(limit="1" + "0" * 30))
    assert "1,000,000,000" in err.message
    assert (err.span.line, err.span.col) == (3, 15)


@pytest.mark.parametrize(
    "where", ["copies", "players", "range"], ids=["a count x9999...", "players 2..999...", "a range 1..999..."]
)
def test_a_number_of_thousands_of_digits_is_refused_where_it_is_written(where: str) -> None:
    """5,000 digits (more than Python converts to a number) are a positioned error, not a bug of ruleset."""
    digits = "9" * 5000
    text = {
        "copies": small(f"  token value 1 x{digits}"),
        "players": ENDLESS.replace("players 2..3", f"players 2..{digits}"),
        "range": small(f"  token value 1..{digits}"),
    }[where]
    err = error_of(text)
    assert "1,000,000,000" in err.message and "5000 digits" in (err.hint or "")
    line = text.splitlines()[err.span.line - 1]
    assert line[err.span.col - 1 :].lstrip("x").startswith("9999"), "the caret is at the number"


def test_a_number_of_ten_digits_with_leading_zeros_is_still_a_number() -> None:
    """Leading zeros do not count towards the limit."""
    game = interpreter.loads(small(limit="000000000001"))
    assert game.param_values(2)["limit"] == 1


def test_an_expression_nested_past_the_limit_is_refused() -> None:
    """One level past the expression depth limit."""
    err = error_of(small(limit="-" * (MAX_DEPTH + 1) + "1"))
    assert f"deeper than {MAX_DEPTH}" in err.message


@pytest.mark.parametrize(
    "expr",
    [
        "-" * 5000 + "1",
        "not " * 5000 + "1 = 1",
        "count " * 3000 + "hand",
        "if 1 = 1 then " * 2000 + "1" + " else 1" * 2000,
        " + ".join(["1"] * 5000),
        "(" * 5000 + "1" + ")" * 5000,
    ],
    ids=["minus", "not", "count", "if", "sum", "parentheses"],
)
def test_thousands_of_levels_of_nesting_give_an_error_not_a_recursion_error(expr: str) -> None:
    """The parse tree is measured before anything recurses over it."""
    try:
        interpreter.loads(small(limit=expr))
    except RulesetError as err:
        assert err.span is not None and err.span.line == 3
        assert "deeper than" in err.message or "expected" in err.message or "operators in one" in err.message


def test_a_huge_expression_is_refused_before_it_is_parsed(monkeypatch) -> None:
    """600 KB of `1+1+...` (an upload could send it) is refused by a scan of the text, at the first
    operator too many: the parser, whose work grows with every operator, never sees it."""
    from interpreter.language import syntax

    def parse(*_: object) -> None:
        raise AssertionError("the huge expression was parsed")

    monkeypatch.setattr(syntax, "parse", parse)
    err = error_of(small(limit="+".join(["1"] * 300_000)))
    assert f"more than {MAX_OPERATORS} operators in one expression" in err.message
    assert (err.span.line, err.span.col) == (3, len("param limit = ") + 2 * MAX_OPERATORS + 2)
    assert "`define`" in err.hint
    excerpt, caret = err.format().splitlines()[1:3]  # a window of the line, the caret under the operator
    assert excerpt[caret.index("^")] == "+" and len(excerpt) < 200


def test_the_operators_of_an_expression_are_counted_across_the_lines_of_its_parentheses() -> None:
    across = "(" + " +\n  ".join(["1"] * (MAX_OPERATORS + 2)) + ")"
    assert f"more than {MAX_OPERATORS} operators" in error_of(small(limit=across)).message
    lines = "\n".join(f"define d{k} = " + " + ".join(["1"] * 40) for k in range(20))  # 800 on 20 lines: fine
    interpreter.loads(small(limit="2\n" + lines))


def test_blocks_nested_past_the_limit_are_refused() -> None:
    """`if` effects nested hundreds deep (one space more each line) stop at the nesting limit."""
    body = "    after put\n"
    for k in range(300):
        body += " " * (6 + k) + "if card is token\n"
    body += " " * 306 + "move cards in pile to hand of player\n"
    text = ENDLESS.replace("    after put\n      move cards in pile to hand of player\n", body)
    err = error_of(text)
    assert f"deeper than {MAX_NESTING}" in err.message


def test_the_deepest_rules_the_text_allows_load_back_from_their_ir() -> None:
    """IR written by `show` from rules at the nesting limit loads back as data."""
    depth = MAX_NESTING - 8
    body = "    after put\n" + "".join(" " * (6 + k) + "if card is token\n" for k in range(depth))
    body += " " * (6 + depth) + "move cards in pile to hand of player\n"
    ir = ir_from_text(ENDLESS.replace("    after put\n      move cards in pile to hand of player\n", body))
    compile_ir(interpreter.loader.ir_from_data(json.dumps(ir), "deep.json"))


# ---- extends ---------------------------------------------------------------------------------


def write(path, text: str):
    """Write a file and return its path."""
    path.write_text(text, "utf-8")
    return path


def test_an_extends_cycle_is_named(tmp_path) -> None:
    """a extends b extends a: the cycle, file by file."""
    write(tmp_path / "a.rules", 'extends "b.rules"\ngame "A"\n')
    write(tmp_path / "b.rules", 'extends "a.rules"\ngame "B"\n')
    with pytest.raises(ExtendsError, match=r"extends cycle: a\.rules -> b\.rules -> a\.rules") as info:
        ir_from_path(tmp_path / "a.rules")
    assert info.value.span.line == 1


def test_a_file_that_extends_itself_is_a_cycle(tmp_path) -> None:
    """The shortest cycle."""
    write(tmp_path / "self.rules", 'extends "self.rules"\ngame "Self"\n')
    with pytest.raises(ExtendsError, match="cycle"):
        ir_from_path(tmp_path / "self.rules")


def test_an_extends_chain_deeper_than_the_limit_is_refused(tmp_path) -> None:
    """A chain of variants, each extending the next, longer than MAX_EXTENDS_DEPTH."""
    n = MAX_EXTENDS_DEPTH + 2
    write(tmp_path / f"v{n}.rules", ENDLESS)
    for i in range(n):
        write(tmp_path / f"v{i}.rules", f'extends "v{i + 1}.rules"\ngame "V{i}"\n')
    with pytest.raises(ExtendsError, match=f"deeper than {MAX_EXTENDS_DEPTH}"):
        ir_from_path(tmp_path / "v0.rules")
    assert ir_from_path(tmp_path / f"v{n - MAX_EXTENDS_DEPTH}.rules")["name"] == f"V{n - MAX_EXTENDS_DEPTH}"


def test_extends_is_relative_to_the_file_not_the_working_directory(tmp_path) -> None:
    """The shipped variant loads from any directory (its base is found beside it)."""
    result = run_cli("show", str(RULESETS / "poison-five-card.rules"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "Poison, five-card variant"


@pytest.mark.parametrize("path", ["a" * 5000, "../" * 2000 + "x", "a/" * 3000, "a\x00b"])
def test_an_extends_path_no_file_can_have_is_not_found_not_a_crash(tmp_path, path: str) -> None:
    """A path too long for the file system (or with a NUL in it) is an ExtendsError at its line."""
    variant = write(tmp_path / "v.rules", f'extends "{path}"\ngame "V"\n')
    with pytest.raises(ExtendsError) as info:
        ir_from_path(variant)
    assert info.value.span.line == 1 and "not found" in info.value.message


def test_the_caller_decides_which_files_extends_may_name(tmp_path) -> None:
    """``find`` is asked for every base of the chain; what it refuses is never opened."""
    from interpreter.language.variants import find_base, load_program

    secret = write(tmp_path / "secret.rules", "root:x:0:0:root:/root:/bin/bash\n")
    asked = []

    def only_shipped(ext, file):
        asked.append(ext.path)
        if "/" in ext.path:
            raise ExtendsError("no paths here", ext.span)
        return find_base(ext, file)

    with pytest.raises(ExtendsError, match="no paths here") as info:
        load_program(f'extends "{secret}"\ngame "V"\n', "<upload>", find=only_shipped)
    assert "root:" not in info.value.format() and asked == [str(secret)]
    chain = write(tmp_path / "v.rules", 'extends "poison-five-card"\ngame "V"\n')
    program = load_program(chain.read_text(), str(chain), find=only_shipped)
    assert asked[1:] == ["poison-five-card", "poison.rules"], "asked again for the base's own base"
    assert [f.file.rsplit("/", 1)[-1] for f in program.files] == ["poison.rules", "poison-five-card.rules", "v.rules"]


def test_extends_never_follows_a_url() -> None:
    """A URL in extends is refused before anything is fetched."""
    err = error_of('extends "https://example.com/base.rules"\ngame "X"\n')
    assert isinstance(err, ExtendsError) and "not a URL" in err.message


# ---- sizes of files and data -----------------------------------------------------------------


def test_a_file_larger_than_the_limit_is_refused(tmp_path) -> None:
    """A rules file over MAX_FILE_BYTES, by its size, before it is parsed."""
    path = write(tmp_path / "big.rules", ENDLESS + "#" * MAX_FILE_BYTES + "\n")
    with pytest.raises(ReadError, match="larger than"):
        ir_from_path(path)


def test_rules_text_longer_than_the_limit_is_refused() -> None:
    """The same limit for text handed straight to loads."""
    err = error_of(ENDLESS + "#" * MAX_FILE_BYTES + "\n")
    assert isinstance(err, ReadError)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_device_is_read_only_up_to_the_limit() -> None:
    """/dev/zero is not read forever."""
    with pytest.raises(ReadError, match="larger than"):
        ir_from_path("/dev/zero")


def test_ir_data_nested_too_deeply_is_refused(tmp_path) -> None:
    """JSON nested 100,000 deep (the JSON reader itself would overflow) and IR past MAX_IR_DEPTH."""
    deep = write(tmp_path / "deep.json", "[" * 100_000 + "]" * 100_000)
    with pytest.raises(ReadError, match="nested too deeply"):
        ir_from_path(deep)
    nested = write(tmp_path / "nested.json", '{"a": ' + "[" * MAX_IR_DEPTH + "]" * MAX_IR_DEPTH + "}")
    with pytest.raises(SchemaError, match="nested deeper"):
        ir_from_path(nested)


def test_a_yaml_alias_bomb_is_refused(tmp_path) -> None:
    """Nine levels of aliases would expand to a billion values."""
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    bomb = write(tmp_path / "bomb.yaml", "\n".join(lines) + "\n")
    with pytest.raises(SchemaError, match="more than"):
        ir_from_path(bomb)


# ---- moves per round ---------------------------------------------------------------------------


def play_first_moves(game: interpreter.Game, players: int = 2) -> None:
    """Play the first legal move until the game ends."""
    state = game.new_game(players, seed=1)
    while not state.is_over:
        state.apply(state.legal_moves()[0])


def test_an_endless_round_stops_with_an_error_naming_the_move_and_the_phase() -> None:
    """The move that kept being played (at its line), the trigger after it, the end never reached."""
    game = interpreter.loads(ENDLESS, "endless.rules")
    assert game.max_moves_per_round == default_max_moves(4)
    with pytest.raises(PlayError) as info:
        play_first_moves(game)
    err = info.value
    assert (err.span.file, err.span.line) == ("endless.rules", 14)
    assert f"after {default_max_moves(4)} moves" in err.message
    assert "move 'put'" in err.message
    assert "trigger at line 15" in err.message
    assert "phase 'play' never reached `ends when every hand is empty` (line 17)" in err.message
    assert "--max-moves" in err.hint


def test_the_moves_bound_can_be_set_when_compiling() -> None:
    """compile_ir(max_moves=N) stops an endless round after N moves."""
    game = compile_ir(ir_from_text(ENDLESS), max_moves=25)
    with pytest.raises(PlayError, match="after 25 moves"):
        play_first_moves(game)


def test_a_bound_that_is_too_low_for_a_real_game_says_how_to_raise_it(poison) -> None:
    """Poison's 56 cards take 56 moves a round: a bound of 10 stops it, naming the play move."""
    game = compile_ir(poison.ir, max_moves=10)
    with pytest.raises(PlayError, match="move 'play'") as info:
        play_first_moves(game, 4)
    assert "--max-moves" in info.value.hint


def test_the_shipped_games_end_well_within_the_default_bound(poison, five_card) -> None:
    """The default bound leaves real games alone."""
    for game in (poison, five_card):
        play_first_moves(game, 4)


def test_the_cli_stops_an_endless_game_with_exit_code_2(tmp_path) -> None:
    """`simulate --max-moves 40` on the endless game: exit 2, the positioned message, no traceback."""
    path = write(tmp_path / "endless.rules", ENDLESS)
    result = run_cli("simulate", str(path), "--players", "2", "--games", "3", "--max-moves", "40")
    assert result.returncode == 2
    assert f"{path}:14:5: error: round 1 has not ended after 40 moves" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_cli_refuses_a_bound_below_one() -> None:
    """--max-moves 0 is a usage error."""
    result = run_cli("simulate", "poison", "--max-moves", "0")
    assert result.returncode == 2
    assert "--max-moves" in result.stderr


BOUNDED = ENDLESS.replace("  rounds 1\n", "  rounds 1\n  max moves per round 30\n")


def test_a_game_says_its_own_bound_on_moves_and_the_tools_read_it(tmp_path) -> None:
    """`max moves per round N` replaces 20 per card + 1000 for the engine, check and simulate;
    --max-moves still overrides it; fmt, render and diff say it."""
    from interpreter.checker import check
    from interpreter.text.diff import diff, diff_text
    from interpreter.text.fmt import format_text
    from interpreter.text.render import rulebook, to_markdown

    game = interpreter.loads(BOUNDED, "bounded.rules")
    assert game.max_moves_per_round == 30 and game.ir["game"]["max_moves_per_round"] == 30
    with pytest.raises(PlayError, match="after 30 moves") as info:
        play_first_moves(game)
    assert "`max moves per round N`" in info.value.hint
    with pytest.raises(PlayError, match="after 25 moves"):
        play_first_moves(compile_ir(game.ir, max_moves=25))
    path = write(tmp_path / "bounded.rules", BOUNDED)
    [endless] = [f for f in check(str(path), games=2, jobs=1).findings if f.code == "endless"]
    assert "has not ended after 30 moves" in endless.message and "max moves per round" in endless.hint
    checked = run_cli("check", str(path), "--games", "2", "--jobs", "1", "--max-moves", "20")
    assert checked.returncode == 1 and "has not ended after 20 moves" in checked.stdout
    simulated = run_cli("simulate", str(path), "--players", "2", "--games", "1")
    assert simulated.returncode == 2 and "round 1 has not ended after 30 moves" in simulated.stderr
    assert "  max moves per round 30\n" in format_text(BOUNDED) == format_text(format_text(BOUNDED))
    assert "A round that has not ended after 30 moves is stopped as endless" in to_markdown(rulebook(game.ir))
    assert "added    Moves per round: a round that has not ended after 30 moves" in diff_text(
        diff(interpreter.loads(ENDLESS, "e.rules").ir, game.ir)
    )


def test_a_bound_below_one_move_is_an_error_at_its_line() -> None:
    err = error_of(BOUNDED.replace("round 30", "round 0"))
    assert err.span.line == BOUNDED.splitlines().index("  max moves per round 30") + 1
    assert "at least 1 move" in err.message
