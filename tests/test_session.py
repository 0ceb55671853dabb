from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.roles import PlanInputs
from deepresearch.state import Phase, ResearchState, RunStatus
from deepresearch.testing import FunctionLLM, StaticSearch

QUESTION = "How did the printing press change Europe?"

METHODS = {
    Phase.CLARIFICATION: "clarify",
    Phase.BRIEF: "brief",
    Phase.PLANNING: "plan",
    Phase.GATHERING: "gather",
    Phase.SUPERVISION: "supervise",
    Phase.ANALYSIS: "analyze",
    Phase.SYNTHESIS: "synthesize",
    Phase.VERIFICATION: "verify",
    Phase.REFINEMENT: "refine",
}


def _session(search: StaticSearch, **kw: object) -> dr.Session:
    return dr.Session(QUESTION, llm="offline", search=search, persist=False, **kw)  # type: ignore[arg-type]


async def test_full_run_produces_cited_report(search: StaticSearch) -> None:
    s = _session(search)
    result = await s.run()
    assert result.status == RunStatus.COMPLETED and result.ok
    report = s.report
    assert report is not None
    for heading in ("Executive summary", "Key findings", "Conflicting information",
                    "Gaps and limitations", "Conclusion", "Sources"):  # fmt: skip
        assert f"## {heading}" in report.markdown
    body, sources = report.markdown.split("## Sources", 1)
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", body)}
    listed = [int(n) for n in re.findall(r"^(\d+)\. ", sources, re.M)]
    # every [n] resolves to a listed source, and no uncited source is listed
    assert cited == set(listed) == set(range(1, len(listed) + 1))
    assert len(report.cited_source_ids) == len(listed)
    gathered = {src.id for src in s.state.sources}
    assert set(report.cited_source_ids) <= gathered
    for n, sid in enumerate(report.cited_source_ids, 1):
        src = s.state.source(sid)
        assert src is not None and f"{n}. {src.title} — {src.url}" in sources


async def test_stepwise_equals_full_run(docs: list[dict[str, str]]) -> None:
    full = _session(StaticSearch(docs))
    await full.run()
    step = _session(StaticSearch(docs))
    while step.state.phase != Phase.DONE:
        await getattr(step, METHODS[step.state.phase])()
    assert step.state.status == RunStatus.COMPLETED
    assert step.report is not None and full.report is not None
    assert step.report.markdown == full.report.markdown
    assert [sq.query for sq in step.state.sub_queries] == [
        sq.query for sq in full.state.sub_queries
    ]


async def test_state_json_round_trip(search: StaticSearch) -> None:
    s = _session(search)
    await s.run()
    text = s.state.to_json()
    again = ResearchState.from_json(text)
    assert again == s.state
    assert again.to_json() == text


def test_bad_questions_are_typed_errors(search: StaticSearch) -> None:
    with pytest.raises(dr.InputError, match="empty"):
        dr.Session("   ", search=search, persist=False)
    with pytest.raises(dr.InputError, match="limit"):
        dr.Session("why " * 2000, search=search, persist=False)
    with pytest.raises(dr.InputError, match="must be a str, not int"):
        dr.Session(42, search=search, persist=False)  # type: ignore[arg-type]
    with pytest.raises(dr.InputError, match="bytes, not text"):
        dr.Session(b"why?", search=search, persist=False)  # type: ignore[arg-type]


@pytest.mark.parametrize("question", ["-", "?", "...", "¿?", "\ufffd\ufffd", "-- --"])
def test_a_question_without_a_word_is_a_typed_error(search: StaticSearch, question: str) -> None:
    # Nothing to research: such a run found nothing and still ended "completed".
    with pytest.raises(dr.InputError, match="no words"):
        dr.Session(question, search=search, persist=False)


@pytest.mark.parametrize("question", ["DNA?", "光合作用是什么？", "Что такое ДНК?", "E=mc2"])
def test_a_question_in_any_script_is_accepted(search: StaticSearch, question: str) -> None:
    assert dr.Session(question, search=search, persist=False).question == question


def test_undecodable_bytes_in_a_question_become_replacement_characters(
    search: StaticSearch,
) -> None:
    # What sys.argv holds for non-UTF-8 bytes on a UTF-8 terminal (surrogateescape).
    question = b"Who was Jos\xe9 Rizal?".decode("utf-8", "surrogateescape")
    s = dr.Session(question, search=search, persist=False)
    assert s.question == "Who was Jos\ufffd Rizal?"
    assert ResearchState.from_json(s.state.to_json()).question == s.question


