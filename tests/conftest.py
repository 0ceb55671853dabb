from __future__ import annotations

import pytest

import deepresearch.urls
from deepresearch.testing import StaticSearch, static_resolver

DOCS = [
    {
        "url": "https://example.org/printing-press",
        "title": "Printing press",
        "content": (
            "The printing press was invented by Johannes Gutenberg around 1440 in Mainz. "
            "It allowed books to be produced quickly and cheaply across Europe. "
            "By 1500 printing presses in Western Europe had produced more than twenty million volumes. "
            "The spread of printing helped the Protestant Reformation and the Scientific Revolution."
        ),
        "domain": "example.org",
    },
    {
        "url": "https://history.example.com/gutenberg",
        "title": "Johannes Gutenberg",
        "content": (
            "Johannes Gutenberg was a German inventor who introduced movable-type printing to Europe. "
            "His printing press started the Printing Revolution around 1440. "
            "The Gutenberg Bible was among the first major books printed with movable type."
        ),
        "domain": "history.example.com",
    },
    {
        "url": "https://edu.example.net/reformation",
        "title": "Protestant Reformation",
        "content": (
            "The Protestant Reformation began in 1517 when Martin Luther published his theses. "
            "Printed pamphlets spread the ideas of the Reformation across Europe within weeks. "
            "The printing press made Luther the most published author of his time."
        ),
        "domain": "edu.example.net",
    },
    {
        "url": "https://science.example.org/literacy",
        "title": "Literacy in early modern Europe",
        "content": (
            "Literacy rates in Europe rose after the invention of the printing press. "
            "Cheaper books made reading accessible to merchants and artisans. "
            "Universities expanded as printed textbooks became common."
        ),
        "domain": "science.example.org",
    },
]

QUESTION = "How did the printing press change Europe?"


@pytest.fixture
def docs() -> list[dict[str, str]]:
    return [dict(d) for d in DOCS]


@pytest.fixture
def search(docs: list[dict[str, str]]) -> StaticSearch:
    return StaticSearch(docs)


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test writes to the real ~/.deepresearch or picks up a developer's API keys."""
    monkeypatch.setenv("DEEPRESEARCH_HOME", str(tmp_path_factory.mktemp("home")))
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TAVILY_API_KEY"):
        monkeypatch.delenv(key, raising=False)


@pytest.fixture(autouse=True)
def _no_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The URL policy resolves host names; in tests every name is public and nothing asks DNS."""
    monkeypatch.setattr(deepresearch.urls, "system_resolver", static_resolver())
