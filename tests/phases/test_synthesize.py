"""The report writer's inputs: the gaps a report must state."""

from __future__ import annotations

from deepresearch.phases.synthesize import synthesis_inputs
from deepresearch.state import Gap, ResearchState


def test_a_part_left_unanswered_reaches_the_report_writer_though_its_follow_ups_ended() -> None:
    state = ResearchState(question="What is lead, and what did the Vandrel guild charge?")
    part = "No source found answers this part of the question: what did the Vandrel guild charge"
    closed = Gap(id="gap-1", description=part, priority=1,
                 resolution="follow-up research found no evidence for it")  # fmt: skip
    covered = Gap(id="gap-2", description="covered", priority=1, addressed=True)
    state.gaps = [closed, covered]
    assert synthesis_inputs(state, []).gaps == [part]


def test_the_report_writer_is_told_why_a_part_is_unanswered() -> None:
    state = ResearchState(question="What is lead, and what did the Vandrel guild charge?")
    part = "No source found answers this part of the question: what did the Vandrel guild charge"
    why = "no source examined matches it"
    state.gaps = [Gap(id="gap-1", description=part, priority=1, reason=why)]
    assert synthesis_inputs(state, []).gaps == [f"{part} ({why})"]
