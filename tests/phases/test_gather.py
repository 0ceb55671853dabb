"""Gathering and the execution of supervisor directives: parallel researchers under the
concurrency cap, priority order, failure isolation, URL dedup and the search budget."""

from __future__ import annotations

from pathlib import Path

import pytest
from phase_support import (
    QUESTION,
    InFlightSearch,
    add_source,
    delegating_llm,
    fast_config,
    finished_with_every_phase_ok,
    offline_run_on_notes,
    paragraph,
    routed_llm,
    topic_docs,
)
from pydantic import BaseModel

from deepresearch.config import Config
from deepresearch.phases.gather import WORDS_ALONE, _report_failures, gather
from deepresearch.phases.supervise import supervise
from deepresearch.providers import vectors
from deepresearch.providers.base import LLMRequest
from deepresearch.providers.corpus import CorpusSearch, CorpusWarning
from deepresearch.roles import DelegationOutput, DirectiveDraft, ReflectInputs, ReflectOutput
from deepresearch.session import Session
from deepresearch.state import (
    CHECK,
    Outcome,
    Phase,
    PhaseMetrics,
    ResearchState,
    RunStatus,
    SubQueryStatus,
)
from deepresearch.testing import FunctionLLM, StaticSearch, context
from deepresearch.workflow.loop import Workflow
from deepresearch.workflow.outcomes import WARNINGS_HEADING

DOCS = topic_docs({"mainz": 3, "venice": 2, "paris": 2, "plague": 2, "lyon": 2, "basel": 2})


def _state(*queries: str) -> ResearchState:
    state = ResearchState(question=QUESTION, max_iterations=1)
    state.phase = Phase.GATHERING
    for q in queries:
        state.add_sub_query(q)
    return state


async def test_parallel_researchers_respect_max_concurrent_research_units() -> None:
    queries = ["mainz", "venice", "paris", "lyon", "basel", "plague"]
    for limit, expected in ((2, 2), (6, 6)):
        search = InFlightSearch(DOCS, delay_s=0.02)
        state = _state(*queries)
        ctx = context(
            FunctionLLM(), search, config=fast_config(max_concurrent_research_units=limit)
        )
        await gather(state, ctx)
        assert search.max_in_flight == expected
        assert all(sq.status == SubQueryStatus.COMPLETED for sq in state.sub_queries)


async def test_directive_researchers_respect_the_cap_across_rounds() -> None:
    search = InFlightSearch(DOCS, delay_s=0.01)
    # nothing is ever found, so coverage stays thin and the supervisor keeps delegating
    llm = delegating_llm(lambda n: [(f"obscure {w} {n}", 2) for w in ("one", "two", "three")])
    state = _state("unknown first", "unknown second", "unknown third")
    cfg = fast_config(
        max_concurrent_research_units=2, topic_max_tool_calls=1, max_supervision_rounds=3
    )
    await Workflow(context(llm, search, config=cfg)).run(state)
    # nothing found: the run ends, but says the question went unanswered
    assert state.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert state.run_warnings() and all(w.startswith("unanswered: ") for w in state.run_warnings())
    assert [len(r.directive_ids) for r in state.supervision_history] == [2, 2, 0]
    assert all(sq.status == SubQueryStatus.COMPLETED for sq in state.sub_queries)
    assert search.max_in_flight == 2


async def test_directive_priorities_set_execution_order() -> None:
    search = StaticSearch(DOCS)
    llm = delegating_llm(
        lambda n: [("venice archives", 3), ("mainz archives", 1), ("paris archives", 2)]
    )
    state = _state()
    state.phase = Phase.SUPERVISION
    await supervise(state, context(llm, search, config=fast_config()))
    assert [d.priority for d in state.directives] == [1, 2, 3]
    one_at_a_time = fast_config(max_concurrent_research_units=1, topic_max_tool_calls=1)
    await gather(state, context(llm, search, config=one_at_a_time))
    assert search.queries == ["mainz archives", "paris archives", "venice archives"]


async def test_one_failing_researcher_does_not_block_the_others() -> None:
    search = StaticSearch(DOCS, fail_on=["plague"])
    state = _state("mainz history", "plague outbreaks", "venice trade")
    report = await gather(state, context(FunctionLLM(), search, config=fast_config()))
    by_query = {sq.query: sq for sq in state.sub_queries}
    failed = by_query["plague outbreaks"]
    assert failed.status == SubQueryStatus.FAILED and failed.error and "plague" in failed.error
    for q in ("mainz history", "venice trade"):
        assert by_query[q].status == SubQueryStatus.COMPLETED and state.sources_for(by_query[q].id)
    assert report.summary["failed"] == 1 and any(failed.id in n for n in report.notes)


