"""One async function per phase: ``await phase(state, ctx) -> PhaseReport``.

Phases know nothing of Session, stores or widgets; they read and update the state.
"""

from deepresearch.phases.analyze import analyze
from deepresearch.phases.common import PhaseReport
from deepresearch.phases.gather import gather
from deepresearch.phases.refine import refine
from deepresearch.phases.setup import brief, clarify, plan
from deepresearch.phases.supervise import supervise
from deepresearch.phases.synthesize import synthesize
from deepresearch.phases.verify import verify
from deepresearch.state import Phase

PHASE_FUNCTIONS = {
    Phase.CLARIFICATION: clarify,
    Phase.BRIEF: brief,
    Phase.PLANNING: plan,
    Phase.GATHERING: gather,
    Phase.SUPERVISION: supervise,
    Phase.ANALYSIS: analyze,
    Phase.SYNTHESIS: synthesize,
    Phase.VERIFICATION: verify,
    Phase.REFINEMENT: refine,
}

__all__ = [
    "PHASE_FUNCTIONS",
    "PhaseReport",
    "analyze",
    "brief",
    "clarify",
    "gather",
    "plan",
    "refine",
    "supervise",
    "synthesize",
    "verify",
]
