"""Connections, before any request reaches the app: how long one may take to say what it wants, and
how many one address may hold open.

uvicorn closes a connection idle between two requests, but not one that never finishes a request's
head: a client that connects and sends nothing, or a header a byte at a time, held its connection
(and a file descriptor) for good, and a thousand of them shut the server to everyone (accept fails
at the process's limit on open files). Here each connection:

- sends the whole head of each request within ``head_time`` seconds of its start or of the end of
  the previous answer, or is closed (checked every ``head_time`` seconds, so it is closed after one
  to two of them); a request being answered, and a websocket, are left alone (a page is open for
  hours; uvicorn's pings close one whose client is gone);
- counts against its address: past ``max_client_sockets`` open at once (pages and requests alike),
  a new one is answered 429 with the reason and closed. A connection from a proxy the server was
  told to trust (``--trust-proxy``) is not counted here: its requests are, by the client address
  the proxy names (guard.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from .guard import addresses, normal
from .limits import Limits

FULL = (
    "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n"
    "Content-Length: {}\r\nConnection: close\r\n\r\n"
)


def protocol(limits: Limits, proxies: Iterable[str] = ()) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools' or h11's) with the head's deadline and the address's cap
    (not counted for the addresses of trusted ``proxies``)."""
    open_by_address: dict[str, set[asyncio.BaseTransport]] = {}
    trusted = addresses(proxies)

    class Guarded(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            self._head_seen: Any = self.cycle
            self.loop.call_later(limits.head_time, self._head_due)
            if normal(address) in trusted:
                return  # (a proxy's connections: its clients are counted by the guard)
            held = open_by_address.setdefault(address, set())
            held.difference_update([t for t in held if t.is_closing()])  # (pages and requests since closed)
            if len(held) >= limits.max_client_sockets:
                why = f"this address has {limits.max_client_sockets} connections open, the most a server allows"
                body = why.encode()
                transport.write(FULL.format(len(body)).encode() + body)
                transport.close()
                return
            held.add(transport)

        def _head_due(self) -> None:
            """Close the connection if no request's head was finished since the last look."""
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a websocket now
            cycle = self.cycle
            answering = cycle is not None and not cycle.response_complete
            if not answering and cycle is self._head_seen:
                transport.close()  # (a head not finished within head_time: nothing is answered)
                return
            self._head_seen = cycle
            self.loop.call_later(limits.head_time, self._head_due)

    return Guarded


def config(app: Any, limits: Limits, proxies: Iterable[str] = (), **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of a server: its connections guarded as above, websocket messages
    of at most 64 KiB, and no header of a proxy read by uvicorn (by default it believes
    X-Forwarded-For from 127.0.0.1, or from FORWARDED_ALLOW_IPS); ``options`` as uvicorn.Config
    takes them (host, port, log_level...)."""
    http = protocol(limits, proxies)
    return uvicorn.Config(app, http=http, ws_max_size=1 << 16, proxy_headers=False, **options)