def test_session_layers_config_file_env_passed_config_and_arguments(
    search: StaticSearch, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deepresearch.toml").write_text(
        'llm = "offline"\nmax_iterations = 2\nmax_sources_per_query = 4\n', encoding="utf-8"
    )
    monkeypatch.setenv("DEEPRESEARCH_MAX_SOURCES_PER_QUERY", "6")
    s = dr.Session(
        QUESTION, search=search, persist=False, config=dr.Config(max_sub_queries=3),
        max_iterations=1,
    )  # fmt: skip
    assert s.config.llm == "offline"  # toml falls through the passed Config
    assert s.config.max_sources_per_query == 6  # env beats toml
    assert s.config.max_sub_queries == 3  # set on the Config
    assert s.config.max_iterations == 1  # the argument beats the toml
    with pytest.raises(dr.ConfigError, match="max_sub_querys"):
        dr.Session(QUESTION, search=search, persist=False, max_sub_querys=3)


def test_store_false_is_a_deprecated_alias_of_persist_false(search: StaticSearch) -> None:
    with pytest.warns(DeprecationWarning, match="persist"):
        s = dr.Session(QUESTION, search=search, store=False)
    assert s.store is None and not s.config.persist


async def test_think_pause_guidance_reaches_the_next_phase(search: StaticSearch) -> None:
    llm = FunctionLLM()
    seen: list[str] = []

    def hook(state: ResearchState, prompt: str) -> str | None:
        seen.append(prompt)
        return "focus on literacy rates" if state.phase == Phase.BRIEF else None

    s = dr.Session(QUESTION, llm=llm, search=search, persist=False, hooks=[hook])
    await s.run()
    plan_inputs = [r.inputs for r in llm.requests if isinstance(r.inputs, PlanInputs)]
    assert plan_inputs and plan_inputs[0].guidance == ["focus on literacy rates"]
    assert (
        "focus on literacy rates"
        in next(r for r in llm.requests if isinstance(r.inputs, PlanInputs)).user
    )
    # the offline planner turns guidance into a sub-query, which gets researched
    guided = [sq for sq in s.state.sub_queries if "literacy" in sq.query.lower()]
    assert guided and guided[0].status.value == "completed"
    assert any(p.startswith("Planning complete") for p in seen)


async def test_hook_stop_ends_run_and_edits_apply(search: StaticSearch) -> None:
    def hook(state: ResearchState, prompt: str) -> dr.Steer | None:
        if state.phase == Phase.PLANNING:
            first = state.sub_queries[0]
            return dr.Steer(
                edit_sub_queries={first.id: "Gutenberg Bible movable type"},
                add_sub_queries=["printing press and the Reformation"],
            )
        if state.phase == Phase.GATHERING:
            return dr.Steer(stop=True)
        return None

    s = dr.Session(QUESTION, llm="offline", search=search, persist=False, hooks=[hook])
    result = await s.run()
    assert result.status == RunStatus.STOPPED
    assert "Gutenberg Bible movable type" in search.queries
    assert "printing press and the Reformation" in search.queries
    assert s.state.report is None


async def test_async_hook_answers_clarification(search: StaticSearch) -> None:
    async def hook(state: ResearchState, prompt: str) -> str | None:
        if prompt.startswith("Clarification needed"):
            return "its effect on book prices"
        return None

    s = dr.Session("printing", llm="offline", search=search, persist=False, hooks=[hook])
    await s.clarify()
    assert s.state.clarification is not None
    assert s.state.clarification.need_clarification
    assert s.state.clarification.answer == "its effect on book prices"
    await s.brief()
    assert "its effect on book prices" in (s.state.research_brief or "")


async def test_phase_completed_events_carry_their_duration(
    search: StaticSearch, tmp_path: Path
) -> None:
    from deepresearch.store import SessionStore

    store = SessionStore(tmp_path / "s.db")
    s = dr.Session(QUESTION, llm="offline", search=search, store=store)
    await s.run()
    done = [e for e in store.events(s.id) if e.kind == "phase_completed"]
    assert {e.payload["phase"] for e in done} >= {"planning", "gathering", "synthesis"}
    assert all(isinstance(e.payload["duration_s"], float) for e in done)
    # one event per phase run, with the duration its metrics recorded
    assert [(e.payload["phase"], e.payload["duration_s"]) for e in done] == [
        (m.phase.value, m.duration_s) for m in s.state.metrics
    ]


