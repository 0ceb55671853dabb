"""The one LLM call path: route a role to a model chain, recover from context-window
errors by cutting the user prompt, fall back along the chain, and account for usage."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from deepresearch.config import Config
from deepresearch.context import RunContext
from deepresearch.errors import (
    ContextWindowError,
    ProviderError,
    ProviderUnavailableError,
    StructuredOutputError,
)
from deepresearch.pricing import estimate_cost
from deepresearch.providers.base import LLMProvider, LLMRequest, LLMResponse, Message
from deepresearch.state import AgentRole, PhaseMetrics, ResearchState, UsageRecord

OutT = TypeVar("OutT", bound=BaseModel)

# Which configured roles a role falls back to, most specific first (the seeds'
# role resolution chain); the default model ends every chain.
ROLE_CHAIN: dict[AgentRole, tuple[str, ...]] = {
    AgentRole.CLARIFIER: ("clarification", "research"),
    AgentRole.BRIEFER: ("brief", "research"),
    AgentRole.PLANNER: ("planner", "research"),
    AgentRole.RESEARCHER: ("research",),
    AgentRole.SUMMARIZER: ("summarization",),
    AgentRole.COMPRESSOR: ("compression", "research"),
    AgentRole.SUPERVISOR: ("supervision", "reflection", "research"),
    AgentRole.ANALYZER: ("analyzer", "research"),
    AgentRole.SYNTHESIZER: ("report", "research"),
    AgentRole.REFINER: ("refiner", "research"),
    AgentRole.REFLECTION: ("reflection", "research"),
}
# Roles that do cheap, high-volume work default to the vendor's small model.
CHEAP_ROLES = frozenset(
    {AgentRole.SUMMARIZER, AgentRole.COMPRESSOR, AgentRole.REFLECTION, AgentRole.SUPERVISOR}
)
DEFAULT_TEMPERATURE: dict[AgentRole, float] = {
    AgentRole.SUPERVISOR: 0.3,
    AgentRole.PLANNER: 0.3,
    AgentRole.SUMMARIZER: 0.0,
    AgentRole.COMPRESSOR: 0.0,
    AgentRole.ANALYZER: 0.2,
    AgentRole.SYNTHESIZER: 0.4,
}
DEFAULT_MAX_TOKENS: dict[AgentRole, int] = {
    AgentRole.SYNTHESIZER: 8000,
    AgentRole.COMPRESSOR: 4000,
    AgentRole.ANALYZER: 4000,
}

ProviderFactory = Callable[[str], LLMProvider]


class LLMTimeoutError(ProviderError, TimeoutError):
    """One LLM call exceeded its time limit (``timeout_s`` or ``operation_timeout_s``).
    A ProviderError, so the role's fallback chain and the phases' non-fatal paths apply."""

    def __init__(self, message: str, *, provider: str = "") -> None:
        super().__init__(message, provider=provider, retryable=True)


class ModelRouter:
    """Maps each role to an ordered chain of providers (built lazily, cached by spec)."""

    def __init__(
        self,
        config: Config,
        default: LLMProvider,
        factory: ProviderFactory,
        cheap_spec: Callable[[str], str | None] | None = None,
    ) -> None:
        self.config = config
        self.default = default
        self._factory = factory
        self._cheap_spec = cheap_spec
        self._cache: dict[str, LLMProvider] = {default.name: default}

    def specs(self, role: AgentRole) -> list[str]:
        cfg = self.config
        chain: list[str] = []
        for key in ROLE_CHAIN[role]:
            spec = cfg.role_models.get(key)
            if spec:
                chain.append(spec)
                chain.extend(cfg.role_fallbacks.get(key, []))
        if not chain and role in CHEAP_ROLES and self._cheap_spec is not None:
            cheap = self._cheap_spec(self.default.name)
            if cheap:
                chain.append(cheap)
        chain.append(self.default.name)
        seen: set[str] = set()
        return [s for s in chain if not (s in seen or seen.add(s))]  # type: ignore[func-returns-value]

    def provider(self, spec: str) -> LLMProvider:
        if spec not in self._cache:
            self._cache[spec] = self._factory(spec)
        return self._cache[spec]

    def temperature(self, role: AgentRole) -> float | None:
        return self.config.role_temperature.get(role.value, DEFAULT_TEMPERATURE.get(role))

    def max_tokens(self, role: AgentRole) -> int | None:
        return self.config.role_max_tokens.get(role.value, DEFAULT_MAX_TOKENS.get(role))


def phase_metrics(state: ResearchState, phase: str) -> PhaseMetrics | None:
    """The metrics record of the phase now running (the last one for that phase)."""
    for m in reversed(state.metrics):
        if m.phase.value == phase and m.iteration == state.iteration:
            return m
    return None


async def call_llm(
    ctx: RunContext,
    state: ResearchState,
    *,
    role: AgentRole,
    phase: str,
    system: str,
    user: str,
    inputs: BaseModel,
    output_type: type[OutT],
    scope: str | None = None,
    timeout_s: float | None = None,
) -> OutT:
    """Make one role's call through its model chain; raise the last error if all fail."""
    ctx.cancel.check()
    request = LLMRequest(
        role=role,
        phase=phase,
        messages=[Message("system", system), Message("user", user)],
        output_type=output_type,
        inputs=inputs,
        temperature=ctx.models.temperature(role),
        max_tokens=ctx.models.max_tokens(role),
        timeout_s=timeout_s or ctx.config.operation_timeout_s,
    )
    last_error: ProviderError | None = None
    for spec in ctx.models.specs(role):
        try:
            provider = ctx.models.provider(spec)
        except ProviderUnavailableError as exc:
            last_error = exc
            continue
        fitted = request
        if ctx.budget is not None and ctx.config.token_management_enabled:
            fitted = ctx.budget.guard(request, spec)
        try:
            response, retries, seconds = await _with_token_recovery(ctx, provider, fitted)
        except ContextWindowError as exc:
            last_error = exc
            _record_error(ctx, state, role, phase, spec, exc)
            continue
        except ProviderError as exc:
            last_error = exc
            _record_error(ctx, state, role, phase, spec, exc)
            continue
        _account(ctx, state, role, phase, response, retries, seconds, scope)
        output = response.output
        if not isinstance(output, output_type):
            try:
                output = output_type.model_validate(output.model_dump())
            except ValidationError as exc:
                # A provider answered with the wrong shape: a parse failure, not a crash.
                last_error = StructuredOutputError(
                    f"{spec} answered {type(output).__name__}, not {output_type.__name__}: "
                    f"{exc.error_count()} validation problem(s)",
                    provider=spec,
                )
                _record_error(ctx, state, role, phase, spec, last_error)
                continue
        return output
    assert last_error is not None
    raise last_error


