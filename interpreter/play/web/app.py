"""The web server: a Starlette app (ASGI), served by uvicorn, with one websocket per open page.

Routes: ``/`` the lobby; ``/play/TOKEN`` a seat's (or the spectator's) table page; ``/ws/TOKEN``
its websocket; ``/api/...`` the lobby's JSON; ``/rulebook/...`` the rules rendered as a rulebook;
``/record/TOKEN`` a finished game's record (none before the game is over: it shows every hand).
With a ReplayBook the lobby is the replay viewer.

Every table is driven from the event loop, one message at a time under the table's lock; agents
other than ``random`` think in a worker thread (still under that lock) so that one slow agent
does not hold up the other tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...errors import RecordError, RulesetError, SaveError
from ...language.variants import read_text
from ...loader import ir_from_path
from ...text.render import render
from .catalogue import UploadRefused
from .guard import Guard
from .limits import Limits
from .replays import ReplayBook
from .tables import Refused, Table, Tables

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 4096  # characters: a move message is a few dozen
MAX_JSON_DEPTH = 8  # levels of a request's JSON: a table's set-up has 3


class Hub:
    """The open websockets of each table, and the table's lock."""

    def __init__(self, tables: Tables | None):
        self.tables = tables
        self.sockets: dict[str, dict[WebSocket, int]] = {}
        self.locks: dict[str, asyncio.Lock] = {}

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    async def pump(self, table: Table) -> None:
        """Let the agents move (in a thread when one of them is more than a random pick)."""
        if any(bot.name != "random" for bot in table.bots.values()):
            await asyncio.to_thread(table.pump)
        else:
            table.pump()

    async def broadcast(self, table: Table) -> None:
        """Send every open page of the table its seat's new state (computed under the lock)."""
        sockets = dict(self.sockets.get(table.id, {}))
        texts = {seat: dumps(table.message(seat)) for seat in set(sockets.values())}
        await asyncio.gather(*(_send(ws, texts[seat]) for ws, seat in sockets.items()))


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


async def _send(ws: WebSocket, text: str) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):  # the page closed meanwhile:
        await ws.send_text(text)  # it gets the state again when it reconnects


async def _error(ws: WebSocket, text: str) -> None:
    await _send(ws, dumps({"type": "error", "message": text}))


def parse(raw: dict[str, Any]) -> dict[str, Any]:
    """A websocket message as an object with a known ``type``; Refused otherwise."""
    text = raw.get("text")
    if text is None:
        raise Refused("messages are JSON text, not binary")
    if len(text) > MAX_MESSAGE:
        raise Refused(f"a message is at most {MAX_MESSAGE} characters")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused('a message is a JSON object, e.g. {"type": "move", "move": 0, "version": 3}') from None
    if not isinstance(msg, dict) or msg.get("type") not in ("move", "refresh"):
        raise Refused("a message's type is 'move' or 'refresh'")
    return msg


async def table_socket(ws: WebSocket) -> None:
    """One page at one seat: its state at every change; its moves, checked; errors as messages."""
    hub: Hub = ws.app.state.hub
    await ws.accept()
    found = hub.tables.find(ws.path_params["token"]) if hub.tables else None
    if found is None:
        await _error(ws, "no table has this link")
        await ws.close(code=4404)
        return
    table, seat = found
    lock = hub.lock(table)
    hub.sockets.setdefault(table.id, {})[ws] = seat
    try:
        async with lock:
            text = dumps(table.message(seat))
        await _send(ws, text)
        while True:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                return
            try:
                msg = parse(raw)
                async with lock:
                    if msg["type"] == "move":
                        table.choose(seat, msg.get("move"), msg.get("version"))
                        await hub.pump(table)
                        await hub.broadcast(table)
                    else:
                        text = dumps(table.message(seat))
                if msg["type"] == "refresh":
                    await _send(ws, text)
            except Refused as why:
                await _error(ws, str(why))
    except WebSocketDisconnect:
        return
    finally:
        hub.sockets.get(table.id, {}).pop(ws, None)