async def test_a_folder_as_search_is_a_local_corpus(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "press.md").write_text(
        "# Printing press\n\nThe printing press spread across Europe after 1450 and "
        "made books cheap enough for merchants to buy.\n",
        encoding="utf-8",
    )
    for search in (notes, str(notes)):
        s = dr.Session(QUESTION, search=search, persist=False, enable_clarification=False)
        assert s.config.corpus == notes and s.config.search == ["corpus"]
    await s.run()
    assert s.report is not None and "press.md" in s.report.markdown
    with pytest.raises(dr.InputError, match="not a folder"):
        dr.Session(QUESTION, search=tmp_path / "missing", persist=False)


# -- editable plans ----------------------------------------------------------------------
async def test_an_edited_sub_queries_frame_is_the_plan(search: StaticSearch) -> None:
    import pandas as pd

    s = _session(search, enable_clarification=False)
    await s.plan()
    df = s.sub_queries
    first, second, *rest = list(df.index)
    df.loc[first, "query"] = "printing press and literacy"  # reword (a copy: no warning)
    df = df.drop(index=second)  # remove
    df = pd.concat([df, pd.DataFrame({"query": ["printing press in Venice"]})])  # add
    assert s.sub_queries.loc[first, "query"] != "printing press and literacy"  # a copy

    await s.gather(sub_queries=df)

    plan = s.sub_queries
    assert plan.loc[first, "query"] == "printing press and literacy"
    assert plan.loc[first, "origin"] == "user"
    assert second not in plan.index
    added = plan[plan["query"] == "printing press in Venice"]
    assert len(added) == 1 and added["origin"].iloc[0] == "user"
    assert set(plan.index) == {first, *rest, added.index[0]}
    assert added["status"].iloc[0] != "pending"  # gathered
    steer = [d for d in s.state.decisions if d.action == "edit_plan"]
    assert len(steer) == 1 and steer[0].agent == "user"
    assert s.decisions.query("agent == 'user'")["action"].tolist() == ["edit_plan"]


async def test_plan_edits_to_finished_sub_queries_keep_their_sources(
    search: StaticSearch,
) -> None:
    s = _session(search, enable_clarification=False)
    await s.plan()
    await s.gather()
    done = s.sub_queries.index[0]
    n_sources = len(s.state.sources)
    changes = s.set_sub_queries(s.sub_queries.drop(index=done))
    assert changes == [f"kept {done}: it already ran, its sources stay"]
    assert done in s.sub_queries.index and len(s.state.sources) == n_sources
    with pytest.raises(dr.InputError, match="'query' column"):
        s.set_sub_queries(s.sources)
    empty = s.sub_queries
    empty.loc[done, "query"] = " "
    with pytest.raises(dr.InputError, match="empty query"):
        s.set_sub_queries(empty)


def test_add_sub_query_records_a_user_origin_and_unknown_ids_are_none() -> None:
    state = ResearchState(question=QUESTION)
    assert state.add_sub_query("x").origin == "user"
    assert state.sub_query("sq-99") is None


# -- phase order ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "first"),
    [("gather", "plan"), ("supervise", "plan"), ("analyze", "plan"), ("synthesize", "plan"),
     ("refine", "plan")],
)  # fmt: skip
async def test_a_phase_before_its_inputs_names_the_phase_to_run_first(
    search: StaticSearch, method: str, first: str
) -> None:
    s = _session(search)
    with pytest.raises(dr.PhaseOrderError, match=rf"run {first}\(\) first") as caught:
        await getattr(s, method)()
    assert caught.value.run_first == first
    assert s.state.metrics == []  # nothing ran


async def test_the_phase_named_is_the_earliest_missing_one(search: StaticSearch) -> None:
    s = _session(search, enable_clarification=False)
    await s.plan()
    with pytest.raises(dr.PhaseOrderError, match=r"run gather\(\) first"):
        await s.synthesize()
    await s.gather()
    with pytest.raises(dr.PhaseOrderError, match=r"run analyze\(\) first"):
        await s.synthesize()
    await s.analyze()
    with pytest.raises(dr.PhaseOrderError, match=r"run synthesize\(\) first"):
        await s.refine()


async def test_analyze_gathers_the_follow_ups_supervise_queued(search: StaticSearch) -> None:
    s = _session(search, enable_clarification=False)
    await s.plan()
    await s.gather()
    follow_up = s.state.add_sub_query("printing press and the Reformation", origin="supervision")
    await s.analyze()
    assert follow_up.status.value != "pending"
    assert [m.phase.value for m in s.state.metrics][-2:] == ["gathering", "analysis"]


