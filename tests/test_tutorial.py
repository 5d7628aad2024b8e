"""docs/tutorial.md does what it says: every file it shows is written and loads, every command it
shows runs, and the output it quotes is what the command prints; the pieces it explains line by
line are the lines of the whole game."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest

from conftest import HANG, ROOT
from interpreter.language.parser import parse

DOC = (ROOT / "docs" / "tutorial.md").read_text()
BLOCKS = [(lang, info.strip(), body) for lang, info, body in re.findall(r"```(\w+)([^\n]*)\n(.*?)```", DOC, re.S)]
FILES = {info: body for lang, info, body in BLOCKS if lang == "rules" and info}
PIECES = [body for lang, info, body in BLOCKS if lang == "rules" and not info]


def ruleset(line: str, cwd) -> str:
    """Run one `ruleset ...` line of the tutorial in ``cwd``; its output (stdout and stderr)."""
    args = shlex.split(line)
    assert args[0] == "ruleset", line
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "interpreter", *args[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        input="q\n",  # `play` quits at its first prompt
        timeout=HANG,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 1: check found what the page says it finds
    return done.stdout + done.stderr


def test_the_tutorial_has_a_game_a_variant_and_commands():
    assert {"harvest.rules", "sour.rules", "oops.rules", "climb.rules"} <= set(FILES)
    assert len(PIECES) >= 6
    commands = " ".join(body for lang, _, body in BLOCKS if lang == "sh")
    for command in ("check", "simulate", "play", "render", "diff"):
        assert f"ruleset {command} " in commands


@pytest.mark.parametrize("piece", PIECES, ids=[f"piece{i}" for i in range(len(PIECES))])
def test_each_piece_explained_parses_and_is_part_of_the_game(piece):
    parse(piece, "docs/tutorial.md")
    whole = FILES["harvest.rules"].splitlines()
    assert [line for line in piece.splitlines() if line not in whole] == []


def test_what_the_tutorial_says_in_words_holds(tmp_path):
    """`diff` exits 1 on a difference; hover on a zone in an editor says what the page quotes."""
    from lsp_client import Client

    for name in ("harvest.rules", "sour.rules"):
        (tmp_path / name).write_text(FILES[name])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "interpreter", "diff", "harvest.rules", "sour.rules"]
    assert subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, timeout=HANG).returncode == 1
    assert "exits with 1 when the two differ" in DOC
    quoted = re.search(r"\*(Zone `basket`: [^*]+)\*", DOC)[1]
    client = Client("--playouts", "0")
    try:
        uri = client.open(tmp_path / "harvest.rules")
        line = FILES["harvest.rules"].splitlines().index("  basket   shared, public")
        said = client.at("textDocument/hover", uri, line, 3)["contents"]["value"]
    finally:
        client.close()
    assert said.replace("**", "").startswith(quoted)


def test_every_command_prints_what_the_tutorial_quotes(tmp_path):
    """In the page's order: write the files, run the commands, find each quoted line in the output."""
    output = ""
    for lang, info, body in BLOCKS:
        if lang == "rules" and info:
            (tmp_path / info).write_text(body)
        elif lang == "sh":
            output = "".join(ruleset(line, tmp_path) for line in body.splitlines() if line.strip())
        elif lang == "text":
            printed = [line.strip() for line in output.splitlines()]
            for quoted in filter(None, (line.strip() for line in body.splitlines())):
                assert any(line.startswith(quoted) for line in printed), f"not printed: {quoted}\n{output}"
