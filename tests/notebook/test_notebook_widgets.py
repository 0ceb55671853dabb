"""Drive ThinkPausePanel through its own widget events, as a person would."""

from __future__ import annotations

import asyncio
import threading

import ipywidgets as w
import pytest

from deepresearch.notebook import PanelState, ThinkPausePanel
from deepresearch.state import Clarification, Phase, ResearchState, RunStatus
from deepresearch.workflow.hooks import Steer, apply_edits


async def pause(panel: ThinkPausePanel, state: ResearchState) -> asyncio.Task[Steer]:
    task = asyncio.create_task(panel(state, "Review the plan."))
    await panel.wait_for_pause()
    return task


async def test_approve_returns_guidance_edits_additions_and_removals(
    rich_state: ResearchState,
) -> None:
    panel = ThinkPausePanel()
    task = await pause(panel, rich_state)
    assert "Review the plan." in panel.prompt_view.value
    assert set(panel.remove_boxes) == {"sq-3"}  # only pending sub-queries can be removed
    panel.sub_query_texts["sq-3"].value = "printing press and astronomy"
    panel.sub_query_texts["sq-1"].value = "printing press literacy rates by country"
    panel.new_sub_queries_box.value = "paper mills\n\n  printing in Venice  \n"
    panel.guidance_box.value = "Prefer primary sources."
    panel.approve_button.click()
    steer = await task
    assert steer == Steer(
        guidance="Prefer primary sources.",
        edit_sub_queries={
            "sq-1": "printing press literacy rates by country",
            "sq-3": "printing press and astronomy",
        },
        add_sub_queries=["paper mills", "printing in Venice"],
    )
    assert panel.answers == [steer]
    assert not panel.waiting and panel.approve_button.disabled
    # The Steer means what the person meant once the workflow applies it.
    changes = apply_edits(rich_state, steer)
    assert rich_state.sub_query("sq-3").query == "printing press and astronomy"  # type: ignore[union-attr]
    assert any("re-asked sq-1" in c for c in changes)
    assert rich_state.has_sub_query("printing in Venice")


async def test_remove_checkbox_and_emptied_text_remove_pending_sub_queries() -> None:
    state = ResearchState(question="q")
    state.add_sub_query("a")
    state.add_sub_query("b")
    panel = ThinkPausePanel()
    task = await pause(panel, state)
    panel.remove_boxes["sq-1"].value = True
    panel.sub_query_texts["sq-2"].value = "   "
    panel.approve_button.click()
    steer = await task
    assert sorted(steer.remove_sub_queries) == ["sq-1", "sq-2"]
    assert not steer.edit_sub_queries


async def test_approve_without_changes_is_an_empty_steer(rich_state: ResearchState) -> None:
    panel = ThinkPausePanel()
    task = await pause(panel, rich_state)
    panel.approve_button.click()
    assert (await task).is_empty
    assert "unchanged" in panel.status.value


async def test_stop_button_stops(rich_state: ResearchState) -> None:
    panel = ThinkPausePanel()
    task = await pause(panel, rich_state)
    panel.guidance_box.value = "enough"
    panel.new_sub_queries_box.value = "ignored"
    panel.stop_button.click()
    steer = await task
    assert steer.stop and steer.guidance == "enough" and not steer.add_sub_queries


async def test_click_from_another_thread_resolves_on_the_loop(rich_state: ResearchState) -> None:
    panel = ThinkPausePanel()
    task = await pause(panel, rich_state)
    panel.guidance_box.value = "from a thread"
    clicker = threading.Thread(target=panel.approve_button.click)
    clicker.start()
    steer = await task
    clicker.join()
    assert steer.guidance == "from a thread"


async def test_clicks_while_idle_do_nothing() -> None:
    panel = ThinkPausePanel()
    panel.approve_button.click()
    assert "Nothing is waiting" in panel.status.value
    assert panel.answers == []


async def test_timeout_approves_unchanged_and_says_so(rich_state: ResearchState) -> None:
    panel = ThinkPausePanel(timeout_s=0.05)
    steer = await panel(rich_state, "p")
    assert steer.is_empty
    assert "continued unchanged" in panel.status.value
    assert panel.state == PanelState.TIMED_OUT
    with pytest.raises(ValueError):
        ThinkPausePanel(timeout_s=0)


async def test_panel_escapes_web_text_and_asks_for_an_answer_when_clarifying() -> None:
    state = ResearchState(question="<img src=x onerror=alert(1)>")
    state.clarification = Clarification(need_clarification=True, question="Which era?")
    panel = ThinkPausePanel()
    task = asyncio.create_task(panel(state, "Clarify: <b>Which era?</b>"))
    await panel.wait_for_pause()
    assert "<b>Which era?</b>" not in panel.prompt_view.value
    assert "answer" in panel.guidance_box.placeholder
    panel.guidance_box.value = "The 15th century"
    panel.approve_button.click()
    assert (await task).guidance == "The 15th century"