async def test_refine_respects_should_iterate(search: StaticSearch) -> None:
    # A part no source answers leaves a gap, so only the iteration limit stops refining.
    question = "How did the printing press change Europe, and what did the Aztec calendar record?"
    s = dr.Session(question, llm="offline", search=search, persist=False,
                   enable_clarification=False, max_iterations=1)  # fmt: skip
    await s.plan()
    await s.gather()
    await s.analyze()
    await s.synthesize()
    assert await s.refine() is None  # iteration 1 of 1: the loop would not iterate
    assert s.state.iteration == 1
    assert s.state.decisions[-1].action == "refine_skipped"
    assert "iteration 1 of 1" in s.state.decisions[-1].rationale


async def test_run_sync_after_run_keeps_the_finished_status(search: StaticSearch) -> None:
    s = _session(search)
    await s.run()
    before = s.state.model_dump()
    result = await asyncio.to_thread(s.run_sync)  # a script calling run_sync later
    assert result.status == RunStatus.COMPLETED and s.status == RunStatus.COMPLETED
    assert s.state.model_dump() == before


def test_every_public_session_member_has_a_docstring() -> None:
    missing = [
        name
        for name, member in vars(dr.Session).items()
        if not name.startswith("_") and not (getattr(member, "__doc__", None) or "").strip()
    ]
    assert missing == []


async def test_sources_name_the_provider_that_returned_them_and_their_score(
    docs: list[dict[str, str]],
) -> None:
    from deepresearch.errors import SearchError
    from deepresearch.providers.fallback import FallbackSearch

    class Down(StaticSearch):
        async def search(self, query: str, *, max_results: int) -> list[dr.SearchHit]:
            raise SearchError("down", provider=self.name)

    chain = FallbackSearch([Down(docs, name="test:down"), StaticSearch(docs, name="test:up")])
    s = dr.Session(QUESTION, llm="offline", search=chain, persist=False)
    await s.run()
    sources = s.sources
    assert not sources.empty
    assert set(sources["provider"]) == {"test:up"}  # not the chain "test:down+test:up"
    assert sources["cited"].any()
    cited = sources[sources["cited"]].sort_values("citation")
    assert cited["citation"].tolist() == list(range(1, len(cited) + 1))
    assert s.report is not None
    for n, title in zip(cited["citation"], cited["title"], strict=True):
        assert f"{n}. {title}" in s.report.markdown


# -- streaming -----------------------------------------------------------------------------
async def test_stream_yields_typed_events_in_order(search: StaticSearch) -> None:
    seen: list[str] = []

    def hook(state: ResearchState, prompt: str) -> None:
        seen.append(prompt)

    s = _session(search, hooks=[hook], max_iterations=1)
    events = [event async for event in s.stream()]
    kinds = [e.kind for e in events]
    assert kinds[0] == "phase_started" and kinds[-1] == "run_finished"
    assert isinstance(events[-1], dr.RunFinished) and events[-1].status == s.status
    started = [e.phase for e in events if isinstance(e, dr.PhaseStarted)]
    finished = [e.phase for e in events if isinstance(e, dr.PhaseFinished)]
    assert started == finished == [m.phase for m in s.state.metrics]
    found = [e for e in events if isinstance(e, dr.SourceFound)]
    assert sorted(e.url for e in found) == sorted(src.url for src in s.state.sources)
    gathering_done = next(
        i for i, e in enumerate(events)
        if isinstance(e, dr.PhaseFinished) and e.phase == Phase.GATHERING
    )  # fmt: skip
    assert kinds.index("source_found") < gathering_done  # sources arrive while gathering runs
    findings = [e for e in events if isinstance(e, dr.FindingAdded)]
    assert {e.finding_id for e in findings} == {f.id for f in s.state.findings}
    pauses = [e for e in events if isinstance(e, dr.Paused)]
    assert [p.prompt for p in pauses] == seen
    ready = [e for e in events if isinstance(e, dr.ReportReady)]
    assert ready and s.report is not None and ready[-1].markdown == s.report.markdown


async def test_leaving_a_stream_early_cancels_the_run(search: StaticSearch) -> None:
    import contextlib

    s = _session(search)
    async with contextlib.aclosing(s.stream()) as events:
        async for event in events:
            if isinstance(event, dr.PhaseFinished) and event.phase == Phase.PLANNING:
                break
    assert s.status == RunStatus.CANCELLED
    assert s.state.sub_queries and not s.state.findings


