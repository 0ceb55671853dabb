"""What a finished run prints besides the report: the compact JSON result document
(``--json``, ``export --format json``) and the one-line summary on stderr."""

from __future__ import annotations

import json
import re
from typing import Any, TextIO

from deepresearch.state import ResearchState

RESULT_VERSION = 1


def result_document(state: ResearchState) -> dict[str, Any]:
    """The answer and what supports it, without page texts or internals: question,
    status, report Markdown, sources (with the report's citation numbers), findings,
    gaps and usage. ``export ID --format state`` gives the whole state instead."""
    numbers = (
        {sid: n for n, sid in enumerate(state.report.cited_source_ids, 1)} if state.report else {}
    )
    sources = sorted(
        state.sources, key=lambda s: (s.id not in numbers, numbers.get(s.id, 0), s.citation)
    )
    return {
        "result_version": RESULT_VERSION,
        "session_id": state.id,
        "question": state.question,
        "status": state.status.value,
        "phase": state.phase.value,
        "iteration": state.iteration,
        "error": state.error,
        "llm": state.llm,
        "search": state.search,
        "report": state.report.markdown if state.report else None,
        "sources": [
            {
                "citation": numbers.get(s.id),
                "id": s.id,
                "title": s.title,
                "url": s.url,
                "provider": s.provider,
                "quality": s.quality.value,
                "sub_query_id": s.sub_query_id,
            }
            for s in sources
        ],
        "findings": [
            {
                "id": f.id,
                "content": f.content,
                "confidence": f.confidence.value,
                "citations": [numbers[i] for i in f.source_ids if i in numbers],
                "source_ids": list(f.source_ids),
            }
            for f in state.findings
        ],
        "gaps": [
            {
                "id": g.id,
                "description": g.description,
                "reason": g.reason,
                "severity": g.severity,
                "addressed": g.addressed,
                "resolution": g.resolution,
            }
            for g in state.gaps
        ],
        "usage": usage_totals(state),
    }


def result_json(state: ResearchState) -> str:
    """The ``--json`` output for a finished run.

    Args:
        state: the run's state.
    """
    return json.dumps(result_document(state), ensure_ascii=False, indent=2)


def usage_totals(state: ResearchState) -> dict[str, Any]:
    """LLM calls, tokens, estimated cost and searches over the whole session."""
    return {
        "llm_calls": len(state.usage),
        "input_tokens": sum(u.input_tokens for u in state.usage),
        "output_tokens": sum(u.output_tokens for u in state.usage),
        "cost_usd": round(sum(u.cost_usd for u in state.usage), 6),
        "search_calls": sum(m.search_calls for m in state.metrics),
        "phase_seconds": round(sum(m.duration_s or 0.0 for m in state.metrics), 3),
    }


def summary_line(state: ResearchState, seconds: float) -> str:
    """One line for stderr after a run: time, sources cited/gathered, LLM calls, tokens, cost."""
    usage = usage_totals(state)
    cited = len(state.report.cited_source_ids) if state.report else 0
    tokens = usage["input_tokens"] + usage["output_tokens"]
    return (
        f"{state.status.value} in {seconds:.1f} s · {cited}/{len(state.sources)} sources cited"
        f" · {usage['llm_calls']} LLM calls · {tokens:,} tokens"
        f" · ${usage['cost_usd']:.4f} estimated"
    )


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def for_stream(text: str, stream: TextIO, *, is_json: bool) -> str:
    """``text`` as ``stream`` can encode it (an ASCII or cp1252 terminal would raise
    UnicodeEncodeError): JSON keeps every character as a ``\\uXXXX`` escape (the same
    data); other text shows ``?`` for what the stream cannot encode.

    Args:
        text: what to write.
        stream: where it goes (its ``encoding``).
        is_json: ``text`` is JSON (a document, or one per line).
    """
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        if is_json:  # JSON syntax is ASCII: only string contents can hold these
            return _NON_ASCII.sub(_json_escape, text)
        return text.encode(encoding, errors="replace").decode(encoding)
    return text


def _json_escape(match: re.Match[str]) -> str:
    # The json module's own escapes: \uXXXX, a surrogate pair beyond the BMP.
    return json.dumps(match.group())[1:-1]
