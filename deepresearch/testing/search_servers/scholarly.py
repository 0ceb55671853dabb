"""Loopback servers for the scholarly APIs: Semantic Scholar, OpenAlex, Crossref, arXiv.

Each serves the same kind of paper records (dicts with ``title``, ``abstract``,
``authors``, ``year``, ``venue``, ``doi``, ``citations``, ``url``, ``pdf``; all optional
but the title) in its API's documented response shape, ranked by words shared with the
query; the ``*_error`` helpers build each API's documented error bodies.
"""

from __future__ import annotations

import zlib
from xml.sax.saxutils import escape

from deepresearch.testing.search_servers.base import (
    JSON,
    LoopbackWebServer,
    WebReply,
    WebRequest,
    ranked,
)

_FIELDS = ("title", "abstract")


def _number(paper: JSON) -> int:
    """A stable id from the title (``hash`` differs between processes)."""
    return zlib.crc32(str(paper["title"]).encode("utf-8"))


class PaperServer(LoopbackWebServer):
    """A fake scholarly API serving ``papers``, matched to a query by shared words.

    Args:
        papers: the papers, as JSON records.
        max_lifetime_s: the server stops itself after this long.
    """

    def __init__(self, papers: list[JSON] | None = None, *, max_lifetime_s: float = 120.0):
        super().__init__(max_lifetime_s=max_lifetime_s)
        self.papers = list(papers or [])

    def matching(self, query: str, limit: int) -> list[JSON]:
        """The papers sharing most words with ``query``, best first.

        Args:
            query: the search query.
            limit: the most returned.
        """
        return ranked(self.papers, query, *_FIELDS)[:limit]


class SemanticScholarServer(PaperServer):
    """``GET /graph/v1/paper/search`` (relevance search)."""

    def route(self, request: WebRequest) -> WebReply:
        """The reply this fake API gives ``request``, as the real one would (errors included).

        Args:
            request: the recorded request.
        """
        if request.path != "/graph/v1/paper/search":
            return semantic_scholar_error(404, "Endpoint not found")
        if not request.query.get("query"):
            return semantic_scholar_error(400, "Missing required parameter: 'query'")
        limit = int(request.query.get("limit") or 100)
        papers = self.matching(request.query["query"], limit)
        body: JSON = {"total": len(papers), "offset": 0, "data": [_s2(p) for p in papers]}
        return WebReply(200, body)


def _s2(paper: JSON) -> JSON:
    paper_id = f"{_number(paper):040x}"
    return {
        "paperId": paper_id,
        "url": paper.get("url") or f"https://www.semanticscholar.org/paper/{paper_id}",
        "title": paper["title"],
        "abstract": paper.get("abstract"),
        "venue": paper.get("venue", ""),
        "year": paper.get("year"),
        "citationCount": paper.get("citations", 0),
        "openAccessPdf": {"url": paper["pdf"], "status": "GREEN"} if paper.get("pdf") else None,
        "publicationDate": paper.get("published"),
        "externalIds": {"DOI": paper["doi"]} if paper.get("doi") else {},
        "authors": [
            {"authorId": str(i), "name": a} for i, a in enumerate(paper.get("authors", []))
        ],
        "tldr": None,
    }


def semantic_scholar_error(status: int, message: str, **headers: str) -> WebReply:
    """400/404 answer ``{"error": ...}``; 403 and 429 answer ``{"message": ...}``."""
    if status in (403, 429):
        body: JSON = {"message": message}
        if status == 429:
            body["code"] = "429"
        return WebReply(status, body, headers=headers)
    return WebReply(status, {"error": message}, headers=headers)


class OpenAlexServer(PaperServer):
    """``GET /works?search=`` with ``per-page``; abstracts as inverted indexes."""

    def route(self, request: WebRequest) -> WebReply:
        """The reply this fake API gives ``request``, as the real one would (errors included).

        Args:
            request: the recorded request.
        """
        if request.path != "/works":
            return openalex_error(404, "Not Found", "The URL was not found on the server.")
        per_page = int(request.query.get("per-page") or 25)
        papers = self.matching(request.query.get("search", ""), per_page)
        body: JSON = {
            "meta": {
                "count": len(papers),
                "db_response_time_ms": 12,
                "page": 1,
                "per_page": per_page,
            },
            "results": [_openalex(p) for p in papers],
            "group_by": [],
        }
        return WebReply(200, body)


def _openalex(paper: JSON) -> JSON:
    n = _number(paper)
    index: dict[str, list[int]] = {}
    for pos, word in enumerate(str(paper.get("abstract") or "").split()):
        index.setdefault(word, []).append(pos)
    return {
        "id": f"https://openalex.org/W{n}",
        "doi": f"https://doi.org/{paper['doi']}" if paper.get("doi") else None,
        "title": paper["title"],
        "display_name": paper["title"],
        "publication_year": paper.get("year"),
        "publication_date": paper.get("published"),
        "cited_by_count": paper.get("citations", 0),
        "authorships": [
            {"author_position": "first" if i == 0 else "middle", "author": {"display_name": a}}
            for i, a in enumerate(paper.get("authors", []))
        ],
        "primary_location": {
            "landing_page_url": paper.get("url"),
            "source": {"display_name": paper["venue"]} if paper.get("venue") else None,
        },
        "open_access": {"is_oa": bool(paper.get("pdf")), "oa_url": paper.get("pdf")},
        "abstract_inverted_index": index or None,
    }


def openalex_error(status: int, error: str, message: str, **headers: str) -> WebReply:
    """An OpenAlex error answer.

    Args:
        status: the HTTP status.
        error: the error title.
        message: its message.
        **headers: extra response headers (e.g. Retry-After).
    """
    return WebReply(status, {"error": error, "message": message}, headers=headers)


