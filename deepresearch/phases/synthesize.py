"""Synthesis: write the cited Markdown report, then make its citations exact."""

from __future__ import annotations

import re

from deepresearch.budget.tokens import count_tokens
from deepresearch.budget_hooks import PROMPT_FRAME_TOKENS, fit_findings
from deepresearch.context import RunContext
from deepresearch.llm import Fallback, ask, degrade_phase
from deepresearch.offline import report as offline_report
from deepresearch.phases.agents import SYNTHESIZER
from deepresearch.phases.common import PhaseReport, source_text
from deepresearch.phases.messages import synthesize_user
from deepresearch.roles import (
    FindingBrief,
    SourceRef,
    SourceText,
    SynthesizeInputs,
    TopicDigest,
)
from deepresearch.state import AgentDecision, AgentRole, Citation, Phase, Report, ResearchState
from deepresearch.text import sub_citations

_SRC_ID = re.compile(r"\[(src-\d+)\]")
_SOURCES_HEADING = re.compile(r"^#{1,3}\s*(sources|references|bibliography)\b.*$", re.I | re.M)
_HEADING = re.compile(r"^(#{2,3})\s+(.+?)\s*$", re.M)
CUT_OFF_NOTE = (
    "*This report is incomplete: the model's answer was cut off at its output limit "
    "(Config.role_max_tokens['report']).*"
)


def synthesis_inputs(
    state: ResearchState, guidance: list[str], today: str = ""
) -> SynthesizeInputs:
    """The report writer's inputs from the state: findings with their citation numbers,
    the gaps left (open, or parts left unanswered) and the sources the findings cite.

    Args:
        state: the run's state.
        guidance: the steering notes for synthesis.
        today: today's date, for the prompt.
    """
    cite = {s.id: s.citation for s in state.sources}
    findings = [
        FindingBrief(
            id=f.id,
            content=f.content,
            confidence=f.confidence.value,
            citations=[cite[i] for i in f.source_ids if i in cite],
            category=f.category,
        )
        for f in state.findings
    ]
    used = {c for f in findings for c in f.citations}
    return SynthesizeInputs(
        question=state.question,
        research_brief=state.research_brief,
        findings=findings,
        gaps=[g.stated() for g in state.reported_gaps()],
        sources=[
            SourceRef(citation=s.citation, title=s.title, url=s.url, quality=s.quality.value)
            for s in state.sources
            if s.citation in used
        ],
        iteration=state.iteration,
        max_iterations=state.max_iterations,
        source_count=len(state.sources),
        high_quality_count=len(state.high_quality_sources()),
        guidance=guidance,
        today=today,
    )


