"""Turn a saved session into something to read or share: JSON, Markdown, a standalone
HTML page, the cited sources as CSL-JSON or BibTeX, a timeline."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from deepresearch.redaction import scrub_secrets
from deepresearch.render import (
    escape_markdown,
    one_line,
    safe_href,
    state_report_markdown,
    strip_controls,
)
from deepresearch.render.report_files import (
    citations_bibtex,
    citations_csl,
    citations_csl_json,
    html_page,
)
from deepresearch.state import Citation, EventKind, ResearchState
from deepresearch.store.records import Event

if TYPE_CHECKING:
    import pandas as pd


def export_json(state: ResearchState) -> str:
    """The full state as indented JSON; loads back with ResearchState.from_json."""
    return scrub_secrets(state.model_dump_json(indent=2))


def export_markdown(state: ResearchState) -> str:
    """A shareable Markdown document: question, status, report, sources, decisions. Every
    string from sources or models is escaped, and only http(s) citations are links
    (deepresearch.render)."""
    lines = [f"# {escape_markdown(one_line(state.question))}", ""]
    lines += [
        f"- Session: `{state.id}`",
        f"- Status: {state.status.value} (phase {state.phase.value}, "
        f"iteration {state.iteration}/{state.max_iterations})",
        f"- Created: {_stamp(state.created_at)} · updated: {_stamp(state.updated_at)}",
    ]
    if state.llm or state.search:
        lines.append(f"- Models: {state.llm or '?'} · search: {state.search or '?'}")
    if state.abort_phase is not None:
        lines.append(
            f"- Stopped during {state.abort_phase.value} "
            f"(iteration {state.abort_iteration or state.iteration})"
        )
    if state.error:
        lines.append(f"- Error: {escape_markdown(one_line(state.error))}")
    lines.append("")

    lines += ["## Report", ""]
    if state.report is not None:
        lines += [_demote_headings(state_report_markdown(state).strip()), ""]
    else:
        lines += ["_No report yet: the session has not reached synthesis._", ""]

    lines += ["## Sources", ""]
    if state.sources:
        for src in sorted(state.sources, key=lambda s: s.citation):
            title = escape_markdown(one_line(src.title or src.url))
            href = safe_href(src.url)
            location = escape_markdown(one_line(src.url))
            shown = f"[{title}]({href})" if href else title
            if not href and location != title:
                shown += f" ({location})"
            lines.append(f"{src.citation}. {shown} — {src.quality.value}")
    else:
        lines.append("_No sources gathered._")
    lines.append("")

    lines += ["## Decisions", ""]
    if state.decisions:
        lines += ["| Time | Phase | Agent | Action | Rationale |", "|---|---|---|---|---|"]
        for d in state.decisions:
            phase = d.phase.value if d.phase is not None else ""
            lines.append(
                f"| {_stamp(d.timestamp)} | {phase} | {_cell(d.agent)} | {_cell(d.action)} "
                f"| {_cell(d.rationale)} |"
            )
    else:
        lines.append("_No decisions recorded._")
    lines.append("")
    return scrub_secrets("\n".join(lines))


def export_html(state: ResearchState) -> str:
    """A standalone HTML page of :func:`export_markdown`: rendered by markdown-it-py and
    cleaned by nh3, with a Content-Security-Policy that forbids scripts."""
    return html_page(export_markdown(state), state.question)


def cited_sources_csl(state: ResearchState) -> list[dict[str, Any]]:
    """The report's cited sources as CSL-JSON items (see :func:`citations_csl`)."""
    return citations_csl(state_citations(state))


def state_citations(state: ResearchState) -> list[Citation]:
    """The report's citations with their sources' current details (a report saved before
    citations carried them gets them from the state's sources)."""
    by_id = {s.id: s for s in state.sources}
    return [
        Citation.of(c.number, by_id[c.source_id]) if c.source_id in by_id else c
        for c in state.report_citations()
    ]


def export_csl_json(state: ResearchState) -> str:
    """:func:`cited_sources_csl` as indented JSON."""
    return citations_csl_json(state_citations(state))


def export_bibtex(state: ResearchState) -> str:
    """The report's cited sources as BibTeX (see :func:`citations_bibtex`)."""
    return citations_bibtex(state_citations(state))


