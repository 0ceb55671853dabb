"""System prompts and user-message builders for each role (the seeds' prompt contracts).
Remote models read these; the JSON shape comes from each role's output schema."""

from __future__ import annotations

from deepresearch.phases.common import format_sources, guidance_block
from deepresearch.roles import (
    AnalyzeInputs,
    BriefInputs,
    ClarifyInputs,
    CompressInputs,
    CondenseInputs,
    PlanInputs,
    RefineInputs,
    ReflectInputs,
    SummarizeInputs,
    SupervisionInputs,
    SynthesizeInputs,
)

CLARIFY_SYSTEM = (
    "You decide whether a research question is clear enough to research. If it is "
    "ambiguous or too broad, set need_clarification and ask ONE short question. Otherwise "
    "restate your understanding in `verification`. Answer as JSON."
)
BRIEF_SYSTEM = (
    "Rewrite the research question as a research brief: maximise specificity, keep every "
    "constraint the person stated, leave unstated dimensions open rather than assumed, name "
    "source preferences (primary, official, peer-reviewed) and scope boundaries. Answer as JSON."
)
PLAN_SYSTEM = (
    "You are a research planning assistant. Decompose the query into 2-5 focused, "
    "non-overlapping sub-queries that can be researched independently (definition, "
    "mechanisms, examples, history, comparisons, recent developments). Priority 1 is highest. "
    "Also give a 2-3 sentence research_brief. Answer as JSON."
)
SUMMARIZE_SYSTEM = (
    "Summarise this search result for a researcher: an executive_summary of its relevant "
    "content and up to 5 key_excerpts quoted verbatim. Answer as JSON."
)
REFLECT_SYSTEM = (
    "You are a topic researcher pausing to think after a search. Assess whether the sources "
    "now cover the sub-query (3+ relevant sources is likely sufficient). Check the novelty "
    "tags: if the latest results are mostly [RELATED] or [DUPLICATE], set research_complete. "
    "Otherwise give a refined_query that is MORE SPECIFIC than what was already searched. "
    "If a snippet suggests rich detail behind a URL, list it in urls_to_extract (at most 2). "
    "Answer as JSON."
)
COMPRESS_SYSTEM = (
    "Reformat the findings below. DO NOT summarise: preserve every relevant fact. Cite each "
    "statement inline with its source number like [3]. Output: the queries made, the "
    "comprehensive findings as '- statement [n]' lines, and the source list. Answer as JSON "
    "with the text in `compressed`."
)
SUPERVISE_THINK_SYSTEM = (
    "You are a research lead reviewing coverage. Evaluate whether the findings substantively "
    "address the research brief's dimensions, considering both quantitative coverage (source "
    "count, domain diversity) and qualitative coverage (finding depth). Name the specific "
    "content gaps. Answer as JSON."
)
SUPERVISE_DELEGATE_SYSTEM = (
    "You are a research lead delegating tasks to specialised researchers. For each gap write "
    "a paragraph-length directive: what to research, from which perspective, what evidence is "
    "needed; priority 1-3. Directives must be MORE SPECIFIC than existing sub-queries and must "
    "not duplicate them. If nothing important is missing set research_complete. Answer as JSON."
)
SUPERVISE_ASSESS_SYSTEM = (
    "Assess research coverage per sub-query ('sufficient' = 2+ quality sources from diverse "
    "domains). Propose at most 3 follow-up queries that drill down rather than repeat. Answer "
    "as JSON."
)
ANALYZE_SYSTEM = (
    "You are a research analyst. Extract key findings from the sources, each with a "
    "confidence (low: single weak source; medium: multiple sources or one authoritative; high: "
    "multiple authoritative sources agree) and the ids of the sources supporting it "
    "(e.g. src-3). Identify 1-3 knowledge gaps with follow-up queries, and rate each source's "
    "quality (low/medium/high). Answer as JSON."
)
SYNTHESIZE_SYSTEM = (
    "You are a research synthesiser. Write a Markdown report with these sections: "
    "'## Executive summary', '## Key findings' (grouped by theme with ### headings), "
    "'## Conflicting information', '## Gaps and limitations', '## Conclusion'. Cite sources "
    "ONLY with their numbers in square brackets, like [2] or [2][5]; do not invent numbers "
    "and do not add a source list (it is appended for you). Distinguish well-supported "
    "findings from preliminary ones. Answer as JSON with the report in `markdown`."
)
REFINE_SYSTEM = (
    "You are a research refiner. For each knowledge gap judge severity and whether it is "
    "addressable, and give specific follow-up queries not already asked. Recommend iterating "
    "only if gaps are significant, addressable, and iterations remain. Answer as JSON."
)
CONDENSE_SYSTEM = (
    "Shorten the text to the requested level (condensed, compressed, key_points as bullets, "
    "or a one-sentence headline) within the token target, keeping the facts most relevant to "
    "the research question. Answer as JSON with the result in `text`."
)


def clarify_user(i: ClarifyInputs) -> str:
    return f"Today is {i.today}.\nResearch question: {i.question}"


def brief_user(i: BriefInputs) -> str:
    text = f"Today is {i.today}.\nResearch question: {i.question}"
    if i.clarification_answer:
        text += f"\nThe person clarified: {i.clarification_answer}"
    if i.verification:
        text += f"\nUnderstanding so far: {i.verification}"
    return text + guidance_block(i.guidance)


