from __future__ import annotations

from deepresearch.state import (
    Confidence,
    Finding,
    Phase,
    Report,
    ResearchState,
    SourceQuality,
    SubQueryStatus,
)
from deepresearch.workflow.gates import validate


def test_planning_gate_rules() -> None:
    s = ResearchState(question="q?")
    s.add_sub_query("short")
    gate = validate(Phase.PLANNING, s, max_sub_queries=5)
    assert not gate.valid
    assert "Insufficient sub-queries (minimum: 2)" in gate.issues
    assert "Missing research brief" in gate.issues
    assert any(i.startswith("Sub-query too short") for i in gate.issues)
    s.add_sub_query("a long enough second query")
    s.sub_queries[0].query = "a long enough first query"
    s.research_brief = "brief"
    ok = validate(Phase.PLANNING, s, max_sub_queries=5)
    assert ok.valid and ok.quality_score == 5.0
    assert not validate(Phase.PLANNING, s, max_sub_queries=1).valid


def test_gathering_gate_rules() -> None:
    s = ResearchState(question="q?")
    for q in ("first sub query", "second sub query"):
        s.add_sub_query(q)
    gate = validate(Phase.GATHERING, s, 5)
    assert "Insufficient sources (minimum: 3)" in gate.issues
    assert any("completion rate" in i for i in gate.issues)
    for i in range(3):
        s.new_source(url=f"u{i}", title=f"t{i}", quality=SourceQuality.LOW)
    for sq in s.sub_queries:
        sq.status = SubQueryStatus.COMPLETED
    assert validate(Phase.GATHERING, s, 5).issues == ["No high-quality sources found"]


def test_analysis_and_synthesis_gates() -> None:
    s = ResearchState(question="q?")
    src = s.new_source(url="u", title="t")
    s.findings.append(
        Finding(id="f-1", content="x", confidence=Confidence.LOW, source_ids=[src.id])
    )
    gate = validate(Phase.ANALYSIS, s, 5)
    assert "Insufficient findings (minimum: 2)" in gate.issues
    assert "No high-confidence findings" in gate.issues
    assert not validate(Phase.SYNTHESIS, s, 5).valid
    s.report = Report(markdown="## Summary\n" + "word " * 40)
    assert validate(Phase.SYNTHESIS, s, 5).valid
