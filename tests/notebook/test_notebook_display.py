from __future__ import annotations

from types import SimpleNamespace

from deepresearch.notebook import display
from deepresearch.state import ResearchState

HOSTILE = "<script>alert('x')</script>"


def test_report_markdown_links_citations_to_sources(rich_state: ResearchState) -> None:
    md = display.report_markdown(rich_state)
    assert "\\[[1](https://example.org/press?a=1&b=%282%29)\\]" in md
    assert "\\[[2](file:///data/notes/reformation%20notes.md), [1](" in md
    # javascript: sources and unknown numbers stay plain text.
    assert "\\[3\\]" in md and "javascript" not in md
    assert "\\[9\\]" in md
    # An existing link is left alone.
    assert "[1](https://x.org)" in md


def test_report_markdown_neutralises_raw_html(rich_state: ResearchState) -> None:
    md = display.report_markdown(rich_state)
    assert "<script>" not in md
    assert "&lt;script>" in md


def test_report_markdown_is_empty_before_synthesis() -> None:
    assert display.report_markdown(ResearchState(question="q")) == ""
    summary = display.state_markdown(ResearchState(question=HOSTILE))
    assert "<script>" not in summary and "phase `clarification`" in summary


def test_state_html_escapes_everything_from_the_web(rich_state: ResearchState) -> None:
    page = display.state_html(rich_state)
    assert "<script>" not in page
    assert "&lt;script&gt;" in page
    assert 'href="https://example.org/press?a=1&amp;b=%282%29"' in page
    assert "javascript:" not in page
    assert "3/3" not in page and "2/3 done" in page


def test_session_html_names_the_session(rich_state: ResearchState) -> None:
    page = display.session_html(SimpleNamespace(state=rich_state))
    assert f"Session {rich_state.id}" in page
    assert "delegated" in page  # last decisions are shown


def test_source_href_kinds() -> None:
    assert display.source_href("https://a.org/x y") == "https://a.org/x%20y"
    assert display.source_href("C:\\docs\\a.md") == "file:///C:/docs/a.md"
    assert display.source_href("data:text/html,hi") is None
    assert display.source_href("notes.md") is None


def test_report_numbers_follow_the_reports_own_cited_sources(rich_state: ResearchState) -> None:
    assert rich_state.report is not None
    rich_state.report.cited_source_ids = ["src-2", "src-1"]  # synthesis renumbers 1..k
    rich_state.report.markdown = "Luther [1][2]."
    md = display.report_markdown(rich_state)
    assert md == (
        "Luther \\[[1](file:///data/notes/reformation%20notes.md)\\]"
        "\\[[2](https://example.org/press?a=1&b=%282%29)\\]."
    )


def test_show_report_renders_the_linked_report_for_a_state_or_session(
    rich_state: ResearchState,
) -> None:
    expected = display.report_markdown(rich_state)
    shown = display.show_report(SimpleNamespace(state=rich_state))
    assert shown._repr_markdown_() == expected  # type: ignore[no-untyped-call]
    assert display.show_report(rich_state)._repr_markdown_() == expected  # type: ignore[no-untyped-call]


def test_sources_list_locations_become_links(rich_state: ResearchState) -> None:
    assert rich_state.report is not None
    rich_state.report.cited_source_ids = ["src-1", "src-2"]
    rich_state.report.markdown = (
        "## Sources\n\n"
        "1. Printing — https://example.org/press?a=1&b=(2)\n"
        "2. Reformation notes — /data/notes/other.md\n"
    )
    lines = display.report_markdown(rich_state).splitlines()
    assert lines[2] == (
        "1. Printing — [https://example.org/press?a=1&amp;b=(2)]"
        "(https://example.org/press?a=1&b=%282%29)"
    )
    assert lines[3] == "2. Reformation notes — /data/notes/other.md"  # not that source's path
