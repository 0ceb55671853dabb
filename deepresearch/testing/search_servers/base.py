"""The loopback HTTP server the search API fakes share: GET and POST, any content type,
scripted replies first (the APIs' error and rate-limit answers), then a route."""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

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
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode("utf-8")
        return json.dumps(self.body).encode("utf-8")


@dataclass
class WebRequest:
    method: str
    path: str  # without the query string
    query: dict[str, str]  # first value of each parameter
    headers: dict[str, str]
    body: bytes = b""

    @property
    def form(self) -> dict[str, str]:
        """A form-encoded POST body, first value of each field."""
        return {k: v[0] for k, v in parse_qs(self.body.decode("utf-8", "replace")).items()}


class LoopbackWebServer:
    """A small threaded HTTP server on 127.0.0.1:<free port>; use it as a context manager.

    Subclasses answer in :meth:`route`; :meth:`enqueue` scripts replies that come first.
    """

    def __init__(self, *, max_lifetime_s: float = 120.0) -> None:
        self.requests: list[WebRequest] = []
        self._script: list[WebReply] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._stopper = threading.Timer(max_lifetime_s, self.stop)
        self._stopper.daemon = True
        self._stopped = False

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def enqueue(self, *replies: WebReply) -> None:
        with self._lock:
            self._script.extend(replies)

    def start(self) -> Self:
        self._thread.start()
        self._stopper.start()
        return self

    def stop(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._stopper.cancel()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reply_to(self, request: WebRequest) -> WebReply:
        with self._lock:
            self.requests.append(request)
            scripted = self._script.pop(0) if self._script else None
        return scripted if scripted is not None else self.route(request)

    def route(self, request: WebRequest) -> WebReply:
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
    return {w.lower() for w in _WORD.findall(text)}


def ranked(documents: list[JSON], query: str, *fields: str) -> list[JSON]:
    """Documents sharing words with the query, most shared first (stable for ties)."""
    wanted = words(query)

    def overlap(doc: JSON) -> int:
        return len(wanted & words(" ".join(str(doc.get(f) or "") for f in fields)))

    scored = [(overlap(d), i, d) for i, d in enumerate(documents)]
    return [d for score, _, d in sorted(scored, key=lambda t: (-t[0], t[1])) if score > 0]
