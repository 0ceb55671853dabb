"""A report as safe Markdown or HTML, with each ``[n]`` linked through its typed citations.

The report's text is escaped (:func:`~deepresearch.render.sanitize.escape_markdown`); links
come only from ``Report.citations`` (number, source id, title, url) — nothing is parsed back
out of the text. Synthesis appends a ``## Sources`` list to the text; the renderer writes
that list again from the citations, so what a source put into its title cannot forge it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from deepresearch.render.sanitize import escape_markdown, markdown_html, one_line, safe_href

if TYPE_CHECKING:  # rendering sits below the state: it reads these, never imports them
    from deepresearch.state import Citation, Report, ResearchState

# "[3]", "[1][2]" or "[1, 4]" as they look after escape_markdown.
_MARKER = re.compile(r"\\\[(\d+(?:\s*,\s*\d+)*)\\\]")
# The heading synthesis writes above the sources list it appends (phases/synthesize.py).
SOURCES_HEADING = "## Sources"


def report_markdown(report: Report, citations: Sequence[Citation] | None = None) -> str:
    """The report as safe Markdown: text escaped, ``[n]`` linked to citation n's URL when
    that URL is http(s), and the sources list written from the citations."""
    cited = list(report.citations if citations is None else citations)
    body = report.markdown
    if cited:
        head, found, _ = body.rpartition("\n" + SOURCES_HEADING + "\n")
        body = head if found else body
    text = _link_markers(escape_markdown(body.rstrip()), cited)
    if cited:
        text += "\n\n" + sources_markdown(cited)
    return text + "\n"


def sources_markdown(citations: Sequence[Citation]) -> str:
    """``## Sources`` and one line per citation: ``n. [title](url) — url`` (no link when
    the URL is not http(s))."""
    lines = [SOURCES_HEADING, ""]
    for c in citations:
        title = escape_markdown(one_line(c.title or c.url)) or "untitled"
        location = escape_markdown(one_line(c.url))
        href = safe_href(c.url)
        shown = f"[{title}]({href})" if href is not None else title
        lines.append(f"{c.number}. {shown} — {location}" if location else f"{c.number}. {shown}")
    return "\n".join(lines)


def _link_markers(escaped: str, citations: Sequence[Citation]) -> str:
    hrefs = {c.number: safe_href(c.url) for c in citations}

    def link(number: str) -> str:
        href = hrefs.get(int(number))
        return number if href is None else f"[{number}]({href})"

    def replace(match: re.Match[str]) -> str:
        numbers = [n.strip() for n in match[1].split(",")]
        return "\\[" + ", ".join(link(n) for n in numbers) + "\\]"

    return _MARKER.sub(replace, escaped)


def report_html(report: Report, citations: Sequence[Citation] | None = None) -> str:
    """The report as clean HTML (markdown-it-py, then nh3)."""
    return markdown_html(report_markdown(report, citations))


def state_report_markdown(state: ResearchState) -> str:
    """A state's report as safe Markdown (see :func:`report_markdown`); "" before synthesis."""
    if state.report is None:
        return ""
    return report_markdown(state.report, state.report_citations())


def state_markdown(state: ResearchState) -> str:
    """The report when there is one, else a short Markdown summary of where the run is."""
    if state.report is not None:
        return state_report_markdown(state)
    return (
        f"**{escape_markdown(one_line(state.question))}**\n\n"
        f"phase `{state.phase.value}` · status `{state.status.value}` · "
        f"iteration {state.iteration}/{state.max_iterations} · "
        f"{len(state.sub_queries)} sub-queries · {len(state.sources)} sources · "
        f"{len(state.findings)} findings · {len(state.gaps)} gaps"
    )
