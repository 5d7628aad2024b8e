"""`ruleset serve [RULES...]`: a table in the browser, for people and agents; `--replay` views records."""

from __future__ import annotations

import argparse
import contextlib
import errno
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..errors import RulesetError
from .cli import load_game
from .replay import find_rules

ORDER = 17
GRACE = 2  # seconds a stopping server gives open requests and pages


def register(sub: Any) -> None:
    """Add the `serve` command."""
    p = sub.add_parser(
        "serve",
        help="play at a table in the browser: people at private links, agents in the other seats",
        description="Start a web server for playtesting. The lobby picks a ruleset (the shipped ones, the files "
        "named here, or an uploaded .rules), the players, parameters and who sits where (a person or an "
        "agent); each person gets a private link. Tables are saved move by move under --data and resume "
        "after a restart. With --replay, step through a record file instead. "
        'Needs: pip install "ruleset-cards[web]".',
    )
    p.add_argument("rules", nargs="*", help="rules files to offer besides the shipped ones")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for a LAN)")
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the server answers to besides its addresses and localhost (e.g. mybox.local); repeatable",
    )
    p.add_argument(
        "--trust-proxy",
        action="append",
        default=[],
        type=_address,
        metavar="ADDRESS",
        help="the address of a reverse proxy in front of the server: its clients are counted by the address it "
        "adds to X-Forwarded-For, not as one (default: none; the header is never read otherwise); repeatable",
    )
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
    from ..play.web.limits import Limits  # (a small module: the caps' names and defaults)

    limits = p.add_argument_group("limits (what one request may ask of the server)")
    for field in fields(Limits):
        flag = "--" + field.name.replace("_", "-")
        kind = float if field.type in (float, "float") else int
        limits.add_argument(flag, type=_positive(kind), default=field.default, metavar="N", help=LIMIT_HELP[field.name])
    p.set_defaults(run=cmd_serve)


LIMIT_HELP = {
    "max_players": "seats at one table, whatever a ruleset allows (default %(default)s)",
    "max_rounds": "rounds of one game, after its parameters (default %(default)s)",
    "agent_time": "seconds an agent may think per move (default %(default)s)",
    "agent_iterations": "playouts an agent may run per move (default %(default)s)",
    "agent_samples": "deals an agent may sample per move (default %(default)s)",
    "upload_bytes": "bytes of one uploaded rules file (default %(default)s)",
    "uploads": "uploaded rulesets the server keeps (default %(default)s)",
    "max_tables": "tables the server keeps, finished ones included (default %(default)s)",
    "body_bytes": "bytes of one request's body (default %(default)s)",
    "max_moves": "moves a game may last before its table stops (default %(default)s)",
    "workers": "threads that play the tables' moves (default %(default)s)",
    "max_link_sockets": "pages open at once on one link (default %(default)s)",
    "max_table_sockets": "pages open at once at one table (default %(default)s)",
    "send_queue": "messages waiting for a page before it is closed as too slow (default %(default)s)",
    "send_timeout": "seconds a message may take to reach a page before it is closed (default %(default)s)",
    "refresh_gap": "seconds between two states sent for a page's refreshes (default %(default)s)",
    "max_client_sockets": "connections open at once from one address, pages included (default %(default)s)",
    "head_time": "seconds a connection may take to send a request's head before it is closed (default %(default)s)",
    "body_time": "seconds a request's body may take to arrive after its head, else refused (default %(default)s)",
}


def _address(text: str) -> str:
    """An IP address (a proxy's): a name is refused, as the proxy's connections come from an address."""
    import ipaddress

    try:
        return str(ipaddress.ip_address(text.strip().strip("[]")))
    except ValueError:
        raise argparse.ArgumentTypeError(f"an IP address such as 127.0.0.1, not {text!r}") from None


def _positive(kind: type) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number, not {text!r}") from None
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"a number above 0, not {text}")
        return value

    return parse


def _limits(args: argparse.Namespace) -> Any:
    from ..play.web.limits import Limits

    return Limits(**{field.name: getattr(args, field.name) for field in fields(Limits)})


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted (Ctrl-C)."""
    try:
        import uvicorn

        from ..play.web.app import build_app  # (and the connections' guard, which needs uvicorn too)
    except ImportError as err:
        raise RulesetError(
            f"ruleset serve needs the web server packages ({err.name} is missing)",
            hint='pip install "ruleset-cards[web]"',
        ) from None
    from ..play.web.connections import config as server_config

    app, banner = _replay_app(args, build_app) if args.replay else _table_app(args, build_app)
    sock = _listen(args.host, args.port)
    _more_files()
    print(f"{banner}: http://{args.host}:{sock.getsockname()[1]}/  (Ctrl-C stops)", flush=True)
    config = server_config(
        app,
        _limits(args),
        args.trust_proxy,
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_graceful_shutdown=GRACE,  # (then open pages are dropped: a table's worker is never waited for)
    )
    with contextlib.suppress(KeyboardInterrupt):  # (uvicorn raises Ctrl-C again once it has stopped)
        uvicorn.Server(config).run(sockets=[sock])
    return 0


def _more_files() -> None:
    """Raise the process's limit on open files to what the system allows it (often 1,024 of
    524,288): each page is a connection, and each connection a file (best effort)."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def _listen(host: str, port: int) -> Any:
    """A socket listening on host:port, before the address is printed; a port another program holds
    (or an address this machine does not have) is a clear error, not the server's own."""
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
    except OSError as err:
        raise RulesetError(f"cannot listen on {host}: {err.strerror or err}", hint="check --host") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a restart reuses its port
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as err:
        sock.close()
        hint = {
            errno.EADDRINUSE: f"choose another port, e.g. --port {port + 1}, or stop what holds {port}",
            errno.EACCES: "a port below 1024 needs privileges: choose another, e.g. --port 8000",
        }.get(err.errno, "check --host")
        in_use = err.errno == errno.EADDRINUSE
        reason = "the port is in use by another program" if in_use else str(err.strerror or err)
        raise RulesetError(f"cannot listen on {host}:{port}: {reason}", hint=hint) from None
    return sock


def _table_app(args: argparse.Namespace, build_app: Any) -> tuple[Any, str]:
    from ..play.web.catalogue import Catalogue
    from ..play.web.store import TableStore
    from ..play.web.tables import Tables

    for name in args.rules:
        load_game(name)  # a file that does not load: its error now, with its position
    store = TableStore(args.data, sync=args.fsync)
    limits = _limits(args)
    tables = Tables(Catalogue(args.rules, store.uploads, limits), store, limits)
    saved = sum(1 for _ in (store.root / "tables").iterdir())
    hosts = (args.host, *args.allow_host)
    # (the saved tables are replayed in the background once the server answers; problems go to stderr)
    app = build_app(tables, hosts=hosts, proxies=tuple(args.trust_proxy))
    return app, f"{saved} saved table(s), resumed in the background; lobby at"


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
    hosts = (args.host, *args.allow_host)
    app = build_app(None, ReplayBook(records), hosts, proxies=tuple(args.trust_proxy))
    return app, f"{len(records)} game(s) to step through"