def timeline(events: Sequence[Event], state: ResearchState | None = None) -> str:
    """A readable history: a summary of the session, then one line per event with the
    time since the start, the phase, what happened, and tokens or duration."""
    lines: list[str] = []
    if state is not None:
        lines += _summary(state)
        lines.append("")
    if not events:
        lines.append("No events recorded.")
        return "\n".join(lines)
    start = events[0].ts
    lines.append(f"Timeline (started {_stamp(start)} UTC)")
    for event in events:
        offset = (event.ts - start).total_seconds()
        phase = f"{event.phase}#{event.iteration}"
        clock = event.ts.strftime("%H:%M:%S")
        lines.append(f"  {clock} {_clock(offset):>9}  {phase:<15} {describe_event(event)}")
    return "\n".join(lines)


def events_frame(events: Sequence[Event]) -> pd.DataFrame:
    """One row per event: when, kind, phase, a one-line description, tokens, cost and
    duration as numeric columns (NaN where an event has none), and the full payload."""
    import pandas as pd  # only here: saving, loading and exporting sessions need no pandas

    records = [
        {
            "id": e.id,
            "ts": e.ts,
            "kind": e.kind,
            "phase": e.phase,
            "iteration": e.iteration,
            "description": describe_event(e),
            "role": e.payload.get("role"),
            "model": e.payload.get("model"),
            **{column: e.payload.get(column) for column in _NUMERIC_COLUMNS},
            "payload": e.payload,
        }
        for e in events
    ]
    columns = ["id", "ts", "kind", "phase", "iteration", "description", "role", "model"]
    frame = pd.DataFrame.from_records(records, columns=[*columns, *_NUMERIC_COLUMNS, "payload"])
    for column in _NUMERIC_COLUMNS:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    frame["ts"] = pd.to_datetime(frame["ts"], utc=True)
    return frame


_NUMERIC_COLUMNS = ("input_tokens", "output_tokens", "duration_s", "cost_usd")


def describe_event(event: Event) -> str:
    """One line saying what an event means; unknown kinds show their payload."""
    p = event.payload
    describe = _DESCRIBERS.get(event.kind)
    if describe is not None:
        text = describe(p)
    elif event.kind.endswith("_failed") and "error" in p:
        text = f"✘ {event.kind.replace('_', ' ')}: {p['error']}"
    else:
        text = f"{event.kind} {_compact(p)}"
    return _one_line(text)


def _summary(state: ResearchState) -> list[str]:
    input_tokens = sum(u.input_tokens for u in state.usage)
    output_tokens = sum(u.output_tokens for u in state.usage)
    cost = sum(u.cost_usd for u in state.usage)
    done = len(state.completed_sub_queries())
    lines = [
        f"Session {state.id}: {_one_line(state.question)}",
        f"  status {state.status.value} · phase {state.phase.value} · "
        f"iteration {state.iteration}/{state.max_iterations}",
        f"  {done}/{len(state.sub_queries)} sub-queries done · {len(state.sources)} sources · "
        f"{len(state.findings)} findings · {len(state.gaps)} gaps",
        f"  {len(state.usage)} LLM calls · {input_tokens:,} in / {output_tokens:,} out tokens"
        f" · ${cost:.4f}",
    ]
    if state.abort_phase is not None:
        lines.append(
            f"  stopped during {state.abort_phase.value} "
            f"(iteration {state.abort_iteration or state.iteration})"
        )
    if state.error:
        lines.append(f"  error: {_one_line(state.error)}")
    if state.report is not None:
        lines.append(
            f"  report: {state.report.word_count} words, {len(state.report.sections)} sections, "
            f"{state.report.citations_count} cited sources"
        )
    return lines


def _llm_call(p: dict[str, Any]) -> str:
    tokens = f"{p.get('input_tokens', 0):,}→{p.get('output_tokens', 0):,} tokens"
    extra = ""
    if p.get("token_limit_retries"):
        extra += f", {p['token_limit_retries']} token-limit retries"
    if p.get("repair_attempts"):
        extra += f", {p['repair_attempts']} repairs"
    return (
        f"LLM {p.get('role', '?')} via {p.get('model', '?')}: {tokens}, "
        f"{_seconds(p.get('duration_s'))}{extra}"
    )


