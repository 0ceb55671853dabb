"""An MCP server's search-like tool as a search provider: ``search="mcp:NAME"``.

The server is configured in ``Config.mcp_servers[NAME]`` (a command launched over stdio,
or a streamable-HTTP URL). The connection opens with the first search and stays open
for the event loop's life (``aclose()`` ends it earlier). The tool is the one the spec names, else the first whose
name contains "search"; the query goes in the argument the spec names, else the tool
schema's first string property (``query``, ``q`` ... preferred), and ``max_results`` in
an integer property such as ``max_results`` or ``limit`` when the tool has one.

Results are read from the tool's structured output or JSON text: a list of objects (or
an object holding one under ``results``, ``items``, ``hits`` or ``result``) with a URL
(``url``, ``link``, ``uri``, ``source``, ``id``), a title and a text; resource links and
embedded resources become hits too; any other text block is one hit of its own.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from deepresearch.config import MCPServerSpec
from deepresearch.errors import MissingExtraError, ProviderError
from deepresearch.providers.base import SearchHit

QUERY_NAMES = ("query", "q", "search", "search_query", "text", "question", "keywords")
LIMIT_NAMES = ("max_results", "limit", "count", "num_results", "top_k", "n", "k")
LIST_KEYS = ("results", "items", "hits", "documents", "result", "data")
URL_KEYS = ("url", "link", "uri", "href", "source", "path", "id")
TITLE_KEYS = ("title", "name", "heading")
TEXT_KEYS = ("content", "text", "snippet", "summary", "description", "body")


def _sdk() -> Any:
    try:
        import mcp
    except ImportError as exc:
        raise MissingExtraError(
            "MCP search needs the MCP SDK: pip install 'deepresearch[mcp]'."
        ) from exc
    return mcp


class _Connection:
    """One open MCP client session, owned by a task of its own: the SDK's client must be
    entered and left in the same task, while searches come from many tasks at once."""

    def __init__(self, target: Any) -> None:
        self.client: Any = None
        self.error: BaseException | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        self.task = self.loop.create_task(self._hold(target))

    async def _hold(self, target: Any) -> None:
        try:
            async with _sdk().Client(target) as client:
                self.client = client
                self._ready.set()
                await self._stop.wait()
        except Exception as exc:  # reported to the waiting search, which raises it
            self.error = _leaf(exc)
        finally:
            self.client = None
            self._ready.set()

    async def opened(self) -> Any:
        await self._ready.wait()
        if self.client is None:
            raise self.error or ConnectionError("the MCP server closed the connection")
        return self.client

    @property
    def usable(self) -> bool:
        loop = asyncio.get_running_loop()
        return self.loop is loop and not self.task.done()

    async def close(self) -> None:
        self._stop.set()
        await asyncio.gather(self.task, return_exceptions=True)


class MCPSearch:
    """Search through one configured MCP server's tool, over one connection per event loop
    (reopened if the server goes away)."""

    def __init__(self, name: str, spec: MCPServerSpec) -> None:
        _sdk()
        self._server = name
        self.spec = spec
        self._tool: tuple[str, str, str | None] | None = None  # tool, query arg, limit arg
        self._conn: _Connection | None = None

    @property
    def name(self) -> str:
        """``mcp:NAME``, the server's name in ``mcp_servers``."""
        return f"mcp:{self._server}"

    def __repr__(self) -> str:
        where = self.spec.url or self.spec.command
        return f"MCPSearch({self._server!r}, {where!r})"

    def _target(self) -> Any:
        if self.spec.url is not None:
            return self.spec.url
        return _sdk().StdioServerParameters(
            command=self.spec.command or "",
            args=list(self.spec.args),
            env=dict(self.spec.env) or None,
            cwd=self.spec.cwd,
        )

    async def _client(self) -> Any:
        if self._conn is None or not self._conn.usable:
            self._conn = _Connection(self._target())
        try:
            return await self._conn.opened()
        except Exception as exc:
            raise ProviderError(
                f"MCP server {self._server!r} failed: {type(exc).__name__}: {exc}",
                provider=self.name,
            ) from exc

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Call the server's search tool with ``query``; its results as hits.

        Args:
            query: the search query.
            max_results: passed when the tool takes a limit argument.
        """
        client = await self._client()
        try:
            if self._tool is None:
                self._tool = choose_tool((await client.list_tools()).tools, self.spec)
            tool, query_arg, limit_arg = self._tool
            args: dict[str, Any] = {query_arg: query}
            if limit_arg is not None:
                args[limit_arg] = max_results
            result = await client.call_tool(tool, args)
        except ProviderError:
            raise
        except Exception as exc:  # a transport or protocol failure: all the same here
            cause = _leaf(exc)
            raise ProviderError(
                f"MCP server {self._server!r} failed: {type(cause).__name__}: {cause}",
                provider=self.name,
            ) from exc
        if result.is_error:
            raise ProviderError(
                f"MCP tool {tool!r} of {self._server!r} returned an error: {_texts(result)}",
                provider=self.name,
            )
        return hits_from(result, self._server)[:max_results]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """No hits: a search tool has no page to fetch again.

        Args:
            urls: the URLs asked for.
        """
        return []  # a search tool gives what it gives; there is no page to fetch again

    async def aclose(self) -> None:
        """Close the connection (and stop a stdio server); the next search reopens it."""
        if self._conn is not None:
            await self._conn.close()
            self._conn = None


def choose_tool(tools: list[Any], spec: MCPServerSpec) -> tuple[str, str, str | None]:
    """The tool to call and its query and limit arguments: ``spec.tool``, else the first
    tool named *search*; its query argument from ``spec`` or its schema.

    Args:
        tools: the server's tools.
        spec: the server's entry in ``mcp_servers``.
    """
    by_name = {t.name: t for t in tools}
    if spec.tool is not None:
        tool = by_name.get(spec.tool)
    else:
        tool = next((t for t in tools if "search" in t.name.lower()), None)
    if tool is None:
        wanted = repr(spec.tool) if spec.tool else "a tool named *search*"
        raise ProviderError(
            f"The MCP server has no {wanted}; its tools are {sorted(by_name)}. "
            "Set `tool` in its mcp_servers entry.",
            provider="mcp",
        )
    props: dict[str, Any] = (tool.input_schema or {}).get("properties", {})
    strings = [k for k, v in props.items() if isinstance(v, dict) and v.get("type") == "string"]
    query_arg = spec.query_argument or next(
        (n for n in QUERY_NAMES if n in strings), strings[0] if strings else None
    )
    if query_arg is None:
        raise ProviderError(
            f"MCP tool {tool.name!r} takes no string argument for the query; set "
            "`query_argument` in its mcp_servers entry.",
            provider="mcp",
        )
    ints = {k for k, v in props.items() if isinstance(v, dict) and v.get("type") == "integer"}
    limit_arg = next((n for n in LIMIT_NAMES if n in ints), None)
    return tool.name, query_arg, limit_arg


def _leaf(exc: BaseException) -> BaseException:
    """The first real error inside (nested) exception groups from the client's task group."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _texts(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content).strip()[:500]


