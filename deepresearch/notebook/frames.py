"""ResearchState as pandas DataFrames: one function per table, explicit dtypes, indexed by id.

Every function takes a :class:`ResearchState` and returns a new DataFrame; the state is
never modified. Columns and dtypes are the same whether the state is empty or not, so
code written against an early phase keeps working later.

Each table is a :class:`Table`: its columns and dtypes in order, how the few computed
columns are derived, and its index. A column without a rule is read from the record's
attribute of the same name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar

import pandas as pd

from deepresearch.errors import InputError
from deepresearch.state import (
    AgentDecision,
    Claim,
    ClaimStatus,
    Confidence,
    Finding,
    Gap,
    Phase,
    PhaseMetrics,
    ResearchState,
    Source,
    SourceQuality,
    SubQuery,
    SubQueryStatus,
    SupervisionRound,
    UsageRecord,
)
from deepresearch.workflow.hooks import Steer

# Ordered categoricals so sorting and filtering (`df[df.confidence >= "high"]`) follow meaning.
PHASE = pd.CategoricalDtype([p.value for p in Phase], ordered=True)
CONFIDENCE = pd.CategoricalDtype([c.value for c in Confidence], ordered=True)
QUALITY = pd.CategoricalDtype([q.value for q in SourceQuality], ordered=True)
SUB_QUERY_STATUS = pd.CategoricalDtype([s.value for s in SubQueryStatus])
SEVERITY = pd.CategoricalDtype(["minor", "moderate", "critical"], ordered=True)
NOVELTY = pd.CategoricalDtype(["new", "related", "duplicate"])
CLAIM_STATUS = pd.CategoricalDtype([s.value for s in ClaimStatus])
ORIGIN = pd.CategoricalDtype(["plan", "supervision", "refinement", "user", "guidance"])
TEXT = pd.StringDtype()
INT = pd.Int64Dtype()
FLOAT = pd.Float64Dtype()
BOOL = pd.BooleanDtype()
TIME = pd.DatetimeTZDtype(unit="us", tz="UTC")
OBJECT = "object"  # lists of ids or queries

R = TypeVar("R")
Derive = Callable[[R], Any]


def _cell(value: Any) -> Any:
    """Enums become their values (the categories); lists are copied, never shared."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, list):
        return list(value)
    return value


@dataclass(frozen=True)
class Table(Generic[R]):
    """How one kind of record becomes a DataFrame.

    ``columns`` maps each column to its dtype, in order. ``derive`` computes the columns
    that are not a plain attribute of the record; ``frame(..., **derive)`` adds rules that
    need the whole state (e.g. citation numbers). ``index`` is ``"id"`` (indexed by the
    record's id) or the name of a running number 0, 1, ... (oldest first) for records
    without an id.
    """

    columns: Mapping[str, Any]
    derive: Mapping[str, Derive[R]] = field(default_factory=dict)
    index: str = "id"

    def frame(self, records: Iterable[R], **derive: Derive[R]) -> pd.DataFrame:
        """The DataFrame of ``records``: one row each, the table's columns and dtypes.

        Args:
            records: the records, in order.
            **derive: extra rules for columns that need the whole state.
        """
        rules = {**self.derive, **derive}
        rows = list(records)
        by_id = self.index == "id"
        names = ["id", *self.columns] if by_id else list(self.columns)
        dtypes = {"id": TEXT, **self.columns}

        def value(record: R, name: str) -> Any:
            rule = rules.get(name)
            return _cell(rule(record) if rule is not None else getattr(record, name))

        # One typed Series per column, so an empty table has the same dtypes as a full one.
        data = {n: pd.Series([value(r, n) for r in rows], dtype=dtypes[n]) for n in names}
        df = pd.DataFrame(data, index=pd.RangeIndex(len(rows)))
        if by_id:
            return df.set_index("id")
        df.index.name = self.index
        return df


SOURCES = Table[Source](
    columns={
        "cited": BOOL,  # derived per state: in the report's Sources list
        "citation": INT,  # derived per state: its [n] in the report; <NA> when not cited
        "ref": INT,  # the stable number prompts use, assigned when the source was found
        "title": TEXT,
        "url": TEXT,
        "domain": TEXT,
        "provider": TEXT,  # the search provider that returned it
        "relevance": FLOAT,  # that provider's score (BM25 for a corpus, 0-1 for Tavily)
        "quality": QUALITY,
        "sub_query_id": TEXT,
        "iteration": INT,
        "novelty": NOVELTY,
        "novelty_score": FLOAT,
        "summarized": BOOL,
        "published": TEXT,
        "snippet": TEXT,
        "content_chars": INT,
    },
    derive={"content_chars": lambda s: len(s.content), "ref": lambda s: s.citation},
)

