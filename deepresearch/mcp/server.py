"""`deepresearch mcp`: the SDK as an MCP server, over stdio or streamable HTTP.

Tools: ``research`` (a whole run, with progress notifications), ``start_research`` /
``research_status`` / ``get_report`` (long runs in the background), ``search_sources``,
``list_sessions``, ``export_session``. Resources: ``deepresearch://sessions`` (the saved
sessions) and ``deepresearch://reports/{session_id}`` (a saved report, Markdown).

A thin layer over :class:`~deepresearch.mcp.service.ResearchService`: arguments are
validated from the type hints; the package's errors come back as tool errors with their
message, anything else as the SDK's generic tool error (never a traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field

from deepresearch.cli.research import path_arg
from deepresearch.config import Config
from deepresearch.errors import DeepResearchError, MissingExtraError
from deepresearch.mcp.service import ResearchService

try:  # module level: the SDK reads the tools' annotations, Context among them
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ResourceError, ToolError
except ImportError as exc:
    raise MissingExtraError(
        "The MCP server needs the MCP SDK: pip install 'deepresearch[mcp]'."
    ) from exc

T = TypeVar("T")
Question = Annotated[str, Field(min_length=1, description="The research question.")]
SessionId = Annotated[
    str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="A session id from a research tool.")
]
Llm = Annotated[
    str | None, Field(description="Model spec: offline, openai:MODEL, anthropic:MODEL.")
]
Search = Annotated[
    list[str] | None,
    Field(description="Search providers in order: demo, corpus, tavily, auto, mcp:NAME."),
]
Iterations = Annotated[int | None, Field(ge=1, le=20, description="Research iterations.")]
INSTRUCTIONS = (
    "Deep research over a local corpus or the web: `research` runs a whole session and "
    "returns a cited Markdown report (claims checked against their sources); for long runs "
    "use start_research, then research_status and get_report."
)


def build_server(service: ResearchService) -> MCPServer:
    """An MCPServer whose tools and resources call ``service``."""
    server = MCPServer("deepresearch", instructions=INSTRUCTIONS)
    _add_research_tools(server, service)
    _add_lookup_tools(server, service)
    _add_resources(server, service)
    return server


async def _guarded(call: Callable[[], Awaitable[T]]) -> T:
    """The call's result; a package error becomes the tool error the client is shown."""
    try:
        return await call()
    except DeepResearchError as exc:
        raise ToolError(f"{type(exc).__name__}: {exc}") from None


async def _now(value: T) -> T:
    """A value computed already, awaitable for :func:`guarded`."""
    return value


def _add_research_tools(server: MCPServer, service: ResearchService) -> None:
    @server.tool()
    async def research(
        question: Question,
        ctx: Context,
        llm: Llm = None,
        search: Search = None,
        max_iterations: Iterations = None,
    ) -> dict[str, Any]:
        """Research a question and return the cited Markdown report, its sources and the
        claim check. Sends a progress notification as each phase starts."""
        sent: list[asyncio.Task[None]] = []

        def progress(message: str) -> None:
            step = len(sent) + 1
            sent.append(asyncio.ensure_future(ctx.report_progress(step, None, message)))

        result = await _guarded(
            lambda: service.research(
                question, llm=llm, search=search, max_iterations=max_iterations, progress=progress
            )
        )
        await asyncio.gather(*sent, return_exceptions=True)
        return result

    @server.tool()
    async def start_research(
        question: Question,
        llm: Llm = None,
        search: Search = None,
        max_iterations: Iterations = None,
    ) -> dict[str, Any]:
        """Start research in the background; poll research_status, then get_report."""
        return await _guarded(
            lambda: service.start(question, llm=llm, search=search, max_iterations=max_iterations)
        )

    @server.tool()
    async def research_status(session_id: SessionId) -> dict[str, Any]:
        """Where a session is: running, status, phase, counts, claim check, error."""
        return await _guarded(lambda: _now(service.status(session_id)))

    @server.tool()
    async def get_report(session_id: SessionId) -> dict[str, Any]:
        """A session's report with its numbered sources and claim-check counts."""
        return await _guarded(lambda: _now(service.report(session_id)))


def _add_lookup_tools(server: MCPServer, service: ResearchService) -> None:
    @server.tool()
    async def search_sources(
        query: Annotated[str, Field(min_length=1)],
        max_results: Annotated[int, Field(ge=1, le=50)] = 5,
        search: Search = None,
    ) -> list[dict[str, Any]]:
        """Run the configured search (or the given providers) and return the hits."""
        return await _guarded(lambda: service.search(query, max_results=max_results, search=search))

    @server.tool()
    async def list_sessions(
        limit: Annotated[int, Field(ge=1, le=500)] = 20,
    ) -> list[dict[str, Any]]:
        """Saved sessions, newest first."""
        return await _guarded(lambda: _now(service.sessions(limit)))

    @server.tool()
    async def export_session(
        session_id: SessionId, format: Literal["markdown", "json"] = "markdown"
    ) -> str:
        """A saved session as Markdown (report, sources, findings, decisions) or JSON."""
        return await _guarded(lambda: _now(service.export(session_id, format)))


def _add_resources(server: MCPServer, service: ResearchService) -> None:
    @server.resource("deepresearch://sessions", mime_type="application/json")
    def sessions_resource() -> str:
        """The saved sessions (id, question, status, phase, counts)."""
        return json.dumps(service.sessions(500))

    @server.resource("deepresearch://reports/{session_id}", mime_type="text/markdown")
    def report_resource(session_id: str) -> str:
        """A saved session's Markdown report."""
        try:
            view = service.report(session_id)
        except DeepResearchError as exc:
            raise ResourceError(str(exc)) from None
        return str(view["report"])


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="deepresearch mcp",
        description="Serve deepresearch over MCP: stdio by default, streamable HTTP with --http.",
    )
    p.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on PORT")
    p.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    p.add_argument("--config", type=path_arg, help="a deepresearch.toml file")
    p.add_argument("--llm", help="default model spec for research runs")
    p.add_argument("--search", help="default search providers, comma-separated")
    p.add_argument("--corpus", type=path_arg, help="search this folder of your documents")
    p.add_argument("--store", type=path_arg, help="SQLite session store")
    return p


def config_from(args: argparse.Namespace) -> Config:
    """The MCP server's Config from its command-line flags.

    Args:
        args: the parsed arguments.
    """
    overrides: dict[str, Any] = {"llm": args.llm, "store_path": args.store}
    if args.search:
        overrides["search"] = [s.strip() for s in args.search.split(",") if s.strip()]
    if args.corpus is not None:
        if not args.corpus.is_dir():
            raise DeepResearchError(f"Corpus folder {args.corpus} is not a folder.")
        overrides["corpus"] = args.corpus
        overrides.setdefault("search", ["corpus"])
    return Config.load(file=args.config, **overrides)


def main(argv: list[str]) -> int:
    """Serve deepresearch over MCP (stdio, or streamable HTTP with ``--http``).

    Args:
        argv: the command-line arguments.
    """
    args = _parser().parse_args(argv)
    service = ResearchService(config_from(args))
    server = build_server(service)
    if args.http is not None:
        print(f"deepresearch MCP on http://{args.host}:{args.http}/mcp", file=sys.stderr)
        server.run("streamable-http", host=args.host, port=args.http)
    else:
        server.run("stdio")
    return 0
