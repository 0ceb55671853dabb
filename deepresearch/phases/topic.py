"""One topic researcher: search → forced reflection → optional extract, until the topic
is covered or its tool-call budget is spent. Results are summarised at fetch time,
tagged for novelty, and the topic is compressed inline when it finishes."""

from __future__ import annotations

import asyncio
import re
from typing import TypeVar

from pydantic import BaseModel

from deepresearch.context import RunContext
from deepresearch.errors import ProviderError, SearchError
from deepresearch.llm import Fallback, ask, degrade_phase
from deepresearch.phases.agents import COMPRESSOR, RESEARCHER, SUMMARIZER
from deepresearch.phases.common import domain_of, run_search, source_text
from deepresearch.phases.settle import add_provisional_source, settle_sources, visible_sources
from deepresearch.providers.base import SearchHit
from deepresearch.roles import (
    CompressInputs,
    ReflectInputs,
    ReflectOutput,
    RoleSpec,
    SourceText,
    SummarizeInputs,
)
from deepresearch.state import (
    EventKind,
    LinkFollow,
    Novelty,
    Phase,
    ReflectionDecision,
    ResearchState,
    Source,
    SubQuery,
    TopicResult,
)
from deepresearch.text import jaccard, normalize_query, split_sentences, term_set, word_root
from deepresearch.urls import session_urls

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)
# What a summarization or compression call may fail with; both fall back, never raise.
_CALL_FAILED = (TimeoutError, ProviderError)


async def research_topic(
    state: ResearchState, ctx: RunContext, sq: SubQuery, phase: Phase, *, settle: bool = True
) -> TopicResult:
    """Research one sub-query. Its new sources stay provisional (see phases.settle) when
    ``settle`` is false: parallel researchers are settled together once all have finished."""
    cfg = ctx.config
    topic = state.topic_result(sq.id) or TopicResult(sub_query_id=sq.id)
    if topic not in state.topic_results:
        state.topic_results.append(topic)
    query: str | None = sq.query
    follow = sq.follow  # the links a search follows: asked for explicitly, never read from text
    last_counts: dict[str, int] = {}
    while query is not None and topic.tool_calls < cfg.gathering.topic_max_tool_calls:
        hits = await _search(state, ctx, sq, topic, query, follow, phase)
        topic.searches += 1
        topic.queries.append(query)
        if follow is not None:
            topic.follows.append(follow)
        added = await _add_hits(state, ctx, sq, topic, hits, phase)
        last_counts = _tag_novelty(state, ctx, sq, added, hits)
        for kind, n in last_counts.items():
            topic.novelty_counts[kind] = topic.novelty_counts.get(kind, 0) + n
        decision = await _reflect(state, ctx, sq, topic, last_counts, phase)
        topic.reflections.append(decision)
        await _extract(state, ctx, sq, topic, decision, phase)
        if decision.research_complete:
            topic.stop_reason = f"research complete: {decision.rationale}"
            query = None
        elif decision.continue_searching and decision.refined_query:
            refined = decision.refined_query.strip()
            if normalize_query(refined) in {normalize_query(q) for q in topic.queries}:
                topic.stop_reason = "refined query repeats an earlier search"
                query = None
            else:
                query, follow = refined, decision.follow
        else:
            topic.stop_reason = f"sufficient for now: {decision.rationale}"
            query = None
    if query is not None:
        topic.stop_reason = f"tool-call budget of {cfg.gathering.topic_max_tool_calls} spent"
    if settle:
        settle_sources(state)
    if cfg.summaries.inline_compression and cfg.summaries.enable_compression:
        await compress_topic(state, ctx, sq, topic, phase)
    _tally_tokens(state, topic)
    return topic


