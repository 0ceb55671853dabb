"""The one LLM call path: :func:`ask` calls a role (a :class:`~deepresearch.roles.RoleSpec`),
routes it to its model chain, recovers from context-window errors by cutting the user
prompt, falls back along the chain, accounts for usage, and — given a :class:`Fallback` —
stands in for a chain that failed, recording that once."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from deepresearch import deadlines
from deepresearch.context import RunContext
from deepresearch.cost_guard import check_spend
from deepresearch.errors import (
    ModelChainError,
    ProviderError,
    ProviderSetupError,
    RunAbortedError,
    StructuredOutputError,
)
from deepresearch.pricing import estimate_cost
from deepresearch.providers.base import (
    LLMRequest,
    LLMResponse,
    Message,
    TextOutput,
)
from deepresearch.providers.wrappers import Fitted, TimeLimit, TokenLimitCut, stated_window
from deepresearch.roles.spec import RoleSpec
from deepresearch.routing import ModelRouter as ModelRouter
from deepresearch.state import (
    CHECK,
    AgentDecision,
    AgentRole,
    EventKind,
    Phase,
    PhaseMetrics,
    ResearchState,
    UsageRecord,
)

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)
logger = logging.getLogger("deepresearch")


def phase_metrics(state: ResearchState, phase: str) -> PhaseMetrics | None:
    """The metrics record of the phase now running (the last one for that phase)."""
    for m in reversed(state.metrics):
        if m.phase.value == phase and m.iteration == state.iteration:
            return m
    return None


@dataclass
class Fallback(Generic[OutT]):
    """What stands in for a role's answer when its whole model chain fails.

    Args:
        output: the stand-in answer (e.g. an empty plan), or a function of the chain's
            error that builds it (called only when it is needed).
        means: what the run does instead, said in the decision and the note.
        notes: the phase's notes, to which ``"<agent> failed (<error>); <means>"`` is added.
        event: an audit event kind to emit with the error, when the phase has one.
    """

    output: OutT | Callable[[ProviderError], OutT]
    means: str
    notes: list[str] | None = None
    event: EventKind | None = None


async def ask(
    spec: RoleSpec[InT, OutT],
    inputs: InT,
    state: ResearchState,
    ctx: RunContext,
    *,
    fallback: Fallback[OutT] | None = None,
    phase: Phase | str | None = None,
    scope: str | None = None,
    timeout_s: float | None = None,
) -> OutT:
    """One call of a role (see :class:`~deepresearch.roles.RoleSpec`): its prompts rendered
    from ``inputs``, answered through its model chain (:func:`call_llm`). With a
    ``fallback``, a failed chain records one decision saying so and returns the stand-in;
    without, the error is raised."""
    where = phase.value if isinstance(phase, Phase) else phase or spec.phase.value
    try:
        return await call_llm(
            spec, inputs, state, ctx, phase=where, scope=scope, timeout_s=timeout_s
        )
    except ProviderError as exc:
        if fallback is None:
            raise
        _record_fallback(spec, state, ctx, where, exc, fallback)
        return fallback.output(exc) if callable(fallback.output) else fallback.output


def _record_fallback(
    spec: RoleSpec[InT, OutT],
    state: ResearchState,
    ctx: RunContext,
    phase: str,
    exc: ProviderError,
    fallback: Fallback[OutT],
) -> None:
    error = f"{type(exc).__name__}: {exc}"
    state.record(
        AgentDecision(
            agent=spec.agent,
            action=f"{spec.name}_failed",
            rationale=f"{fallback.means[:1].upper()}{fallback.means[1:]}: {error}",
            phase=Phase(phase) if phase in {p.value for p in Phase} else None,
            iteration=state.iteration,
            outputs={"error": error},
        )
    )
    if fallback.event:
        ctx.events.emit(state, fallback.event, {"error": error})
    if fallback.notes is not None:
        fallback.notes.append(f"{spec.agent} failed ({exc}); {fallback.means}")


async def call_llm(
    spec: RoleSpec[InT, OutT],
    inputs: InT,
    state: ResearchState,
    ctx: RunContext,
    *,
    phase: str | None = None,
    scope: str | None = None,
    timeout_s: float | None = None,
) -> OutT:
    """Make one role's call through its model chain; raise the last error if all fail.

    Every way a call goes wrong is recorded on the phase's metrics (its outcome record): a
    later model answering is a fallback, a chain that fails entirely is a lost call. A model
    that is unusable as configured (refused key, unknown model, unreachable server) is
    skipped for the rest of the run; when no model is left the run ends with
    :class:`RunAbortedError` rather than continuing without one.
    """
    ctx.cancel.check()
    request = _request(spec, inputs, ctx, phase or spec.phase.value, timeout_s)
    role, phase = request.role, request.phase
    specs = ctx.models.specs(role)
    usable = [s for s in specs if s not in ctx.models.unusable]
    failures: list[str] = [f"{s}: {ctx.models.unusable[s]}" for s in specs if s not in usable]
    errors: list[ProviderError] = []
    for index, model in enumerate(usable):
        # A call is the unit of work at which a phase past its time limit ends, also when
        # the provider (the offline engine) computes its answer without ever yielding.
        await deadlines.check()
        try:
            output = await _call_one(state, ctx, request, model, spec.output, scope)
            await deadlines.check()
        except ProviderError as exc:
            errors.append(exc)
            failures.append(f"{model}: {_one_line(exc)}")
            _record_error(state, ctx, role, phase, model, exc)
            if isinstance(exc, ProviderSetupError):
                ctx.models.unusable[model] = _one_line(exc)
            if index + 1 < len(usable):
                _announce_fallback(state, ctx, role, phase, model, usable[index + 1], exc)
            continue
        if failures:
            degrade_phase(
                state, phase, f"{role.value}: answered by {model} after {'; '.join(failures)}"
            )
            _bump(state, phase, fallback=True)
        return output
    last_error = errors[-1] if errors else None
    if last_error is None or isinstance(last_error, ProviderSetupError):
        raise RunAbortedError(last_error or _setup_error_from(ctx, specs)) from last_error
    raise _lost_call(state, request, errors, failures, usable[-1])


def _request(
    spec: RoleSpec[InT, OutT], inputs: InT, ctx: RunContext, phase: str, timeout_s: float | None
) -> LLMRequest:
    """The request a role's inputs make: its prompts rendered, its routing's settings."""
    return LLMRequest(
        role=spec.role,
        phase=phase,
        messages=(
            Message("system", spec.system_prompt(inputs)),
            Message("user", spec.user(inputs)),
        ),
        output_type=spec.output,
        inputs=inputs,
        temperature=ctx.models.temperature(spec.role),
        max_tokens=ctx.models.max_tokens(spec.role),
        timeout_s=timeout_s or ctx.config.timeouts.operation_timeout_s,
        offline=spec.offline,
    )


def _lost_call(
    state: ResearchState,
    request: LLMRequest,
    errors: list[ProviderError],
    failures: list[str],
    last_model: str,
) -> ProviderError:
    """A chain that failed entirely is a lost call on the phase's record; the error raised
    holds every attempt's error, not only the last."""
    role = request.role.value
    degrade_phase(state, request.phase, f"{role} call lost: {'; '.join(failures)}")
    _bump(state, request.phase, fallback=False)
    if len(errors) > 1:
        message = f"{role}: every model failed ({'; '.join(failures)})"
        return ModelChainError(message, errors, provider=last_model)
    return errors[-1]


