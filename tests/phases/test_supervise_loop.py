"""The supervision loop inside the workflow: when it stops, loops back to gathering,
is skipped, falls back to query generation, and what it leaves in the state."""

from __future__ import annotations

from itertools import count

from phase_support import (
    QUESTION,
    covered_state,
    delegating_llm,
    fast_config,
    finished_with_every_phase_ok,
    paragraph,
    routed_llm,
    topic_docs,
)
from pydantic import BaseModel

import deepresearch as dr
from deepresearch.config import Config
from deepresearch.phases.supervise import supervise
from deepresearch.providers.base import LLMRequest
from deepresearch.roles import (
    CoverageAssessment,
    DelegationOutput,
    DirectiveDraft,
    PlannedQuery,
    SupervisionInputs,
    ThinkOutput,
)
from deepresearch.state import (
    Phase,
    ResearchState,
    SubQueryStatus,
    SupervisionRound,
)
from deepresearch.testing import FunctionLLM, ScriptedLLM, StaticSearch, context
from deepresearch.workflow.loop import Workflow
from deepresearch.workflow.transitions import next_phase

DOCS = topic_docs({"mainz": 3, "venice": 2, "lonely": 1, "guild": 2})
THIN = "lonely printing"  # one source: never confidently covered


def _gathering_state(*queries: str) -> ResearchState:
    state = ResearchState(question=QUESTION, max_iterations=1)
    state.phase = Phase.GATHERING
    for q in queries:
        state.add_sub_query(q)
    return state


async def _run(state: ResearchState, cfg: Config, llm: FunctionLLM) -> StaticSearch:
    search = StaticSearch(DOCS)
    await Workflow(context(llm, search, config=cfg)).run(state)
    return search


def _phases(state: ResearchState) -> list[Phase]:
    return [m.phase for m in state.metrics]


async def test_research_complete_signal_ends_supervision() -> None:
    def respond(complete: bool) -> FunctionLLM:
        rounds = count(1)

        def answer(request: LLMRequest) -> BaseModel | None:
            if request.output_type is DelegationOutput:
                draft = DirectiveDraft(research_topic=paragraph(f"obscure topic {next(rounds)}"))
                return DelegationOutput(research_complete=complete, directives=[draft])
            return None

        return routed_llm(answer)

    state = _gathering_state(THIN)
    llm = respond(complete=True)
    await _run(state, fast_config(topic_max_tool_calls=1), llm)
    assert finished_with_every_phase_ok(state)
    (rnd,) = state.supervision_history
    assert rnd.research_complete and rnd.stop_reason.startswith("ResearchComplete")
    assert not state.directives and len(state.sub_queries) == 1
    assert _phases(state)[:3] == [Phase.GATHERING, Phase.SUPERVISION, Phase.ANALYSIS]
    assert len(llm.requests_for(DelegationOutput)) == 1

    # the same supervisor without the signal keeps delegating
    state = _gathering_state(THIN)
    await _run(state, fast_config(topic_max_tool_calls=1, max_supervision_rounds=3), respond(False))
    assert len(state.supervision_history) == 3 and len(state.directives) == 2


async def test_round_limit_completes_supervision_with_nothing_left_pending() -> None:
    cfg = fast_config(topic_max_tool_calls=1)
    assert Config().max_supervision_rounds == 6 == cfg.max_supervision_rounds
    llm = delegating_llm(lambda n: [(f"obscure question {n}", 2)])
    state = _gathering_state(THIN)
    await _run(state, cfg, llm)

    assert finished_with_every_phase_ok(state)
    rounds = [r.round for r in state.supervision_history]
    assert rounds == [1, 2, 3, 4, 5, 6]
    assert "round limit" in state.supervision_history[-1].stop_reason
    assert len(llm.requests_for(DelegationOutput)) == 5  # the last round delegates nothing
    assert not state.pending_sub_queries()  # every delegated directive was researched
    assert all(sq.status == SubQueryStatus.COMPLETED for sq in state.sub_queries)
    assert _phases(state).count(Phase.GATHERING) == 6
    assert _phases(state)[-3:] == [Phase.ANALYSIS, Phase.SYNTHESIS, Phase.VERIFICATION]


async def test_round_limit_is_configurable() -> None:
    llm = delegating_llm(lambda n: [(f"obscure question {n}", 2)])
    state = _gathering_state(THIN)
    await _run(state, fast_config(topic_max_tool_calls=1, max_supervision_rounds=2), llm)
    assert [r.round for r in state.supervision_history] == [1, 2]
    assert len(state.directives) == 1 and not state.pending_sub_queries()


async def test_supervision_skipped_when_disabled() -> None:
    llm = delegating_llm(lambda n: [(f"obscure question {n}", 2)])
    state = _gathering_state("mainz printing")
    await _run(state, fast_config(enable_supervision=False), llm)
    assert finished_with_every_phase_ok(state)
    assert Phase.SUPERVISION not in _phases(state)
    assert _phases(state)[:2] == [Phase.GATHERING, Phase.ANALYSIS]
    assert not state.supervision_history and state.supervision_round == 0
    assert not llm.requests_for(ThinkOutput) and not llm.requests_for(DelegationOutput)

    direct = covered_state(["mainz printing"], per_query=0)
    report = await supervise(direct, context(llm, config=fast_config(enable_supervision=False)))
    assert report.skipped and direct.supervision_round == 0 and not direct.supervision_history


