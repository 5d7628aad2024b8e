"""`ruleset serve [RULES...]`: a table in the browser, for people and agents; `--replay` views records."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import RulesetError
from .cli import load_game
from .replay import find_rules

ORDER = 17


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
    p.add_argument(
        "--fsync",
        action="store_true",
        help="write every move through to the disk before it is played (survives a power loss; a few ms a move)",
    )
    p.add_argument("--replay", metavar="FILE.jsonl", help="view the games of a record file, step by step")
    p.add_argument(
        "--replay-rules", metavar="RULES", help="the rules the records were played with (default: their source)"
    )
    p.set_defaults(run=cmd_serve)


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
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", ws_max_size=1 << 16)
    uvicorn.Server(config).run()
    return 0


def _table_app(args: argparse.Namespace, build_app: Any) -> tuple[Any, str]:
    from ..play.web.catalogue import Catalogue
    from ..play.web.store import TableStore
    from ..play.web.tables import Tables

    for name in args.rules:
        load_game(name)  # a file that does not load: its error now, with its position
    store = TableStore(args.data, sync=args.fsync)
    tables = Tables(Catalogue(args.rules, store.uploads), store)
    for problem in tables.resume_all():
        print(problem)
    unfinished = sum(not t.state.over for t in tables.tables.values())
    return build_app(tables), f"{len(tables.tables)} saved table(s), {unfinished} still playing; lobby at"


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
