"""Loopback HTTP servers speaking the scholarly and web search APIs, for tests and notebooks.

Point the real providers at them (``Config(openalex_base_url=server.base_url)``) to run
them with no network and no keys. Each answers scripted replies first (``enqueue``, e.g.
the API's rate-limit or error body), then serves its documents in the API's shape. They
bind to 127.0.0.1 on a free port and shut down after ``max_lifetime_s``.

    with OpenAlexServer(papers) as server:
        server.enqueue(openalex_error(429, "Rate limit exceeded", "Too many requests"))
        config = Config(search=["openalex"], openalex_base_url=server.base_url)
"""

from __future__ import annotations

from deepresearch.testing.search_servers.base import (
    JSON,
    LoopbackWebServer,
    WebReply,
    WebRequest,
)
from deepresearch.testing.search_servers.scholarly import (
    ArxivServer,
    CrossrefServer,
    OpenAlexServer,
    PaperServer,
    SemanticScholarServer,
    arxiv_error,
    arxiv_feed,
    crossref_error,
    openalex_error,
    semantic_scholar_error,
)
from deepresearch.testing.search_servers.web import (
    DocumentServer,
    DuckDuckGoServer,
    GoogleServer,
    PageServer,
    SearxngServer,
    article_html,
    duckduckgo_challenge,
    google_error,
    google_key_invalid,
    searxng_rate_limited,
)

__all__ = [
    "JSON",
    "ArxivServer",
    "CrossrefServer",
    "DocumentServer",
    "DuckDuckGoServer",
    "GoogleServer",
    "LoopbackWebServer",
    "OpenAlexServer",
    "PageServer",
    "PaperServer",
    "SearxngServer",
    "SemanticScholarServer",
    "WebReply",
    "WebRequest",
    "article_html",
    "arxiv_error",
    "arxiv_feed",
    "crossref_error",
    "duckduckgo_challenge",
    "google_error",
    "google_key_invalid",
    "openalex_error",
    "searxng_rate_limited",
    "semantic_scholar_error",
]