# ---- HTTP ----------------------------------------------------------------------------------------


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def rulesets(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    if hub.tables is None:
        return JSONResponse({"replay": request.app.state.replays.summary()})
    return JSONResponse({"rulesets": [e.summary() for e in hub.tables.catalogue.entries.values()]})


async def upload(request: Request) -> Response:
    """An uploaded .rules file (JSON: name, text), checked before it is offered."""
    hub: Hub = request.app.state.hub
    try:
        body = await _json(request)
        name, text = (body.get("name"), body.get("text")) if isinstance(body, dict) else (None, None)
        if not isinstance(text, str) or not isinstance(name, str | None):
            raise RulesetError("an upload is {'name': FILE, 'text': RULES}")
        name = name[:100] or "upload.rules"
        entry = await asyncio.to_thread(hub.tables.catalogue.upload, name, text)
    except UploadRefused as err:
        return JSONResponse({"error": err.message}, status_code=400)
    except RulesetError as err:
        return JSONResponse({"error": err.format()}, status_code=400)
    return JSONResponse(entry.summary())


async def create_table(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    try:
        table = hub.tables.create(await _json(request))
    except RulesetError as err:
        return JSONResponse({"error": err.message + (f" ({err.hint})" if err.hint else "")}, status_code=400)
    async with hub.lock(table):
        await hub.pump(table)
    return JSONResponse(hub.tables.links(table))


async def list_tables(request: Request) -> Response:
    """The tables of this server, with their spectator links (never a seat's)."""
    hub: Hub = request.app.state.hub
    out = [
        {
            "table": t.id,
            "ruleset": t.game.name,
            "players": t.state.n,
            "over": t.state.over,
            "failure": t.failure,
            "spectator": f"/play/{t.setup['spectator']}",
        }
        for t in hub.tables.tables.values()
    ]
    return JSONResponse({"tables": out})


async def rulebook(request: Request) -> Response:
    """The rules of a table (by any of its links) or of a ruleset on offer (by key), as HTML."""
    hub: Hub = request.app.state.hub
    key = request.path_params["key"]
    found = hub.tables.find(key) if hub.tables else None
    if found:
        path, params = found[0].setup["rules"], found[0].setup["params"]
    elif hub.tables and key in hub.tables.catalogue.entries:
        path, params = hub.tables.catalogue.entries[key].path, {}
    elif hub.tables is None and key.isdigit() and int(key) < len(request.app.state.replays.records):
        rec = request.app.state.replays.records[int(key)]
        path, params = rec[1].ir.get("source", ""), {}
    else:
        return PlainTextResponse("no such ruleset or table", status_code=404)
    try:
        ir = hub.tables.catalogue.ir(path) if hub.tables else ir_from_path(path)
        html = render(ir, "html", params, read_text(path))
    except RulesetError as err:
        return PlainTextResponse(err.format(), status_code=500)
    return HTMLResponse(html)


async def download(request: Request) -> Response:
    """A finished table's record (JSONL), for `ruleset replay`. A record lists every deal and every
    move, hidden cards too: until the game is over it is refused to every link (409)."""
    hub: Hub = request.app.state.hub
    found = hub.tables.find(request.path_params["token"]) if hub.tables else None
    if found is None:
        return PlainTextResponse("no table has this link", status_code=404)
    try:
        path = found[0].record_file()
    except SaveError as err:
        return PlainTextResponse(err.message, status_code=503)
    if path is None:
        return PlainTextResponse("the game is not over yet: its record, which shows every hand, comes then", 409)
    return FileResponse(path, media_type="application/jsonl", filename=f"table-{found[0].id}.jsonl")


async def replay_step(request: Request) -> Response:
    """GET /api/replay/GAME/STEP?seat=all|table|K: one step of a recorded game, as a seat saw it."""
    book: ReplayBook = request.app.state.replays
    q = request.query_params.get("seat", "all")
    seat: Any = int(q) if re.fullmatch(r"-?[0-9]{1,4}", q) else q  # (not int("²"), which isdigit() allows)
    try:
        index, step = int(request.path_params["game"]), int(request.path_params["step"])
        return JSONResponse(book.view(index, step, seat))
    except (RecordError, ValueError) as err:
        return JSONResponse({"error": getattr(err, "message", str(err))}, status_code=400)


async def _json(request: Request) -> Any:
    """The request's body as JSON: at most the limit's bytes are read (an upload is a rules file),
    nested at most MAX_JSON_DEPTH levels, its texts valid Unicode (a lone surrogate is not)."""
    limit = request.app.state.limits.body_bytes
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RulesetError(f"the request is larger than {limit:,} bytes")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise RulesetError("the request's body is not JSON (or is nested too deeply)") from None
    stack = [(data, 1)]
    while stack:  # (no recursion: the walk is as deep as the data)
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise RulesetError(f"the request's JSON is nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(node, dict):
            stack.extend((x, depth + 1) for pair in node.items() for x in pair)
        elif isinstance(node, list):
            stack.extend((x, depth + 1) for x in node)
        elif isinstance(node, str) and not node.isascii():
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                raise RulesetError("the request holds a lone surrogate (\\ud800-\\udfff), which is not text") from None
    return data


def build_app(
    tables: Tables | None,
    replays: ReplayBook | None = None,
    hosts: tuple[str, ...] = (),
    limits: Limits | None = None,
) -> Starlette:
    """The ASGI app: a table server (``tables``) or a replay viewer (``replays``), answering to
    loopback, addresses and the names in ``hosts`` (see guard.py); ``limits`` default to the tables'."""
    routes = [
        Route("/", page),
        Route("/play/{token}", page),
        Route("/api/rulesets", rulesets),
        Route("/rulebook/{key:path}", rulebook),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if tables is not None:
        routes += [
            Route("/api/upload", upload, methods=["POST"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", list_tables),
            Route("/record/{token}", download),
            WebSocketRoute("/ws/{token}", table_socket),
        ]
    else:
        routes.append(Route("/api/replay/{game}/{step}", replay_step))
    limits = limits or (tables.limits if tables else Limits())
    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=hosts, body_bytes=limits.body_bytes)])
    app.state.limits = limits
    app.state.hub = Hub(tables)
    app.state.replays = replays
    return app
