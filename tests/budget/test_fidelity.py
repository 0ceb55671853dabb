"""Fidelity records, levels and the report's figure."""

from __future__ import annotations

import pytest

from deepresearch.budget import fidelity_level, fidelity_line, report_fidelity
from deepresearch.state import ContentFidelity, ResearchState


@pytest.mark.parametrize(
    ("score", "level"),
    [
        (1.0, "full"),
        (0.9, "full"),
        (0.89, "condensed"),
        (0.6, "condensed"),
        (0.59, "compressed"),
        (0.3, "compressed"),
        (0.29, "minimal"),
        (0.0, "minimal"),
    ],
)
def test_fidelity_level_table(score: float, level: str) -> None:
    assert fidelity_level(score) == level


def record(item_id: str, level: str, original: int) -> ContentFidelity:
    return ContentFidelity(
        item_id=item_id, original_tokens=original, current_tokens=original, level=level
    )


def test_report_fidelity_weights_items_by_original_size() -> None:
    state = ResearchState(question="q")
    assert report_fidelity(state) == (None, None)
    assert fidelity_line(state) is None
    state.content_fidelity = {
        "src-1": record("src-1", "full", 1000),
        "src-2": record("src-2", "key_points", 3000),
        "f-1": record("f-1", "dropped", 0),
    }
    # (1.0*1000 + 0.2*3000 + 0*1) / 4001
    assert report_fidelity(state) == (0.4, "compressed")
    line = fidelity_line(state)
    assert line == "Fidelity: 0.40 (compressed) — 1 of 3 items summarized, 1 dropped"


def test_prompts_that_held_no_source_text_never_score_full() -> None:
    from deepresearch.state import Phase, PhaseMetrics

    state = ResearchState(question="Q?")
    state.new_source(url="https://a.example", title="A", content="x" * 1000)
    state.content_fidelity["sq-1"] = record("sq-1", "full", 4)  # a tiny digest, kept whole
    analysis = PhaseMetrics(phase=Phase.ANALYSIS, iteration=1)
    state.metrics.append(analysis)
    assert report_fidelity(state) == (0.0, "minimal")
    analysis.prompt_source_chars = 500  # half of what was gathered reached a prompt
    assert report_fidelity(state) == (0.5, "compressed")
    analysis.prompt_source_chars = 5000
    assert report_fidelity(state) == (1.0, "full")
