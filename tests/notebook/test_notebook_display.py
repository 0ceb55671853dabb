from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from markdown_it import MarkdownIt

from deepresearch.notebook import display
from deepresearch.render import escape_markdown, markdown_html, safe_href, terminal_text
from deepresearch.state import Citation, Report, ResearchState

HOSTILE = "<script>alert('x')</script>"
# Untrusted text as a hostile source would write it: titles, file names, bodies.
HOSTILE_TEXTS = [
    "[click](javascript:alert(1))",
    "\\[x\\](javascript:alert(1))",
    "\\[1\\](javascript:alert(1))",  # a report's literal "[1]" (escaped) before a target
    "![img](javascript:alert(1))",
    "<javascript:alert(1)>",
    "[ref]\n\n[ref]: javascript:alert(1)",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<iframe src='https://evil.example'></iframe>",
    "[local](file:///etc/passwd)",
    "<a href='javascript:alert(1)'>a</a>",
    "data:text/html;base64,PHNjcmlwdD4=",
]
# Rendering Markdown permissively (raw HTML on, as notebook front ends do) shows what a
# viewer would make of our output.
PERMISSIVE = MarkdownIt("commonmark", {"html": True}).enable("table")


def links_and_tags(markdown: str) -> tuple[list[str], list[str]]:
    page = PERMISSIVE.render(markdown)
    hrefs = re.findall(r'(?:href|src)="([^"]*)"', page)
    tags = re.findall(r"<(script|img|iframe|a\s+href=.javascript)", page, re.I)
    return hrefs, tags


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_escaped_untrusted_text_makes_no_link_image_or_tag(text: str) -> None:
    hrefs, tags = links_and_tags(f"Before {escape_markdown(text)} after")
    assert hrefs == [] and tags == []


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_report_from_a_hostile_corpus_links_only_http_citations(text: str) -> None:
    citations = [
        Citation(number=1, source_id="src-1", title=text, url="https://example.org/a"),
        Citation(number=2, source_id="src-2", title=text, url="file:///etc/passwd"),
        Citation(number=3, source_id="src-3", title="evil", url="javascript:alert(1)"),
    ]
    report = Report(
        markdown=f"# R\n\n{text} [1][2][3]\n\n## Sources\n\n1. {text}\n", citations=citations
    )
    md = display.report_markdown(SimpleNamespace(report=report, report_citations=lambda: citations))  # type: ignore[arg-type]
    hrefs, tags = links_and_tags(md)
    assert set(hrefs) == {"https://example.org/a"} and tags == []
    page = report._repr_html_()
    assert re.findall(r'href="([^"]*)"', page) == ["https://example.org/a"] * 2
    assert "<script" not in page and "<img" not in page and "<iframe" not in page


def test_report_markdown_links_citations_through_typed_citations(rich_state: ResearchState) -> None:
    md = display.report_markdown(rich_state)
    assert "\\[[1](https://example.org/press?a=1&b=%282%29)\\]" in md
    # a local path is shown, never linked; javascript: sources and unknown numbers stay text
    assert "Luther \\[2, [1](https://example.org/press?a=1&b=%282%29)\\]" in md
    assert "Evil \\[3\\]" in md and "\\[9\\]" in md
    assert "(javascript" not in md
    # a link written into the report text is not followed: its target stays text
    hrefs, _ = links_and_tags(md)
    assert "https://x.org" not in hrefs and "(https://x.org)" in md


def test_brackets_that_are_text_are_never_linked() -> None:
    # The question's own "[1]" in a heading, and a source's "[1, 2]" the report escaped
    # (text.escape_citation_markers), stay text; the citation after them is linked.
    citations = [Citation(number=1, source_id="s", title="A", url="https://example.org/a")]
    body = "# Why is s[1] an error?\n\naccumulate(\\[1, 2\\]) gives 3. [1]\n"
    report = Report(markdown=body, citations=citations)
    md = display.report_markdown(SimpleNamespace(report=report, report_citations=lambda: citations))  # type: ignore[arg-type]
    assert md.startswith("# Why is s\\[1\\] an error?\n")
    assert "accumulate(\\[1, 2\\]) gives 3. \\[[1](https://example.org/a)\\]" in md
    page = PERMISSIVE.render(md)
    assert "accumulate([1, 2]) gives 3." in page and "s[1] an error?" in page
    assert re.findall(r'href="([^"]*)"', page) == ["https://example.org/a"] * 2


def test_report_markdown_neutralises_raw_html(rich_state: ResearchState) -> None:
    md = display.report_markdown(rich_state)
    assert "<script>" not in md
    assert "&lt;script>" in md


