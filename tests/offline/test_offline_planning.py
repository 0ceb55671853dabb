"""Offline clarification, brief, planning and refinement: rules over the question's words."""

from __future__ import annotations

import pytest

from deepresearch.offline import planning
from deepresearch.roles import (
    BriefInputs,
    ClarifyInputs,
    GapBrief,
    PlanInputs,
    RefineInputs,
    ScoutHit,
)
from deepresearch.text import clauses, term_set

COMPOUND = "How did the printing press spread, and what was its effect on literacy in Europe?"
THREE_PARTS = (
    "What caused the fall of the Western Roman Empire; how did Byzantium survive; "
    "what happened to Roman law?"
)
SIMPLE = "What is photosynthesis?"


def plan(question: str, *, existing_queries: list[str] | None = None) -> list[str]:
    inputs = PlanInputs(
        question=question, max_sub_queries=5, existing_queries=existing_queries or []
    )
    return [q.query for q in planning.plan(inputs).sub_queries]


# -- clarification ----------------------------------------------------------------------
@pytest.mark.parametrize("question", ["Rome", "photosynthesis?", "  Jazz  "])
def test_a_one_word_question_asks_which_aspect(question: str) -> None:
    out = planning.clarify(ClarifyInputs(question=question, today="2025-01-01"))
    assert out.need_clarification
    assert out.question.strip().endswith("?") and question.strip() in out.question
    assert out.verification == ""


def test_a_specific_question_is_restated_with_its_key_terms() -> None:
    out = planning.clarify(ClarifyInputs(question=COMPOUND, today="2025-01-01"))
    assert not out.need_clarification and out.question == ""
    assert COMPOUND in out.verification
    for term in ("printing", "press", "literacy", "europe"):
        assert term in out.verification


# -- brief ------------------------------------------------------------------------------
def test_the_brief_lists_the_dimensions_of_a_compound_question() -> None:
    out = planning.brief(BriefInputs(question=COMPOUND, today="2025-01-01"))
    text = out.research_brief
    assert text.startswith(f"Research question: {COMPOUND}")
    assert "Dimensions to cover: " in text
    for part in clauses(COMPOUND):
        assert part in text
    assert "primary and authoritative sources" in text
    assert "note where sources disagree" in text


def test_the_brief_keeps_the_clarification_answer_and_guidance_verbatim() -> None:
    answer = "Only Germany between 1450 and 1550."
    out = planning.brief(
        BriefInputs(
            question=SIMPLE,
            clarification_answer=f"  {answer} ",
            guidance=["Include C4 plants"],
            today="2025-01-01",
        )
    )
    assert f"The person asking specified: {answer}" in out.research_brief
    assert "Reviewer guidance: Include C4 plants" in out.research_brief
    assert "Dimensions to cover" not in out.research_brief  # one clause: nothing to list


def test_the_brief_is_deterministic() -> None:
    inputs = BriefInputs(question=THREE_PARTS, today="2025-01-01")
    assert planning.brief(inputs) == planning.brief(inputs)


# -- planning ---------------------------------------------------------------------------
@pytest.mark.parametrize("question", [COMPOUND, THREE_PARTS, SIMPLE])
def test_the_plan_is_deterministic(question: str) -> None:
    inputs = PlanInputs(question=question, max_sub_queries=5)
    assert planning.plan(inputs) == planning.plan(inputs.model_copy(deep=True))


@pytest.mark.parametrize("question", [COMPOUND, THREE_PARTS, SIMPLE])
def test_each_clause_of_the_question_becomes_a_sub_query(question: str) -> None:
    queries = plan(question)
    for part in clauses(question):
        assert any(term_set(part) <= term_set(q) for q in queries), (part, queries)


def test_clauses_are_first_priority() -> None:
    out = planning.plan(PlanInputs(question=THREE_PARTS, max_sub_queries=5))
    for part in clauses(THREE_PARTS):
        (query,) = [q for q in out.sub_queries if term_set(part) <= term_set(q.query)]
        assert query.priority == 1


def test_every_clause_survives_the_sub_query_limit() -> None:
    out = planning.plan(PlanInputs(question=THREE_PARTS, max_sub_queries=3))
    queries = [q.query for q in out.sub_queries]
    for part in clauses(THREE_PARTS):
        assert any(term_set(part) <= term_set(q) for q in queries), (part, queries)


@pytest.mark.parametrize("limit", [2, 3, 5])
def test_the_plan_respects_the_limit_and_has_no_duplicates(limit: int) -> None:
    out = planning.plan(PlanInputs(question=THREE_PARTS, max_sub_queries=limit))
    queries = [q.query for q in out.sub_queries]
    assert 1 <= len(queries) <= limit
    assert len({" ".join(q.lower().split()) for q in queries}) == len(queries)
    assert all(len(q) >= planning.MIN_QUERY_CHARS for q in queries)
    assert all(q.rationale for q in out.sub_queries)


