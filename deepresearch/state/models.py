"""The records a research session is made of: pydantic models and enums, no I/O."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


class Record(BaseModel):
    """Base for every stored record: ignores unknown keys so newer states load in older code."""

    model_config = ConfigDict(extra="ignore", validate_assignment=False)


class Phase(StrEnum):
    """Workflow phases, in the order the workflow advances through them."""

    CLARIFICATION = "clarification"
    BRIEF = "brief"
    PLANNING = "planning"
    GATHERING = "gathering"
    SUPERVISION = "supervision"
    ANALYSIS = "analysis"
    SYNTHESIS = "synthesis"
    VERIFICATION = "verification"
    REFINEMENT = "refinement"
    DONE = "done"


class RunStatus(StrEnum):
    """How a session's run stands: pending, running, awaiting_input (a clarifying question
    waits for ``s.answer()``), completed, completed_with_warnings (a report exists, some
    phase degraded or a part of the question was left unanswered), interrupted, stopped,
    cancelled, timed_out, failed.
    """

    PENDING = "pending"
    RUNNING = "running"
    AWAITING_INPUT = "awaiting_input"
    COMPLETED = "completed"
    # Finished, but some phase degraded (a call lost, a model fallback, an extractive
    # fallback) or a first-priority gap stayed uncovered (a part of the question left
    # unanswered): the report exists and says which parts were affected.
    COMPLETED_WITH_WARNINGS = "completed_with_warnings"
    INTERRUPTED = "interrupted"  # its runner died (no live lease); resume continues it
    STOPPED = "stopped"  # a think-pause hook said stop
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"
    FAILED = "failed"


FINISHED_STATUSES = frozenset({RunStatus.COMPLETED, RunStatus.COMPLETED_WITH_WARNINGS})


class Outcome(StrEnum):
    """How one phase run went: ``degraded`` means it finished but lost calls or fell back."""

    OK = "ok"
    DEGRADED = "degraded"
    FAILED = "failed"


class AgentRole(StrEnum):
    """Who makes an LLM call. Each role routes to its own model spec (see Config.role_models)."""

    CLARIFIER = "clarification"
    BRIEFER = "brief"
    PLANNER = "planner"
    RESEARCHER = "research"  # topic researcher's forced reflection
    SUMMARIZER = "summarization"
    COMPRESSOR = "compression"
    SUPERVISOR = "supervision"
    ANALYZER = "analyzer"
    SYNTHESIZER = "report"
    REFINER = "refiner"
    VERIFIER = "verifier"
    REFLECTION = "reflection"  # think pauses without a human


class SubQueryStatus(StrEnum):
    """Where a sub-query stands: pending (not yet gathered), completed or failed."""

    PENDING = "pending"
    COMPLETED = "completed"
    FAILED = "failed"


class SourceQuality(StrEnum):
    """How trustworthy a source looks (unknown, low, medium, high)."""

    UNKNOWN = "unknown"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class Confidence(StrEnum):
    """How well a finding is supported: speculation < low < medium < high < confirmed."""

    SPECULATION = "speculation"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CONFIRMED = "confirmed"


class Novelty(StrEnum):
    """How a new source compares with earlier ones of its sub-query: new, related or duplicate."""

    NEW = "new"
    RELATED = "related"
    DUPLICATE = "duplicate"


SubQueryOrigin = Literal["plan", "supervision", "refinement", "user", "guidance"]


class LinkFollow(Record):
    """A search that follows corpus links (``Source.links``) instead of searching words:
    each titled entry in turn, searched alone; the first not yet gathered whose opening
    sentence states one of ``words`` is kept (phases.topic). Only the offline engine asks
    for it, through this field, never through a query's text; titles the topic's sources
    do not link make it an ordinary search of its query text."""

    titles: list[str] = Field(description="The linked entries' titles, tried in this order.")
    words: list[str] = Field(
        default_factory=list,
        description="An entry is kept only if its opening sentence states one of these "
        "words (besides its title's); any entry when empty.",
    )

    def query(self) -> str:
        """The search as shown and recorded: the quoted titles, then the words."""
        return " ".join([*(f'"{t}"' for t in self.titles), *self.words])


class SubQuery(Record):
    """One search question of the plan (``s.sub_queries`` shows them; edit them with
    ``s.set_sub_queries(frame)``). ``origin`` says who asked for it.
    """

    id: str
    query: str
    rationale: str = ""
    priority: int = 1
    status: SubQueryStatus = SubQueryStatus.PENDING
    origin: SubQueryOrigin = "plan"
    iteration: int = 1
    directive_id: str | None = None
    error: str | None = None
    follow: LinkFollow | None = None  # its opening search follows these corpus links


class NewSubQuery(Record):
    """A sub-query a phase proposes; :meth:`ResearchState.queue_sub_queries` decides
    whether it is queued."""

    query: str
    rationale: str = ""
    priority: int = 1
    follow: LinkFollow | None = None  # see SubQuery.follow


class Source(Record):
    """One gathered source: its ``[citation]`` number, URL or path, title, text, quality,
    the provider that returned it and, for papers, authors, year, venue and DOI.
    """

    id: str
    citation: int  # stable number used as [n] in prompts and reports
    url: str  # a URL, or a local file's path
    title: str = ""
    snippet: str = ""
    content: str = ""  # the text later phases read (a summary when summarised)
    raw_content: str | None = None  # the original text, kept when content is a summary
    quality: SourceQuality = SourceQuality.UNKNOWN
    sub_query_id: str | None = None
    provider: str = ""
    domain: str = ""
    summarized: bool = False
    excerpts: list[str] = Field(default_factory=list)
    novelty: Novelty | None = None
    novelty_score: float | None = None
    related_to: str | None = None  # title of the closest earlier source of the same sub-query
    # Titles of other entries the source's text names (a corpus' entity links), which the
    # offline engine may follow to the next part of a question.
    links: list[str] = Field(default_factory=list)
    # A passage's first and last line in its file (the corpus cites a long file's passages
    # as file#Lfirst-last); None for a whole document: a web page, a record, a short file.
    lines: tuple[int, int] | None = None
    # The URLs of the passages just before and after a passage in its file, which its
    # search returned with it: they may be extracted to read on (phases.topic).
    around: list[str] = Field(default_factory=list)
    published: str | None = None
    iteration: int = 1
    # The search provider's score for the hit (higher = more relevant; each provider has
    # its own scale: BM25 for a corpus, 0-1 for Tavily).
    relevance: float | None = None
    # Bibliographic fields from scholarly search (empty for web pages and local files).
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    venue: str | None = None
    doi: str | None = None  # bare, lower-case: "10.1038/nature14539"
    citation_count: int | None = None
    open_access_url: str | None = None

    @property
    def document(self) -> str:
        """The document this source is part of (see ``document_of``)."""
        return document_of(self.url)


def document_of(url: str) -> str:
    """The document a source's URL is part of: the URL without its fragment (a long
    file's passages, ``#L10-20``, share their file's)."""
    return url.split("#", 1)[0]


# How the local corpus cites a passage of a long file: path#Lfirst-last.
PASSAGE_CITATION = re.compile(r"#L(\d+)-(\d+)$")


def passage_lines(url: str) -> tuple[int, int] | None:
    """The first and last line a corpus passage's citation names (``file.md#L10-20``), or
    None for any other URL."""
    cited = PASSAGE_CITATION.search(url)
    return (int(cited[1]), int(cited[2])) if cited else None


class ClaimStatus(StrEnum):
    """How well a report sentence's citations back it (ALCE-style claim check)."""

    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"
    UNCITED = "uncited"


