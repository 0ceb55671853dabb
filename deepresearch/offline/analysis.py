"""Offline analysis: extract findings as ranked sentences with their real source ids,
rate confidence by agreement between sources, and find gaps from uncovered aspects."""

from __future__ import annotations

from dataclasses import dataclass, field

from deepresearch.offline.aspects import (
    Aspect,
    aspect_query,
    aspects_of,
    entity_leads,
    states,
    subject_of,
)
from deepresearch.offline.planning import main_topic
from deepresearch.offline.text import (
    cited_lines,
    containment,
    jaccard,
    keywords,
    sentences,
    stem,
    term_set,
)
from deepresearch.roles import (
    AnalysisOutput,
    AnalyzeInputs,
    FindingDraft,
    GapDraft,
    QualityUpdate,
    SourceText,
)

MAX_FINDINGS = 30
PER_SOURCE = {"core": 6, "related": 2}
AGREEMENT = 0.6
STATES_ASPECT = 0.75  # a source that states an asked-for aspect is core to the question
NAMED_BY_LEAD = 0.5  # a source a followed lead names is related
LEADS_PER_GAP_PASS = 2  # leads turned into gaps per aspect and analysis  # share of a sentence's terms another source must contain to support it


@dataclass
class Candidate:
    text: str
    source_id: str
    position: int
    score: float
    terms: set[str] = field(default_factory=set)
    supporters: set[str] = field(default_factory=set)


def _candidates_from_topics(inputs: AnalyzeInputs) -> dict[str, list[str]]:
    """Compressed topics list each sentence as '- text [n]'; map them back to source ids."""
    by_citation = {s.citation: s.id for s in inputs.sources}
    out: dict[str, list[str]] = {}
    for topic in inputs.topics:
        for n, statement in cited_lines(topic.compressed):
            if n in by_citation:
                out.setdefault(by_citation[n], []).append(statement)
    return out


def _source_relevance(src: SourceText, q_terms: set[str], topic_terms: set[str]) -> float:
    title = term_set(src.title)
    if title and title <= q_terms:
        return 1.0  # the question names this entry
    title_hit = len(title & q_terms) / (len(title) or 1)
    body_hit = containment(q_terms, term_set(src.text))
    return 0.6 * title_hit + 0.4 * body_hit + (0.2 if title & topic_terms else 0.0)


def _inherited_relevance(
    src: SourceText, inputs: AnalyzeInputs, subject: set[str], aspects: list[Aspect]
) -> float:
    """Relevance a source earns without repeating the question's words: it states an
    aspect the question asks for ('Athenian democracy was established…'), or a sub-query
    that followed a lead names it exactly ('ancient Greece democracy' → *Ancient Greece*)."""
    if any(states(s, subject, a) for a in aspects for s in sentences(src.text)):
        return STATES_ASPECT
    title = term_set(src.title)
    for query in inputs.sub_queries:
        q = term_set(query)
        if title and q & subject and title <= q and (q - subject) <= title:
            return NAMED_BY_LEAD
    return 0.0


def analyze(inputs: AnalyzeInputs) -> AnalysisOutput:
    question_terms = term_set(inputs.question)
    focus_terms = question_terms | term_set(" ".join(inputs.sub_queries))
    guidance_terms = term_set(" ".join(inputs.guidance))
    topic_terms = term_set(main_topic(inputs.question))
    texts = _candidates_from_topics(inputs) if inputs.topics else {}
    # A source digested into a compressed topic arrives without text; its sentences are there.
    inputs = inputs.model_copy(
        update={
            "sources": [
                s if s.text else s.model_copy(update={"text": " ".join(texts.get(s.id, []))})
                for s in inputs.sources
            ]
        }
    )
    source_terms = {s.id: term_set(s.title + " " + s.text) for s in inputs.sources}
    subject = term_set(subject_of(inputs.question))
    aspects = aspects_of(inputs.question)
    relevance = {
        s.id: max(
            _source_relevance(s, question_terms, topic_terms),
            _inherited_relevance(s, inputs, subject, aspects),
        )
        for s in inputs.sources
    }

    candidates: list[Candidate] = []
    for src in sorted(inputs.sources, key=lambda s: (-relevance[s.id], s.citation)):
        rel = relevance[src.id]
        if rel < 0.25:
            continue
        limit = PER_SOURCE["core"] if rel >= 0.75 else PER_SOURCE["related"]
        sents = texts.get(src.id) or sentences(src.text)
        scored = []
        for pos, sent in enumerate(sents):
            terms = term_set(sent)
            score = rel + len(terms & focus_terms) / (len(focus_terms) or 1)
            score += 0.5 * len(terms & guidance_terms) / (len(guidance_terms) or 1)
            score += 0.3 if pos == 0 else 0.0
            scored.append(Candidate(sent, src.id, pos, score, terms))
        scored.sort(key=lambda c: -c.score)
        candidates.extend(scored[:limit])

    known = [term_set(k) for k in inputs.known_findings]
    chosen: list[Candidate] = []
    for cand in sorted(candidates, key=lambda c: -c.score):
        if any(jaccard(cand.terms, k) >= 0.6 for k in known):
            continue
        twin = next((c for c in chosen if jaccard(c.terms, cand.terms) >= 0.5), None)
        if twin is not None:
            twin.supporters.add(cand.source_id)
            continue
        cand.supporters = {cand.source_id} | {
            sid
            for sid, terms in source_terms.items()
            if sid != cand.source_id
            and len(cand.terms) >= 4
            and containment(cand.terms, terms) >= AGREEMENT
        }
        chosen.append(cand)
        if len(chosen) >= MAX_FINDINGS:
            break

    quality = {s.id: _quality(s, relevance[s.id]) for s in inputs.sources}
    titles = {s.id: s.title for s in inputs.sources}
    findings = [
        FindingDraft(
            content=c.text,
            confidence=_confidence(c, quality),
            source_ids=sorted(c.supporters, key=lambda sid: (sid != c.source_id, sid)),
            category=titles.get(c.source_id) or None,
        )
        for c in sorted(chosen, key=lambda c: (-relevance[c.source_id], c.source_id, c.position))
    ]
    gaps = _gaps(inputs, findings)
    updates = [QualityUpdate(source_id=sid, quality=q) for sid, q in quality.items()]
    return AnalysisOutput(findings=findings, gaps=gaps, quality_updates=updates)


