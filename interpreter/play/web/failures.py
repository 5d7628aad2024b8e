"""What a table that stopped says, to its seats and lobby, and to the server's log.

Decision (docs/serve.md, "What a stopped table says"): an error of the rules or the engine may
print a value the game computed (``cannot draw -96 cards``, ``chips is 7: it cannot pay 9``), and
that value may be a private one (a card in a hand, a hidden counter), so a ruleset built to fail
so would show it to every seat. Every page and the lobby are told only the error's kind and the
rule's place (``file:line:col``: the rules are public, the rulebook shows them); the server's log
(stderr) has the whole message, with the table's id, for its operator. The server's own words
(the move cap, a move the disk refused, a saved table's line that does not replay) name no value
of the game and are shown as they are.
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


def stopped(table_id: str, err: BaseException) -> str:
    """The failure a table's seats and the lobby are shown for ``err``; the whole goes to the log."""
    if not isinstance(err, RulesetError):  # a bug, not the rules
        print(f"table {table_id} stopped by a bug of ruleset:", file=sys.stderr, flush=True)
        traceback.print_exception(err, file=sys.stderr)
        return f"the engine failed ({type(err).__name__}): a bug of ruleset, please report it ({LOG})"
    print(f"table {table_id} stopped: {err.format()}", file=sys.stderr, flush=True)
    kind = next((words for cls, words in KINDS if isinstance(err, cls)), None)
    if kind is None:  # (the server's words: SaveError, a set-up the server refused...)
        return err.message
    where = f" at {Path(err.span.file).name}:{err.span.line}:{err.span.col}" if err.span else ""
    return f"{kind}{where}: {LOG}"
