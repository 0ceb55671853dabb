"""Fixtures shared by the offline engine's tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deepresearch.offline.mentions import TOKEN
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


def said_tokens(srcs: list[SourceText]) -> dict[str, list[str]]:
    """Each source's statement tokens, as the scoring reads them."""
    return {s.id: TOKEN.findall(s.text) for s in srcs}
