"""Per-role contracts: the structured inputs each phase hands to an LLM call and the
pydantic output it expects back. Remote models see these through prompts and JSON
schemas; the offline engine computes the outputs from the inputs directly.

Every output field carries a description, because a remote model reads it in the JSON
schema: it says what the field means and, for a yes/no decision, which way to lean when
unsure ("If unsure, true."). Reasoning fields come before the decisions they justify, so
a model writes its reasons first. No field is asked for that the code does not use.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from deepresearch.providers.base import TextOutput
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
    domain: str = ""


class TopicDigest(Contract):
    sub_query_id: str
    query: str
    compressed: str
    source_ids: list[str] = Field(default_factory=list)


class PlannedQuery(Contract):
    rationale: str = Field(
        "", description="Why this sub-query is needed: which part of the question it answers."
    )
    query: str = Field(
        description="A self-contained search query (a few specific keywords, in the language "
        "of the question), understandable without the other sub-queries."
    )
    priority: int = Field(
        1, ge=1, le=3, description="1 = most important, 3 = least; researched in that order."
    )


# -- clarification ---------------------------------------------------------------------
class ClarifyInputs(Contract):
    question: str
    today: str


class ClarifyOutput(Contract):
    need_clarification: bool = Field(
        description="true only when the question cannot be researched well without asking "
        "the person (an unknown acronym, several very different readings, no scope at all). "
        "If unsure, false."
    )
    question: str = Field(
        "",
        description="When need_clarification is true: the ONE short question to ask the "
        "person, in the language of their question. Otherwise empty.",
    )
    verification: str = Field(
        "",
        description="When need_clarification is false: one or two sentences restating what "
        "will be researched, in the language of the question. Otherwise empty.",
    )


# -- brief -----------------------------------------------------------------------------
class BriefInputs(Contract):
    question: str
    clarifying_question: str = ""  # what the clarifier asked, so the answer can be read
    clarification_answer: str | None = None
    verification: str = ""
    guidance: list[str] = Field(default_factory=list)
    today: str


class BriefOutput(Contract):
    research_brief: str = Field(
        description="The research brief: one paragraph in the first person, in the language "
        "of the question, keeping every constraint the person stated and leaving unstated "
        "dimensions open."
    )


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
    today: str = ""


class PlanOutput(Contract):
    research_brief: str = Field(
        "",
        description="2-3 sentences on what a complete answer must cover (used only when no "
        "brief was written earlier).",
    )
    sub_queries: list[PlannedQuery] = Field(
        default_factory=list,
        description="Focused, non-overlapping sub-queries that together answer the question.",
    )


# -- topic research --------------------------------------------------------------------
class SummarizeInputs(Contract):
    query: str
    title: str
    url: str
    content: str
    question: str = ""
    today: str = ""


class SummaryOutput(Contract):
    executive_summary: str = Field(
        description="What the page says that bears on the research focus, in about 25-35% of "
        "its length (at most ~250 words), keeping numbers, dates, names and units exactly. "
        "If nothing on the page is relevant, say so in one sentence."
    )
    key_excerpts: list[str] = Field(
        default_factory=list,
        max_length=5,
        description="Up to 5 sentences copied word for word from the page that carry its "
        "most important facts for the research focus; empty if none.",
    )


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
    perspective: str = ""  # from the supervisor's directive, when the sub-query is one
    evidence_needed: str = ""
    today: str = ""


class ReflectOutput(Contract):
    """The researcher's decision after a search; becomes a state ReflectionDecision."""

    rationale: str = Field(
        "",
        description="What the sources found so far answer, and what part of the sub-query is "
        "still unanswered.",
    )
    research_complete: bool = Field(
        False,
        description="true when the sources already answer the sub-query, or the last search "
        "brought nothing new: research on it stops. If unsure, false.",
    )
    continue_searching: bool = Field(
        False,
        description="true to run refined_query as the next search (ignored when "
        "research_complete is true). If unsure and tool calls remain, true.",
    )
    refined_query: str | None = Field(
        None,
        description="When continue_searching is true: the next search, more specific than "
        "every search already run and aimed at the unanswered part, in the language of the "
        "question.",
    )
    urls_to_extract: list[str] = Field(
        default_factory=list,
        description="URLs, copied from the sources shown, whose full page should be read "
        "because the snippet suggests detail it cuts off; may be empty.",
    )

    def decision(self) -> ReflectionDecision:
        return ReflectionDecision(**self.model_dump())


class CompressInputs(Contract):
    question: str
    sub_query: str
    queries: list[str] = Field(default_factory=list)
    sources: list[SourceText] = Field(default_factory=list)
    today: str = ""


class CompressOutput(Contract):
    compressed: str = Field(
        description="The findings as '- statement [n]' lines, grouped under short headings "
        "by theme; every statement keeps the [n] number of the source it comes from, exactly "
        "as given."
    )


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
    today: str = ""


class ThinkOutput(Contract):
    gap_analysis: str = Field(
        description="How well the findings answer each part of the research brief, naming "
        "what is well supported and what is thin or missing."
    )
    gaps: list[str] = Field(
        default_factory=list,
        description="Specific missing content (one per item) that more research could find; "
        "empty when the brief can be answered now.",
    )


