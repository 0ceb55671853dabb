"""Fetch-time summarization of long results, and the researcher's extract tool."""

from __future__ import annotations

import asyncio
from typing import Any

from topic_doubles import ScriptSearch, doc, make_context, new_state

from deepresearch.config import Config
from deepresearch.errors import ProviderError
from deepresearch.phases import prompts
from deepresearch.phases.topic import research_topic
from deepresearch.providers.base import LLMRequest
from deepresearch.roles import ReflectInputs, ReflectOutput, SummarizeInputs, SummaryOutput
from deepresearch.state import AgentRole, Novelty, Phase
from deepresearch.testing import FunctionLLM, ScriptedLLM, StaticSearch

G = Phase.GATHERING
DONE = ReflectOutput(research_complete=True, rationale="done")


def _long(subject: str, n: int = 10) -> str:
    return " ".join(
        f"Sentence {i} says the {subject} mattered in year {1440 + i}." for i in range(n)
    )


def _text_of_length(n: int) -> str:
    return ("printing press history " * 40)[:n]


def test_defaults_follow_the_seeds() -> None:
    cfg = Config()
    assert cfg.fetch_time_summarization and cfg.enable_extract
    assert cfg.summarization_min_chars == 300 and cfg.summarization_timeout_s == 60
    assert cfg.extract_max_per_iteration == 2


# -- fetch-time summarization --------------------------------------------------------------
async def test_long_results_get_a_summary_and_verbatim_excerpts_and_keep_the_raw_text(
    search: StaticSearch,
) -> None:
    llm = FunctionLLM()  # the offline engine summarises extractively
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("printing press Europe")
    await research_topic(state, ctx, sq, G)
    by_url = {s.url: s for s in state.sources}
    long_src = by_url["https://example.org/printing-press"]
    original = search.documents[0].content
    assert len(original) > 300
    asked = [r.inputs for r in llm.requests_for(SummaryOutput)]
    assert asked == [
        SummarizeInputs(
            query=sq.query,
            title="Printing press",
            url=long_src.url,
            content=original,
            question=state.question,
            today=ctx.today,
        )
    ]
    assert long_src.summarized and long_src.raw_content == original
    assert 1 <= len(long_src.excerpts) <= 5
    assert all(e in original for e in long_src.excerpts)  # quoted verbatim
    summary, excerpts = long_src.content.split("\n\nKey excerpts:\n")
    assert summary and summary != original
    assert excerpts.splitlines() == [f"- {e}" for e in long_src.excerpts]
    # the shorter results are left as they are
    for src in state.sources:
        if src is not long_src:
            assert not src.summarized and src.excerpts == []
            assert src.content == next(d.content for d in search.documents if d.url == src.url)


async def test_summary_text_is_what_the_reflection_reads() -> None:
    answer = SummaryOutput(
        executive_summary="  The press spread print.  ",
        key_excerpts=["Sentence 1 says the press mattered in year 1441.", "  "],
    )
    llm = ScriptedLLM({SummaryOutput: [answer], ReflectOutput: [DONE]})
    ctx, _ = make_context(llm, ScriptSearch([[doc(1, _long("press"))]]))
    state, (sq,) = new_state("press")
    await research_topic(state, ctx, sq, G)
    (src,) = state.sources
    assert src.excerpts == ["Sentence 1 says the press mattered in year 1441."]  # blanks dropped
    assert src.content == (
        "The press spread print.\n\nKey excerpts:\n"
        "- Sentence 1 says the press mattered in year 1441."
    )
    reflect = llm.requests_for(ReflectOutput)[0].inputs
    assert isinstance(reflect, ReflectInputs)
    # one a paragraph, so that a quoted table row or code line is not run into the next
    assert reflect.sources[0].text == (
        "The press spread print.\n\nSentence 1 says the press mattered in year 1441."
    )


async def test_only_results_longer_than_the_threshold_are_summarized() -> None:
    hits = [doc(1, _text_of_length(300)), doc(2, _text_of_length(301))]
    cases: list[tuple[dict[str, Any], list[bool]]] = [
        ({}, [False, True]),
        ({"summarization_min_chars": 100}, [True, True]),
    ]
    for config, expected in cases:
        llm = ScriptedLLM({ReflectOutput: [DONE]})
        ctx, _ = make_context(llm, ScriptSearch([hits]), **config)
        state, (sq,) = new_state("printing press")
        await research_topic(state, ctx, sq, G)
        assert [s.summarized for s in state.sources] == expected
        assert len(llm.requests_for(SummaryOutput)) == sum(expected)


