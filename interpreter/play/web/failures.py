"""What a table that stopped says, to its seats and lobby, and to the server's log.

Decision (docs/serve.md, "What a stopped table says"): an error of the rules or the engine may
print a value the game computed (``cannot draw -96 cards``, ``chips is 7: it cannot pay 9``), and
that value may be a private one (a card in a hand, a hidden counter), so a ruleset built to fail
so would show it to every seat. Every page and the lobby are told only the error's kind and the
rule's place (``file:line:col``: the rules are public, the rulebook shows them); the server's log
(stderr) has the whole message, with the table's id, for its operator. The server's own words
(the move cap, a move the disk refused, a saved table's line that does not replay) name no value
of the game and are shown as they are.

A saved table that cannot be opened again after a restart is told the same way (``unloaded`` for
its rules file, ``stopped`` for the rest of its set-up): the lobby and its links name the rules
file, never its folder, and the error's kind, never Python's own text.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

from ...errors import IllegalMoveError, PlayError, RulesetError

LOG = "the server's log says why"
KINDS = (
    (IllegalMoveError, "a move the rules do not allow was played"),
    (PlayError, "the rules could not go on"),
)


def stopped(table_id: str, err: BaseException, doing: str = "stopped") -> str:
    """The failure a table's seats and the lobby are shown for ``err``; the whole goes to the log
    (``doing``: what the table did, as the log says it)."""
    _log(table_id, doing, err)
    if not isinstance(err, RulesetError):  # a bug, not the rules
        return f"the engine failed ({type(err).__name__}): a bug of ruleset, please report it ({LOG})"
    kind = next((words for cls, words in KINDS if isinstance(err, cls)), None)
    if kind is None:  # (the server's words: SaveError, a set-up the server refused...)
        return err.message
    where = f" at {Path(err.span.file).name}:{err.span.line}:{err.span.col}" if err.span else ""
    return f"{kind}{where}: {LOG}"


def unloaded(table_id: str, rules: object, err: BaseException) -> str:
    """Why a saved table's rules file (``rules``, its path) does not load: its file name and the
    error's kind (a message may name the file's folder, or be Python's own); the whole to the log."""
    _log(table_id, "not resumed", err)
    name = f" {Path(rules).name}" if isinstance(rules, str) and rules else ""
    return f"its rules file{name} does not load on this server ({type(err).__name__}): {LOG}"


def _log(table_id: str, doing: str, err: BaseException) -> None:
    """The whole of an error, with its table, on the server's log (stderr): a bug's traceback too."""
    if isinstance(err, RulesetError):
        print(f"table {table_id} {doing}: {err.format()}", file=sys.stderr, flush=True)
    else:
        print(f"table {table_id} {doing} by a bug of ruleset:", file=sys.stderr, flush=True)
        traceback.print_exception(err, file=sys.stderr)