async def synthesize(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """Write the report from the findings and the evidence behind them, fitted to the
    model's context; the extractive offline report stands in when the writer fails.

    Args:
        state: the run's state.
        ctx: the run's context (config, providers, events, cancellation).
    """
    inputs = synthesis_inputs(state, state.consume_guidance(Phase.SYNTHESIS), ctx.today)
    inputs.findings = await fit_findings(state, ctx, Phase.SYNTHESIS, inputs.findings)
    inputs.notes, inputs.excerpts = _evidence(state, inputs, _evidence_room(ctx, inputs))
    notes: list[str] = []
    # Nothing gathered is lost: fall back to the extractive report of the same findings.
    extractive = Fallback(
        lambda _: offline_report.synthesize(inputs), "wrote the extractive report instead", notes
    )
    draft = await ask(SYNTHESIZER, inputs, state, ctx, fallback=extractive)
    markdown = draft.markdown
    if draft.cut_off:
        # The model stopped at its output limit even after continuing: say so in the report.
        notes.append("the report was cut off at the model's output limit")
        markdown += f"\n\n{CUT_OFF_NOTE}"
    fidelity, level = _fidelity(state, ctx)
    state.report = finalize_report(markdown, state, fidelity=fidelity, level=level)
    if not state.report.cited_source_ids and inputs.sources:
        _replace_uncited(state, inputs, fidelity, level, notes)
    return PhaseReport(
        Phase.SYNTHESIS,
        {
            "has_report": True,
            "report_length": len(state.report.markdown),
            "citations": state.report.citations_count,
        },
        notes,
    )


def _replace_uncited(
    state: ResearchState,
    inputs: SynthesizeInputs,
    fidelity: float | None,
    level: str | None,
    notes: list[str],
) -> None:
    """A draft that cites none of the sources its findings rest on (a model that ignored
    the citation format, or answered in a sentence) would lose every gathered finding: the
    extractive report of the same findings stands in, and the phase says so."""
    extractive = offline_report.synthesize(inputs).markdown
    report = finalize_report(extractive, state, fidelity=fidelity, level=level)
    if not report.cited_source_ids:
        return  # the findings cite nothing the report could: nothing better to offer
    state.report = report
    problem = (
        f"the report writer's draft cited none of the {len(inputs.sources)} sources the "
        "findings rest on; the extractive report of the findings stands in"
    )
    notes.append(problem)
    degrade_phase(state, Phase.SYNTHESIS.value, problem)
    state.record(
        AgentDecision(
            agent=SYNTHESIZER.agent,
            action="synthesize_uncited",
            rationale=problem[:1].upper() + problem[1:],
            phase=Phase.SYNTHESIS,
            iteration=state.iteration,
            outputs={"cited_sources": len(report.cited_source_ids)},
        )
    )


def _evidence_room(ctx: RunContext, inputs: SynthesizeInputs) -> int | None:
    """Tokens left for evidence once the findings are in (None: no token management)."""
    if ctx.budget is None or not ctx.config.tokens.token_management_enabled:
        return None
    spec = ctx.models.specs(AgentRole.SYNTHESIZER)[0]
    used = count_tokens(SYNTHESIZER.system_prompt(inputs) + synthesize_user(inputs), spec)
    return ctx.budget.available(spec, Phase.SYNTHESIS.value) - used - PROMPT_FRAME_TOKENS


def _evidence(
    state: ResearchState, inputs: SynthesizeInputs, room: int | None
) -> tuple[list[TopicDigest], list[SourceText]]:
    """What the findings rest on, with the same [n] numbers: the lines of each topic's
    notes that cite a source the findings cite, then excerpts of cited sources no such
    line covers — in that order until ``room`` tokens are spent (whole lines only)."""
    cited = {c for f in inputs.findings for c in f.citations}
    left = room
    notes: list[TopicDigest] = []
    covered: set[int] = set()
    for topic in state.topic_results:
        sq = state.sub_query(topic.sub_query_id)
        if sq is None or not topic.compressed_findings:
            continue
        kept = []
        for line in topic.compressed_findings.splitlines():
            numbers = {int(n) for n in re.findall(r"\[(\d+)\]", line)}
            if not numbers & cited:
                continue
            cost = count_tokens(line)
            if left is not None and cost > left:
                break
            kept.append(line)
            covered |= numbers
            left = None if left is None else left - cost
        if kept:
            notes.append(
                TopicDigest(
                    sub_query_id=topic.sub_query_id, query=sq.query, compressed="\n".join(kept)
                )
            )
    excerpts: list[SourceText] = []
    for src in state.sources:
        if src.citation not in cited or src.citation in covered:
            continue
        view = source_text(src, limit=800)
        cost = count_tokens(view.text) + 20
        if left is not None and cost > left:
            break
        excerpts.append(view)
        left = None if left is None else left - cost
    return notes, excerpts


def _fidelity(state: ResearchState, ctx: RunContext) -> tuple[float | None, str | None]:
    if ctx.budget is None or not ctx.config.tokens.token_management_enabled:
        return None, None
    from deepresearch.budget.allocator import report_fidelity

    return report_fidelity(state)


def finalize_report(
    markdown: str,
    state: ResearchState,
    *,
    fidelity: float | None = None,
    level: str | None = None,
) -> Report:
    """Renumber citations 1..k by first appearance, drop any that name no gathered source,
    and append a sources list of exactly the cited sources."""
    by_citation = {s.citation: s for s in state.sources}
    by_id = {s.id: s for s in state.sources}
    body = _SOURCES_HEADING.split(markdown, maxsplit=1)[0].rstrip()
    body = _SRC_ID.sub(lambda m: f"[{by_id[m[1]].citation}]" if m[1] in by_id else "", body)
    order: list[str] = []

    def renumber(match: re.Match[str]) -> str:
        out = []
        for part in match[1].split(","):
            src = by_citation.get(int(part.strip()))
            if src is None:
                continue
            if src.id not in order:
                order.append(src.id)
            out.append(f"[{order.index(src.id) + 1}]")
        return "".join(out)

    body = sub_citations(body, renumber)
    body = re.sub(r"[ \t]+\n", "\n", body)
    lines = [body, ""]
    if fidelity is not None:
        lines += [f"*Content fidelity: {fidelity:.2f} ({level}).*", ""]
    lines += ["## Sources", ""]
    for n, sid in enumerate(order, 1):
        src = by_id[sid]
        lines.append(f"{n}. {src.title or src.url} — {src.url}")
    if not order:
        lines.append("No sources were cited.")
    text = "\n".join(lines) + "\n"
    confidence: dict[str, int] = {}
    for f in state.findings:
        confidence[f.confidence.value] = confidence.get(f.confidence.value, 0) + 1
    return Report(
        markdown=text,
        sections=[m[2] for m in _HEADING.finditer(text)],
        cited_source_ids=order,
        citations=[Citation.of(n, by_id[sid]) for n, sid in enumerate(order, 1)],
        question=state.question,
        word_count=len(text.split()),
        confidence_summary=confidence,
        fidelity=fidelity,
        fidelity_level=level,
        iteration=state.iteration,
    )
