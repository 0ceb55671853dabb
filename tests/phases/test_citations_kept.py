"""Compressed and condensed text keeps its [n] citations, or is not used."""

from __future__ import annotations

import asyncio
import re

from phase_support import QUESTION, add_source, completed, fast_config

from deepresearch.budget.degrade import Condenser, DegradationLevel
from deepresearch.phases.topic import compress_topic
from deepresearch.roles import CompressOutput, CondenseOutput
from deepresearch.state import Phase, ResearchState, TopicResult
from deepresearch.testing import FunctionLLM, ScriptedLLM, context
from deepresearch.testing.literal import LiteralLLM

CITED = "- Presses spread to 250 towns [1]. Eight million books by 1500 [2]."


def _topic_state() -> tuple[ResearchState, TopicResult]:
    state = ResearchState(question=QUESTION)
    sq = completed(state, QUESTION)
    for k in (1, 2):
        add_source(state, sq, f"https://s{k}.example/page", content=f"Fact number {k}.")
    topic = TopicResult(sub_query_id=sq.id, source_ids=["src-1", "src-2"], queries=[sq.query])
    state.topic_results.append(topic)
    return state, topic


def _compress(llm: FunctionLLM | LiteralLLM) -> TopicResult:
    state, topic = _topic_state()
    ctx = context(llm, config=fast_config())
    asyncio.run(compress_topic(state, ctx, state.sub_queries[0], topic, Phase.GATHERING))
    return topic


def test_a_literal_compressor_cites_every_source_it_was_given() -> None:
    topic = _compress(LiteralLLM())
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", topic.compressed_findings or "")}
    assert cited == {1, 2}


def test_a_digest_that_cites_no_source_is_a_failed_compression() -> None:
    llm = ScriptedLLM({CompressOutput: [CompressOutput(compressed="- Presses spread widely.")]})
    topic = _compress(llm)
    assert topic.compressed_findings is None
    assert topic.compression_error and "cite none" in topic.compression_error


def _condense(answer: str) -> str:
    state, _ = _topic_state()
    llm = ScriptedLLM({CondenseOutput: [CondenseOutput(text=answer)]})
    ctx = context(llm, config=fast_config())
    condenser = Condenser(cache_enabled=False, timeout_s=5, call_budget=lambda spec: 4000)
    out = asyncio.run(
        condenser.condense(
            state, ctx, phase="analysis", text=CITED * 4, level=DegradationLevel.CONDENSED,
            target=40, count_spec="offline",
        )
    )  # fmt: skip
    assert "[n] citation marker" in llm.requests[0].system
    return out.text


def test_condensed_text_keeps_citations_or_falls_back_to_truncation() -> None:
    assert _condense("Presses spread to 250 towns [1].") == "Presses spread to 250 towns [1]."
    kept = _condense("Presses spread widely.")  # the summary lost every [n]
    assert re.search(r"\[\d\]", kept) and kept in CITED * 4