async def _extract(
    state: ResearchState,
    ctx: RunContext,
    sq: SubQuery,
    topic: TopicResult,
    decision: ReflectionDecision,
    phase: Phase,
) -> None:
    """Read the full pages a reflection asked for, as far as config and budget allow."""
    gathering = ctx.config.gathering
    limit = gathering.extract_max_per_iteration if gathering.enable_extract else 0
    urls = decision.urls_to_extract[:limit]
    if urls:  # model-chosen URLs are untrusted: the URL policy decides (deepresearch.urls)
        urls = await ctx.urls.allowed(
            urls, known_urls=session_urls(state), events=ctx.events, state=state, scope=sq.id
        )
    if urls and topic.tool_calls < gathering.topic_max_tool_calls:
        topic.extracts += 1  # one tool call, whether or not it succeeds
        try:
            extracted = await run_search(
                state, ctx, sq.query, phase=phase, scope=sq.id, extract=urls
            )
        except SearchError as exc:  # non-fatal: keep the search results, and say so
            ctx.events.emit(state, EventKind.EXTRACT_FAILED, {"urls": urls, "error": str(exc)})
            degrade_phase(
                state,
                phase.value,
                f"{len(urls)} page(s) {sq.id} asked to read could not be read ({exc}); "
                "their search snippets are kept",
            )
        else:
            await _merge_extracts(state, ctx, sq, topic, extracted, phase)


FOLLOW_UP_DEPTH = 2  # a follow-up search reads this many pages of results past the known


async def _search(
    state: ResearchState,
    ctx: RunContext,
    sq: SubQuery,
    topic: TopicResult,
    query: str,
    follow: LinkFollow | None,
    phase: Phase,
) -> list[SearchHit]:
    """One search of the topic: it follows links when ``follow`` asks for links its
    sources have (see _followed_link), else searches ``query``. A follow-up (any search
    after the topic's first) pages past what is already gathered: it asks for
    FOLLOW_UP_DEPTH times the usual results and keeps the usual page's known hits (to
    count them) and the best unknown ones, at most a page of them, so a search whose
    words the gathered entries match still adds the entries ranked just below them."""
    page = ctx.config.loop.max_sources_per_query
    visible = visible_sources(state, sq.id)
    known = {s.url for s in visible}
    link = _followed_link(follow, topic, visible) if follow is not None else None
    if link is not None:
        return await _follow(state, ctx, sq, link, known, phase)
    if not topic.queries:
        return await run_search(state, ctx, query, phase=phase, scope=sq.id)
    hits = await run_search(
        state, ctx, query, phase=phase, scope=sq.id, max_results=page * FOLLOW_UP_DEPTH
    )
    fresh = [h for h in hits if h.url not in known][:page]
    return [h for i, h in enumerate(hits) if i < page and h.url in known] + fresh


async def _follow(
    state: ResearchState,
    ctx: RunContext,
    sq: SubQuery,
    link: tuple[list[str], set[str]],
    known: set[str],
    phase: Phase,
) -> list[SearchHit]:
    """Follow links, in order: the first linked entry not yet gathered that speaks to the
    words asked for, alone, with the known hits of the first search (to count them)."""
    page = ctx.config.loop.max_sources_per_query
    titles, words = link
    counted: list[SearchHit] | None = None
    for title in titles:
        hits = await run_search(
            state, ctx, f'"{title}"', phase=phase, scope=sq.id, max_results=page * FOLLOW_UP_DEPTH
        )
        if counted is None:
            counted = [h for i, h in enumerate(hits) if i < page and h.url in known]
        fresh = [h for h in hits if h.url not in known][:page]
        named = [h for h in fresh if h.title.casefold() == title.casefold()]
        if named and _states(named[0], words):
            return counted + named[:1]
    return counted or []


def _followed_link(
    follow: LinkFollow, topic: TopicResult, visible: list[Source]
) -> tuple[list[str], set[str]] | None:
    """The links to follow: the titles asked for when the topic's sources link every one
    (``Source.links``), or for a topic's opening search (a supervisor's directive) any
    source it sees, and the roots of the words asked for; else None (an ordinary search)."""
    mine = set(topic.source_ids)
    linked = {
        link.casefold() for s in visible if s.id in mine or not topic.queries for link in s.links
    }
    titles = [t.strip() for t in follow.titles if t.strip()]
    if not titles or any(t.casefold() not in linked for t in titles):
        return None
    return titles, {word_root(t) for t in term_set(" ".join(follow.words))}