async def test_the_summarizer_reads_at_most_the_input_cap_and_the_raw_text_stays_whole() -> None:
    page = _long("printing press", n=400)  # ~20,000 characters
    llm = FunctionLLM()
    ctx, _ = make_context(llm, ScriptSearch([[doc(1, page)]]), summarization_max_input_chars=5000)
    state, (sq,) = new_state("printing press")
    await research_topic(state, ctx, sq, G)
    (asked,) = [r.inputs for r in llm.requests_for(SummaryOutput)]
    assert isinstance(asked, SummarizeInputs)
    assert 2500 < len(asked.content) <= 5000
    assert asked.content.endswith(".") and page.startswith(asked.content)
    (src,) = state.sources
    assert src.summarized and src.raw_content == page


async def test_summarization_can_be_switched_off(search: StaticSearch) -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search, fetch_time_summarization=False)
    state, (sq,) = new_state("printing press Europe")
    await research_topic(state, ctx, sq, G)
    assert llm.requests_for(SummaryOutput) == []
    assert state.sources and not any(s.summarized for s in state.sources)
    assert state.sources[0].content == search.documents[0].content


async def test_a_summary_that_takes_too_long_falls_back_to_the_raw_text() -> None:
    slow = FunctionLLM(name="slow", delay_s=2.0)
    llm = FunctionLLM()
    text = _long("press")
    ctx, events = make_context(
        llm,
        ScriptSearch([[doc(1, text), doc(2, "short text about the press")]]),
        routes={"slow": slow},
        role_models={"summarization": "slow"},
        summarization_timeout_s=0.05,
    )
    state, (sq,) = new_state("press")
    topic = await research_topic(state, ctx, sq, G)
    assert [r.timeout_s for r in slow.requests] == [0.05]  # the provider is told too
    src = state.sources[0]
    assert not src.summarized and src.content == text and src.excerpts == []
    failed = events.kinds("summarization_failed")
    assert failed == [{"url": src.url, "error": "no answer within 0.05s"}]
    # the researcher carried on with the raw text
    assert topic.reflections and topic.compressed_findings is not None
    reflect = llm.requests_for(ReflectOutput)[0].inputs
    assert isinstance(reflect, ReflectInputs) and reflect.sources[0].text == text[:600]


async def test_a_failing_summarizer_falls_back_to_the_raw_text() -> None:
    def answer(request: LLMRequest) -> SummaryOutput | ReflectOutput:
        if request.output_type is SummaryOutput:
            raise ProviderError("summarizer down")
        return DONE

    llm = FunctionLLM(answer)
    text = _long("press")
    ctx, events = make_context(llm, ScriptSearch([[doc(1, text)]]), inline_compression=False)
    state, (sq,) = new_state("press")
    topic = await research_topic(state, ctx, sq, G)
    (src,) = state.sources
    assert not src.summarized and src.content == text
    assert events.kinds("summarization_failed")[0]["error"] == "summarizer down"
    assert events.kinds("llm_error")[0]["role"] == AgentRole.SUMMARIZER.value
    assert topic.stop_reason == "research complete: done"


async def test_results_are_summarized_concurrently() -> None:
    running = peak = 0

    async def answer(request: LLMRequest) -> SummaryOutput | ReflectOutput:
        nonlocal running, peak
        if request.output_type is not SummaryOutput:
            return DONE
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.02)
        running -= 1
        return SummaryOutput(executive_summary="summary")

    llm = FunctionLLM(answer)
    hits = [doc(i, _long(f"topic{i}")) for i in range(3)]
    ctx, _ = make_context(llm, ScriptSearch([hits]), inline_compression=False)
    state, (sq,) = new_state("press")
    await research_topic(state, ctx, sq, G)
    assert peak == 3 and all(s.summarized for s in state.sources)


# -- extract -------------------------------------------------------------------------------
SNIPPET = "The printing press spread across Europe."
FULL = _long("printing press in Europe", 8)


def _snippet_hit(n: int) -> dict[str, str]:
    return doc(n, SNIPPET, title=f"Printing press {n}", snippet=SNIPPET)


