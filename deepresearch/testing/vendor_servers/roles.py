"""Answers for every role's output schema, used by whole-session tests over the fakes."""

from __future__ import annotations

import html
import re

from deepresearch.testing.vendor_servers.base import JSON, schema_name_in

_SOURCE = re.compile(r"^\[(\d+)\] (?:\(ID: ([\w-]+)\) )?(.+)$", re.MULTILINE)
# Sources wrapped in tags by deepresearch.phases.messages: <source n="3" id="src-3" title="…"
_TAGGED = re.compile(r'^<source n="(\d+)"(?: id="([\w/-]+)")?(?: title="([^"]*)")?', re.M)
_QUESTION = re.compile(
    r"^(?:Research question|Research Query|Original Research Query): (.+)$", re.M
)

Cited = list[tuple[int, str, str]]  # (citation number, source id or "", title)


# The free-text roles (deepresearch.roles: TextOutput types), told apart by their prompt.
_TEXT_ROLES = {"You write the final research report": "ReportDraft"}


def text_role_in(prompt: str) -> str:
    """The output type a free-text request (no schema) is for, or "" for none."""
    return next((name for marker, name in _TEXT_ROLES.items() if marker in prompt), "")


def output_name(body: JSON) -> str:
    """The output type a recorded OpenAI or Anthropic request body asks for: its native
    schema or tool, the schema named in a prompt-and-parse prompt, or a free-text role."""
    native = (body.get("response_format") or {}).get("json_schema", {}).get("name")
    tool = (body.get("tool_choice") or {}).get("name")
    texts = [str(body.get("system", ""))] + [
        str(m.get("content", "")) for m in body.get("messages", [])
    ]
    prompt = "\n\n".join(texts)
    return str(native or tool or schema_name_in(prompt) or text_role_in(prompt))


def as_text(data: JSON) -> str:
    """A free-text role's answer: the one string of its answer object."""
    return next((v for v in data.values() if isinstance(v, str)), "")


def cut_to_limit(text: str, max_tokens: object) -> tuple[str, bool]:
    """The text as a model with ``max_tokens`` output tokens (4 characters a token) would
    send it, and whether it was cut off there."""
    if not isinstance(max_tokens, int) or len(text) <= max_tokens * 4:
        return text, False
    return text[: max_tokens * 4], True


def role_answer(schema: str, prompt: str) -> JSON:
    """A valid, modest answer for each role's output schema (see deepresearch.roles), citing
    the real source ids and [n] numbers found in the prompt, and never asking to go on."""
    found = _QUESTION.search(prompt)
    question = found.group(1).strip() if found else "the question"
    sources: Cited = [(int(n), sid, t.strip()) for n, sid, t in _SOURCE.findall(prompt)]
    sources += [(int(n), sid, html.unescape(t)) for n, sid, t in _TAGGED.findall(prompt)]
    cited = [s for s in sources if s[1]] or sources
    if schema == "ClarifyOutput":
        return {"need_clarification": False, "verification": f"Researching: {question}"}
    if schema == "BriefOutput":
        return {"research_brief": f"Find well-sourced evidence about: {question}"}
    if schema == "PlanOutput":
        angles = ("history and origins", "effects and consequences")
        queries = [{"query": f"{question} {a}", "priority": i + 1} for i, a in enumerate(angles)]
        return {"research_brief": f"Evidence about {question}", "sub_queries": queries}
    if schema == "SummaryOutput":
        return _summary(prompt)
    if schema == "ReflectOutput":
        return {"research_complete": True, "rationale": "The sources cover the sub-query."}
    if schema == "CompressOutput":
        lines = [f"- {title} [{n}]" for n, _, title in cited] or ["- No sources."]
        return {"compressed": "\n".join(lines)}
    if schema == "ThinkOutput":
        return {"gap_analysis": "The sub-queries are covered by the sources.", "gaps": []}
    if schema == "DelegationOutput":
        return {"research_complete": True, "rationale": "Coverage is sufficient."}
    if schema == "CoverageAssessment":
        return {"overall_coverage": "sufficient", "rationale": "Enough diverse sources."}
    if schema == "AnalysisOutput":
        return _analysis(question, cited)
    if schema == "ReportDraft":
        return _report(question, sources)
    if schema == "RefinementOutput":
        return {"iteration_recommendation": {"should_iterate": False, "rationale": "Done."}}
    if schema == "VerifyOutput":
        return _verdicts(prompt)
    if schema == "CondenseOutput":
        text = re.sub(r"</?source[^>]*>", "", prompt.split("Text:", 1)[-1])
        return {"text": text.strip()[:400]}
    return {}


def _summary(prompt: str) -> JSON:
    page = prompt[prompt.find("<source") :] if "<source" in prompt else prompt
    content = re.sub(r"</?source[^>]*>", "", page).strip()
    first = re.split(r"(?<=[.!?])\s", content, maxsplit=1)[0][:300]
    return {"executive_summary": content[:400] or "No content.", "key_excerpts": [first]}


def _analysis(question: str, cited: Cited) -> JSON:
    findings = [
        {
            "content": f"{title} bears on {question}.",
            "confidence": "medium",
            "source_ids": [sid],
            "category": "Evidence",
        }
        for _, sid, title in cited[:4]
        if sid
    ]
    return {"findings": findings, "gaps": []}


def _report(question: str, sources: Cited) -> JSON:
    cites = "".join(f"[{n}]" for n, _, _ in sources[:4])
    body = f"The sources agree on the main points {cites}." if cites else "No sources."
    sections = (
        "Executive summary",
        "Key findings",
        "Conflicting information",
        "Gaps and limitations",
        "Conclusion",
    )
    markdown = f"# {question}\n\n" + "\n\n".join(f"## {h}\n\n{body}" for h in sections)
    return {"markdown": markdown}


def _verdicts(prompt: str) -> JSON:
    claims = re.findall(r"^- (cl-\d+): .* \(cites ((?:\[\d+\](?:, )?)+)\)$", prompt, re.M)
    return {
        "verdicts": [
            {
                "claim_id": cid,
                "status": "supported",
                "supporting_citations": [int(n) for n in re.findall(r"\d+", cites)],
                "rationale": "The cited source states it.",
            }
            for cid, cites in claims
        ]
    }
