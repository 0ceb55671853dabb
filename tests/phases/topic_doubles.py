"""Shared pieces for the topic-researcher tests: a run context over the shipped test
doubles, a search that answers from a script, and an event recorder."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from deepresearch.context import RunContext
from deepresearch.errors import SearchError
from deepresearch.offline import OfflineEngine
from deepresearch.providers.base import LLMProvider, LLMRequest, LLMResponse, SearchHit
from deepresearch.roles import ReflectInputs, ReflectOutput
from deepresearch.state import ResearchState, SubQuery
from deepresearch.testing import RecordingEvents, context

QUESTION = "How did the printing press change Europe?"
_OFFLINE = OfflineEngine()


class ScriptSearch:
    """Search answers with the next batch of ``batches`` (then nothing); extract answers
    from ``pages`` by URL, or raises SearchError when ``fail_extract`` is set."""

    def __init__(
        self,
        batches: Iterable[Iterable[dict[str, Any]]],
        pages: Iterable[dict[str, Any]] = (),
        *,
        fail_extract: bool = False,
    ) -> None:
        self.batches = [[SearchHit(**d) for d in batch] for batch in batches]
        self.pages = {p["url"]: SearchHit(**p) for p in pages}
        self.fail_extract = fail_extract
        self.queries: list[str] = []
        self.extracted: list[list[str]] = []

    @property
    def name(self) -> str:
        return "test:script"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        n = len(self.queries)
        self.queries.append(query)
        batch = self.batches[n] if n < len(self.batches) else []
        return [h.model_copy() for h in batch[:max_results]]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        self.extracted.append(list(urls))
        if self.fail_extract:
            raise SearchError("extract service unavailable", provider=self.name)
        return [self.pages[u].model_copy() for u in urls if u in self.pages]


def doc(n: int | str, content: str, *, title: str | None = None, **extra: Any) -> dict[str, Any]:
    """A search hit as a dict, at https://example.org/<n>."""
    return {
        "url": f"https://example.org/{n}",
        "title": title if title is not None else f"Document {n}",
        "content": content,
        **extra,
    }


def make_context(
    llm: LLMProvider,
    search: Any,
    *,
    routes: dict[str, LLMProvider] | None = None,
    **config: Any,
) -> tuple[RunContext, RecordingEvents]:
    """A run context with ``llm`` as the default model; ``routes`` maps extra model specs
    (named in ``role_models``) to providers."""
    events = RecordingEvents()
    return context(llm, search, events=events, models=routes, **config), events


def new_state(*queries: str) -> tuple[ResearchState, list[SubQuery]]:
    state = ResearchState(question=QUESTION)
    return state, [state.add_sub_query(q) for q in queries]


def reflect_with(
    decide: Callable[[ReflectInputs, int], ReflectOutput | None],
) -> Callable[[LLMRequest], Any]:
    """An answer function for FunctionLLM: reflections come from ``decide(inputs, n)``
    (n counts reflections from 1; None defers to the offline engine), everything else
    from the offline engine."""
    count = 0

    async def answer(request: LLMRequest) -> BaseModel | LLMResponse:
        nonlocal count
        if isinstance(request.inputs, ReflectInputs):
            count += 1
            decision = decide(request.inputs, count)
            if decision is not None:
                return decision
        return await _OFFLINE.complete(request)

    return answer