def test_the_sources_list_is_written_from_the_citations(rich_state: ResearchState) -> None:
    lines = display.report_markdown(rich_state).splitlines()
    at = lines.index("## Sources")
    assert lines[at + 2] == (
        "1. [Printing &lt;script>alert('x')&lt;/script>](https://example.org/press?a=1&b=%282%29)"
        " — https://example.org/press?a=1&amp;b=(2)"
    )
    assert lines[at + 3] == "2. Reformation notes — /data/notes/reformation notes.md"


def test_report_markdown_is_empty_before_synthesis() -> None:
    assert display.report_markdown(ResearchState(question="q")) == ""
    summary = display.state_markdown(ResearchState(question=HOSTILE))
    assert "<script>" not in summary and "phase `clarification`" in summary


def test_state_html_escapes_everything_from_the_web(rich_state: ResearchState) -> None:
    page = display.state_html(rich_state)
    assert "<script>" not in page
    assert "&lt;script&gt;" in page
    assert 'href="https://example.org/press?a=1&amp;b=%282%29"' in page
    assert "javascript:" not in page and "file:" not in page
    assert "3/3" not in page and "2/3 done" in page


def test_session_html_names_the_session(rich_state: ResearchState) -> None:
    page = display.session_html(SimpleNamespace(state=rich_state))
    assert f"Session {rich_state.id}" in page
    assert "delegated" in page  # last decisions are shown


def test_safe_href_keeps_only_http_https_and_mailto() -> None:
    assert safe_href("https://a.org/x y") == "https://a.org/x%20y"
    assert safe_href("mailto:a@b.org") == "mailto:a@b.org"
    assert safe_href("http://[2001:db8::1]:8080/a(b)") == "http://[2001:db8::1]:8080/a%28b%29"
    for bad in ("C:\\docs\\a.md", "/etc/passwd", "file:///etc/passwd", "data:text/html,hi"):
        assert safe_href(bad) is None
    assert safe_href("javascript:alert(1)") is None and safe_href("notes.md") is None
    assert safe_href("http://[::1/broken") is None


def test_ipv6_source_urls_render_as_working_links() -> None:
    url = "http://[2001:db8::1]/paper"
    report = Report(
        markdown="Claim [1].\n",
        citations=[Citation(number=1, source_id="src-1", title="Paper", url=url)],
    )
    md = report._repr_markdown_()
    assert f"\\[[1]({url})\\]" in md and f"1. [Paper]({url})" in md
    assert f'href="{url}"' in report._repr_html_()


def test_a_report_old_enough_to_lack_citations_uses_cited_source_ids(
    rich_state: ResearchState,
) -> None:
    assert rich_state.report is not None
    rich_state.report.cited_source_ids = ["src-2", "src-1"]  # synthesis renumbers 1..k
    rich_state.report.markdown = "Luther [1][2]."
    md = display.report_markdown(rich_state)
    assert md.startswith("Luther \\[1\\]\\[[2](https://example.org/press?a=1&b=%282%29)\\].")


def test_show_report_renders_the_linked_report_for_a_state_or_session(
    rich_state: ResearchState,
) -> None:
    # In a notebook the cited passage of a local file without a link is quoted under it.
    expected = display.state_markdown(rich_state, passages=True)
    assert "   > Luther's pamphlets were printed widely." in expected
    shown = display.show_report(SimpleNamespace(state=rich_state))
    assert shown._repr_markdown_() == expected  # type: ignore[no-untyped-call]
    assert display.show_report(rich_state)._repr_markdown_() == expected  # type: ignore[no-untyped-call]


def test_terminal_text_strips_escape_sequences_and_controls() -> None:
    hostile = "ok \x1b[2J\x1b]0;pwned\x07\x1b[31mred\x1b[0m \u202egnp.exe\r\x08 tab\tnl\n"
    assert terminal_text(hostile) == "ok red gnp.exe tab\tnl\n"


def test_markdown_html_drops_raw_html_and_unsafe_links() -> None:
    page = markdown_html("x <script>a</script> [a](javascript:alert(1)) [b](https://ok.org)")
    assert "<script" not in page and 'href="https://ok.org"' in page
    assert "javascript:alert" not in re.sub(r"\[a\]\(javascript:alert\(1\)\)", "", page)
    assert 'rel="noopener noreferrer"' in page


def test_code_spans_show_their_text_as_written() -> None:
    # Inside a code span Markdown shows "&lt;" literally: it is left unescaped there.
    page = PERMISSIVE.render(escape_markdown("Use ``Box<T>` or `&x` `` and <b>bold</b> [1]"))
    assert "<code>Box&lt;T&gt;` or `&amp;x` </code>" in page
    assert "&lt;b&gt;bold" in page and "<b>" not in page
