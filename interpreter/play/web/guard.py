"""Who may talk to the server, checked before any route: the Host a request names, the page it
comes from (Origin), and the type and size of what it posts.

- Host: an address (``127.0.0.1``, ``192.168.1.5``, ``[::1]``), ``localhost``, the name given with
  ``--host`` or a name given with ``--allow-host``. Any other name is refused: a page of another
  site whose name was made to point at this machine (DNS rebinding) is not served.
- Origin: a page may post to the server, or open a websocket, only if it was served by the server
  itself (its origin is the Host it names). A request without an Origin (a script, curl) is
  allowed: only browsers send one, and they always do across origins.
- A POST's body is ``application/json`` (a form or ``text/plain`` post from another page, which
  a browser sends without asking, is refused) and at most ``body_bytes`` long by its header.
- Behind a reverse proxy named with ``--trust-proxy ADDRESS``: a request from that address is
  counted against the client address the proxy added to ``X-Forwarded-For`` (the last one not a
  trusted proxy: those before it are the client's own word), at most ``cap`` requests and pages
  open at once, as connections.py counts a client's connections. From any other address the
  header is never read (decision: docs/serve.md, "Behind a reverse proxy").
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from starlette.responses import JSONResponse
from starlette.websockets import WebSocketClose

LOCAL_NAMES = ("localhost",)
ANY_ADDRESS = ("0.0.0.0", "::", "")


class Guard:
    """ASGI middleware: refuses a request from a name, a page or with a body the server does not take."""

    def __init__(
        self,
        app: Any,
        hosts: Iterable[str] = (),
        body_bytes: int = 300_000,
        proxies: Iterable[str] = (),
        cap: int = 64,
    ):
        self.app = app
        self.names = {h.lower().strip("[]") for h in (*LOCAL_NAMES, *hosts) if h not in ANY_ADDRESS}
        self.body_bytes = body_bytes
        self.proxies, self.cap = addresses(proxies), cap
        self.open: dict[str, int] = {}  # a proxy's client -> its requests and pages open now

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refused = self.refusal(scope, headers)
        client = self.forwarded(scope, headers) if refused is None else None
        if client is not None and self.open.get(client, 0) >= self.cap:
            refused = 429, f"this address has {self.cap} connections open, the most a server allows"
        if refused is None:
            if client is not None:
                self.open[client] = self.open.get(client, 0) + 1
            try:
                await self.app(scope, receive, send)
            finally:
                if client is not None and (left := self.open.pop(client) - 1):
                    self.open[client] = left
        elif scope["type"] == "websocket":
            await WebSocketClose(4403, refused[1])(scope, receive, send)
        else:
            await JSONResponse({"error": refused[1]}, status_code=refused[0])(scope, receive, send)

    def refusal(self, scope: dict[str, Any], headers: dict[str, str]) -> tuple[int, str] | None:
        """The status and reason for refusing a request, or None to serve it."""
        host = headers.get("host", "")
        if not self.known(_hostname(host)):
            return 403, f"this server does not answer to the name {host[:100]!r} (start it with --allow-host NAME)"
        origin = headers.get("origin")
        posts = scope["type"] == "websocket" or scope.get("method", "GET") not in ("GET", "HEAD", "OPTIONS")
        if posts and origin is not None and _netloc(origin) != host.lower():
            return 403, "a page of another site may not act on this server"
        if scope["type"] == "http" and scope.get("method") == "POST":
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, "a request's body is JSON, sent with Content-Type: application/json"
            length = headers.get("content-length", "0")
            if not length.isdigit() or int(length) > self.body_bytes:
                return 413, f"a request's body is at most {self.body_bytes:,} bytes"
        return None

    def forwarded(self, scope: dict[str, Any], headers: dict[str, str]) -> str | None:
        """The client a trusted proxy's request is from (the proxy's own address if it names none);
        None for a request that did not come through a trusted proxy."""
        peer = scope.get("client")
        if not self.proxies or not peer or normal(str(peer[0])) not in self.proxies:
            return None
        hops = [normal(hop) or hop.strip()[:64] for hop in headers.get("x-forwarded-for", "").split(",")]
        return next((hop for hop in reversed(hops) if hop and hop not in self.proxies), normal(str(peer[0])))

    def known(self, name: str) -> bool:
        """A name the server answers to: an address, or a name it was told."""
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            return name in self.names


def _hostname(host: str) -> str:
    """The name in a Host header, without its port (``[::1]:8000`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _netloc(origin: str) -> str:
    """``http://host:port`` -> ``host:port`` (what the Host header of the same origin says); '' for
    ``null`` and anything not a web origin. (An Origin header is only ever scheme://host[:port].)"""
    scheme, sep, rest = origin.strip().partition("://")
    return rest.split("/", 1)[0].lower() if sep and scheme.lower() in ("http", "https") else ""


def normal(address: str) -> str:
    """An address as one spelling (``::ffff:127.0.0.1`` and ``127.0.0.1`` alike); '' if it is none."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return ""
    mapped = getattr(ip, "ipv4_mapped", None)
    return str(mapped or ip)


def addresses(names: Iterable[str]) -> frozenset[str]:
    """Addresses (``--trust-proxy``), each as ``normal`` spells it; an unreadable one is an error."""
    out = {normal(name) for name in names}
    bad = [name for name in names if not normal(name)]
    if bad:
        raise ValueError(f"--trust-proxy takes an address (e.g. 127.0.0.1), not {bad[0]!r}")
    return frozenset(out)
