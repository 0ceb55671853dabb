"""The research loop: run a phase, gate it, pause for the hooks, apply what they said,
advance by the transition table, checkpoint. Cancellation and timeouts keep the state."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from deepresearch import deadlines
from deepresearch.context import RunContext
from deepresearch.errors import (
    CostLimitReached,
    DeepResearchError,
    ProviderError,
    ResearchCancelled,
    RunAbortedError,
)
from deepresearch.phases import PHASE_FUNCTIONS, PhaseReport
from deepresearch.state import (
    ENDED,
    AgentDecision,
    AgentRole,
    EventKind,
    Gap,
    Phase,
    PhaseMetrics,
    ResearchState,
    RunStatus,
)
from deepresearch.workflow.gates import validate
from deepresearch.workflow.hooks import Hook, Steer, apply_edits, call_hooks
from deepresearch.workflow.outcomes import close_phase, finish
from deepresearch.workflow.transitions import next_phase, reflection_prompt, should_iterate

STOPPING = frozenset(
    {RunStatus.STOPPED, RunStatus.CANCELLED, RunStatus.TIMED_OUT, RunStatus.FAILED}
)


# A phase the whole loop starts while the phase before it runs, because its inputs do not
# depend on that phase's outcome unless a person steers in between: the brief reads the
# clarification only once someone answered it. Only without hooks (nobody can answer or
# steer at the pause) and with no clarification recorded yet.
RUN_AHEAD = {Phase.CLARIFICATION: Phase.BRIEF}


@dataclass
class Ahead:
    """A phase started ahead: its metrics record and the task running it."""

    metrics: PhaseMetrics
    task: asyncio.Task[PhaseReport]


class Workflow:
    """The research loop: runs phases in order with their gates, think pauses (hooks),
    checkpoints, time limits and transitions.

    Args:
        ctx: the run's context.
        hooks: think-pause hooks called after each phase.
    """

    def __init__(self, ctx: RunContext, hooks: list[Hook] | None = None) -> None:
        self.ctx = ctx
        self.hooks = list(hooks or [])
        self._deadline: float | None = None
        self._looping = False
        self._ahead: dict[Phase, Ahead] = {}

    async def run(self, state: ResearchState) -> ResearchState:
        """Run from ``state.phase`` until done, stopped, cancelled, timed out or failed."""
        cfg = self.ctx.config
        self._preflight()
        self._deadline = (
            time.monotonic() + cfg.timeouts.task_timeout_s if cfg.timeouts.task_timeout_s else None
        )
        state.status = RunStatus.RUNNING
        self._looping = True
        try:
            await self.ctx.checkpoint(state)  # seen as running from the start (_mark_running)
            self._prefetch_scout(state)
            while state.phase != Phase.DONE and state.status not in STOPPING:
                await self.step(state)
        finally:
            self._deadline = None
            self._looping = False
            await self._settle(state)
        return state

    async def _settle(self, state: ResearchState) -> None:
        """Cancel what runs ahead and the prefetch, and wait for them, even when this run's
        own cancellation lands meanwhile (Session.cancel sets the token, which the loop may
        act on first, then cancels the task): that is the cancel the loop already handled."""
        cleanup = asyncio.ensure_future(self._discard_and_close(state))
        try:
            await asyncio.shield(cleanup)
        except asyncio.CancelledError:
            if not self.ctx.cancel.cancelled:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            await cleanup

    async def _discard_and_close(self, state: ResearchState) -> None:
        await self._discard_ahead(state)
        await self.ctx.prefetch.close()

    def _prefetch_scout(self, state: ResearchState) -> None:
        """Planning's scout search depends only on the question: start it with the run
        rather than after clarification and the brief (deepresearch.prefetch)."""
        cfg = self.ctx.config
        if cfg.loop.plan_scout_results > 0 and state.phase in (Phase.CLARIFICATION, Phase.BRIEF):
            self.ctx.prefetch.search(
                self.ctx.search, state.question, max_results=cfg.loop.max_sources_per_query
            )

    def _start_ahead(self, state: ResearchState, phase: Phase) -> None:
        """Start the phase after ``phase`` now, when RUN_AHEAD allows it (see there)."""
        nxt = RUN_AHEAD.get(phase)
        if nxt is None or not self._looping or self.hooks or state.clarification is not None:
            return
        metrics = PhaseMetrics(phase=nxt, iteration=state.iteration)
        state.metrics.append(metrics)
        self._ahead[nxt] = Ahead(metrics, asyncio.create_task(self._execute(state, nxt, metrics)))

    async def _discard_ahead(self, state: ResearchState) -> None:
        """The run ended before a phase started ahead was reached: cancel it and drop its
        record (what it spent stays in the usage records); a resumed run runs it again."""
        ahead, self._ahead = list(self._ahead.values()), {}
        for a in ahead:
            a.task.cancel()
        await asyncio.gather(*(a.task for a in ahead), return_exceptions=True)
        for a in ahead:
            if a.metrics in state.metrics:
                state.metrics.remove(a.metrics)

    def _preflight(self) -> None:
        """Refuse, before anything runs, a configuration that cannot research: a model whose
        window cannot hold the smallest useful prompt (ConfigError naming the fix)."""
        budget = self.ctx.budget
        if budget is not None and self.ctx.config.tokens.token_management_enabled:
            budget.check_windows([s for role in AgentRole for s in self.ctx.models.specs(role)])

    async def step(self, state: ResearchState, phase: Phase | None = None) -> PhaseReport | None:
        """Run one phase (``state.phase`` unless named), with gate, think pause and advance.
        Errors become the state's status; the partial state is checkpointed."""
        target = phase or state.phase
        if target == Phase.DONE:
            return None
        try:
            return await self._step(state, target)
        except (ResearchCancelled, asyncio.CancelledError):
            if not self.ctx.cancel.cancelled:
                raise  # cancelled by someone else's task management: not ours to swallow
            await self._abort(state, target, RunStatus.CANCELLED, "Research was cancelled.")
        except TimeoutError:
            await self._abort(
                state, target, RunStatus.TIMED_OUT, f"Timed out during {target.value}."
            )
        except RunAbortedError as exc:
            await self._abort(state, target, RunStatus.FAILED, str(exc))
        except CostLimitReached as exc:
            await self._abort(state, target, RunStatus.STOPPED, str(exc))
        except (ProviderError, DeepResearchError) as exc:
            await self._abort(state, target, RunStatus.FAILED, f"{type(exc).__name__}: {exc}")
        return None

    async def _mark_running(self, state: ResearchState) -> None:
        """Set the status to running and save it now, not when the phase ends:
        `deepresearch list` and another process see the run as running from its first
        phase, not as pending."""
        if state.status not in (RunStatus.RUNNING, RunStatus.AWAITING_INPUT):
            state.status = RunStatus.RUNNING
            await self.ctx.checkpoint(state)

    async def _step(self, state: ResearchState, phase: Phase) -> PhaseReport:
        ctx, cfg = self.ctx, self.ctx.config
        ctx.cancel.check()
        state.phase = phase
        await self._mark_running(state)
        ahead = self._ahead.pop(phase, None)
        metrics = ahead.metrics if ahead else PhaseMetrics(phase=phase, iteration=state.iteration)
        if ahead is None:
            state.metrics.append(metrics)
        started: dict[str, object] = {"phase": phase.value, "iteration": state.iteration}
        if ahead is not None:
            started["ran_ahead"] = True  # it began while the phase before it ran
        ctx.events.emit(state, EventKind.PHASE_STARTED, started)
        ctx.say(f"{phase.value} (iteration {state.iteration})")
        if ahead is not None:
            report = await ahead.task
        else:
            self._start_ahead(state, phase)
            report = await self._execute(state, phase, metrics)
        ctx.events.emit(
            state,
            EventKind.PHASE_COMPLETED,
            {
                "phase": phase.value,
                "duration_s": metrics.duration_s,
                "summary": report.summary,
                "notes": report.notes,
            },
        )
        gate = validate(phase, state, cfg.loop.max_sub_queries)
        self._decide(
            state,
            phase,
            "evaluate_phase",
            "; ".join(gate.issues) or f"{phase.value} meets its quality gate.",
            {
                "quality_ok": gate.valid,
                "issues": gate.issues,
                "quality_score": gate.quality_score,
                **gate.metrics,
            },
        )
        steer = await self._pause(state, phase, reflection_prompt(state, phase, gate.issues))
        if steer.stop:
            state.status = RunStatus.STOPPED
            state.phase = next_phase(state, cfg)
            self._decide(
                state, phase, "stop", "A think-pause hook asked to stop.", {}, agent="user"
            )
            await ctx.checkpoint(state)
            return report
        nxt = self._advance(state, phase, steer)
        state.phase = nxt
        if nxt == Phase.DONE:
            finish(state)
        state.touch()
        await ctx.checkpoint(state)
        return report

    async def _execute(
        self, state: ResearchState, phase: Phase, metrics: PhaseMetrics
    ) -> PhaseReport:
        """The phase function within its timeout (and the run's), timed into ``metrics``;
        past it, TimeoutError (see deepresearch.deadlines: also between offline calls)."""
        timeout = self.ctx.config.phase_timeout(phase.value)
        if self._deadline is not None:
            timeout = min(timeout, max(0.0, self._deadline - time.monotonic()))
        started = time.perf_counter()
        try:
            return await deadlines.limited(PHASE_FUNCTIONS[phase](state, self.ctx), timeout)
        finally:
            metrics.duration_s = round(time.perf_counter() - started, 4)

    async def _pause(self, state: ResearchState, phase: Phase, prompt: str) -> Steer:
        """Call the hooks. After clarification that asked a question, their answer is the
        clarification; without hooks the run proceeds with the question as asked."""
        clarification = state.clarification
        asking = (
            phase == Phase.CLARIFICATION
            and clarification is not None
            and (clarification.need_clarification and clarification.answer is None)
        )
        if not self.hooks:
            if asking:
                self._decide(
                    state, phase, "clarification_unanswered",
                    "No hook to ask; proceeding with the question as asked.", {},
                )  # fmt: skip
            return Steer()
        if asking:
            state.status = RunStatus.AWAITING_INPUT
            await self.ctx.checkpoint(state)
        self.ctx.say(f"paused after {phase.value}: waiting for the think-pause hooks")
        steer = await call_hooks(self.hooks, state, prompt)
        state.status = RunStatus.RUNNING
        self.ctx.events.emit(
            state,
            EventKind.THINK_PAUSE,
            {"phase": phase.value, "prompt": prompt, **steer.model_dump()},
        )
        if asking and clarification is not None and steer.guidance:
            clarification.answer = steer.guidance
            steer = steer.model_copy(update={"guidance": None})
        changes = apply_edits(state, steer)
        if changes or steer.guidance:
            self._decide(
                state, phase, "apply_guidance", "; ".join(changes) or "guidance recorded",
                {"guidance": steer.guidance, "changes": changes}, agent="user",
            )  # fmt: skip
        return steer

    def _advance(self, state: ResearchState, phase: Phase, steer: Steer) -> Phase:
        cfg = self.ctx.config
        reviewed = phase in (Phase.SYNTHESIS, Phase.VERIFICATION)
        if reviewed and steer.guidance:
            # Guidance after the report asks for more: treat it as a gap to research.
            state.gaps.append(
                Gap(
                    id=state.next_id("gap"),
                    description=f"Reviewer asked: {steer.guidance}",
                    suggested_queries=[steer.guidance],
                    iteration=state.iteration,
                )
            )
        nxt = next_phase(state, cfg)
        if reviewed and nxt != Phase.VERIFICATION:
            self._decide(
                state, phase, "decide_iteration",
                "Unresolved gaps and iterations remain." if nxt == Phase.REFINEMENT
                else "No unresolved gaps or the iteration limit is reached.",
                {"should_iterate": should_iterate(state), "next_phase": nxt.value,
                 "gap_count": len(state.unresolved_gaps()), "iteration": state.iteration,
                 "max_iterations": state.max_iterations},
            )  # fmt: skip
        if steer.guidance and nxt != Phase.DONE:
            state.add_guidance(nxt, steer.guidance)
        if phase == Phase.REFINEMENT and nxt == Phase.GATHERING:
            state.start_new_iteration()
        return nxt

    def _decide(
        self,
        state: ResearchState,
        phase: Phase,
        action: str,
        rationale: str,
        outputs: dict[str, object],
        agent: str = "supervisor",
    ) -> None:
        """Record a decision; ``agent`` is "user" for what a think-pause hook asked."""
        decision = state.record(
            AgentDecision(
                agent=agent,
                action=action,
                rationale=rationale,
                phase=phase,
                iteration=state.iteration,
                inputs={"phase": phase.value, "iteration": state.iteration},
                outputs=dict(outputs),
            )
        )
        self.ctx.events.emit(state, EventKind.DECISION, decision.model_dump(mode="json"))

    async def _abort(
        self, state: ResearchState, phase: Phase, status: RunStatus, message: str
    ) -> None:
        state.status = status
        state.error = message
        state.abort_phase = phase
        state.abort_iteration = state.iteration
        state.phase = phase  # resume continues the interrupted phase
        # The phase's own record, not one a phase started ahead of it appended after it.
        record = next((m for m in reversed(state.metrics) if m.phase == phase), None)
        if record is not None and record.iteration == state.iteration:
            record.error = message
            close_phase(record, message)
        self.ctx.events.emit(state, ENDED[status], {"phase": phase.value, "error": message})
        await self.ctx.checkpoint(state)