async def test_reflection_is_offered_the_urls_it_may_extract() -> None:
    hits = [doc(1, "printing press text"), doc(2, "more printing press text")]
    for enabled in (True, False):
        llm = ScriptedLLM({ReflectOutput: [DONE]})
        ctx, _ = make_context(llm, ScriptSearch([hits]), enable_extract=enabled)
        state, (sq,) = new_state("printing press")
        await research_topic(state, ctx, sq, G)
        request = llm.requests_for(ReflectOutput)[0]
        assert isinstance(request.inputs, ReflectInputs)
        urls = [h["url"] for h in hits] if enabled else []
        assert request.inputs.extractable_urls == urls
        assert request.inputs.max_extract == (2 if enabled else 0)
        # each source's URL is shown with it; the limit is said only when extracting is on
        assert all(f'url="{u}"' in request.user for u in urls)
        assert ("at most 2 of these URLs in urls_to_extract" in request.user) is enabled
        assert ("leave urls_to_extract empty" in request.user) is not enabled
    assert "urls_to_extract" in prompts.REFLECT_SYSTEM


async def test_reflection_recommends_snippet_only_results_and_extract_summarizes_them() -> None:
    pages = [doc(n, FULL, title=f"Printing press {n}") for n in (1, 2)]
    search = ScriptSearch([[_snippet_hit(1), _snippet_hit(2)]], pages)
    llm = FunctionLLM()  # the offline engine asks for the full text behind thin results
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("printing press Europe")
    topic = await research_topic(state, ctx, sq, G)
    assert topic.reflections[0].urls_to_extract == [p["url"] for p in pages]
    assert search.extracted == [[p["url"] for p in pages]]
    assert (topic.searches, topic.extracts) == (1, 1)
    assert len(state.sources) == 2  # the known sources are upgraded, not added again
    for src in state.sources:
        assert src.raw_content == FULL and src.summarized and src.excerpts
    summarized = [r.inputs for r in llm.requests_for(SummaryOutput)]
    assert [i.content for i in summarized if isinstance(i, SummarizeInputs)] == [FULL, FULL]


async def test_extracted_pages_are_summarized_side_by_side() -> None:
    pages = [doc(n, FULL, title=f"Printing press {n}") for n in (1, 2)]
    # both known sources come back longer: both summaries are asked before either answers
    search = ScriptSearch([[_snippet_hit(1), _snippet_hit(2)]], pages)
    log: list[str] = []
    offline = FunctionLLM()
    pick = ReflectOutput(research_complete=True, urls_to_extract=[p["url"] for p in pages])

    async def answer(request: LLMRequest) -> Any:
        if request.output_type is ReflectOutput:
            return pick
        if not isinstance(request.inputs, SummarizeInputs):
            return (await offline.complete(request)).output
        log.append(f"asked {request.inputs.url}")
        await asyncio.sleep(0.01)
        log.append("answered")
        return (await offline.complete(request)).output

    ctx, _ = make_context(FunctionLLM(answer), search)
    state, (sq,) = new_state("printing press Europe")
    await research_topic(state, ctx, sq, G)
    assert sorted(log[:2]) == [f"asked {p['url']}" for p in pages], log
    assert [s.summarized for s in state.sources] == [True, True]


async def test_extract_takes_at_most_the_configured_number_of_urls() -> None:
    pages = [doc(n, FULL, title=f"Page {n}") for n in (7, 8, 9)]
    urls = [p["url"] for p in pages]
    pick = ReflectOutput(research_complete=True, urls_to_extract=urls)
    for cap, taken in [(2, urls[:2]), (3, urls)]:
        llm = ScriptedLLM({ReflectOutput: [pick]})
        # the URL policy extracts only what a search returned: the search finds snippets
        found = [doc(1, "printing press"), *(doc(n, "press", title=f"Page {n}") for n in (7, 8, 9))]
        search = ScriptSearch([found], pages)
        ctx, _ = make_context(llm, search, extract_max_per_iteration=cap)
        state, (sq,) = new_state("printing press")
        topic = await research_topic(state, ctx, sq, G)
        assert search.extracted == [taken] and topic.extracts == 1
        # extracted pages upgrade the sources the search found, summarised
        assert [s.url for s in state.sources] == [h["url"] for h in found]
        assert topic.source_ids == [s.id for s in state.sources]
        by_url = {s.url: s for s in state.sources}
        assert all(by_url[u].raw_content == FULL and by_url[u].summarized for u in taken)


