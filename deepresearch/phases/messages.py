"""The user message of each role, built from its structured inputs (see ``roles``).

Everything that came from a search or a file is wrapped in a ``<source>`` tag (see
``deepresearch.untrusted``); the system prompts say such text is data, never instructions.
"""

from __future__ import annotations

from deepresearch.phases.common import guidance_block
from deepresearch.roles import (
    AnalyzeInputs,
    BriefInputs,
    ClarifyInputs,
    CompressInputs,
    PlanInputs,
    RefineInputs,
    ReflectInputs,
    SourceText,
    SummarizeInputs,
    SupervisionInputs,
    SynthesizeInputs,
    VerifyInputs,
)
from deepresearch.state.models import passage_lines
from deepresearch.text import escape_citation_markers
from deepresearch.untrusted import source_block


def source_view(
    s: SourceText, *, with_text: bool = True, with_id: bool = True, around: bool = False
) -> str:
    """One source as the prompts show it: number, id, title, URL, domain, then its text;
    with ``around``, the URLs of the passages just before and after a passage."""
    attrs = {"n": str(s.citation)}
    if with_id:
        attrs["id"] = s.id
    attrs |= {"title": s.title, "url": s.url, "domain": s.domain}
    if around:
        attrs |= _around(s)
    if s.quality not in ("", "unknown"):
        attrs["quality"] = s.quality
    lines = []
    if s.snippet and (not with_text or not s.text):
        lines.append(f"Snippet: {s.snippet}")
    if with_text and s.text:
        lines.append(s.text)
    return source_block(attrs, "\n".join(lines))


def _around(s: SourceText) -> dict[str, str]:
    """The URLs of the passages around passage ``s``, as "before" and "after"."""
    placed: dict[str, str] = {}
    for url in s.around:
        lines = passage_lines(url)
        if lines is not None and s.lines is not None:
            placed["before" if lines[0] < s.lines[0] else "after"] = url
    return placed


def _today(today: str) -> list[str]:
    return [f"Today's date: {today}."] if today else []


def _brief(brief: str | None) -> list[str]:
    return ["", "Research brief:", brief] if brief else []


def clarify_user(i: ClarifyInputs) -> str:
    """The clarifier's user message: today's date and the question.

    Args:
        i: the clarifier's inputs.
    """
    return "\n".join([*_today(i.today), f"Research question: {i.question}"])


def brief_user(i: BriefInputs) -> str:
    """The briefer's user message: the question, the clarification exchange so far and
    any guidance.

    Args:
        i: the briefer's inputs.
    """
    lines = [*_today(i.today), f"Research question: {i.question}"]
    if i.clarifying_question and i.clarification_answer:
        lines += [f"We asked: {i.clarifying_question}", f"They answered: {i.clarification_answer}"]
    elif i.clarification_answer:
        lines.append(f"The person added: {i.clarification_answer}")
    if i.verification:
        lines.append(f"Understanding so far: {i.verification}")
    return "\n".join(lines) + guidance_block(i.guidance)


def plan_user(i: PlanInputs) -> str:
    """The planner's user message: the question, brief, sub-query limit, scout results and
    the sub-queries not to repeat.

    Args:
        i: the planner's inputs.
    """
    lines = [*_today(i.today), f"Research question: {i.question}", *_brief(i.research_brief)]
    lines += ["", f"Plan at most {i.max_sub_queries} sub-queries."]
    if i.scout:
        lines += ["", "A first search found:"]
        lines += [
            source_block({"n": str(n), "title": h.title}, h.snippet)
            for n, h in enumerate(i.scout, 1)
        ]
    if i.existing_queries:
        lines += [
            "",
            "Already researched (do not repeat):",
            *[f"- {q}" for q in i.existing_queries],
        ]
    return "\n".join(lines) + guidance_block(i.guidance)


def summarize_user(i: SummarizeInputs) -> str:
    """The summarizer's user message: the research focus and the page to summarize.

    Args:
        i: the summarizer's inputs.
    """
    lines = [*_today(i.today)]
    if i.question:
        lines.append(f"Research question: {i.question}")
    lines += [
        f"Research focus: {i.query}",
        "",
        source_block({"title": i.title, "url": i.url}, i.content),
    ]
    return "\n".join(lines)


def reflect_user(i: ReflectInputs) -> str:
    """The topic researcher's user message after a search: its sub-query, tool calls
    used, searches run, what they brought, the sources and what it may extract.

    Args:
        i: the researcher's inputs.
    """
    lines = [*_today(i.today), f"Research question: {i.question}", *_brief(i.research_brief)]
    lines += ["", f"Your sub-query: {i.sub_query}"]
    if i.perspective:
        lines.append(f"Perspective: {i.perspective}")
    if i.evidence_needed:
        lines.append(f"Evidence needed: {i.evidence_needed}")
    lines += [
        "",
        f"Tool calls used: {i.tool_calls_used} of {i.max_tool_calls}",
        "Searches run: " + "; ".join(f'"{q}"' for q in i.queries_run),
        i.novelty_summary,
        "",
        f"Sources found ({len(i.sources)}):",
        *[source_view(s, with_id=False, around=True) for s in i.sources],
    ]
    if i.max_extract and i.extractable_urls:
        lines += ["", f"You may list at most {i.max_extract} of these URLs in urls_to_extract."]
    elif not i.max_extract:
        lines += ["", "Extraction is off: leave urls_to_extract empty."]
    return "\n".join(lines) + guidance_block(i.guidance)


