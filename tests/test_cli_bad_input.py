"""Bad input through the command line, as a real process: exit code 2, a positioned message on
stderr, never a traceback. Empty, binary, non-UTF-8, a directory, a missing file, broken rules."""

from __future__ import annotations

import pytest

from conftest import RULESETS, run_cli

COMMANDS = [("show",), ("simulate", "--games", "1")]


def assert_bad_input(result, *expected: str) -> None:
    """Exit code 2, each expected text on stderr, and no traceback."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    for text in expected:
        assert text in result.stderr, result.stderr


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_empty_file(tmp_path, command) -> None:
    """An empty file is named as empty, with how a ruleset starts."""
    path = tmp_path / "empty.rules"
    path.write_text("")
    assert_bad_input(run_cli(command[0], str(path), *command[1:]), f"{path}:1:1: error: {path} is empty", "hint:")


def test_a_file_of_blank_lines_and_comments_only(tmp_path) -> None:
    """Comments only: the ruleset has no name, at line 1."""
    path = tmp_path / "comments.rules"
    path.write_text("# nothing yet\n\n# still nothing\n")
    assert_bad_input(run_cli("show", str(path)), f"{path}:1:1: error:")


def test_a_binary_file(tmp_path) -> None:
    """Bytes that are not UTF-8: the position of the first bad byte."""
    path = tmp_path / "binary.rules"
    path.write_bytes(b'game "X"\nplayers \x89PNG\r\n\x1a\n\x00\x00')
    assert_bad_input(run_cli("show", str(path)), f"{path}:2:9: error:", "not UTF-8", "0x89")


def test_text_in_another_encoding(tmp_path) -> None:
    """Latin-1 text (an accented name) is not UTF-8: the line and column, and how to fix it."""
    path = tmp_path / "latin1.rules"
    path.write_bytes('game "Caf\xe9"\n'.encode("latin-1"))
    assert_bad_input(run_cli("show", str(path)), f"{path}:1:10: error:", "save the file as UTF-8")


def test_binary_with_nul_bytes_that_is_valid_utf8(tmp_path) -> None:
    """NUL and control characters decode, then fail to parse at their position."""
    path = tmp_path / "nul.rules"
    path.write_bytes(b'game "X"\n\x00\x01\x02\n')
    assert_bad_input(run_cli("show", str(path)), f"{path}:2:1: error: unexpected")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_directory_instead_of_a_file(tmp_path, command) -> None:
    """A directory is named as one."""
    assert_bad_input(run_cli(command[0], str(tmp_path), *command[1:]), "is a directory")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_missing_file(tmp_path, command) -> None:
    """A missing file is named, with a hint about the path."""
    missing = tmp_path / "nope.rules"
    assert_bad_input(run_cli(command[0], str(missing), *command[1:]), f"no such file: {missing}", "hint:")


def test_a_name_that_is_no_file_nor_a_shipped_game_says_what_it_may_mean() -> None:
    """`ruleset play oh_hell` (a newcomer's guess): the classics are files, not names; the hint gives
    the file, a name spelt close to a shipped game's gets that name, and every hint lists them."""
    from interpreter.errors import ReadError
    from interpreter.loader import locate

    for name, meant in (("oh_hell", "examples/classics/oh_hell.rules"), ("poisn", "did you mean 'poison'?")):
        with pytest.raises(ReadError) as info:
            locate(name)
        assert info.value.message == f"no such file, nor a game shipped by that name: {name}"
        assert meant in info.value.hint and "games shipped by name: poison, poison-five-card" in info.value.hint
    assert_bad_input(run_cli("check", "love_letter"), "examples/classics/love_letter.rules?")


def test_a_syntax_error_shows_the_line_and_a_caret(tmp_path) -> None:
    """A broken line of a real ruleset: file:line:col, the line, a caret."""
    text = (RULESETS / "poison.rules").read_text("utf-8").replace("players 3..6", "players 3-6")
    path = tmp_path / "broken.rules"
    path.write_text(text)
    result = run_cli("show", str(path))
    assert_bad_input(result, f"{path}:3:10: error: unexpected", "    players 3-6", "             ^")


def test_a_missing_record_file_and_a_binary_record_file(tmp_path) -> None:
    """replay of a missing or non-UTF-8 record file: exit 2 with the reason."""
    assert_bad_input(run_cli("replay", str(tmp_path / "none.jsonl")), "no such record file")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    assert_bad_input(run_cli("replay", str(binary)), "not UTF-8")


def test_a_directory_as_ir_data(tmp_path) -> None:
    """A directory named like IR data is still a directory."""
    folder = tmp_path / "ir.json"
    folder.mkdir()
    assert_bad_input(run_cli("show", str(folder)), "is a directory")


def test_ir_data_that_is_not_json(tmp_path) -> None:
    """Broken JSON: the line and column of the JSON error."""
    path = tmp_path / "ir.json"
    path.write_text('{"format": 1,\n  "name": }\n')
    assert_bad_input(run_cli("show", str(path)), f"{path}:2:11: error: not valid JSON")


def test_check_of_dev_zero_prints_a_short_message() -> None:
    """`ruleset check /dev/zero`: the size limit, in a few lines, not a million NUL characters."""
    result = run_cli("check", "/dev/zero")
    assert result.returncode == 2 and "larger than" in result.stdout + result.stderr
    assert len(result.stdout) + len(result.stderr) < 1000
