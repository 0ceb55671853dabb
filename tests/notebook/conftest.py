"""A hand-built ResearchState with a bit of everything, for the notebook-layer tests."""

from __future__ import annotations

import pytest

from deepresearch.state import (
    AgentDecision,
    Confidence,
    Finding,
    Gap,
    Phase,
    PhaseMetrics,
    QueryCoverage,
    Report,
    ResearchState,
    SourceQuality,
    SubQueryStatus,
    SupervisionRound,
    UsageRecord,
)

HOSTILE = "<script>alert('x')</script>"


@pytest.fixture
def rich_state() -> ResearchState:
    state = ResearchState(question=f"How did the printing press change Europe? {HOSTILE}")
    state.research_brief = "Focus on literacy and the Reformation."
    sq1 = state.add_sub_query("printing press literacy")
    sq2 = state.add_sub_query("printing press reformation")
    state.add_sub_query("printing press science", priority=2)
    sq1.status = SubQueryStatus.COMPLETED
    sq2.status = SubQueryStatus.COMPLETED
    web = state.new_source(
        url="https://example.org/press?a=1&b=(2)",
        title=f"Printing {HOSTILE}",
        snippet="Gutenberg",
        content="Gutenberg's press spread literacy.",
        quality=SourceQuality.HIGH,
        sub_query_id=sq1.id,
        domain="example.org",
    )
    local = state.new_source(
        url="/data/notes/reformation notes.md",
        title="Reformation notes",
        content="Luther's pamphlets were printed widely.",
        quality=SourceQuality.MEDIUM,
        sub_query_id=sq2.id,
    )
    state.new_source(url="javascript:alert(1)", title="evil", sub_query_id=sq2.id)
    state.findings = [
        Finding(
            id="f-1",
            content="The press raised literacy.",
            confidence=Confidence.HIGH,
            source_ids=[local.id, web.id],
        ),
        Finding(id="f-2", content=f"Pamphlets {HOSTILE}", source_ids=[local.id]),
    ]
    state.gaps = [Gap(id="g-1", description="Effects on science", severity="moderate")]
    state.decisions = [
        AgentDecision(agent="planner", action="planned 3 sub-queries", phase=Phase.PLANNING),
        AgentDecision(agent="supervisor", action=f"delegated {HOSTILE}", phase=Phase.SUPERVISION),
    ]
    state.metrics = [
        PhaseMetrics(
            phase=Phase.PLANNING,
            iteration=1,
            duration_s=0.5,
            llm_calls=1,
            input_tokens=100,
            output_tokens=20,
            cost_usd=0.001,
        ),
        PhaseMetrics(phase=Phase.GATHERING, iteration=1, duration_s=2.0, search_calls=4),
    ]
    state.usage = [
        UsageRecord(
            role="planner",
            phase="planning",
            model="offline",
            input_tokens=100,
            output_tokens=20,
            cost_usd=0.001,
        ),
    ]
    state.supervision_history = [
        SupervisionRound(
            iteration=1,
            round=1,
            confidence=0.5,
            coverage=[
                QueryCoverage(
                    sub_query_id=sq1.id,
                    query=sq1.query,
                    status=sq1.status,
                    source_count=1,
                    sufficient=True,
                ),
                QueryCoverage(
                    sub_query_id=sq2.id,
                    query=sq2.query,
                    status=sq2.status,
                    source_count=2,
                    sufficient=False,
                ),
            ],
            delta=["+1 source"],
            directive_ids=["d-1"],
            should_continue=True,
        )
    ]
    state.report = Report(
        markdown=f"# Report\n\nLiteracy rose [1]. Luther [2, 1]. Evil [3]. Unknown [9]. {HOSTILE}\n"
        "Already linked [1](https://x.org).\n",
        cited_source_ids=[web.id, local.id],
    )
    return state