class DirectiveDraft(Contract):
    research_topic: str = Field(
        description="A paragraph telling a researcher who sees nothing else what to find "
        "out: the subject, the context from the question, what is already known."
    )
    search_query: str = Field(
        "",
        description="The researcher's first web search for this directive: a few specific "
        "keywords in the language of the question.",
    )
    perspective: str = Field(
        "", description="The angle to research from (e.g. economic, clinical, historical)."
    )
    evidence_needed: str = Field(
        "", description="The kind of evidence that would close the gap (figures, studies, ...)."
    )
    priority: int = Field(2, ge=1, le=3, description="1 = most important, 3 = least.")


class DelegationOutput(Contract):
    rationale: str = Field(
        "", description="Why more research is, or is not, needed to answer the brief."
    )
    research_complete: bool = Field(
        False,
        description="true when the findings already answer the research brief well enough: "
        "no directives are sent. If unsure, false.",
    )
    directives: list[DirectiveDraft] = Field(
        default_factory=list,
        description="New research tasks, one per important gap, none repeating an existing "
        "sub-query; empty when research_complete is true.",
    )


class CoverageAssessment(Contract):
    rationale: str = Field(
        "",
        description="Per sub-query, whether it is sufficiently covered (2+ quality sources "
        "from different domains) and what is missing.",
    )
    overall_coverage: Literal["sufficient", "partial", "insufficient"] = Field(
        "partial", description="How well the sources cover the research brief as a whole."
    )
    should_continue_gathering: bool = Field(
        False,
        description="true to research the follow_up_queries before analysis; false to go on "
        "with what was found (follow-ups are then not run). If unsure, true when coverage "
        "is not sufficient.",
    )
    follow_up_queries: list[PlannedQuery] = Field(
        default_factory=list,
        description="At most 3 queries that drill into what is missing, none repeating an "
        "existing sub-query.",
    )


# -- analysis --------------------------------------------------------------------------
class AnalyzeInputs(Contract):
    question: str
    research_brief: str | None = None
    sub_queries: list[str] = Field(default_factory=list)
    sources: list[SourceText] = Field(default_factory=list)
    topics: list[TopicDigest] = Field(default_factory=list)
    known_findings: list[str] = Field(default_factory=list)
    guidance: list[str] = Field(default_factory=list)
    today: str = ""


class FindingDraft(Contract):
    content: str = Field(
        description="One or two sentences stating a fact that answers part of the question, "
        "with its specific figures, dates and names, in the language of the question."
    )
    confidence: Literal["speculation", "low", "medium", "high", "confirmed"] = Field(
        "medium",
        description="confirmed: several authoritative sources state it; high: multiple "
        "reliable sources agree; medium: one reliable source or several weaker ones; low: a "
        "single weak source; speculation: inferred, not stated by any source.",
    )
    source_ids: list[str] = Field(
        default_factory=list,
        description='The ids of the sources that state it, as given (e.g. "src-6"; the '
        'number 6 or "[6]" is accepted too).',
    )
    category: str | None = Field(
        None, description="A short theme name grouping related findings (e.g. 'Causes')."
    )


class GapDraft(Contract):
    description: str = Field(
        description="A specific part of the question the sources do not answer."
    )
    suggested_queries: list[str] = Field(
        default_factory=list, description="1-2 searches that could find the missing evidence."
    )
    priority: int = Field(1, ge=1, le=3, description="1 = most important, 3 = least.")


class QualityUpdate(Contract):
    source_id: str = Field(description='The source\'s id as given, e.g. "src-6".')
    quality: Literal["low", "medium", "high"] = Field(
        description="high: official, peer-reviewed, primary or an established reference; "
        "medium: reputable news or a specialist site; low: anonymous, promotional, forum, or "
        "off-topic."
    )


class AnalysisOutput(Contract):
    quality_updates: list[QualityUpdate] = Field(
        default_factory=list, description="A quality rating for each source you judged."
    )
    findings: list[FindingDraft] = Field(
        default_factory=list,
        description="The key findings, each resting on the sources that state it; none "
        "repeating an already known finding.",
    )
    gaps: list[GapDraft] = Field(
        default_factory=list,
        description="1-3 parts of the question the sources leave unanswered; empty if none.",
    )


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
    claim_id: str
    status: Literal["supported", "partial", "unsupported"]
    supporting_citations: list[int] = Field(default_factory=list)
    evidence: str = ""  # the passage of a cited source that backs (or best matches) the claim
    rationale: str = ""
    score: float | None = None


class VerifyOutput(Contract):
    verdicts: list[ClaimVerdict] = Field(default_factory=list)
    method: str = ""  # the offline check names itself (e.g. 'lexical+dense')


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
    today: str = ""


class FollowUp(Contract):
    query: str = Field(
        description="A search not already asked, specific to the gap, in the language of "
        "the question."
    )
    expected_contribution: str = Field("", description="What this search should add to the report.")


class GapAssessment(Contract):
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
    rationale: str = Field("", description="Why another research iteration is or is not worth it.")
    should_iterate: bool = Field(
        False,
        description="true to research the follow-up queries in another iteration; false to "
        "finish with the current report (the follow-ups are then not run). If unsure, true "
        "when a critical or moderate gap is addressable and iterations remain.",
    )


class RefinementOutput(Contract):
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
    text: str = Field(
        description="The shortened text, keeping every [n] citation marker with the "
        "statement it supports."
    )