async def test_extracted_pages_get_novelty_tags_against_the_topics_sources() -> None:
    other = (
        "Venetian galleys carried pepper, silk and cotton from Alexandria to the Rialto. "
        "Merchants insured cargoes with notaries, and the Senate auctioned each convoy. "
        "Salt monopolies and glassmaking on Murano financed the lagoon's fleet."
    )
    pages = [doc(7, FULL, title="Copy"), doc(8, other, title="Venice")]
    pick = ReflectOutput(research_complete=True, urls_to_extract=[p["url"] for p in pages])
    llm = ScriptedLLM({ReflectOutput: [pick]})
    ctx, _ = make_context(llm, ScriptSearch([[doc(1, FULL)]], pages))
    state, (sq,) = new_state("printing press")
    state.question += " Read " + " and ".join(p["url"] for p in pages)  # user-given URLs
    topic = await research_topic(state, ctx, sq, G)
    by_title = {s.title: s for s in state.sources}
    assert by_title["Copy"].novelty == Novelty.DUPLICATE
    assert by_title["Venice"].novelty == Novelty.NEW
    assert topic.novelty_counts["duplicate"] == 1
    assert topic.novelty_counts["new"] == 2  # the searched page and the Venice page


async def test_extracted_sources_are_deduplicated_against_every_researchers_sources() -> None:
    first = [doc(1, FULL), doc(2, "printing press in Europe")]
    pages = [doc(1, "shorter printing press"), doc(2, FULL), doc(3, FULL)]
    search = ScriptSearch([first, [doc(4, "press")]], pages)
    urls = [p["url"] for p in pages]
    llm = ScriptedLLM(
        {
            ReflectOutput: [
                DONE,
                ReflectOutput(research_complete=True, urls_to_extract=urls),
            ]
        }
    )
    ctx, _ = make_context(llm, search, extract_max_per_iteration=3)
    state, (a, b) = new_state("printing press", "press")
    state.question += (
        f" See {urls[2]}"  # the URL policy extracts a page nobody found only if the user gave it
    )
    await research_topic(state, ctx, a, G)
    topic_b = await research_topic(state, ctx, b, G)
    all_urls = [s.url for s in state.sources]
    assert len(all_urls) == len(set(all_urls)) == 4
    # only the page nobody had found joins researcher b's topic
    assert [state.source(i).url for i in topic_b.source_ids] == [doc(4, "")["url"], urls[2]]  # type: ignore[union-attr]
    # a known source keeps its owner; it only gains text when the page is longer
    one, two = state.sources[0], state.sources[1]
    assert one.sub_query_id == two.sub_query_id == a.id
    assert one.raw_content == FULL and two.raw_content == FULL


async def test_an_extract_failure_is_not_fatal() -> None:
    again = ReflectOutput(
        continue_searching=True, refined_query="second", urls_to_extract=[doc(1, "")["url"]]
    )
    llm = ScriptedLLM({ReflectOutput: [again, DONE]})
    search = ScriptSearch([[doc(1, SNIPPET)], [doc(2, SNIPPET)]], fail_extract=True)
    ctx, events = make_context(llm, search)
    state, (sq,) = new_state("printing press")
    topic = await research_topic(state, ctx, sq, G)
    assert search.queries == ["printing press", "second"]  # research carried on
    assert (topic.searches, topic.extracts) == (2, 1)  # the failed call still counts
    assert [s.content for s in state.sources] == [SNIPPET, SNIPPET]
    (failed,) = events.kinds("extract_failed")
    assert failed["urls"] == [doc(1, "")["url"]] and "unavailable" in failed["error"]
    assert topic.stop_reason == "research complete: done"


async def test_extract_can_be_switched_off() -> None:
    pick = ReflectOutput(research_complete=True, urls_to_extract=[doc(1, "")["url"]])
    for config in ({"enable_extract": False}, {"extract_max_per_iteration": 0}):
        llm = ScriptedLLM({ReflectOutput: [pick]})
        search = ScriptSearch([[doc(1, SNIPPET)]], [doc(1, FULL)])
        ctx, _ = make_context(llm, search, **config)
        state, (sq,) = new_state("printing press")
        topic = await research_topic(state, ctx, sq, G)
        assert search.extracted == [] and topic.extracts == 0 and topic.tool_calls == 1
        assert state.sources[0].content == SNIPPET
