"""deepresearch.llm: the one LLM call path — role routing with fallback chains, token-limit
recovery, per-role sampling settings, usage and cost accounting, budget guard, timeouts."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest
from pydantic import BaseModel

from deepresearch.config import Config
from deepresearch.context import RunContext
from deepresearch.errors import (
    ContextWindowError,
    LLMTimeoutError,
    ModelChainError,
    ProviderError,
    ProviderUnavailableError,
    ResearchCancelled,
    StructuredOutputError,
)
from deepresearch.llm import (
    ModelRouter,
    call_llm,
    phase_metrics,
)
from deepresearch.offline import planning
from deepresearch.providers.base import (
    LLMProvider,
    LLMRequest,
    LLMResponse,
    Message,
    Usage,
)
from deepresearch.roles import ROUTES, BriefInputs, BriefOutput, ClarifyOutput, RoleSpec
from deepresearch.state import AgentRole, Phase, PhaseMetrics, ResearchState
from deepresearch.testing import FunctionLLM, RecordingEvents, context

QUESTION = "How did the printing press change Europe?"


class Factory:
    """Builds providers by spec from a table; records every build."""

    def __init__(self, table: dict[str, LLMProvider] | None = None) -> None:
        self.table = dict(table or {})
        self.built: list[str] = []

    def __call__(self, spec: str) -> LLMProvider:
        self.built.append(spec)
        if spec not in self.table:
            raise ProviderUnavailableError(f"no provider for {spec}", provider=spec)
        return self.table[spec]


def brief_answer(text: str = "A brief.") -> BriefOutput:
    return BriefOutput(research_brief=text)


def make_ctx(
    config: Config,
    default: LLMProvider,
    factory: Factory | None = None,
    *,
    budget: object | None = None,
    cheap_spec: Any = None,
) -> tuple[RunContext, RecordingEvents]:
    events = RecordingEvents()
    ctx = context(
        default,
        config=config,
        events=events,
        models=factory or Factory(),
        cheap_spec=cheap_spec,
        budget=cast(Any, budget),
    )
    return ctx, events


async def brief_call(
    state: ResearchState,
    ctx: RunContext,
    *,
    user: str = "Research question: " + QUESTION,
    role: AgentRole = AgentRole.BRIEFER,
    scope: str | None = None,
    timeout_s: float | None = None,
) -> BriefOutput:
    spec = RoleSpec(
        "brief", role, Phase.BRIEF, "SYSTEM PROMPT", lambda _: user, BriefInputs, BriefOutput,
        planning.brief,
    )  # fmt: skip
    inputs = BriefInputs(question=QUESTION, today="2025-01-01")
    return await call_llm(spec, inputs, state, ctx, scope=scope, timeout_s=timeout_s)


# -- token-limit recovery -------------------------------------------------------------
async def test_context_window_error_cuts_the_user_prompt_and_retries() -> None:
    limit = 800

    def answer(request: LLMRequest) -> BaseModel:
        if len(request.user) > limit:
            raise ContextWindowError("maximum context length exceeded", provider="test")
        return brief_answer()

    llm = FunctionLLM(answer)
    ctx, events = make_ctx(Config(), llm)
    state = ResearchState(question=QUESTION)
    state.metrics.append(PhaseMetrics(phase=Phase.BRIEF, iteration=1))
    user = "x" * 1000

    out = await brief_call(state, ctx, user=user)

    assert out.research_brief == "A brief."
    lengths = [len(r.user) for r in llm.requests]
    assert lengths == [1000, 900, 810, 729]  # ~10% less each time
    assert all(r.system == "SYSTEM PROMPT" for r in llm.requests)  # never cut
    assert all(llm.requests[i + 1].user == user[: lengths[i + 1]] for i in range(3))
    assert state.usage[-1].token_limit_retries == 3
    assert state.metrics[-1].token_limit_retries == 3
    assert events.kinds("llm_call")[-1]["token_limit_retries"] == 3


async def test_context_window_error_gives_up_after_the_configured_attempts() -> None:
    def answer(request: LLMRequest) -> BaseModel:
        raise ContextWindowError("prompt is too long", provider="test")

    llm = FunctionLLM(answer)
    ctx, events = make_ctx(Config(token_limit_max_retries=2), llm)
    state = ResearchState(question=QUESTION)

    with pytest.raises(ContextWindowError, match="too long"):
        await brief_call(state, ctx, user="y" * 500)

    assert len(llm.requests) == 3  # the first try plus two cut retries
    assert [len(r.user) for r in llm.requests] == [500, 450, 405]
    assert state.usage == []  # nothing answered, nothing accounted
    (error,) = events.kinds("llm_error")
    assert error["model"] == "test:function" and "ContextWindowError" in error["error"]


async def test_token_limit_cut_fraction_and_zero_retries_are_honoured() -> None:
    def answer(request: LLMRequest) -> BaseModel:
        if len(request.user) > 300:
            raise ContextWindowError("context_length_exceeded")
        return brief_answer()

    halving = FunctionLLM(answer)
    ctx, _ = make_ctx(Config(token_limit_cut_fraction=0.5), halving)
    await brief_call(ResearchState(question=QUESTION), ctx, user="z" * 1000)
    assert [len(r.user) for r in halving.requests] == [1000, 500, 250]

    never = FunctionLLM(answer)
    ctx, _ = make_ctx(Config(token_limit_max_retries=0), never)
    with pytest.raises(ContextWindowError):
        await brief_call(ResearchState(question=QUESTION), ctx, user="z" * 1000)
    assert len(never.requests) == 1


async def test_context_window_exhausted_on_one_model_falls_back_to_the_next() -> None:
    def small(request: LLMRequest) -> BaseModel:
        raise ContextWindowError("too long for the small model")

    tiny = FunctionLLM(small, name="test:tiny")
    big = FunctionLLM(lambda r: brief_answer("from the big model"), name="test:big")
    config = Config(role_models={"brief": "test:tiny"}, token_limit_max_retries=1)
    ctx, events = make_ctx(config, big, Factory({"test:tiny": tiny}))
    state = ResearchState(question=QUESTION)

    out = await brief_call(state, ctx)

    assert out.research_brief == "from the big model"
    assert len(tiny.requests) == 2 and len(big.requests) == 1
    assert [e["model"] for e in events.kinds("llm_error")] == ["test:tiny"]
    assert state.usage[-1].model == "test:big"


# -- routing ----------------------------------------------------------------------------
def test_role_chain_covers_every_role_and_uses_known_keys() -> None:
    assert set(ROUTES) == set(AgentRole)
    role_keys = {r.value for r in AgentRole}
    for role, routing in ROUTES.items():
        assert routing.chain, role
        assert set(routing.chain) <= role_keys, role
        assert routing.chain[0] == role.value  # the role's own entry is tried first


def test_router_builds_the_chain_from_role_models_and_fallbacks() -> None:
    config = Config(
        role_models={"report": "a:report", "research": "a:research"},
        role_fallbacks={"report": ["b:report-backup", "a:research"], "research": ["c:r2"]},
    )
    router = ModelRouter(config, FunctionLLM(name="offline"), Factory())

    assert router.specs(AgentRole.SYNTHESIZER) == [
        "a:report",
        "b:report-backup",
        "a:research",  # listed twice (fallback and chain), tried once
        "c:r2",
        "offline",
    ]
    assert router.specs(AgentRole.PLANNER) == ["a:research", "c:r2", "offline"]
    assert router.specs(AgentRole.SUMMARIZER) == ["offline"]  # its chain has no 'research'


def test_router_without_role_models_uses_the_default_and_cheap_models() -> None:
    def cheap(default_spec: str) -> str | None:
        return "openai:gpt-4.1-nano" if default_spec.startswith("openai:") else None

    router = ModelRouter(Config(), FunctionLLM(name="openai:gpt-4.1"), Factory(), cheap)
    for role in AgentRole:
        expected = (
            ["openai:gpt-4.1-nano", "openai:gpt-4.1"] if ROUTES[role].cheap else ["openai:gpt-4.1"]
        )
        assert router.specs(role) == expected, role

    offline = ModelRouter(Config(), FunctionLLM(name="offline"), Factory(), cheap)
    assert offline.specs(AgentRole.SUMMARIZER) == ["offline"]
    # An explicit role model wins over the cheap default.
    configured = ModelRouter(
        Config(role_models={"summarization": "anthropic:claude-haiku-4-5"}),
        FunctionLLM(name="openai:gpt-4.1"),
        Factory(),
        cheap,
    )
    assert configured.specs(AgentRole.SUMMARIZER) == [
        "anthropic:claude-haiku-4-5",
        "openai:gpt-4.1",
    ]


async def test_call_uses_the_role_model_and_caches_providers() -> None:
    planner = FunctionLLM(lambda r: brief_answer("planner model"), name="test:planner")
    default = FunctionLLM(lambda r: brief_answer("default model"), name="test:default")
    factory = Factory({"test:planner": planner})
    ctx, _ = make_ctx(Config(role_models={"planner": "test:planner"}), default, factory)
    state = ResearchState(question=QUESTION)

    for _ in range(3):
        out = await brief_call(state, ctx, role=AgentRole.PLANNER)
        assert out.research_brief == "planner model"
    assert factory.built == ["test:planner"]  # built once, then cached
    assert len(planner.requests) == 3 and default.requests == []
    assert (await brief_call(state, ctx)).research_brief == "default model"  # briefer: default
    assert {u.model for u in state.usage} == {"test:planner", "test:default"}


async def test_unavailable_or_failing_models_fall_back_along_the_chain() -> None:
    def broken(request: LLMRequest) -> BaseModel:
        raise ProviderError("HTTP 500 from the vendor", provider="test:broken")

    failing = FunctionLLM(broken, name="test:broken")
    default = FunctionLLM(lambda r: brief_answer("default"), name="test:default")
    config = Config(
        role_models={"brief": "test:missing"},
        role_fallbacks={"brief": ["test:broken"]},
    )
    factory = Factory({"test:broken": failing})
    ctx, events = make_ctx(config, default, factory)
    state = ResearchState(question=QUESTION)

    out = await brief_call(state, ctx)

    assert out.research_brief == "default"
    assert factory.built == ["test:missing", "test:broken"]
    assert len(failing.requests) == 1  # a plain ProviderError is not retried here
    errors = events.kinds("llm_error")
    assert [e["model"] for e in errors] == ["test:missing", "test:broken"]
    assert errors[1]["role"] == "brief" and "HTTP 500" in errors[1]["error"]
    assert [u.model for u in state.usage] == ["test:default"]


async def test_the_last_error_is_raised_when_every_model_fails() -> None:
    def broken(request: LLMRequest) -> BaseModel:
        raise ProviderError(f"{request.role.value} failed")

    ctx, events = make_ctx(
        Config(role_models={"brief": "test:missing"}), FunctionLLM(broken, name="test:default")
    )
    with pytest.raises(ProviderError, match="brief failed"):
        await brief_call(ResearchState(question=QUESTION), ctx)
    assert [e["model"] for e in events.kinds("llm_error")] == ["test:missing", "test:default"]


async def test_a_failed_chain_raises_every_attempt_as_one_group() -> None:
    def overloaded(request: LLMRequest) -> BaseModel:
        raise ProviderError("HTTP 503 overloaded", provider="test:first")

    def garbled(request: LLMRequest) -> BaseModel:
        raise StructuredOutputError("not JSON", provider="test:second")

    first = FunctionLLM(overloaded, name="test:first")
    second = FunctionLLM(garbled, name="test:second")
    config = Config(role_models={"brief": "test:first"})
    ctx, _ = make_ctx(config, second, Factory({"test:first": first}))
    with pytest.raises(ModelChainError) as caught:
        await brief_call(ResearchState(question=QUESTION), ctx)
    group = caught.value
    assert isinstance(group, ProviderError)  # phases catch it like any provider error
    assert [type(e) for e in group.exceptions] == [ProviderError, StructuredOutputError]
    assert "test:first: HTTP 503 overloaded" in str(group) and "test:second" in str(group)
    with pytest.raises(ExceptionGroup):  # except* sees each attempt
        try:
            raise group
        except* StructuredOutputError as found:
            assert len(found.exceptions) == 1
            raise


async def test_only_unavailable_models_raise_provider_unavailable() -> None:
    class Unusable:
        name = "test:default"

        async def complete(self, request: LLMRequest) -> LLMResponse:
            raise ProviderUnavailableError("no API key", provider="test:default")

    ctx, _ = make_ctx(Config(), Unusable())
    with pytest.raises(ProviderUnavailableError, match="no API key"):
        await brief_call(ResearchState(question=QUESTION), ctx)


# -- per-role sampling settings --------------------------------------------------------
def test_router_temperature_and_max_tokens_defaults_and_overrides() -> None:
    router = ModelRouter(Config(), FunctionLLM(), Factory())
    for role in AgentRole:
        assert router.temperature(role) == ROUTES[role].temperature
        assert router.max_tokens(role) == ROUTES[role].max_tokens
    assert router.temperature(AgentRole.SYNTHESIZER) == 0.4
    assert router.max_tokens(AgentRole.SYNTHESIZER) == 8000
    assert router.temperature(AgentRole.BRIEFER) is None  # the vendor's default

    tuned = ModelRouter(
        Config(role_temperature={"report": 0.1, "brief": 0.7}, role_max_tokens={"report": 123}),
        FunctionLLM(),
        Factory(),
    )
    assert tuned.temperature(AgentRole.SYNTHESIZER) == 0.1
    assert tuned.temperature(AgentRole.BRIEFER) == 0.7
    assert tuned.max_tokens(AgentRole.SYNTHESIZER) == 123
    assert tuned.max_tokens(AgentRole.ANALYZER) == 4000  # untouched default


async def test_the_request_carries_role_phase_messages_and_sampling_settings() -> None:
    llm = FunctionLLM(lambda r: brief_answer())
    config = Config(role_temperature={"brief": 0.9}, role_max_tokens={"brief": 321})
    ctx, _ = make_ctx(config, llm)
    await brief_call(ResearchState(question=QUESTION), ctx, user="the user text")

    (request,) = llm.requests
    assert request.role == AgentRole.BRIEFER and request.phase == "brief"
    assert request.messages == (
        Message("system", "SYSTEM PROMPT"),
        Message("user", "the user text"),
    )
    assert request.output_type is BriefOutput
    assert isinstance(request.inputs, BriefInputs) and request.inputs.question == QUESTION
    assert request.temperature == 0.9 and request.max_tokens == 321


# -- usage and cost ----------------------------------------------------------------------
async def test_usage_and_cost_are_accounted_into_the_state() -> None:
    def answer(request: LLMRequest) -> LLMResponse:
        return LLMResponse(
            output=brief_answer(),
            model="openai:gpt-4.1-mini",
            usage=Usage(input_tokens=2_000_000, output_tokens=500_000),
            repair_attempts=1,
        )

    llm = FunctionLLM(answer, name="openai:gpt-4.1-mini")
    ctx, events = make_ctx(Config(), llm)
    state = ResearchState(question=QUESTION)
    metrics = PhaseMetrics(phase=Phase.BRIEF, iteration=1)
    state.metrics.append(metrics)

    await brief_call(state, ctx, scope="sq-2")
    await brief_call(state, ctx)

    first = state.usage[0]
    assert first.role == "brief" and first.phase == "brief"
    assert first.model == "openai:gpt-4.1-mini"
    assert (first.input_tokens, first.output_tokens) == (2_000_000, 500_000)
    assert first.cost_usd == pytest.approx(2 * 0.40 + 0.5 * 1.60)
    assert first.scope == "sq-2" and state.usage[1].scope is None
    assert first.repair_attempts == 1 and first.token_limit_retries == 0
    assert first.duration_s >= 0
    assert metrics.llm_calls == 2
    assert metrics.input_tokens == 4_000_000 and metrics.output_tokens == 1_000_000
    assert metrics.cost_usd == pytest.approx(2 * first.cost_usd)
    calls = events.kinds("llm_call")
    assert len(calls) == 2 and calls[0]["scope"] == "sq-2" and calls[0]["role"] == "brief"


async def test_price_overrides_and_unknown_models_cost() -> None:
    def answer(request: LLMRequest) -> LLMResponse:
        return LLMResponse(brief_answer(), model="my-finetune", usage=Usage(1_000_000, 1_000_000))

    llm = FunctionLLM(answer)
    state = ResearchState(question=QUESTION)
    ctx, _ = make_ctx(Config(), llm)
    await brief_call(state, ctx)
    assert state.usage[-1].cost_usd == 0.0  # unknown: zero rather than a guess

    ctx, _ = make_ctx(Config(price_overrides={"my-finetune": (1.0, 3.0)}), llm)
    await brief_call(state, ctx)
    assert state.usage[-1].cost_usd == pytest.approx(4.0)


async def test_metrics_are_only_charged_to_the_running_phase_and_iteration() -> None:
    llm = FunctionLLM(lambda r: brief_answer())
    ctx, _ = make_ctx(Config(), llm)
    state = ResearchState(question=QUESTION)
    old = PhaseMetrics(phase=Phase.BRIEF, iteration=1)
    planning = PhaseMetrics(phase=Phase.PLANNING, iteration=2)
    current = PhaseMetrics(phase=Phase.BRIEF, iteration=2)
    state.metrics += [old, current, planning]
    state.iteration = 2

    assert phase_metrics(state, "brief") is current
    assert phase_metrics(state, "analysis") is None
    await brief_call(state, ctx)
    assert (old.llm_calls, current.llm_calls, planning.llm_calls) == (0, 1, 0)

    bare = ResearchState(question=QUESTION)  # no metrics record: usage is still kept
    await brief_call(bare, ctx)
    assert len(bare.usage) == 1


async def test_a_compatible_output_model_is_coerced_to_the_requested_type() -> None:
    class LooseBrief(BaseModel):
        research_brief: str
        extra: int = 1

    ctx, _ = make_ctx(Config(), FunctionLLM(lambda r: LooseBrief(research_brief="loose")))
    out = await brief_call(ResearchState(question=QUESTION), ctx)
    assert type(out) is BriefOutput and out.research_brief == "loose"


async def test_a_wrong_output_shape_is_a_structured_output_error_not_a_crash() -> None:
    wrong = FunctionLLM(lambda r: ClarifyOutput(need_clarification=False), name="test:wrong")
    ctx, events = make_ctx(Config(), wrong)
    with pytest.raises(StructuredOutputError, match="ClarifyOutput, not BriefOutput"):
        await brief_call(ResearchState(question=QUESTION), ctx)
    assert "StructuredOutputError" in events.kinds("llm_error")[0]["error"]

    # ... and the chain goes on to the next model.
    good = FunctionLLM(lambda r: brief_answer("fine"), name="test:good")
    ctx, _ = make_ctx(
        Config(role_models={"brief": "test:wrong"}), good, Factory({"test:wrong": wrong})
    )
    assert (await brief_call(ResearchState(question=QUESTION), ctx)).research_brief == "fine"


# -- budget guard -----------------------------------------------------------------------
class RecordingBudget:
    """Stands in for TokenBudget.guard: cuts the user message to 20 characters."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def guard(self, request: LLMRequest, model_spec: str) -> LLMRequest:
        self.calls.append((request.user, model_spec))
        return request.with_user(request.user[:20])