async def test_save_writes_each_export_format(search: StaticSearch, tmp_path: Path) -> None:
    s = _session(search)
    await s.run()
    assert s.report is not None and s.report.citations
    first = s.report.citations[0]
    md = s.save(tmp_path / "out" / "r.md").read_text(encoding="utf-8")
    assert "### Report" in md or "# " in md
    page = s.save(tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and f'href="{first.url}"' in page
    bib = s.save(tmp_path / "r.bib").read_text(encoding="utf-8")
    assert bib.count("@misc{") == len(s.report.citations)
    csl = s.save(tmp_path / "r.csl.json", format="csl").read_text(encoding="utf-8")
    assert json.loads(csl)[0]["citation-number"] == first.number
    state = s.save(tmp_path / "r.json").read_text(encoding="utf-8")
    assert ResearchState.from_json(state).id == s.id
    with pytest.raises(dr.InputError, match="format"):
        s.save(tmp_path / "r.docx")


async def test_max_cost_usd_stops_cleanly_with_a_report_of_what_was_found(
    search: StaticSearch,
) -> None:
    llm = FunctionLLM()
    prices = {llm.name: (1000.0, 1000.0)}  # USD per million tokens: a few dollars a call
    s = dr.Session(QUESTION, llm=llm, search=search, persist=False, max_cost_usd=8.0,
                   price_overrides=prices, enable_clarification=False)  # fmt: skip
    result = await s.run()
    assert result.status == RunStatus.STOPPED
    assert (result.error or "").startswith("Cost ceiling reached")
    spent = sum(u.cost_usd for u in s.state.usage)
    assert 0 < spent <= 8.0
    assert s.state.sources  # what was gathered is kept
    assert s.report is not None and "## Sources" in s.report.markdown
    assert any("cost ceiling" in g.description for g in s.state.gaps)
    assert "cost ceiling" in s.report.markdown
    unlimited = dr.Session(QUESTION, llm=FunctionLLM(), search=search, persist=False,
                           price_overrides=prices, enable_clarification=False)  # fmt: skip
    assert (await unlimited.run()).status != RunStatus.STOPPED


def test_loading_from_a_store_that_does_not_exist_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A mistyped store path: say there is no store there, and leave no empty one behind.
    missing = tmp_path / "typo" / "sessions.db"
    with pytest.raises(dr.SessionNotFoundError, match="no store at") as caught:
        dr.Session.load("abc123", store=missing)
    assert str(missing) in str(caught.value)
    assert not missing.exists() and not missing.parent.exists()
    from deepresearch.cli.main import main

    assert main(["resume", "abc123", "--store", str(missing)]) == 2
    assert "no store at" in capsys.readouterr().err
    assert not missing.parent.exists()


async def test_a_cancelled_run_that_saves_nothing_does_not_say_it_is_saved(
    search: StaticSearch,
) -> None:
    messages: list[str] = []
    s = _session(search, progress=messages.append)

    def stop(state: ResearchState, prompt: str) -> None:
        s.cancel()

    s.hooks.append(stop)
    result = await s.run()
    assert result.status == RunStatus.CANCELLED and s.store is None
    said = messages[-1]
    assert said.startswith("cancelled during ") and "is saved" not in said, said
    assert "not saved" in said and "s.resume()" in said, said


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"hooks": [1]}, "hooks must be callables"),
        ({"hooks": print}, "hooks must be a list"),
        ({"progress": "log.txt"}, "progress must be a callable"),
        ({"llm": 123}, "llm must be a model spec"),
        ({"search": 3.5}, "search must be"),
        ({"config": {"max_iterations": 2}}, "config must be a deepresearch.Config"),
        ({"config": "deepresearch.toml"}, "Config.load"),
    ],
    ids=["hook-int", "hooks-not-list", "progress-str", "llm-int", "search-float", "config-dict",
         "config-path"],
)  # fmt: skip
def test_arguments_of_the_wrong_type_are_typed_errors_at_once(
    search: StaticSearch, kwargs: dict[str, object], expected: str
) -> None:
    # Not a TypeError mid-run, nor silently ignored (llm=123 ran with the default model).
    defaults: dict[str, object] = {"search": search, "persist": False}
    with pytest.raises(dr.InputError, match=expected):
        dr.Session(QUESTION, **(defaults | kwargs))  # type: ignore[arg-type]