def compress_user(i: CompressInputs) -> str:
    """The compressor's user message: the sub-query, its searches and its sources.

    Args:
        i: the compressor's inputs.
    """
    lines = [
        *_today(i.today),
        f"Research question: {i.question}",
        f"Sub-query: {i.sub_query}",
        "Searches run: " + "; ".join(f'"{q}"' for q in i.queries),
        "",
        "Sources:",
        *[source_view(s, with_id=False) for s in i.sources],
    ]
    return "\n".join(lines)


def supervise_user(i: SupervisionInputs) -> str:
    """The supervisor's user message (all three steps): coverage per sub-query, the
    change since the last round, topic digests, earlier rounds and, for the delegate step,
    the gap analysis.

    Args:
        i: the supervisor's inputs.
    """
    lines = [*_today(i.today), f"Research question: {i.question}", *_brief(i.research_brief)]
    lines += ["", f"Supervision round {i.round} of {i.max_rounds}.", "", "Coverage per sub-query:"]
    for c in i.coverage:
        quality = ", ".join(f"{k} {v}" for k, v in sorted(c.quality.items())) or "none rated"
        verdict = "sufficient" if c.sufficient else "insufficient"
        lines.append(
            f"- {c.sub_query_id} ({c.status.value}) {c.query}: {c.source_count} sources from "
            f"{c.domains} domains (quality: {quality}) — {verdict}"
        )
    if i.delta:
        lines += ["", "Change since the last round:", *i.delta]
    for t in i.topics:
        lines += ["", source_block({"topic": t.sub_query_id, "query": t.query}, t.compressed)]
    if i.history:
        lines += ["", "Earlier rounds:", *i.history]
    if i.gap_analysis:
        lines += ["", "Gap analysis:", i.gap_analysis, *[f"- {g}" for g in i.gaps]]
    lines += ["", "Existing sub-queries (do not repeat):", *[f"- {q}" for q in i.existing_queries]]
    lines.append(f"At most {i.max_directives} directives or follow-up queries.")
    return "\n".join(lines) + guidance_block(i.guidance)


def analyze_user(i: AnalyzeInputs) -> str:
    """The analyzer's user message: the question's parts, topic notes, sources and the
    findings already known.

    Args:
        i: the analyzer's inputs.
    """
    lines = [*_today(i.today), f"Research question: {i.question}", *_brief(i.research_brief)]
    if i.parts:
        lines += ["", "Parts of the question:", *[f"- {p}" for p in i.parts]]
    if i.topics:
        lines += ["", "Researchers' notes per topic:"]
        lines += [
            source_block({"topic": t.sub_query_id, "query": t.query}, t.compressed)
            for t in i.topics
        ]
    lines += ["", "Sources:", *[source_view(s) for s in i.sources]]
    if i.known_findings:
        lines += ["", "Already known (do not repeat):", *[f"- {f}" for f in i.known_findings]]
    return "\n".join(lines) + guidance_block(i.guidance)


def synthesize_user(i: SynthesizeInputs) -> str:
    """The report writer's user message: findings, the evidence behind them, open gaps,
    the numbered sources and the run's counts.

    Args:
        i: the report writer's inputs.
    """
    lines = [*_today(i.today), f"Research question: {i.question}", *_brief(i.research_brief)]
    lines += ["", "Findings:"]
    for f in i.findings:
        cites = "".join(f"[{c}]" for c in f.citations)
        theme = f", theme: {f.category}" if f.category else ""
        # the source's own "[1, 2]" escaped: the writer copies statements with their markers
        said = escape_citation_markers(f.content)
        lines.append(f"- {said} {cites} (confidence: {f.confidence}{theme})")
    if i.notes or i.excerpts:
        lines += ["", "Evidence behind the findings:"]
        lines += [
            source_block({"topic": t.sub_query_id, "query": t.query}, t.compressed) for t in i.notes
        ]
        lines += [source_view(s, with_id=False) for s in i.excerpts]
    if i.gaps:
        lines += ["", "Knowledge gaps still open:", *[f"- {g}" for g in i.gaps]]
    lines += ["", "Sources (cite by number):"]
    lines += [f"[{s.citation}] {s.title} — {s.url} (quality: {s.quality})" for s in i.sources]
    lines += [
        "",
        f"Iteration {i.iteration} of {i.max_iterations}; {i.source_count} sources examined, "
        f"{i.high_quality_count} rated high quality.",
    ]
    return "\n".join(lines) + guidance_block(i.guidance)


def refine_user(i: RefineInputs) -> str:
    """The refiner's user message: the report's start, the open gaps and the run's counts.

    Args:
        i: the refiner's inputs.
    """
    lines = [
        *_today(i.today),
        f"Research question: {i.question}",
        "",
        "Start of the current report:",
    ]
    lines += [source_block({"kind": "report"}, i.report_excerpt), "", "Open knowledge gaps:"]
    for g in i.gaps:
        lines.append(f"- {g.id} (priority {g.priority}): {g.description}")
        if g.suggested_queries:
            lines.append(f"  suggested searches: {'; '.join(g.suggested_queries)}")
    lines += [
        "",
        f"Iteration {i.iteration} of {i.max_iterations}; {i.source_count} sources; "
        f"{i.finding_count} findings ({i.high_confidence_count} high confidence).",
        "Already asked: " + "; ".join(i.existing_queries),
    ]
    return "\n".join(lines) + guidance_block(i.guidance)


def verify_user(i: VerifyInputs) -> str:
    """The verifier's user message: the claims with their citations and the cited sources.

    Args:
        i: the verifier's inputs.
    """
    lines = [f"Research question: {i.question}", "", "Claims to check:"]
    lines += [
        f"- {c.id}: {c.text} (cites {', '.join(f'[{n}]' for n in c.citations)})" for c in i.claims
    ]
    lines += ["", "Cited sources:", *[source_view(s, with_id=False) for s in i.sources]]
    return "\n".join(lines) + guidance_block(i.guidance)
