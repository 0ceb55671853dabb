"""`deepresearch mcp` end to end: the official MCP client talks to the server over stdio
(a subprocess), with the offline engine, a tiny local corpus and a temporary store."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
DOCS = {
    "lighthouses.md": "# Lighthouses\n\nA lighthouse is a tower that emits light from a "
    "system of lamps and lenses to guide ships at sea. The Pharos of Alexandria was built "
    "around 280 BC and was one of the tallest structures of the ancient world.",
    "fresnel.md": "# Fresnel lens\n\nThe Fresnel lens was invented by Augustin-Jean Fresnel "
    "in 1822. It let lighthouses project their beams much farther with far less glass, and "
    "it spread along the coasts of France and Britain within decades.",
    "keepers.md": "# Lighthouse keepers\n\nLighthouse keepers tended the lamps, wound the "
    "clockwork that turned the lens, and kept logs of passing ships. Automation replaced "
    "most keepers in the twentieth century.",
}


@pytest.fixture
def server(tmp_path: Path) -> StdioServerParameters:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in DOCS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    config = tmp_path / "deepresearch.toml"
    config.write_text(
        'llm = "offline"\nsearch = ["corpus"]\nmax_iterations = 1\n'
        f"corpus = {json.dumps(str(corpus))}\n"
        f"store_path = {json.dumps(str(tmp_path / 'sessions.db'))}\n"
        f"corpus_index = {json.dumps(str(tmp_path / 'index'))}\n",
        encoding="utf-8",
    )
    env = {"DEEPRESEARCH_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "deepresearch", "mcp", "--config", str(config)],
        env={**env, "PATH": os.environ.get("PATH", "")},
        cwd=ROOT,
    )


def _data(result: Any) -> Any:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        data = result.structured_content
        return data.get("result", data) if set(data) == {"result"} else data
    return json.loads(result.content[0].text)


async def test_research_over_stdio_with_progress(server: StdioServerParameters) -> None:
    progress: list[tuple[float, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, message))

    async with Client(server) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert names >= {"research", "start_research", "research_status", "get_report",
                         "search_sources", "list_sessions", "export_session"}  # fmt: skip
        result = await client.call_tool(
            "research",
            {"question": "How did the Fresnel lens change lighthouses?"},
            progress_callback=on_progress,
        )
        out = _data(result)
        assert out["status"] == "completed"
        assert "## Sources" in out["report"] and out["sources"]
        assert any(s["title"] == "Fresnel lens" for s in out["sources"])
        assert sum(out["claims"].values()) > 0 and "supported" in out["claims"]
        messages = [m for _, m in progress]
        assert any(m and m.startswith("verification") for m in messages)
        assert [d for d, _ in progress] == sorted(d for d, _ in progress)

        sessions = _data(await client.call_tool("list_sessions", {}))
        assert [s["id"] for s in sessions] == [out["session_id"]]
        exported = await client.call_tool(
            "export_session", {"session_id": out["session_id"], "format": "json"}
        )
        assert json.loads(_data_text(exported))["id"] == out["session_id"]
        read = await client.read_resource(f"deepresearch://reports/{out['session_id']}")
        assert read.contents[0].text == out["report"]  # type: ignore[union-attr]


def _data_text(result: Any) -> str:
    assert not result.is_error, result.content
    return str(result.content[0].text)


async def test_background_research_and_search(server: StdioServerParameters) -> None:
    async with Client(server) as client:
        started = _data(
            await client.call_tool(
                "start_research", {"question": "What did lighthouse keepers do?"}
            )
        )
        sid = started["session_id"]
        for _ in range(600):
            status = _data(await client.call_tool("research_status", {"session_id": sid}))
            if not status["running"]:
                break
            await asyncio.sleep(0.05)
        assert status["status"] == "completed" and status["has_report"]
        report = _data(await client.call_tool("get_report", {"session_id": sid}))
        assert "keepers" in report["report"].lower()
        hits = _data(await client.call_tool("search_sources", {"query": "Fresnel lens"}))
        assert hits and hits[0]["title"] == "Fresnel lens"


async def test_bad_input_comes_back_as_tool_errors_not_tracebacks(
    server: StdioServerParameters,
) -> None:
    async with Client(server) as client:
        cases = [
            ("research", {"question": ""}),
            ("research", {"question": "x", "max_iterations": 99}),
            ("research", {"question": "lighthouses", "llm": "nosuchvendor:model"}),
            ("get_report", {"session_id": "../../etc"}),
            ("get_report", {"session_id": "doesnotexist"}),
            ("search_sources", {"query": "lighthouse", "search": ["nosuch"]}),
        ]
        for tool, args in cases:
            result = await client.call_tool(tool, args)
            assert result.is_error, (tool, args)
            text = " ".join(getattr(c, "text", "") for c in result.content)
            assert text and "Traceback" not in text, text
        missing = await client.call_tool("get_report", {"session_id": "doesnotexist"})
        assert "doesnotexist" in missing.content[0].text  # type: ignore[union-attr]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_research_over_streamable_http(server: StdioServerParameters) -> None:
    """The same server as `deepresearch mcp --http PORT`, reached by URL."""
    port = _free_port()
    proc = await asyncio.create_subprocess_exec(
        server.command,
        *server.args,
        "--http",
        str(port),
        env=server.env,
        cwd=server.cwd,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert proc.stderr is not None
        banner = await asyncio.wait_for(proc.stderr.readline(), 60)
        assert f"http://127.0.0.1:{port}/mcp" in banner.decode()
        for _ in range(200):  # the banner comes just before the socket listens
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            writer.close()
            break
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            out = _data(
                await client.call_tool(
                    "research", {"question": "How did the Fresnel lens change lighthouses?"}
                )
            )
            assert out["status"] == "completed"
            assert any(s["title"] == "Fresnel lens" for s in out["sources"])
            missing = await client.call_tool("get_report", {"session_id": "doesnotexist"})
            assert missing.is_error
    finally:
        proc.terminate()
        await proc.wait()
