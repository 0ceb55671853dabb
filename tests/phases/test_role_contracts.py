"""What the code does with an answer matches what the model was asked for."""

from __future__ import annotations

import asyncio
import json

import pytest
from phase_support import QUESTION, add_source, completed, fast_config
from pydantic import BaseModel

from deepresearch import roles
from deepresearch.phases.analyze import analyze
from deepresearch.phases.refine import refine
from deepresearch.phases.supervise import supervise
from deepresearch.roles import (
    AnalysisOutput,
    CoverageAssessment,
    DelegationOutput,
    DirectiveDraft,
    FindingDraft,
    FollowUp,
    GapAssessment,
    IterationRecommendation,
    PlannedQuery,
    QualityUpdate,
    RefinementOutput,
    ThinkOutput,
)
from deepresearch.state import Gap, Phase, ResearchState
from deepresearch.testing import ScriptedLLM, context

OUTPUTS = [
    roles.ClarifyOutput,
    roles.BriefOutput,
    roles.PlanOutput,
    roles.SummaryOutput,
    roles.ReflectOutput,
    roles.CompressOutput,
    roles.ThinkOutput,
    roles.DelegationOutput,
    roles.CoverageAssessment,
    roles.AnalysisOutput,
    roles.ReportDraft,
    roles.RefinementOutput,
    roles.CondenseOutput,
]


def _models(model: type[BaseModel]) -> list[type[BaseModel]]:
    found = [model]
    for field in model.model_fields.values():
        for arg in getattr(field.annotation, "__args__", ()) or (field.annotation,):
            if isinstance(arg, type) and issubclass(arg, BaseModel):
                found += _models(arg)
    return found


@pytest.mark.parametrize("output", OUTPUTS, ids=lambda m: m.__name__)
def test_every_output_field_says_what_it_means(output: type[BaseModel]) -> None:
    for model in _models(output):
        for name, field in model.model_fields.items():
            assert field.description and len(field.description) > 15, f"{model.__name__}.{name}"


@pytest.mark.parametrize(
    "output", [o for o in OUTPUTS if issubclass(o, roles.Contract)], ids=lambda m: m.__name__
)
def test_the_schema_sent_leaves_class_docstrings_out(output: type[BaseModel]) -> None:
    # Docstrings are for readers of the code; the model reads the field descriptions.
    schema = output.model_json_schema()
    assert output.__doc__ and "description" not in schema
    for name, nested in schema.get("$defs", {}).items():
        assert "description" not in nested, name


@pytest.mark.parametrize(
    "output",
    [roles.ReflectOutput, roles.DelegationOutput, roles.CoverageAssessment, roles.PlanOutput],
)
def test_link_following_is_not_in_the_schema_a_model_is_sent(output: type[BaseModel]) -> None:
    # The offline engine's mechanism: a model neither sees nor is asked for it, so a
    # model-backed search is never turned into following corpus links.
    schema = json.dumps(output.model_json_schema())
    assert '"follow"' not in schema and "LinkFollow" not in schema and "titles" not in schema


@pytest.mark.parametrize(
    "output", [roles.ReflectOutput, roles.DelegationOutput, roles.CoverageAssessment]
)
def test_reasoning_comes_before_the_decision(output: type[BaseModel]) -> None:
    assert next(iter(output.model_fields)) == "rationale"
    assert list(roles.IterationRecommendation.model_fields) == ["rationale", "should_iterate"]


def _analysis_state() -> ResearchState:
    state = ResearchState(question=QUESTION)
    sq = completed(state, QUESTION)
    for k in range(1, 4):
        add_source(state, sq, f"https://s{k}.example/page", content=f"Fact number {k}.")
    return state


def test_findings_may_name_sources_by_id_number_or_bracketed_number() -> None:
    state = _analysis_state()
    drafts = [
        FindingDraft(content="One", source_ids=["src-1"]),
        FindingDraft(content="Two", source_ids=["2"]),
        FindingDraft(content="Three", source_ids=["[3]", " [3] ", "src-99"]),
        FindingDraft(content="None", source_ids=["7", "x"]),
    ]
    out = AnalysisOutput(
        findings=drafts, quality_updates=[QualityUpdate(source_id="[2]", quality="high")]
    )
    llm = ScriptedLLM({AnalysisOutput: [out]})
    cfg = fast_config(enable_compression=False)
    asyncio.run(analyze(state, context(llm, config=cfg)))
    assert [(f.content, f.source_ids) for f in state.findings] == [
        ("One", ["src-1"]),
        ("Two", ["src-2"]),
        ("Three", ["src-3"]),
    ]
    assert state.source("src-2").quality.value == "high"  # type: ignore[union-attr]


def _refine_state() -> ResearchState:
    state = _analysis_state()
    state.max_iterations = 2
    state.gaps.append(Gap(id="gap-1", description="No figures on literacy", iteration=1))
    return state


@pytest.mark.parametrize("iterate", [True, False])
def test_refinement_queues_follow_ups_only_when_it_recommends_iterating(iterate: bool) -> None:
    state = _refine_state()
    out = RefinementOutput(
        gap_analysis=[
            GapAssessment(gap_id="gap-1", follow_up_queries=[FollowUp(query="literacy rates 1500")])
        ],
        iteration_recommendation=IterationRecommendation(rationale="r", should_iterate=iterate),
    )
    llm = ScriptedLLM({RefinementOutput: [out]})
    state.phase = Phase.REFINEMENT
    report = asyncio.run(refine(state, context(llm, config=fast_config(max_iterations=2))))
    assert bool(state.pending_sub_queries()) is iterate
    assert report.summary["should_iterate"] is iterate
    assert state.unresolved_gaps()  # not iterating leaves the gap open, not "resolved"


@pytest.mark.parametrize("go_on", [True, False])
def test_assessment_runs_follow_ups_only_when_it_asks_to_go_on(go_on: bool) -> None:
    state = _analysis_state()
    state.phase = Phase.SUPERVISION
    out = CoverageAssessment(
        rationale="thin",
        should_continue_gathering=go_on,
        follow_up_queries=[PlannedQuery(query="printing press literacy statistics")],
    )
    llm = ScriptedLLM({CoverageAssessment: [out]})
    cfg = fast_config(delegation_model=False, max_supervision_rounds=3)
    report = asyncio.run(supervise(state, context(llm, config=cfg)))
    assert bool(state.pending_sub_queries()) is go_on
    assert report.summary["should_continue"] is go_on


def test_a_directive_searches_its_search_query_not_its_first_sentence() -> None:
    state = _analysis_state()
    state.phase = Phase.SUPERVISION
    directive = DirectiveDraft(
        research_topic="Find out how quickly presses spread. Look at city records.",
        search_query="spread of printing presses by city 1450-1500",
    )
    llm = ScriptedLLM(
        {
            ThinkOutput: [ThinkOutput(gap_analysis="thin", gaps=["spread"])],
            DelegationOutput: [DelegationOutput(rationale="more", directives=[directive])],
        }
    )
    cfg = fast_config(delegation_model=True, max_supervision_rounds=3)
    asyncio.run(supervise(state, context(llm, config=cfg)))
    assert [sq.query for sq in state.pending_sub_queries()] == [directive.search_query]
    assert state.directives[0].research_topic == directive.research_topic
