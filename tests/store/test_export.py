"""JSON and Markdown export, and the readable timeline."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest

from deepresearch.errors import InputError
from deepresearch.state import (
    ENDED,
    AgentDecision,
    Citation,
    EventKind,
    Phase,
    Report,
    ResearchState,
    RunStatus,
    UsageRecord,
)
from deepresearch.store import (
    Event,
    SessionStore,
    cited_sources_csl,
    describe_event,
    export,
    export_bibtex,
    export_csl_json,
    export_html,
    export_json,
    export_markdown,
    timeline,
)


def finished_state() -> ResearchState:
    state = ResearchState(question="How did the printing press change Europe?")
    sq = state.add_sub_query("printing press literacy")
    state.new_source(url="https://example.org/a", title="Literacy | history", sub_query_id=sq.id)
    state.new_source(url="docs/notes.md", title="", sub_query_id=sq.id)
    state.record(
        AgentDecision(
            agent="supervisor",
            action="research_complete",
            rationale="coverage 0.9 | enough",
            phase=Phase.SUPERVISION,
        )
    )
    state.usage.append(
        UsageRecord(
            role="report", phase="synthesis", model="offline", input_tokens=1000, output_tokens=250
        )
    )
    state.report = Report(
        markdown="# Printing press\n\n## Literacy\n\nLiteracy rose [1].\n\n```\n# not a heading\n```",
        sections=["Literacy"],
        cited_source_ids=["src-1"],
        word_count=4,
    )
    state.phase = Phase.DONE
    state.status = RunStatus.COMPLETED
    return state


def test_export_json_round_trips() -> None:
    state = finished_state()
    assert ResearchState.from_json(export_json(state)) == state


def test_export_markdown_has_question_status_report_sources_decisions() -> None:
    md = export_markdown(finished_state())
    assert md.startswith("# How did the printing press change Europe?")
    assert "- Status: completed (phase done, iteration 1/3)" in md
    # The report's headings sit under the export's "## Report".
    assert "## Report\n\n### Printing press\n\n#### Literacy" in md
    assert "\n# not a heading\n" in md
    assert "1. [Literacy | history](https://example.org/a) — unknown" in md
    assert "2. docs/notes.md — unknown" in md  # a local path is shown, never linked
    assert "| supervisor | research_complete | coverage 0.9 \\| enough |" in md


def test_export_markdown_without_report_says_so() -> None:
    state = ResearchState(question="q?")
    state.status = RunStatus.CANCELLED
    state.abort_phase = Phase.GATHERING
    state.abort_iteration = 2
    md = export_markdown(state)
    assert "_No report yet" in md
    assert "_No sources gathered._" in md
    assert "Stopped during gathering (iteration 2)" in md


def test_timeline_is_readable(tmp_path: Path) -> None:
    state = finished_state()
    with SessionStore(tmp_path / "s.db") as store:
        state.phase = Phase.PLANNING
        store.emit(state, "phase_started", {"phase": "planning", "iteration": 1})
        store.emit(
            state,
            "llm_call",
            {
                "role": "planner",
                "model": "offline",
                "input_tokens": 1200,
                "output_tokens": 300,
                "duration_s": 0.25,
            },
        )
        store.emit(state, "phase_completed", {"phase": "planning", "summary": {"sub_queries": 3}})
        state.phase = Phase.GATHERING
        store.emit(
            state,
            "search_call",
            {
                "kind": "search",
                "query": "printing press",
                "provider": "demo",
                "results": 4,
                "duration_s": 0.3,
                "scope": "sq-1",
                "error": None,
            },
        )
        store.emit(
            state,
            "search_call",
            {
                "kind": "extract",
                "query": "https://x.org",
                "provider": "demo",
                "results": 0,
                "duration_s": 0.1,
                "scope": "sq-1",
                "error": "SearchError: down",
            },
        )
        store.emit(
            state, "topic_completed", {"sub_query": "sq-1", "status": "completed", "sources": 4}
        )
        store.emit(
            state,
            "think_pause",
            {
                "phase": "gathering",
                "prompt": "...",
                "guidance": "focus on Asia",
                "add_sub_queries": ["a"],
            },
        )
        store.emit(state, "cancelled", {"phase": "gathering", "error": "Research was cancelled."})
        store.emit(state, "summarization_failed", {"source": "src-1", "error": "timeout"})
        store.emit(state, "something_new", {"x": 1})
        state.phase = Phase.DONE
        text = timeline(store.events(state.id), state)
    lines = text.splitlines()
    assert lines[0] == f"Session {state.id}: How did the printing press change Europe?"
    assert "1 LLM calls · 1,000 in / 250 out tokens" in text
    assert "report: 4 words, 1 sections, 1 cited sources" in text
    body = [line for line in lines if " +0:" in line]
    assert len(body) == 10
    assert "planning#1" in body[0] and "▶ phase started" in body[0]
    assert "LLM planner via offline: 1,200→300 tokens, 0.25s" in body[1]
    assert body[2].endswith("✔ phase completed (sub_queries=3)")
    assert "gathering#1" in body[3]
    assert body[3].endswith("search [demo] for sq-1 'printing press' → 4 results, 0.30s")
    assert body[4].endswith(
        "✘ extract [demo] for sq-1 'https://x.org' failed: SearchError: down, 0.10s"
    )
    assert body[5].endswith("topic sq-1 completed: 4 sources")
    assert body[6].endswith("think pause: guidance 'focus on Asia', added 1 sub-queries")
    assert body[7].endswith("■ cancelled: Research was cancelled.")
    assert body[8].endswith("✘ summarization failed: timeout")
    assert body[9].endswith('something_new {"x":1}')


def test_timeline_offsets_and_empty() -> None:
    state = ResearchState(question="q")
    start = state.created_at
    events = [
        Event(
            id=1, session_id=state.id, ts=start, kind="phase_started", phase="brief", iteration=1
        ),
        Event(
            id=2,
            session_id=state.id,
            ts=start + timedelta(seconds=75.5),
            kind="failed",
            phase="brief",
            iteration=1,
            payload={"error": "boom"},
        ),
    ]
    text = timeline(events)
    assert "+1:15.50" in text
    assert "✘ run failed: boom" in text
    assert timeline([], state).endswith("No events recorded.")


def test_describe_event_keeps_one_line() -> None:
    event = Event(
        id=1,
        session_id="s",
        ts=ResearchState(question="q").created_at,
        kind="failed",
        phase="analysis",
        iteration=1,
        payload={"error": "first line\nsecond line"},
    )
    assert describe_event(event) == "✘ run failed: first line second line"


def test_every_described_kind_is_emitted_and_every_way_a_run_ends_is_described() -> None:
    assert set(export._DESCRIBERS) <= set(EventKind)
    for status, kind in ENDED.items():
        event = Event(
            id=1,
            session_id="s",
            ts=ResearchState(question="q").created_at,
            kind=kind,
            phase="analysis",
            iteration=1,
            payload={"error": "why"},
        )
        assert kind in export._DESCRIBERS and "why" in describe_event(event), status


HOSTILE_TITLE = "[x](javascript:alert(1)) <img src=x onerror=alert(1)> <script>bad()</script>"


def hostile_state() -> ResearchState:
    state = finished_state()
    state.sources[0].title = HOSTILE_TITLE
    state.new_source(url="file:///etc/passwd", title="passwd", content="root:x:0:0")
    state.new_source(url="http://[2001:db8::7]/paper", title="IPv6 {paper}", content="c")
    assert state.report is not None
    state.report.markdown = f"Claim [1]. Local [2]. Six [3]. {HOSTILE_TITLE}\n"
    state.report.cited_source_ids = ["src-1", "src-3", "src-4"]
    state.decisions[0].rationale = "\x1b[31m<script>x()</script>"
    return state


def test_exports_of_a_hostile_session_carry_no_live_markup_or_unsafe_links() -> None:
    state = hostile_state()
    md = export_markdown(state)
    assert "<script" not in md and "<img" not in md and "\x1b" not in md
    assert not re.search(r"(?<!\\)\]\((javascript|file):", md)  # escaped, never a link
    assert "\\[[3](http://[2001:db8::7]/paper)\\]" in md
    page = export_html(state)
    assert page.startswith("<!DOCTYPE html>") and "default-src 'none'" in page
    hrefs = set(re.findall(r'href="([^"]*)"', page))
    assert hrefs == {"https://example.org/a", "http://[2001:db8::7]/paper"}
    assert "<script" not in page.split("</head>")[1] and "<img" not in page


def test_cited_sources_export_as_csl_json_and_bibtex() -> None:
    state = hostile_state()
    items = json.loads(export_csl_json(state))
    assert [i["citation-number"] for i in items] == [1, 2, 3]
    assert items[0]["URL"] == "https://example.org/a" and "URL" not in items[1]
    assert items[1]["type"] == "document"
    bib = export_bibtex(state)
    assert bib.count("@misc{") == 3 and "\\url{http://[2001:db8::7]/paper}" in bib
    assert "IPv6 paper" in bib  # braces from a title cannot break the entry


def paper_and_page_state() -> ResearchState:
    state = ResearchState(question="What is deep learning?")
    state.new_source(
        url="https://doi.org/10.1038/nature14539",
        title="Deep learning",
        domain="doi.org",
        published="2015-05-28",
        authors=["Yann LeCun", "Ludwig van Beethoven", "OpenAI"],
        year=2015,
        venue="Nature {London}",
        doi="10.1038/nature14539",
        citation_count=50000,
    )
    state.new_source(
        url="https://example.org/dl", title="Deep learning explained", domain="example.org"
    )
    state.report = Report(
        markdown="Deep nets learn [1]. Explained [2].",
        cited_source_ids=["src-1", "src-2"],
        word_count=5,
    )
    return state


def test_a_paper_exports_as_an_article_and_a_web_page_stays_misc() -> None:
    bib = export_bibtex(paper_and_page_state())
    assert bib == (
        "@article{src1,\n"
        "  title = {Deep learning},\n"
        "  author = {LeCun, Yann and van Beethoven, Ludwig and {OpenAI}},\n"
        "  year = {2015},\n"
        "  journal = {Nature London},\n"
        "  doi = {10.1038/nature14539},\n"
        "  url = {https://doi.org/10.1038/nature14539}\n"
        "}\n\n"
        "@misc{src2,\n"
        "  title = {Deep learning explained},\n"
        "  howpublished = {\\url{https://example.org/dl}},\n"
        "  organization = {example.org}\n"
        "}\n"
    )
    items = json.loads(export_csl_json(paper_and_page_state()))
    assert items == [
        {
            "id": "src-1",
            "type": "article-journal",
            "title": "Deep learning",
            "citation-number": 1,
            "author": [
                {"family": "LeCun", "given": "Yann"},
                {"family": "van Beethoven", "given": "Ludwig"},
                {"literal": "OpenAI"},
            ],
            "URL": "https://doi.org/10.1038/nature14539",
            "container-title": "Nature {London}",
            "DOI": "10.1038/nature14539",
            "issued": {"date-parts": [[2015]]},
        },
        {
            "id": "src-2",
            "type": "webpage",
            "title": "Deep learning explained",
            "citation-number": 2,
            "URL": "https://example.org/dl",
            "container-title": "example.org",
        },
    ]


def test_author_names_split_into_family_and_given() -> None:
    state = paper_and_page_state()
    state.sources[0].authors = ["LeCun, Yann", "Martin Luther King Jr.", "Gates and Co"]
    (item, _) = cited_sources_csl(state)
    assert item["author"] == [
        {"family": "LeCun", "given": "Yann"},
        {"family": "King", "given": "Martin Luther", "suffix": "Jr."},
        {"literal": "Gates and Co"},  # " and " would split a BibTeX name list
    ]
    assert "author = {LeCun, Yann and King, Jr., Martin Luther and {Gates and Co}}" in (
        export_bibtex(state)
    )


def test_a_report_saves_alone_in_every_format(tmp_path: Path) -> None:
    state = paper_and_page_state()
    state.report = Report(
        markdown="Deep nets learn [1]. Explained [2]. <script>alert(1)</script>",
        question=state.question,
        cited_source_ids=["src-1", "src-2"],
        citations=[Citation.of(n, s) for n, s in enumerate(state.sources, 1)],
    )
    report = Report.model_validate_json(state.report.model_dump_json())  # no state from here
    md = report.save(tmp_path / "out" / "r.md").read_text(encoding="utf-8")
    assert md.startswith("# What is deep learning?\n")
    assert "[1](https://doi.org/10.1038/nature14539)" in md and "<script>" not in md
    page = report.save(tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert 'href="https://example.org/dl"' in page and "Content-Security-Policy" in page
    # The paper keeps its authors, venue and DOI without the session's sources.
    assert report.save(tmp_path / "r.bib").read_text(encoding="utf-8") == export_bibtex(state)
    csl = report.save(tmp_path / "r.csl.json").read_text(encoding="utf-8")
    assert json.loads(csl) == json.loads(export_csl_json(state))
    back = Report.model_validate_json(report.save(tmp_path / "r.json").read_text("utf-8"))
    assert back == report
    assert report.save(tmp_path / "notes.txt", format="md").read_text("utf-8") == md
    with pytest.raises(InputError, match=r"\.csl\.json"):
        report.save(tmp_path / "r.docx")
    with pytest.raises(InputError, match="folder"):
        report.save(tmp_path, format="md")
