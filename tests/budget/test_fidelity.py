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
