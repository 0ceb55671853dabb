"""Pieces every phase shares: the phase report, source views for prompts, searching."""

from __future__ import annotations

import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from urllib.parse import urlparse

from deepresearch.context import RunContext
from deepresearch.errors import ProviderError, SearchError
from deepresearch.llm import phase_metrics
from deepresearch.offline.statements import as_text, statements
from deepresearch.providers.base import SearchHit
from deepresearch.roles import SourceText
from deepresearch.state import EventKind, Phase, ResearchState, Source

# A phase's summary holds counts, flags and short labels: what an event or a log line shows.
SummaryValue = int | float | bool | str | None


@dataclass
class PhaseReport:
    """What a phase changed, small enough to show in a think pause or a log line.

    Args:
        phase: the phase that ran.
        summary: its counts, flags and short labels by name (e.g. ``{"sources": 12}``).
        notes: what went differently from the plain path, one line each.
        skipped: the phase was turned off and did nothing.
    """

    phase: Phase
    summary: dict[str, SummaryValue] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    skipped: bool = False

    def __str__(self) -> str:
        parts = ", ".join(f"{k}={v}" for k, v in self.summary.items())
        return f"{self.phase.value}: {parts}" + (" (skipped)" if self.skipped else "")


def source_text(src: Source, *, limit: int = 4000, page: bool = False) -> SourceText:
    """The view of a source prompts and the offline engine read: its fetch-time summary and
    verbatim excerpts when it has them (made from far more of the page than fits here);
    with ``page``, the start of the page's own text fills the rest of ``limit``."""
    body = src.content
    if src.summarized and src.excerpts:
        body = src.content.split("\n\nKey excerpts:", 1)[0]
        # One a paragraph: a quoted table row or code line is not run into the next.
        if extra := [e for e in src.excerpts if e not in body]:
            body = f"{body}\n\n{as_text(extra)}"
    if page and src.summarized and src.raw_content and len(body) < limit:
        # The page's opening statements the summary does not already quote, verbatim.
        opening = [s for s in statements(src.raw_content[:limit]) if s not in body]
        if opening:
            body += "\n\n" + as_text(opening)
    return SourceText(
        id=src.id,
        citation=src.citation,
        title=src.title,
        url=src.url,
        snippet=src.snippet[:500],
        text=body[:limit],
        quality=src.quality.value,
        sub_query_id=src.sub_query_id,
        domain=src.domain,
        links=list(src.links),
        lines=src.lines,
        around=list(src.around),
    )


def domain_of(hit: SearchHit) -> str:
    """The hit's domain: the one the provider gave, else the URL's host without
    ``www.``; ``local`` for a URL without a host.

    Args:
        hit: a search result.
    """
    if hit.domain:
        return hit.domain
    netloc = urlparse(hit.url).netloc
    return netloc.lower().removeprefix("www.") or "local"


async def run_search(
    state: ResearchState,
    ctx: RunContext,
    query: str,
    *,
    phase: Phase,
    scope: str | None = None,
    extract: list[str] | None = None,
    prefetched: Awaitable[list[SearchHit]] | None = None,
    max_results: int | None = None,
) -> list[SearchHit]:
    """One search (or extract) call with its audit event and metrics. ``prefetched``: the
    same search already started (deepresearch.prefetch); it is awaited instead.
    ``max_results``: hits to ask for, ``max_sources_per_query`` unless given."""
    ctx.cancel.check()
    started = time.perf_counter()
    kind = "extract" if extract is not None else "search"
    error: str | None = None
    hits: list[SearchHit] = []
    try:
        if extract is not None:
            hits = await ctx.search.extract(extract)
        elif prefetched is not None:
            hits = await prefetched
        else:
            wanted = max_results or ctx.config.loop.max_sources_per_query
            hits = await ctx.search.search(query, max_results=wanted)
    except ProviderError as exc:
        error = f"{type(exc).__name__}: {exc}"
        raise SearchError(str(exc), provider=ctx.search.name) from exc
    finally:
        metrics = phase_metrics(state, phase.value)
        if metrics is not None:
            metrics.search_calls += 1
        ctx.events.emit(
            state,
            EventKind.SEARCH_CALL,
            {
                "kind": kind,
                "query": query if extract is None else ", ".join(extract),
                "provider": ctx.search.name,
                "results": len(hits),
                "duration_s": round(time.perf_counter() - started, 4),
                "scope": scope,
                "error": error,
                # merged search: providers that failed while others answered
                "provider_failures": dict(getattr(ctx.search, "last_failures", {}) or {}),
                # extract: URLs no provider could read (robots.txt, HTTP error, content type)
                "not_extracted": [u for u in extract or [] if u not in {h.url for h in hits}],
            },
        )
    return hits


def guidance_block(notes: list[str]) -> str:
    """The steering notes as a block to append to a user message (empty without notes).

    Args:
        notes: the guidance for this phase.
    """
    if not notes:
        return ""
    return "\n\nGuidance from the person steering this research (follow it):\n" + "\n".join(
        f"- {n}" for n in notes
    )