class Claim(Record):
    """One sentence of the report, its citations, and what checking them against the
    cited sources found."""

    id: str
    text: str  # the sentence without its [n] markers
    section: str = ""
    citations: list[int] = Field(default_factory=list)  # the report's [n] numbers
    source_ids: list[str] = Field(default_factory=list)
    status: ClaimStatus = ClaimStatus.UNCITED
    supporting_source_ids: list[str] = Field(default_factory=list)
    score: float | None = None  # the offline check's best support score, 0..1
    evidence: str = ""  # the source passage that best matches the claim
    rationale: str = ""
    method: str = ""  # who checked it: a model spec, or the offline check's name
    removed: bool = False  # dropped from the report (Config.unsupported_claims="remove")
    iteration: int = 1


class Finding(Record):
    """One statement the analysis drew from the sources, with its confidence and the ids
    of the sources that support it.
    """

    id: str
    content: str
    confidence: Confidence = Confidence.MEDIUM
    source_ids: list[str] = Field(default_factory=list)
    category: str | None = None
    iteration: int = 1


SEARCHED = "searched for "  # how a stated gap lists the searches run for it


class Gap(Record):
    """Something the research did not cover yet, with queries that could fill it."""

    id: str
    description: str
    # Why the research counts it open ("no source examined matches it"); kept apart from
    # the description, which stays the same across iterations so a gap is recorded once.
    reason: str | None = None
    suggested_queries: list[str] = Field(default_factory=list)
    priority: int = 1
    addressed: bool = False
    resolution: str | None = None  # why a gap is closed without being covered
    follow_up_ids: list[str] = Field(default_factory=list)
    severity: Literal["critical", "moderate", "minor"] | None = None
    iteration: int = 1
    # The searches run for it while it stayed open (its suggested queries and follow-ups
    # that ran), so a part left unanswered says what was tried.
    searched: list[str] = Field(default_factory=list)
    # The part of the question this gap stands for (the part check's own gap, or the
    # analyzer's gap it took to stand for the part): it closes once findings address the
    # part. Recorded, not re-derived, so a resumed session closes the same gap.
    part: str | None = None

    def stated(self) -> str:
        """The gap as a report and a run warning state it: its description, and why it is
        open and what was searched for it when that is known."""
        why = [self.reason] if self.reason else []
        if self.searched:
            why.append(SEARCHED + ", ".join(f"'{q}'" for q in self.searched))
        return f"{self.description} ({'; '.join(why)})" if why else self.description


