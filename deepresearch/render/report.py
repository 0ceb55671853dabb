"""A report as safe Markdown or HTML, with each ``[n]`` linked through its typed citations.

The report's text is escaped (:func:`~deepresearch.render.sanitize.escape_markdown`); links
come only from ``Report.citations`` (number, source id, title, url) — nothing is parsed back
out of the text. Synthesis appends a ``## Sources`` list to the text; the renderer writes
that list again from the citations, so what a source put into its title cannot forge it.

Local files: with a :class:`~deepresearch.render.files.FilesRoute` (in a notebook served by
Jupyter) a cited file under the server root is linked through its files route; otherwise
its location is plain text and, given ``passages``, the cited passage is quoted under it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from deepresearch.render.files import FilesRoute, local_path
from deepresearch.render.sanitize import escape_markdown, markdown_html, one_line, safe_href

if TYPE_CHECKING:  # rendering sits below the state: it reads these, never imports them
    from deepresearch.state import Citation, Report, ResearchState

# "[3]", "[1][2]" or "[1, 4]" as they look after escape_markdown; also how the report
# writes a bracketed number that is text, not a citation (a source's own "[1, 2, 3]",
# text.escape_citation_markers), before it is escaped.
_MARKER = re.compile(r"\\\[(\d+(?:\s*,\s*\d+)*)\\\]")
# Where such a literal waits while the rest is escaped and linked (private-use marks).
_HELD = re.compile("\ue000(\\d+)\ue001")
_HOLD_MARKS = re.compile("[\ue000\ue001]")
_HEADING_LINE = re.compile(r"^#{1,6}[ \t]")
# The heading synthesis writes above the sources list it appends (phases/synthesize.py).
SOURCES_HEADING = "## Sources"
PASSAGE_CHARS = 300  # a quoted passage of a local file is cut to about this length


def report_markdown(
    report: Report,
    citations: Sequence[Citation] | None = None,
    *,
    files: FilesRoute | None = None,
    passages: Mapping[int, str] | None = None,
) -> str:
    """The report as safe Markdown: text escaped, ``[n]`` linked to citation n's URL when
    that URL is http(s) (or a local file ``files`` can serve), and the sources list
    written from the citations, with ``passages`` (citation number -> text) quoted under
    the local files that have no link."""
    cited = list(report.citations if citations is None else citations)
    body = report.markdown
    if cited:
        head, found, _ = body.rpartition("\n" + SOURCES_HEADING + "\n")
        body = head if found else body
    literals: list[str] = []

    def hold(match: re.Match[str]) -> str:
        literals.append(match[0])
        return f"\ue000{len(literals) - 1}\ue001"

    held = _MARKER.sub(hold, _HOLD_MARKS.sub("", body.rstrip()))
    text = _link_markers(escape_markdown(held), cited, files)
    text = _HELD.sub(lambda m: literals[int(m[1])], text)
    if cited:
        text += "\n\n" + sources_markdown(cited, files=files, passages=passages)
    return text + "\n"


def citation_href(location: str, files: FilesRoute | None = None) -> str | None:
    """Where a citation links: an http(s)/mailto URL, or a local file through ``files``."""
    href = safe_href(location)
    if href is None and files is not None:
        href = files.href(location)
    return href


def sources_markdown(
    citations: Sequence[Citation],
    *,
    files: FilesRoute | None = None,
    passages: Mapping[int, str] | None = None,
) -> str:
    """``## Sources`` and one line per citation: ``n. [title](url) — url`` (no link when
    the URL is neither http(s) nor a file ``files`` serves; then the passage, if given)."""
    lines = [SOURCES_HEADING, ""]
    for c in citations:
        title = escape_markdown(one_line(c.title or c.url)) or "untitled"
        location = escape_markdown(one_line(c.url))
        href = citation_href(c.url, files)
        shown = f"[{title}]({href})" if href is not None else title
        lines.append(f"{c.number}. {shown} — {location}" if location else f"{c.number}. {shown}")
        passage = (passages or {}).get(c.number)
        if href is None and passage and local_path(c.url) is not None:
            indent = " " * len(f"{c.number}. ")
            lines += [f"{indent}> {escape_markdown(_cut(one_line(passage)))}"]
    return "\n".join(lines)


def _cut(text: str) -> str:
    if len(text) <= PASSAGE_CHARS:
        return text
    return text[:PASSAGE_CHARS].rsplit(" ", 1)[0] + " …"


def _link_markers(escaped: str, citations: Sequence[Citation], files: FilesRoute | None) -> str:
    hrefs = {c.number: citation_href(c.url, files) for c in citations}

    def link(number: str) -> str:
        href = hrefs.get(int(number))
        return number if href is None else f"[{number}]({href})"

    def replace(match: re.Match[str]) -> str:
        numbers = [n.strip() for n in match[1].split(",")]
        return "\\[" + ", ".join(link(n) for n in numbers) + "\\]"

    # A heading is the question or a part of it as the user wrote it: no citation there
    # ("# Why is s[1] an error?"), as synthesis never numbers one there either.
    return "\n".join(
        line if _HEADING_LINE.match(line) else _MARKER.sub(replace, line)
        for line in escaped.split("\n")
    )


def report_html(
    report: Report,
    citations: Sequence[Citation] | None = None,
    *,
    files: FilesRoute | None = None,
) -> str:
    """The report as clean HTML (markdown-it-py, then nh3)."""
    return markdown_html(report_markdown(report, citations, files=files))


def cited_passages(state: ResearchState) -> dict[int, str]:
    """Citation number -> the passage to quote for each cited local file: the source's
    first excerpt, else its text (the passage search found), else its snippet."""
    by_id = {s.id: s for s in state.sources}
    passages: dict[int, str] = {}
    for c in state.report_citations():
        source = by_id.get(c.source_id)
        if source is None or local_path(c.url) is None:
            continue
        text = next((t for t in (*source.excerpts, source.content, source.snippet) if t), "")
        if text.strip():
            passages[c.number] = text
    return passages


def state_report_markdown(
    state: ResearchState, *, files: FilesRoute | None = None, passages: bool = False
) -> str:
    """A state's report as safe Markdown (see :func:`report_markdown`); "" before synthesis.
    ``passages``: quote the cited passage under each local file that has no link."""
    if state.report is None:
        return ""
    return report_markdown(
        state.report,
        state.report_citations(),
        files=files,
        passages=cited_passages(state) if passages else None,
    )


def state_markdown(
    state: ResearchState, *, files: FilesRoute | None = None, passages: bool = False
) -> str:
    """The report when there is one, else a short Markdown summary of where the run is."""
    if state.report is not None:
        return state_report_markdown(state, files=files, passages=passages)
    return (
        f"**{escape_markdown(one_line(state.question))}**\n\n"
        f"phase `{state.phase.value}` · status `{state.status.value}` · "
        f"iteration {state.iteration}/{state.max_iterations} · "
        f"{len(state.sub_queries)} sub-queries · {len(state.sources)} sources · "
        f"{len(state.findings)} findings · {len(state.gaps)} gaps"
    )
