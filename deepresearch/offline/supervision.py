"""Offline supervision roles (think, delegate, assess): which question parts no gathered
statement answers yet, the bridge entities or corpus links that may answer them, and the
directives that research them. Extractive, like the rest of the offline engine."""

from __future__ import annotations

import re
from typing import NamedTuple

from deepresearch.offline.bridges import (
    bridge_entities,
    linked_entries,
    own_said,
    prose_sentences,
)
from deepresearch.offline.parts import Part, follows_names, question_parts
from deepresearch.offline.research import LINKS_PER_TOPIC
from deepresearch.roles import (
    CoverageAssessment,
    DelegationOutput,
    DirectiveDraft,
    PlannedQuery,
    SupervisionInputs,
    ThinkOutput,
)
from deepresearch.state.models import LinkFollow
from deepresearch.text import (
    TITLE_QUALIFIER,
    cited_lines,
    containment,
    keywords,
    normalize_query,
    sentences,
    term_set,
    words,
)

_GAP_FRAME = frozenset(
    ["little", "evidence", "sources", "source", "nothing", "found", "yet", "reviewer", "asked"]
)
LINKS_PER_GAP = 6  # linked entries a supervisor's directive tries for an unanswered part
LINK_CHARS = 140  # of a sub-query's 200 characters, what those entries' titles may take


_DIGEST_SOURCE = re.compile(r"^\[(?P<n>\d+)\]\s+(?P<title>.+?)(?:\s+—\s+\S*)?$")
_PART_GAP = re.compile(
    r"^no source answers '(?P<part>.+)' yet(?:; sources (?P<how>name|link) (?P<lead>.+))?$"
)
PART_ANSWERED = 0.5  # share of a part's words one gathered statement must hold


class _Cited(NamedTuple):
    """A cited source as the compressed topics give it back: its citation, title and
    statements."""

    citation: int
    title: str
    statements: list[str]


def _digest_sources(inputs: SupervisionInputs) -> tuple[list[_Cited], list[str]]:
    """Each cited source (its statements in order, with its title) and the titles of all
    gathered sources, read back from the compressed topics."""
    titled = {
        int(m["n"]): m["title"]
        for topic in inputs.topics
        for line in topic.compressed.splitlines()
        if (m := _DIGEST_SOURCE.match(line.strip()))
    }
    cited = [_Cited(n, titled.get(n, ""), said) for n, said in _cited_statements(inputs).items()]
    return cited, list(titled.values())


def _answered(part: Part, cited: list[_Cited]) -> bool:
    """Some gathered statement (with its source's title) holds most of the part's words;
    each statement on its own, as one run into the next would hold words neither says."""
    for source in cited:
        extra = term_set(source.title)
        for sent in (s for st in source.statements for s in sentences(st) or [st]):
            if containment(part.terms, term_set(sent) | extra) >= PART_ANSWERED:
                return True
    return False


class _Gap(NamedTuple):
    """A gap as the think step states it, and the links a search for it follows."""

    text: str
    follow: LinkFollow | None = None


def _quoted(titles: list[str]) -> str:
    return " ".join(f'"{t}"' for t in titles)


def _part_gaps(inputs: SupervisionInputs) -> list[_Gap]:
    """One gap per question part no gathered statement answers, naming a bridge entity
    when the sources that answer earlier parts name one, else the entries they link; and
    one per part that asks for an entity or points back whose best source, whichever
    topic gathered it, links entries nobody has followed."""
    sources, titles = _digest_sources(inputs)
    parts = question_parts(inputs.question, titles)
    statements = {s.citation: s.statements for s in sources}
    cited = {n: " ".join(lines) for n, lines in statements.items()}
    gaps: list[_Gap] = []
    for i, part in enumerate(parts):
        if _answered(part, sources):
            if gap := _answer_link(part, cited, inputs):
                gaps.append(gap)
            continue
        missing = f"no source answers '{part.text}' yet"
        untitled = [s._replace(title="") for s in sources]
        earlier = [s for s in untitled if any(_answered(p, [s]) for p in parts[:i])]
        prose = [prose_sentences(s.statements) for s in earlier]
        leads = bridge_entities(part, prose, titles, inputs.question, 1) if earlier else []
        if leads:
            gaps.append(_Gap(f"{missing}; sources name {leads[0]}"))
        elif linked := _gap_link(parts[:i], statements, inputs):
            follow = LinkFollow(titles=linked, words=sorted(part.own or part.terms))
            gaps.append(_Gap(f"{missing}; sources link {_quoted(linked)}", follow))
        else:
            gaps.append(_Gap(missing))
    return gaps