class Directive(Record):
    """A supervisor's paragraph-length research assignment for one topic researcher."""

    id: str
    research_topic: str
    perspective: str = ""
    evidence_needed: str = ""
    priority: int = 2
    round: int = 0
    sub_query_id: str | None = None


class ReflectionDecision(Record):
    """A topic researcher's forced reflection after each search."""

    continue_searching: bool = False
    refined_query: str | None = None
    research_complete: bool = False
    urls_to_extract: list[str] = Field(default_factory=list)
    rationale: str = ""
    follow: LinkFollow | None = None  # the refined query follows these corpus links


class TopicResult(Record):
    """What one topic researcher did for one sub-query: its searches, extracts,
    reflections, the sources it found, its compressed findings and why it stopped.
    """

    sub_query_id: str
    source_ids: list[str] = Field(default_factory=list)
    queries: list[str] = Field(default_factory=list)  # every search query this researcher ran
    # What the link-following searches among them followed, in order.
    follows: list[LinkFollow] = Field(default_factory=list)
    searches: int = 0
    extracts: int = 0
    reflections: list[ReflectionDecision] = Field(default_factory=list)
    novelty_counts: dict[str, int] = Field(default_factory=dict)
    compressed_findings: str | None = None
    compression_error: str | None = None
    stop_reason: str = ""
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def tool_calls(self) -> int:
        """Searches plus extracts (the researcher's tool-call budget counts both)."""
        return self.searches + self.extracts


class AgentDecision(Record):
    """One decision an agent (or ``user``, for your steers) made, with its rationale,
    phase, iteration, inputs and outputs: the audit trail ``Session.decisions`` shows.
    """

    agent: str
    action: str
    rationale: str = ""
    phase: Phase | None = None
    iteration: int = 1
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, Any] = Field(default_factory=dict)
    timestamp: datetime = Field(default_factory=utcnow)


class UsageRecord(Record):
    """One LLM call: who made it, with which model, what it cost."""

    role: str
    phase: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    duration_s: float = 0.0
    token_limit_retries: int = 0
    repair_attempts: int = 0
    scope: str | None = None  # the sub-query a topic researcher made the call for
    timestamp: datetime = Field(default_factory=utcnow)