async def test_summary_shows_what_changed_since_the_last_pause(rich_state: ResearchState) -> None:
    panel = ThinkPausePanel()
    task = await pause(panel, rich_state)
    assert "(+3)" in panel.summary_view.value  # three sources on the first pause
    panel.approve_button.click()
    await task
    rich_state.new_source(url="https://b.org", title="b")
    task = await pause(panel, rich_state)
    assert "<b>4</b> sources (+1)" in panel.summary_view.value
    panel.approve_button.click()
    await task


def from_browser(widget: object, data: dict[str, object]) -> None:
    """Deliver a comm message as the Jupyter frontend sends it (what a real click or
    keystroke becomes in the kernel)."""
    widget._handle_msg({"content": {"data": data}, "buffers": []})  # type: ignore[attr-defined]


def typed(widget: object, value: object) -> None:
    from_browser(widget, {"method": "update", "state": {"value": value}, "buffer_paths": []})


def clicked(button: object) -> None:
    from_browser(button, {"method": "custom", "content": {"event": "click"}})


async def test_frontend_messages_drive_the_panel(rich_state: ResearchState) -> None:
    panel = ThinkPausePanel()
    task = await pause(panel, rich_state)
    typed(panel.guidance_box, "Prefer primary sources.")
    typed(panel.sub_query_texts["sq-1"], "literacy rates in 1500")
    typed(panel.remove_boxes["sq-3"], True)
    typed(panel.new_sub_queries_box, "paper mills")
    clicked(panel.approve_button)
    steer = await asyncio.wait_for(task, 5)
    assert steer == Steer(
        guidance="Prefer primary sources.",
        edit_sub_queries={"sq-1": "literacy rates in 1500"},
        remove_sub_queries=["sq-3"],
        add_sub_queries=["paper mills"],
    )
    task = await pause(panel, rich_state)
    clicked(panel.stop_button)
    assert (await asyncio.wait_for(task, 5)).stop


def labels(panel: ThinkPausePanel) -> list[str]:
    """The description (a <label> in the browser) of every input the panel shows, in order."""
    found: list[str] = []

    def walk(widget: object) -> None:
        if isinstance(widget, w.Textarea | w.Text | w.Checkbox):
            found.append(widget.description)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(panel.widget)
    return found


async def test_clarification_shows_only_the_labelled_answer_box_first() -> None:
    state = ResearchState(question="q")
    state.clarification = Clarification(need_clarification=True, question="Which era?")
    panel = ThinkPausePanel()
    task = asyncio.create_task(panel(state, "Clarification needed: Which era?"))
    await panel.wait_for_pause()
    assert labels(panel) == ["Your answer to the clarifying question"]
    assert panel.new_sub_queries_box not in panel.widget.children
    assert panel.state == PanelState.WAITING and "Waiting" in panel.status.value
    panel.approve_button.click()
    await task
    assert panel.state == PanelState.CONTINUED and "Continued" in panel.status.value


async def test_every_input_is_labelled_and_ordered_by_the_pause(
    rich_state: ResearchState,
) -> None:
    panel = ThinkPausePanel()
    rich_state.phase = Phase.PLANNING
    task = await pause(panel, rich_state)
    shown = labels(panel)
    assert all(shown) and len(shown) == len(set(shown))  # every input has its own label
    assert shown[:4] == ["sq-1 (completed)", "sq-2 (completed)", "sq-3 (pending)", "remove sq-3"]
    assert shown[-2:] == ["New sub-queries (one per line)", "Guidance for the next phase"]
    panel.approve_button.click()
    await task
    # After analysis the guidance comes first: the plan is no longer the point.
    rich_state.phase = Phase.ANALYSIS
    task = await pause(panel, rich_state)
    assert labels(panel)[0] == "Guidance for the next phase"
    panel.stop_button.click()
    await task
    assert panel.state == PanelState.STOPPED and "Stopped" in panel.status.value


async def test_a_cancelled_pause_says_so_and_applies_nothing(rich_state: ResearchState) -> None:
    panel = ThinkPausePanel()
    task = await pause(panel, rich_state)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert panel.state == PanelState.CANCELLED and "Cancelled" in panel.status.value
    assert panel.approve_button.disabled and panel.answers == []
    rich_state.status = RunStatus.CANCELLED
    panel.run_finished(rich_state)  # the session's notice keeps the more precise message
    assert "while waiting here" in panel.status.value
    rich_state.status = RunStatus.COMPLETED
    panel.run_finished(rich_state)
    assert panel.state == PanelState.FINISHED and "completed" in panel.status.value