FINDINGS = Table[Finding](
    columns={
        "content": TEXT,
        "confidence": CONFIDENCE,
        "category": TEXT,
        "iteration": INT,
        "source_ids": OBJECT,
        "refs": OBJECT,  # derived per state: the sources' stable numbers
        "citations": OBJECT,  # derived per state: their [n] in the report (cited ones only)
        "n_sources": INT,
    },
    derive={"n_sources": lambda f: len(f.source_ids)},
)

GAPS = Table[Gap](
    columns={
        "description": TEXT,
        "part": TEXT,
        "reason": TEXT,
        "severity": SEVERITY,
        "priority": INT,
        "addressed": BOOL,
        "resolution": TEXT,
        "iteration": INT,
        "suggested_queries": OBJECT,
        "follow_up_ids": OBJECT,
        "searched": OBJECT,
    },
)

SUB_QUERIES = Table[SubQuery](
    columns={
        "query": TEXT,
        "status": SUB_QUERY_STATUS,
        "origin": ORIGIN,
        "priority": INT,
        "iteration": INT,
        "sources": INT,  # derived per state: see sub_queries_frame
        "rationale": TEXT,
        "directive_id": TEXT,
        "error": TEXT,
    },
)

DECISIONS = Table[AgentDecision](
    columns={
        "timestamp": TIME,
        "phase": PHASE,
        "iteration": INT,
        "agent": TEXT,
        "action": TEXT,
        "rationale": TEXT,
    },
    index="decision",
)

METRICS = Table[PhaseMetrics](
    columns={
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
        "outcome": TEXT,
        "problems": OBJECT,
        "warnings": OBJECT,
        "failed_calls": INT,
        "fallback_calls": INT,
    },
    index="run",
)

CLAIMS = Table[Claim](
    columns={
        "text": TEXT,
        "status": CLAIM_STATUS,
        "citations": OBJECT,
        "source_ids": OBJECT,
        "supporting_source_ids": OBJECT,
        "score": FLOAT,
        "evidence": TEXT,
        "rationale": TEXT,
        "section": TEXT,
        "method": TEXT,
        "removed": BOOL,
        "iteration": INT,
    },
)

USAGE = Table[UsageRecord](
    columns={
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
    },
    index="call",
)


def _covered(r: SupervisionRound) -> int:
    return sum(1 for c in r.coverage if c.sufficient)


SUPERVISION = Table[SupervisionRound](
    columns={
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
    },
    derive={
        "coverage": lambda r: _covered(r) / len(r.coverage) if r.coverage else None,
        "queries_covered": _covered,
        "queries_assessed": lambda r: len(r.coverage),
        "delta": lambda r: "; ".join(r.delta),
        "directives": lambda r: len(r.directive_ids),
        "new_sub_queries": lambda r: len(r.new_sub_query_ids),
    },
    index="entry",
)


def report_numbers(state: ResearchState) -> dict[str, int]:
    """Source id -> its ``[n]`` in the current report (empty before synthesis): the numbers
    of the report's typed citations, the same the report, the card and its links use."""
    return {c.source_id: c.number for c in state.report_citations()}


def _source_rules(state: ResearchState) -> dict[str, Derive[Source]]:
    numbers = report_numbers(state)
    return {"cited": lambda s: s.id in numbers, "citation": lambda s: numbers.get(s.id)}


# Bibliographic columns, added to `sources` when a scholarly provider filled any of them.
SCHOLARLY_SOURCES = Table[Source](
    columns={
        "authors": TEXT,
        "year": INT,
        "venue": TEXT,
        "doi": TEXT,
        "citation_count": INT,
        "open_access_url": TEXT,
    },
    derive={"authors": lambda s: "; ".join(s.authors) if s.authors else None},
)


def sources_frame(state: ResearchState) -> pd.DataFrame:
    """Sources, one row each: ``cited``/``citation`` say whether and as which ``[n]`` the
    report cites it; ``ref`` is the stable number findings and prompts use. Sources from
    scholarly search add authors, year, venue, doi, citation_count and open_access_url."""
    frame = SOURCES.frame(state.sources, **_source_rules(state))
    if any(s.authors or s.doi or s.year is not None for s in state.sources):
        frame = frame.join(SCHOLARLY_SOURCES.frame(state.sources))
    return frame