class PhaseMetrics(Record):
    """One phase run's measurements: duration, LLM calls, tokens, cost, searches,
    token-limit retries, claim counts, and its outcome with the reasons it is not ok.
    """

    phase: Phase
    iteration: int
    started_at: datetime = Field(default_factory=utcnow)
    duration_s: float = 0.0
    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    search_calls: int = 0
    token_limit_retries: int = 0
    claims: dict[str, int] = Field(default_factory=dict)  # verification: count per status
    error: str | None = None
    outcome: Outcome = Outcome.OK
    # Why the outcome is not ok, one line each ("analyzer: ... ; extractive fallback").
    problems: list[str] = Field(default_factory=list)
    failed_calls: int = 0  # LLM calls lost after the whole model chain failed
    fallback_calls: int = 0  # calls answered by a later model of the chain
    # What a user should check though nothing was lost (corpus files read in a guessed
    # encoding): run warnings, while the outcome stays ok.
    warnings: list[str] = Field(default_factory=list)
    # Characters of source text the prompts carried vs. what was offered to them.
    prompt_source_chars: int = 0
    offered_source_chars: int = 0

    def warn(self, warning: str) -> None:
        """Record something to check that did not degrade the phase."""
        if warning not in self.warnings:
            self.warnings.append(warning)

    def degrade(self, problem: str) -> None:
        """Record a problem; the phase is degraded unless it already failed."""
        if problem not in self.problems:
            self.problems.append(problem)
        if self.outcome == Outcome.OK:
            self.outcome = Outcome.DEGRADED


class QueryCoverage(Record):
    """Supervision's view of one sub-query: its sources, their quality and domains, and
    whether its coverage is sufficient.
    """

    sub_query_id: str
    query: str
    status: SubQueryStatus
    source_count: int = 0
    quality: dict[str, int] = Field(default_factory=dict)
    domains: int = 0
    sufficient: bool = False
    follows_links: bool = False  # its sub-query follows links: one entry at most, not thin


class SupervisionRound(Record):
    """One supervision round: per-query coverage, the weighted confidence and its factors,
    the supervisor's think, the directives and sub-queries it added, and whether to go on.
    """

    iteration: int
    round: int
    coverage: list[QueryCoverage] = Field(default_factory=list)
    confidence: float = 0.0
    scores: dict[str, float] = Field(default_factory=dict)
    dominant_factors: list[str] = Field(default_factory=list)
    weak_factors: list[str] = Field(default_factory=list)
    delta: list[str] = Field(default_factory=list)
    think: str = ""
    directive_ids: list[str] = Field(default_factory=list)
    new_sub_query_ids: list[str] = Field(default_factory=list)
    research_complete: bool = False
    should_continue: bool = False
    stop_reason: str = ""


class SupervisionMessage(Record):
    """One message of the supervisor's history: a think, a delegation or a tool result."""

    kind: Literal["think", "delegation", "tool_result"]
    round: int
    content: str


class Clarification(Record):
    """The clarification phase's result: whether the question needs clarifying, the
    question to ask, the understanding stated otherwise, and the answer if one was given.
    """

    need_clarification: bool = False
    question: str = ""
    verification: str = ""
    answer: str | None = None  # the person's answer, when a hook gave one


class GuidanceNote(Record):
    """Guidance a think pause gave for the next phase; consumed when that phase runs."""

    phase: Phase
    text: str
    consumed: bool = False


class ContentFidelity(Record):
    """How much of one item (source, finding, topic) a prompt kept: original and current
    tokens, the fidelity level and, when archived, the hash of the full text.
    """

    item_id: str
    item_type: Literal["source", "finding", "topic"] = "source"
    original_tokens: int
    current_tokens: int
    level: str
    phase: str = ""
    archived_hash: str | None = None

    @property
    def compression_ratio(self) -> float:
        """Current tokens over original tokens (1.0 for an empty original)."""
        return self.current_tokens / self.original_tokens if self.original_tokens else 1.0


