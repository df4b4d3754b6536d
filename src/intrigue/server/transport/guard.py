"""The guard in front of every request: trusted hosts, WebSocket origins, body size, and the
security headers of every HTTP answer (docs/server.md, *Limits*).

* **Hosts.** With ``Settings.allowed_hosts`` set, a request naming another ``Host`` is refused
  (``400``): a page of another site whose name was made to point at this server (DNS
  rebinding) cannot read it.
* **Origins.** A browser always says which page opened a WebSocket; one opened by a page of
  another site (its ``Origin`` is neither this server's host nor in
  ``Settings.allowed_origins``) is refused before it is accepted (``403``). Clients that are
  not browsers send no ``Origin`` and are let through: they hold their own tokens.
* **Bodies.** A request body over ``Settings.max_body_bytes`` is refused with ``413``, by its
  ``Content-Length`` or, without one, as soon as it grows past the limit.
* **Headers.** Every HTTP answer forbids framing and sniffing, sends no referrer, and carries a
  Content-Security-Policy that lets pages load scripts only from this server.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


class Guard:
    """ASGI middleware applying the checks above to ``app``."""

    def __init__(
        self,
        app: App,
        allowed_hosts: tuple[str, ...] = (),
        allowed_origins: tuple[str, ...] = (),
        max_body_bytes: int = 65536,
    ) -> None:
        self.app = app
        self.hosts = {h.lower() for h in allowed_hosts}
        self.origins = {o.lower().rstrip("/") for o in allowed_origins}
        self.max_body = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if self.hosts and _hostname(host) not in self.hosts:
            await _refuse(scope, send, 400, "this server does not answer for that host name")
            return
        if kind == "websocket":
            origin = headers.get("origin")
            if origin is not None and not self._origin_allowed(origin, host):
                await _refuse(scope, send, 403, "a page of another site may not connect here")
                return
            await self.app(scope, receive, send)
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(scope, send, 413, self._too_large())
            return
        await self.app(scope, self._bounded(receive), _with_headers(send))

    def _origin_allowed(self, origin: str, host: str) -> bool:
        origin = origin.lower().rstrip("/")
        return origin in self.origins or urlsplit(origin).netloc == host.lower()

    def _too_large(self) -> str:
        return f"request body too large (at most {self.max_body} bytes)"

    def _bounded(self, receive: Receive) -> Receive:
        """``receive`` that fails a body growing past the limit (no Content-Length given)."""
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge(self._too_large())
            return message

        return bounded


class BodyTooLarge(Exception):
    """A request body without Content-Length grew past the limit (answered ``413``)."""


def _hostname(host: str) -> str:
    """The name of a Host header, without its port (``[::1]:8000`` -> ``::1``)."""
    host = host.lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
        await send(message)

    return sending


async def _refuse(scope: Scope, send: Send, status: int, text: str) -> None:
    """Answer ``status`` with ``{"detail": text}`` (a WebSocket: refused before acceptance)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008, "reason": text[:100]})
        return
    body = json.dumps({"detail": text}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send(
        {"type": "http.response.start", "status": status, "headers": headers + SECURITY_HEADERS}
    )
    await send({"type": "http.response.body", "body": body})
