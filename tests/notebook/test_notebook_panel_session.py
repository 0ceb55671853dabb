"""The ThinkPausePanel steering a real Session: clicks and text edits change the next phase.

The session runs as a background task (``s.start()``), exactly as in a notebook; the test
plays the person by setting widget values and clicking the panel's buttons.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.notebook import PanelState, ThinkPausePanel
from deepresearch.roles import BriefInputs, BriefOutput, ClarifyOutput
from deepresearch.state import AgentRole, Phase, RunStatus, SubQueryStatus
from deepresearch.testing import FunctionLLM, ScriptedLLM, StaticSearch

DOCS = [
    {"url": "https://ex.org/press", "title": "Printing press",
     "content": "The printing press spread literacy and books across Europe after 1450."},
    {"url": "https://ex.org/reformation", "title": "Reformation pamphlets",
     "content": "Printed pamphlets carried Luther's ideas across Europe quickly."},
    {"url": "https://ex.org/paper", "title": "Paper mills in Italy",
     "content": "Paper mills in Italy such as Fabriano supplied cheap paper to printers."},
    {"url": "https://ex.org/venice", "title": "Venice printing",
     "content": "Venice became a centre of printing with Aldus Manutius and italic type."},
]  # fmt: skip
QUESTION = "How did the printing press change Europe?"
Answer = Callable[[ThinkPausePanel, Phase], None]


def approve(panel: ThinkPausePanel, phase: Phase) -> None:
    panel.approve_button.click()


async def drive(panel: ThinkPausePanel, task: asyncio.Task[dr.RunResult], answer: Answer,
                state: dr.ResearchState) -> dr.RunResult:  # fmt: skip
    """Answer every pause with `answer` until the background run ends."""
    while not task.done():
        waiter = asyncio.ensure_future(panel.wait_for_pause())
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if waiter.done():
            answer(panel, state.phase)
        else:
            waiter.cancel()
    return await task


def session(panel: ThinkPausePanel, llm: FunctionLLM, search: StaticSearch,
            store: dr.SessionStore | None = None) -> dr.Session:  # fmt: skip
    config = dr.Config(max_iterations=1, enable_supervision=False, max_sub_queries=2)
    return dr.Session(QUESTION, llm=llm, search=search, config=config, hooks=[panel],
                      store=store, persist=store is not None)  # fmt: skip


async def test_guidance_and_an_added_sub_query_reach_gathering() -> None:
    panel, llm, search = ThinkPausePanel(), FunctionLLM(), StaticSearch(DOCS)
    s = session(panel, llm, search)

    def answer(panel: ThinkPausePanel, phase: Phase) -> None:
        if phase == Phase.PLANNING:
            panel.new_sub_queries_box.value = "paper mills in Italy"
            panel.guidance_box.value = "Prefer primary sources."
        panel.approve_button.click()

    result = await drive(panel, s.start(), answer, s.state)
    assert result.status == RunStatus.COMPLETED
    added = s.sub_queries[s.sub_queries["query"] == "paper mills in Italy"]
    assert list(added["origin"]) == ["user"]
    assert list(added["status"]) == ["completed"]
    assert "paper mills in Italy" in search.queries
    assert "https://ex.org/paper" in set(s.sources["url"])
    # Every topic researcher's reflection in gathering carries the guidance, in its
    # structured inputs and in the prompt a remote model would read.
    reflections = [r for r in llm.requests if r.role == AgentRole.RESEARCHER]
    assert reflections and all(r.phase == Phase.GATHERING.value for r in reflections)
    assert all("Prefer primary sources." in r.inputs.guidance for r in reflections)  # type: ignore[attr-defined]
    assert all("Prefer primary sources." in r.user for r in reflections)
    planning = [r for r in llm.requests if r.phase == Phase.PLANNING.value]
    assert all("Prefer primary sources." not in getattr(r.inputs, "guidance", []) for r in planning)


async def test_edited_and_removed_sub_queries_change_what_is_searched() -> None:
    panel, search = ThinkPausePanel(), StaticSearch(DOCS)
    s = session(panel, FunctionLLM(), search)
    planned: list[str] = []

    def answer(panel: ThinkPausePanel, phase: Phase) -> None:
        if phase == Phase.PLANNING:
            first, *rest = list(panel.sub_query_texts)
            planned.extend(panel.sub_query_texts[i].value for i in [first, *rest])
            panel.sub_query_texts[first].value = "Venice printing Aldus Manutius"
            for sq_id in rest:
                panel.remove_boxes[sq_id].value = True
        panel.approve_button.click()

    await drive(panel, s.start(), answer, s.state)
    assert len(planned) >= 2
    assert "Venice printing Aldus Manutius" in search.queries
    assert not set(planned[1:]) & set(search.queries)  # removed ones were never searched
    assert s.sub_queries["query"].iloc[0] == "Venice printing Aldus Manutius"
    assert set(s.sub_queries["status"]) == {SubQueryStatus.COMPLETED.value}


async def test_stop_ends_the_run_with_its_state_saved(tmp_path: Path) -> None:
    panel, search = ThinkPausePanel(), StaticSearch(DOCS)
    store = dr.SessionStore(tmp_path / "sessions.db")
    s = session(panel, FunctionLLM(), search, store=store)
    searches_at_stop: list[int] = []

    def answer(panel: ThinkPausePanel, phase: Phase) -> None:
        if phase == Phase.PLANNING:
            searches_at_stop.append(len(search.queries))
            panel.stop_button.click()
        else:
            panel.approve_button.click()

    result = await drive(panel, s.start(), answer, s.state)
    assert result.status == RunStatus.STOPPED
    assert len(search.queries) == searches_at_stop[0]  # nothing gathered after the stop
    saved = dr.Session.load(s.id, store=store)
    assert saved.state.status == RunStatus.STOPPED
    assert len(saved.state.sub_queries) == len(s.state.sub_queries) > 0
    assert saved.state.report is None
    assert "stop" in set(saved.decisions["action"])


async def test_clarification_waits_for_the_persons_answer() -> None:
    panel = ThinkPausePanel()
    llm = ScriptedLLM(
        {ClarifyOutput: [ClarifyOutput(need_clarification=True, question="Which century?")]}
    )
    s = session(panel, llm, StaticSearch(DOCS))
    task = s.start()
    await panel.wait_for_pause()
    assert s.state.status == RunStatus.AWAITING_INPUT
    assert "Which century?" in panel.prompt_view.value
    assert "answer" in panel.guidance_box.placeholder
    assert not llm.requests_for(BriefOutput)  # nothing ran past the question
    panel.guidance_box.value = "The fifteenth and sixteenth centuries"
    panel.approve_button.click()
    await drive(panel, task, approve, s.state)
    assert s.state.clarification is not None
    assert s.state.clarification.answer == "The fifteenth and sixteenth centuries"
    briefs = [r.inputs for r in llm.requests if isinstance(r.inputs, BriefInputs)]
    assert [b.clarification_answer for b in briefs] == ["The fifteenth and sixteenth centuries"]


async def test_the_panel_and_progress_show_pauses_and_the_end_and_guidance_is_consumed() -> None:
    panel, messages = ThinkPausePanel(), []
    config = dr.Config(max_iterations=1, enable_supervision=False, max_sub_queries=2)
    s = dr.Session(QUESTION, llm=FunctionLLM(), search=StaticSearch(DOCS), config=config,
                   hooks=[panel], persist=False, progress=messages.append)  # fmt: skip
    seen: list[str] = []

    def answer(panel: ThinkPausePanel, phase: Phase) -> None:
        seen.append(messages[-1])  # what the progress line says while the pause waits
        if phase == Phase.PLANNING:
            panel.guidance_box.value = "Prefer primary sources."
        panel.approve_button.click()

    result = await drive(panel, s.start(), answer, s.state)
    assert result.status == RunStatus.COMPLETED
    assert seen and all(m.startswith("paused after ") for m in seen)
    assert "paused after planning: waiting for the think-pause hooks" in seen
    assert panel.state == PanelState.FINISHED and "completed" in panel.status.value
    gathering = [g for g in s.state.guidance if g.phase == Phase.GATHERING]
    assert [g.consumed for g in gathering] == [True]


async def test_cancel_while_the_panel_waits_ends_cancelled_and_saved(tmp_path: Path) -> None:
    panel, messages = ThinkPausePanel(), []
    store = dr.SessionStore(tmp_path / "sessions.db")
    s = session(panel, FunctionLLM(), StaticSearch(DOCS), store=store)
    s.progress = messages.append
    task = s.start()
    await panel.wait_for_pause()
    s.cancel()
    result = await task
    assert result.status == RunStatus.CANCELLED
    assert dr.Session.load(s.id, store=store).status == RunStatus.CANCELLED
    assert panel.state == PanelState.CANCELLED and "Cancelled" in panel.status.value
    assert messages[-1].startswith("cancelled during clarification: the state is saved")


def test_run_sync_refuses_a_panel_before_anything_runs() -> None:
    s = session(ThinkPausePanel(), FunctionLLM(), StaticSearch(DOCS))
    with pytest.raises(dr.BlockingRunError, match=r"s\.start\(\)"):
        s.run_sync()
    assert s.status == RunStatus.PENDING


async def test_run_sync_in_a_running_loop_uses_a_worker_thread_not_a_patched_loop() -> None:
    threads: list[threading.Thread] = []

    def hook(state: dr.ResearchState, prompt: str) -> None:
        threads.append(threading.current_thread())  # sync hooks run off the loop's thread

    s = session(ThinkPausePanel(), FunctionLLM(), StaticSearch(DOCS))
    s.hooks = [hook]
    loop = asyncio.get_running_loop()
    result = s.run_sync()  # blocks this loop's thread; runs on a loop of its own
    assert result.status == RunStatus.COMPLETED
    assert not hasattr(loop, "_nest_patched") and not hasattr(asyncio, "_nest_patched")
    assert threads and threading.current_thread() not in threads
    # Async use of the same loop still works afterwards.
    later = session(ThinkPausePanel(), FunctionLLM(), StaticSearch(DOCS))
    later.hooks = []
    assert (await later.run()).status == RunStatus.COMPLETED