async def _call_one(
    state: ResearchState,
    ctx: RunContext,
    request: LLMRequest,
    spec: str,
    output_type: type[OutT],
    scope: str | None,
) -> OutT:
    """One model of the chain, as a stack of wrappers (fit to the budget and check the
    spend, cut on context-window errors, hold to the time limit); then record and validate."""
    cfg = ctx.config

    def fit(r: LLMRequest) -> LLMRequest:
        fitted = r
        if ctx.budget is not None and cfg.tokens.token_management_enabled:
            fitted = ctx.budget.guard(r, spec)
        check_spend(cfg, state, spec, fitted)
        return fitted

    cut = TokenLimitCut(
        TimeLimit(ctx.models.provider(spec)),
        max_retries=cfg.calls.token_limit_max_retries,
        cut_fraction=cfg.calls.token_limit_cut_fraction,
    )
    started = time.perf_counter()
    try:
        response = await Fitted(cut, fit).complete(request)
    finally:
        window = stated_window(cut.refusal) if cut.refusal else None
        # even when the retries failed too: the next request is fitted, not refused
        if window and ctx.budget is not None and ctx.budget.learn_window(spec, window):
            state.stated_windows[spec] = window  # saved with the session
    _account(state, ctx, request, response, time.perf_counter() - started, scope)
    _record_carried(state, request, response.sent or request)
    if response.token_limit_retries:
        remembered = ctx.budget.stated_windows.get(spec) if ctx.budget is not None else None
        degrade_phase(state, request.phase, _cut_problem(request, spec, cut, response, remembered))
    output = response.output
    if isinstance(output, TextOutput) and output.cut_off:
        degrade_phase(
            state,
            request.phase,
            f"{request.role.value}: {spec}'s answer was cut off at its output limit "
            f"({request.max_tokens or 'default'} tokens) after {response.continuations} "
            "continuation(s)",
        )
    if isinstance(output, output_type):
        return output
    try:
        return output_type.model_validate(output.model_dump())
    except ValidationError as exc:
        # A provider answered with the wrong shape: a parse failure, not a crash.
        raise StructuredOutputError(
            f"{spec} answered {type(output).__name__}, not {output_type.__name__}: "
            f"{exc.error_count()} validation problem(s)",
            provider=spec,
        ) from None


