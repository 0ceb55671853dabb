"""Per-topic compression: inline when a researcher finishes, the global step as the
fallback (never compressing twice), token accounting, and analysis reading the result."""

from __future__ import annotations

import re
from typing import Any

from topic_doubles import make_context, new_state

from deepresearch.errors import ProviderError
from deepresearch.phases import prompts
from deepresearch.phases.analyze import analyze
from deepresearch.phases.gather import compress_pending_topics, gather
from deepresearch.phases.topic import research_topic
from deepresearch.providers.base import LLMRequest, LLMResponse
from deepresearch.roles import (
    AnalysisOutput,
    AnalyzeInputs,
    CompressInputs,
    CompressOutput,
    ReflectOutput,
)
from deepresearch.state import AgentRole, Phase, ResearchState
from deepresearch.testing import FunctionLLM, StaticSearch

G = Phase.GATHERING
SIMPLE = "printing press Europe"
# two topics with sources of their own (two results a search)
QUERIES = ("Gutenberg movable type", "Protestant Reformation Luther")
TWO: dict[str, Any] = {"max_sources_per_query": 2}


def _compressions(llm: FunctionLLM) -> list[CompressInputs]:
    out = [r.inputs for r in llm.requests_for(CompressOutput)]
    assert all(isinstance(i, CompressInputs) for i in out)
    return out  # type: ignore[return-value]


def _failing_compressor(times: int) -> FunctionLLM:
    """The offline engine, except that the first ``times`` compressions fail."""
    offline = FunctionLLM()
    failures = times

    async def answer(request: LLMRequest) -> LLMResponse:
        nonlocal failures
        if request.output_type is CompressOutput and failures:
            failures -= 1
            raise ProviderError("compressor down")
        return await offline.complete(request)

    return FunctionLLM(answer)


def _compressed(state: ResearchState) -> dict[str, str | None]:
    return {t.sub_query_id: t.compressed_findings for t in state.topic_results}


# -- inline compression ------------------------------------------------------------------
async def test_inline_compression_fills_the_topic_result_with_cited_findings(
    search: StaticSearch,
) -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state(SIMPLE)
    topic = await research_topic(state, ctx, sq, G)
    assert topic.compressed_findings and topic.compression_error is None
    (request,) = llm.requests_for(CompressOutput)
    assert request.system == prompts.COMPRESS_SYSTEM and request.phase == G.value
    # every source goes in with its citation number and its fetch-time summary and verbatim
    # excerpts (made from up to 50,000 characters), not the top of its raw text
    (inputs,) = _compressions(llm)
    sources = [state.source(i) for i in topic.source_ids]
    assert [(s.id, s.citation) for s in inputs.sources] == [
        (s.id, s.citation) for s in sources if s
    ]
    summarized = [s for s in sources if s and s.summarized]
    assert summarized, "the long conftest document is summarised at fetch time"
    for src in summarized:
        view = next(v for v in inputs.sources if v.id == src.id)
        assert src.raw_content and view.text != src.raw_content[: len(view.text)]
        assert all(e in view.text for e in src.excerpts) and view.text in request.user
    # and the [n] citations survive into the compressed findings
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", topic.compressed_findings)}
    assert cited == {s.citation for s in sources if s}


async def test_every_topic_is_compressed_by_the_end_of_gathering(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search, **TWO)
    state, sqs = new_state(*QUERIES)
    await gather(state, ctx)
    assert set(_compressed(state)) == {sq.id for sq in sqs}
    assert all(_compressed(state).values())
    assert len(_compressions(llm)) == len(sqs)  # one call per topic
    assert {i.sub_query for i in _compressions(llm)} == set(QUERIES)


async def test_a_topic_without_sources_is_not_compressed() -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, StaticSearch([]))
    state, (sq,) = new_state("nothing to find")
    topic = await research_topic(state, ctx, sq, G)
    assert topic.compressed_findings is None and topic.compression_error is None
    assert llm.requests_for(CompressOutput) == []


async def test_inline_compression_failure_is_not_fatal(search: StaticSearch) -> None:
    llm = _failing_compressor(times=1)
    ctx, events = make_context(llm, search)
    state, (sq,) = new_state(SIMPLE)
    topic = await research_topic(state, ctx, sq, G)
    assert topic.compressed_findings is None
    assert topic.compression_error == "ProviderError: compressor down"
    assert events.kinds("compression_failed") == [{"sub_query": sq.id, "error": "compressor down"}]
    assert topic.source_ids and topic.stop_reason.startswith("research complete")
    # the global step picks the topic up again
    assert await compress_pending_topics(state, ctx, Phase.ANALYSIS) == 1
    assert topic.compressed_findings and topic.compression_error is None


