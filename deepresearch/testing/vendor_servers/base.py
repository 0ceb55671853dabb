"""The loopback HTTP server the vendor fakes share, its request/reply records, and the
helpers that turn a JSON answer into what a chat model would say."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from deepresearch.testing.loopback import LoopbackServer

JSON = dict[str, Any]


@dataclass
class Reply:
    """One HTTP answer: a JSON body (dict) or raw text (str), after an optional delay."""

    status: int = 200
    body: JSON | str = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class RecordedRequest:
    """One request as the server saw it; ``received_at``/``answered_at`` are
    ``time.monotonic()`` stamps (the reply's delay and the server's latency included), so a
    benchmark can rebuild the timeline of a run."""

    path: str
    headers: dict[str, str]
    json: JSON
    received_at: float = 0.0
    answered_at: float = 0.0


Responder = Callable[[RecordedRequest], Reply]
# (schema name, all prompt text) -> a JSON object valid for that schema
Answerer = Callable[[str, str], JSON]


class VendorServer(LoopbackServer[RecordedRequest, Reply]):
    """A small threaded HTTP server on 127.0.0.1:<free port>; use it as a context manager.
    ``latency_s`` delays every answer by that much on top of the reply's own delay (a
    fixed per-request latency, as a remote API has; see bench/bench_latency.py)."""

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        latency_s: float = 0.0,
        max_lifetime_s: float = 120.0,
    ):
        super().__init__(_Handler, max_lifetime_s=max_lifetime_s)
        self._responder = responder
        self.latency_s = latency_s

    @property
    def url(self) -> str:
        """The server's root URL."""
        return self.root_url

    @property
    def base_url(self) -> str:
        """What to put in Config.<vendor>_base_url."""
        return self.url

    def unscripted_reply(self, request: RecordedRequest) -> Reply:
        """The responder's reply if one was given, else :meth:`default_reply`.

        Args:
            request: the recorded request.
        """
        if self._responder is not None:
            return self._responder(request)
        return self.default_reply(request)

    def default_reply(self, request: RecordedRequest) -> Reply:
        """404 (subclasses answer as their API would).

        Args:
            request: the recorded request.
        """
        return Reply(404, {"error": f"no reply scripted for {request.path}"})


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            payload = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            payload = {"_raw": raw.decode("utf-8", "replace")}
        headers = {k.lower(): v for k, v in self.headers.items()}
        owner: VendorServer = self.server.owner  # type: ignore[attr-defined]
        request = RecordedRequest(self.path, headers, payload, received_at=time.monotonic())
        reply = owner.reply_to(request)
        delay = reply.delay_s + owner.latency_s
        if delay:
            time.sleep(delay)
        request.answered_at = time.monotonic()
        body = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
        data = body.encode("utf-8")
        try:
            self.send_response(reply.status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        return None


# -- helpers -----------------------------------------------------------------------------
_SCHEMA_NAME = re.compile(r'schema named "(\w+)"')


def schema_name_in(prompt: str) -> str:
    """The output schema a prompt-and-parse request asks for (see providers.structured)."""
    match = _SCHEMA_NAME.search(prompt)
    return match.group(1) if match else ""


def chatty(data: JSON) -> str:
    """How small local models answer: a thinking block, chatter, then fenced JSON."""
    return (
        "<think>The user wants JSON. Let me build it {carefully}.</think>\n"
        "Sure! Here is the answer:\n```json\n" + json.dumps(data, indent=2) + "\n```\n"
        "Let me know if you need anything else."
    )
