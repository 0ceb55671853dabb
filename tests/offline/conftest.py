"""Fixtures shared by the offline engine's tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deepresearch.roles import SourceText

Titled = Callable[[dict[str, str]], list[SourceText]]


@pytest.fixture
def titled() -> Titled:
    """Sources with the given titles and texts, numbered from 1 (``src-1``, …)."""

    def make(texts: dict[str, str]) -> list[SourceText]:
        return [
            SourceText(id=f"src-{n}", citation=n, title=t, url=f"https://e.org/{n}", text=x)
            for n, (t, x) in enumerate(texts.items(), 1)
        ]

    return make
