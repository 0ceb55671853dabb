"""The analysis phase: what it tells the analyzer about the parts already answered."""

from __future__ import annotations

from phase_support import add_source, completed
from topic_doubles import make_context

from deepresearch.phases.analyze import analyze
from deepresearch.roles import AnalysisOutput, AnalyzeInputs
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