def _cut_problem(
    request: LLMRequest,
    spec: str,
    cut: TokenLimitCut,
    response: LLMResponse,
    remembered: int | None,
) -> str:
    """What refitting a request after context-window errors cost, and the setting that
    avoids it: text cut from the prompt (often sources) never reached the model."""
    window = stated_window(cut.refusal)
    stated = f" ({window:,} tokens)" if window else ""
    later = (
        f" Later requests to {spec} in this session are fitted to {remembered:,} tokens."
        if remembered
        else ""
    )
    example = f"{{'{spec}': {window or 8192}}}"
    done = []
    if cut.answer_cap is not None:
        done.append(f"its answer limited to {cut.answer_cap:,} tokens")
    if cut.prompt_cut:
        done.append("the prompt cut, leaving out its end")
    return (
        f"{request.role.value}: {spec} refused the request as longer than its context "
        f"window{stated}; it was sent again {response.token_limit_retries} time(s), "
        f"{' and '.join(done)}.{later} Set Config.model_context_overrides (e.g. "
        f"{example}) so requests are fitted to the window before they are sent"
    )


def source_chars(inputs: BaseModel) -> int:
    """Characters of source material a role's inputs hold: source texts and topic digests."""
    sources = getattr(inputs, "sources", None) or []
    topics = getattr(inputs, "topics", None) or []
    return sum(len(getattr(v, "text", "") or "") for v in sources) + sum(
        len(getattr(t, "compressed", "") or "") for t in topics
    )


def _record_carried(state: ResearchState, request: LLMRequest, sent: LLMRequest) -> None:
    """What the prompt really carried of the gathered material (after any guard cut),
    beside what was gathered: the basis of the report's content fidelity."""
    metrics = phase_metrics(state, request.phase)
    offered = source_chars(request.inputs)
    if metrics is None or not offered:
        return
    cut = len(request.user) - len(sent.user)
    metrics.prompt_source_chars += max(0, offered - cut)
    metrics.offered_source_chars = max(
        metrics.offered_source_chars, sum(len(s.content) for s in state.sources)
    )


def _setup_error_from(ctx: RunContext, specs: list[str]) -> ProviderSetupError:
    """Every model of the chain was already known to be unusable: say why, once more."""
    reasons = "; ".join(f"{s}: {ctx.models.unusable.get(s, 'unusable')}" for s in specs)
    return ProviderSetupError(f"No usable model is left ({reasons})", provider=specs[-1])


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:300]


def degrade_phase(state: ResearchState, phase: str, problem: str) -> None:
    """Mark the phase now running degraded, saying why (its outcome record: status, CLI,
    report and DataFrames read it)."""
    metrics = phase_metrics(state, phase)
    if metrics is not None:
        metrics.degrade(problem)


def warn_phase(state: ResearchState, phase: str, warning: str) -> None:
    """Record on the phase now running something the user should check though the phase
    lost nothing (a run warning; its outcome stays as it is)."""
    metrics = phase_metrics(state, phase)
    if metrics is not None:
        metrics.warn(warning)


def warn_once(state: ResearchState, phase: str, warning: str) -> None:
    """``warn_phase``, unless the run already says ``warning``: said once a run (one
    superseded by a resume, see ResearchState.run_warnings, no longer says it)."""
    if CHECK + warning not in state.run_warnings():
        warn_phase(state, phase, warning)


def _bump(state: ResearchState, phase: str, *, fallback: bool) -> None:
    metrics = phase_metrics(state, phase)
    if metrics is None:
        return
    if fallback:
        metrics.fallback_calls += 1
    else:
        metrics.failed_calls += 1


def _announce_fallback(
    state: ResearchState,
    ctx: RunContext,
    role: AgentRole,
    phase: str,
    failed: str,
    next_spec: str,
    exc: ProviderError,
) -> None:
    """A configured fallback takes over: say so on stderr (logging) and as a decision."""
    key = f"fallback:{role.value}:{failed}->{next_spec}"
    if key in ctx.models.announced:
        return
    ctx.models.announced.add(key)
    logger.warning(
        "%s: %s failed (%s); falling back to %s", role.value, failed, _one_line(exc), next_spec
    )
    decision = state.record(
        AgentDecision(
            agent=role.value,
            action="model_fallback",
            rationale=f"{failed} failed ({_one_line(exc)}); {next_spec} answers instead.",
            phase=Phase(phase) if phase in {p.value for p in Phase} else None,
            iteration=state.iteration,
            inputs={"model": failed},
            outputs={"fallback": next_spec},
        )
    )
    ctx.events.emit(state, EventKind.DECISION, decision.model_dump(mode="json"))


def _account(
    state: ResearchState,
    ctx: RunContext,
    request: LLMRequest,
    response: LLMResponse,
    seconds: float,
    scope: str | None,
) -> None:
    role, phase, retries = request.role, request.phase, response.token_limit_retries
    usage = response.usage
    cost = estimate_cost(
        response.model, usage.input_tokens, usage.output_tokens, ctx.config.models.price_overrides
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
    ctx.events.emit(state, EventKind.LLM_CALL, record.model_dump(mode="json"))


def _record_error(
    state: ResearchState,
    ctx: RunContext,
    role: AgentRole,
    phase: str,
    spec: str,
    exc: Exception,
) -> None:
    ctx.events.emit(
        state,
        EventKind.LLM_ERROR,
        {
            "role": role.value,
            "phase": phase,
            "model": spec,
            "error": f"{type(exc).__name__}: {exc}",
        },
    )
