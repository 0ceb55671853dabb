"""The analysis phase: what it tells the analyzer about the parts already answered."""

from __future__ import annotations

from phase_support import add_source, completed
from pydantic import BaseModel
from topic_doubles import make_context

from deepresearch.phases.analyze import analyze
from deepresearch.providers.base import LLMRequest
from deepresearch.roles import AnalysisOutput, AnalyzeInputs, GapDraft
from deepresearch.state import Finding, ResearchState
from deepresearch.testing import FunctionLLM, StaticSearch

QUESTION = "What erupts from volcanoes, and how did the printing press spread in Europe?"


async def test_the_parts_earlier_findings_answer_reach_the_analyzer_and_stay_answered() -> None:
    state = ResearchState(question=QUESTION)
    first = "What erupts from volcanoes"
    state.findings.append(Finding(id="f-1", content="Volcanoes erupt lava.", category=first))
    state.findings.append(Finding(id="f-2", content="Lava is molten rock.", category=first))
    state.iteration = 2  # this iteration's source was gathered for the second part only
    sq = completed(state, "printing press Europe")
    add_source(state, sq, "https://e.org/press", content="The printing press spread to "
               "two hundred European cities by 1500, printing millions of books.")  # fmt: skip
    state.sources[-1].iteration = 2
    llm = FunctionLLM()
    ctx, _ = make_context(llm, StaticSearch([]))
    await analyze(state, ctx)
    (request,) = llm.requests_for(AnalysisOutput)
    assert isinstance(request.inputs, AnalyzeInputs)
    assert request.inputs.answered_parts == [first]
    assert not any(g.description.endswith(first) for g in state.gaps)


async def test_a_gap_found_again_is_recorded_once_with_the_latest_reason() -> None:
    # The description stays the same across iterations; the reason may change.
    part = "No source found answers this part of the question: how did the press spread"
    reasons = iter(["no source examined matches it", "its findings state none of its words"])

    def answer(request: LLMRequest) -> BaseModel:
        if request.output_type is AnalysisOutput:
            return AnalysisOutput(gaps=[GapDraft(description=part, reason=next(reasons))])
        raise AssertionError(request.output_type)

    state = ResearchState(question=QUESTION)
    sq = completed(state, "printing press Europe")
    add_source(state, sq, "https://e.org/press", content="Presses spread across Europe.")
    ctx, _ = make_context(FunctionLLM(answer), StaticSearch([]))
    await analyze(state, ctx)
    # (The question's parts, which no finding addresses, are gaps of their own.)
    mine = [g for g in state.gaps if g.description == part]
    assert [(g.description, g.reason) for g in mine] == [(part, "no source examined matches it")]
    state.iteration = 2
    state.sources[-1].iteration = 2
    await analyze(state, ctx)
    mine = [g for g in state.gaps if g.description == part]
    assert [(g.description, g.reason) for g in mine] == [
        (part, "its findings state none of its words")
    ]


async def test_a_later_iteration_that_matches_nothing_keeps_the_reason_it_gave_before() -> None:
    # The analyzer sees only each iteration's own sources: one that found nothing for the
    # part does not replace why the earlier sources did not answer it.
    part = "No source found answers this part of the question: how did the press spread"
    reasons = iter(["its findings state none of its words", "no source examined matches it"])

    def answer(request: LLMRequest) -> BaseModel:
        if request.output_type is AnalysisOutput:
            return AnalysisOutput(gaps=[GapDraft(description=part, reason=next(reasons))])
        raise AssertionError(request.output_type)

    state = ResearchState(question=QUESTION)
    sq = completed(state, "printing press Europe")
    add_source(state, sq, "https://e.org/press", content="Presses spread across Europe.")
    ctx, _ = make_context(FunctionLLM(answer), StaticSearch([]))
    await analyze(state, ctx)
    state.iteration = 2
    state.sources[-1].iteration = 2
    await analyze(state, ctx)
    [mine] = [g for g in state.gaps if g.description == part]
    assert mine.reason == "its findings state none of its words"
