"""Contracts of the roles that write and check: the report writer, the claim verifier,
the refiner and the budget's condenser (see ``deepresearch.roles``)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from deepresearch.providers.base import TextOutput
from deepresearch.roles.gathering import Contract, SourceText, TopicDigest


# -- synthesis -------------------------------------------------------------------------
class FindingBrief(Contract):
    """A finding as the report writer sees it, with its citation numbers."""

    id: str
    content: str
    confidence: str
    citations: list[int] = Field(default_factory=list)
    category: str | None = None


class SourceRef(Contract):
    """A source in the report writer's numbered source list."""

    citation: int
    title: str
    url: str
    quality: str = "unknown"


class SynthesizeInputs(Contract):
    """What the report writer reads: findings, the evidence behind them, gaps and sources."""

    question: str
    research_brief: str | None = None
    findings: list[FindingBrief] = Field(default_factory=list)
    # Budget-fitted evidence behind the findings, citing the same [n] numbers: each
    # topic's compressed notes, and excerpts of cited sources no note covers.
    notes: list[TopicDigest] = Field(default_factory=list)
    excerpts: list[SourceText] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    sources: list[SourceRef] = Field(default_factory=list)
    iteration: int = 1
    max_iterations: int = 1
    source_count: int = 0
    high_quality_count: int = 0
    guidance: list[str] = Field(default_factory=list)
    today: str = ""


class ReportDraft(TextOutput):
    """The report writer answers in plain Markdown (no JSON): the whole answer is this field."""

    model_config = ConfigDict(extra="ignore")

    markdown: str = Field(
        description="The whole report in Markdown, citing sources only as [n] with the "
        "numbers given, without a source list."
    )


# -- claim verification ----------------------------------------------------------------
class ClaimToCheck(Contract):
    """A report sentence to verify, with its [n] citations."""

    id: str
    text: str
    citations: list[int] = Field(default_factory=list)


class VerifyInputs(Contract):
    """Report sentences with their [n] citations, and the cited sources' text (each
    SourceText.citation is the report's number for it)."""

    question: str
    claims: list[ClaimToCheck] = Field(default_factory=list)
    sources: list[SourceText] = Field(default_factory=list)
    support_threshold: float = 0.6  # offline check: score at or above which a source supports
    partial_threshold: float = 0.35  # offline check: score at or above which it partly does
    guidance: list[str] = Field(default_factory=list)


class ClaimVerdict(Contract):
    """The verifier's judgement of one claim against its cited sources."""

    claim_id: str
    status: Literal["supported", "partial", "unsupported"]
    supporting_citations: list[int] = Field(default_factory=list)
    evidence: str = ""  # the passage of a cited source that backs (or best matches) the claim
    rationale: str = ""
    score: float | None = None


class VerifyOutput(Contract):
    """The verifier's answer: one verdict per claim."""

    verdicts: list[ClaimVerdict] = Field(default_factory=list)
    method: str = ""  # the offline check names itself (e.g. 'lexical+dense')


# -- refinement ------------------------------------------------------------------------
class GapBrief(Contract):
    """A knowledge gap as the refiner sees it."""

    id: str
    description: str
    suggested_queries: list[str] = Field(default_factory=list)
    priority: int = 1


class RefineInputs(Contract):
    """What the refiner reads: the report's start, the gaps, and the run's counts so far."""

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
    today: str = ""
    # The sources findings rest on, most used first: the names they state beside a gap's
    # words are searches the offline refiner can try. Not shown in prompts.
    sources: list[SourceText] = Field(default_factory=list)


class FollowUp(Contract):
    """A follow-up search the refiner proposes for a gap."""

    query: str = Field(
        description="A search not already asked, specific to the gap, in the language of "
        "the question."
    )
    expected_contribution: str = Field("", description="What this search should add to the report.")


class GapAssessment(Contract):
    """The refiner's judgement of one gap: how severe, and whether a search could close it."""

    gap_id: str = Field(description='The gap\'s id as given, e.g. "gap-2".')
    severity: Literal["critical", "moderate", "minor"] = Field(
        "moderate",
        description="critical: the question cannot be answered without it; moderate: the "
        "answer is weaker without it; minor: a detail.",
    )
    addressable: bool = Field(
        True,
        description="true when a web search could plausibly find the missing evidence; "
        "false for what is unknowable or unpublished. If unsure, true.",
    )
    follow_up_queries: list[FollowUp] = Field(
        default_factory=list,
        description="1-2 follow-up searches for an addressable gap; empty otherwise.",
    )


class IterationRecommendation(Contract):
    """Whether the refiner recommends another research iteration."""

    rationale: str = Field("", description="Why another research iteration is or is not worth it.")
    should_iterate: bool = Field(
        False,
        description="true to research the follow-up queries in another iteration; false to "
        "finish with the current report (the follow-ups are then not run). If unsure, true "
        "when a critical or moderate gap is addressable and iterations remain.",
    )


class RefinementOutput(Contract):
    """The refiner's answer: an assessment per gap and whether to iterate."""

    gap_analysis: list[GapAssessment] = Field(
        default_factory=list, description="One assessment per knowledge gap listed."
    )
    iteration_recommendation: IterationRecommendation = Field(
        default_factory=IterationRecommendation,
        description="Whether to run another iteration on the follow-up queries.",
    )


# -- token budgeting -------------------------------------------------------------------
class CondenseInputs(Contract):
    """Ask the summarization role to bring a text down to a fidelity level."""

    text: str
    level: str  # condensed | compressed | key_points | headline
    target_tokens: int
    query: str = ""


class CondenseOutput(Contract):
    """The condenser's answer: the shortened text."""

    text: str = Field(
        description="The shortened text, keeping every [n] citation marker with the "
        "statement it supports."
    )
