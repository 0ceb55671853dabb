"""deepresearch.state: ResearchState round-trips through JSON, is versioned, migrates old
saved states, and its helper methods."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from deepresearch.errors import StateVersionError
from deepresearch.state import (
    SCHEMA_VERSION,
    AgentDecision,
    AllocationSummary,
    Clarification,
    Confidence,
    ContentFidelity,
    Directive,
    Finding,
    Gap,
    LinkFollow,
    Novelty,
    Phase,
    PhaseMetrics,
    ReflectionDecision,
    Report,
    ResearchState,
    RunStatus,
    SourceQuality,
    SubQueryStatus,
    SupervisionRound,
    TopicResult,
    UsageRecord,
)
from deepresearch.state.research_state import migrate

QUESTION = "How did the printing press change Europe?"


def full_state() -> ResearchState:
    """A state with something in every kind of record."""
    s = ResearchState(question=QUESTION, max_iterations=2, llm="offline", search="test:static")
    s.clarification = Clarification(
        need_clarification=True, question="Which century?", answer="The 15th"
    )
    s.research_brief = "Research the printing press in 15th-century Europe."
    sq1 = s.add_sub_query("printing press invention", rationale="origin", priority=2)
    sq2 = s.add_sub_query("printing press effects on literacy", priority=1)
    src = s.new_source(
        url="https://example.org/a",
        title="A",
        content="text",
        sub_query_id=sq1.id,
        quality=SourceQuality.HIGH,
        novelty=Novelty.NEW,
        excerpts=["x"],
    )
    s.new_source(url="https://example.org/b", title="B", sub_query_id=sq2.id)
    s.findings.append(Finding(id=s.next_id("f"), content="Gutenberg, c. 1440", source_ids=[src.id]))
    s.gaps.append(Gap(id=s.next_id("gap"), description="economy", suggested_queries=["q"]))
    s.directives.append(Directive(id=s.next_id("dir"), research_topic="trade", round=1))
    s.topic_results.append(
        TopicResult(
            sub_query_id=sq1.id,
            source_ids=[src.id],
            reflections=[ReflectionDecision(research_complete=True, rationale="enough")],
            searches=2,
            extracts=1,
        )
    )
    s.record(AgentDecision(agent="supervisor", action="evaluate_phase", phase=Phase.PLANNING))
    s.metrics.append(PhaseMetrics(phase=Phase.PLANNING, iteration=1, llm_calls=2))
    s.usage.append(UsageRecord(role="planner", phase="planning", model="offline", scope="sq-1"))
    s.add_guidance(Phase.GATHERING, "focus on Germany")
    s.supervision_history.append(SupervisionRound(iteration=1, round=1, confidence=0.5))
    s.report = Report(markdown="# R\n", sections=["Summary"], cited_source_ids=[src.id])
    s.content_fidelity[src.id] = ContentFidelity(
        item_id=src.id, original_tokens=100, current_tokens=40, level="condensed"
    )
    s.allocations.append(
        AllocationSummary(phase="analysis", fidelity=0.8, tokens_used=50, tokens_available=100)
    )
    s.status = RunStatus.RUNNING
    s.phase = Phase.GATHERING
    return s


# -- round trip and versions -----------------------------------------------------------
def test_json_round_trip_keeps_everything() -> None:
    state = full_state()
    text = state.to_json()
    loaded = ResearchState.from_json(text)
    assert loaded == state
    assert loaded.to_json() == text
    assert ResearchState.from_json(text.encode("utf-8")) == state
    assert isinstance(loaded.created_at, datetime) and loaded.created_at.tzinfo is not None
    assert loaded.sources[0].novelty == Novelty.NEW
    assert loaded.clarification is not None and loaded.clarification.answer == "The 15th"


def test_a_new_state_carries_the_schema_version_and_defaults() -> None:
    s = ResearchState(question=QUESTION)
    assert s.schema_version == SCHEMA_VERSION == 2
    assert json.loads(s.to_json())["schema_version"] == SCHEMA_VERSION
    assert (s.phase, s.status, s.iteration) == (Phase.CLARIFICATION, RunStatus.PENDING, 1)
    assert s.research_brief is None and s.clarification is None
    assert len(s.id) == 12 and ResearchState(question=QUESTION).id != s.id


def test_a_newer_schema_version_is_refused_with_advice() -> None:
    data = json.loads(ResearchState(question=QUESTION).to_json())
    data["schema_version"] = SCHEMA_VERSION + 1
    with pytest.raises(StateVersionError, match="newer than this deepresearch supports"):
        ResearchState.from_dict(data)
    data["schema_version"] = "2"
    with pytest.raises(StateVersionError, match="Upgrade deepresearch"):
        ResearchState.from_dict(data)


@pytest.mark.parametrize("text", ["{not json", '{"question": "q"', "\udcff"])
def test_corrupted_json_is_a_state_version_error(text: str) -> None:
    with pytest.raises(StateVersionError, match="not valid JSON"):
        ResearchState.from_json(text)


def test_corrupted_bytes_are_a_state_version_error() -> None:
    with pytest.raises(StateVersionError, match="not valid JSON"):
        ResearchState.from_json(b"\xff\xfe{")


def test_non_objects_and_schema_mismatches_are_state_version_errors() -> None:
    with pytest.raises(StateVersionError, match="must be a JSON object"):
        ResearchState.from_json("[1, 2]")
    with pytest.raises(StateVersionError, match="does not match the schema"):
        ResearchState.from_dict({"schema_version": 2})  # no question
    with pytest.raises(StateVersionError, match="phase"):
        ResearchState.from_dict({"schema_version": 2, "question": "q", "phase": "dreaming"})


def test_unknown_keys_from_a_newer_release_are_ignored() -> None:
    data = json.loads(full_state().to_json())
    data["future_field"] = {"x": 1}
    data["sources"][0]["future_source_field"] = 3
    loaded = ResearchState.from_dict(data)
    assert loaded.sources[0].url == "https://example.org/a"
    assert "future_field" not in loaded.to_json()


def test_an_old_state_without_a_brief_or_clarification_loads() -> None:
    data = {
        "schema_version": 2,
        "question": QUESTION,
        "phase": "planning",
        "sub_queries": [{"id": "sq-1", "query": "printing press"}],
    }
    state = ResearchState.from_dict(data)
    assert state.research_brief is None and state.clarification is None
    assert state.sub_queries[0].status == SubQueryStatus.PENDING
    assert state.guidance == [] and state.usage == []


def test_a_gap_saved_before_its_reason_was_a_field_loads_and_round_trips() -> None:
    gap = {"id": "gap-1", "description": "No source found answers: who", "priority": 1}
    data = {"schema_version": 2, "question": QUESTION, "gaps": [gap]}
    state = ResearchState.from_dict(data)
    assert state.gaps[0].reason is None
    assert state.run_warnings() == ["unanswered: No source found answers: who"]
    state.gaps[0].reason = "no source examined matches it"
    again = ResearchState.from_json(state.to_json())
    assert again.gaps[0].stated() == "No source found answers: who (no source examined matches it)"


def test_a_state_saved_before_link_following_was_a_field_loads_and_round_trips() -> None:
    data = {
        "schema_version": 2,
        "question": QUESTION,
        "phase": "supervision",
        "sub_queries": [{"id": "sq-1", "query": '"Bamboo" plant', "status": "completed"}],
        "topic_results": [
            {
                "sub_query_id": "sq-1",
                "queries": ['"Bamboo" plant'],
                "reflections": [{"continue_searching": False, "rationale": "done"}],
            }
        ],
        "supervision_history": [
            {"iteration": 1, "round": 1, "coverage": [
                {"sub_query_id": "sq-1", "query": '"Bamboo" plant', "status": "completed"}
            ]}
        ],
    }  # fmt: skip
    state = ResearchState.from_dict(data)
    # a quoted query saved then is what it always was to a model: a search
    assert state.sub_queries[0].follow is None
    assert (
        state.topic_results[0].follows == []
        and state.topic_results[0].reflections[0].follow is None
    )
    assert state.supervision_history[0].coverage[0].follows_links is False
    follow = LinkFollow(titles=["Bamboo"], words=["plant"])
    state.sub_queries[0].follow = follow
    state.topic_results[0].follows.append(follow)
    again = ResearchState.from_json(state.to_json())
    assert again.sub_queries[0].follow == follow and again.topic_results[0].follows == [follow]
    assert follow.query() == '"Bamboo" plant'


def test_a_state_saved_before_sources_had_lines_loads_and_reads_as_it_did() -> None:
    data = {
        "schema_version": 2,
        "question": QUESTION,
        "sources": [
            {"id": "src-1", "citation": 1, "url": "/docs/press.md#L40-52"},
            {"id": "src-2", "citation": 2, "url": "/docs/press.md#L1-12"},
            {"id": "src-3", "citation": 3, "url": "https://example.org/a"},
        ],
    }
    state = ResearchState.from_dict(data)
    # then a corpus passage was told apart by its citation alone: it keeps that reading
    assert [s.lines for s in state.sources] == [(40, 52), (1, 12), None]
    # saved now, an explicit None stays None: a web page's #L anchor is not a passage
    state.sources[0].lines = None
    again = ResearchState.from_json(state.to_json())
    assert [s.lines for s in again.sources] == [None, (1, 12), None]


# -- v1 -> v2 migration ----------------------------------------------------------------
def v1_state() -> dict[str, object]:
    return {
        "id": "old",
        "question": QUESTION,
        "phase": "gathering",
        "iteration": 1,
        "max_iterations": 2,
        "sub_queries": [
            {"id": "sq-1", "query": "printing press invention"},
            {"id": "sq-2", "query": "printing press literacy", "status": "completed"},
        ],
        "sources": [
            {"id": "src-1", "url": "https://a", "sub_query_id": "sq-1"},
            {"id": "src-7", "url": "https://b", "sub_query_id": "sq-1"},
        ],
        "findings": [{"id": "f-3", "content": "x", "source_ids": ["src-1"]}],
        "gaps": [{"id": "gap-2", "description": "economy"}],
        "metadata": {
            "agent_decisions": [{"agent": "planner", "action": "plan", "phase": "planning"}],
            "cancelled": True,
            "abort_phase": "gathering",
        },
    }


def test_v1_metadata_is_lifted_into_fields() -> None:
    state = ResearchState.from_dict(v1_state())  # no schema_version: version 1
    assert state.schema_version == SCHEMA_VERSION
    assert state.status == RunStatus.CANCELLED
    assert state.abort_phase == Phase.GATHERING
    assert [(d.agent, d.action) for d in state.decisions] == [("planner", "plan")]
    assert [s.citation for s in state.sources] == [1, 7]
    assert "metadata" not in state.to_json()


def test_v1_timeout_flag_becomes_timed_out() -> None:
    data = {"question": QUESTION, "metadata": {"timeout": True}, "schema_version": 1}
    assert ResearchState.from_dict(data).status == RunStatus.TIMED_OUT
    explicit = {"question": QUESTION, "status": "failed", "metadata": {"timeout": True}}
    assert ResearchState.from_dict(explicit).status == RunStatus.FAILED  # a field wins


def test_v1_ids_keep_counting_after_migration() -> None:
    state = ResearchState.from_dict(v1_state())
    assert state.counters == {"sq": 2, "src": 7, "f": 3, "gap": 2}
    new = state.new_source(url="https://c")
    assert (new.id, new.citation) == ("src-8", 8)
    assert state.add_sub_query("printing press trade").id == "sq-3"
    assert state.next_id("f") == "f-4" and state.next_id("gap") == "gap-3"
    assert len({s.id for s in state.sources}) == len(state.sources)


def test_v1_sources_with_non_numeric_ids_get_their_position_as_citation() -> None:
    data = {
        "question": QUESTION,
        "sources": [
            {"id": "src-abc", "url": "https://a"},
            {"id": "src-002", "url": "https://b"},
            {"id": "weird", "url": "https://c", "citation": 9},
        ],
    }
    state = ResearchState.from_dict(data)
    assert [s.citation for s in state.sources] == [1, 2, 9]
    assert state.new_source(url="https://d").citation == 10


def test_migrate_leaves_v2_data_alone() -> None:
    data = json.loads(full_state().to_json())
    before = json.dumps(data, sort_keys=True)
    assert json.dumps(migrate(dict(data), SCHEMA_VERSION), sort_keys=True) == before


def test_a_migrated_v1_state_round_trips() -> None:
    state = ResearchState.from_dict(v1_state())
    assert ResearchState.from_json(state.to_json()) == state


# -- helpers ----------------------------------------------------------------------------
def test_ids_are_per_prefix_counters() -> None:
    s = ResearchState(question=QUESTION)
    assert [s.next_id("f"), s.next_id("f"), s.next_id("gap")] == ["f-1", "f-2", "gap-1"]
    assert s.counters == {"f": 2, "gap": 1}


def test_sub_query_helpers() -> None:
    s = ResearchState(question=QUESTION)
    low = s.add_sub_query("  printing press economics  ", priority=3, origin="supervision")
    high = s.add_sub_query("printing press and religion", priority=1, directive_id="dir-1")
    assert low.query == "printing press economics" and low.origin == "supervision"
    assert high.directive_id == "dir-1" and high.iteration == 1
    assert s.has_sub_query("Printing   PRESS economics")
    assert not s.has_sub_query("printing press")
    assert s.sub_query(high.id) is high and s.sub_query("sq-99") is None
    assert s.pending_sub_queries() == [high, low]  # by priority
    low.status = SubQueryStatus.COMPLETED
    assert s.pending_sub_queries() == [high]
    assert s.completed_sub_queries() == [low]


def test_source_helpers() -> None:
    s = ResearchState(question=QUESTION)
    s.iteration = 2
    a = s.new_source(url="https://a", sub_query_id="sq-1", quality=SourceQuality.HIGH)
    b = s.new_source(url="https://b", sub_query_id="sq-2")
    c = s.new_source(url="https://c", sub_query_id="sq-1", quality=SourceQuality.LOW)
    assert [(x.id, x.citation, x.iteration) for x in (a, b, c)] == [
        ("src-1", 1, 2),
        ("src-2", 2, 2),
        ("src-3", 3, 2),
    ]
    assert s.sources_for("sq-1") == [a, c]
    assert s.sources_for("sq-2") == [b]
    assert s.sources_for("sq-9") == []
    assert s.source("src-2") is b and s.source("src-9") is None
    assert s.source_by_citation(3) is c and s.source_by_citation(4) is None
    assert s.seen_urls() == {"https://a", "https://b", "https://c"}
    assert s.high_quality_sources() == [a]


def test_findings_gaps_and_topic_helpers() -> None:
    s = ResearchState(question=QUESTION)
    strong = [
        Finding(id="f-1", content="a", confidence=Confidence.HIGH),
        Finding(id="f-2", content="b", confidence=Confidence.CONFIRMED),
    ]
    s.findings = [*strong, Finding(id="f-3", content="c", confidence=Confidence.MEDIUM)]
    assert s.high_confidence_findings() == strong
    open_gap = Gap(id="gap-1", description="open")
    s.gaps = [
        open_gap,
        Gap(id="gap-2", description="covered", addressed=True),
        Gap(id="gap-3", description="closed", resolution="not addressable"),
    ]
    assert s.unresolved_gaps() == [open_gap] and s.has_unresolved_gaps()
    open_gap.addressed = True
    assert not s.has_unresolved_gaps()
    topic = TopicResult(sub_query_id="sq-1", searches=3, extracts=2)
    s.topic_results.append(topic)
    assert s.topic_result("sq-1") is topic and s.topic_result("sq-2") is None
    assert topic.tool_calls == 5


def test_a_report_states_open_gaps_and_parts_left_unanswered() -> None:
    s = ResearchState(question=QUESTION)
    open_gap = Gap(id="gap-1", description="open", priority=2)
    unanswered = Gap(id="gap-2", description="part", priority=1, resolution="no evidence")
    s.gaps = [
        open_gap,
        unanswered,
        Gap(id="gap-3", description="covered", priority=1, addressed=True),
        Gap(id="gap-4", description="let go", priority=2, resolution="not addressable"),
    ]
    assert s.reported_gaps() == [open_gap, unanswered]


def test_guidance_is_kept_per_phase_until_consumed() -> None:
    s = ResearchState(question=QUESTION)
    s.add_guidance(Phase.PLANNING, "  focus on Germany ")
    s.add_guidance(Phase.PLANNING, "   ")  # empty guidance is dropped
    s.add_guidance(Phase.ANALYSIS, "check the numbers")
    assert s.guidance_for(Phase.PLANNING) == ["focus on Germany"]
    assert s.consume_guidance(Phase.PLANNING) == ["focus on Germany"]
    assert s.consume_guidance(Phase.PLANNING) == []
    assert s.guidance_for(Phase.PLANNING) == []
    assert s.guidance_for(Phase.ANALYSIS) == ["check the numbers"]
    assert len(s.guidance) == 2 and s.guidance[0].consumed


def test_loop_helpers() -> None:
    s = ResearchState(question=QUESTION)
    s.supervision_round = 2
    s.start_new_iteration()
    assert (s.iteration, s.supervision_round) == (2, 0)

    decision = AgentDecision(agent="supervisor", action="stop")
    assert s.record(decision) is decision and s.decisions == [decision]
    before = s.updated_at
    s.touch()
    assert s.updated_at >= before


def test_repr_summarises_instead_of_dumping() -> None:
    s = full_state()
    text = repr(s)
    assert text.startswith(f"ResearchState(id={s.id!r}, phase=gathering, status=running")
    assert "sub_queries=2" in text and "sources=2" in text and "findings=1" in text
    assert str(s) == text and "Gutenberg" not in text


def test_record_models_helpers() -> None:
    report = Report(markdown="# Title\n\nBody [1]", word_count=3, cited_source_ids=["src-1"])
    assert report.citations_count == 1
    assert str(report) == report.markdown
    assert repr(report) == "Report(3 words, 1 sources, sections=0)"

    fidelity = ContentFidelity(item_id="src-1", original_tokens=200, current_tokens=50, level="x")
    assert fidelity.compression_ratio == 0.25
    assert (
        ContentFidelity(
            item_id="s", original_tokens=0, current_tokens=5, level="x"
        ).compression_ratio
        == 1.0
    )

    alloc = AllocationSummary(phase="analysis", fidelity=1.0, tokens_used=30, tokens_available=60)
    assert alloc.utilization == 0.5
    none_available = AllocationSummary(phase="a", fidelity=0, tokens_used=1, tokens_available=0)
    assert none_available.utilization == float("inf")
    assert (
        AllocationSummary(phase="a", fidelity=0, tokens_used=0, tokens_available=0).utilization == 0
    )