def test_existing_queries_are_not_planned_again() -> None:
    first = plan(COMPOUND)
    again = plan(COMPOUND, existing_queries=[first[0].upper()])
    assert first[0] not in again


def test_guidance_becomes_a_first_priority_sub_query() -> None:
    out = planning.plan(
        PlanInputs(question=SIMPLE, max_sub_queries=5, guidance=["Cover the Calvin cycle"])
    )
    guided = [q for q in out.sub_queries if q.rationale.startswith("Reviewer guidance")]
    assert guided and guided[0].priority == 1
    assert {"calvin", "cycle"} <= term_set(guided[0].query)


def test_a_scout_hit_the_question_names_is_searched_by_its_title() -> None:
    scout = [
        ScoutHit(title="Photosynthesis", snippet="Process used by plants"),
        ScoutHit(title="Volcano"),
    ]
    question = "How does photosynthesis change the climate?"
    out = planning.plan(PlanInputs(question=question, max_sub_queries=5, scout=scout))
    queries = [q.query for q in out.sub_queries]
    # the title alone, so entity linking finds the entry; no template words around it
    assert "Photosynthesis" in queries
    assert not any("overview" in q or "Volcano" in q for q in queries)


def test_a_title_query_is_not_repeated_when_a_part_searches_the_same_words() -> None:
    scout = [ScoutHit(title="Photosynthesis")]
    out = planning.plan(PlanInputs(question=SIMPLE, max_sub_queries=5, scout=scout))
    assert [q.query for q in out.sub_queries] == ["What is photosynthesis"]


def test_the_given_brief_is_kept_and_a_missing_one_is_written() -> None:
    given = planning.plan(PlanInputs(question=COMPOUND, max_sub_queries=5, research_brief="B."))
    assert given.research_brief == "B."
    written = planning.plan(PlanInputs(question=COMPOUND, max_sub_queries=5))
    assert written.research_brief
    assert written.sub_queries[0].query in written.research_brief


# -- refinement -------------------------------------------------------------------------
def test_refinement_follows_up_fresh_queries_while_iterations_remain() -> None:
    gaps = [
        GapBrief(id="gap-1", description="trade", suggested_queries=["printing trade", "asked"]),
        GapBrief(id="gap-2", description="law", suggested_queries=["asked"], priority=3),
    ]
    out = planning.refine(
        RefineInputs(
            question=COMPOUND, gaps=gaps, iteration=1, max_iterations=2, existing_queries=["ASKED"]
        )
    )
    by_id = {g.gap_id: g for g in out.gap_analysis}
    assert by_id["gap-1"].addressable and by_id["gap-1"].severity == "critical"
    assert [f.query for f in by_id["gap-1"].follow_up_queries] == ["printing trade"]
    assert not by_id["gap-2"].addressable and by_id["gap-2"].severity == "minor"
    assert out.iteration_recommendation.should_iterate


def test_refinement_stops_when_no_iterations_remain() -> None:
    gaps = [GapBrief(id="gap-1", description="trade", suggested_queries=["printing trade"])]
    out = planning.refine(RefineInputs(question=COMPOUND, gaps=gaps, iteration=2, max_iterations=2))
    assert not out.iteration_recommendation.should_iterate


def test_each_name_the_question_gives_is_searched_on_its_own() -> None:
    question = "What's the difference between Rc<T> and Arc<T>?"
    queries = plan(question)
    # one part compares two things; each has its own entry to find
    assert any(q.startswith("Rc T") for q in queries) and "Arc T" in queries
    assert not any(q.startswith("What's") and term_set(q) <= {"what"} for q in queries)


def test_a_part_whose_searches_all_ran_gets_new_ones_and_the_loop_goes_on() -> None:
    question = "What is democracy and where did it originate?"
    part = GapBrief(
        id="gap-1",
        description="No source found answers this part of the question: where did it originate",
        suggested_queries=["originate democracy"],
    )
    minor = GapBrief(id="gap-2", description="law", suggested_queries=["asked"], priority=3)
    inputs = RefineInputs(
        question=question, gaps=[part, minor], iteration=1, max_iterations=3,
        existing_queries=["What is democracy", "originate democracy", "asked"],
    )  # fmt: skip
    by_id = {g.gap_id: g for g in planning.refine(inputs).gap_analysis}
    assert by_id["gap-1"].addressable
    assert [f.query for f in by_id["gap-1"].follow_up_queries] == ["where did democracy originate"]
    assert not by_id["gap-2"].addressable  # a minor gap is not worth new searches
    assert planning.refine(inputs).iteration_recommendation.should_iterate
    # Once those ran too and nothing else is left to try, the refiner gives up on it.
    tried = inputs.model_copy(
        update={"existing_queries": [*inputs.existing_queries, "where did democracy originate"]}
    )
    out = planning.refine(tried)
    assert not out.gap_analysis[0].addressable
    assert not out.iteration_recommendation.should_iterate
