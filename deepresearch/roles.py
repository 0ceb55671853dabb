"""Per-role contracts: the structured inputs each phase hands to an LLM call and the
pydantic output it expects back. Remote models see these through prompts and JSON
schemas; the offline engine computes the outputs from the inputs directly.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from deepresearch.state.models import QueryCoverage, ReflectionDecision


class Contract(BaseModel):
    model_config = {"extra": "ignore"}


# -- shared pieces ---------------------------------------------------------------------
class SourceText(Contract):
    id: str
    citation: int
    title: str = ""
    url: str = ""
    snippet: str = ""
    text: str = ""
    quality: str = "unknown"
    sub_query_id: str | None = None


class TopicDigest(Contract):
    sub_query_id: str
    query: str
    compressed: str
    source_ids: list[str] = Field(default_factory=list)


class PlannedQuery(Contract):
    query: str
    rationale: str = ""
    priority: int = 1


# -- clarification ---------------------------------------------------------------------
class ClarifyInputs(Contract):
    question: str
    today: str


class ClarifyOutput(Contract):
    need_clarification: bool
    question: str = ""
    verification: str = ""


# -- brief -----------------------------------------------------------------------------
class BriefInputs(Contract):
    question: str
    clarification_answer: str | None = None
    verification: str = ""
    guidance: list[str] = Field(default_factory=list)
    today: str


class BriefOutput(Contract):
    research_brief: str


# -- planning --------------------------------------------------------------------------
class ScoutHit(Contract):
    title: str
    snippet: str = ""


class PlanInputs(Contract):
    question: str
    research_brief: str | None = None
    max_sub_queries: int
    guidance: list[str] = Field(default_factory=list)
    scout: list[ScoutHit] = Field(default_factory=list)
    existing_queries: list[str] = Field(default_factory=list)


class PlanOutput(Contract):
    research_brief: str = ""
    sub_queries: list[PlannedQuery] = Field(default_factory=list)


# -- topic research --------------------------------------------------------------------
class SummarizeInputs(Contract):
    query: str
    title: str
    url: str
    content: str


class SummaryOutput(Contract):
    executive_summary: str
    key_excerpts: list[str] = Field(default_factory=list, max_length=5)


class ReflectInputs(Contract):
    question: str
    sub_query: str
    research_brief: str | None = None
    queries_run: list[str] = Field(default_factory=list)
    tool_calls_used: int
    max_tool_calls: int
    sources: list[SourceText] = Field(default_factory=list)
    novelty_summary: str = ""
    last_novelty: dict[str, int] = Field(default_factory=dict)
    extractable_urls: list[str] = Field(default_factory=list)
    max_extract: int = 2
    guidance: list[str] = Field(default_factory=list)


ReflectOutput = ReflectionDecision


class CompressInputs(Contract):
    question: str
    sub_query: str
    queries: list[str] = Field(default_factory=list)
    sources: list[SourceText] = Field(default_factory=list)


class CompressOutput(Contract):
    compressed: str


# -- supervision -----------------------------------------------------------------------
class SupervisionInputs(Contract):
    question: str
    research_brief: str | None = None
    round: int
    max_rounds: int
    coverage: list[QueryCoverage] = Field(default_factory=list)
    delta: list[str] = Field(default_factory=list)
    topics: list[TopicDigest] = Field(default_factory=list)
    history: list[str] = Field(default_factory=list)  # truncated supervision messages
    existing_queries: list[str] = Field(default_factory=list)
    max_directives: int = 3
    gap_analysis: str = ""  # filled for the delegate step from the think step
    gaps: list[str] = Field(default_factory=list)
    guidance: list[str] = Field(default_factory=list)


class ThinkOutput(Contract):
    gap_analysis: str
    gaps: list[str] = Field(default_factory=list)


class DirectiveDraft(Contract):
    research_topic: str
    perspective: str = ""
    evidence_needed: str = ""
    priority: int = Field(2, ge=1, le=3)


class DelegationOutput(Contract):
    research_complete: bool = False
    directives: list[DirectiveDraft] = Field(default_factory=list)
    rationale: str = ""


class CoverageAssessment(Contract):
    overall_coverage: Literal["sufficient", "partial", "insufficient"] = "partial"
    follow_up_queries: list[PlannedQuery] = Field(default_factory=list)
    should_continue_gathering: bool = False
    rationale: str = ""


# -- analysis --------------------------------------------------------------------------
class AnalyzeInputs(Contract):
    question: str
    research_brief: str | None = None
    sub_queries: list[str] = Field(default_factory=list)
    sources: list[SourceText] = Field(default_factory=list)
    topics: list[TopicDigest] = Field(default_factory=list)
    known_findings: list[str] = Field(default_factory=list)
    guidance: list[str] = Field(default_factory=list)


class FindingDraft(Contract):
    content: str
    confidence: Literal["speculation", "low", "medium", "high", "confirmed"] = "medium"
    source_ids: list[str] = Field(default_factory=list)
    category: str | None = None


class GapDraft(Contract):
    description: str
    suggested_queries: list[str] = Field(default_factory=list)
    priority: int = 1


class QualityUpdate(Contract):
    source_id: str
    quality: Literal["low", "medium", "high"]


class AnalysisOutput(Contract):
    findings: list[FindingDraft] = Field(default_factory=list)
    gaps: list[GapDraft] = Field(default_factory=list)
    quality_updates: list[QualityUpdate] = Field(default_factory=list)


# -- synthesis -------------------------------------------------------------------------
class FindingBrief(Contract):
    id: str
    content: str
    confidence: str
    citations: list[int] = Field(default_factory=list)
    category: str | None = None


class SourceRef(Contract):
    citation: int
    title: str
    url: str
    quality: str = "unknown"


class SynthesizeInputs(Contract):
    question: str
    research_brief: str | None = None
    findings: list[FindingBrief] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    sources: list[SourceRef] = Field(default_factory=list)
    iteration: int = 1
    max_iterations: int = 1
    source_count: int = 0
    high_quality_count: int = 0
    guidance: list[str] = Field(default_factory=list)


class ReportDraft(Contract):
    markdown: str


# -- refinement ------------------------------------------------------------------------
class GapBrief(Contract):
    id: str
    description: str
    suggested_queries: list[str] = Field(default_factory=list)
    priority: int = 1


class RefineInputs(Contract):
    question: str
    report_excerpt: str = ""
    gaps: list[GapBrief] = Field(default_factory=list)
    iteration: int
    max_iterations: int
    source_count: int = 0
    finding_count: int = 0
    high_confidence_count: int = 0
    existing_queries: list[str] = Field(default_factory=list)
    guidance: list[str] = Field(default_factory=list)


class FollowUp(Contract):
    query: str
    expected_contribution: str = ""


class GapAssessment(Contract):
    gap_id: str
    severity: Literal["critical", "moderate", "minor"] = "moderate"
    addressable: bool = True
    follow_up_queries: list[FollowUp] = Field(default_factory=list)


class IterationRecommendation(Contract):
    should_iterate: bool = False
    rationale: str = ""
    priority_gaps: list[str] = Field(default_factory=list)


class RefinementOutput(Contract):
    gap_analysis: list[GapAssessment] = Field(default_factory=list)
    iteration_recommendation: IterationRecommendation = Field(
        default_factory=IterationRecommendation
    )
    report_improvements: list[str] = Field(default_factory=list)


# -- token budgeting -------------------------------------------------------------------
class CondenseInputs(Contract):
    """Ask the summarization role to bring a text down to a fidelity level."""

    text: str
    level: str  # condensed | compressed | key_points | headline
    target_tokens: int
    query: str = ""


class CondenseOutput(Contract):
    text: str