async def test_failing_directive_does_not_block_other_directives() -> None:
    search = StaticSearch(DOCS, fail_on=["plague"])
    llm = delegating_llm(lambda n: [("plague records", 1), ("lyon printers", 2)] if n == 1 else [])
    state = _state("mainz")
    cfg = fast_config(topic_max_tool_calls=1)
    await Workflow(context(llm, search, config=cfg)).run(state)
    # the run finishes, and says that one search failed
    assert state.status == RunStatus.COMPLETED_WITH_WARNINGS and state.report is not None
    assert any("searches failed" in w and "plague" in w for w in state.run_warnings())
    by_query = {sq.query: sq for sq in state.sub_queries}
    assert by_query["plague records"].status == SubQueryStatus.FAILED
    assert by_query["lyon printers"].status == SubQueryStatus.COMPLETED
    assert {s.domain for s in state.sources_for(by_query["lyon printers"].id)} == {
        "lyon0.example",
        "lyon1.example",
    }


async def test_new_sources_merge_into_state_with_url_dedup() -> None:
    state = _state("mainz printers", "mainz workshops")
    done = state.add_sub_query("mainz before")
    done.status = SubQueryStatus.COMPLETED
    known = add_source(state, done, "https://mainz0.example/page", domain="mainz0.example")
    ctx = context(FunctionLLM(), StaticSearch(DOCS), config=fast_config())
    report = await gather(state, ctx)

    urls = [s.url for s in state.sources]
    assert len(urls) == len(set(urls)) == 3  # three mainz documents, each once
    assert state.sources[0] is known and known.sub_query_id == done.id
    assert report.summary["new_sources"] == 2
    citations = [s.citation for s in state.sources]
    assert citations == list(range(1, len(citations) + 1))

    # a directive finding the same pages again adds nothing twice
    llm = delegating_llm(lambda n: [("mainz printing shops", 1), ("venice printing shops", 2)])
    ctx = context(llm, StaticSearch(DOCS), config=fast_config())
    state.phase = Phase.SUPERVISION
    await supervise(state, ctx)
    await gather(state, ctx)
    urls = [s.url for s in state.sources]
    assert len(urls) == len(set(urls)) == 5
    venice = state.sub_queries[-1]
    assert venice.query == "venice printing shops" and len(state.sources_for(venice.id)) == 2


async def test_total_search_budget_respected_across_delegation_rounds() -> None:
    delegations = {"n": 0}

    def respond(request: LLMRequest) -> BaseModel | None:
        if request.output_type is ReflectOutput:  # a researcher that never stops
            inputs = request.inputs
            assert isinstance(inputs, ReflectInputs)
            return ReflectOutput(
                continue_searching=True,
                refined_query=f"{inputs.queries_run[0]} angle {len(inputs.queries_run)}",
            )
        if request.output_type is DelegationOutput:  # a supervisor that never stops
            delegations["n"] += 1
            n = delegations["n"]
            return DelegationOutput(
                directives=[
                    DirectiveDraft(research_topic=paragraph(f"obscure question {n}-{k}"))
                    for k in range(3)
                ]
            )
        return None

    search = StaticSearch(DOCS)
    cfg = fast_config(topic_max_tool_calls=2, max_total_sub_queries=6)
    state = _state("unknown first", "unknown second")  # thin coverage: delegation never stops
    await Workflow(context(routed_llm(respond), search, config=cfg)).run(state)

    assert finished_with_every_phase_ok(state)
    assert len(state.sub_queries) == cfg.max_total_sub_queries  # the cap was reached...
    assert "cap" in state.supervision_history[-1].stop_reason  # ...and ended delegation
    assert all(t.tool_calls == cfg.topic_max_tool_calls for t in state.topic_results)
    assert search.calls["search"] == sum(t.searches for t in state.topic_results)
    assert search.calls["search"] <= cfg.max_total_sub_queries * cfg.topic_max_tool_calls


async def test_gathering_checkpoints_after_each_topic() -> None:
    saved: list[int] = []

    async def checkpoint(state: ResearchState) -> None:
        saved.append(sum(sq.status != SubQueryStatus.PENDING for sq in state.sub_queries))

    state = _state("mainz", "venice", "paris")
    ctx = context(
        FunctionLLM(), StaticSearch(DOCS), config=fast_config(max_concurrent_research_units=1)
    )
    ctx.checkpoint = checkpoint
    await gather(state, ctx)
    assert saved == [1, 2, 3]


