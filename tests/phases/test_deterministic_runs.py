"""The same question, config and answers give the same prompts and report, whatever order
parallel researchers finish in."""

from __future__ import annotations

import asyncio
import re

import deepresearch as dr
from deepresearch.offline import OfflineEngine
from deepresearch.providers.base import LLMRequest, LLMResponse, SearchHit
from deepresearch.testing import FunctionLLM, StaticSearch

QUESTION = "How did the printing press change Europe?"


class OrderedSearch(StaticSearch):
    """A StaticSearch whose answers arrive later the earlier the query was first seen
    (``reverse``) or the later it was (not ``reverse``)."""

    def __init__(self, documents: list[dict[str, str]], *, reverse: bool) -> None:
        super().__init__(documents)
        self.reverse = reverse
        self.first_seen: dict[str, int] = {}

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        k = self.first_seen.setdefault(query, len(self.first_seen))
        await asyncio.sleep(0.002 * (10 - k if self.reverse else k))
        return await super().search(query, max_results=max_results)


def _llm(reverse: bool) -> FunctionLLM:
    offline = OfflineEngine()

    async def answer(request: LLMRequest) -> LLMResponse:
        scope = re.search(r"(\d+)", request.user[:400])
        k = int(scope.group(1)) % 7 if scope else 0
        await asyncio.sleep(0.001 * (7 - k if reverse else k))
        return await offline.complete(request)

    return FunctionLLM(answer)


async def _run(docs: list[dict[str, str]], reverse: bool) -> tuple[dr.Session, FunctionLLM]:
    llm = _llm(reverse)
    config = dr.Config(max_concurrent_research_units=4, max_sub_queries=4, max_iterations=2)
    session = dr.Session(
        QUESTION, llm=llm, search=OrderedSearch(docs, reverse=reverse), config=config, persist=False
    )
    await session.run()
    return session, llm


def _prompts(llm: FunctionLLM) -> list[tuple[str, str, str, str]]:
    return sorted((r.phase, r.role.value, r.system, r.user) for r in llm.requests)


async def test_one_question_twice_gives_the_same_prompts_tokens_and_report(
    docs: list[dict[str, str]],
) -> None:
    first, first_llm = await _run(docs, reverse=False)
    second, second_llm = await _run(docs, reverse=True)
    assert first.state.sub_queries and len(first.state.topic_results) > 1
    assert _prompts(first_llm) == _prompts(second_llm)
    assert [(s.id, s.url) for s in first.state.sources] == [
        (s.id, s.url) for s in second.state.sources
    ]
    tokens = [sum(u.input_tokens for u in s.state.usage) for s in (first, second)]
    assert tokens[0] == tokens[1]
    assert first.report is not None and second.report is not None
    assert first.report.markdown == second.report.markdown


def test_settling_numbers_by_sub_query_then_rank_and_folds_shared_urls() -> None:
    from deepresearch.phases.settle import add_provisional_source, settle_sources
    from deepresearch.state import ResearchState, TopicResult

    state = ResearchState(question=QUESTION)
    first, second = state.add_sub_query("a"), state.add_sub_query("b")
    # the second researcher finished first, and both found https://shared
    b1 = add_provisional_source(state, second, url="https://b1")
    b2 = add_provisional_source(state, second, url="https://shared")
    a1 = add_provisional_source(state, first, url="https://shared")
    assert (b1.citation, b2.citation, a1.citation) == (1, 2, 1)  # local numbers
    state.topic_results = [
        TopicResult(
            sub_query_id=second.id,
            source_ids=[b1.id, b2.id],
            compressed_findings="- x [1]\n- y [2, 1]",
        ),
        TopicResult(sub_query_id=first.id, source_ids=[a1.id], compressed_findings="- z [1]"),
    ]
    assert settle_sources(state) == 3
    assert [(s.id, s.url, s.sub_query_id) for s in state.sources] == [
        ("src-1", "https://shared", first.id),
        ("src-2", "https://b1", second.id),
    ]
    b_topic, a_topic = state.topic_results
    assert b_topic.source_ids == ["src-2", "src-1"] and a_topic.source_ids == ["src-1"]
    assert b_topic.compressed_findings == "- x [2]\n- y [1, 2]"
    assert a_topic.compressed_findings == "- z [1]"
