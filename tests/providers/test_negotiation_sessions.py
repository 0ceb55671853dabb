"""Structured output negotiated per call, over whole sessions with the real clients:
a server that ignores the schema but answers JSON, one that garbles every second answer,
an Anthropic-style server without tool calling. Each run completes cleanly and cites."""

from __future__ import annotations

from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.state import RunStatus
from deepresearch.testing import StaticSearch
from deepresearch.testing.vendor_servers import AnthropicServer, OpenAIServer

from .test_sessions_over_vendors import DOCUMENTS, QUESTION, assert_cited_report, config

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")


async def run(server: OpenAIServer, tmp_path: Path, model: str = "openai:local") -> dr.Session:
    cfg = config(tmp_path, openai_base_url=server.base_url)
    session = dr.Session(QUESTION, llm=model, search=StaticSearch(DOCUMENTS), config=cfg)
    await session.run()
    return session


async def test_a_server_that_ignores_the_schema_but_answers_json(tmp_path: Path) -> None:
    with OpenAIServer(structured=False, json_only=True) as server:
        session = await run(server, tmp_path)
        bodies = [r.json for r in server.requests]
    assert_cited_report(session)
    assert session.state.run_warnings() == []
    # The off-schema JSON is retried with the schema in the prompt; after two such misses
    # the model starts in prompt mode.
    first_prompted = next(b for b in bodies if "response_format" not in b)
    assert "schema named" in first_prompted["messages"][0]["content"]
    assert all("response_format" not in b for b in bodies[4:])


async def test_garbage_every_second_answer_keeps_native_mode(tmp_path: Path) -> None:
    with OpenAIServer(garbage_every=2) as server:
        session = await run(server, tmp_path, "openai:gpt-4.1-mini")
        bodies = [r.json for r in server.requests]
    assert_cited_report(session)
    assert session.state.run_warnings() == []
    repaired = sum(u.repair_attempts for u in session.state.usage)
    assert repaired >= 2  # garbled answers were repaired, none lost
    native = ["response_format" in b for b in bodies]
    assert native[-1] or native[-2]  # native output still in use at the end of the run


async def test_anthropic_server_without_tool_calling(tmp_path: Path) -> None:
    with AnthropicServer(structured=False) as server:
        cfg = config(tmp_path, anthropic_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="anthropic:claude-sonnet-4-5", search=StaticSearch(DOCUMENTS), config=cfg
        )
        await session.run()
        bodies = [r.json for r in server.requests]
    assert session.state.status == RunStatus.COMPLETED
    assert_cited_report(session)
    assert "tools" in bodies[0] and "tools" not in bodies[-1]  # prompted tool use by the end