def test_a_corpus_file_that_could_not_be_read_is_a_warning_of_the_run(tmp_path: Path) -> None:
    corpus = tmp_path / "notes"
    corpus.mkdir()
    (corpus / "press.md").write_text("# Printing press\n\nGutenberg built a press around 1440.\n")
    (corpus / "garbled.txt").write_bytes(bytes(range(1, 256)) * 4)  # no encoding reads it
    session = Session(
        "What did Gutenberg build?", search=corpus, config=Config(persist=False), llm="offline"
    )
    with pytest.warns(CorpusWarning):
        session.run_sync()
    warnings = session.state.run_warnings()
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert len(warnings) == 1 and "garbled.txt (not UTF-8 text" in warnings[0]
    assert "garbled.txt" in session.report.markdown  # the report's Limitations say it too


@pytest.mark.parametrize("installed", [True, False])
def test_a_corpus_searched_without_dense_vectors_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, installed: bool
) -> None:
    """Without wordllama the corpus is searched by words alone, which finds fewer answers
    worded otherwise: the run completes with a warning saying which extra to install."""
    monkeypatch.setattr(vectors, "available", lambda: installed)
    session = offline_run_on_notes(tmp_path / "notes")
    state = session.state
    said = [w for w in state.run_warnings() if "words alone" in w]
    if installed:
        assert not said and state.status == RunStatus.COMPLETED
        return
    assert said == [CHECK + WORDS_ALONE]  # once, though every gathering searched
    assert state.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert "deepresearch-sdk[vectors]" in session.report.markdown.split(WARNINGS_HEADING)[1]
    assert "Gutenberg built a press" in session.report.markdown  # the words still found it


def test_a_corpus_file_read_in_a_guessed_encoding_is_a_warning_not_a_degradation(
    tmp_path: Path,
) -> None:
    pytest.importorskip("charset_normalizer")
    corpus = tmp_path / "notes"
    corpus.mkdir()
    (corpus / "press.md").write_text("# Printing press\n\nGutenberg built a press around 1440.\n")
    menu = "Le café servait une crème brûlée ; « naïve » façade, 5 € la part.\n"
    (corpus / "menu.txt").write_bytes(menu.encode("cp1252"))
    session = Session(
        "What did Gutenberg build?", search=corpus, config=Config(persist=False), llm="offline"
    )
    session.run_sync()
    state = session.state
    assert all(m.outcome == Outcome.OK for m in state.metrics)  # nothing was lost
    (warning,) = state.run_warnings()
    assert warning.startswith(CHECK)
    assert f"{corpus / 'menu.txt'} (read as cp1252)" in warning and "press.md" not in warning
    assert state.status == RunStatus.COMPLETED_WITH_WARNINGS
    limits = session.report.markdown.split(WARNINGS_HEADING)[1]
    assert "menu.txt (read as cp1252)" in limits
    assert "did not work as configured" not in limits  # not said to be a degraded run
    gathering = [w for m in state.metrics if m.phase == Phase.GATHERING for w in m.warnings]
    assert gathering == [warning.removeprefix(CHECK)]  # said once, by the first gathering


def test_what_a_gathering_cut_short_said_about_the_corpus_a_resumed_one_says_again(
    tmp_path: Path,
) -> None:
    # An interrupted (failed) gathering is superseded by the run that resumes it, so its
    # record no longer counts: the resumed run must say the corpus findings again, once.
    pytest.importorskip("charset_normalizer")
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "old.txt").write_bytes(bytes(range(1, 256)) * 4)  # no encoding reads it
    menu = "Le café servait une crème brûlée ; « naïve » façade, 5 € la part.\n"
    (folder / "menu.txt").write_bytes(menu.encode("cp1252"))
    corpus = CorpusSearch(folder, index_path=tmp_path / "index.sqlite")
    with pytest.warns(CorpusWarning):
        corpus.index()
    state = ResearchState(question=QUESTION)

    def gathering_run() -> None:
        state.metrics.append(PhaseMetrics(phase=Phase.GATHERING, iteration=state.iteration))
        _report_failures(state, [], 1, corpus)

    gathering_run()
    state.metrics[-1].outcome = Outcome.FAILED  # cut short later in the phase
    gathering_run()  # the resumed run
    state.iteration = 2
    gathering_run()  # the next iteration's: nothing new to say
    warnings = state.run_warnings()
    assert len([w for w in warnings if "old.txt (not UTF-8" in w]) == 1
    assert len([w for w in warnings if "menu.txt (read as cp1252)" in w]) == 1
