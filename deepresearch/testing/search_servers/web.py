"""Loopback servers for web search and pages: Google Programmable Search, SearxNG,
DuckDuckGo's HTML endpoint (what ``ddgs`` reads) and a site of pages with robots.txt.

Search servers serve web documents (dicts with ``url``, ``title``, ``content``) ranked by
words shared with the query, in each API's documented shape; the ``*_error`` helpers build
their error and rate-limit answers.
"""

from __future__ import annotations

from html import escape

from deepresearch.testing.search_servers.base import (
    JSON,
    LoopbackWebServer,
    WebReply,
    WebRequest,
    ranked,
)


class DocumentServer(LoopbackWebServer):
    """A fake web search API serving ``documents``, matched to a query by shared words.

    Args:
        documents: the documents, as JSON records (title, url, content).
        max_lifetime_s: the server stops itself after this long.
    """

    def __init__(self, documents: list[JSON] | None = None, *, max_lifetime_s: float = 120.0):
        super().__init__(max_lifetime_s=max_lifetime_s)
        self.documents = list(documents or [])

    def matching(self, query: str, limit: int) -> list[JSON]:
        """The documents sharing most words with ``query``, best first.

        Args:
            query: the search query.
            limit: the most returned.
        """
        return ranked(self.documents, query, "title", "content")[:limit]


class GoogleServer(DocumentServer):
    """``GET /customsearch/v1?cx=&q=&num=`` with the key as ``key=`` or ``x-goog-api-key``
    (at most 10 results)."""

    def route(self, request: WebRequest) -> WebReply:
        """The reply this fake API gives ``request``, as the real one would (errors included).

        Args:
            request: the recorded request.
        """
        if request.path != "/customsearch/v1":
            return google_error(404, "Requested entity was not found.", "notFound", "NOT_FOUND")
        if not (request.query.get("key") or request.headers.get("x-goog-api-key")):
            return google_error(
                403,
                "Method doesn't allow unregistered callers (callers without established "
                "identity). Please use API Key or other form of API consumer identity to call "
                "this API.",
                "forbidden",
                "PERMISSION_DENIED",
            )
        num = int(request.query.get("num") or 10)
        if not 1 <= num <= 10:
            return google_error(
                400, "Request contains an invalid argument.", "invalid", "INVALID_ARGUMENT"
            )
        docs = self.matching(request.query.get("q", ""), num)
        body: JSON = {
            "kind": "customsearch#search",
            "queries": {"request": [{"searchTerms": request.query.get("q", ""), "count": num}]},
            "searchInformation": {"searchTime": 0.2, "totalResults": str(len(docs))},
            "items": [
                {
                    "kind": "customsearch#result",
                    "title": d["title"],
                    "htmlTitle": escape(d["title"]),
                    "link": d["url"],
                    "displayLink": d["url"].split("/")[2],
                    "snippet": str(d.get("content", ""))[:160],
                }
                for d in docs
            ],
        }
        if not docs:
            del body["items"]  # Google leaves "items" out when nothing matched
        return WebReply(200, body)


def google_error(code: int, message: str, reason: str, status: str) -> WebReply:
    """Google's error envelope: ``{"error": {"code", "message", "errors", "status"}}``."""
    body: JSON = {
        "error": {
            "code": code,
            "message": message,
            "errors": [{"message": message, "domain": "global", "reason": reason}],
            "status": status,
        }
    }
    return WebReply(code, body)


def google_key_invalid() -> WebReply:
    """Google's answer to an invalid API key."""
    body: JSON = {
        "error": {
            "code": 400,
            "message": "API key not valid. Please pass a valid API key.",
            "errors": [
                {
                    "message": "API key not valid. Please pass a valid API key.",
                    "domain": "global",
                    "reason": "badRequest",
                }
            ],
            "status": "INVALID_ARGUMENT",
            "details": [
                {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}
            ],
        }
    }
    return WebReply(400, body)


