"""How a run ended, derived from the phases' outcome records (``PhaseMetrics.outcome``).

The session status, the CLI's exit code and summary, the report's "Limitations of this run"
section and the metrics DataFrame all read the same records, so they cannot disagree.
"""

from __future__ import annotations

import re

from deepresearch.state import (
    CHECK,
    UNANSWERED,
    Outcome,
    PhaseMetrics,
    ResearchState,
    RunStatus,
)

WARNINGS_HEADING = "## Limitations of this run"
GAPS_HEADING = "## Open gaps"
_NO_GAPS = re.compile(r"\bno (open |unresolved |remaining )?gaps\b", re.IGNORECASE)
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
        gaps = [g.stated() for g in state.unresolved_gaps()]
        state.report.markdown = with_gaps(state.report.markdown, gaps)
        state.report.warnings = state.run_warnings()
        state.report.markdown = with_warnings(state.report.markdown, state.report.warnings)
    return status


def with_gaps(markdown: str, gaps: list[str]) -> str:
    """The report states every open gap the state records: a "no open gaps" line is
    removed when gaps exist, and gaps the report does not mention are listed in an
    "Open gaps" section (before the sources list)."""
    if not gaps:
        return markdown
    lines = [ln for ln in markdown.split("\n") if not _NO_GAPS.search(ln)]
    text = "\n".join(lines)
    missing = [g for g in gaps if " ".join(g.split()) not in " ".join(text.split())]
    if not missing:
        return text
    section = "\n".join([GAPS_HEADING, "", *(f"- {g}" for g in missing), ""])
    head, sources, rest = text.rpartition(_SOURCES_HEADING)
    if not sources:
        return text.rstrip() + "\n\n" + section
    return f"{head.rstrip()}\n\n{section}{_SOURCES_HEADING}{rest}"


def _lead(warnings: list[str]) -> str:
    """What the limitations section says its warnings are: a degraded run's are said to
    have thinned the findings, parts left unanswered and things to check are not."""
    if any(not w.startswith((UNANSWERED, CHECK)) for w in warnings):
        return (
            "Parts of this run did not work as configured; the findings above may be thinner "
            "than a clean run's:"
        )
    if all(w.startswith(UNANSWERED) for w in warnings):
        return "The research left these parts of the question unanswered:"
    return "Check these points before relying on the findings above:"


def with_warnings(markdown: str, warnings: list[str]) -> str:
    """The report with its limitations section (before the sources list), replacing any
    section an earlier finish wrote; unchanged when there is nothing to warn about."""
    body, sep, tail = markdown.partition(f"\n{WARNINGS_HEADING}\n")
    if sep:  # drop the old section: it runs up to the next heading or fidelity line
        after = tail.split("\n## ", 1)
        body = body.rstrip() + ("\n\n## " + after[1] if len(after) > 1 else "\n")
    # A part left unanswered that the report already states as a gap is not said twice.
    said = " ".join(body.split())
    warnings = [
        w
        for w in warnings
        if not (w.startswith(UNANSWERED) and " ".join(w.removeprefix(UNANSWERED).split()) in said)
    ]
    if not warnings:
        return body if sep else markdown
    lead = _lead(warnings)
    section = "\n".join(
        [
            WARNINGS_HEADING,
            "",
            lead,
            "",
            *(f"- {w}" for w in warnings),
            "",
        ]
    )
    head, sources, rest = body.rpartition(_SOURCES_HEADING)
    if not sources:
        return body.rstrip() + "\n\n" + section
    return f"{head.rstrip()}\n\n{section}{_SOURCES_HEADING}{rest}"
