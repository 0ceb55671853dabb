"""Whole research sessions through the real vendor clients against loopback servers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.state import RunStatus
from deepresearch.testing import StaticSearch
from deepresearch.testing.vendor_servers import AnthropicServer, OpenAIServer, output_name

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

QUESTION = "How did the printing press change Europe?"
DOCUMENTS = [
    {
        "url": "https://example.org/gutenberg",
        "title": "Gutenberg and the printing press",
        "content": "Johannes Gutenberg introduced movable-type printing in Europe around 1450. "
        "The printing press made books cheaper and spread literacy across Europe.",
    },
    {
        "url": "https://history.example.com/reformation",
        "title": "Printing and the Reformation",
        "content": "Printed pamphlets spread the ideas of the Reformation quickly. The printing "
        "press changed religion and politics in Europe.",
    },
    {
        "url": "https://science.example.net/revolution",
        "title": "Print and the Scientific Revolution",
        "content": "The printing press let scientists in Europe share exact copies "
        "of their results, which helped the Scientific Revolution.",
    },
]


def config(tmp_path: Path, **knobs: object) -> dr.Config:
    return dr.Config.build(
        {
            "max_iterations": 1,
            "enable_clarification": True,
            "store_path": str(tmp_path / "sessions.db"),
            "retry_base_delay_s": 0.0,
            "operation_timeout_s": 20,
            **knobs,
        }
    )


def _asks_json(body: dict[str, object]) -> bool:
    return "response_format" in body


def assert_cited_report(session: dr.Session) -> None:
    report = session.report
    assert report is not None and session.state.status == RunStatus.COMPLETED
    numbers = {int(n) for n in re.findall(r"\[(\d+)\]", report.markdown)}
    citations = {s.citation for s in session.state.sources}
    assert numbers and numbers <= citations
    assert report.cited_source_ids


async def test_session_over_openai(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        await session.run()
        bodies = [r.json for r in server.requests]
    assert_cited_report(session)
    schemas = {b["response_format"]["json_schema"]["name"] for b in bodies if _asks_json(b)}
    assert {"PlanOutput", "AnalysisOutput"} <= schemas
    # The report is asked for as plain Markdown and arrives whole.
    (report_request,) = [b for b in bodies if output_name(b) == "ReportDraft"]
    assert not _asks_json(report_request) and "Schema:" not in json.dumps(report_request)
    assert session.report is not None
    assert session.report.markdown.startswith(f"# {QUESTION}\n\n## Executive summary")
    usage = session.state.usage
    assert usage and all(u.model == "openai:gpt-4.1-mini" for u in usage)
    assert sum(u.input_tokens for u in usage) == 12 * len(bodies)


async def test_session_over_anthropic(tmp_path: Path) -> None:
    with AnthropicServer() as server:
        cfg = config(tmp_path, anthropic_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="anthropic:claude-sonnet-4-5", search=StaticSearch(DOCUMENTS), config=cfg
        )
        await session.run()
        bodies = [r.json for r in server.requests]
    assert_cited_report(session)
    text_requests = [b for b in bodies if "tool_choice" not in b]
    assert [output_name(b) for b in text_requests] == ["ReportDraft"]  # plain text, no tool
    assert all(b["tool_choice"]["type"] == "tool" for b in bodies if b not in text_requests)
    models = {u.model for u in session.state.usage}
    # Cheap roles default to the vendor's small model; the rest use the main model.
    assert models == {"anthropic:claude-sonnet-4-5", "anthropic:claude-haiku-4-5"}
    assert {b["model"] for b in bodies} == {"claude-sonnet-4-5", "claude-haiku-4-5"}


async def test_session_over_a_server_without_structured_output(tmp_path: Path) -> None:
    # Like a small local model behind llama.cpp: ignores response_format, offers no tools,
    # thinks aloud and wraps its JSON in chatter.
    with OpenAIServer(structured=False) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:qwen3-8b", search=StaticSearch(DOCUMENTS), config=cfg
        )
        await session.run()
        bodies = [r.json for r in server.requests]
    assert_cited_report(session)
    # Tried natively twice (each answer repaired with the schema in the prompt), then the
    # model is known to ignore the schema and every later call is prompt-and-parse. (The
    # first two calls, clarifier and brief, run side by side: each tries natively first.)
    assert sorted("response_format" in b for b in bodies[:4]) == [False, False, True, True]
    assert all("response_format" not in b for b in bodies[4:])
    assert sum(u.repair_attempts for u in session.state.usage) == 2