def findings_frame(state: ResearchState) -> pd.DataFrame:
    """Findings with their confidence, their sources' ``refs`` and, once there is a report,
    the ``citations`` (report ``[n]``) of the cited ones."""
    ref_of = {s.id: s.citation for s in state.sources}
    numbers = report_numbers(state)

    def refs(f: Finding) -> list[int]:
        return [ref_of[i] for i in f.source_ids if i in ref_of]

    def citations(f: Finding) -> list[int]:
        return [numbers[i] for i in f.source_ids if i in numbers]

    return FINDINGS.frame(state.findings, refs=refs, citations=citations)


def finding_sources(state: ResearchState, finding_id: str) -> pd.DataFrame:
    """The sources a finding cites, in the order it cites them (same columns as sources)."""
    finding = next((f for f in state.findings if f.id == finding_id), None)
    if finding is None:
        known = [f.id for f in state.findings]
        raise InputError(f"No finding {finding_id!r}; findings are {known}.")
    by_id = {s.id: s for s in state.sources}
    return SOURCES.frame(
        (by_id[i] for i in finding.source_ids if i in by_id), **_source_rules(state)
    )


def gaps_frame(state: ResearchState) -> pd.DataFrame:
    """Gaps found by analysis or refinement: why they are open, how to fill them, and whether
    or why they closed."""
    return GAPS.frame(state.gaps)


def sub_queries_frame(state: ResearchState) -> pd.DataFrame:
    """Sub-queries with status, origin (plan, supervision, user, ...) and sources found."""
    counts: dict[str, int] = {}
    for s in state.sources:
        if s.sub_query_id:
            counts[s.sub_query_id] = counts.get(s.sub_query_id, 0) + 1
    return SUB_QUERIES.frame(state.sub_queries, sources=lambda sq: counts.get(sq.id, 0))


def plan_edits(state: ResearchState, frame: pd.DataFrame) -> Steer:
    """What changed between the state's sub-queries and an edited copy of ``s.sub_queries``,
    as a :class:`Steer`: rows whose ``query`` text changed are edits, rows of known ids that
    are gone are removals, rows with any other index (e.g. ``pd.concat`` of new rows) are
    additions. Only the ``query`` column is read."""
    if not isinstance(frame, pd.DataFrame) or "query" not in frame.columns:
        raise InputError(
            "Pass the sub_queries DataFrame (edited): a DataFrame with a 'query' column, "
            "indexed by sub-query id, e.g. df = s.sub_queries; df.loc['sq-1', 'query'] = '...'."
        )
    known = {sq.id: sq for sq in state.sub_queries}
    edits: dict[str, str] = {}
    additions: list[str] = []
    kept: set[str] = set()
    for index, text in frame["query"].items():
        if pd.isna(text) or not str(text).strip():
            raise InputError(f"Row {index!r} of the edited plan has an empty query.")
        query = " ".join(str(text).split())
        sq = known.get(str(index)) if isinstance(index, str) else None
        if sq is None:
            additions.append(query)
        else:
            kept.add(sq.id)
            if query != sq.query:
                edits[sq.id] = query
    removals = [sq_id for sq_id in known if sq_id not in kept]
    return Steer(add_sub_queries=additions, edit_sub_queries=edits, remove_sub_queries=removals)


def decisions_frame(state: ResearchState) -> pd.DataFrame:
    """The audit trail of agent decisions, oldest first (index: running number)."""
    return DECISIONS.frame(state.decisions)


def metrics_frame(state: ResearchState) -> pd.DataFrame:
    """One row per phase run: time, LLM calls, tokens, cost, searches, token-limit retries."""
    return METRICS.frame(state.metrics)


def claims_frame(state: ResearchState) -> pd.DataFrame:
    """The report's sentences as checked by verification: status (supported, partial,
    unsupported, uncited), the [n] citations, the backing passage and why."""
    return CLAIMS.frame(state.claims)


def usage_frame(state: ResearchState) -> pd.DataFrame:
    """One row per LLM call: role, phase, model, scope (sub-query), tokens, cost, retries."""
    return USAGE.frame(state.usage)


def supervision_frame(state: ResearchState) -> pd.DataFrame:
    """Supervision rounds: coverage confidence, what changed, directives, why it stopped."""
    return SUPERVISION.frame(state.supervision_history)
