"""Analysis: extract findings with confidence and sources, find gaps, rate sources."""

from __future__ import annotations

from deepresearch.budget_hooks import fit_sources
from deepresearch.context import RunContext
from deepresearch.llm import Fallback, ask, degrade_phase, warn_once
from deepresearch.offline.analysis import NO_SOURCE
from deepresearch.offline.commonness import everyday_share
from deepresearch.offline.coverage import PART_GAP
from deepresearch.offline.parts import question_parts
from deepresearch.offline.statements import shown_as_written
from deepresearch.phases.agents import ANALYZER
from deepresearch.phases.common import PhaseReport, source_text
from deepresearch.phases.coverage import check_parts, filed_part
from deepresearch.phases.gather import compress_pending_topics
from deepresearch.providers.readers import family
from deepresearch.providers.registry import OFFLINE
from deepresearch.roles import AnalysisOutput, AnalyzeInputs, FindingDraft, TopicDigest
from deepresearch.state import (
    AgentRole,
    Confidence,
    Finding,
    Gap,
    Phase,
    ResearchState,
    Source,
    SourceQuality,
    SubQueryStatus,
)
from deepresearch.text import containment, normalize_query, term_set, unique


async def analyze(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """Extract findings (each resting on gathered sources), rate sources and record gaps
    from this iteration's sources and compressed topics."""
    if ctx.config.summaries.enable_compression:
        await compress_pending_topics(state, ctx, Phase.ANALYSIS)  # the global fallback
    fresh = [s for s in state.sources if s.iteration == state.iteration]
    inputs = await _inputs(state, ctx, fresh)
    notes: list[str] = []
    means = "each top source's snippet kept as a low-confidence finding"
    fallback = Fallback(lambda _: _snippets(fresh), means, notes)
    out = await ask(ANALYZER, inputs, state, ctx, fallback=fallback)
    _warn_if_everyday_words_unweighed(state, ctx)
    added, unplaced = _add_findings(state, out)
    if unplaced:
        added += _report_unplaced(state, fresh, unplaced, added, notes)
    for upd in out.quality_updates:
        for sid in source_ids(state, [upd.source_id]):
            src = state.source(sid)
            if src is not None:
                src.quality = SourceQuality(upd.quality)
    closed = _close_gaps(state)
    _add_gaps(state, out)
    # Whatever the analyzer said, a part of the question no finding addresses is a gap.
    unaddressed, answered = check_parts(state)
    closed += answered
    note_searches(state)
    if unaddressed:
        notes.append(
            f"no finding addresses {len(unaddressed)} part(s) of the question: "
            + "; ".join(unaddressed)
        )
    return PhaseReport(
        Phase.ANALYSIS,
        {
            "new_findings": added,
            "finding_count": len(state.findings),
            "high_confidence_count": len(state.high_confidence_findings()),
            "gaps_closed": closed,
            "gap_count": len(state.unresolved_gaps()),
        },
        notes,
    )


# Measured without wordfreq (docs/results.md, session 68): facts over the documentation
# folders about 1 to 5 points lower (coverage.py's docs 0.342 → 0.296).
EVERYDAY_WORDS_UNWEIGHED = (
    "the offline analysis weighed the asker's everyday words that no source uses as if they "
    "were rare (wordfreq is not installed), so passages answering in other words ranked "
    "lower: install the extra (pip install 'deepresearch-sdk[vectors]') and run again"
)


def _warn_if_everyday_words_unweighed(state: ResearchState, ctx: RunContext) -> None:
    """The offline analyzer without wordfreq's frequencies finds fewer answers: the phase
    warns, once a run."""
    if ctx.models.specs(AgentRole.ANALYZER)[0] == OFFLINE and everyday_share() is None:
        warn_once(state, Phase.ANALYSIS.value, EVERYDAY_WORDS_UNWEIGHED)


async def _inputs(state: ResearchState, ctx: RunContext, fresh: list[Source]) -> AnalyzeInputs:
    """This iteration's sources and compressed topics, fitted to the analyzer's budget; a
    source a compressed topic carries is shown without its text."""
    fresh_ids = {s.id for s in fresh}
    topics = [
        TopicDigest(
            sub_query_id=t.sub_query_id,
            query=sq.query,
            compressed=t.compressed_findings,
            source_ids=t.source_ids,
        )
        for t in state.topic_results
        for sq in [state.sub_query(t.sub_query_id)]
        if sq is not None and t.compressed_findings and set(t.source_ids) & fresh_ids
    ]
    digested = {sid for t in topics for sid in t.source_ids}
    views = [source_text(s) for s in fresh]
    for v in views:
        if v.id in digested:
            v.text = ""  # the compressed topic carries this source's content
    views, topics = await fit_sources(state, ctx, Phase.ANALYSIS, views, topics)
    titles = state.source_titles()
    return AnalyzeInputs(
        question=state.question,
        research_brief=state.research_brief,
        sub_queries=[sq.query for sq in state.sub_queries],
        sources=views,
        topics=topics,
        known_findings=[f.content for f in state.findings],
        parts=[p.text for p in question_parts(state.question, titles)],
        titles=titles,
        answered_parts=list(dict.fromkeys(f.category for f in state.findings if f.category)),
        earlier_answers=_earlier_answers(state),
        guidance=state.consume_guidance(Phase.ANALYSIS),
        today=ctx.today,
    )


def _earlier_answers(state: ResearchState) -> list[tuple[str, list[str], str]]:
    """Each filed finding as (its part, its sources' titles and documents, its text)."""
    by_id = {s.id: s for s in state.sources}
    found = [(f, [by_id[i] for i in f.source_ids if i in by_id]) for f in state.findings]
    return [
        (f.category, [x for s in srcs for x in (s.title, s.document)], f.content)
        for f, srcs in found
        if f.category
    ]


def _snippets(fresh: list[Source]) -> AnalysisOutput:
    """Without the model each top source's snippet is a finding, marked low confidence
    (docs/providers.md, "When a model cannot be used")."""
    return AnalysisOutput(
        findings=[
            FindingDraft(content=s.snippet or s.content[:300], confidence="low", source_ids=[s.id])
            for s in fresh[:5]
            if (s.snippet or s.content)
        ]
    )


def _add_findings(state: ResearchState, out: AnalysisOutput) -> tuple[int, list[list[str]]]:
    """The analyzer's findings that rest on a gathered source join the state: their count,
    and the sources each finding left out named (it rests on no gathered source)."""
    added, unplaced = 0, []
    parts = [p.text for p in question_parts(state.question, state.source_titles())]
    for draft in out.findings:
        ids = source_ids(state, draft.source_ids)
        if not draft.content.strip():
            continue
        if not ids:  # a finding must rest on a gathered source
            unplaced.append(draft.source_ids)
            continue
        state.findings.append(
            Finding(
                id=state.next_id("f"),
                content=_as_written(draft.content.strip(), state, ids),
                confidence=Confidence(draft.confidence),
                source_ids=ids,
                category=_filed_under(draft.category, parts),
                iteration=state.iteration,
            )
        )
        added += 1
    return added, unplaced


def _as_written(content: str, state: ResearchState, ids: list[str]) -> str:
    """A finding stating a sentence of one of its sources (``ids``) as that source writes
    it, with the code spans a text file (Markdown, reStructuredText) marks: the analyzer
    read its words as plain text. An HTML page or a PDF shows its words without marks, which
    only its reading into text added."""
    for sid in ids:
        src = state.source(sid)
        if src is None or family(src.document) != "text":
            continue
        if content in (shown := shown_as_written(src.raw_content or src.content)):
            return shown[content]
    return content


def _filed_under(category: str | None, parts: list[str]) -> str | None:
    """A category that names a part of the question as the part's text ("Part 2: Who
    invented the radio?" → "who invented the radio"), so the report's sections and the
    coverage check see one name per part; any other category as the model gave it."""
    i = filed_part(category, parts)
    return parts[i] if i is not None else category


def _report_unplaced(
    state: ResearchState,
    fresh: list[Source],
    unplaced: list[list[str]],
    added: int,
    notes: list[str],
) -> int:
    """Findings naming no gathered source were left out: the phase says so, and when none
    was kept, each top source's snippet stands in so the sources are not lost. The count
    of stand-in findings added."""
    named = next((n for names in unplaced for n in names), None)
    example = f" (e.g. {named!r})" if named else " (none named)"
    problem = (
        f"{len(unplaced)} of {len(unplaced) + added} findings the analyzer stated named no "
        f"gathered source{example} and were left out"
    )
    stand_in = 0
    if not added and fresh:
        stand_in, _ = _add_findings(state, _snippets(fresh))
        problem += "; each top source's snippet kept as a low-confidence finding"
    notes.append(problem)
    degrade_phase(state, Phase.ANALYSIS.value, problem)
    return stand_in


def _add_gaps(state: ResearchState, out: AnalysisOutput) -> None:
    """Record the analyzer's new gaps; a gap already recorded (the same description) is not
    added again, but while it is open it takes the latest reason it is still open, except
    that a later iteration whose own sources match nothing of it (NO_SOURCE: the analyzer
    sees only that iteration's sources) leaves a reason about the earlier ones standing."""
    known = {g.description.lower(): g for g in state.gaps}
    for g in out.gaps:
        reason = " ".join(g.reason.split()) or None
        if not g.description.strip():
            continue
        if (old := known.get(g.description.strip().lower())) is not None:
            vaguer = reason == NO_SOURCE and old.reason is not None
            if reason and not vaguer and not old.addressed and old.resolution is None:
                old.reason = reason
            continue
        known[g.description.strip().lower()] = gap = Gap(
            id=state.next_id("gap"),
            description=g.description.strip(),
            reason=reason,
            suggested_queries=g.suggested_queries,
            priority=g.priority,
            iteration=state.iteration,
        )
        state.gaps.append(gap)


def source_ids(state: ResearchState, named: list[str]) -> list[str]:
    """The gathered sources a model named, whether as "src-6", "6", "[6]" (digests cite
    by number, the source list by id) or by URL; unknown names are dropped, order kept, no
    repeats."""
    by_citation = {str(s.citation): s.id for s in state.sources}
    by_url = {s.url.rstrip("/"): s.id for s in state.sources if s.url}
    known = {s.id for s in state.sources}
    out: list[str] = []
    for name in named:
        key = name.strip().strip("[]").strip()
        sid = key if key in known else by_citation.get(key.removeprefix("src-").strip())
        sid = sid or by_url.get(key.rstrip("/"))
        if sid is not None and sid not in out:
            out.append(sid)
    return out


def _close_gaps(state: ResearchState) -> int:
    """A gap is addressed when findings now cover it. One whose follow-ups ran and found
    nothing stays open: the refiner may try other searches for it while iterations remain
    (docs/concepts/refinement.md), and closes it when it has none. A gap standing for a
    part of the question is the part check's (``check_parts``): the words of "writer war"
    in findings about peace and about Tolstoy do not say who wrote *War*."""
    covered: set[str] = set()
    for f in state.findings:
        covered |= term_set(f.content)
    closed = 0
    for gap in state.unresolved_gaps():
        if gap.part is not None or gap.description.startswith(PART_GAP):
            continue
        wanted = term_set(" ".join(gap.suggested_queries) or gap.description)
        if wanted and containment(wanted, covered) >= 0.99:
            gap.addressed = True
            closed += 1
    return closed


def note_searches(state: ResearchState) -> None:
    """Each gap left unanswered records the searches run for it so far: its suggested
    queries and follow-ups that a sub-query or a researcher ran (``Gap.searched``), so the
    report says what was tried."""
    ran = {normalize_query(q) for t in state.topic_results for q in t.queries}
    ran |= {
        normalize_query(sq.query)
        for sq in state.sub_queries
        if sq.status == SubQueryStatus.COMPLETED
    }
    for gap in state.gaps:
        if gap.addressed:
            continue
        follow_ups = [sq.query for i in gap.follow_up_ids if (sq := state.sub_query(i))]
        tried = unique([*gap.searched, *gap.suggested_queries, *follow_ups])
        gap.searched = [q for q in tried if normalize_query(q) in ran]
