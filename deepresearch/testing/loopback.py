"""The lifecycle both loopback fakes share (vendor LLM/search APIs and the search/web
APIs): a threaded HTTP server on 127.0.0.1:<free port>, a request log, scripted replies
that come first, and a stop timer so a forgotten server never outlives its test run."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Generic, Self, TypeVar

RequestT = TypeVar("RequestT")
ReplyT = TypeVar("ReplyT")


class LoopbackServer(Generic[RequestT, ReplyT]):
    """Use it as a context manager; subclasses answer unscripted requests in
    :meth:`unscripted_reply`, and their handler calls :meth:`reply_to`."""

    def __init__(
        self, handler: type[BaseHTTPRequestHandler], *, max_lifetime_s: float = 120.0
    ) -> None:
        self.requests: list[RequestT] = []
        self._script: list[ReplyT] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._stopper = threading.Timer(max_lifetime_s, self.stop)
        self._stopper.daemon = True
        self._stopped = False

    @property
    def root_url(self) -> str:
        """``http://host:port`` of the running server."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def enqueue(self, *replies: ReplyT) -> None:
        """Script the next replies, answered in order before the unscripted ones.

        Args:
            *replies: the replies.
        """
        with self._lock:
            self._script.extend(replies)

    def start(self) -> Self:
        """Start serving (and the lifetime guard); returns the server."""
        self._thread.start()
        self._stopper.start()
        return self

    def stop(self) -> None:
        """Stop serving (idempotent)."""
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

    def reply_to(self, request: RequestT) -> ReplyT:
        """Record ``request`` and answer it: the next scripted reply, else the unscripted one.

        Args:
            request: the recorded request.
        """
        with self._lock:
            self.requests.append(request)
            scripted = self._script.pop(0) if self._script else None
        return scripted if scripted is not None else self.unscripted_reply(request)

    def unscripted_reply(self, request: RequestT) -> ReplyT:
        """The reply when nothing is scripted (subclasses answer as their API would).

        Args:
            request: the recorded request.
        """
        raise NotImplementedError