def hits_from(result: Any, server: str) -> list[SearchHit]:
    """The search hits in a tool result (structured content first, then content blocks)."""
    if result.structured_content:
        hits = _hits_from_json(result.structured_content, server)
        if hits:
            return hits
    hits = []
    for n, block in enumerate(result.content, 1):
        kind = getattr(block, "type", "")
        if kind == "text":
            try:
                parsed = json.loads(block.text)
            except ValueError:
                parsed = None
            found = _hits_from_json(parsed, server) if parsed is not None else []
            hits += found or [_text_hit(block.text, server, n)]
        elif kind == "resource_link":
            text = block.description or ""
            hits.append(SearchHit(url=str(block.uri), title=block.title or block.name,
                                  snippet=text[:500], content=text))  # fmt: skip
        elif kind == "resource":
            res = block.resource
            text = getattr(res, "text", "") or ""
            hits.append(SearchHit(url=str(res.uri), title=str(res.uri).rsplit("/", 1)[-1],
                                  snippet=text[:500], content=text))  # fmt: skip
    return hits


def _hits_from_json(data: Any, server: str) -> list[SearchHit]:
    if isinstance(data, dict):
        inner = next((data[k] for k in LIST_KEYS if isinstance(data.get(k), list | dict)), None)
        if inner is None:
            return [h for h in [_item_hit(data, server, 1)] if h is not None]
        return _hits_from_json(inner, server)
    if isinstance(data, list):
        return [h for n, item in enumerate(data, 1) if (h := _item_hit(item, server, n))]
    return []


def _first(item: dict[str, Any], keys: tuple[str, ...]) -> str:
    return next((str(item[k]) for k in keys if item.get(k) not in (None, "")), "")


def _item_hit(item: Any, server: str, n: int) -> SearchHit | None:
    if isinstance(item, str):
        return _text_hit(item, server, n)
    if not isinstance(item, dict):
        return None
    text = _first(item, TEXT_KEYS)
    title = _first(item, TITLE_KEYS)
    if not (text or title):
        return None
    url = _first(item, URL_KEYS) or f"mcp://{server}/result-{n}"
    snippet = str(item.get("snippet") or text)[:500]
    return SearchHit(url=url, title=title or url, snippet=snippet, content=text)


def _text_hit(text: str, server: str, n: int) -> SearchHit:
    first = text.strip().splitlines()[0] if text.strip() else f"result {n}"
    return SearchHit(url=f"mcp://{server}/result-{n}", title=first[:120], snippet=text[:500],
                     content=text)  # fmt: skip
