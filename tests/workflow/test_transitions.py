from __future__ import annotations

from deepresearch.config import Config
from deepresearch.state import (
    Gap,
    Phase,
    ResearchState,
    SubQueryStatus,
    SupervisionRound,
)
from deepresearch.workflow.transitions import next_phase, should_iterate


def _state(phase: Phase, **kw: object) -> ResearchState:
    s = ResearchState(question="q?", **kw)  # type: ignore[arg-type]
    s.phase = phase
    return s


def test_linear_transitions() -> None:
    cfg = Config()
    assert next_phase(_state(Phase.CLARIFICATION), cfg) == Phase.BRIEF
    assert next_phase(_state(Phase.BRIEF), cfg) == Phase.PLANNING
    assert next_phase(_state(Phase.PLANNING), cfg) == Phase.GATHERING
    assert next_phase(_state(Phase.GATHERING), cfg) == Phase.SUPERVISION
    assert next_phase(_state(Phase.ANALYSIS), cfg) == Phase.SYNTHESIS


def test_gathering_skips_supervision_when_disabled() -> None:
    assert next_phase(_state(Phase.GATHERING), Config(enable_supervision=False)) == Phase.ANALYSIS


def test_supervision_loops_back_to_gathering_while_it_queued_work() -> None:
    cfg = Config(max_supervision_rounds=3)
    s = _state(Phase.SUPERVISION)
    s.add_sub_query("a follow-up query", origin="supervision")
    s.supervision_round = 1
    s.supervision_history.append(SupervisionRound(iteration=1, round=1, should_continue=True))
    assert next_phase(s, cfg) == Phase.GATHERING
    # ...but not at the round limit,
    s.supervision_round = 3
    assert next_phase(s, cfg) == Phase.ANALYSIS
    # ...nor when nothing is pending,
    s.supervision_round = 1
    s.sub_queries[0].status = SubQueryStatus.COMPLETED
    assert next_phase(s, cfg) == Phase.ANALYSIS
    # ...nor when the supervisor said stop.
    s.sub_queries[0].status = SubQueryStatus.PENDING
    s.supervision_history[-1].should_continue = False
    assert next_phase(s, cfg) == Phase.ANALYSIS


def test_iteration_stops_at_max_and_at_no_gaps() -> None:
    cfg = Config(verify_claims=False)  # with verification, it decides after that phase
    s = _state(Phase.SYNTHESIS, max_iterations=2)
    assert not should_iterate(s)
    assert next_phase(s, cfg) == Phase.DONE  # no gaps
    s.gaps.append(Gap(id="gap-1", description="missing"))
    assert next_phase(s, cfg) == Phase.REFINEMENT
    s.iteration = 2
    assert next_phase(s, cfg) == Phase.DONE  # at max
    s.iteration = 1
    s.gaps[0].addressed = True
    assert next_phase(s, cfg) == Phase.DONE


def test_refinement_starts_gathering_only_with_new_queries() -> None:
    s = _state(Phase.REFINEMENT)
    assert next_phase(s, Config()) == Phase.DONE
    s.add_sub_query("follow-up from a gap", origin="refinement")
    assert next_phase(s, Config()) == Phase.GATHERING
