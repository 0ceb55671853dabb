"""Offline clarification, brief, planning and refinement: rules over the question's words
and what a scout search found in the corpus."""

from __future__ import annotations

from deepresearch.offline.followups import new_searches
from deepresearch.offline.parts import question_parts
from deepresearch.roles import (
    BriefInputs,
    BriefOutput,
    ClarifyInputs,
    ClarifyOutput,
    FollowUp,
    GapAssessment,
    IterationRecommendation,
    PlanInputs,
    PlannedQuery,
    PlanOutput,
    RefineInputs,
    RefinementOutput,
    ScoutHit,
)
from deepresearch.text import (
    clauses,
    keywords,
    normalize_query,
    term_set,
    title_phrases,
    truncate_words,
    unique,
)

MIN_QUERY_CHARS = 10
FOLLOW_UPS_PER_GAP = 2  # the refiner contract's "1-2 follow-up searches"


def main_topic(question: str, scout: list[ScoutHit] | None = None) -> str:
    """The thing the question is about: a corpus title it names, a capitalised phrase,
    or its first meaningful words."""
    q_terms = term_set(question)
    for hit in scout or []:
        t_terms = term_set(hit.title)
        if t_terms and t_terms <= q_terms:
            return hit.title
    phrases = title_phrases(question)
    if phrases:
        return max(phrases, key=len)
    terms = keywords(question)
    return " ".join(terms[:3]) if terms else question.strip()


def clarify(inputs: ClarifyInputs) -> ClarifyOutput:
    """The offline clarifier: asks which aspect to research for a question of one
    keyword, else restates what will be researched.

    Args:
        inputs: the clarifier's inputs.
    """
    terms = keywords(inputs.question)
    if len(terms) <= 1 and len(inputs.question) < 30:
        subject = terms[0] if terms else inputs.question.strip()
        return ClarifyOutput(
            need_clarification=True,
            question=(
                f"'{inputs.question.strip()}' is broad. Which aspect of {subject} should the "
                "research focus on — for example its history, how it works, its effects, or "
                "its current state?"
            ),
            verification="",
        )
    return ClarifyOutput(
        need_clarification=False,
        verification=(
            f"I understand the question as: {inputs.question.strip()} "
            f"I will research {', '.join(terms[:6])}."
        ),
    )


def brief(inputs: BriefInputs) -> BriefOutput:
    """The offline briefer: the question, the person's clarification, its dimensions
    and any guidance, as one brief.

    Args:
        inputs: the briefer's inputs.
    """
    parts = [f"Research question: {inputs.question.strip()}"]
    if inputs.clarification_answer:
        parts.append(f"The person asking specified: {inputs.clarification_answer.strip()}")
    dimensions = clauses(inputs.question) or [inputs.question]
    if len(dimensions) > 1:
        parts.append("Dimensions to cover: " + "; ".join(dimensions) + ".")
    for note in inputs.guidance:
        parts.append(f"Reviewer guidance: {note}")
    parts.append(
        "Prefer primary and authoritative sources, note where sources disagree, and leave "
        "dimensions the question does not state open rather than assumed."
    )
    return BriefOutput(research_brief=" ".join(parts))


def plan(inputs: PlanInputs) -> PlanOutput:
    """The offline planner (``inputs``: its inputs): a query per guidance note and question
    part, the main topic, scout titles the question names; new ones only, up to the limit."""
    question = inputs.question
    topic = main_topic(question, inputs.scout)
    candidates: list[PlannedQuery] = []
    for note in inputs.guidance:
        focus = " ".join(keywords(note)[:8])
        if focus:
            candidates.append(
                PlannedQuery(
                    query=f"{topic} {focus}" if topic.lower() not in focus else focus,
                    rationale=f"Reviewer guidance: {truncate_words(note, 120)}",
                    priority=1,
                )
            )
    for part in question_parts(question, [h.title for h in inputs.scout]):
        candidates.append(
            PlannedQuery(
                query=part.query if part.refers_back else part.text,
                rationale="A part of the question, researched and checked on its own.",
                priority=1,
            )
        )
    candidates.append(
        PlannedQuery(
            query=topic,
            rationale=f"The question's main subject, {topic}, on its own.",
            priority=2,
        )
    )
    candidates += _entry_queries(question, topic, inputs.scout)
    existing = {normalize_query(q) for q in inputs.existing_queries}
    chosen: list[PlannedQuery] = []
    # Stable by priority, so the limit never cuts a part of the question for an extra.
    for cand in sorted(candidates, key=lambda c: c.priority):
        key = normalize_query(cand.query)
        if len(cand.query) < MIN_QUERY_CHARS and not term_set(cand.query) <= term_set(topic):
            cand = cand.model_copy(update={"query": f"{cand.query} {topic}".strip()})
            key = normalize_query(cand.query)
        if key in existing or any(_same(cand.query, c.query) for c in chosen):
            continue
        chosen.append(cand)
        existing.add(key)
        if len(chosen) >= inputs.max_sub_queries:
            break
    brief_text = inputs.research_brief or (
        f"Investigate {topic}: " + "; ".join(q.query for q in chosen[:4]) + "."
    )
    return PlanOutput(research_brief=brief_text, sub_queries=chosen)


