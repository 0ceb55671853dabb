from __future__ import annotations

import pytest

from deepresearch.state import ResearchState


@pytest.fixture
def state() -> ResearchState:
    return ResearchState(question="How did the printing press change Europe?")
