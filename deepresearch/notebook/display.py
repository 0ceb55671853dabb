"""Rich display for notebooks: the report as Markdown with clickable citations, and compact
HTML cards for a state or a session.

Everything here may contain text from the web (titles, snippets, LLM output built from
them), so every such string is escaped before it reaches HTML or Markdown.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from pathlib import PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote, urlsplit

from deepresearch.state import Report, ResearchState, Source, SubQueryStatus

if TYPE_CHECKING:
    from IPython.core.display import Markdown

# "[3]", "[1][2]" or "[1, 4]", but neither an existing link "[3](...)" nor an escaped \[3].
_CITATION = re.compile(r"(?<!\\)\[(\d+(?:\s*,\s*\d+)*)\](?!\()")
_LISTED_SOURCE = re.compile(r"^(?P<head>(?P<n>\d+)\. .+ — )(?P<loc>\S+)$", re.MULTILINE)
_SOURCES_HEADING = re.compile(r"^#{1,6}\s*Sources\s*$", re.MULTILINE)
_URL_SAFE = ":/?#@!$&'*+,;=%~"  # parentheses, spaces and angle brackets get %-encoded
_DECISIONS_SHOWN = 5
_SUB_QUERIES_SHOWN = 12


class HasState(Protocol):
    """What session_html needs: anything with a `state` (the lead's Session)."""

    @property
    def state(self) -> ResearchState: ...


def source_href(location: str) -> str | None:
    """A link target for a source: http(s) URLs as they are, local paths as file:// URIs.

    Returns None for anything else (javascript:, data:, relative junk) so it is never linked.
    """
    scheme = urlsplit(location).scheme.lower()
    if scheme in {"http", "https", "file"}:
        return quote(location, safe=_URL_SAFE)
    if PurePosixPath(location).is_absolute():
        return "file://" + quote(location, safe=_URL_SAFE)
    if PureWindowsPath(location).is_absolute():
        return "file:///" + quote(location.replace("\\", "/"), safe=_URL_SAFE)
    return None


def escape_markdown_html(text: str) -> str:
    """Neutralise raw HTML inside Markdown (`<script>`, `<img onerror=...>`) but keep Markdown."""
    return text.replace("&", "&amp;").replace("<", "&lt;")


def _numbered_sources(state: ResearchState) -> dict[int, str]:
    """Where each [n] of the report points: synthesis numbers the cited sources 1..k in
    `cited_source_ids` order; a report without that list uses the sources' own numbers."""
    report = state.report
    if report is not None and report.cited_source_ids:
        by_id = {s.id: s for s in state.sources}
        cited = [by_id.get(i) for i in report.cited_source_ids]
        return {n: s.url for n, s in enumerate(cited, 1) if s is not None}
    return {s.citation: s.url for s in state.sources}


def _link_citations(markdown: str, locations: Mapping[int, str]) -> str:
    """Link each `[n]` of escaped Markdown to ``locations[n]``, and the location of each
    sources-list line ``n. Title — location`` that names that same location."""

    def href_of(number: str) -> str | None:
        location = locations.get(int(number))
        return source_href(location) if location is not None else None

    def link(number: str) -> str:
        href = href_of(number)
        return number if href is None else f"[{number}]({href})"

    def replace(match: re.Match[str]) -> str:
        numbers = [n.strip() for n in match.group(1).split(",")]
        return "\\[" + ", ".join(link(n) for n in numbers) + "\\]"

    def link_listed(match: re.Match[str]) -> str:
        href = href_of(match["n"])
        location = locations.get(int(match["n"]), "")
        if href is None or match["loc"] != escape_markdown_html(location):
            return match[0]
        text = match["loc"].replace("[", "\\[").replace("]", "\\]")
        return f"{match['head']}[{text}]({href})"

    linked = _CITATION.sub(replace, markdown)
    return _LISTED_SOURCE.sub(link_listed, linked)


def _unescape_markdown_html(text: str) -> str:
    return text.replace("&lt;", "<").replace("&amp;", "&")


def report_markdown(state: ResearchState) -> str:
    """The report as Markdown with each `[n]` linked to its source; "" before synthesis."""
    if state.report is None:
        return ""
    return _link_citations(escape_markdown_html(state.report.markdown), _numbered_sources(state))


def linked_report_markdown(report: Report) -> str:
    """A report on its own (no state at hand, e.g. ``s.report`` or a loaded Report): the
    same escaping, with each `[n]` linked through the report's own sources list."""
    escaped = escape_markdown_html(report.markdown)
    headings = list(_SOURCES_HEADING.finditer(escaped))  # synthesis appends the list last
    listed = escaped[headings[-1].end() :] if headings else ""
    locations = {
        int(m["n"]): _unescape_markdown_html(m["loc"]) for m in _LISTED_SOURCE.finditer(listed)
    }
    return _link_citations(escaped, locations)


def show_report(target: ResearchState | HasState) -> Markdown:
    """The report of a state or session as an IPython Markdown object: the last line of a
    cell renders it with clickable citations (a summary before synthesis)."""
    from IPython.core.display import Markdown

    state = target if isinstance(target, ResearchState) else target.state
    return Markdown(state_markdown(state))  # type: ignore[no-untyped-call]


def state_markdown(state: ResearchState) -> str:
    """The report when there is one, else a short Markdown summary of where the run is."""
    if state.report is not None:
        return report_markdown(state)
    question = escape_markdown_html(state.question)
    return (
        f"**{question}**\n\n"
        f"phase `{state.phase.value}` · status `{state.status.value}` · "
        f"iteration {state.iteration}/{state.max_iterations} · "
        f"{len(state.sub_queries)} sub-queries · {len(state.sources)} sources · "
        f"{len(state.findings)} findings · {len(state.gaps)} gaps"
    )


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _source_link(source: Source) -> str:
    title = _e(source.title or source.url)
    href = source_href(source.url)
    if href is None:
        return title
    return f'<a href="{_e(href)}" target="_blank" rel="noopener noreferrer">{title}</a>'


def _counts_row(state: ResearchState) -> str:
    done = len(state.completed_sub_queries())
    cells = [
        ("sub-queries", f"{done}/{len(state.sub_queries)} done"),
        ("sources", len(state.sources)),
        ("findings", len(state.findings)),
        ("gaps", f"{len(state.unresolved_gaps())} open / {len(state.gaps)}"),
        ("decisions", len(state.decisions)),
    ]
    return " · ".join(f"<b>{_e(v)}</b> {_e(k)}" for k, v in cells)


def _sub_query_list(state: ResearchState) -> str:
    if not state.sub_queries:
        return ""
    marks = {SubQueryStatus.PENDING: "○", SubQueryStatus.COMPLETED: "●", SubQueryStatus.FAILED: "✗"}
    items = "".join(
        f"<li>{marks[sq.status]} <code>{_e(sq.id)}</code> {_e(sq.query)}</li>"
        for sq in state.sub_queries[:_SUB_QUERIES_SHOWN]
    )
    more = len(state.sub_queries) - _SUB_QUERIES_SHOWN
    extra = f"<li>… {more} more</li>" if more > 0 else ""
    return f"<div><b>Sub-queries</b><ul style='margin:2px 0'>{items}{extra}</ul></div>"


def _recent_decisions(state: ResearchState) -> str:
    if not state.decisions:
        return ""
    items = "".join(
        f"<li><code>{_e(d.agent)}</code> {_e(d.action)}"
        + (f" — <i>{_e(d.rationale)}</i>" if d.rationale else "")
        + "</li>"
        for d in state.decisions[-_DECISIONS_SHOWN:]
    )
    return f"<div><b>Last decisions</b><ul style='margin:2px 0'>{items}</ul></div>"


def _top_sources(state: ResearchState) -> str:
    if not state.sources:
        return ""
    items = "".join(
        f"<li>[{s.citation}] {_source_link(s)}</li>" for s in state.sources[:_DECISIONS_SHOWN]
    )
    more = len(state.sources) - _DECISIONS_SHOWN
    extra = f"<li>… {more} more</li>" if more > 0 else ""
    return f"<div><b>Sources</b><ul style='margin:2px 0'>{items}{extra}</ul></div>"


def _card(state: ResearchState, title: str) -> str:
    status = f"{state.status.value} · phase {state.phase.value}"
    status += f" · iteration {state.iteration}/{state.max_iterations}"
    parts = [
        f"<div style='font-size:90%;color:#666'>{_e(title)}</div>",
        f"<div style='font-size:115%;font-weight:600'>{_e(state.question)}</div>",
        f"<div>{_e(status)}</div>",
        f"<div>{_counts_row(state)}</div>",
    ]
    if state.error:
        parts.append(f"<div style='color:#b00'>error: {_e(state.error)}</div>")
    if state.research_brief:
        parts.append(f"<details><summary>Brief</summary>{_e(state.research_brief)}</details>")
    parts += [_sub_query_list(state), _top_sources(state), _recent_decisions(state)]
    body = "".join(p for p in parts if p)
    return (
        "<div style='border:1px solid #ccc;border-radius:6px;padding:8px 12px;"
        f"line-height:1.4'>{body}</div>"
    )


def state_html(state: ResearchState) -> str:
    """A compact HTML card of a state: question, status, counts, sub-queries, decisions."""
    return _card(state, "ResearchState")


def session_html(session: HasState) -> str:
    """The card of a session (its state), titled with the session id."""
    return _card(session.state, f"Session {session.state.id}")