class SearxngServer(DocumentServer):
    """``GET /search?q=&format=json`` of a SearxNG instance with JSON enabled (``json_enabled``
    False answers 403, as SearxNG does when ``json`` is not in ``search.formats``)."""

    def __init__(
        self,
        documents: list[JSON] | None = None,
        *,
        json_enabled: bool = True,
        max_lifetime_s: float = 120.0,
    ) -> None:
        super().__init__(documents, max_lifetime_s=max_lifetime_s)
        self.json_enabled = json_enabled

    def route(self, request: WebRequest) -> WebReply:
        """The reply this fake API gives ``request``, as the real one would (errors included).

        Args:
            request: the recorded request.
        """
        if request.path != "/search":
            return WebReply(404, "Not Found", content_type="text/html")
        if request.query.get("format") != "json" or not self.json_enabled:
            return WebReply(403, "<html><body>Forbidden</body></html>", content_type="text/html")
        docs = self.matching(request.query.get("q", ""), 10)
        body: JSON = {
            "query": request.query.get("q", ""),
            "number_of_results": 0,
            "results": [
                {
                    "url": d["url"],
                    "title": d["title"],
                    "content": str(d.get("content", ""))[:200],
                    "engine": "wikipedia",
                    "engines": ["wikipedia", "duckduckgo"],
                    "positions": [i + 1],
                    "score": round(2.0 - 0.1 * i, 3),
                    "category": "general",
                    "publishedDate": None,
                }
                for i, d in enumerate(docs)
            ],
            "answers": [],
            "corrections": [],
            "infoboxes": [],
            "suggestions": [],
            "unresponsive_engines": [],
        }
        return WebReply(200, body)


def searxng_rate_limited() -> WebReply:
    """SearxNG's limiter answers 429 with a plain body."""
    return WebReply(429, "Too Many Requests", content_type="text/plain")


class DuckDuckGoServer(DocumentServer):
    """``POST /html/`` (form field ``q``) answering the HTML page ``ddgs`` parses."""

    def route(self, request: WebRequest) -> WebReply:
        """The reply this fake API gives ``request``, as the real one would (errors included).

        Args:
            request: the recorded request.
        """
        if request.path != "/html/":
            return WebReply(404, "Not Found", content_type="text/html")
        docs = self.matching(request.form.get("q", ""), 10)
        results = "".join(
            '<div class="result results_links results_links_deep web-result">'
            '<div class="links_main links_deep result__body">'
            f'<h2 class="result__title"><a rel="nofollow" class="result__a" '
            f'href="{escape(d["url"])}">{escape(d["title"])}</a></h2>'
            f'<a class="result__snippet" href="{escape(d["url"])}">'
            f"{escape(str(d.get('content', ''))[:200])}</a></div></div>"
            for d in docs
        )
        page = f'<html><body><div id="links" class="results">{results}</div></body></html>'
        return WebReply(200, page, content_type="text/html; charset=UTF-8")


def duckduckgo_challenge() -> WebReply:
    """What DuckDuckGo answers a client it wants to slow down: HTTP 202 and a challenge."""
    page = '<html><body><form id="challenge-form" action="/anomaly.js"></form></body></html>'
    return WebReply(202, page, content_type="text/html")


class PageServer(LoopbackWebServer):
    """Serves ``pages`` ({path: (content type, body)}) and ``robots`` as /robots.txt
    (None: 404, which allows everything)."""

    def __init__(
        self,
        pages: dict[str, tuple[str, str | bytes]] | None = None,
        *,
        robots: str | None = None,
        max_lifetime_s: float = 120.0,
    ) -> None:
        super().__init__(max_lifetime_s=max_lifetime_s)
        self.pages = dict(pages or {})
        self.robots = robots

    def url(self, path: str) -> str:
        """The full URL of ``path`` on this server.

        Args:
            path: a path such as ``/a.html``.
        """
        return self.base_url + path

    def route(self, request: WebRequest) -> WebReply:
        """The page at ``request.path`` (and robots.txt when set); 404 otherwise.

        Args:
            request: the recorded request.
        """
        if request.path == "/robots.txt" and self.robots is not None:
            return WebReply(200, self.robots, content_type="text/plain")
        if request.path in self.pages:
            content_type, body = self.pages[request.path]
            return WebReply(200, body, content_type=content_type)
        return WebReply(404, "<html><body>Not found</body></html>", content_type="text/html")


def article_html(title: str, paragraphs: list[str]) -> str:
    """A page with navigation and footer around an article, as real pages have."""
    body = "".join(f"<p>{escape(p)}</p>" for p in paragraphs)
    return (
        f"<html><head><title>{escape(title)}</title></head><body>"
        '<nav><a href="/">Home</a> | <a href="/about">About</a> | <a href="/login">Log in</a></nav>'
        f"<article><h1>{escape(title)}</h1>{body}</article>"
        "<footer>Copyright 2024 Example Press. All rights reserved. Cookie settings.</footer>"
        "</body></html>"
    )
