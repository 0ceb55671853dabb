"""ResearchState as pandas DataFrames: one function per table, explicit dtypes, indexed by id.

Every function takes a :class:`ResearchState` and returns a new DataFrame; the state is
never modified. Columns and dtypes are the same whether the state is empty or not, so
code written against an early phase keeps working later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from deepresearch.errors import InputError
from deepresearch.state import (
    Confidence,
    Phase,
    ResearchState,
    Source,
    SourceQuality,
    SubQueryStatus,
)

# Ordered categoricals so sorting and filtering (`df[df.confidence >= "high"]`) follow meaning.
PHASE = pd.CategoricalDtype([p.value for p in Phase], ordered=True)
CONFIDENCE = pd.CategoricalDtype([c.value for c in Confidence], ordered=True)
QUALITY = pd.CategoricalDtype([q.value for q in SourceQuality], ordered=True)
SUB_QUERY_STATUS = pd.CategoricalDtype([s.value for s in SubQueryStatus])
SEVERITY = pd.CategoricalDtype(["minor", "moderate", "critical"], ordered=True)
NOVELTY = pd.CategoricalDtype(["new", "related", "duplicate"])
ORIGIN = pd.CategoricalDtype(["plan", "supervision", "refinement", "user", "guidance"])
TEXT = pd.StringDtype()
INT = pd.Int64Dtype()
FLOAT = pd.Float64Dtype()
BOOL = pd.BooleanDtype()
TIME = pd.DatetimeTZDtype(unit="us", tz="UTC")
OBJECT = "object"  # lists of ids or queries

SOURCE_COLUMNS: dict[str, Any] = {
    "citation": INT,
    "title": TEXT,
    "url": TEXT,
    "domain": TEXT,
    "provider": TEXT,
    "quality": QUALITY,
    "sub_query_id": TEXT,
    "iteration": INT,
    "novelty": NOVELTY,
    "novelty_score": FLOAT,
    "summarized": BOOL,
    "published": TEXT,
    "snippet": TEXT,
    "content_chars": INT,
}


def _typed(rows: Sequence[Mapping[str, Any]], columns: Mapping[str, Any]) -> pd.DataFrame:
    """One typed Series per column, so an empty table has the same dtypes as a full one."""
    data = {name: pd.Series([row[name] for row in rows], dtype=dt) for name, dt in columns.items()}
    return pd.DataFrame(data, index=pd.RangeIndex(len(rows)))


def _by_id(rows: Sequence[Mapping[str, Any]], columns: Mapping[str, Any]) -> pd.DataFrame:
    return _typed(rows, {"id": TEXT, **columns}).set_index("id")


def _numbered(
    rows: Sequence[Mapping[str, Any]], columns: Mapping[str, Any], name: str
) -> pd.DataFrame:
    """Records without an id (decisions, phase runs, calls) are numbered from 0, oldest first."""
    frame = _typed(rows, columns)
    frame.index.name = name
    return frame


def _source_row(source: Source) -> dict[str, Any]:
    return {
        "id": source.id,
        "citation": source.citation,
        "title": source.title,
        "url": source.url,
        "domain": source.domain,
        "provider": source.provider,
        "quality": source.quality.value,
        "sub_query_id": source.sub_query_id,
        "iteration": source.iteration,
        "novelty": source.novelty.value if source.novelty else None,
        "novelty_score": source.novelty_score,
        "summarized": source.summarized,
        "published": source.published,
        "snippet": source.snippet,
        "content_chars": len(source.content),
    }


def sources_frame(state: ResearchState) -> pd.DataFrame:
    """Sources, one row each; `citation` is the `[n]` the report uses."""
    return _by_id([_source_row(s) for s in state.sources], SOURCE_COLUMNS)


def findings_frame(state: ResearchState) -> pd.DataFrame:
    """Findings with their confidence and the citations that support them."""
    citation_of = {s.id: s.citation for s in state.sources}
    rows = [
        {
            "id": f.id,
            "content": f.content,
            "confidence": f.confidence.value,
            "category": f.category,
            "iteration": f.iteration,
            "source_ids": list(f.source_ids),
            "citations": [citation_of[i] for i in f.source_ids if i in citation_of],
            "n_sources": len(f.source_ids),
        }
        for f in state.findings
    ]
    columns = {
        "content": TEXT,
        "confidence": CONFIDENCE,
        "category": TEXT,
        "iteration": INT,
        "source_ids": OBJECT,
        "citations": OBJECT,
        "n_sources": INT,
    }
    return _by_id(rows, columns)


def finding_sources(state: ResearchState, finding_id: str) -> pd.DataFrame:
    """The sources a finding cites, in the order it cites them (same columns as sources)."""
    finding = next((f for f in state.findings if f.id == finding_id), None)
    if finding is None:
        known = [f.id for f in state.findings]
        raise InputError(f"No finding {finding_id!r}; findings are {known}.")
    by_id = {s.id: s for s in state.sources}
    cited = [by_id[i] for i in finding.source_ids if i in by_id]
    return _by_id([_source_row(s) for s in cited], SOURCE_COLUMNS)


def gaps_frame(state: ResearchState) -> pd.DataFrame:
    """Gaps found by analysis or refinement: how to fill them, and whether or why they closed."""
    rows = [
        {
            "id": g.id,
            "description": g.description,
            "severity": g.severity,
            "priority": g.priority,
            "addressed": g.addressed,
            "resolution": g.resolution,
            "iteration": g.iteration,
            "suggested_queries": list(g.suggested_queries),
            "follow_up_ids": list(g.follow_up_ids),
        }
        for g in state.gaps
    ]
    columns = {
        "description": TEXT,
        "severity": SEVERITY,
        "priority": INT,
        "addressed": BOOL,
        "resolution": TEXT,
        "iteration": INT,
        "suggested_queries": OBJECT,
        "follow_up_ids": OBJECT,
    }
    return _by_id(rows, columns)


def sub_queries_frame(state: ResearchState) -> pd.DataFrame:
    """Sub-queries with status, origin (plan, supervision, user, ...) and sources found."""
    counts: dict[str, int] = {}
    for s in state.sources:
        if s.sub_query_id:
            counts[s.sub_query_id] = counts.get(s.sub_query_id, 0) + 1
    rows = [
        {
            "id": sq.id,
            "query": sq.query,
            "status": sq.status.value,
            "origin": sq.origin,
            "priority": sq.priority,
            "iteration": sq.iteration,
            "sources": counts.get(sq.id, 0),
            "rationale": sq.rationale,
            "directive_id": sq.directive_id,
            "error": sq.error,
        }
        for sq in state.sub_queries
    ]
    columns = {
        "query": TEXT,
        "status": SUB_QUERY_STATUS,
        "origin": ORIGIN,
        "priority": INT,
        "iteration": INT,
        "sources": INT,
        "rationale": TEXT,
        "directive_id": TEXT,
        "error": TEXT,
    }
    return _by_id(rows, columns)


def decisions_frame(state: ResearchState) -> pd.DataFrame:
    """The audit trail of agent decisions, oldest first (index: running number)."""
    rows = [
        {
            "timestamp": d.timestamp,
            "phase": d.phase.value if d.phase else None,
            "iteration": d.iteration,
            "agent": d.agent,
            "action": d.action,
            "rationale": d.rationale,
        }
        for d in state.decisions
    ]
    columns = {
        "timestamp": TIME,
        "phase": PHASE,
        "iteration": INT,
        "agent": TEXT,
        "action": TEXT,
        "rationale": TEXT,
    }
    return _numbered(rows, columns, "decision")


def metrics_frame(state: ResearchState) -> pd.DataFrame:
    """One row per phase run: time, LLM calls, tokens, cost, searches, token-limit retries."""
    rows = [
        {
            "phase": m.phase.value,
            "iteration": m.iteration,
            "started_at": m.started_at,
            "duration_s": m.duration_s,
            "llm_calls": m.llm_calls,
            "input_tokens": m.input_tokens,
            "output_tokens": m.output_tokens,
            "cost_usd": m.cost_usd,
            "search_calls": m.search_calls,
            "token_limit_retries": m.token_limit_retries,
            "error": m.error,
        }
        for m in state.metrics
    ]
    columns = {
        "phase": PHASE,
        "iteration": INT,
        "started_at": TIME,
        "duration_s": FLOAT,
        "llm_calls": INT,
        "input_tokens": INT,
        "output_tokens": INT,
        "cost_usd": FLOAT,
        "search_calls": INT,
        "token_limit_retries": INT,
        "error": TEXT,
    }
    return _numbered(rows, columns, "run")


def usage_frame(state: ResearchState) -> pd.DataFrame:
    """One row per LLM call: role, phase, model, scope (sub-query), tokens, cost, retries."""
    rows = [
        {
            "timestamp": u.timestamp,
            "phase": u.phase,
            "role": u.role,
            "model": u.model,
            "scope": u.scope,
            "input_tokens": u.input_tokens,
            "output_tokens": u.output_tokens,
            "cost_usd": u.cost_usd,
            "duration_s": u.duration_s,
            "token_limit_retries": u.token_limit_retries,
            "repair_attempts": u.repair_attempts,
        }
        for u in state.usage
    ]
    columns = {
        "timestamp": TIME,
        "phase": TEXT,
        "role": TEXT,
        "model": TEXT,
        "scope": TEXT,
        "input_tokens": INT,
        "output_tokens": INT,
        "cost_usd": FLOAT,
        "duration_s": FLOAT,
        "token_limit_retries": INT,
        "repair_attempts": INT,
    }
    return _numbered(rows, columns, "call")


def supervision_frame(state: ResearchState) -> pd.DataFrame:
    """Supervision rounds: coverage confidence, what changed, directives, why it stopped."""
    rows = []
    for r in state.supervision_history:
        sufficient = sum(1 for c in r.coverage if c.sufficient)
        rows.append(
            {
                "iteration": r.iteration,
                "round": r.round,
                "confidence": r.confidence,
                "coverage": sufficient / len(r.coverage) if r.coverage else None,
                "queries_covered": sufficient,
                "queries_assessed": len(r.coverage),
                "delta": "; ".join(r.delta),
                "directives": len(r.directive_ids),
                "new_sub_queries": len(r.new_sub_query_ids),
                "research_complete": r.research_complete,
                "should_continue": r.should_continue,
                "stop_reason": r.stop_reason,
            }
        )
    columns = {
        "iteration": INT,
        "round": INT,
        "confidence": FLOAT,
        "coverage": FLOAT,
        "queries_covered": INT,
        "queries_assessed": INT,
        "delta": TEXT,
        "directives": INT,
        "new_sub_queries": INT,
        "research_complete": BOOL,
        "should_continue": BOOL,
        "stop_reason": TEXT,
    }
    return _numbered(rows, columns, "entry")