def _states(hit: SearchHit, words: set[str]) -> bool:
    """Whether a linked entry's opening sentence (what the entry is) holds one of
    ``words`` besides its title's (any entry when there are none): a sentence that
    answers a part links common nouns too ("95 TWh on *average*"), and those entries say
    nothing about the part."""
    if not words:
        return True
    opening = split_sentences(hit.content or hit.snippet)[:1]
    said = {word_root(t) for t in term_set(" ".join(opening)) - term_set(hit.title)}
    return bool(words & said)


async def _add_hits(
    state: ResearchState,
    ctx: RunContext,
    sq: SubQuery,
    topic: TopicResult,
    hits: list[SearchHit],
    phase: Phase,
) -> list[Source]:
    visible = visible_sources(state, sq.id)
    seen = {s.url for s in visible}
    seen_dois = {s.doi for s in visible if s.doi}
    added: list[Source] = []
    for hit in hits:
        if hit.url in seen or (hit.doi and hit.doi in seen_dois):
            continue  # URL (and DOI: one paper, many landing pages) dedup across researchers
        seen.add(hit.url)
        if hit.doi:
            seen_dois.add(hit.doi)
        src = add_provisional_source(
            state,
            sq,
            url=hit.url,
            title=hit.title,
            snippet=hit.snippet,
            content=hit.content or hit.snippet,
            raw_content=hit.raw_content,
            provider=hit.provider or ctx.search.name,
            domain=domain_of(hit),
            published=hit.published,
            relevance=hit.score,
            links=_links_of(hit),
            **hit.source_fields(),
        )
        topic.source_ids.append(src.id)
        added.append(src)
    if ctx.config.summaries.fetch_time_summarization:
        await asyncio.gather(*(_summarize(state, ctx, sq, s, phase) for s in added))
    return added


def _links_of(hit: SearchHit) -> list[str]:
    """The titles a corpus hit's text links to (``metadata["links"]``), else none."""
    links = hit.metadata.get("links")
    return [str(t) for t in links] if isinstance(links, list) else []


async def _merge_extracts(
    state: ResearchState,
    ctx: RunContext,
    sq: SubQuery,
    topic: TopicResult,
    hits: list[SearchHit],
    phase: Phase,
) -> None:
    """Extracted full text replaces a known source's text, or becomes a new source."""
    by_url = {s.url: s for s in visible_sources(state, sq.id)}
    fresh: list[SearchHit] = []
    upgraded: list[Source] = []
    for hit in hits:
        known = by_url.get(hit.url)
        text = hit.raw_content or hit.content
        if known is None:
            fresh.append(hit)
        elif text and len(text) > len(known.raw_content or known.content):
            known.raw_content, known.content, known.summarized = text, text, False
            known.links = _links_of(hit) or known.links
            upgraded.append(known)
    summarizing = upgraded if ctx.config.summaries.fetch_time_summarization else []
    # Every page is summarized as soon as it is here, side by side: the upgraded ones
    # while the new ones are added (and summarized), not one after another.
    _, added = await asyncio.gather(
        asyncio.gather(*(_summarize(state, ctx, sq, s, phase) for s in summarizing)),
        _add_hits(state, ctx, sq, topic, fresh, phase),
    )
    # Extracted pages are results too: tag them against this sub-query's earlier sources.
    for kind, n in _tag_novelty(state, ctx, sq, added, fresh).items():
        if kind in ("new", "related", "duplicate"):
            topic.novelty_counts[kind] = topic.novelty_counts.get(kind, 0) + n