def plan_user(i: PlanInputs) -> str:
    text = f"Research Query: {i.question}\n"
    if i.research_brief:
        text += f"\nResearch Brief:\n{i.research_brief}\n"
    text += f"\nDecompose this into {i.max_sub_queries} or fewer focused sub-queries."
    if i.scout:
        text += "\n\nA first search found these entries:\n" + "\n".join(
            f"- {h.title}: {h.snippet}" for h in i.scout
        )
    if i.existing_queries:
        text += "\n\nAlready researched (do not repeat):\n" + "\n".join(
            f"- {q}" for q in i.existing_queries
        )
    return text + guidance_block(i.guidance)


def summarize_user(i: SummarizeInputs) -> str:
    return f"Research focus: {i.query}\nTitle: {i.title}\nURL: {i.url}\n\nContent:\n{i.content}"


def reflect_user(i: ReflectInputs) -> str:
    text = (
        f"Research question: {i.question}\nYour sub-query: {i.sub_query}\n"
        f"Tool calls used: {i.tool_calls_used}/{i.max_tool_calls}\n"
        f"Searches run: {'; '.join(i.queries_run)}\n{i.novelty_summary}\n\n"
        + format_sources(i.sources, with_text=False)
    )
    if i.extractable_urls:
        text += "\n\nURLs you may extract: " + ", ".join(i.extractable_urls[:10])
    return text + guidance_block(i.guidance)


def compress_user(i: CompressInputs) -> str:
    return (
        f"Research question: {i.question}\nSub-query: {i.sub_query}\n"
        f"Queries made: {'; '.join(i.queries)}\n\nSources:\n\n" + format_sources(i.sources)
    )


def supervise_user(i: SupervisionInputs) -> str:
    lines = [f"Research question: {i.question}"]
    if i.research_brief:
        lines.append(f"Research brief (scope): {i.research_brief}")
    lines.append(f"Supervision round {i.round}/{i.max_rounds}\n\nCoverage per sub-query:")
    for c in i.coverage:
        lines.append(
            f"- {c.sub_query_id} [{c.status.value}] {c.query}: {c.source_count} sources, "
            f"{c.domains} domains, quality {c.quality} -> "
            + ("SUFFICIENT" if c.sufficient else "INSUFFICIENT")
        )
    if i.delta:
        lines += ["", "Coverage delta since last round:", *i.delta]
    for t in i.topics:
        lines += ["", f"**Key findings for {t.sub_query_id}:**", t.compressed[:2000]]
    if i.history:
        lines += ["", "Earlier supervision notes:", *i.history]
    if i.gap_analysis:
        lines += ["", "Gap analysis:", i.gap_analysis, *[f"- {g}" for g in i.gaps]]
    lines += [
        "",
        "Existing sub-queries (do not duplicate):",
        *[f"- {q}" for q in i.existing_queries],
    ]
    lines.append(f"At most {i.max_directives} directives or follow-ups.")
    return "\n".join(lines) + guidance_block(i.guidance)


def analyze_user(i: AnalyzeInputs) -> str:
    text = f"Original Research Query: {i.question}\n"
    if i.research_brief:
        text += f"\nResearch Brief:\n{i.research_brief}\n"
    if i.topics:
        text += "\nCompressed findings per topic:\n" + "\n\n".join(
            f"## {t.query}\n{t.compressed}" for t in i.topics
        )
    text += "\n\nSources to Analyze:\n\n" + format_sources(i.sources)
    if i.known_findings:
        text += "\n\nAlready known (do not repeat):\n" + "\n".join(
            f"- {f}" for f in i.known_findings
        )
    return text + guidance_block(i.guidance)


def synthesize_user(i: SynthesizeInputs) -> str:
    lines = [f"Original Research Query: {i.question}"]
    if i.research_brief:
        lines += ["", "## Research Brief", i.research_brief]
    lines += ["", "Findings to Synthesize:"]
    for n, f in enumerate(i.findings, 1):
        cites = "".join(f"[{c}]" for c in f.citations)
        lines.append(
            f"Finding {n} (confidence: {f.confidence}, theme: {f.category}): {f.content} {cites}"
        )
    if i.gaps:
        lines += ["", "Knowledge Gaps Identified:", *[f"- {g}" for g in i.gaps]]
    lines += ["", "Sources (cite by number):"]
    lines += [f"[{s.citation}] {s.title} — {s.url} (quality: {s.quality})" for s in i.sources]
    lines += [
        "",
        f"Iteration: {i.iteration}/{i.max_iterations}",
        f"Source Count: {i.source_count} sources examined",
        f"High-Quality Sources: {i.high_quality_count} sources",
    ]
    return "\n".join(lines) + guidance_block(i.guidance)


def refine_user(i: RefineInputs) -> str:
    lines = [
        f"Original Research Query: {i.question}",
        "",
        "Current Report Summary:",
        i.report_excerpt,
    ]
    lines += ["", "Identified Knowledge Gaps:"]
    for g in i.gaps:
        lines.append(f"Gap (ID: {g.id}, priority: {g.priority}): {g.description}")
        if g.suggested_queries:
            lines.append(f"  Suggested queries: {'; '.join(g.suggested_queries)}")
    lines += [
        "",
        f"Iteration: {i.iteration}/{i.max_iterations}; sources {i.source_count}; findings "
        f"{i.finding_count} ({i.high_confidence_count} high confidence)",
        "Already asked: " + "; ".join(i.existing_queries),
    ]
    return "\n".join(lines) + guidance_block(i.guidance)


def condense_user(i: CondenseInputs) -> str:
    return (
        f"Research question: {i.query}\nLevel: {i.level}\nTarget: at most {i.target_tokens} "
        f"tokens\n\nText:\n{i.text}"
    )
