"""`ruleset serve [RULES...]`: a table in the browser, for people and agents; `--replay` views records."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any

from ..errors import RulesetError
from ..play.web.workers import Limits
from .cli import load_game
from .replay import find_rules

ORDER = 17
GRACE = 2  # seconds a stopping server gives open requests and pages

# the `serve` options that set the server's caps: flag, field of Limits (play/web/workers.py), what it caps
LIMITS = [
    ("--max-moves", "max_moves", "moves a game may last before its table stops"),
    ("--move-time", "move_time", "seconds an agent may think about one move"),
    ("--workers", "workers", "threads that play the tables' moves"),
    ("--max-link-sockets", "link_sockets", "pages open at once on one link"),
    ("--max-table-sockets", "table_sockets", "pages open at once at one table"),
    ("--send-queue", "send_queue", "messages waiting for a page before it is closed as too slow"),
    ("--send-timeout", "send_timeout", "seconds a message may take to reach a page before it is closed"),
]


def register(sub: Any) -> None:
    """Add the `serve` command."""
    p = sub.add_parser(
        "serve",
        help="play at a table in the browser: people at private links, agents in the other seats",
        description="Start a web server for playtesting. The lobby picks a ruleset (the shipped ones, the files "
        "named here, or an uploaded .rules), the players, parameters and who sits where (a person or an "
        "agent); each person gets a private link. Tables are saved move by move under --data and resume "
        "after a restart. With --replay, step through a record file instead. Needs: pip install 'ruleset[web]'.",
    )
    p.add_argument("rules", nargs="*", help="rules files to offer besides the shipped ones")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for a LAN)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--data", default="ruleset-tables", help="folder of the saved tables (default ./ruleset-tables)")
    p.add_argument("--replay", metavar="FILE.jsonl", help="view the games of a record file, step by step")
    p.add_argument(
        "--replay-rules", metavar="RULES", help="the rules the records were played with (default: their source)"
    )
    limits = p.add_argument_group("limits (see docs/serve.md, 'Security and limits')")
    for flag, field, what in LIMITS:
        default = getattr(Limits(), field)
        limits.add_argument(
            flag, dest=field, type=_above_zero(type(default)), default=default, help=f"{what} (default {default:g})"
        )
    p.set_defaults(run=cmd_serve)


def _above_zero(kind: type) -> Any:
    """An option's reader: a number of ``kind`` above 0 (and finite)."""

    def read(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number, not {text!r}") from None
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"a number above 0, not {text!r}")
        return value

    return read


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted (Ctrl-C)."""
    try:
        import uvicorn

        from ..play.web.app import build_app
    except ImportError as err:
        raise RulesetError(
            f"ruleset serve needs the web server packages ({err.name} is missing)",
            hint="pip install 'ruleset[web]'",
        ) from None
    app, banner = _replay_app(args, build_app) if args.replay else _table_app(args, build_app)
    print(f"{banner}: http://{args.host}:{args.port}/  (Ctrl-C stops)", flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=1 << 16,
        timeout_graceful_shutdown=GRACE,  # (then open pages are dropped: a table's worker is never waited for)
    )
    with contextlib.suppress(KeyboardInterrupt):  # (uvicorn raises Ctrl-C again once it has stopped)
        uvicorn.Server(config).run()
    return 0


def _table_app(args: argparse.Namespace, build_app: Any) -> tuple[Any, str]:
    from ..play.web.catalogue import Catalogue
    from ..play.web.store import TableStore
    from ..play.web.tables import Tables

    for name in args.rules:
        load_game(name)  # a file that does not load: its error now, with its position
    store = TableStore(args.data)
    tables = Tables(Catalogue(args.rules, store.uploads), store)
    saved = sum(1 for _ in (store.root / "tables").iterdir())
    limits = Limits(**{field: getattr(args, field) for _, field, _ in LIMITS})
    # (the saved tables are replayed in the background once the server answers; problems go to stderr)
    return build_app(tables, limits=limits), f"{saved} saved table(s), resumed in the background; lobby at"


def _replay_app(args: argparse.Namespace, build_app: Any) -> tuple[Any, str]:
    from ..engine.records import parse_line
    from ..play.web.replays import ReplayBook

    path = Path(args.replay)
    if not path.is_file():
        raise RulesetError(f"no such record file: {args.replay}")
    records, games = [], {}
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if line.strip():
            rec = parse_line(line, number)
            records.append((rec, find_rules(rec, args.replay_rules, games, None)))
    if not records:
        raise RulesetError(f"{args.replay} holds no records")
    return build_app(None, ReplayBook(records)), f"{len(records)} game(s) to step through"
