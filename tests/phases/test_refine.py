"""Refinement in the loop: a part of the question whose searches found nothing is searched
again differently while iterations remain, and is reported unanswered, with what was
searched for it, when nothing answers it."""

from __future__ import annotations

import deepresearch as dr
from deepresearch.phases.messages import refine_user
from deepresearch.roles import RefineInputs, RefinementOutput
from deepresearch.state import RunStatus
from deepresearch.testing import FunctionLLM, StaticSearch

QUESTION = "What is democracy and where did it originate?"
DOCS = [
    {
        "url": "https://e.org/democracy",
        "title": "Democracy",
        "content": "Democracy is a form of government in which political power is vested in "
        "the people. Under a minimalist definition, rulers are elected through competitive "
        "elections.",
    },
    {
        "url": "https://e.org/government",
        "title": "Government",
        "content": "A government is the system or group of people which lead a state. "
        "Governments come in many forms, such as democracy and autocracy.",
    },
]


async def test_an_unanswered_part_is_searched_again_differently_then_reported() -> None:
    search = StaticSearch(DOCS)
    s = dr.Session(QUESTION, llm="offline", search=search, persist=False, max_iterations=3)
    await s.run()
    state = s.state
    [gap] = [g for g in state.gaps if g.description.endswith("where did it originate")]
    # The plan searched the part's words; the refiner then asked it as a sentence about
    # the question's subject, in a second iteration, and nothing answered it.
    # With nothing else to try, the loop stops before the iteration limit.
    assert state.iteration == 2
    assert gap.resolution == "judged not addressable by further search"
    refined = [sq.query for sq in state.sub_queries if sq.origin == "refinement"]
    assert "where did democracy originate" in refined
    assert len(refined) == len({q.lower() for q in refined})  # no search asked twice
    assert not gap.addressed
    assert gap.searched[:2] == ["originate democracy", "where did democracy originate"]
    assert s.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert gap in state.unanswered_gaps()
    report = state.report.markdown if state.report else ""
    gaps = report.split("## Gaps and limitations", 1)[1]
    assert "searched for 'originate democracy', 'where did democracy originate'" in gaps
    summary = report.split("## Key findings", 1)[0]
    assert "Not answered: where did it originate (" in summary
    assert "searched for" not in summary  # the summary says why; the gaps say what was tried


async def test_with_one_iteration_the_part_is_reported_with_the_search_it_had() -> None:
    s = dr.Session(QUESTION, llm="offline", search=StaticSearch(DOCS), persist=False,
                   max_iterations=1)  # fmt: skip
    await s.run()
    [gap] = [g for g in s.state.gaps if g.description.endswith("where did it originate")]
    assert s.state.iteration == 1 and not gap.follow_up_ids
    assert gap.searched == ["originate democracy"]
    assert "searched for 'originate democracy')" in s.state.report.markdown  # type: ignore[union-attr]


async def test_a_part_still_unanswered_at_the_iteration_limit_stays_open() -> None:
    s = dr.Session(QUESTION, llm="offline", search=StaticSearch(DOCS), persist=False,
                   max_iterations=2)  # fmt: skip
    await s.run()
    [gap] = [g for g in s.state.gaps if g.description.endswith("where did it originate")]
    # Its follow-up found nothing, but that alone does not close it: the limit ends the run.
    assert gap in s.state.unresolved_gaps()
    assert gap.searched == ["originate democracy", "where did democracy originate"]
    assert s.status == RunStatus.COMPLETED_WITH_WARNINGS


async def test_the_refiner_sees_every_search_asked_and_the_sources_behind_the_findings() -> None:
    llm = FunctionLLM()  # offline answers; records what each role was given
    s = dr.Session(QUESTION, llm=llm, search=StaticSearch(DOCS), persist=False,
                   max_iterations=2)  # fmt: skip
    await s.run()
    [request] = llm.requests_for(RefinementOutput)
    inputs = request.inputs
    assert isinstance(inputs, RefineInputs)
    first = [sq for sq in s.state.sub_queries if sq.iteration == 1 and sq.origin != "refinement"]
    ids = {sq.id for sq in first}
    researched = {q for t in s.state.topic_results if t.sub_query_id in ids for q in t.queries}
    assert researched and researched <= set(inputs.existing_queries)
    assert {sq.query for sq in first} <= set(inputs.existing_queries)
    cited = {sid for f in s.state.findings if f.iteration == 1 for sid in f.source_ids}
    assert {src.id for src in inputs.sources} == cited
    # The sources are for the offline refiner: a model is not sent them.
    assert request.user == refine_user(inputs.model_copy(update={"sources": []}))
