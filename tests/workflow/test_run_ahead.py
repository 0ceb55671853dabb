"""Work the loop starts early: planning's scout search and the brief run while the clarifier
does — only when nothing the clarifier or a person says could change them — and what a
run that stops early started is dropped, not recorded as done."""

from __future__ import annotations

import asyncio
from typing import Any

from deepresearch.config import Config
from deepresearch.errors import ProviderSetupError
from deepresearch.offline import OfflineEngine
from deepresearch.prefetch import Prefetch
from deepresearch.providers.base import LLMRequest, LLMResponse
from deepresearch.roles import BriefOutput, ClarifyOutput
from deepresearch.state import Outcome, Phase, ResearchState, RunStatus
from deepresearch.testing import FunctionLLM, RecordingEvents, ScriptedLLM, StaticSearch, context
from deepresearch.workflow.loop import Workflow

QUESTION = "How did the printing press change Europe?"
DOCS = [
    {
        "url": f"https://example.org/{i}",
        "title": f"Printing press {topic}",
        "content": f"The printing press changed {topic} in Europe after 1450.",
    }
    for i, topic in enumerate(["religion", "science", "literacy", "politics"])
]


def config(**overrides: Any) -> Config:
    base: dict[str, Any] = {
        "max_iterations": 1,
        "fetch_time_summarization": False,
        "enable_extract": False,
        "token_management_enabled": False,
        "persist": False,
        "verify_claims": False,
        "task_timeout_s": None,
    }
    return Config(**{**base, **overrides})


def traced(log: list[str]) -> FunctionLLM:
    """The offline engine, answering a moment after each request, logging both ends."""
    engine = OfflineEngine()

    async def answer(request: LLMRequest) -> LLMResponse:
        name = request.output_type.__name__
        log.append(f"{name} asked")
        await asyncio.sleep(0.01)
        response = await engine.complete(request)
        log.append(f"{name} answered")
        return response

    return FunctionLLM(answer)


def traced_search(log: list[str]) -> StaticSearch:
    return StaticSearch(DOCS, delay_s=0.01, on_query=lambda q: log.append(f"search: {q}"))


async def test_without_hooks_the_brief_and_the_scout_search_run_during_clarification() -> None:
    log: list[str] = []
    events = RecordingEvents()
    llm, search = traced(log), traced_search(log)
    state = ResearchState(question=QUESTION)

    await Workflow(context(llm, search, config=config(), events=events)).run(state)

    assert state.status == RunStatus.COMPLETED
    clarified = log.index("ClarifyOutput answered")
    assert log.index("BriefOutput asked") < clarified
    assert log.index(f"search: {QUESTION}") < clarified
    assert search.queries.count(QUESTION) == 1  # planning took the scout search started early
    # the stream still reads phase by phase; the brief says it began early
    started = events.kinds("phase_started")
    assert [p["phase"] for p in started[:3]] == ["clarification", "brief", "planning"]
    assert started[1].get("ran_ahead") is True and "ran_ahead" not in started[0]
    names = events.names()
    first_brief = names.index("phase_started", names.index("phase_started") + 1)
    assert names.index("phase_completed") < first_brief
    # one record per phase; the scout search is planning's
    records = {m.phase: m for m in state.metrics}
    assert [m.phase for m in state.metrics].count(Phase.BRIEF) == 1
    assert records[Phase.BRIEF].outcome == Outcome.OK and records[Phase.BRIEF].llm_calls == 1
    assert records[Phase.PLANNING].search_calls == 1
    scouts = [e for e in events.kinds("search_call") if e["query"] == QUESTION]
    assert len(scouts) == 1 and scouts[0]["scope"] is None