async def test_inline_compression_that_times_out_is_not_fatal(search: StaticSearch) -> None:
    slow = FunctionLLM(name="slow", delay_s=2.0)
    ctx, events = make_context(
        FunctionLLM(),
        search,
        routes={"slow": slow},
        role_models={"compression": "slow"},
        compression_timeout_s=0.05,
        **TWO,
    )
    state, sqs = new_state(*QUERIES)
    await gather(state, ctx)
    assert all(sq.status.value == "completed" for sq in sqs)
    assert all(
        t.compression_error == "TimeoutError: no answer within 0.05s" for t in state.topic_results
    )
    assert [r.timeout_s for r in slow.requests] == [0.05, 0.05]
    assert len(events.kinds("compression_failed")) == 2


# -- the flag and the global step ----------------------------------------------------------
async def test_with_inline_compression_off_the_global_step_compresses_after_all_topics(
    search: StaticSearch,
) -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search, inline_compression=False, **TWO)
    state, (first, _) = new_state(*QUERIES)
    topic = await research_topic(state, ctx, first, G)
    assert topic.compressed_findings is None and llm.requests_for(CompressOutput) == []
    state.topic_results.clear()
    state.sources.clear()
    await gather(state, ctx)
    assert all(_compressed(state).values()) and len(_compressions(llm)) == 2
    kinds = [r.output_type for r in llm.requests]
    last_reflection = max(i for i, k in enumerate(kinds) if k is ReflectOutput)
    first_compression = kinds.index(CompressOutput)
    assert first_compression > last_reflection  # deferred until every topic finished


async def test_with_compression_off_nothing_is_compressed(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search, enable_compression=False, **TWO)
    state, _sqs = new_state(*QUERIES)
    await gather(state, ctx)
    await analyze(state, ctx)
    assert llm.requests_for(CompressOutput) == []
    assert not any(_compressed(state).values())
    (request,) = llm.requests_for(AnalysisOutput)
    assert isinstance(request.inputs, AnalyzeInputs)
    assert request.inputs.topics == [] and all(v.text for v in request.inputs.sources)


async def test_the_global_step_does_not_compress_a_topic_twice(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search, **TWO)
    state, sqs = new_state(*QUERIES)
    await gather(state, ctx)
    before = _compressed(state)
    assert len(_compressions(llm)) == len(sqs)
    assert await compress_pending_topics(state, ctx, Phase.ANALYSIS) == 0
    await analyze(state, ctx)  # analysis runs the global step as its fallback
    assert len(_compressions(llm)) == len(sqs) and _compressed(state) == before


# -- token accounting ----------------------------------------------------------------------
async def test_topic_token_usage_includes_inline_compression(search: StaticSearch) -> None:
    ctx, _ = make_context(FunctionLLM(), search)
    state, (sq,) = new_state(SIMPLE)
    topic = await research_topic(state, ctx, sq, G)
    records = [u for u in state.usage if u.scope == sq.id]
    compression = [u for u in records if u.role == AgentRole.COMPRESSOR.value]
    assert len(compression) == 1 and compression[0].input_tokens > 0
    assert {u.role for u in records} >= {"research", "summarization", "compression"}
    assert topic.input_tokens == sum(u.input_tokens for u in records)
    assert topic.output_tokens == sum(u.output_tokens for u in records)
    assert topic.input_tokens > sum(u.input_tokens for u in records if u not in compression)


async def test_topic_token_usage_includes_global_compression(search: StaticSearch) -> None:
    ctx, _ = make_context(FunctionLLM(), search, inline_compression=False, **TWO)
    state, _sqs = new_state(*QUERIES)
    await gather(state, ctx)
    for topic in state.topic_results:
        records = [u for u in state.usage if u.scope == topic.sub_query_id]
        assert AgentRole.COMPRESSOR.value in {u.role for u in records}
        assert topic.input_tokens == sum(u.input_tokens for u in records)


# -- analysis ------------------------------------------------------------------------------
async def test_analysis_reads_the_compressed_findings(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search, **TWO)
    state, _sqs = new_state(*QUERIES)
    await gather(state, ctx)
    await analyze(state, ctx)
    (request,) = llm.requests_for(AnalysisOutput)
    inputs = request.inputs
    assert isinstance(inputs, AnalyzeInputs)
    assert {t.sub_query_id: t.compressed for t in inputs.topics} == _compressed(state)
    for digest in inputs.topics:
        assert digest.compressed and digest.compressed in request.user
    # a source whose content is in a digest is listed without its text
    digested = {i for t in inputs.topics for i in t.source_ids}
    assert digested == {s.id for s in state.sources}
    assert all(v.text == "" for v in inputs.sources)
    assert state.findings, "the offline analyzer finds claims in the compressed text"
