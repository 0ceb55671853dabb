"""Contracts of the roles that set up and gather: clarify, brief, plan, and the topic
researcher's summarize, reflect and compress (see ``deepresearch.roles``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict
from pydantic.json_schema import SkipJsonSchema

from deepresearch.state.models import LinkFollow, ReflectionDecision, document_of


def _without_class_description(schema: JsonDict, cls: type[Any]) -> None:
    # A contract's docstring is for readers of the code; the model is guided by the field
    # descriptions and the prompt, so the schema sent to it leaves the docstring out.
    schema.pop("description", None)


class Contract(BaseModel):
    """Base of every role's inputs and output: fields a model adds are ignored."""

    model_config = ConfigDict(extra="ignore", json_schema_extra=_without_class_description)


# Following corpus links is the offline engine's mechanism (see LinkFollow): a search
# requests it through this field, never through its text. A model is not asked for it:
# the field is left out of the JSON schema sent, so a model-backed search is a search.
HiddenFollow = SkipJsonSchema[LinkFollow | None]
FOLLOW_NOTE = "Not in the schema sent to a model: the corpus links the offline engine follows."


# -- shared pieces ---------------------------------------------------------------------
class SourceText(Contract):
    """A gathered source as a role sees it: its citation number, page text and quality."""

    id: str
    citation: int
    title: str = ""
    url: str = ""
    snippet: str = ""
    text: str = ""
    quality: str = "unknown"
    sub_query_id: str | None = None
    domain: str = ""
    links: list[str] = Field(default_factory=list)  # entries its text names (Source.links)
    # Where a passage sits in its file (Source.lines; None: a whole document), for the
    # offline engine; left out of the schema like the follow fields, and not in prompts.
    lines: SkipJsonSchema[tuple[int, int] | None] = None
    around: SkipJsonSchema[list[str]] = Field(default_factory=list)  # Source.around

    @property
    def document(self) -> str:
        """The document this source is part of (see ``state.models.document_of``)."""
        return document_of(self.url)


class SourceLinks(Contract):
    """A gathered source by citation and title, with the corpus entries its text links
    (``Source.links``): what the offline supervisor follows for a part no statement
    answers yet. Not shown in prompts."""

    citation: int
    title: str = ""
    links: list[str] = Field(default_factory=list)


class TopicDigest(Contract):
    """One sub-query's compressed findings and the sources they rest on."""

    sub_query_id: str
    query: str
    compressed: str
    source_ids: list[str] = Field(default_factory=list)
    links: list[SourceLinks] = Field(default_factory=list)  # its sources that link entries


class PlannedQuery(Contract):
    """A sub-query the planner proposes, with its priority."""

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
    follow: HiddenFollow = Field(None, description=FOLLOW_NOTE)  # the sub-query's opening search


# -- clarification ---------------------------------------------------------------------
class ClarifyInputs(Contract):
    """What the clarifier reads: the question and today's date."""

    question: str
    today: str


class ClarifyOutput(Contract):
    """The clarifier's answer: one question to ask the person, or what will be researched."""

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
    """What the briefer reads: the question, any clarification exchange, and guidance."""

    question: str
    clarifying_question: str = ""  # what the clarifier asked, so the answer can be read
    clarification_answer: str | None = None
    verification: str = ""
    guidance: list[str] = Field(default_factory=list)
    today: str


class BriefOutput(Contract):
    """The briefer's answer: the research brief."""

    research_brief: str = Field(
        description="The research brief: one paragraph in the first person, in the language "
        "of the question, keeping every constraint the person stated and leaving unstated "
        "dimensions open."
    )


# -- planning --------------------------------------------------------------------------
class ScoutHit(Contract):
    """A search result shown to the planner before it plans (title and snippet)."""

    title: str
    snippet: str = ""


class PlanInputs(Contract):
    """What the planner reads: the question, brief, scout results and the sub-queries already run."""

    question: str
    research_brief: str | None = None
    max_sub_queries: int
    guidance: list[str] = Field(default_factory=list)
    scout: list[ScoutHit] = Field(default_factory=list)
    existing_queries: list[str] = Field(default_factory=list)
    today: str = ""


class PlanOutput(Contract):
    """The planner's answer: a brief when none exists, and the sub-queries."""

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
    """What the summarizer reads: one page's content and the search that found it."""

    query: str
    title: str
    url: str
    content: str
    question: str = ""
    today: str = ""


class SummaryOutput(Contract):
    """The summarizer's answer: a page's relevant content and its key excerpts."""

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
    """What the topic researcher reads after a search: its sources so far, the searches
    run, how much new each brought, and its remaining tool calls."""

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
    follow: LinkFollow | None = None  # the sub-query's own (SubQuery.follow); not in prompts
    # The titles this topic's searches have followed links to (TopicResult.follows).
    links_followed: list[str] = Field(default_factory=list)


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
        "because the snippet suggests detail it cuts off, or a passage's before/after URL "
        "where its answer goes on; may be empty.",
    )
    follow: HiddenFollow = Field(None, description=FOLLOW_NOTE)  # for refined_query's search

    def decision(self) -> ReflectionDecision:
        """This answer as the state's :class:`ReflectionDecision`."""
        return ReflectionDecision(**self.model_dump())


class CompressInputs(Contract):
    """What the compressor reads: one sub-query's searches and sources."""

    question: str
    sub_query: str
    queries: list[str] = Field(default_factory=list)
    sources: list[SourceText] = Field(default_factory=list)
    today: str = ""


class CompressOutput(Contract):
    """The compressor's answer: the sub-query's findings as cited lines."""

    compressed: str = Field(
        description="The findings as '- statement [n]' lines, grouped under short headings "
        "by theme; every statement keeps the [n] number of the source it comes from, exactly "
        "as given."
    )