class CrossrefServer(PaperServer):
    """``GET /works?query=`` with ``rows``; abstracts in JATS XML."""

    def route(self, request: WebRequest) -> WebReply:
        """The reply this fake API gives ``request``, as the real one would (errors included).

        Args:
            request: the recorded request.
        """
        if request.path != "/works":
            return WebReply(404, "Resource not found.", content_type="text/plain")
        rows = int(request.query.get("rows") or 20)
        if rows > 1000:
            return crossref_error(
                400, "rows", str(rows), "Integer specified as 1001 but must be <= 1000"
            )
        papers = self.matching(request.query.get("query", ""), rows)
        body: JSON = {
            "status": "ok",
            "message-type": "work-list",
            "message-version": "1.0.0",
            "message": {
                "facets": {},
                "total-results": len(papers),
                "items": [_crossref(p) for p in papers],
                "items-per-page": rows,
                "query": {"start-index": 0, "search-terms": request.query.get("query", "")},
            },
        }
        return WebReply(200, body)


def _crossref(paper: JSON) -> JSON:
    names = [str(a).rsplit(" ", 1) for a in paper.get("authors", [])]
    item: JSON = {
        "DOI": paper.get("doi", ""),
        "URL": f"https://doi.org/{paper['doi']}" if paper.get("doi") else paper.get("url", ""),
        "title": [paper["title"]],
        "author": [
            {"given": n[0], "family": n[-1], "sequence": "first"}
            if len(n) == 2
            else {"family": n[0]}
            for n in names
        ],
        "container-title": [paper["venue"]] if paper.get("venue") else [],
        "published": {"date-parts": [[paper["year"]]]} if paper.get("year") else {},
        "is-referenced-by-count": paper.get("citations", 0),
        "type": "journal-article",
    }
    if paper.get("abstract"):
        item["abstract"] = f"<jats:p>{escape(paper['abstract'])}</jats:p>"
    if paper.get("pdf"):
        item["license"] = [{"URL": "http://creativecommons.org/licenses/by/4.0/"}]
        item["link"] = [{"URL": paper["pdf"], "content-type": "application/pdf"}]
    return item


def crossref_error(status: int, parameter: str, value: str, message: str) -> WebReply:
    """Crossref's validation failure body (400); 429 answers are plain text."""
    if status == 429:
        return WebReply(429, "Too Many Requests", content_type="text/plain")
    failure = {"type": "parameter-not-allowed", "value": value, "message": message}
    body: JSON = {
        "status": "failed",
        "message-type": "validation-failure",
        "message": [{**failure, "parameter": parameter}],
    }
    return WebReply(status, body)


class ArxivServer(PaperServer):
    """``GET /api/query?search_query=all:a OR all:b`` answering an Atom feed."""

    def route(self, request: WebRequest) -> WebReply:
        """The reply this fake API gives ``request``, as the real one would (errors included).

        Args:
            request: the recorded request.
        """
        if request.path != "/api/query":
            return arxiv_error("unknown path", status=404)
        query = request.query.get("search_query", "")
        if not query:
            return arxiv_error("search_query is required")
        terms = " ".join(t.split(":", 1)[-1] for t in query.split() if t not in ("OR", "AND"))
        limit = int(request.query.get("max_results") or 10)
        return WebReply(200, arxiv_feed(self.matching(terms, limit)), "application/atom+xml")


def arxiv_feed(papers: list[JSON]) -> str:
    """An arXiv Atom feed of ``papers``.

    Args:
        papers: the papers, as JSON records.
    """
    entries = "".join(_arxiv_entry(p) for p in papers)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">'
        "<title>arXiv Query</title><id>http://arxiv.org/api/loopback</id>"
        f"<opensearch:totalResults>{len(papers)}</opensearch:totalResults>"
        f"<opensearch:startIndex>0</opensearch:startIndex>{entries}</feed>"
    )


def _arxiv_entry(paper: JSON) -> str:
    url = paper.get("url") or f"http://arxiv.org/abs/{_number(paper) % 10**4:04d}.00001v1"
    authors = "".join(
        f"<author><name>{escape(a)}</name></author>" for a in paper.get("authors", [])
    )
    year = paper.get("year") or 2020
    extra = f"<arxiv:doi>{escape(paper['doi'])}</arxiv:doi>" if paper.get("doi") else ""
    if paper.get("venue"):
        extra += f"<arxiv:journal_ref>{escape(paper['venue'])}</arxiv:journal_ref>"
    pdf = paper.get("pdf") or url.replace("/abs/", "/pdf/")
    return (
        f"<entry><id>{escape(url)}</id><updated>{year}-01-02T00:00:00Z</updated>"
        f"<published>{year}-01-02T00:00:00Z</published><title>{escape(paper['title'])}</title>"
        f"<summary>{escape(str(paper.get('abstract') or ''))}</summary>{authors}{extra}"
        f'<link href="{escape(url)}" rel="alternate" type="text/html"/>'
        f'<link title="pdf" href="{escape(pdf)}" rel="related" type="application/pdf"/>'
        '<arxiv:primary_category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>'
        "</entry>"
    )


def arxiv_error(message: str, *, status: int = 400) -> WebReply:
    """arXiv's error answer: a feed with one entry titled 'Error'."""
    entry = (
        "<entry><id>http://arxiv.org/api/errors#incorrect_id_format</id><title>Error</title>"
        f"<summary>{escape(message)}</summary><author><name>arXiv api core</name></author></entry>"
    )
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        f"<title>arXiv Query</title><id>http://arxiv.org/api/errors</id>{entry}</feed>"
    )
    return WebReply(status, body, "application/atom+xml")
