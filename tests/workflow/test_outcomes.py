"""workflow.outcomes: the status and the report's limitations section come from the
phases' outcome records."""

from __future__ import annotations

from deepresearch.state import Outcome, Phase, PhaseMetrics, Report, ResearchState, RunStatus
from deepresearch.workflow.outcomes import WARNINGS_HEADING, close_phase, finish, with_warnings

MARKDOWN = "# Q\n\nBody [1].\n\n## Sources\n\n1. A — https://a.example\n"


def state_with(*outcomes: Outcome) -> ResearchState:
    state = ResearchState(question="Q?")
    for n, outcome in enumerate(outcomes):
        m = PhaseMetrics(phase=Phase.ANALYSIS, iteration=n + 1)
        if outcome == Outcome.DEGRADED:
            m.degrade("analyzer call lost: HTTP 500")
        elif outcome == Outcome.FAILED:
            close_phase(m, "boom")
        state.metrics.append(m)
    state.report = Report(markdown=MARKDOWN)
    return state


def test_a_clean_run_completes_and_its_report_is_untouched() -> None:
    state = state_with(Outcome.OK, Outcome.OK)
    state.error = "Research was cancelled."
    assert finish(state) == RunStatus.COMPLETED
    assert state.report is not None and state.report.markdown == MARKDOWN
    assert state.error is None and state.run_warnings() == []


def test_a_degraded_phase_means_warnings_everywhere() -> None:
    state = state_with(Outcome.OK, Outcome.DEGRADED)
    assert finish(state) == RunStatus.COMPLETED_WITH_WARNINGS
    assert state.report is not None
    assert state.report.warnings == [
        "analysis (iteration 2) degraded: analyzer call lost: HTTP 500"
    ]
    md = state.report.markdown
    assert md.index(WARNINGS_HEADING) < md.index("## Sources")
    assert "analyzer call lost" in md


def test_the_section_is_replaced_not_repeated() -> None:
    once = with_warnings(MARKDOWN, ["first"])
    twice = with_warnings(once, ["second"])
    assert twice.count(WARNINGS_HEADING) == 1 and "first" not in twice and "second" in twice
    assert with_warnings(twice, []) == MARKDOWN


def test_degrade_never_hides_a_failure() -> None:
    m = PhaseMetrics(phase=Phase.SYNTHESIS, iteration=1)
    close_phase(m, "boom")
    m.degrade("later problem")
    assert m.outcome == Outcome.FAILED and m.problems == ["boom", "later problem"]


def test_an_interrupted_phase_run_again_by_resume_does_not_count() -> None:
    state = state_with(Outcome.OK)
    interrupted = PhaseMetrics(phase=Phase.GATHERING, iteration=1)
    close_phase(interrupted, "Research was cancelled.")
    state.metrics += [interrupted, PhaseMetrics(phase=Phase.GATHERING, iteration=1)]
    assert finish(state) == RunStatus.COMPLETED
    state.metrics.pop()  # not run again: the failure stands
    assert state.finished_status() == RunStatus.COMPLETED_WITH_WARNINGS


def test_no_open_gaps_is_said_only_when_none_is_recorded() -> None:
    from deepresearch.state import Gap

    said = MARKDOWN.replace(
        "## Sources", "## Gaps and limitations\n\n- No open gaps were identified.\n\n## Sources"
    )
    state = state_with(Outcome.OK)
    state.report = Report(markdown=said)
    finish(state)
    assert state.report.markdown == said  # nothing recorded: the line stands
    state.gaps.append(
        Gap(id="gap-1", description="The radio part was not researched.", iteration=1)
    )
    state.report = Report(markdown=said)
    finish(state)
    md = state.report.markdown
    assert "No open gaps" not in md
    assert "- The radio part was not researched." in md
    assert md.index("## Open gaps") < md.index("## Sources")
    finish(state)  # idempotent: the gap is mentioned now, nothing added twice
    assert state.report.markdown.count("radio part") == 1


def test_a_part_left_unanswered_warns_once() -> None:
    from deepresearch.state import UNANSWERED, Gap

    state = state_with(Outcome.OK)
    part = Gap(id="gap-1", description="No source answers: where did it originate", iteration=1)
    minor = Gap(id="gap-2", description="More figures would help.", priority=2, iteration=1)
    state.gaps += [part, minor]
    state.report = Report(markdown=MARKDOWN)
    assert finish(state) == RunStatus.COMPLETED_WITH_WARNINGS
    assert state.run_warnings() == [UNANSWERED + part.description]  # priority 1 only
    md = state.report.markdown
    assert md.count("where did it originate") == 1  # stated as an open gap, not again
    # closed because the follow-ups found nothing: still unanswered, and now only a warning
    part.resolution = "follow-up research found no evidence for it"
    state.report = Report(markdown=MARKDOWN)
    finish(state)
    md = state.report.markdown
    assert "left these parts of the question unanswered" in md
    assert md.count("where did it originate") == 1
    part.addressed = True
    assert finish(state) == RunStatus.COMPLETED


def test_a_part_left_unanswered_is_stated_with_why_once() -> None:
    from deepresearch.state import UNANSWERED, Gap

    state = state_with(Outcome.OK)
    why = "no source examined matches it"
    part = Gap(id="gap-1", description="No source answers: where did it originate", reason=why)
    state.gaps.append(part)
    state.report = Report(markdown=MARKDOWN)
    finish(state)
    assert state.run_warnings() == [f"{UNANSWERED}{part.description} ({why})"]
    md = state.report.markdown
    assert md.count(f"where did it originate ({why})") == 1  # the open gap, with why
    assert md.count("where did it originate") == 1


def test_things_to_check_are_not_called_a_degraded_run() -> None:
    from deepresearch.state import CHECK, UNANSWERED

    check = CHECK + "1 corpus file(s) are not UTF-8 ...: a.txt (read as cp1252)"
    unanswered = UNANSWERED + "No source answers: where did it originate"
    md = with_warnings(MARKDOWN, [check, unanswered])
    assert "Check these points before relying on the findings above:" in md
    assert "did not work as configured" not in md and f"- {check}" in md
    degraded = "gathering (iteration 1) degraded: 1 of 2 sub-query searches failed"
    assert "did not work as configured" in with_warnings(MARKDOWN, [check, degraded])
