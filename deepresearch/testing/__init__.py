"""Test doubles that ship with the package, so you can test your own hooks and pipelines.

- :class:`FunctionLLM` answers every request with a function of it (by default the
  offline engine), and can check each prompt on the way — e.g. that it fits a context.
- :class:`ScriptedLLM` answers from a script of outputs per output type.
- :class:`StaticSearch` searches a fixed list of documents by word overlap, records
  every query, and can be slowed down or made to fail.
- :func:`static_resolver` resolves host names for the URL policy without touching DNS.
- :func:`context` builds the :class:`~deepresearch.context.RunContext` a phase or helper
  is called with, from these doubles.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from deepresearch.budget import TokenBudget
from deepresearch.config import Config
from deepresearch.context import Checkpoint, EventSink, RunContext
from deepresearch.errors import ProviderError, SearchError
from deepresearch.offline import OfflineEngine
from deepresearch.providers.base import (
    LLMProvider,
    LLMRequest,
    LLMResponse,
    SearchHit,
    SearchProvider,
    Usage,
)
from deepresearch.routing import ModelRouter, ProviderFactory
from deepresearch.state import ResearchState
from deepresearch.text import estimate_tokens, term_set

Answer = Callable[[LLMRequest], BaseModel | LLMResponse | Awaitable[BaseModel | LLMResponse]]


class FunctionLLM:
    """An LLM provider whose answers come from ``answer(request)``; records every request."""

    def __init__(
        self,
        answer: Answer | None = None,
        *,
        name: str = "test:function",
        check: Callable[[LLMRequest], None] | None = None,
        delay_s: float = 0.0,
    ) -> None:
        self._answer = answer
        self._offline = OfflineEngine()
        self._name = name
        self._check = check
        self.delay_s = delay_s
        self.requests: list[LLMRequest] = []

    @property
    def name(self) -> str:
        """The provider name it reports."""
        return self._name

    def __repr__(self) -> str:
        return f"FunctionLLM(name={self._name!r}, calls={len(self.requests)})"

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Record ``request`` and answer it with the function's output for its type.

        Args:
            request: the LLM request.
        """
        self.requests.append(request)
        if self._check is not None:
            self._check(request)
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        if self._answer is None:
            response = await self._offline.complete(request)
            response.model = self._name
            return response
        result = self._answer(request)
        if asyncio.iscoroutine(result) or isinstance(result, Awaitable):
            result = await result
        if isinstance(result, LLMResponse):
            return result
        return LLMResponse(
            output=result,
            model=self._name,
            usage=Usage(estimate_tokens(request.system + request.user), 10),
        )

    def requests_for(self, output_type: type[BaseModel]) -> list[LLMRequest]:
        """The requests asked for ``output_type`` (one role's calls), oldest first.

        Args:
            output_type: the answer model the requests asked for.
        """
        return [r for r in self.requests if r.output_type is output_type]


class ScriptedLLM(FunctionLLM):
    """Answers each output type from its script in order; unscripted types fall back to the
    offline engine (or raise, with ``strict=True``). A script entry that is an exception
    is raised instead of answered."""

    def __init__(
        self,
        script: dict[type[BaseModel], list[BaseModel | Exception]],
        *,
        strict: bool = False,
        name: str = "test:scripted",
    ) -> None:
        super().__init__(self._next, name=name)
        self._script = {k: list(v) for k, v in script.items()}
        self._strict = strict
        self._fallback = OfflineEngine()

    async def _next(self, request: LLMRequest) -> BaseModel | LLMResponse:
        queue = self._script.get(request.output_type)
        if queue:
            item = queue.pop(0)
            if isinstance(item, Exception):
                raise item
            return item
        if self._strict:
            raise ProviderError(
                f"ScriptedLLM has no answer left for {request.output_type.__name__}"
            )
        return await self._fallback.complete(request)


