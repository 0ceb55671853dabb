from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from deepresearch.errors import InputError
from deepresearch.notebook import frames
from deepresearch.state import ResearchState

ALL_FRAMES: list[Callable[[ResearchState], pd.DataFrame]] = [
    frames.sources_frame,
    frames.findings_frame,
    frames.gaps_frame,
    frames.sub_queries_frame,
    frames.decisions_frame,
    frames.metrics_frame,
    frames.usage_frame,
    frames.supervision_frame,
]


@pytest.mark.parametrize("make", ALL_FRAMES, ids=lambda f: f.__name__)
def test_empty_and_full_frames_have_the_same_columns_and_dtypes(
    make: Callable[[ResearchState], pd.DataFrame], rich_state: ResearchState
) -> None:
    empty = make(ResearchState(question="q"))
    full = make(rich_state)
    assert empty.empty
    assert not full.empty
    assert list(empty.columns) == list(full.columns)
    assert empty.dtypes.to_dict() == full.dtypes.to_dict()
    assert empty.index.name == full.index.name


def test_sources_frame_is_indexed_by_id_with_typed_columns(rich_state: ResearchState) -> None:
    df = frames.sources_frame(rich_state)
    assert list(df.index) == ["src-1", "src-2", "src-3"]
    assert df.loc["src-1", "ref"] == 1
    assert str(df["citation"].dtype) == "Int64" and str(df["cited"].dtype) == "boolean"
    assert df["quality"].dtype.ordered  # type: ignore[union-attr]
    assert df.loc["src-1", "content_chars"] == len("Gutenberg's press spread literacy.")
    # An ordered categorical filters by meaning.
    assert list(df[df["quality"] >= "medium"].index) == ["src-1", "src-2"]


def test_findings_frame_lists_citations_and_orders_confidence(rich_state: ResearchState) -> None:
    df = frames.findings_frame(rich_state)
    assert df.loc["f-1", "refs"] == [2, 1]
    assert df.loc["f-1", "n_sources"] == 2
    assert df.sort_values("confidence").index[-1] == "f-1"


def test_finding_sources_goes_from_a_finding_to_its_sources_in_citation_order(
    rich_state: ResearchState,
) -> None:
    df = frames.finding_sources(rich_state, "f-1")
    assert list(df.index) == ["src-2", "src-1"]
    assert list(df.columns) == list(frames.sources_frame(rich_state).columns)
    with pytest.raises(InputError, match="f-9"):
        frames.finding_sources(rich_state, "f-9")


def test_sub_queries_frame_counts_sources_per_sub_query(rich_state: ResearchState) -> None:
    df = frames.sub_queries_frame(rich_state)
    assert df["sources"].to_dict() == {"sq-1": 1, "sq-2": 2, "sq-3": 0}
    assert df.loc["sq-3", "status"] == "pending"


def test_metrics_and_usage_frames_sum_like_the_state(rich_state: ResearchState) -> None:
    metrics = frames.metrics_frame(rich_state)
    assert list(metrics["phase"]) == ["planning", "gathering"]
    assert metrics["search_calls"].sum() == 4
    assert metrics["input_tokens"].sum() == 100
    usage = frames.usage_frame(rich_state)
    assert usage.index.name == "call"
    assert usage.loc[0, "model"] == "offline"


def test_supervision_frame_reports_coverage_per_round(rich_state: ResearchState) -> None:
    df = frames.supervision_frame(rich_state)
    row = df.iloc[0]
    assert row["coverage"] == 0.5
    assert row["queries_covered"] == 1
    assert row["directives"] == 1
    assert row["delta"] == "+1 source"


def test_gaps_and_decisions_frames(rich_state: ResearchState) -> None:
    gaps = frames.gaps_frame(rich_state)
    assert gaps.loc["g-1", "severity"] == "moderate"
    assert not gaps.loc["g-1", "addressed"]
    assert pd.isna(gaps.loc["g-1", "reason"])  # not known: none is made up
    rich_state.gaps[0].reason = "no source examined matches it"
    assert frames.gaps_frame(rich_state).loc["g-1", "reason"] == "no source examined matches it"
    decisions = frames.decisions_frame(rich_state)
    assert list(decisions["agent"]) == ["planner", "supervisor"]
    assert str(decisions["timestamp"].dtype).startswith("datetime64")


def test_the_notebook_guide_lists_each_tables_real_index_and_columns(
    rich_state: ResearchState,
) -> None:
    """docs/notebooks.md documents every Session table: its columns, in order, and index."""
    page = Path(__file__).resolve().parents[2] / "docs" / "notebooks.md"
    row = re.compile(r"^\| `s\.(?P<name>\w+)` \| (?P<index>[^|]+) \| (?P<columns>[^|]+) \|$")
    documented = {
        m["name"]: (m["index"].strip(), [c.strip() for c in m["columns"].split(",")])
        for m in map(row.match, page.read_text(encoding="utf-8").splitlines())
        if m
    }
    tables = {
        "sources": frames.sources_frame,
        "findings": frames.findings_frame,
        "gaps": frames.gaps_frame,
        "sub_queries": frames.sub_queries_frame,
        "decisions": frames.decisions_frame,
        "metrics": frames.metrics_frame,
        "usage": frames.usage_frame,
    }
    assert set(documented) == set(tables)
    for name, make in tables.items():
        index, columns = documented[name]
        df = make(rich_state)
        assert columns == list(df.columns), name
        if df.index.name == "id":
            assert index.endswith(" id"), name
        else:
            assert index.startswith("running number"), name


def test_sources_say_whether_and_as_which_number_the_report_cites_them(
    rich_state: ResearchState,
) -> None:
    from deepresearch.state import Report

    state = rich_state.model_copy(deep=True)
    state.report = None
    before = frames.sources_frame(state)
    assert not before["cited"].any() and before["citation"].isna().all()
    state.report = Report(markdown="# r\n\nA [1]. B [2].\n", cited_source_ids=["src-2", "src-1"])
    df = frames.sources_frame(state)
    assert df["cited"].tolist() == [True, True, False]
    assert df.loc["src-2", "citation"] == 1 and df.loc["src-1", "citation"] == 2
    assert pd.isna(df.loc["src-3", "citation"])
    findings = frames.findings_frame(state)
    f1 = state.findings[0]
    numbers = {"src-2": 1, "src-1": 2}
    assert findings.loc[f1.id, "citations"] == [numbers[i] for i in f1.source_ids if i in numbers]
