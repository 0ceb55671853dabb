"""search="mcp:NAME": an MCP server's search tool as a search provider, against the small
stdio server in search_server.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import deepresearch as dr
from deepresearch.config import Config, MCPServerSpec
from deepresearch.errors import ConfigError, ProviderError
from deepresearch.mcp.search import MCPSearch
from deepresearch.providers.registry import build_search

SERVER = str(Path(__file__).with_name("search_server.py"))


def _spec(*extra: str, **fields: object) -> MCPServerSpec:
    return MCPServerSpec(command=sys.executable, args=[SERVER, *extra], **fields)  # type: ignore[arg-type]


async def test_structured_results_become_hits() -> None:
    search = MCPSearch("docs", _spec())
    hits = await search.search("When was the Fresnel lens invented?", max_results=2)
    assert hits[0].url == "https://docs.example/fresnel-lens"
    assert hits[0].title == "Fresnel lens" and "1822" in hits[0].content
    assert len(hits) <= 2
    assert search.name == "mcp:docs" and await search.extract([hits[0].url]) == []
    await search.aclose()  # the next search opens a new connection
    again = await search.search("foghorn", max_results=1)
    assert [h.title for h in again] == ["Foghorn"]
    await search.aclose()


async def test_text_results_and_a_named_tool() -> None:
    search = MCPSearch("docs", _spec("--text", tool="find"))
    hits = await search.search("foghorn lighthouse", max_results=5)
    assert hits and any("foghorn" in h.content.lower() for h in hits)
    assert all(h.url.startswith("mcp://docs/") for h in hits)


async def test_tool_errors_and_missing_tools_are_provider_errors() -> None:
    with pytest.raises(ProviderError, match="returned an error"):
        await MCPSearch("docs", _spec()).search("explode", max_results=2)
    with pytest.raises(ProviderError, match=r"no 'lookup'.*search_docs"):
        await MCPSearch("docs", _spec(tool="lookup")).search("lighthouse", max_results=2)
    broken = MCPSearch("gone", MCPServerSpec(command=sys.executable, args=["-c", "pass"]))
    with pytest.raises(ProviderError, match="'gone' failed"):
        await broken.search("lighthouse", max_results=2)


def test_config_file_names_the_server(tmp_path: Path) -> None:
    path = tmp_path / "deepresearch.toml"
    path.write_text(
        'search = ["mcp:docs"]\n[mcp_servers.docs]\n'
        f"command = {json.dumps(sys.executable)}\nargs = [{json.dumps(SERVER)}]\n"
        'env = {SECRET_TOKEN = "sk-do-not-show"}\n',
        encoding="utf-8",
    )
    config = Config.load(file=path, env={})
    provider = build_search(config)
    assert isinstance(provider, MCPSearch) and provider.spec.args == [SERVER]
    assert "sk-do-not-show" not in repr(config) and "sk-do-not-show" not in repr(provider)
    with pytest.raises(ConfigError, match="mcp:web"):
        Config.load(file=path, env={}, search=["mcp:web"])
    with pytest.raises(ConfigError, match="exactly one of"):
        Config.build({"mcp_servers": {"x": {"command": "a", "url": "http://127.0.0.1:1/mcp"}}})


async def test_a_session_researches_through_the_mcp_server() -> None:
    config = Config(
        llm="offline",
        search=["mcp:docs"],
        mcp_servers={"docs": _spec()},
        max_iterations=1,
        persist=False,
    )
    session = dr.Session("How did the Fresnel lens change lighthouses?", config=config)
    await session.run()
    assert session.state.search == "mcp:docs"
    assert session.report is not None
    cited = {session.state.source(s).url for s in session.report.cited_source_ids}  # type: ignore[union-attr]
    assert "https://docs.example/fresnel-lens" in cited