class StaticSearch:
    """Searches fixed documents (dicts with url, title, content[, snippet, domain]) by
    word overlap. ``queries`` records every search; ``delay_s`` slows each call;
    ``fail_on`` makes queries containing any of its words raise SearchError."""

    def __init__(
        self,
        documents: Iterable[dict[str, Any] | SearchHit],
        *,
        name: str = "test:static",
        delay_s: float = 0.0,
        fail_on: Iterable[str] = (),
        on_query: Callable[[str], None] | None = None,
    ) -> None:
        self.documents = [d if isinstance(d, SearchHit) else SearchHit(**d) for d in documents]
        self._name = name
        self.delay_s = delay_s
        self.fail_on = {w.lower() for w in fail_on}
        self.on_query = on_query
        self.queries: list[str] = []
        self.extracted: list[str] = []
        self.calls: dict[str, int] = defaultdict(int)

    @property
    def name(self) -> str:
        """The provider name it reports."""
        return self._name

    def __repr__(self) -> str:
        return f"StaticSearch({len(self.documents)} documents, {len(self.queries)} queries)"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        self.queries.append(query)
        self.calls["search"] += 1
        if self.on_query is not None:
            self.on_query(query)
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        if any(w in query.lower().split() for w in self.fail_on):
            raise SearchError(f"search failed for {query!r}", provider=self._name)
        q = term_set(query)
        scored = []
        for i, doc in enumerate(self.documents):
            overlap = len(q & term_set(doc.title)) * 3 + len(q & term_set(doc.content))
            if overlap:
                scored.append((-overlap, i, doc))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [d.model_copy() for _, _, d in scored[:max_results]]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The documents whose URL is in ``urls`` (copies).

        Args:
            urls: the pages asked for.
        """
        self.extracted.extend(urls)
        self.calls["extract"] += 1
        wanted = set(urls)
        return [d.model_copy() for d in self.documents if d.url in wanted]


class RecordingEvents:
    """An event sink that keeps every event: ``kinds("budget_fallback")`` lists the
    payloads of one kind, ``names()`` the kinds in order."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def emit(self, state: ResearchState, kind: str, payload: dict[str, Any]) -> None:
        """Keep the event.

        Args:
            state: the run's state.
            kind: the event kind.
            payload: its data.
        """
        self.events.append((kind, payload))

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        """The payloads of every event of ``kind``, in order.

        Args:
            kind: an event kind.
        """
        return [p for k, p in self.events if k == kind]

    def names(self) -> list[str]:
        """Every event's kind, in order."""
        return [k for k, _ in self.events]


class EmptySearch:
    """A search provider that finds nothing: for phases that must not search."""

    name = "test:empty"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """No hits, ever.

        Args:
            query: the search query.
            max_results: ignored.
        """
        return []

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """No pages, ever.

        Args:
            urls: ignored.
        """
        return []


def static_resolver(
    names: dict[str, list[str]] | None = None, *, default: str | None = "93.184.216.34"
) -> Callable[[str], Awaitable[list[str]]]:
    """A host-name resolver for ``UrlPolicy(resolver=...)`` that never touches DNS: ``names``
    maps a host to its addresses, ``localhost`` is loopback, any other host resolves to
    ``default`` (a public address), or fails like an unknown name when ``default`` is None."""
    table = {"localhost": ["127.0.0.1", "::1"], **(names or {})}

    async def resolve(host: str) -> list[str]:
        if host.lower() in table:
            return table[host.lower()]
        if default is None:
            raise OSError(f"unknown host {host}")
        return [default]

    return resolve


def context(
    llm: LLMProvider | None = None,
    search: SearchProvider | None = None,
    *,
    config: Config | None = None,
    events: EventSink | None = None,
    models: Mapping[str, LLMProvider] | ProviderFactory | None = None,
    cheap_spec: Callable[[str], str | None] | None = None,
    budget: TokenBudget | None = None,
    checkpoint: Checkpoint | None = None,
    today: str = "",
    **overrides: Any,
) -> RunContext:
    """The :class:`~deepresearch.context.RunContext` a phase (``await plan(state, ctx)``)
    or one of its helpers is called with in a test.

    Args:
        llm: the default model; by default a :class:`FunctionLLM` (the offline engine).
        search: the search provider; by default :class:`EmptySearch`.
        config: the configuration; by default ``Config`` built from ``overrides``.
        events: the event sink, e.g. a :class:`RecordingEvents` to assert on; by default
            a new ``RecordingEvents`` (``ctx.events``).
        models: the other model specs the run may route to (``role_models``): a mapping
            from spec to provider, or a function that builds one. With a mapping, a spec
            it lacks fails the test (``AssertionError``), as does any spec without one.
        cheap_spec: a vendor's small model for a spec (see ``ModelRouter``).
        budget: the token budget, when the test manages tokens.
        checkpoint: awaited with the state after each phase (e.g. to record its status).
        today: the date prompts give; by default ``Config.today``, else the real date.
        overrides: ``Config`` fields, when no ``config`` is given.
    """
    if config is not None and overrides:
        raise TypeError("pass either config or Config fields, not both")
    cfg = config if config is not None else Config.build(overrides)
    factory = models if callable(models) else _only(models or {})
    extra: dict[str, Any] = {"checkpoint": checkpoint} if checkpoint is not None else {}
    return RunContext(
        config=cfg,
        models=ModelRouter(cfg, llm or FunctionLLM(), factory, cheap_spec),
        search=search if search is not None else EmptySearch(),
        events=events if events is not None else RecordingEvents(),
        budget=budget,
        today=today,
        **extra,
    )


def _only(models: Mapping[str, LLMProvider]) -> ProviderFactory:
    def factory(spec: str) -> LLMProvider:
        if spec not in models:
            raise AssertionError(f"unexpected model spec {spec}")
        return models[spec]

    return factory


__all__ = [
    "EmptySearch",
    "FunctionLLM",
    "RecordingEvents",
    "ScriptedLLM",
    "StaticSearch",
    "context",
    "static_resolver",
]