def _search_call(p: dict[str, Any]) -> str:
    verb = "extract" if p.get("kind") == "extract" else "search"
    provider = f" [{p['provider']}]" if p.get("provider") else ""
    scope = f" for {p['scope']}" if p.get("scope") else ""
    text = f"{verb}{provider}{scope} {str(p.get('query') or '')[:80]!r}"
    if p.get("error"):
        text = f"✘ {text} failed: {p['error']}"
    elif p.get("results") is not None:
        text += f" → {p['results']} results"
    return text + (f", {_seconds(p['duration_s'])}" if "duration_s" in p else "")


def _phase_completed(p: dict[str, Any]) -> str:
    parts = [_seconds(p["duration_s"])] if "duration_s" in p else []
    summary = p.get("summary")
    if isinstance(summary, dict):
        parts += [f"{k}={v}" for k, v in summary.items()]
    return "✔ phase completed" + (f" ({', '.join(parts)})" if parts else "")


def _topic_completed(p: dict[str, Any]) -> str:
    return (
        f"topic {p.get('sub_query', '?')} {p.get('status', 'completed')}: "
        f"{p.get('sources', '?')} sources"
    )


def _think_pause(p: dict[str, Any]) -> str:
    said = []
    if p.get("guidance"):
        said.append(f"guidance {p['guidance']!r}")
    for key, label in (
        ("add_sub_queries", "added"),
        ("edit_sub_queries", "edited"),
        ("remove_sub_queries", "removed"),
    ):
        if p.get(key):
            said.append(f"{label} {len(p[key])} sub-queries")
    if p.get("stop"):
        said.append("stop")
    return "think pause: " + (", ".join(said) if said else "continue")


_DESCRIBERS: dict[str, Callable[[dict[str, Any]], str]] = {
    EventKind.PHASE_STARTED: lambda p: "▶ phase started",
    EventKind.PHASE_COMPLETED: _phase_completed,
    EventKind.LLM_CALL: _llm_call,
    EventKind.LLM_ERROR: lambda p: (
        f"✘ LLM {p.get('role', '?')} via {p.get('model', '?')} failed: {p.get('error', '?')}"
    ),
    EventKind.SEARCH_CALL: _search_call,
    EventKind.TOPIC_COMPLETED: _topic_completed,
    EventKind.DECISION: lambda p: (
        f"decision {p.get('agent', '?')}: {p.get('action', '?')}"
        + (f" — {p['rationale']}" if p.get("rationale") else "")
    ),
    EventKind.CHECKPOINT: lambda p: "checkpoint saved",
    EventKind.THINK_PAUSE: _think_pause,
    EventKind.CANCELLED: lambda p: _ended("cancelled", p),
    EventKind.TIMED_OUT: lambda p: _ended("timed out", p),
    EventKind.FAILED: lambda p: f"✘ run failed: {p.get('error') or '?'}",
    EventKind.STOPPED: lambda p: _ended("stopped", p),
    EventKind.RESUMED: lambda p: f"↻ resumed at {p.get('phase', '?')}",
}


def _ended(how: str, p: dict[str, Any]) -> str:
    return f"■ {how}: {p.get('error') or p.get('reason') or ''}".rstrip(": ")


def _compact(payload: dict[str, Any], limit: int = 120) -> str:
    if not payload:
        return ""
    text = json.dumps(payload, ensure_ascii=False, default=str, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _seconds(value: Any) -> str:
    return f"{float(value):.2f}s" if isinstance(value, int | float) else "?s"


def _clock(seconds: float) -> str:
    minutes, secs = divmod(max(seconds, 0.0), 60)
    return f"+{int(minutes)}:{secs:05.2f}"


def _stamp(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")


def _one_line(text: str) -> str:
    return one_line(strip_controls(str(text)))


def _cell(text: str) -> str:
    return escape_markdown(_one_line(text)).replace("|", "\\|")


def _demote_headings(markdown: str) -> str:
    """Nest the report's headings under our '## Report' so the document has one title."""
    out = []
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        out.append("##" + line if line.startswith("#") and not in_code else line)
    return "\n".join(out)