async def _with_token_recovery(
    ctx: RunContext, provider: LLMProvider, request: LLMRequest
) -> tuple[LLMResponse, int, float]:
    """On a context-window error cut the user prompt by a fraction and retry (seeds: 10%, 3x)."""
    cfg = ctx.config
    retries = 0
    current = request
    while True:
        started = time.perf_counter()
        try:
            response = await _complete_within(provider, current)
            return response, retries, time.perf_counter() - started
        except ContextWindowError:
            if retries >= cfg.token_limit_max_retries:
                raise
            retries += 1
            user = current.user
            keep = int(len(user) * (1 - cfg.token_limit_cut_fraction))
            current = current.with_user(user[:keep])


async def _complete_within(provider: LLMProvider, request: LLMRequest) -> LLMResponse:
    """One provider call, held to the request's time limit whatever the provider."""
    if not request.timeout_s:
        return await provider.complete(request)
    try:
        async with asyncio.timeout(request.timeout_s) as limit:
            return await provider.complete(request)
    except TimeoutError:
        if not limit.expired():
            raise  # the provider's own timeout error, not ours
        raise LLMTimeoutError(
            f"{provider.name} did not answer a {request.role.value} call within "
            f"{request.timeout_s:g} s.",
            provider=provider.name,
        ) from None


def _account(
    ctx: RunContext,
    state: ResearchState,
    role: AgentRole,
    phase: str,
    response: LLMResponse,
    retries: int,
    seconds: float,
    scope: str | None,
) -> None:
    usage = response.usage
    cost = estimate_cost(
        response.model, usage.input_tokens, usage.output_tokens, ctx.config.price_overrides
    )
    record = UsageRecord(
        role=role.value,
        phase=phase,
        model=response.model,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cost_usd=cost,
        duration_s=round(seconds, 4),
        token_limit_retries=retries,
        repair_attempts=response.repair_attempts,
        scope=scope,
    )
    state.usage.append(record)
    metrics = phase_metrics(state, phase)
    if metrics is not None:
        metrics.llm_calls += 1
        metrics.input_tokens += usage.input_tokens
        metrics.output_tokens += usage.output_tokens
        metrics.cost_usd += cost
        metrics.token_limit_retries += retries
    ctx.events.emit(state, "llm_call", record.model_dump(mode="json"))


def _record_error(
    ctx: RunContext,
    state: ResearchState,
    role: AgentRole,
    phase: str,
    spec: str,
    exc: Exception,
) -> None:
    ctx.events.emit(
        state,
        "llm_error",
        {
            "role": role.value,
            "phase": phase,
            "model": spec,
            "error": f"{type(exc).__name__}: {exc}",
        },
    )
