"""ResearchState: everything a session knows, JSON round-trippable and versioned."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import Field, ValidationError

from deepresearch.errors import StateVersionError
from deepresearch.state.models import (
    AgentDecision,
    AllocationSummary,
    Citation,
    Claim,
    Clarification,
    Confidence,
    ContentFidelity,
    Directive,
    Finding,
    Gap,
    GuidanceNote,
    LinkFollow,
    NewSubQuery,
    Outcome,
    Phase,
    PhaseMetrics,
    ProviderRecipe,
    Record,
    Report,
    RunStatus,
    Source,
    SourceQuality,
    SubQuery,
    SubQueryOrigin,
    SubQueryStatus,
    SupervisionMessage,
    SupervisionRound,
    TopicResult,
    UsageRecord,
    passage_lines,
    utcnow,
)
from deepresearch.text import normalize_query

SCHEMA_VERSION = 2
# How a run warning names a part of the question the research left unanswered.
UNANSWERED = "unanswered: "
# How a run warning starts that names something to check though nothing was lost.
CHECK = "check: "


class ResearchState(Record):
    """Everything a research session knows: the question, plan, sources, findings, gaps,
    decisions, metrics and report. A pydantic model that round-trips through JSON
    (``to_json``/``from_json``); states saved by older versions still load.
    """

    schema_version: int = SCHEMA_VERSION
    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    question: str
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    phase: Phase = Phase.CLARIFICATION
    status: RunStatus = RunStatus.PENDING
    iteration: int = 1
    max_iterations: int = 3
    llm: str = ""  # what the run used, for the record; never a key
    search: str = ""

    clarification: Clarification | None = None
    research_brief: str | None = None
    sub_queries: list[SubQuery] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    gaps: list[Gap] = Field(default_factory=list)
    directives: list[Directive] = Field(default_factory=list)
    topic_results: list[TopicResult] = Field(default_factory=list)
    decisions: list[AgentDecision] = Field(default_factory=list)
    metrics: list[PhaseMetrics] = Field(default_factory=list)
    usage: list[UsageRecord] = Field(default_factory=list)
    guidance: list[GuidanceNote] = Field(default_factory=list)

    supervision_round: int = 0
    supervision_history: list[SupervisionRound] = Field(default_factory=list)
    supervision_messages: list[SupervisionMessage] = Field(default_factory=list)

    report: Report | None = None
    claims: list[Claim] = Field(default_factory=list)  # the current report's checked claims
    content_fidelity: dict[str, ContentFidelity] = Field(default_factory=dict)
    allocations: list[AllocationSummary] = Field(default_factory=list)

    recipe: ProviderRecipe | None = None  # how to rebuild the providers on resume
    # Context windows servers stated when they refused a request (model spec -> tokens),
    # kept so a resumed run fits its requests to them instead of being refused again.
    stated_windows: dict[str, int] = Field(default_factory=dict)
    error: str | None = None
    abort_phase: Phase | None = None
    abort_iteration: int | None = None
    counters: dict[str, int] = Field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"ResearchState(id={self.id!r}, phase={self.phase.value}, status={self.status.value}, "
            f"iteration={self.iteration}/{self.max_iterations}, sub_queries={len(self.sub_queries)}, "
            f"sources={len(self.sources)}, findings={len(self.findings)}, gaps={len(self.gaps)})"
        )

    __str__ = __repr__

    def _repr_html_(self) -> str:  # Jupyter: a compact, escaped card (notebook layer)
        from deepresearch.render import state_html

        return state_html(self)

    def _repr_markdown_(self) -> str:  # the linked report, or a summary before synthesis
        from deepresearch.render import jupyter_files_route, state_markdown

        return state_markdown(self, files=jupyter_files_route(), passages=True)

    # -- ids -------------------------------------------------------------
    def next_id(self, prefix: str) -> str:
        """The next id with ``prefix`` (``"sq"`` → ``"sq-4"``); ids are never reused."""
        n = self.counters.get(prefix, 0) + 1
        self.counters[prefix] = n
        return f"{prefix}-{n}"

    # -- sub-queries -----------------------------------------------------
    def add_sub_query(
        self,
        query: str,
        *,
        rationale: str = "",
        priority: int = 1,
        origin: SubQueryOrigin = "user",
        directive_id: str | None = None,
        follow: LinkFollow | None = None,
    ) -> SubQuery:
        """Append a pending sub-query and return it.

        Args:
            query: the search question.
            rationale: why it is worth asking.
            priority: lower runs first.
            origin: who asked for it: "user" unless a phase passes its own ("plan",
                "supervision", "refinement").
            directive_id: the supervisor directive it came from, if any.
            follow: the corpus links its opening search follows (:class:`LinkFollow`).
        """
        sq = SubQuery(
            id=self.next_id("sq"),
            query=query.strip(),
            rationale=rationale,
            priority=priority,
            origin=origin,
            iteration=self.iteration,
            directive_id=directive_id,
            follow=follow,
        )
        self.sub_queries.append(sq)
        return sq

    def queue_sub_queries(
        self,
        proposed: Iterable[NewSubQuery],
        *,
        origin: SubQueryOrigin,
        max_total: int,
        limit: int | None = None,
    ) -> list[SubQuery | None]:
        """Queue proposed sub-queries in order — the one home of the cap rule: a blank
        query, or one that repeats an existing sub-query (an earlier proposal included),
        is skipped; at most ``limit`` are queued, and never past ``max_total`` sub-queries
        in all (``Config.max_total_sub_queries``); each is recorded with ``origin``.
        Returns, per proposal, the new pending sub-query or None."""
        room = max(0, max_total - len(self.sub_queries))
        if limit is not None:
            room = min(room, max(0, limit))
        queued: list[SubQuery | None] = []
        for p in proposed:
            if room <= 0 or not p.query.strip() or self.has_sub_query(p.query):
                queued.append(None)
                continue
            queued.append(
                self.add_sub_query(
                    p.query,
                    rationale=p.rationale,
                    priority=p.priority,
                    origin=origin,
                    follow=p.follow,
                )
            )
            room -= 1
        return queued

    def has_sub_query(self, query: str) -> bool:
        """Whether a sub-query with the same ``query`` text (case and spacing aside) exists."""
        key = normalize_query(query)
        return any(normalize_query(sq.query) == key for sq in self.sub_queries)

    def sub_query(self, sub_query_id: str) -> SubQuery | None:
        """The sub-query whose id is ``sub_query_id`` (``sq-1``, ...), or None."""
        return next((sq for sq in self.sub_queries if sq.id == sub_query_id), None)

    def pending_sub_queries(self) -> list[SubQuery]:
        """Sub-queries not yet researched, by priority."""
        pending = [sq for sq in self.sub_queries if sq.status == SubQueryStatus.PENDING]
        return sorted(pending, key=lambda sq: sq.priority)

    def completed_sub_queries(self) -> list[SubQuery]:
        """Sub-queries researched to completion."""
        return [sq for sq in self.sub_queries if sq.status == SubQueryStatus.COMPLETED]

    # -- sources ---------------------------------------------------------
    def source(self, source_id: str) -> Source | None:
        """The source whose id is ``source_id`` (``src-3``), or None."""
        return next((s for s in self.sources if s.id == source_id), None)

    def source_titles(self) -> list[str]:
        """The gathered sources' titles, in the order gathered."""
        return [s.title for s in self.sources]

    def source_by_citation(self, number: int) -> Source | None:
        """The source whose citation number is ``number``, or None."""
        return next((s for s in self.sources if s.citation == number), None)

    def report_citations(self) -> list[Citation]:
        """The report's typed citations; for a report saved before they were typed, rebuilt
        from ``cited_source_ids`` and the sources (synthesis numbers them 1..k in order)."""
        if self.report is None:
            return []
        if self.report.citations:
            return list(self.report.citations)
        by_id = {s.id: s for s in self.sources}
        cited = [by_id[i] for i in self.report.cited_source_ids if i in by_id]
        return [Citation.of(n, s) for n, s in enumerate(cited, 1)]

    def seen_urls(self) -> set[str]:
        """Every URL (or path) gathered so far."""
        return {s.url for s in self.sources}

    def new_source(self, **fields: Any) -> Source:
        """Create and append a source with the next id and citation number; ``fields`` are
        the other Source fields (``url``, ``title``, ``content``, ...)."""
        n = self.counters.get("src", 0) + 1
        self.counters["src"] = n
        src = Source(id=f"src-{n}", citation=n, iteration=self.iteration, **fields)
        self.sources.append(src)
        return src

    def sources_for(self, sub_query_id: str) -> list[Source]:
        """The sources gathered for the sub-query ``sub_query_id``."""
        return [s for s in self.sources if s.sub_query_id == sub_query_id]

    def high_quality_sources(self) -> list[Source]:
        """Sources rated high quality."""
        return [s for s in self.sources if s.quality == SourceQuality.HIGH]

    # -- topics ----------------------------------------------------------
    def topic_result(self, sub_query_id: str) -> TopicResult | None:
        """The topic researcher's result for the sub-query ``sub_query_id``, or None."""
        return next((t for t in self.topic_results if t.sub_query_id == sub_query_id), None)

    # -- findings and gaps -----------------------------------------------
    def high_confidence_findings(self) -> list[Finding]:
        """Findings rated high or confirmed."""
        strong = {Confidence.HIGH, Confidence.CONFIRMED}
        return [f for f in self.findings if f.confidence in strong]

    def unresolved_gaps(self) -> list[Gap]:
        """Gaps neither addressed nor resolved."""
        return [g for g in self.gaps if not g.addressed and g.resolution is None]

    def unanswered_gaps(self) -> list[Gap]:
        """First-priority gaps the research did not cover — a part of the question (or a
        reviewer's note) left unanswered — whether still open or closed because nothing new
        could be searched for it."""
        return [g for g in self.gaps if not g.addressed and g.priority == 1]

    def reported_gaps(self) -> list[Gap]:
        """The gaps a report states: those still open and the parts of the question left
        unanswered (closed only because nothing new could be searched for it), in order."""
        unanswered = {g.id for g in self.unanswered_gaps()}
        return [
            g for g in self.gaps if g.id in unanswered or (not g.addressed and g.resolution is None)
        ]

    def has_unresolved_gaps(self) -> bool:
        """Whether any gap is still unresolved."""
        return bool(self.unresolved_gaps())

    # -- guidance --------------------------------------------------------
    def add_guidance(self, phase: Phase, text: str) -> None:
        """Leave ``text`` (a steer) for the next run of ``phase``; blank text is ignored."""
        if text.strip():
            self.guidance.append(GuidanceNote(phase=phase, text=text.strip()))

    def guidance_for(self, phase: Phase) -> list[str]:
        """The guidance waiting for ``phase``, not consumed."""
        return [g.text for g in self.guidance if g.phase == phase and not g.consumed]

    def consume_guidance(self, phase: Phase) -> list[str]:
        """The guidance waiting for ``phase``, marked consumed (a phase reads it once)."""
        texts = []
        for note in self.guidance:
            if note.phase == phase and not note.consumed:
                note.consumed = True
                texts.append(note.text)
        return texts

    # -- loop ------------------------------------------------------------
    def start_new_iteration(self) -> None:
        """Move to the next iteration (refinement decided to go on)."""
        self.iteration += 1
        self.supervision_round = 0

    def run_warnings(self) -> list[str]:
        """One line per degraded or failed phase run, from the phases' outcome records, one
        per thing to check a phase run recorded (``PhaseMetrics.warnings``), and one per part
        of the question left unanswered (``unanswered_gaps``) — the one source for the
        status, the CLI summary, the report and the DataFrames."""
        lines = []
        for m in self._standing_metrics():
            if m.outcome != Outcome.OK:
                why = "; ".join(m.problems) or m.error or m.outcome.value
                lines.append(f"{m.phase.value} (iteration {m.iteration}) {m.outcome.value}: {why}")
            lines += [CHECK + w for w in m.warnings]
        lines += [UNANSWERED + g.stated() for g in self.unanswered_gaps()]
        return lines

    def finished_status(self) -> RunStatus:
        """``completed`` for a clean run that answered every part of the question,
        ``completed_with_warnings`` when a phase was not ok or a part was left unanswered."""
        return RunStatus.COMPLETED_WITH_WARNINGS if self.run_warnings() else RunStatus.COMPLETED

    def _standing_metrics(self) -> list[PhaseMetrics]:
        """Phase runs whose outcome still stands: an interrupted (failed) run of a phase that
        a resume ran again is superseded by the later run."""
        later: set[tuple[Phase, int]] = set()
        standing = []
        for m in reversed(self.metrics):
            key = (m.phase, m.iteration)
            if not (m.outcome == Outcome.FAILED and key in later):
                standing.append(m)
            later.add(key)
        return standing[::-1]

    def record(self, decision: AgentDecision) -> AgentDecision:
        """Append ``decision`` to the audit trail and return it."""
        self.decisions.append(decision)
        return decision

    def touch(self) -> None:
        """Set ``updated_at`` to now."""
        self.updated_at = utcnow()

    # -- serialisation ---------------------------------------------------
    def to_json(self) -> str:
        """The whole state as JSON (``from_json`` reads it back)."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str | bytes) -> ResearchState:
        """A state from the JSON ``text`` that ``to_json`` wrote (older versions migrated);
        a StateVersionError if it is not valid JSON or is newer than this version.
        """
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise StateVersionError(
                f"Saved state is not valid JSON ({exc}). The store entry is corrupted; "
                "export what you can with `deepresearch export` or delete the session."
            ) from exc
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> ResearchState:
        """A state from ``data``, a parsed JSON object (older versions migrated); a
        StateVersionError if it is not one or is newer than this version.
        """
        if not isinstance(data, dict):
            raise StateVersionError("Saved state must be a JSON object.")
        version = data.get("schema_version", 1)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise StateVersionError(
                f"State schema version {version!r} is newer than this deepresearch supports "
                f"({SCHEMA_VERSION}). Upgrade deepresearch to load it."
            )
        data = migrate(dict(data), version)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise StateVersionError(
                f"Saved state does not match the schema: {exc.error_count()} problems, first: "
                f"{exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}."
            ) from exc


def migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
    """Bring an older saved state up to SCHEMA_VERSION, one step at a time."""
    if version < 2:
        # v1 kept a free-form metadata dict; lift what it held into fields.
        meta = data.pop("metadata", None) or {}
        if "agent_decisions" in meta and "decisions" not in data:
            data["decisions"] = meta["agent_decisions"]
        if meta.get("cancelled"):
            data.setdefault("status", "cancelled")
        if meta.get("timeout"):
            data.setdefault("status", "timed_out")
        if "abort_phase" in meta:
            data.setdefault("abort_phase", meta["abort_phase"])
        for position, src in enumerate(data.get("sources") or [], 1):
            if isinstance(src, dict) and "citation" not in src:
                suffix = str(src.get("id", "")).rsplit("-", 1)[-1]
                src["citation"] = int(suffix) if suffix.isdigit() else position
        if not data.get("counters"):
            data["counters"] = _counters_from_ids(data)
    for src in data.get("sources") or []:
        # Saved before Source.lines, a corpus passage was told apart only by its citation:
        # give it the lines the URL names, so a resumed session reads it as it did then.
        if isinstance(src, dict) and "lines" not in src:
            src["lines"] = passage_lines(str(src.get("url", "")))
    data["schema_version"] = SCHEMA_VERSION
    return data


# Which lists hold records whose ids come from next_id(prefix) / new_source().
_ID_LISTS = {
    "sub_queries": "sq",
    "sources": "src",
    "findings": "f",
    "gaps": "gap",
    "directives": "dir",
}


def _counters_from_ids(data: dict[str, Any]) -> dict[str, int]:
    """Id counters for a state saved without them, so new ids do not collide with old ones."""
    counters: dict[str, int] = {}
    for key, prefix in _ID_LISTS.items():
        highest = 0
        for item in data.get(key) or []:
            if not isinstance(item, dict):
                continue
            head, _, tail = str(item.get("id", "")).rpartition("-")
            if head == prefix and tail.isdigit():
                highest = max(highest, int(tail))
            citation = item.get("citation")
            if key == "sources" and isinstance(citation, int):
                highest = max(highest, citation)  # new_source() numbers ids and citations alike
        if highest:
            counters[prefix] = highest
    return counters