async def _summarize(
    state: ResearchState, ctx: RunContext, sq: SubQuery, src: Source, phase: Phase
) -> None:
    original = src.raw_content or src.content
    if len(original) <= ctx.config.summaries.summarization_min_chars:
        return
    inputs = SummarizeInputs(
        query=sq.query,
        title=src.title,
        url=src.url,
        content=_head(original, ctx.config.summaries.summarization_max_input_chars),
        question=state.question,
        today=ctx.today,
    )
    try:
        out = await _timed_call(
            SUMMARIZER, inputs, state, ctx, sq, phase, ctx.config.summaries.summarization_timeout_s
        )
    except _CALL_FAILED as exc:
        # Fall back to the raw text; nothing is lost.
        ctx.events.emit(state, EventKind.SUMMARIZATION_FAILED, {"url": src.url, "error": str(exc)})
        return
    excerpts = [e for e in out.key_excerpts if e.strip()][:5]
    src.raw_content = original
    src.excerpts = excerpts
    src.summarized = True
    src.content = out.executive_summary.strip()
    if excerpts:
        src.content += "\n\nKey excerpts:\n" + "\n".join(f"- {e}" for e in excerpts)


def _head(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut after the last full sentence that fits: pages
    can be megabytes, and their first 50K characters hold what a summary can use."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind(".\n"))
    return cut[: end + 1] if end > limit // 2 else cut


def _tag_novelty(
    state: ResearchState,
    ctx: RunContext,
    sq: SubQuery,
    added: list[Source],
    hits: list[SearchHit],
) -> dict[str, int]:
    """Tag each new source against earlier sources of the same sub-query, and count the
    hits skipped as known: repeats of this researcher's finds, or other researchers'."""
    cfg = ctx.config
    added_ids = {s.id for s in added}
    earlier = [s for s in state.sources_for(sq.id) if s.id not in added_ids]
    mine = {s.url for s in earlier} | {s.url for s in added}
    skipped = len(hits) - len(added)
    repeated = sum(1 for h in hits if h.url in mine) - len(added)
    counts = {
        "new": 0,
        "related": 0,
        "duplicate": 0,
        "repeated": repeated,
        "already_seen": skipped - repeated,
    }
    for src in added:
        terms = term_set(src.title + " " + (src.raw_content or src.content))
        best, best_title = 0.0, None
        for old in earlier:
            sim = jaccard(terms, term_set(old.title + " " + (old.raw_content or old.content)))
            if sim > best:
                best, best_title = sim, old.title
        if best > cfg.gathering.novelty_duplicate_threshold:
            src.novelty = Novelty.DUPLICATE
        elif best >= cfg.gathering.novelty_related_threshold:
            src.novelty, src.related_to = Novelty.RELATED, best_title
        else:
            src.novelty = Novelty.NEW
        src.novelty_score = round(1 - best, 3)
        counts[src.novelty.value] += 1
        earlier.append(src)
    return counts


def novelty_line(counts: dict[str, int]) -> str:
    """What a search brought, as told to the researcher: new, related and duplicate
    results, and those already seen in its own or other researchers' searches.

    Args:
        counts: results per novelty kind (and ``repeated``, ``already_seen``).
    """
    total = counts.get("new", 0) + counts.get("related", 0) + counts.get("duplicate", 0)
    line = (
        f"Novelty: {counts.get('new', 0)} new, {counts.get('related', 0)} related, "
        f"{counts.get('duplicate', 0)} duplicate out of {total} results"
    )
    known = []
    if counts.get("repeated"):
        known.append(f"{counts['repeated']} more repeated from your earlier searches")
    if counts.get("already_seen"):
        known.append(f"{counts['already_seen']} more already seen by other researchers")
    return line + (f" ({', '.join(known)})" if known else "")


def _extractable(views: list[SourceText]) -> list[str]:
    """The URLs a researcher may extract: its sources' and the passages around them."""
    return list(dict.fromkeys([v.url for v in views] + [u for v in views for u in v.around]))


async def _reflect(
    state: ResearchState,
    ctx: RunContext,
    sq: SubQuery,
    topic: TopicResult,
    counts: dict[str, int],
    phase: Phase,
) -> ReflectionDecision:
    cfg = ctx.config
    sources = [state.source(i) for i in topic.source_ids]
    views = [source_text(s, limit=600) for s in sources if s is not None]
    for view, src in zip(views, [s for s in sources if s is not None], strict=True):
        tag = (src.novelty.value.upper() if src.novelty else "NEW") + (
            f": {src.related_to}" if src.related_to else ""
        )
        view.title = f"[{tag}] {view.title}"
    directive = next((d for d in state.directives if d.sub_query_id == sq.id), None)
    inputs = ReflectInputs(
        question=state.question,
        sub_query=directive.research_topic if directive else sq.query,
        research_brief=state.research_brief,
        queries_run=list(topic.queries),
        tool_calls_used=topic.tool_calls,
        max_tool_calls=cfg.gathering.topic_max_tool_calls,
        sources=views,
        novelty_summary=novelty_line(counts),
        last_novelty={k: v for k, v in counts.items() if k in ("new", "related", "duplicate")},
        extractable_urls=_extractable(views) if cfg.gathering.enable_extract else [],
        max_extract=cfg.gathering.extract_max_per_iteration if cfg.gathering.enable_extract else 0,
        guidance=state.guidance_for(Phase.GATHERING),
        perspective=directive.perspective if directive else "",
        evidence_needed=directive.evidence_needed if directive else "",
        today=ctx.today,
        follow=sq.follow,
        links_followed=[t for f in topic.follows for t in f.titles],
    )
    fallback = Fallback(
        lambda exc: ReflectOutput(research_complete=True, rationale=f"reflection failed: {exc}"),
        "ending this topic's research",
    )
    out = await ask(RESEARCHER, inputs, state, ctx, phase=phase, scope=sq.id, fallback=fallback)
    return out.decision()


async def compress_topic(
    state: ResearchState, ctx: RunContext, sq: SubQuery, topic: TopicResult, phase: Phase
) -> None:
    """Reformat a topic's sources with inline citations. Non-fatal: on failure the topic
    keeps ``compression_error`` and the global step (or analysis of raw sources) takes over."""
    sources = [s for s in (state.source(i) for i in topic.source_ids) if s is not None]
    if not sources:
        return
    inputs = CompressInputs(
        question=state.question,
        sub_query=sq.query,
        queries=list(topic.queries),
        sources=[source_text(s, page=True) for s in sources],
        today=ctx.today,
    )
    try:
        out = await _timed_call(
            COMPRESSOR, inputs, state, ctx, sq, phase, ctx.config.summaries.compression_timeout_s
        )
        if not _cites_sources(out.compressed, inputs):
            raise ProviderError("the compressed findings cite none of the sources [n]")
        topic.compressed_findings = out.compressed
        topic.compression_error = None
    except _CALL_FAILED as exc:
        topic.compression_error = f"{type(exc).__name__}: {exc}"
        ctx.events.emit(
            state, EventKind.COMPRESSION_FAILED, {"sub_query": sq.id, "error": str(exc)}
        )
    _tally_tokens(state, topic)  # the global step compresses after research_topic tallied


def _cites_sources(text: str, inputs: CompressInputs) -> bool:
    """Later steps read a digest's [n] numbers: one that cites no source is unusable."""
    numbers = {s.citation for s in inputs.sources}
    return any(int(n) in numbers for n in re.findall(r"\[(\d+)\]", text))


async def _timed_call(
    spec: RoleSpec[InT, OutT],
    inputs: InT,
    state: ResearchState,
    ctx: RunContext,
    sq: SubQuery,
    phase: Phase,
    timeout_s: float,
) -> OutT:
    """One of this topic's role calls, given up after ``timeout_s`` (raises TimeoutError).
    ask holds each model attempt to ``timeout_s``; this bounds the whole call, the
    role's fallback models included: one timeout per result."""
    try:
        return await asyncio.wait_for(
            ask(spec, inputs, state, ctx, phase=phase, scope=sq.id, timeout_s=timeout_s),
            timeout=timeout_s,
        )
    except TimeoutError:
        raise TimeoutError(f"no answer within {timeout_s:g}s") from None


def _tally_tokens(state: ResearchState, topic: TopicResult) -> None:
    records = [u for u in state.usage if u.scope == topic.sub_query_id]
    topic.input_tokens = sum(u.input_tokens for u in records)
    topic.output_tokens = sum(u.output_tokens for u in records)
