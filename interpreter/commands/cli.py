"""The `ruleset` command (`ruleset --help`, `ruleset COMMAND --help`); each command is a module
of interpreter/commands/.

Exit codes: 0 success; 1 the rules or a record failed a check (a replay that breaks the
rules); 2 bad input (a file that cannot be read or parsed, a bad option).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from typing import TYPE_CHECKING, Any

from .. import commands
from ..errors import RecordError, RulesetError
from .console import message

if TYPE_CHECKING:
    from ..engine.game import Game

# Every command module imports what it runs on inside its run function, not at the top, so that
# `ruleset --help` starts at once (tests/test_startup.py keeps the engine out of it).

EPILOG = """examples:
  ruleset simulate GAME.rules --players 4 --games 1000
  ruleset simulate GAME.rules --players 3 --set rounds=3 --record games.jsonl
  ruleset replay games.jsonl
  ruleset show VARIANT.rules --format yaml
(the shipped games are in rulesets/; a shipped game can also be named without its path)
"""


def parse_sets(pairs: list[str] | None) -> dict[str, str]:
    """``--set NAME=VALUE`` options as a dict (values stay text; the game types them)."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise RulesetError(f"--set takes NAME=VALUE, not {pair!r}", hint="for example --set limit=17")
        out[name.strip()] = value.strip()
    return out


def load_game(path: str, max_moves: int | None = None, sets: dict[str, Any] | None = None) -> Game:
    """The Game of a rules file (or bundled name); ``max_moves`` overrides the bound on moves a round;
    ``sets``: parameters, for a deck that reads them (its copies, a range's ends) to be laid out with."""
    from ..engine.game import compile_ir
    from ..language.deck_params import with_params
    from ..loader import ir_from_path

    return compile_ir(with_params(ir_from_path(path), sets), max_moves=max_moves)


def whole(text: str) -> int:
    """An option's value as a whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def positive(text: str) -> int:
    """An option's value as a whole number of at least 1."""
    value = whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def jobs(text: str) -> int:
    """``--jobs N``: a number of processes, 0 meaning one per CPU."""
    value = whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 (one per CPU) or more, got {value}")
    if value == 0:
        from ..checker import default_jobs

        return default_jobs()
    return value


# One default for every command that plays many games: one process per CPU (1 with a dask scheduler).
JOBS_HELP = "processes to play the games over (default 0: one per CPU{also}; 1 plays them in this process)"
QUIET_HELP = "print only the result: no progress bar, no line per game"


def add_common(
    p: argparse.ArgumentParser,
    *,
    fmt: tuple[str, ...] | None = ("text", "json"),
    seed: bool = True,
    max_moves: bool = True,
) -> None:
    """The options commands share: --format, --set, and (for those that play) --seed and --max-moves."""
    if fmt:
        p.add_argument("--format", choices=fmt, default=fmt[0], help=f"output format (default {fmt[0]})")
    p.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="override a parameter of the ruleset (repeatable), e.g. --set limit=17",
    )
    if seed:
        p.add_argument("--seed", type=int, default=0, help="seed of all chance (default 0)")
    if max_moves:
        p.add_argument(
            "--max-moves",
            type=positive,
            metavar="N",
            help="the most moves a round may take before it is stopped as endless "
            "(default: the game's `max moves per round`, else 20 per card of the game, plus 1000)",
        )


def player_count(game: Game, players: int | None) -> int:
    """``--players``: the number given, checked against the rules, or the fewest the rules allow."""
    if players is None:
        return game.min_players
    game.check_players(players)
    return players


def write_output(path: str | os.PathLike, text: str) -> None:
    """Write an output file the user named; a path that cannot be written is their error (exit 2)."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as err:
        raise RulesetError(
            f"cannot write {path}: {err.strerror}", hint="check the folder exists and is writable"
        ) from None


# ---- the parser ---------------------------------------------------------------------------------


def version_line() -> str:
    """`ruleset --version`: the version, and whether the engine is the compiled one."""
    from importlib.metadata import PackageNotFoundError, version

    from ..build import DISTRIBUTION, engine_build

    try:
        number = version(DISTRIBUTION)
    except PackageNotFoundError:
        number = "(not installed)"
    return (
        f"ruleset {number}, engine {engine_build()}, at {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}"
    )


class VersionAction(argparse.Action):
    """`--version`: the version line, worked out only when asked for (it imports the engine)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(version_line())
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: each module of interpreter/commands/ registers the command of its name.
    ``only``, a command's name: that command alone (a run of one command need not import and
    register the fourteen others: a fifth of its argument parsing's start-up)."""
    parser = argparse.ArgumentParser(
        prog="ruleset",
        description="Card games as data: check, simulate, play and replay games written in the rules language.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=VersionAction, nargs=0, help="print the version and the engine and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = [m.name for m in pkgutil.iter_modules(commands.__path__) if m.name not in ("cli", "console")]
    # (cli and console are the parser and the output, not commands)
    modules = [importlib.import_module(f"{commands.__name__}.{name}") for name in ([only] if only in names else names)]
    for module in sorted(modules, key=lambda m: (getattr(m, "ORDER", 50), m.__name__)):
        module.register(sub)
    return parser


def unknown_command(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """The message for a first word that names no command, with the nearest command names."""
    words = [a for a in argv if not a.startswith("-")]
    if not words or not argv or argv[0].startswith("-"):
        return None
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if words[0] in sub.choices:
        return None
    import difflib  # (only for a mistyped command)

    near = difflib.get_close_matches(words[0], list(sub.choices), n=2, cutoff=0.6)
    guess = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
    return f"ruleset: error: no command {words[0]!r}{guess} (the commands: {', '.join(sub.choices)})"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; errors are messages on stderr, never tracebacks."""
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv else None)  # (every command for --help or a mistyped one)
    unknown = unknown_command(parser, argv)
    if unknown:
        message(unknown)
        return 2
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except RecordError as err:
        message(err.format())
        return 1
    except RulesetError as err:
        message(err.format())
        return 2
    except KeyboardInterrupt as err:  # a record file's Interrupted says how many games it saved
        from ..simulation.recordfile import Interrupted

        saved = f": {err}" if isinstance(err, Interrupted) else ""
        message(f"interrupted{saved}")
        return 128 + getattr(err, "signum", 2)
    except BrokenPipeError:
        return 0
    except Exception as err:  # the last safety net: a message, never a traceback
        message(
            f"error: the rules could not be run: {type(err).__name__}: {err}\n"
            "  hint: rules written as IR (JSON/YAML) are checked against the schema but not typed; "
            "check the types of their expressions. Otherwise this is a bug of ruleset: please report "
            "it with the command line (set RULESET_DEBUG=1 to see the traceback)."
        )
        if os.environ.get("RULESET_DEBUG"):
            raise
        return 2


if __name__ == "__main__":
    sys.exit(main())
