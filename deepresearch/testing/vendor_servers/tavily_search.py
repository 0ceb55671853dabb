"""A loopback server speaking Tavily search and extract (``POST /search``, ``/extract``)."""

from __future__ import annotations

import re

from deepresearch.testing.vendor_servers.base import (
    JSON,
    RecordedRequest,
    Reply,
    Responder,
    VendorServer,
)


class TavilyServer(VendorServer):
    """``POST /search`` ranks ``documents`` by shared words; ``POST /extract`` returns their
    text (unknown URLs go to ``failed_results``)."""

    def __init__(
        self,
        documents: list[JSON] | None = None,
        responder: Responder | None = None,
        *,
        latency_s: float = 0.0,
        max_lifetime_s: float = 120.0,
    ) -> None:
        super().__init__(responder, latency_s=latency_s, max_lifetime_s=max_lifetime_s)
        self.documents = documents or []

    def default_reply(self, request: RecordedRequest) -> Reply:
        """A Tavily search or extract answer from the served documents.

        Args:
            request: the recorded request.
        """
        body = request.json
        if request.path == "/search":
            words = set(re.findall(r"\w+", str(body.get("query", "")).lower()))

            def overlap(doc: JSON) -> int:
                text = f"{doc.get('title', '')} {doc.get('content', '')}".lower()
                return len(words & set(re.findall(r"\w+", text)))

            ranked = sorted(self.documents, key=overlap, reverse=True)
            hits = [d for d in ranked if overlap(d) > 0][: int(body.get("max_results") or 5)]
            raw = bool(body.get("include_raw_content"))
            return Reply(200, tavily_search_body(str(body.get("query", "")), hits, raw=raw))
        if request.path == "/extract":
            urls = body.get("urls") or []
            urls = [urls] if isinstance(urls, str) else list(urls)
            known = {d["url"]: d for d in self.documents}
            results = [
                {"url": u, "raw_content": known[u].get("content", ""), "images": []}
                for u in urls
                if u in known
            ]
            failed = [{"url": u, "error": "Failed to fetch url"} for u in urls if u not in known]
            return Reply(200, {"results": results, "failed_results": failed, "response_time": 0.1})
        return tavily_error(404, "Not Found")


def tavily_search_body(query: str, documents: list[JSON], *, raw: bool = False) -> JSON:
    """A Tavily search answer body for ``documents``.

    Args:
        query: the query echoed back.
        documents: the hits, as JSON records.
        raw: include each page's full text (``include_raw_content``).
    """
    results = [
        {
            "title": d.get("title", ""),
            "url": d["url"],
            "content": str(d.get("content", ""))[:300],
            "score": round(0.9 - 0.05 * i, 3),
            "raw_content": d.get("content", "") if raw else None,
        }
        for i, d in enumerate(documents)
    ]
    return {
        "query": query,
        "answer": None,
        "images": [],
        "results": results,
        "response_time": 0.12,
        "request_id": "tvly-loopback",
    }


def tavily_error(status: int, message: str, *, delay_s: float = 0.0) -> Reply:
    """A Tavily error answer.

    Args:
        status: the HTTP status.
        message: its message.
        delay_s: wait this long before answering.
    """
    return Reply(status, {"detail": {"error": message}}, delay_s=delay_s)