async def test_a_hook_could_answer_so_the_brief_waits_for_the_pause() -> None:
    log: list[str] = []
    llm, search = traced(log), traced_search(log)
    state = ResearchState(question=QUESTION)

    def hook(s: ResearchState, prompt: str) -> str | None:
        return "Focus on Italy." if prompt.startswith("Clarification") else None

    await Workflow(context(llm, search, config=config()), hooks=[hook]).run(state)

    assert log.index("BriefOutput asked") > log.index("ClarifyOutput answered")
    (brief,) = llm.requests_for(BriefOutput)
    assert "Focus on Italy." in brief.user
    # the scout search depends on the question alone: it still starts with the run
    assert log.index(f"search: {QUESTION}") < log.index("ClarifyOutput answered")


async def test_the_brief_started_early_asks_what_the_brief_after_clarification_asks() -> None:
    ahead, stepped = FunctionLLM(), FunctionLLM()
    search = StaticSearch(DOCS)
    await Workflow(context(ahead, search, config=config())).run(ResearchState(question=QUESTION))
    state = ResearchState(question=QUESTION)
    flow = Workflow(context(stepped, search, config=config()))
    await flow.step(state, Phase.CLARIFICATION)
    await flow.step(state, Phase.BRIEF)
    assert state.clarification is not None and state.clarification.verification
    (early,), (late,) = ahead.requests_for(BriefOutput), stepped.requests_for(BriefOutput)
    assert early.messages == late.messages and early.inputs == late.inputs


async def test_a_run_that_ends_in_clarification_drops_what_it_started_ahead() -> None:
    refused = ProviderSetupError("401: the API key was refused", provider="test:scripted")
    llm = ScriptedLLM({ClarifyOutput: [refused]})
    search = StaticSearch(DOCS, delay_s=0.05)
    ctx = context(llm, search, config=config())
    state = ResearchState(question=QUESTION)

    await Workflow(ctx).run(state)

    assert state.status == RunStatus.FAILED and state.phase == Phase.CLARIFICATION
    assert [m.phase for m in state.metrics] == [Phase.CLARIFICATION]
    assert state.metrics[0].outcome == Outcome.FAILED
    assert ctx.prefetch.take(QUESTION, max_results=ctx.config.max_sources_per_query) is None
    # resumed with a working model, it runs every phase once
    fresh = context(FunctionLLM(), StaticSearch(DOCS), config=config())
    await Workflow(fresh).run(state)
    assert state.status == RunStatus.COMPLETED
    assert [m.phase for m in state.metrics].count(Phase.BRIEF) == 1


class SlowClose(Prefetch):
    """A prefetch whose cleanup is still running when the run's task is cancelled."""

    def __init__(self) -> None:
        super().__init__()
        self.closing = asyncio.Event()
        self.closed = False

    async def close(self) -> None:
        self.closing.set()
        await asyncio.sleep(0.05)
        await super().close()
        self.closed = True


async def test_a_cancel_landing_during_the_cleanup_is_the_cancel_the_loop_handled() -> None:
    # Session.cancel sets the token, which the loop may act on first, and then cancels the
    # task: that second cancel can land while the loop cleans up (a Ctrl-C exited 1, not 130).
    ctx = context(FunctionLLM(OfflineEngine()), StaticSearch(DOCS), config=config())
    prefetch = SlowClose()
    ctx.prefetch = prefetch
    ctx.cancel.cancel()
    task = asyncio.create_task(Workflow(ctx, []).run(ResearchState(question=QUESTION)))
    await prefetch.closing.wait()
    task.cancel()
    state = await task
    assert state.status == RunStatus.CANCELLED
    assert prefetch.closed  # the cleanup finished


async def test_someone_elses_cancel_during_the_cleanup_still_propagates() -> None:
    ctx = context(FunctionLLM(OfflineEngine()), StaticSearch(DOCS), config=config())
    prefetch = SlowClose()
    ctx.prefetch = prefetch
    task = asyncio.create_task(Workflow(ctx, []).run(ResearchState(question=QUESTION)))
    await prefetch.closing.wait()
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        return
    raise AssertionError("a cancel that is not the run's own must reach the caller")
