"""The loopback HTTP server the search API fakes share: GET and POST, any content type,
scripted replies first (the APIs' error and rate-limit answers), then a route."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from deepresearch.testing.loopback import LoopbackServer

JSON = dict[str, Any]
_WORD = re.compile(r"[^\W_]+")


@dataclass
class WebReply:
    """One HTTP answer: JSON (dict or list), text or bytes, after an optional delay."""

    status: int = 200
    body: JSON | list[Any] | str | bytes = ""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0

    def encoded(self) -> bytes:
        """The body as bytes (JSON-encoded unless already text or bytes)."""
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode("utf-8")
        return json.dumps(self.body).encode("utf-8")


@dataclass
class WebRequest:
    """One request a fake web API received.

    Args:
        method: the HTTP method.
        path: the path, without the query string.
        query: the first value of each query parameter.
        headers: the headers, lower-cased names.
        body: the raw body.
    """

    method: str
    path: str  # without the query string
    query: dict[str, str]  # first value of each parameter
    headers: dict[str, str]
    body: bytes = b""

    @property
    def form(self) -> dict[str, str]:
        """A form-encoded POST body, first value of each field."""
        return {k: v[0] for k, v in parse_qs(self.body.decode("utf-8", "replace")).items()}


class LoopbackWebServer(LoopbackServer[WebRequest, WebReply]):
    """A small threaded HTTP server on 127.0.0.1:<free port>; use it as a context manager.

    Subclasses answer in :meth:`route`; :meth:`enqueue` scripts replies that come first.
    """

    def __init__(self, *, max_lifetime_s: float = 120.0) -> None:
        super().__init__(_Handler, max_lifetime_s=max_lifetime_s)

    @property
    def base_url(self) -> str:
        """The server's base URL (give it as the provider's ``*_base_url``)."""
        return self.root_url

    def unscripted_reply(self, request: WebRequest) -> WebReply:
        """Answer through :meth:`route`.

        Args:
            request: the recorded request.
        """
        return self.route(request)

    def route(self, request: WebRequest) -> WebReply:
        """404 for every path (subclasses route their API's paths).

        Args:
            request: the recorded request.
        """
        return WebReply(404, {"error": f"no route for {request.path}"})


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer(b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        self._answer(self.rfile.read(length) if length else b"")

    def _answer(self, body: bytes) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        headers = {k.lower(): v for k, v in self.headers.items()}
        owner: LoopbackWebServer = self.server.owner  # type: ignore[attr-defined]
        reply = owner.reply_to(WebRequest(self.command, parts.path, query, headers, body))
        if reply.delay_s:
            time.sleep(reply.delay_s)
        data = reply.encoded()
        try:
            self.send_response(reply.status)
            self.send_header("content-type", reply.content_type)
            self.send_header("content-length", str(len(data)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        return None


def words(text: str) -> set[str]:
    """The lower-cased words of ``text``.

    Args:
        text: any text.
    """
    return {w.lower() for w in _WORD.findall(text)}


def ranked(documents: list[JSON], query: str, *fields: str) -> list[JSON]:
    """Documents sharing words with the query, most shared first (stable for ties)."""
    wanted = words(query)

    def overlap(doc: JSON) -> int:
        return len(wanted & words(" ".join(str(doc.get(f) or "") for f in fields)))

    scored = [(overlap(d), i, d) for i, d in enumerate(documents)]
    return [d for score, _, d in sorted(scored, key=lambda t: (-t[0], t[1])) if score > 0]