def _cited_statements(inputs: SupervisionInputs) -> dict[int, list[str]]:
    """Each cited source's statements, by citation, read back from the compressed topics."""
    texts: dict[int, list[str]] = {}
    for topic in inputs.topics:
        for n, statement in cited_lines(topic.compressed):
            texts.setdefault(n, []).append(statement)
    return texts


def _unfollowed(leads: list[str], inputs: SupervisionInputs) -> list[str]:
    """The leads not gathered and not yet followed (by a sub-query or a researcher's
    search: ``links_followed``), at most LINKS_PER_GAP, their quoted titles within
    LINK_CHARS."""
    known = {s.title.casefold() for t in inputs.topics for s in t.links}
    known |= {t.casefold() for t in inputs.links_followed}
    kept: list[str] = []
    size = 0
    for lead in list(dict.fromkeys(leads))[:LINKS_PER_GAP]:
        if lead.casefold() in known:
            continue
        if size + len(lead) + 3 > LINK_CHARS:  # the words asked for follow them
            break
        kept.append(lead)
        size += len(lead) + 3
    return kept


def _gap_link(
    earlier: list[Part], cited: dict[int, list[str]], inputs: SupervisionInputs
) -> list[str]:
    """The entries that sources answering an earlier part link from their answering
    statements, in any case ("a diet of *bamboo*"), for a part that hangs on that answer
    and that no gathered statement answers, whichever topic gathered the source. The
    researcher keeps the first whose opening states the part's own words (phases.topic),
    so a link to a common noun adds nothing."""
    linking = {s.citation: s for t in inputs.topics for s in t.links}
    leads: list[str] = []
    for part in earlier:
        for n, statements in cited.items():
            if n in linking and _answered(part, [_Cited(n, "", statements)]):
                src = linking[n]
                text = " ".join(statements)
                leads += linked_entries(part, (src.title, text, src.links), inputs.question)
    return _unfollowed(leads, inputs)


def _answer_link(part: Part, cited: dict[int, str], inputs: SupervisionInputs) -> _Gap | None:
    """For a part that asks for an entity or points back, the entries linked from the
    answering statements of the entry it names ("what did *Nikola Tesla* contribute"),
    whichever topic gathered it: the part's own researcher ranks its sources by all the
    part's words, borrowed ones too, and may have followed another's links."""
    if not follows_names(part):
        return None
    named = [
        s
        for t in inputs.topics
        for s in t.links
        if s.citation in cited and _titled_by(s.title, part.own)
    ]
    if not named:
        return None
    src = max(named, key=lambda s: own_said(part, term_set(f"{s.title}. {cited[s.citation]}")))
    found = linked_entries(part, (src.title, cited[src.citation], src.links), inputs.question)
    leads = _unfollowed(found[:LINKS_PER_TOPIC], inputs)
    # The gate's words: an entry that states only the named one's name says nothing new.
    words = sorted(part.own - term_set(src.title))
    if not leads or not words:
        return None
    return _Gap(
        f"sources that answer '{part.text}' link {_quoted(leads)}; do they state "
        f"{' '.join(words)}?",
        LinkFollow(titles=leads, words=words),
    )


def _titled_by(title: str, words: set[str]) -> bool:
    """Whether ``words`` hold all of a title's words (without its bracketed qualifier)."""
    terms = term_set(TITLE_QUALIFIER.sub("", title))
    return bool(terms) and terms <= words


def supervise_think(inputs: SupervisionInputs) -> ThinkOutput:
    """The offline supervisor's think step: unanswered question parts, thinly covered
    sub-queries and reviewer guidance as gaps.

    Args:
        inputs: the supervisor's inputs.
    """
    # A directive that follows links gathers one entry at most: not thin coverage.
    thin = [c for c in inputs.coverage if not c.sufficient and not c.follows_links]
    gaps = [g.text for g in _part_gaps(inputs)]
    gaps += [f"little evidence for '{c.query}' ({c.source_count} sources)" for c in thin]
    gaps += [f"reviewer asked for: {g}" for g in inputs.guidance]
    lines = [
        f"Round {inputs.round}/{inputs.max_rounds}: "
        f"{len(inputs.coverage) - len(thin)}/{len(inputs.coverage)} sub-queries sufficiently covered."
    ]
    lines += inputs.delta[:6]
    lines.append("Gaps: " + ("; ".join(gaps) if gaps else "none."))
    return ThinkOutput(gap_analysis="\n".join(lines), gaps=gaps)