async def test_query_generation_when_delegation_is_disabled() -> None:
    first = CoverageAssessment(
        overall_coverage="partial",
        follow_up_queries=[PlannedQuery(query="guild printing privileges")],
        should_continue_gathering=True,
    )
    done = CoverageAssessment(overall_coverage="sufficient")
    llm = ScriptedLLM({CoverageAssessment: [first, done]})
    state = _gathering_state("mainz printing")
    search = await _run(state, fast_config(delegation_model=False, topic_max_tool_calls=1), llm)

    assert not llm.requests_for(ThinkOutput) and not llm.requests_for(DelegationOutput)
    assert llm.requests_for(CoverageAssessment)
    assert not state.directives and not state.supervision_messages
    follow_up = state.sub_queries[-1]
    assert (follow_up.query, follow_up.origin) == ("guild printing privileges", "supervision")
    assert (
        follow_up.status == SubQueryStatus.COMPLETED
        and "guild printing privileges" in search.queries
    )
    assert state.sources_for(follow_up.id)
    assert _phases(state)[:4] == [Phase.GATHERING, Phase.SUPERVISION] * 2


async def test_confident_coverage_proceeds_to_analysis_without_a_call() -> None:
    state = covered_state(["mainz printing", "venice printing"], per_query=2)
    state.supervision_round = 1
    state.supervision_history.append(SupervisionRound(iteration=1, round=1, should_continue=True))
    llm = ScriptedLLM({}, strict=True)  # any call would fail the round
    report = await supervise(state, context(llm, config=fast_config()))
    rnd = state.supervision_history[-1]
    assert not llm.requests
    assert rnd.confidence >= 0.75 and "coverage confidence" in rnd.stop_reason
    assert report.summary["should_continue"] is False
    assert next_phase(state, Config()) == Phase.ANALYSIS

    # thin coverage in the same position does ask the supervisor
    thin = covered_state(["mainz printing", "venice printing"], per_query=0)
    thin.supervision_history.append(SupervisionRound(iteration=1, round=1))
    thin.supervision_round = 1
    await supervise(thin, context(llm, config=fast_config()))
    assert llm.requests and "unavailable" in thin.supervision_history[-1].stop_reason


async def test_first_round_with_no_gaps_goes_to_analysis() -> None:
    state = covered_state(["mainz printing"], per_query=2)
    llm = ScriptedLLM(
        {
            ThinkOutput: [ThinkOutput(gap_analysis="Everything is covered.", gaps=[])],
            DelegationOutput: [DelegationOutput(research_complete=True, rationale="covered")],
        },
        strict=True,
    )
    await supervise(state, context(llm, config=fast_config()))
    assert state.supervision_history[-1].research_complete
    assert next_phase(state, Config()) == Phase.ANALYSIS


async def test_run_state_shows_supervision_history() -> None:
    llm = delegating_llm(lambda n: [("guild printing privileges", 1)] if n == 1 else [])
    session = dr.Session(
        QUESTION,
        llm=llm,
        search=StaticSearch(DOCS),
        persist=False,
        config=fast_config(topic_max_tool_calls=2),
    )
    await session.run()
    state = session.state
    assert finished_with_every_phase_ok(state)
    first, second = state.supervision_history
    assert (first.round, second.round) == (1, 2)
    assert first.should_continue and first.directive_ids == [state.directives[0].id]
    assert second.research_complete and not second.should_continue
    for rnd in (first, second):
        assert rnd.coverage and rnd.scores and rnd.stop_reason and rnd.delta
    directive_sq = state.sub_query(state.directives[0].sub_query_id or "")
    assert directive_sq is not None and directive_sq.status == SubQueryStatus.COMPLETED
    assert any("[NEW]" in line and directive_sq.query in line for line in second.delta)
    assert len(second.coverage) == len(first.coverage) + 1
    # the second round's think step sees the directive's compressed findings
    think = llm.requests_for(ThinkOutput)[1].inputs
    assert isinstance(think, SupervisionInputs)
    digest = next(t for t in think.topics if t.sub_query_id == directive_sq.id)
    assert "guild" in digest.compressed.lower()
    kinds = [m.kind for m in state.supervision_messages]
    assert kinds == ["think", "delegation", "tool_result", "think"]
    # the directive's compressed findings join the supervisor's history as a tool result
    result = state.supervision_messages[2]
    assert result.round == 1 and result.content.startswith(directive_sq.query)
    topic = state.topic_result(directive_sq.id)
    assert topic is not None and topic.compressed_findings
    assert topic.compressed_findings in result.content
    assert any("tool_result" in line and "guild" in line.lower() for line in think.history)
    frame = dr.ResearchState.from_json(state.to_json())
    assert frame.supervision_history == state.supervision_history
