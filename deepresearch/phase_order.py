"""Which phase must run before another when a person steps a session by hand.

The loop (Workflow.run) always runs phases in an order that satisfies these; a Session's
phase methods check them so that ``gather()`` before ``plan()`` is a PhaseOrderError
naming the phase to run first, rather than a run that "succeeds" with nothing in it.
"""

from __future__ import annotations

from collections.abc import Callable

from deepresearch.errors import PhaseOrderError
from deepresearch.state import Phase, ResearchState, SubQueryStatus

# The Session method that runs each phase.
METHOD = {
    Phase.CLARIFICATION: "clarify",
    Phase.BRIEF: "brief",
    Phase.PLANNING: "plan",
    Phase.GATHERING: "gather",
    Phase.SUPERVISION: "supervise",
    Phase.ANALYSIS: "analyze",
    Phase.SYNTHESIS: "synthesize",
    Phase.REFINEMENT: "refine",
}


def _planned(state: ResearchState) -> bool:
    return bool(state.sub_queries)


def _gathered(state: ResearchState) -> bool:
    return bool(state.sources) or any(
        sq.status != SubQueryStatus.PENDING for sq in state.sub_queries
    )


def _analyzed(state: ResearchState) -> bool:
    return any(m.phase == Phase.ANALYSIS and m.error is None for m in state.metrics)


def _synthesized(state: ResearchState) -> bool:
    return state.report is not None


# What each earlier phase leaves behind, in loop order; and what each phase needs.
PRODUCES: dict[Phase, tuple[str, Callable[[ResearchState], bool]]] = {
    Phase.PLANNING: ("sub-queries", _planned),
    Phase.GATHERING: ("gathered sources", _gathered),
    Phase.ANALYSIS: ("findings from analysis", _analyzed),
    Phase.SYNTHESIS: ("a report", _synthesized),
}
NEEDS: dict[Phase, tuple[Phase, ...]] = {
    Phase.GATHERING: (Phase.PLANNING,),
    Phase.SUPERVISION: (Phase.PLANNING, Phase.GATHERING),
    Phase.ANALYSIS: (Phase.PLANNING, Phase.GATHERING),
    Phase.SYNTHESIS: (Phase.PLANNING, Phase.GATHERING, Phase.ANALYSIS),
    Phase.REFINEMENT: (Phase.PLANNING, Phase.GATHERING, Phase.ANALYSIS, Phase.SYNTHESIS),
}


def check_phase_inputs(state: ResearchState, phase: Phase) -> None:
    """Raise PhaseOrderError naming the earliest phase whose output ``phase`` needs and
    the state does not have yet."""
    for earlier in NEEDS.get(phase, ()):
        what, present = PRODUCES[earlier]
        if not present(state):
            first = METHOD[earlier]
            raise PhaseOrderError(
                f"{METHOD[phase]}() needs {what}, and there are none yet: "
                f"run {first}() first (or run() to do every phase in order).",
                run_first=first,
            )
