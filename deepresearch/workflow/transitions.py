"""The transition table as pure functions of the state, so a resumed run continues
exactly where it stopped."""

from __future__ import annotations

from deepresearch.config import Config
from deepresearch.state import Phase, ResearchState


def should_iterate(state: ResearchState) -> bool:
    """Iterate while unresolved gaps exist and iterations remain
    (docs/concepts/refinement.md)."""
    return state.has_unresolved_gaps() and state.iteration < state.max_iterations


def should_continue_supervision(state: ResearchState, config: Config) -> bool:
    """Whether another supervision round should run this iteration: the last round asked
    for more, follow-ups are pending and the round limit is not reached.

    Args:
        state: the run's state.
        config: the run's Config (``supervision.max_supervision_rounds``).
    """
    if not state.supervision_history:
        return False
    last = state.supervision_history[-1]
    return (
        last.iteration == state.iteration
        and last.should_continue
        and bool(state.pending_sub_queries())
        and state.supervision_round < config.supervision.max_supervision_rounds
    )


def next_phase(state: ResearchState, config: Config) -> Phase:
    """The phase after ``state.phase`` has just completed."""
    match state.phase:
        case Phase.CLARIFICATION:
            return Phase.BRIEF
        case Phase.BRIEF:
            return Phase.PLANNING
        case Phase.PLANNING:
            return Phase.GATHERING
        case Phase.GATHERING:
            return Phase.SUPERVISION if config.supervision.enable_supervision else Phase.ANALYSIS
        case Phase.SUPERVISION:
            if should_continue_supervision(state, config):
                return Phase.GATHERING
            return Phase.ANALYSIS
        case Phase.ANALYSIS:
            return Phase.SYNTHESIS
        case Phase.SYNTHESIS if config.verification.verify_claims:
            return Phase.VERIFICATION
        case Phase.SYNTHESIS | Phase.VERIFICATION:
            return Phase.REFINEMENT if should_iterate(state) else Phase.DONE
        case Phase.REFINEMENT:
            # A new iteration only when refinement queued something to research.
            return Phase.GATHERING if state.pending_sub_queries() else Phase.DONE
        case _:
            return Phase.DONE


def reflection_prompt(state: ResearchState, phase: Phase, issues: list[str]) -> str:
    """The think-pause prompt for the phase that just completed (docs/notebooks.md,
    "Steering: think-pause hooks")."""
    n_gaps = len(state.unresolved_gaps())
    match phase:
        case Phase.CLARIFICATION:
            c = state.clarification
            if c is not None and c.need_clarification:
                text = f"Clarification needed: {c.question}"
            else:
                text = "Clarification complete. " + (c.verification if c else "")
        case Phase.BRIEF:
            text = f"Brief complete. Research brief: {state.research_brief or '(none)'}"
        case Phase.PLANNING:
            basis = "from the research brief" if state.research_brief else "without a brief"
            text = (
                f"Planning complete. Generated {len(state.sub_queries)} sub-queries {basis}. "
                "Evaluate: Are sub-queries comprehensive? Any gaps in coverage?"
            )
        case Phase.GATHERING:
            text = (
                f"Gathering complete. Collected {len(state.sources)} sources. Evaluate: Is "
                "source diversity sufficient? Quality distribution?"
            )
        case Phase.SUPERVISION:
            pending = len(state.pending_sub_queries())
            text = (
                f"Supervision round {state.supervision_round}: {pending} follow-up queries "
                "queued. Evaluate: Is coverage sufficient?"
            )
        case Phase.ANALYSIS:
            text = (
                f"Analysis complete. Extracted {len(state.findings)} findings, identified "
                f"{n_gaps} gaps. Evaluate: Are findings well-supported? Critical gaps?"
            )
        case Phase.SYNTHESIS:
            length = len(state.report.markdown) if state.report else 0
            text = (
                f"Synthesis complete. Report: {length} chars. Iteration "
                f"{state.iteration}/{state.max_iterations}. Evaluate: Report quality? Need "
                "refinement?"
            )
        case Phase.VERIFICATION:
            text = verification_prompt(state)
        case _:
            addressed = sum(1 for g in state.gaps if g.addressed)
            text = (
                f"Refinement complete. Gaps addressed: {addressed}/{len(state.gaps)}. "
                "Evaluate: Continue iterating or finalize?"
            )
    if issues:
        text += " Gate issues: " + "; ".join(issues) + "."
    return text


def verification_prompt(state: ResearchState) -> str:
    """What the claim check found, with the unsupported claims a person should review."""
    tally: dict[str, int] = {}
    for c in state.claims:
        tally[c.status.value] = tally.get(c.status.value, 0) + 1
    flagged = [c for c in state.claims if c.status.value == "unsupported"]
    text = (
        f"Verification complete. {len(state.claims)} claims: {tally.get('supported', 0)} "
        f"supported, {tally.get('partial', 0)} partial, {len(flagged)} unsupported, "
        f"{tally.get('uncited', 0)} uncited."
    )
    if flagged:
        text += " Unsupported: " + "; ".join(
            f"{c.id} {c.text[:100]!r} cites {c.citations}" for c in flagged[:5]
        )
    return text + " Evaluate: Are the flagged claims wrong or mis-cited? Need refinement?"
