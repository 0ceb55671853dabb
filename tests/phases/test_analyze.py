"""The analysis phase: what it tells the analyzer about the parts already answered."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from phase_support import add_source, completed, offline_run_on_notes
from pydantic import BaseModel
from topic_doubles import make_context

from deepresearch import RunStatus
from deepresearch.phases.analyze import analyze
from deepresearch.providers import vectors
from deepresearch.providers.base import LLMRequest
from deepresearch.roles import AnalysisOutput, AnalyzeInputs, FindingDraft, GapDraft
from deepresearch.state import CHECK, Finding, ResearchState
from deepresearch.testing import FunctionLLM, StaticSearch

# the module (``deepresearch.phases`` exports its phase function under the same name)
analyze_phase = importlib.import_module("deepresearch.phases.analyze")

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


async def test_the_findings_earlier_iterations_filed_reach_the_analyzer_with_their_sources() -> (
    None
):
    state = ResearchState(question=QUESTION)
    first = "What erupts from volcanoes"
    sq = completed(state, "volcanoes")
    src = add_source(state, sq, "https://e.org/volcano#L1-9")
    state.findings.append(
        Finding(id="f-1", content="Volcanoes erupt lava.", category=first, source_ids=[src.id])
    )
    llm = FunctionLLM()
    ctx, _ = make_context(llm, StaticSearch([]))
    await analyze(state, ctx)
    (request,) = llm.requests_for(AnalysisOutput)
    assert isinstance(request.inputs, AnalyzeInputs)
    assert request.inputs.earlier_answers == [
        (first, [src.title, "https://e.org/volcano"], "Volcanoes erupt lava.")
    ]


_PRESS_GAP = "No source found answers this part of the question: how did the press spread"


async def _reasons_over_two_iterations(reasons: list[str]) -> list[list[str | None]]:
    """The reasons recorded for one gap after each of two analyses, the model giving
    ``reasons`` in turn (each iteration's analyzer sees only that iteration's sources)."""
    given = iter(reasons)

    def answer(request: LLMRequest) -> BaseModel:
        if request.output_type is AnalysisOutput:
            return AnalysisOutput(gaps=[GapDraft(description=_PRESS_GAP, reason=next(given))])
        raise AssertionError(request.output_type)

    state = ResearchState(question=QUESTION)
    sq = completed(state, "printing press Europe")
    add_source(state, sq, "https://e.org/press", content="Presses spread across Europe.")
    ctx, _ = make_context(FunctionLLM(answer), StaticSearch([]))
    recorded: list[list[str | None]] = []
    for iteration in (1, 2):
        state.iteration = iteration
        state.sources[-1].iteration = iteration
        await analyze(state, ctx)
        # (The question's parts, which no finding addresses, are gaps of their own.)
        recorded.append([g.reason for g in state.gaps if g.description == _PRESS_GAP])
    return recorded


async def test_a_gap_found_again_is_recorded_once_with_the_latest_reason() -> None:
    # The description stays the same across iterations; the reason may change.
    recorded = await _reasons_over_two_iterations(
        ["no source examined matches it", "its findings state none of its words"]
    )
    assert recorded == [["no source examined matches it"], ["its findings state none of its words"]]


async def test_a_later_iteration_that_matches_nothing_keeps_the_reason_it_gave_before() -> None:
    # One that found nothing for the part does not replace why the earlier sources did not
    # answer it.
    recorded = await _reasons_over_two_iterations(
        ["its findings state none of its words", "no source examined matches it"]
    )
    assert recorded[-1] == ["its findings state none of its words"]


@pytest.mark.parametrize("installed", [True, False])
def test_the_offline_analysis_without_wordfreq_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, installed: bool
) -> None:
    """Without wordfreq the offline analysis weighs the asker's everyday words as rare and
    finds fewer answers: the run completes with a warning saying which extra to install."""
    share = analyze_phase.everyday_share()
    monkeypatch.setattr(analyze_phase, "everyday_share", lambda: share if installed else None)
    monkeypatch.setattr(vectors, "available", lambda: True)
    session = offline_run_on_notes(tmp_path / "notes")
    said = [w for w in session.state.run_warnings() if "wordfreq" in w]
    if installed:
        assert not said and session.state.status == RunStatus.COMPLETED
        return
    assert said == [CHECK + analyze_phase.EVERYDAY_WORDS_UNWEIGHED]  # once a run
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert "deepresearch-sdk[vectors]" in session.report.markdown


async def test_a_finding_of_a_text_file_keeps_the_code_spans_the_file_writes() -> None:
    # The analyzer reads a statement's words as plain text; a Markdown file writes its code
    # names in backticks, and so is it quoted; an HTML page shows no backticks.
    said = "Mark the --version option with is_eager=True so that it runs first."
    written = "Mark the `--version` option with `is_eager=True` so that it runs first."
    state = ResearchState(question="How do I make --version run first?")
    sq = completed(state, "version first")
    markdown = add_source(state, sq, "/docs/options.md#L3-9", content=written)
    page = add_source(state, sq, "/docs/options.html", content=written)

    def answer(request: LLMRequest) -> BaseModel:
        drafts = [FindingDraft(content=said, source_ids=[s.id]) for s in (markdown, page)]
        return AnalysisOutput(findings=drafts)

    ctx, _ = make_context(FunctionLLM(answer), StaticSearch([]))
    await analyze(state, ctx)
    assert [f.content for f in state.findings] == [written, said]
