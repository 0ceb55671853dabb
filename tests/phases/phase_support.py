"""Shared builders for the supervision and gathering tests (imported by basename)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from deepresearch import Session
from deepresearch.config import Config
from deepresearch.offline import OfflineEngine
from deepresearch.providers.base import LLMRequest, LLMResponse, SearchHit
from deepresearch.roles import DelegationOutput, DirectiveDraft, ThinkOutput
from deepresearch.state import (
    UNANSWERED,
    Phase,
    ResearchState,
    Source,
    SourceQuality,
    SubQuery,
    SubQueryStatus,
)
from deepresearch.state.models import FINISHED_STATUSES
from deepresearch.testing import FunctionLLM, StaticSearch

QUESTION = "How did the printing press change Europe?"


def fast_config(**overrides: Any) -> Config:
    """A config for phase tests: no summarisation calls, one iteration, no extract."""
    base: dict[str, Any] = {
        "max_iterations": 1,
        "fetch_time_summarization": False,
        "enable_extract": False,
        "token_management_enabled": False,
        "persist": False,
        "task_timeout_s": None,
    }
    base.update(overrides)
    return Config(**base)


def add_source(
    state: ResearchState,
    sq: SubQuery,
    url: str,
    *,
    domain: str = "",
    quality: SourceQuality = SourceQuality.MEDIUM,
    content: str = "",
) -> Source:
    src = state.new_source(
        url=url,
        title=f"Title of {url}",
        snippet=f"Snippet about {url}",
        content=content or f"Content about {url}.",
        sub_query_id=sq.id,
        domain=domain,
    )
    src.quality = quality
    return src


def completed(state: ResearchState, query: str) -> SubQuery:
    sq = state.add_sub_query(query)
    sq.status = SubQueryStatus.COMPLETED
    return sq


def covered_state(queries: Iterable[str], per_query: int = 2) -> ResearchState:
    """Every query completed with ``per_query`` sources, each from its own domain."""
    state = ResearchState(question=QUESTION)
    state.phase = Phase.SUPERVISION
    for qi, query in enumerate(queries):
        sq = completed(state, query)
        for k in range(per_query):
            add_source(state, sq, f"https://d{qi}-{k}.example/{k}", domain=f"d{qi}-{k}.example")
    return state


def topic_docs(topics: dict[str, int]) -> list[dict[str, str]]:
    """Documents keyed by a distinctive word; ``n`` documents per word, each its own domain."""
    docs = []
    for word, n in topics.items():
        for k in range(n):
            docs.append(
                {
                    "url": f"https://{word}{k}.example/page",
                    "title": f"{word} document {k}",
                    "content": f"The {word} record number {k} says something specific about {word}.",
                    "domain": f"{word}{k}.example",
                }
            )
    return docs


class InFlightSearch(StaticSearch):
    """A slowed StaticSearch that measures how many searches run at the same time."""

    def __init__(self, documents: Iterable[dict[str, Any] | SearchHit], **kw: Any) -> None:
        super().__init__(documents, **kw)
        self.in_flight = 0
        self.max_in_flight = 0

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(0)
            return await super().search(query, max_results=max_results)
        finally:
            self.in_flight -= 1


Responder = Callable[[LLMRequest], BaseModel | None]


def routed_llm(respond: Responder) -> FunctionLLM:
    """A FunctionLLM that answers with ``respond(request)``, or the offline engine when it
    returns None."""
    offline = OfflineEngine()

    async def answer(request: LLMRequest) -> BaseModel | LLMResponse:
        out = respond(request)
        if out is None:
            return await offline.complete(request)
        return out

    return FunctionLLM(answer)


def paragraph(subject: str) -> str:
    return (
        f"{subject}. Investigate this from the perspective of historians of the period and "
        f"look for primary sources that describe {subject} with dates and named actors."
    )


def delegating_llm(
    topics: Callable[[int], list[tuple[str, int]]], think: str = "gap analysis"
) -> FunctionLLM:
    """A supervisor that on its n-th delegation (1-based) proposes ``topics(n)`` as
    (subject, priority) directives; every other role is the offline engine."""
    calls = {"delegate": 0}

    def respond(request: LLMRequest) -> BaseModel | None:
        if request.output_type is ThinkOutput:
            return ThinkOutput(gap_analysis=think, gaps=[think])
        if request.output_type is DelegationOutput:
            calls["delegate"] += 1
            drafts = [
                DirectiveDraft(research_topic=paragraph(s), priority=p)
                for s, p in topics(calls["delegate"])
            ]
            return DelegationOutput(directives=drafts, rationale="more to do")
        return None

    return routed_llm(respond)


def finished_with_every_phase_ok(state: ResearchState) -> bool:
    """The run finished and no phase degraded: its only warnings, if any, name parts of the
    question that a thin test corpus leaves unanswered."""
    return state.status in FINISHED_STATUSES and all(
        w.startswith(UNANSWERED) for w in state.run_warnings()
    )


def offline_run_on_notes(folder: Path) -> Session:
    """An offline run over a one-file corpus in ``folder`` ("What did Gutenberg build?"),
    finished: for the warnings a run over a user's files gives."""
    folder.mkdir()
    (folder / "press.md").write_text("# Printing press\n\nGutenberg built a press around 1440.\n")
    session = Session(
        "What did Gutenberg build?", search=folder, config=Config(persist=False), llm="offline"
    )
    session.run_sync()
    return session
