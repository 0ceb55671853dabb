"""deepresearch.phases.setup: the structured clarification gate, the research brief and
planning — alone and as the first three steps of the workflow."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from deepresearch import phases
from deepresearch.context import RunContext
from deepresearch.errors import ProviderError, StructuredOutputError
from deepresearch.phases import prompts
from deepresearch.phases.synthesize import synthesis_inputs
from deepresearch.providers.base import LLMProvider, LLMRequest
from deepresearch.roles import (
    BriefInputs,
    BriefOutput,
    ClarifyInputs,
    ClarifyOutput,
    PlanInputs,
    PlannedQuery,
    PlanOutput,
    ReportDraft,
)
from deepresearch.state import (
    Clarification,
    Confidence,
    Finding,
    Phase,
    ResearchState,
    RunStatus,
)
from deepresearch.testing import FunctionLLM, RecordingEvents, ScriptedLLM, StaticSearch, context
from deepresearch.workflow.loop import Workflow

QUESTION = "How did the printing press change Europe?"
COMPOUND = "How did the printing press spread, and what was its effect on literacy in Europe?"
VAGUE = "Rome"
CONSTRAINT = "Only the Holy Roman Empire, 1450-1550, from primary sources"


def make_ctx(
    llm: LLMProvider, search: StaticSearch, **config: Any
) -> tuple[RunContext, RecordingEvents, list[RunStatus]]:
    """A context with recorded events and a checkpoint that records the status it saw."""
    events = RecordingEvents()
    checkpoints: list[RunStatus] = []

    async def checkpoint(state: ResearchState) -> None:
        checkpoints.append(state.status)

    ctx = context(llm, search, events=events, checkpoint=checkpoint, today="2025-01-01", **config)
    return ctx, events, checkpoints


def inputs_of(llm: FunctionLLM, kind: type[BaseModel]) -> list[Any]:
    return [r.inputs for r in llm.requests if isinstance(r.inputs, kind)]


def requests_of(llm: FunctionLLM, kind: type[BaseModel]) -> list[LLMRequest]:
    return [r for r in llm.requests if isinstance(r.inputs, kind)]


# -- clarification: the structured clarify-or-verify decision ---------------------------
async def test_a_clear_question_is_verified_not_clarified(search: StaticSearch) -> None:
    llm = FunctionLLM()  # the offline engine
    ctx, events, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)

    report = await phases.clarify(state, ctx)

    assert report.phase == Phase.CLARIFICATION and not report.skipped
    assert report.summary == {"need_clarification": False}
    c = state.clarification
    assert c is not None and not c.need_clarification and c.question == ""
    assert c.verification.startswith(f"I understand the question as: {QUESTION}")
    assert report.notes == [c.verification]
    (event,) = events.kinds("clarification")
    assert event == {"need_clarification": False, "question": "", "verification": c.verification}
    (inputs,) = inputs_of(llm, ClarifyInputs)
    assert inputs == ClarifyInputs(question=QUESTION, today="2025-01-01")
    assert state.usage[-1].role == "clarification"


async def test_a_vague_question_gets_one_clarifying_question(search: StaticSearch) -> None:
    ctx, _, _ = make_ctx(FunctionLLM(), search)
    state = ResearchState(question=VAGUE)

    report = await phases.clarify(state, ctx)

    c = state.clarification
    assert c is not None and c.need_clarification
    assert c.question.endswith("?") and "Rome" in c.question
    assert c.answer is None
    assert report.summary == {"need_clarification": True} and report.notes == [c.question]


async def test_the_model_decides_clarify_or_verify(search: StaticSearch) -> None:
    llm = ScriptedLLM(
        {
            ClarifyOutput: [
                ClarifyOutput(need_clarification=True, question="Which period?"),
                ClarifyOutput(need_clarification=False, verification="Europe, 1450-1600."),
            ]
        },
        strict=True,
    )
    ctx, _, _ = make_ctx(llm, search)
    asked = ResearchState(question=QUESTION)
    await phases.clarify(asked, ctx)
    assert asked.clarification == Clarification(need_clarification=True, question="Which period?")

    verified = ResearchState(question=QUESTION)
    await phases.clarify(verified, ctx)
    assert verified.clarification == Clarification(
        need_clarification=False, verification="Europe, 1450-1600."
    )
    assert requests_of(llm, ClarifyInputs)[0].system == prompts.CLARIFY_SYSTEM


async def test_clarifying_again_keeps_the_answer_already_given(search: StaticSearch) -> None:
    ctx, _, _ = make_ctx(FunctionLLM(), search)
    state = ResearchState(question=VAGUE)
    state.clarification = Clarification(need_clarification=True, question="?", answer=CONSTRAINT)
    await phases.clarify(state, ctx)
    assert state.clarification is not None and state.clarification.answer == CONSTRAINT


async def test_clarification_disabled_by_config_makes_no_call(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, events, _ = make_ctx(llm, search, enable_clarification=False)
    state = ResearchState(question=VAGUE)

    report = await phases.clarify(state, ctx)

    assert report.skipped and report.phase == Phase.CLARIFICATION
    assert state.clarification is None and llm.requests == [] and events.events == []


async def test_a_garbage_clarification_answer_is_not_fatal(search: StaticSearch) -> None:
    llm = ScriptedLLM(
        {ClarifyOutput: [StructuredOutputError("no JSON in 'I think so!'", raw_text="I think")]}
    )
    ctx, events, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)

    report = await phases.clarify(state, ctx)

    assert report.summary == {"need_clarification": False}
    assert "no JSON" in report.notes[0]
    assert state.clarification is None
    decision = state.decisions[-1]
    assert (decision.agent, decision.action) == ("clarifier", "clarify_failed")
    assert decision.phase == Phase.CLARIFICATION and "no JSON" in decision.rationale
    assert "StructuredOutputError" in events.kinds("clarification_failed")[0]["error"]


async def test_a_wrongly_shaped_clarification_answer_is_not_fatal(search: StaticSearch) -> None:
    # A provider answering with another schema is a parse failure, not a crash.
    llm = FunctionLLM(lambda r: BriefOutput(research_brief="not a clarification"))
    ctx, _, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)

    report = await phases.clarify(state, ctx)

    assert report.summary == {"need_clarification": False}
    assert state.decisions[-1].action == "clarify_failed"


# -- clarification inside the workflow: waiting for an answer --------------------------
async def test_with_a_hook_clarification_waits_for_the_answer(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, events, checkpoints = make_ctx(llm, search)
    seen: list[tuple[RunStatus, str]] = []

    def person(state: ResearchState, prompt: str) -> str | None:
        seen.append((state.status, prompt))
        return CONSTRAINT if state.phase == Phase.CLARIFICATION else None

    state = ResearchState(question=VAGUE)
    flow = Workflow(ctx, hooks=[person])

    await flow.step(state)  # clarification
    assert state.clarification is not None
    assert seen[0][0] == RunStatus.AWAITING_INPUT  # the hook is asked while the run waits
    assert seen[0][1].startswith("Clarification needed: ")
    assert checkpoints[:2] == [RunStatus.RUNNING, RunStatus.AWAITING_INPUT]  # saved while waiting
    assert state.clarification.answer == CONSTRAINT
    assert state.status == RunStatus.RUNNING and state.phase == Phase.BRIEF
    assert state.guidance_for(Phase.BRIEF) == []  # the answer is not also guidance

    await flow.step(state)  # brief
    (brief_inputs,) = inputs_of(llm, BriefInputs)
    assert brief_inputs.clarification_answer == CONSTRAINT
    assert state.research_brief is not None and CONSTRAINT in state.research_brief
    assert "think_pause" in events.names()


async def test_with_an_async_hook_that_gives_no_answer_the_run_goes_on(
    search: StaticSearch,
) -> None:
    ctx, _, _ = make_ctx(FunctionLLM(), search)
    calls: list[Phase] = []

    async def silent(state: ResearchState, prompt: str) -> None:
        calls.append(state.phase)

    state = ResearchState(question=VAGUE)
    await Workflow(ctx, hooks=[silent]).step(state)
    assert calls == [Phase.CLARIFICATION]
    assert state.clarification is not None and state.clarification.answer is None
    assert state.phase == Phase.BRIEF and state.status == RunStatus.RUNNING


async def test_without_a_hook_clarification_proceeds_with_the_question(
    search: StaticSearch,
) -> None:
    ctx, _, checkpoints = make_ctx(FunctionLLM(), search)
    state = ResearchState(question=VAGUE)

    await Workflow(ctx).step(state)

    assert state.clarification is not None and state.clarification.need_clarification
    assert state.clarification.answer is None
    assert RunStatus.AWAITING_INPUT not in checkpoints
    assert state.phase == Phase.BRIEF and state.status == RunStatus.RUNNING
    assert any(d.action == "clarification_unanswered" for d in state.decisions)


async def test_a_verified_question_does_not_wait_even_with_a_hook(search: StaticSearch) -> None:
    ctx, _, checkpoints = make_ctx(FunctionLLM(), search)
    statuses: list[RunStatus] = []

    def hook(state: ResearchState, prompt: str) -> None:
        statuses.append(state.status)

    state = ResearchState(question=QUESTION)
    await Workflow(ctx, hooks=[hook]).step(state)
    assert statuses == [RunStatus.RUNNING]
    assert RunStatus.AWAITING_INPUT not in checkpoints


async def test_phases_run_clarification_then_brief_then_planning(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, events, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)
    flow = Workflow(ctx)

    for _ in range(3):
        await flow.step(state)

    started = [p["phase"] for p in events.kinds("phase_started")]
    assert started == ["clarification", "brief", "planning"]
    assert state.phase == Phase.GATHERING
    kinds = [type(r.inputs) for r in llm.requests]
    assert kinds == [ClarifyInputs, BriefInputs, PlanInputs]
    assert [m.phase for m in state.metrics] == [Phase.CLARIFICATION, Phase.BRIEF, Phase.PLANNING]
    assert state.metrics[1].llm_calls == 1  # the brief's call is charged to the brief


# -- brief ------------------------------------------------------------------------------
async def test_the_offline_brief_enriches_the_question(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, events, _ = make_ctx(llm, search)
    state = ResearchState(question=COMPOUND)

    report = await phases.brief(state, ctx)

    assert report.phase == Phase.BRIEF and report.summary == {"has_brief": True}
    brief = state.research_brief
    assert brief is not None and brief != COMPOUND
    assert COMPOUND in brief
    # dimensions: each part of the compound question
    assert "Dimensions to cover: How did the printing press spread; " in brief
    assert "what was its effect on literacy in Europe" in brief
    # source preferences and open scope
    assert "primary and authoritative sources" in brief
    assert "open rather than assumed" in brief
    assert events.kinds("brief") == [{"research_brief": brief}]
    assert [u.role for u in state.usage] == ["brief"]
    (request,) = requests_of(llm, BriefInputs)
    assert request.system == prompts.BRIEF_SYSTEM
    assert f"Research question: {COMPOUND}" in request.user


async def test_the_brief_for_a_vague_question_names_source_preferences(
    search: StaticSearch,
) -> None:
    ctx, _, _ = make_ctx(FunctionLLM(), search)
    state = ResearchState(question=VAGUE)
    await phases.brief(state, ctx)
    assert state.research_brief is not None
    assert state.research_brief.startswith("Research question: Rome")
    assert "primary and authoritative sources" in state.research_brief


async def test_the_brief_keeps_constraints_given_in_clarification(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, _, _ = make_ctx(llm, search)
    state = ResearchState(question=VAGUE)
    state.clarification = Clarification(
        need_clarification=True,
        question="Which aspect?",
        verification="Rome, the city",
        answer=CONSTRAINT,
    )

    await phases.brief(state, ctx)

    assert state.research_brief is not None
    assert f"The person asking specified: {CONSTRAINT}" in state.research_brief
    (request,) = requests_of(llm, BriefInputs)
    assert request.inputs == BriefInputs(
        question=VAGUE,
        clarifying_question="Which aspect?",
        clarification_answer=CONSTRAINT,
        verification="Rome, the city",
        today="2025-01-01",
    )
    # the answer is shown with the question it answers
    assert f"We asked: Which aspect?\nThey answered: {CONSTRAINT}" in request.user
    assert "Understanding so far: Rome, the city" in request.user


async def test_brief_guidance_from_a_think_pause_is_used_once(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, _, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)
    state.add_guidance(Phase.BRIEF, "Compare with the Islamic world")

    await phases.brief(state, ctx)

    assert state.research_brief is not None
    assert "Reviewer guidance: Compare with the Islamic world" in state.research_brief
    assert "Compare with the Islamic world" in requests_of(llm, BriefInputs)[0].user
    assert state.guidance_for(Phase.BRIEF) == []


async def test_brief_disabled_by_config_is_skipped(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, events, _ = make_ctx(llm, search, enable_brief=False)
    state = ResearchState(question=QUESTION)

    report = await phases.brief(state, ctx)

    assert report.skipped and report.phase == Phase.BRIEF
    assert state.research_brief is None and llm.requests == [] and events.events == []


async def test_an_empty_brief_counts_as_no_brief(search: StaticSearch) -> None:
    llm = ScriptedLLM({BriefOutput: [BriefOutput(research_brief="   ")]})
    ctx, _, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)
    report = await phases.brief(state, ctx)
    assert state.research_brief is None and report.summary == {"has_brief": False}


async def test_a_failing_brief_is_recorded_and_planning_uses_the_question(
    search: StaticSearch,
) -> None:
    llm = ScriptedLLM({BriefOutput: [ProviderError("HTTP 503 overloaded", provider="test")]})
    ctx, events, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)

    report = await phases.brief(state, ctx)

    assert report.summary == {"has_brief": False}
    assert report.notes == [
        "briefer failed (HTTP 503 overloaded); proceeding with the original question"
    ]
    assert state.research_brief is None
    decision = state.decisions[-1]
    assert (decision.agent, decision.action, decision.phase) == (
        "briefer",
        "brief_failed",
        Phase.BRIEF,
    )
    assert decision.outputs == {"error": "ProviderError: HTTP 503 overloaded"}
    assert events.kinds("brief_failed") == [{"error": "ProviderError: HTTP 503 overloaded"}]
    assert events.kinds("llm_error")[0]["role"] == "brief"

    await phases.plan(state, ctx)
    (plan_inputs,) = inputs_of(llm, PlanInputs)
    assert plan_inputs.question == QUESTION and plan_inputs.research_brief is None
    assert state.sub_queries  # research goes on


async def test_a_failing_brief_does_not_stop_the_workflow(search: StaticSearch) -> None:
    llm = ScriptedLLM({BriefOutput: [ProviderError("boom")]})
    ctx, _, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)
    flow = Workflow(ctx)
    for _ in range(3):
        await flow.step(state)
    assert state.status == RunStatus.RUNNING and state.error is None
    assert state.phase == Phase.GATHERING and state.sub_queries


# -- planning with and without a brief -------------------------------------------------
async def test_planning_uses_the_brief_when_there_is_one(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, _, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)
    state.research_brief = "Focus on literacy and the Reformation, 1450-1600."

    report = await phases.plan(state, ctx)

    (request,) = requests_of(llm, PlanInputs)
    (plan_inputs,) = inputs_of(llm, PlanInputs)
    assert plan_inputs.research_brief == state.research_brief
    assert f"Research brief:\n{state.research_brief}" in request.user
    assert state.research_brief == "Focus on literacy and the Reformation, 1450-1600."
    assert report.summary["has_research_brief"] is True
    assert 1 <= len(state.sub_queries) <= ctx.config.max_sub_queries


async def test_planning_falls_back_to_the_question_without_a_brief(
    search: StaticSearch,
) -> None:
    llm = FunctionLLM()
    ctx, _, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)

    await phases.plan(state, ctx)

    (request,) = requests_of(llm, PlanInputs)
    (plan_inputs,) = inputs_of(llm, PlanInputs)
    assert plan_inputs.research_brief is None and plan_inputs.question == QUESTION
    assert "Research Brief" not in request.user
    assert f"Research question: {QUESTION}" in request.user
    assert state.research_brief  # the planner's own short brief fills the gap
    assert state.sub_queries


async def test_planning_with_brief_disabled_still_plans(search: StaticSearch) -> None:
    ctx, _, _ = make_ctx(FunctionLLM(), search, enable_brief=False)
    state = ResearchState(question=COMPOUND)
    await phases.brief(state, ctx)
    await phases.plan(state, ctx)
    assert state.research_brief is not None and state.research_brief.startswith("Investigate")
    queries = [sq.query for sq in state.sub_queries]
    assert "How did the printing press spread" in queries


async def test_planning_is_deterministic_and_respects_limits(search: StaticSearch) -> None:
    def fresh_ctx() -> RunContext:
        return make_ctx(FunctionLLM(), search, max_sub_queries=2)[0]

    first, second = ResearchState(question=COMPOUND), ResearchState(question=COMPOUND)
    await phases.plan(first, fresh_ctx())
    await phases.plan(second, fresh_ctx())
    assert [sq.query for sq in first.sub_queries] == [sq.query for sq in second.sub_queries]
    assert len(first.sub_queries) == 2
    assert [sq.priority for sq in first.sub_queries] == sorted(
        sq.priority for sq in first.sub_queries
    )


async def test_a_failing_planner_researches_the_question_itself(search: StaticSearch) -> None:
    llm = ScriptedLLM({PlanOutput: [StructuredOutputError("unparseable plan")]})
    ctx, _, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)

    report = await phases.plan(state, ctx)

    assert [sq.query for sq in state.sub_queries] == [QUESTION]
    assert state.sub_queries[0].rationale == "fallback: the question itself"
    assert "planner failed" in report.notes[0]


async def test_a_failing_scout_search_is_not_fatal(docs: list[dict[str, str]]) -> None:
    search = StaticSearch(docs, fail_on=["printing"])
    llm = FunctionLLM()
    ctx, events, _ = make_ctx(llm, search)
    state = ResearchState(question=QUESTION)

    await phases.plan(state, ctx)

    assert inputs_of(llm, PlanInputs)[0].scout == []
    assert events.kinds("search_call")[0]["error"]
    assert state.sub_queries


async def test_planning_keeps_to_the_total_sub_query_cap(search: StaticSearch) -> None:
    planned = PlanOutput(
        sub_queries=[PlannedQuery(query=f"printing press aspect number {i}") for i in range(5)]
    )
    ctx, _, _ = make_ctx(ScriptedLLM({PlanOutput: [planned]}), search, max_total_sub_queries=3)
    state = ResearchState(question=QUESTION)
    state.add_sub_query("already there from before")
    await phases.plan(state, ctx)
    assert len(state.sub_queries) == 3


# -- the brief downstream --------------------------------------------------------------
async def test_the_synthesis_prompt_includes_the_brief(search: StaticSearch) -> None:
    state = ResearchState(question=QUESTION)
    state.research_brief = "Cover literacy and religion; prefer primary sources."
    src = state.new_source(url="https://example.org/a", title="A", content="Text.")
    state.findings.append(
        Finding(id="f-1", content="Literacy rose.", confidence=Confidence.HIGH, source_ids=[src.id])
    )
    text = prompts.synthesize_user(synthesis_inputs(state, []))
    assert f"Research brief:\n{state.research_brief}" in text

    llm = FunctionLLM()
    ctx, _, _ = make_ctx(llm, search)
    await phases.synthesize(state, ctx)
    (request,) = [r for r in llm.requests if r.output_type is ReportDraft]
    assert state.research_brief in request.user

    state.research_brief = None
    assert "Research brief" not in prompts.synthesize_user(synthesis_inputs(state, []))


def test_the_synthesis_prompt_escapes_a_statements_own_bracketed_numbers() -> None:
    # The writer copies statements with their markers: "[1, 2, 3]" must not read as three.
    state = ResearchState(question=QUESTION)
    src = state.new_source(url="https://example.org/a", title="A", content="Text.")
    said = "accumulate([1, 2, 3]) yields 1, 3, 6."
    state.findings.append(
        Finding(id="f-1", content=said, confidence=Confidence.HIGH, source_ids=[src.id])
    )
    text = prompts.synthesize_user(synthesis_inputs(state, []))
    assert r"- accumulate(\[1, 2, 3\]) yields 1, 3, 6. [1]" in text


async def test_an_old_state_without_a_brief_loads_and_plans(search: StaticSearch) -> None:
    saved = {  # saved before briefs existed: no research_brief, no clarification
        "schema_version": 1,
        "question": QUESTION,
        "phase": "planning",
        "status": "running",
    }
    state = ResearchState.from_dict(saved)
    assert state.research_brief is None and state.clarification is None
    ctx, _, _ = make_ctx(FunctionLLM(), search)
    await Workflow(ctx).step(state)
    assert state.phase == Phase.GATHERING and state.sub_queries
