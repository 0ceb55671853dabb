"""Gathering: run a topic researcher per pending sub-query, in parallel, checkpointing
after each finished topic so a crash repeats no finished search."""

from __future__ import annotations

import asyncio

from deepresearch.context import RunContext
from deepresearch.errors import SearchError
from deepresearch.llm import degrade_phase, warn_once
from deepresearch.phases.common import PhaseReport
from deepresearch.phases.settle import settle_sources
from deepresearch.phases.topic import compress_topic, research_topic
from deepresearch.providers.corpus import (
    SkippedFile,
    guessed_encodings,
    searched_by_words_alone,
    unread_files,
)
from deepresearch.state import EventKind, Phase, ResearchState, SubQuery, SubQueryStatus


async def gather(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """Run a topic researcher for each pending sub-query, in parallel up to
    ``max_concurrent_research_units``; a sub-query whose search fails is marked failed, the
    others go on, and the phase is degraded saying which failed and why. Then settle the sources' ids and compress the topics not compressed
    inline.

    Args:
        state: the run's state.
        ctx: the run's context (config, providers, events, cancellation).
    """
    cfg = ctx.config
    pending = state.pending_sub_queries()
    before = len(state.sources)
    limit = asyncio.Semaphore(cfg.gathering.max_concurrent_research_units)
    failures: list[str] = []

    async def run_one(sq: SubQuery) -> None:
        async with limit:
            ctx.cancel.check()
            ctx.say(f"researching {sq.id}: {sq.query}")
            try:
                await research_topic(state, ctx, sq, Phase.GATHERING, settle=False)
                sq.status = SubQueryStatus.COMPLETED
            except SearchError as exc:
                # One failed sub-query does not stop the others.
                sq.status = SubQueryStatus.FAILED
                sq.error = str(exc)
                failures.append(f"{sq.id}: {exc}")
            ctx.events.emit(
                state,
                EventKind.TOPIC_COMPLETED,
                {
                    "sub_query": sq.id,
                    "status": sq.status.value,
                    "sources": len(state.sources_for(sq.id)),
                },
            )
            await ctx.checkpoint(state)

    try:
        await asyncio.gather(*(run_one(sq) for sq in pending))
    finally:
        # Final ids and citations in sub-query order, whatever order researchers finished in
        # (also when the round was cancelled or timed out, so a saved state has final ids).
        settle_sources(state)
    _report_failures(state, failures, len(pending), ctx.search)
    if cfg.summaries.enable_compression and not cfg.summaries.inline_compression:
        await compress_pending_topics(state, ctx, Phase.GATHERING)
    if pending:  # every topic researcher read the guidance: it has been used
        state.consume_guidance(Phase.GATHERING)
    return PhaseReport(
        Phase.GATHERING,
        {
            "sub_queries_run": len(pending),
            "new_sources": len(state.sources) - before,
            "source_count": len(state.sources),
            "failed": len(failures),
        },
        failures,
    )


UNREAD_SHOWN = 5  # unreadable files named in the warning; the rest are counted


def _report_failures(
    state: ResearchState, failures: list[str], searched: int, search: object
) -> None:
    """A search that failed, or a corpus file that could not be read, is research the run
    could not do: the phase says so. A corpus file read in a guessed encoding is one to
    check: the phase warns."""
    _report_unread(state, unread_files(search))
    _report_guessed(state, guessed_encodings(search))
    if searched_by_words_alone(search):
        warn_once(state, Phase.GATHERING.value, WORDS_ALONE)
    if failures:
        degrade_phase(
            state,
            Phase.GATHERING.value,
            f"{len(failures)} of {searched} sub-query searches failed: " + "; ".join(failures),
        )


def _report_unread(state: ResearchState, unread: list[SkippedFile]) -> None:
    """Files of the corpus that could not be read were not searched: the first gathering
    whose record stands that finds them says which (a later one would only repeat it)."""
    if not unread:
        return
    named = _named([f"{f.path} ({f.reason})" for f in unread])
    problem = f"{len(unread)} corpus file(s) could not be read, so were not searched: {named}"
    # Said once: by a standing run (one superseded by a resume no longer says it).
    if not any(problem in w for w in state.run_warnings()):
        degrade_phase(state, Phase.GATHERING.value, problem)


def _named(files: list[str]) -> str:
    """The first UNREAD_SHOWN of ``files``, the rest counted."""
    more = f"; and {len(files) - UNREAD_SHOWN} more" if len(files) > UNREAD_SHOWN else ""
    return "; ".join(files[:UNREAD_SHOWN]) + more


def _report_guessed(state: ResearchState, guessed: dict[str, str]) -> None:
    """Files of the corpus that are not UTF-8 were read in the encoding detected for them,
    which may be wrong: a warning (nothing was lost, the phase stays ok) that names them,
    given once like unreadable files."""
    if not guessed:
        return
    named = _named([f"{path} (read as {enc})" for path, enc in guessed.items()])
    warning = (
        f"{len(guessed)} corpus file(s) are not UTF-8 and were read in the encoding detected "
        f"for each; if their text looks wrong, re-save them as UTF-8: {named}"
    )
    warn_once(state, Phase.GATHERING.value, warning)


# Measured without wordllama (docs/results.md, session 34): facts over Click's docs 0.44 →
# 0.21, over ../shared/seeds 1.00 → 0.86.
WORDS_ALONE = (
    "the corpus was searched by words alone, without dense vectors (wordllama is not "
    "installed), so passages worded differently from the question were missed: install "
    "the extra (pip install 'deepresearch-sdk[vectors]') and run again"
)


async def compress_pending_topics(state: ResearchState, ctx: RunContext, phase: Phase) -> int:
    """The global (batch) compression step: compress every topic not yet compressed."""
    todo = [
        (sq, t)
        for t in state.topic_results
        if t.compressed_findings is None and t.source_ids
        for sq in [state.sub_query(t.sub_query_id)]
        if sq is not None
    ]
    await asyncio.gather(*(compress_topic(state, ctx, sq, t, phase) for sq, t in todo))
    return len(todo)
