"""Compact HTML cards of a state or a session for notebooks. Every string is escaped
(it may come from the web), then the card goes through the one sanitizer (nh3)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Protocol

from deepresearch.render.sanitize import clean_html, one_line, safe_href, strip_controls

if TYPE_CHECKING:  # rendering sits below the state: it reads these, never imports them
    from deepresearch.state import ResearchState, Source

_DECISIONS_SHOWN = 5
_SUB_QUERIES_SHOWN = 12


class HasState(Protocol):
    """What session_html needs: anything with a `state` (the lead's Session)."""

    @property
    def state(self) -> ResearchState:
        """The research state to render."""


def _e(text: object) -> str:
    return html.escape(strip_controls(str(text)), quote=True)


def _source_link(source: Source) -> str:
    title = _e(one_line(source.title or source.url))
    href = safe_href(source.url)
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
    if state.claims:
        bad = sum(1 for c in state.claims if c.status.value == "unsupported")
        cells.append(("claims", f"{len(state.claims)} checked, {bad} unsupported"))
    return " · ".join(f"<b>{_e(v)}</b> {_e(k)}" for k, v in cells)


def _sub_query_list(state: ResearchState) -> str:
    if not state.sub_queries:
        return ""
    marks = {"pending": "○", "completed": "●", "failed": "✗"}
    items = "".join(
        f"<li>{marks.get(sq.status.value, '?')} <code>{_e(sq.id)}</code> {_e(sq.query)}</li>"
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
    """With a report: the cited sources as ``[n]``, the report's own numbers. Before one:
    the first sources found, unnumbered (their stable ``ref`` is not a citation)."""
    if not state.sources:
        return ""
    by_id = {s.id: s for s in state.sources}
    cited = [
        (c.number, by_id[c.source_id]) for c in state.report_citations() if c.source_id in by_id
    ]
    if cited:
        title, total = "Cited sources", len(cited)
        items = "".join(f"<li>[{n}] {_source_link(s)}</li>" for n, s in cited[:_DECISIONS_SHOWN])
    else:
        title, total = "Sources", len(state.sources)
        items = "".join(f"<li>{_source_link(s)}</li>" for s in state.sources[:_DECISIONS_SHOWN])
    more = total - _DECISIONS_SHOWN
    extra = f"<li>… {more} more</li>" if more > 0 else ""
    return f"<div><b>{title}</b><ul style='margin:2px 0'>{items}{extra}</ul></div>"


def _flagged_claims(state: ResearchState) -> str:
    flagged = [c for c in state.claims if c.status.value == "unsupported"]
    if not flagged:
        return ""
    items = "".join(
        f"<li><code>{_e(c.id)}</code> {_e(c.text)} <i>cites {_e(c.citations)}</i></li>"
        for c in flagged[:_DECISIONS_SHOWN]
    )
    more = len(flagged) - _DECISIONS_SHOWN
    extra = f"<li>… {more} more</li>" if more > 0 else ""
    return f"<div><b>Unsupported claims</b><ul style='margin:2px 0'>{items}{extra}</ul></div>"


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
    parts += [
        _sub_query_list(state),
        _top_sources(state),
        _flagged_claims(state),
        _recent_decisions(state),
    ]
    body = "".join(p for p in parts if p)
    return (
        "<div style='border:1px solid #ccc;border-radius:6px;padding:8px 12px;"
        f"line-height:1.4'>{body}</div>"
    )


def state_html(state: ResearchState) -> str:
    """A compact HTML card of a state: question, status, counts, sub-queries, decisions."""
    return clean_html(_card(state, "ResearchState"), card=True)


def session_html(session: HasState) -> str:
    """The card of a session (its state), titled with the session id."""
    return clean_html(_card(session.state, f"Session {session.state.id}"), card=True)