async def test_the_budget_guard_fits_each_request_to_the_model_it_goes_to() -> None:
    primary = FunctionLLM(lambda r: brief_answer(), name="test:primary")
    budget = RecordingBudget()
    ctx, _ = make_ctx(Config(), primary, budget=budget)
    await brief_call(ResearchState(question=QUESTION), ctx, user="u" * 100)

    assert budget.calls == [("u" * 100, "test:primary")]
    assert primary.requests[0].user == "u" * 20
    assert primary.requests[0].system == "SYSTEM PROMPT"


async def test_the_budget_guard_runs_per_model_in_the_chain_and_can_be_disabled() -> None:
    def broken(request: LLMRequest) -> BaseModel:
        raise ProviderError("down")

    first = FunctionLLM(broken, name="test:first")
    default = FunctionLLM(lambda r: brief_answer(), name="test:default")
    budget = RecordingBudget()
    ctx, _ = make_ctx(
        Config(role_models={"brief": "test:first"}),
        default,
        Factory({"test:first": first}),
        budget=budget,
    )
    await brief_call(ResearchState(question=QUESTION), ctx, user="v" * 50)
    assert [spec for _, spec in budget.calls] == ["test:first", "test:default"]

    off = RecordingBudget()
    plain = FunctionLLM(lambda r: brief_answer())
    ctx, _ = make_ctx(Config(token_management_enabled=False), plain, budget=off)
    await brief_call(ResearchState(question=QUESTION), ctx, user="w" * 50)
    assert off.calls == [] and plain.requests[0].user == "w" * 50


