"""How a run ended, derived from the phases' outcome records (``PhaseMetrics.outcome``).

The session status, the CLI's exit code and summary, the report's "Limitations of this run"
section and the metrics DataFrame all read the same records, so they cannot disagree.
"""

from __future__ import annotations

from deepresearch.state import Outcome, PhaseMetrics, ResearchState, RunStatus

WARNINGS_HEADING = "## Limitations of this run"
_SOURCES_HEADING = "\n## Sources\n"


def close_phase(metrics: PhaseMetrics, error: str | None = None) -> None:
    """Settle a phase run's outcome: failed with its error, else as its problems say."""
    if error is not None:
        metrics.outcome = Outcome.FAILED
        if error not in metrics.problems:
            metrics.problems.append(error)


def finish(state: ResearchState) -> RunStatus:
    """The status of a run that reached the end, and its warnings stated in the report."""
    status = state.finished_status()
    state.status = status
    state.error = None  # an earlier interruption is history once the run completes
    state.abort_phase = state.abort_iteration = None
    if state.report is not None:
        state.report.warnings = state.run_warnings()
        state.report.markdown = with_warnings(state.report.markdown, state.report.warnings)
    return status


def with_warnings(markdown: str, warnings: list[str]) -> str:
    """The report with its limitations section (before the sources list), replacing any
    section an earlier finish wrote; unchanged when there is nothing to warn about."""
    body, sep, tail = markdown.partition(f"\n{WARNINGS_HEADING}\n")
    if sep:  # drop the old section: it runs up to the next heading or fidelity line
        after = tail.split("\n## ", 1)
        body = body.rstrip() + ("\n\n## " + after[1] if len(after) > 1 else "\n")
    if not warnings:
        return body if sep else markdown
    section = "\n".join(
        [
            WARNINGS_HEADING,
            "",
            "Parts of this run did not work as configured; the findings above may be thinner "
            "than a clean run's:",
            "",
            *(f"- {w}" for w in warnings),
            "",
        ]
    )
    head, sources, rest = body.rpartition(_SOURCES_HEADING)
    if not sources:
        return body.rstrip() + "\n\n" + section
    return f"{head.rstrip()}\n\n{section}{_SOURCES_HEADING}{rest}"