def _entry_queries(question: str, topic: str, scout: list[ScoutHit]) -> list[PlannedQuery]:
    """Searches for the entries the question names: each name of a part that gives
    several, and the scout's titles most of whose words it uses."""
    candidates: list[PlannedQuery] = []
    # A part that names several things is searched for each on its own as well: "the
    # difference between Rc<T> and Arc<T>" is one part, but each name has its own entry.
    # (A part naming one thing is searched by its own words already.)
    several = [
        n
        for p in question_parts(question, [h.title for h in scout])
        if len(ns := title_phrases(p.text)) > 1
        for n in ns
    ]
    for name in dict.fromkeys(several):
        if term_set(name) and not term_set(name) <= term_set(topic):
            candidates.append(
                PlannedQuery(
                    query=name,
                    rationale=f"The question names {name}: its own entry, searched on its own.",
                    priority=2,
                )
            )
    q_terms = term_set(question)
    for hit in scout:
        t_terms = term_set(hit.title)
        if t_terms and len(t_terms & q_terms) >= max(1, len(t_terms) // 2 + len(t_terms) % 2):
            candidates.append(
                PlannedQuery(
                    query=hit.title,
                    rationale=f"The corpus has an entry on {hit.title}, which the question names.",
                    priority=2,
                )
            )
    return candidates


def _same(a: str, b: str) -> bool:
    ta, tb = term_set(a), term_set(b)
    return bool(ta) and ta == tb


def refine(inputs: RefineInputs) -> RefinementOutput:
    """The offline refiner: each gap's suggested and guidance queries not yet asked as
    follow-ups, else new searches for it (``followups.new_searches``; severity from its
    priority); iterate while any gap has one and iterations remain.

    Args:
        inputs: the refiner's inputs.
    """
    asked = {normalize_query(q) for q in inputs.existing_queries}
    assessments: list[GapAssessment] = []
    priority_gaps: list[str] = []
    guidance_queries = [" ".join(keywords(g)[:8]) for g in inputs.guidance]
    for gap in inputs.gaps:
        queries = unique([*gap.suggested_queries, *[g for g in guidance_queries if g]])
        fresh = [q for q in queries if normalize_query(q) not in asked]
        if not fresh and gap.priority <= 1:
            # A part of the question (or a reviewer's note) whose own searches all ran and
            # found nothing: try different ones before giving up (offline/followups.py).
            fresh = new_searches(
                inputs.question, gap.description, inputs.existing_queries, inputs.sources
            )
        asked |= {normalize_query(q) for q in fresh[:FOLLOW_UPS_PER_GAP]}
        severity = "critical" if gap.priority <= 1 else "moderate" if gap.priority == 2 else "minor"
        assessments.append(
            GapAssessment(
                gap_id=gap.id,
                severity=severity,
                addressable=bool(fresh),
                follow_up_queries=[
                    FollowUp(query=q, expected_contribution=f"Evidence on: {gap.description}")
                    for q in fresh[:FOLLOW_UPS_PER_GAP]
                ],
            )
        )
        if fresh:
            priority_gaps.append(gap.id)
    remaining = inputs.max_iterations - inputs.iteration
    should = bool(priority_gaps) and remaining > 0
    rationale = (
        f"{len(priority_gaps)} of {len(inputs.gaps)} gaps have follow-up queries not yet asked; "
        f"{remaining} iteration(s) left."
        if should
        else "No addressable gaps remain or the iteration budget is spent."
    )
    return RefinementOutput(
        gap_analysis=assessments,
        iteration_recommendation=IterationRecommendation(
            should_iterate=should, rationale=rationale
        ),
    )
