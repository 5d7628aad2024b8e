"""The web server: a Starlette app (ASGI), served by uvicorn, with one websocket per open page.

Routes: ``/`` the lobby; ``/play/TOKEN`` a seat's (or the spectator's) table page; ``/ws/TOKEN``
its websocket; ``/api/...`` the lobby's JSON; ``/rulebook/...`` the rules rendered as a rulebook;
``/record/TOKEN`` a finished game's record (none before the game is over: it shows every hand).
With a ReplayBook the lobby is the replay viewer.

The event loop only reads and writes: the tables' engine work runs in worker threads, and each
page has its own queue of messages (hub.py).
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
from ...loader import ir_from_path
from .catalogue import UploadRefused
from .guard import Guard
from .hub import CLOSE_FULL, CLOSE_GONE, Hub, Page
from .limits import Limits
from .replays import ReplayBook
from .tables import Refused, Tables, dumps

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 4096  # characters: a move message is a few dozen
MAX_JSON_DEPTH = 8  # levels of a request's JSON: a table's set-up has 3


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
    token = ws.path_params["token"]
    found = hub.tables.find(token) if hub.tables else None
    refusal = (hub.tables.refused.get(token) if hub.tables else None) or "no table has this link"
    code = CLOSE_GONE
    if found is not None and (why := hub.admit(found[0], token)):
        found, refusal, code = None, why, CLOSE_FULL
    if found is None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await ws.send_text(dumps({"type": "error", "message": refusal}))
            await ws.close(code=code)
        return
    table, seat = found
    client = Page(ws, table, seat, token)
    hub.pages.setdefault(table.id, set()).add(client)
    sender = asyncio.create_task(hub.send_loop(client))
    try:
        while not sender.done():
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                return
            try:
                msg = parse(raw)
                if msg["type"] == "refresh":
                    client.refresh = True  # (many refreshes before the state goes out: one state)
                    client.wake.set()
                    continue
                async with hub.lock(table):  # (in a thread: the move is synced to the disk first)
                    await asyncio.to_thread(table.choose, seat, msg.get("move"), msg.get("version"))
                    hub.kick(table)  # (under the lock: the table is never seen chosen for, yet not driven)
            except Refused as why:
                client.put(dumps({"type": "error", "message": str(why)}), False, hub.limits.send_queue)
    except WebSocketDisconnect:
        return
    finally:
        hub.pages.get(table.id, set()).discard(client)
        if not sender.done():
            sender.cancel()


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
        made = await asyncio.to_thread(hub.tables.prepare, await _json(request))  # (synced to the disk, dealt)
        table = hub.tables.open_new(made)
    except RulesetError as err:
        return JSONResponse({"error": err.message + (f" ({err.hint})" if err.hint else "")}, status_code=400)
    hub.kick(table)  # (its agents may move first: in the background)
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
    out += [  # saved tables that could not be opened again: stopped, and why
        {
            "table": table_id,
            "ruleset": str(setup.get("ruleset", "?")),
            "players": setup.get("players"),
            "over": False,
            "failure": why,
            "spectator": f"/play/{setup['spectator']}" if isinstance(setup.get("spectator"), str) else None,
        }
        for table_id, (setup, why) in hub.tables.broken.items()
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
    elif hub.tables is None and (game := _number(key)) is not None and game < len(request.app.state.replays.records):
        rec = request.app.state.replays.records[game]
        path, params = rec[1].ir.get("source", ""), {}
    else:
        return PlainTextResponse("no such ruleset or table", status_code=404)
    try:
        html = await hub.rulebooks.html(path, params, hub.tables.catalogue.ir if hub.tables else ir_from_path)
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
        async with hub.lock(found[0]):  # (it may write the record first: in a thread, not while its moves are played)
            path = await asyncio.to_thread(found[0].record_file)
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
        index, step = _number(request.path_params["game"]), _number(request.path_params["step"])
        return JSONResponse(await asyncio.to_thread(book.view, index, step, seat))  # (a replay: not on the loop)
    except (RecordError, ValueError) as err:
        return JSONResponse({"error": getattr(err, "message", str(err))}, status_code=400)


def _number(text: str) -> int | None:
    """A path's number: ASCII digits, at most 9 (not int("²"), which str.isdigit allows, nor 5,000
    digits, past int's limit); None for anything else."""
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text) else None


class Late(Exception):
    """A request's body that did not arrive within ``body_time``: answered 408, its connection closed."""


async def _json(request: Request) -> Any:
    """The request's body as JSON: at most the limit's bytes are read (an upload is a rules file),
    within ``body_time`` seconds (a body sent a byte at a time held its connection as long as it
    liked: connections.py times the head only), nested at most MAX_JSON_DEPTH levels, its texts
    valid Unicode (a lone surrogate is not)."""
    limits = request.app.state.limits
    body = bytearray()
    try:
        async with asyncio.timeout(limits.body_time):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limits.body_bytes:
                    raise RulesetError(f"the request is larger than {limits.body_bytes:,} bytes")
    except TimeoutError:
        raise Late(f"a request's body must arrive within {limits.body_time:g} seconds of its head") from None
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


async def late(request: Request, err: Exception) -> Response:
    """A body that came too slowly (Late): 408 with the reason, and the connection closed (the rest
    of the body is not waited for)."""
    return JSONResponse({"error": str(err)}, status_code=408, headers={"Connection": "close"})


def build_app(
    tables: Tables | None,
    replays: ReplayBook | None = None,
    hosts: tuple[str, ...] = (),
    limits: Limits | None = None,
    proxies: tuple[str, ...] = (),
) -> Starlette:
    """The ASGI app: a table server (``tables``, whose saved tables it replays once it runs) or a
    replay viewer (``replays``), answering to loopback, addresses and the names in ``hosts`` (see
    guard.py), counting the clients of trusted ``proxies`` by the address they forward; ``limits``
    default to the tables'."""
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
    hub = Hub(tables, limits)
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(Guard, hosts=hosts, body_bytes=limits.body_bytes, proxies=proxies, cap=limits.max_client_sockets)
        ],
        lifespan=hub.lifespan,
        exception_handlers={Late: late},
    )
    app.state.limits = limits
    app.state.hub = hub
    app.state.replays = replays
    return app