# -- timeouts and cancellation -----------------------------------------------------------
async def test_the_call_timeout_defaults_to_operation_timeout_and_can_be_named() -> None:
    llm = FunctionLLM(lambda r: brief_answer())
    ctx, _ = make_ctx(Config(operation_timeout_s=42.0), llm)
    state = ResearchState(question=QUESTION)
    await brief_call(state, ctx)
    await brief_call(state, ctx, timeout_s=7.5)
    assert [r.timeout_s for r in llm.requests] == [42.0, 7.5]


async def test_a_slow_model_times_out_as_a_provider_error_and_falls_back() -> None:
    slow = FunctionLLM(lambda r: brief_answer("slow"), name="test:slow", delay_s=5.0)
    ctx, events = make_ctx(Config(operation_timeout_s=0.05), slow)

    with pytest.raises(LLMTimeoutError, match=r"within 0\.05 s") as caught:
        await brief_call(ResearchState(question=QUESTION), ctx)
    assert isinstance(caught.value, ProviderError) and isinstance(caught.value, TimeoutError)
    assert "LLMTimeoutError" in events.kinds("llm_error")[0]["error"]

    fast = FunctionLLM(lambda r: brief_answer("fast"), name="test:fast")
    ctx, _ = make_ctx(
        Config(role_models={"brief": "test:slow"}), fast, Factory({"test:slow": slow})
    )
    state = ResearchState(question=QUESTION)
    out = await brief_call(state, ctx, timeout_s=0.05)
    assert out.research_brief == "fast" and [u.model for u in state.usage] == ["test:fast"]


async def test_an_outer_timeout_is_not_mistaken_for_the_call_timeout() -> None:
    slow = FunctionLLM(lambda r: brief_answer(), delay_s=5.0)
    ctx, _ = make_ctx(Config(operation_timeout_s=60.0), slow)
    with pytest.raises(TimeoutError) as caught:
        await asyncio.wait_for(brief_call(ResearchState(question=QUESTION), ctx), 0.05)
    assert not isinstance(caught.value, ProviderError)


async def test_a_cancelled_run_makes_no_call() -> None:
    llm = FunctionLLM(lambda r: brief_answer())
    ctx, _ = make_ctx(Config(), llm)
    ctx.cancel.cancel("stopped by the user")
    with pytest.raises(ResearchCancelled, match="stopped by the user"):
        await brief_call(ResearchState(question=QUESTION), ctx)
    assert llm.requests == []
