"""Contracts of the roles that review what was gathered: the supervisor's three steps and
the analyzer (see ``deepresearch.roles``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from deepresearch.roles.gathering import (
    FOLLOW_NOTE,
    Contract,
    HiddenFollow,
    PlannedQuery,
    SourceText,
    TopicDigest,
)
from deepresearch.state.models import QueryCoverage


# -- supervision -----------------------------------------------------------------------
class SupervisionInputs(Contract):
    """What the supervisor reads in each of its steps: coverage per sub-query, what
    changed since last round, the topic digests and its own history."""

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
    # The titles sub-queries and researchers' searches have asked to follow links to
    # (SubQuery.follow, TopicResult.follows); not in prompts.
    links_followed: list[str] = Field(default_factory=list)


class ThinkOutput(Contract):
    """The supervisor's think step: how well the findings answer the brief, and the gaps."""

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
    """One research task the supervisor delegates (becomes a sub-query)."""

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
    follow: HiddenFollow = Field(None, description=FOLLOW_NOTE)  # for its opening search


class DelegationOutput(Contract):
    """The supervisor's delegate step: stop, or the new research tasks."""

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
    """The supervisor's assess step: overall coverage and whether to gather more."""

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
    """What the analyzer reads: the sources, topic digests and findings already known."""

    question: str
    research_brief: str | None = None
    sub_queries: list[str] = Field(default_factory=list)
    sources: list[SourceText] = Field(default_factory=list)
    topics: list[TopicDigest] = Field(default_factory=list)
    known_findings: list[str] = Field(default_factory=list)
    # The question's parts (``offline.parts.question_parts``): each finding is filed under
    # the one it answers (its category), and the coverage check reads that.
    parts: list[str] = Field(default_factory=list)
    # The question parts earlier findings answer (their categories): not gaps again when
    # this iteration's sources, gathered for another part, do not answer them.
    answered_parts: list[str] = Field(default_factory=list)
    guidance: list[str] = Field(default_factory=list)
    today: str = ""
    # Every gathered source's title, not only this iteration's: the offline analyzer
    # splits the question as the phase did (``parts``: a title the question gives whole,
    # "War and Peace", is one part). Left out of the schema and the prompt.
    titles: SkipJsonSchema[list[str]] = Field(default_factory=list)
    # The findings earlier iterations filed under each part: (the part, its sources' titles
    # and documents, its text). What a later part pointing back to that part's answer is
    # answered of (``offline.referred``). Left out of the schema and the prompt.
    earlier_answers: SkipJsonSchema[list[tuple[str, list[str], str]]] = Field(default_factory=list)


class FindingDraft(Contract):
    """One finding the analyzer states, with its confidence and sources."""

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
        None,
        description="The part of the question the finding answers, copied exactly from the "
        "parts listed; empty if it answers none.",
    )


class GapDraft(Contract):
    """One part of the question the analyzer finds unanswered."""

    description: str = Field(
        description="A specific part of the question the sources do not answer."
    )
    suggested_queries: list[str] = Field(
        default_factory=list, description="1-2 searches that could find the missing evidence."
    )
    priority: int = Field(1, ge=1, le=3, description="1 = most important, 3 = least.")
    reason: str = Field(
        "", description="Why the sources examined do not answer it, in a few words."
    )


class QualityUpdate(Contract):
    """The analyzer's quality rating of one source."""

    source_id: str = Field(description='The source\'s id as given, e.g. "src-6".')
    quality: Literal["low", "medium", "high"] = Field(
        description="high: official, peer-reviewed, primary or an established reference; "
        "medium: reputable news or a specialist site; low: anonymous, promotional, forum, or "
        "off-topic."
    )


class AnalysisOutput(Contract):
    """The analyzer's answer: source ratings, findings and gaps."""

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
