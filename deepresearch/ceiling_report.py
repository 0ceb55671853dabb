"""The report a run stopped by its cost ceiling still gets: what was gathered, analysed and
written up by the offline engine, which spends nothing."""

from __future__ import annotations

import dataclasses

from deepresearch.context import RunContext
from deepresearch.llm import ModelRouter
from deepresearch.phases import PHASE_FUNCTIONS
from deepresearch.providers.registry import build_llm, cheap_spec_for
from deepresearch.state import Gap, Phase, ResearchState


async def report_within_budget(state: ResearchState, ctx: RunContext) -> None:
    """The cost ceiling stopped the run: write a report of what was gathered with the
    offline engine (no spend), say so as a gap, and leave the run ``stopped``.

    Args:
        state: the stopped run's state; gains a gap, findings and a report.
        ctx: the run's context; its config gives the ceiling, its checkpoint saves.
    """
    if not state.sources:
        return
    offline = ctx.config.merged(llm="offline", role_models={}, role_fallbacks={})
    models = ModelRouter(
        offline, build_llm("offline", offline), lambda s: build_llm(s, offline), cheap_spec_for
    )
    report_ctx = dataclasses.replace(ctx, config=offline, models=models)
    limit = ctx.config.loop.max_cost_usd
    state.gaps.append(
        Gap(
            id=state.next_id("gap"),
            description=f"Research stopped at the cost ceiling (max_cost_usd={limit:g}) "
            f"during {(state.abort_phase or state.phase).value}; this report covers only "
            "what was gathered by then, written by the offline engine.",
            iteration=state.iteration,
        )
    )
    status, error, phase = state.status, state.error, state.phase
    for step in (Phase.ANALYSIS, Phase.SYNTHESIS):
        await PHASE_FUNCTIONS[step](state, report_ctx)
    state.status, state.error, state.phase = status, error, phase
    await report_ctx.checkpoint(state)
