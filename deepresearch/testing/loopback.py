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
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def enqueue(self, *replies: ReplyT) -> None:
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

    def reply_to(self, request: RequestT) -> ReplyT:
        with self._lock:
            self.requests.append(request)
            scripted = self._script.pop(0) if self._script else None
        return scripted if scripted is not None else self.unscripted_reply(request)

    def unscripted_reply(self, request: RequestT) -> ReplyT:
        raise NotImplementedError