class AllocationSummary(Record):
    """How one prompt's token budget was spent: fidelity, tokens used and available, and
    how many items were dropped or summarised.
    """

    phase: str
    fidelity: float
    tokens_used: int
    tokens_available: int
    items_dropped: int = 0
    items_summarized: int = 0

    @property
    def utilization(self) -> float:
        """Tokens used over tokens available (inf when nothing was available but some were used)."""
        if not self.tokens_available:  # nothing was available: any use is an overflow
            return float("inf") if self.tokens_used else 0.0
        return self.tokens_used / self.tokens_available


class Citation(Record):
    """One entry of a report's sources list: what ``[number]`` in the report points to,
    with the source's bibliographic details so a Report renders its sources, BibTeX and
    CSL-JSON on its own (``Report.save``)."""

    number: int
    source_id: str
    title: str = ""
    url: str = ""
    domain: str = ""
    quality: SourceQuality = SourceQuality.UNKNOWN
    published: str | None = None
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    open_access_url: str | None = None

    @classmethod
    def of(cls, number: int, source: Source) -> Citation:
        """The citation ``[number]`` of ``source``, with its bibliographic details."""
        details = source.model_dump(
            include={"title", "url", "domain", "quality", "published", "authors", "year",
                     "venue", "doi", "open_access_url"}
        )  # fmt: skip
        return cls(number=number, source_id=source.id, **details)


class ProviderRecipe(Record):
    """How to rebuild a session's providers when it is resumed (never a key): the model
    and search names it ran with, whether they were custom objects (which cannot be
    rebuilt from the store and must be passed again), and its whole Config."""

    llm: str = ""
    search: str = ""
    custom_llm: bool = False
    custom_search: bool = False
    config: dict[str, Any] = Field(default_factory=dict)


class Report(Record):
    """The cited Markdown report of a session, with its typed citations.

    ``str(report)`` is the Markdown; in a notebook it renders sanitized, citations linked.
    ``report.save(path)`` writes it alone (no Session needed), in the format its suffix
    names: ``.md``, ``.html``, ``.json``, ``.bib`` or ``.csl.json``."""

    markdown: str
    question: str = ""  # what the report answers (its title when saved alone)
    sections: list[str] = Field(default_factory=list)
    cited_source_ids: list[str] = Field(default_factory=list)
    # Typed: renderers link [n] through this list, never by parsing the text back.
    citations: list[Citation] = Field(default_factory=list)
    word_count: int = 0
    confidence_summary: dict[str, int] = Field(default_factory=dict)
    fidelity: float | None = None
    fidelity_level: str | None = None
    iteration: int = 1
    # Which parts of the run were degraded (lost calls, fallbacks); empty for a clean run.
    warnings: list[str] = Field(default_factory=list)

    @property
    def citations_count(self) -> int:
        """How many sources the report cites."""
        return len(self.cited_source_ids)

    def __repr__(self) -> str:
        return (
            f"Report({self.word_count} words, {self.citations_count} sources, "
            f"sections={len(self.sections)})"
        )

    def __str__(self) -> str:
        return self.markdown

    def _repr_markdown_(self) -> str:  # escaped, [n] linked via its typed citations
        from deepresearch.render import jupyter_files_route, report_markdown

        return report_markdown(self, files=jupyter_files_route())

    def _repr_html_(self) -> str:  # the same, rendered and cleaned (markdown-it-py + nh3)
        from deepresearch.render import jupyter_files_route, report_html

        return report_html(self, files=jupyter_files_route())

    def save(self, path: str | os.PathLike[str], format: str | None = None) -> Path:
        """Write the report to a file and return its path.

        Args:
            path: where to write; missing parent folders are created.
            format: ``"md"`` (the report and its sources, escaped), ``"html"`` (a
                standalone sanitized page, citations linked, sources listed, no scripts),
                ``"json"`` (this Report; loads back with ``Report.model_validate_json``),
                ``"bibtex"`` or ``"csl"`` (the cited sources for reference managers).
                By default from the suffix: ``.md``, ``.html``/``.htm``, ``.json``,
                ``.bib``, ``.csl.json``.

        Raises:
            InputError: the format is neither given nor told by the suffix.
        """
        from deepresearch.render.report_files import save_report

        return save_report(self, Path(path), format)