def _quality(src: SourceText, relevance: float) -> str:
    """A proxy without knowing the publisher: substantial, on-topic text rates higher."""
    length = len(src.text)
    if relevance >= 0.75 and length >= 200:
        return "high"
    if relevance >= 0.4 or length >= 400:
        return "medium"
    return "low"


def _confidence(cand: Candidate, quality: dict[str, str]) -> str:
    strong = sum(1 for sid in cand.supporters if quality.get(sid) == "high")
    n = len(cand.supporters)
    if n >= 3 and strong >= 2:
        return "confirmed"
    if n >= 2 and strong >= 1:
        return "high"
    if n >= 2 or quality.get(cand.source_id) == "high":
        return "medium"
    return "low"


def _gaps(inputs: AnalyzeInputs, findings: list[FindingDraft]) -> list[GapDraft]:
    covered: set[str] = set()
    for f in findings:
        covered |= term_set(f.content)
    for k in inputs.known_findings:
        covered |= term_set(k)
    topic = subject_of(inputs.question)
    subject = term_set(topic)
    stated = [*(f.content for f in findings), *inputs.known_findings]
    gaps: list[GapDraft] = []
    for term in keywords(inputs.question):
        aspect = next((a for a in aspects_of(term)), None)
        if aspect is not None:
            if not any(states(s, subject, aspect) for s in stated):
                gaps.append(
                    GapDraft(
                        description=f"No finding states the {aspect.name} of {topic}.",
                        suggested_queries=[aspect_query(topic, aspect)],
                        priority=1,
                    )
                )
        elif stem(term) not in covered:
            gaps.append(
                GapDraft(
                    description=f"No finding covers '{term}' in relation to {topic}.",
                    suggested_queries=[f"{term} {topic}"],
                    priority=1,
                )
            )
    gaps += _lead_gaps(inputs, topic)
    for note in inputs.guidance:
        terms = [w for w in keywords(note) if stem(w) not in covered]
        if terms:
            gaps.append(
                GapDraft(
                    description=f"Reviewer guidance not yet answered: {note}",
                    suggested_queries=[" ".join([*terms[:5], topic])],
                    priority=1,
                )
            )
    return gaps[:3]


def _lead_gaps(inputs: AnalyzeInputs, topic: str) -> list[GapDraft]:
    """Entities that sources name where they state an asked-for aspect, not researched
    yet: the next iteration follows them (supervision does the same within an iteration
    when it sees compressed topics)."""
    asked = {" ".join(q.lower().split()) for q in inputs.sub_queries}
    texts = [s.text for s in inputs.sources if s.text]
    titles = [s.title for s in inputs.sources]
    gaps: list[GapDraft] = []
    for aspect in aspects_of(inputs.question):
        for lead in entity_leads(topic, aspect, texts, titles)[:LEADS_PER_GAP_PASS]:
            query = f"{lead} {topic}"
            if query.lower() not in asked:
                gaps.append(
                    GapDraft(
                        description=(
                            f"Sources name {lead} where they state the {aspect.name} of "
                            f"{topic}; it is not researched yet."
                        ),
                        suggested_queries=[query],
                        priority=2,
                    )
                )
    return gaps
