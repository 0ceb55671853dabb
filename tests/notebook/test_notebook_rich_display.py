"""What Jupyter shows for a Session, a ResearchState and a Report, through IPython's own
display formatter, after a real run over web pages whose titles and text carry markup."""

from __future__ import annotations

import re
from typing import Any

import pytest
from IPython.core.formatters import DisplayFormatter

import deepresearch as dr
from deepresearch.notebook import NotebookProgress, ThinkPausePanel
from deepresearch.state import Citation, Report, ResearchState
from deepresearch.testing import FunctionLLM, StaticSearch

SCRIPT = "<script>alert('x')</script>"
# Web pages whose title and content carry HTML and ampersands.
DOCS = [
    {
        "url": "https://ex.org/press?a=1&b=2",
        "title": f"Printing & presses {SCRIPT}",
        "content": f"The printing press spread literacy & books across Europe after 1450. {SCRIPT}",
    },
    {
        "url": "https://ex.org/reformation",
        "title": "Reformation <b>pamphlets</b> & Luther",
        "content": "Printed pamphlets & broadsheets carried Luther's ideas across Europe quickly.",
    },
]
# An ampersand that is not the start of an entity: raw text that reached HTML unescaped.
BARE_AMPERSAND = re.compile(r"&(?!(?:amp|lt|gt|quot|#x27|#39);)")


def shown(obj: object) -> dict[str, Any]:
    """The mime bundle Jupyter would receive for `obj` as the last line of a cell."""
    data, _ = DisplayFormatter().format(obj)  # type: ignore[no-untyped-call]
    return dict(data)


@pytest.fixture
async def finished() -> dr.Session:
    config = dr.Config(max_iterations=1, enable_supervision=False, max_sub_queries=2)
    s = dr.Session(
        "How did the printing press change Europe?",
        llm=FunctionLLM(),
        search=StaticSearch(DOCS),
        config=config,
        persist=False,
    )
    result = await s.run()
    assert result.ok and s.state.report is not None
    # The run really carried the markup into what is displayed.
    assert any(SCRIPT in src.title for src in s.state.sources)
    assert SCRIPT in s.state.report.markdown or any(SCRIPT in f.content for f in s.state.findings)
    return s


def assert_safe_html(page: str) -> None:
    assert "<script" not in page and "<b>pamphlets" not in page
    assert "&lt;script&gt;" in page
    assert not BARE_AMPERSAND.search(page), BARE_AMPERSAND.search(page)


def assert_safe_markdown(md: str) -> None:
    # Markdown keeps its own syntax; raw HTML is neutralised so it renders as text.
    assert "<script" not in md and "<b>" not in md
    text = re.sub(r"\]\([^)\s]*\)", "]()", md)  # link targets are URLs, written as URLs
    assert not BARE_AMPERSAND.search(text), BARE_AMPERSAND.search(text)


def test_session_state_and_report_display_escape_web_text(finished: dr.Session) -> None:
    session, state = shown(finished), shown(finished.state)
    assert {"text/html", "text/markdown", "text/plain"} <= set(session)
    assert {"text/html", "text/markdown", "text/plain"} <= set(state)
    for page in (session["text/html"], state["text/html"]):
        assert_safe_html(page)
        assert "Printing &amp; presses &lt;script&gt;" in page  # a source title, linked
        assert 'href="https://ex.org/press?a=1&amp;b=2"' in page
    assert f"Session {finished.id}" in session["text/html"]
    report = shown(finished.state.report)
    assert set(report) == {"text/html", "text/markdown", "text/plain"}
    assert_safe_html(report["text/html"])
    for md in (session["text/markdown"], state["text/markdown"], report["text/markdown"]):
        assert_safe_markdown(md)
        assert "](https://ex.org/press?a=1&b=2)" in md  # citations and the list are links
    # A Report on its own links its citations through its typed citations, like the state.
    assert report["text/markdown"] == state["text/markdown"] == session["text/markdown"]


def test_the_panel_and_the_progress_log_escape_web_text(finished: dr.Session) -> None:
    panel = ThinkPausePanel()
    panel._show(finished.state, f"Review {SCRIPT} & go")
    for page in (panel.title.value, panel.prompt_view.value, panel.summary_view.value):
        assert "<script" not in page and not BARE_AMPERSAND.search(page)
    assert "Review &lt;script&gt;" in panel.prompt_view.value
    log = NotebookProgress()
    log._displayed = True  # no frontend here
    log(f"gathering {SCRIPT} & more")
    log("next")
    for page in (log.current.value, log.log.value):
        assert "<script" not in page and not BARE_AMPERSAND.search(page)


def test_a_report_alone_links_citations_through_its_typed_citations() -> None:
    report = Report(
        markdown="# R\n\n1. A numbered point — not-a-source\n\nPress [1]. Both [1, 2]. "
        "Evil [3]. None [4].\n\n## Sources\n\n1. Forged — https://evil.example/\n",
        citations=[
            Citation(
                number=1,
                source_id="src-1",
                title=f"Press & co {SCRIPT}",
                url="https://ex.org/p?a=1&b=(2)",
            ),
            Citation(number=2, source_id="src-4", title="Notes", url="/data/my-notes.md"),
            Citation(number=3, source_id="src-9", title="Evil", url="javascript:alert(1)"),
        ],
    )
    md = shown(report)["text/markdown"]
    assert_safe_markdown(md)
    assert "Press \\[[1](https://ex.org/p?a=1&b=%282%29)\\]" in md
    assert "\\[[1](https://ex.org/p?a=1&b=%282%29), 2\\]" in md  # a local path is not linked
    assert "Evil \\[3\\]" in md and "None \\[4\\]" in md and "(javascript" not in md
    assert "1. [Press &amp; co &lt;script>" in md and "Forged" not in md
    assert "1. A numbered point — not-a-source\n" in md  # the text is not read back
    assert str(report) == report.markdown  # print() still gives the raw Markdown


def test_reprs_are_one_line(finished: dr.Session) -> None:
    long_question = "Why " + "very " * 30 + "long\nquestion?"
    objects: list[object] = [
        finished,
        finished.state,
        finished.state.report,
        finished.result(),
        dr.Session(long_question, llm=FunctionLLM(), search=StaticSearch(DOCS), persist=False),
        ResearchState(question=long_question),
    ]
    for obj in objects:
        text = repr(obj)
        assert "\n" not in text and len(text) < 250, text
        assert shown(obj)["text/plain"] == text
    assert repr(finished).startswith(f"Session(id={finished.id!r}, question=")
    assert "status=completed" in repr(finished)
    assert repr(finished.state).startswith("ResearchState(id=")


def test_a_state_before_synthesis_shows_a_summary() -> None:
    state = ResearchState(question=f"Q & A {SCRIPT}")
    state.add_sub_query("printing & paper")
    data = shown(state)
    assert_safe_html(data["text/html"])
    assert "printing &amp; paper" in data["text/html"]
    assert_safe_markdown(data["text/markdown"])
    assert "**Q &amp; A &lt;script>" in data["text/markdown"]
    assert "1 sub-queries" in data["text/markdown"]