def _gap_searches(inputs: SupervisionInputs) -> list[tuple[str, LinkFollow | None]]:
    """The search for each of the think step's gaps: one whose sources link entries
    follows those links, any other searches its words. The think step hands its gaps on
    as text, so which follow links is computed again from the same inputs."""
    follows = {g.text: g.follow for g in _part_gaps(inputs) if g.follow is not None}
    parts = question_parts(inputs.question, _digest_sources(inputs)[1])
    searches: list[tuple[str, LinkFollow | None]] = []
    for gap in inputs.gaps:
        follow = follows.get(gap)
        searches.append((follow.query(), follow) if follow else (_gap_query(gap, parts), None))
    return searches


def _gap_query(gap: str, parts: list[Part]) -> str:
    """The search for a gap: a part's own query (after the lead its gap names, if any),
    else the gap's words without its frame."""
    if m := _PART_GAP.match(gap):
        part = next((p for p in parts if p.text == m["part"]), None)
        words = " ".join(keywords(m["part"])[:4])
        if m["lead"]:
            return f"{m['lead']} {words}".strip()
        return part.query if part else words
    terms = [w for w in keywords(gap) if w not in _GAP_FRAME]
    return " ".join(dict.fromkeys(terms[:8]))


def supervise_delegate(inputs: SupervisionInputs) -> DelegationOutput:
    """The offline supervisor's delegate step: a directive per gap whose query is new, up
    to ``max_directives``; research is complete when there is none.

    Args:
        inputs: the supervisor's inputs (with the think step's gaps).
    """
    asked = _Asked(inputs.existing_queries)
    directives: list[DirectiveDraft] = []
    for gap, (query, follow) in zip(inputs.gaps, _gap_searches(inputs), strict=True):
        if not query or query in asked:
            continue
        asked.add(query)
        directives.append(
            DirectiveDraft(
                research_topic=(
                    f"{query}. Research this as part of '{inputs.question.strip()}': "
                    f"the supervisor found {gap}. Look for sources that state it directly "
                    "rather than in passing."
                ),
                perspective="Fill a specific coverage gap left by earlier researchers.",
                evidence_needed="Direct statements with dates, figures or named actors.",
                priority=1 if "reviewer" in gap else 2,
                follow=follow,
            )
        )
        if len(directives) >= inputs.max_directives:
            break
    if not directives:
        return DelegationOutput(
            research_complete=True,
            rationale="Every gap is either covered or already has a researcher on it.",
        )
    return DelegationOutput(
        directives=directives, rationale=f"{len(directives)} gap(s) to research."
    )


def supervise_assess(inputs: SupervisionInputs) -> CoverageAssessment:
    """The offline supervisor's assess step: the think step's gaps as follow-up queries
    not yet asked, and gathering continues when there are any.

    Args:
        inputs: the supervisor's inputs.
    """
    think = supervise_think(inputs)
    asked = _Asked(inputs.existing_queries)
    searches: dict[str, LinkFollow | None] = {}
    for query, follow in _gap_searches(inputs.model_copy(update={"gaps": think.gaps})):
        searches.setdefault(query, follow)
    follow_ups = [
        PlannedQuery(query=q, rationale="Fill a coverage gap.", priority=2, follow=follow)
        for q, follow in searches.items()
        if q and q not in asked
    ][: inputs.max_directives]
    overall = "sufficient" if not think.gaps else "partial" if follow_ups else "insufficient"
    return CoverageAssessment(
        overall_coverage=overall,
        follow_up_queries=follow_ups,
        should_continue_gathering=bool(follow_ups),
        rationale=think.gap_analysis,
    )


class _Asked:
    """The searches already run, to tell whether a query is new: case and spacing do not
    make a new query, nor, for a query of keywords only, their order ("democracy
    originate" after "originate democracy"). A sentence or a quoted phrase is searched as
    written (its phrases name titles), so it is compared as written."""

    def __init__(self, queries: list[str]) -> None:
        self.keys: set[str] = set()
        self.bags: list[set[str]] = []
        for query in queries:
            self.add(query)

    def add(self, query: str) -> None:
        self.keys.add(normalize_query(query))
        if bag := _keywords_only(query):
            self.bags.append(bag)

    def __contains__(self, query: object) -> bool:
        if not isinstance(query, str):
            return False
        bag = _keywords_only(query)
        return normalize_query(query) in self.keys or (bool(bag) and bag in self.bags)


def _keywords_only(query: str) -> set[str]:
    """The words of a query made of lower-case keywords alone (no quote, no capitalised
    name, no word the search would drop), else an empty set."""
    if '"' in query or query != query.lower():
        return set()
    bag = term_set(query)
    return bag if len(set(words(query))) == len(bag) else set()
