"""Quality gates: checks of what a phase produced (a plan has sub-queries, a report cites
its sources, ...), evaluated after each phase and recorded as supervisor decisions. They inform the think pause; they do not block the loop."""

from __future__ import annotations

from dataclasses import dataclass, field

from deepresearch.state import Phase, ResearchState

MIN_SUB_QUERY_CHARS = 10


@dataclass
class GateResult:
    """A phase's quality gate: whether its output is usable, the issues found, a score
    and the metrics the check measured.
    """

    valid: bool
    issues: list[str] = field(default_factory=list)
    quality_score: float = 0.0
    metrics: dict[str, object] = field(default_factory=dict)


def validate(phase: Phase, state: ResearchState, max_sub_queries: int) -> GateResult:
    """Check what ``phase`` produced in ``state``.

    Args:
        phase: the phase that just ran.
        state: the run's state.
        max_sub_queries: the planner's limit (the planning gate checks it).
    """
    match phase:
        case Phase.PLANNING:
            return _planning(state, max_sub_queries)
        case Phase.GATHERING:
            return _gathering(state)
        case Phase.ANALYSIS:
            return _analysis(state)
        case Phase.SYNTHESIS:
            return _synthesis(state)
        case Phase.REFINEMENT:
            return _refinement(state)
        case Phase.SUPERVISION:
            pending = len(state.pending_sub_queries())
            return GateResult(True, [], 10.0, {"supervision_round": state.supervision_round,
                                               "pending_follow_ups": pending})  # fmt: skip
        case _:
            return GateResult(True, [], 10.0, {})


def _planning(state: ResearchState, max_sub_queries: int) -> GateResult:
    issues = []
    current = [sq for sq in state.sub_queries if sq.iteration == state.iteration]
    if len(current) < 2:
        issues.append("Insufficient sub-queries (minimum: 2)")
    if len(current) > max_sub_queries:
        issues.append(f"Too many sub-queries (max: {max_sub_queries})")
    if not state.research_brief:
        issues.append("Missing research brief")
    for sq in current:
        if len(sq.query) < MIN_SUB_QUERY_CHARS:
            issues.append(f"Sub-query too short: {sq.query[:20]}")
    return GateResult(
        not issues,
        issues,
        min(10.0, len(current) * 2.5),
        {"sub_query_count": len(current), "has_research_brief": bool(state.research_brief)},
    )


def _gathering(state: ResearchState) -> GateResult:
    issues = []
    n = len(state.sources)
    if n < 3:
        issues.append("Insufficient sources (minimum: 3)")
    high = len(state.high_quality_sources())
    # Quality is rated in analysis; before that every source is 'unknown'.
    rated = any(s.quality.value != "unknown" for s in state.sources)
    if rated and high == 0 and n > 0:
        issues.append("No high-quality sources found")
    completed = len(state.completed_sub_queries())
    total = len(state.sub_queries)
    if completed < total * 0.5:
        issues.append(f"Low sub-query completion rate: {completed}/{total}")
    return GateResult(not issues, issues, min(10.0, n * 1.5), {"source_count": n})


def _analysis(state: ResearchState) -> GateResult:
    issues = []
    if len(state.findings) < 2:
        issues.append("Insufficient findings (minimum: 2)")
    high = len(state.high_confidence_findings())
    if high == 0 and state.findings:
        issues.append("No high-confidence findings")
    cited = {sid for f in state.findings for sid in f.source_ids}
    coverage = len(cited) / max(1, len(state.sources))
    if coverage < 0.3:
        issues.append(f"Low source citation coverage: {coverage:.0%}")
    return GateResult(
        not issues,
        issues,
        min(10.0, len(state.findings) * 2 + high),
        {"finding_count": len(state.findings), "high_confidence_count": high},
    )


def _synthesis(state: ResearchState) -> GateResult:
    report = state.report.markdown if state.report else ""
    if not report:
        return GateResult(False, ["Missing report"], 0.0, {"has_report": False, "report_length": 0})
    issues = []
    if len(report) < 100:
        issues.append("Report too short (minimum: 100 chars)")
    if "##" not in report:
        issues.append("Report missing section structure")
    return GateResult(
        not issues,
        issues,
        min(10.0, len(report) / 500),
        {"has_report": True, "report_length": len(report)},
    )


def _refinement(state: ResearchState) -> GateResult:
    unaddressed = len(state.unresolved_gaps())
    issues = []
    if unaddressed > 0 and state.iteration >= state.max_iterations:
        issues.append("Unaddressed gaps remain but iteration limit reached")
    return GateResult(
        True,
        issues,
        10.0 - min(10.0, unaddressed * 2),
        {"unaddressed_gaps": unaddressed, "should_iterate": bool(state.pending_sub_queries())},
    )
