"""ThinkPausePanel: an ipywidgets think-pause hook for a person at a notebook.

Use it as a hook; the kernel must stay free to deliver your clicks while the run waits::

    panel = ThinkPausePanel()
    s = dr.Session("question", hooks=[panel])
    panel                 # shows the panel
    task = s.start()      # the run pauses after each phase until you click

``await s.run()`` in a cell works too (ipykernel 7 delivers widget messages while an async
cell awaits). ``s.run_sync()`` refuses a panel (BlockingRunError): a blocking call keeps
the kernel busy, so no click could arrive. Kernel › Interrupt cancels a waiting run cleanly
(status ``cancelled``, state saved) and the panel says so.
"""

from __future__ import annotations

import asyncio
import html
from enum import StrEnum
from typing import Any

import ipywidgets as w

from deepresearch.notebook.widget_sync import acknowledge_browser_edits
from deepresearch.state import Phase, ResearchState, RunStatus, SubQueryStatus
from deepresearch.workflow.hooks import Steer

_SHOWN = 5  # findings / gaps listed in the summary
# Pauses whose purpose is the plan: the sub-queries come before the guidance box.
_PLAN_PAUSES = frozenset({Phase.PLANNING, Phase.SUPERVISION, Phase.REFINEMENT})
_LABELLED = {"description_width": "initial"}


class PanelState(StrEnum):
    """What the panel is doing now (shown on it, and readable as ``panel.state``)."""

    IDLE = "idle"  # no pause yet
    WAITING = "waiting"  # a pause waits for Approve or Stop
    CONTINUED = "continued"  # approved: the run goes on
    STOPPED = "stopped"  # Stop clicked: the run ends after this pause
    TIMED_OUT = "timed out"  # nobody answered within timeout_s: continued unchanged
    CANCELLED = "cancelled"  # the run was cancelled (Kernel › Interrupt, s.cancel())
    FINISHED = "finished"  # the run ended


_COLOURS = {
    PanelState.WAITING: "#b36b00",
    PanelState.CONTINUED: "#2e7d32",
    PanelState.STOPPED: "#b00020",
    PanelState.TIMED_OUT: "#b36b00",
    PanelState.CANCELLED: "#b00020",
    PanelState.FINISHED: "#555",
    PanelState.IDLE: "#555",
}


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _set_result(future: asyncio.Future[Steer], steer: Steer) -> None:
    if not future.done():
        future.set_result(steer)


def _textarea(label: str, placeholder: str) -> w.Textarea:
    """A text box with a real <label> above it (the widget's description)."""
    return w.Textarea(
        description=label,
        placeholder=placeholder,
        style=_LABELLED,
        layout=w.Layout(width="95%", flex_flow="column", align_items="stretch"),
    )


class ThinkPausePanel:
    """Shows each think pause and turns your clicks into a :class:`Steer`.

    Every control is an attribute so code (and tests) can drive it without a browser:
    ``panel.guidance_box.value = "..."; panel.approve_button.click()``. ``panel.state``
    says what it is doing (a :class:`PanelState`). With ``timeout_s``, a pause nobody
    answers in time continues unchanged and says so.
    """

    # Answered through the event loop: run_sync() refuses it (see Session.run_sync).
    needs_event_loop = True

    def __init__(self, *, timeout_s: float | None = None) -> None:
        if timeout_s is not None and timeout_s <= 0:
            raise ValueError("timeout_s must be positive or None")
        self.timeout_s = timeout_s
        self.title = w.HTML("<b>Think pause</b> — nothing to review yet.")
        self.prompt_view = w.HTML()
        self.summary_view = w.HTML()
        self.sub_query_texts: dict[str, w.Text] = {}
        self.remove_boxes: dict[str, w.Checkbox] = {}
        self.sub_query_rows = w.VBox()
        self.new_sub_queries_box = _textarea(
            "New sub-queries (one per line)", "e.g. paper mills in Italy"
        )
        self.guidance_box = _textarea(
            "Guidance for the next phase", "Guidance for the next phase (optional)"
        )
        acknowledge_browser_edits(self.new_sub_queries_box, self.guidance_box)
        self.approve_button = w.Button(
            description="Approve", button_style="success", tooltip="Continue the run"
        )
        self.stop_button = w.Button(
            description="Stop", button_style="danger", tooltip="End the run after this pause"
        )
        self.status = w.HTML()
        self.approve_button.on_click(lambda _: self._answer(stop=False))
        self.stop_button.on_click(lambda _: self._answer(stop=True))
        self.buttons = w.HBox([self.approve_button, self.stop_button])
        self.widget = w.VBox([self.title, self.status])
        self.answers: list[Steer] = []  # what each pause returned, oldest first
        self.state = PanelState.IDLE
        self._future: asyncio.Future[Steer] | None = None
        self._original: dict[str, str] = {}
        self._pending_ids: set[str] = set()
        self._last_counts: dict[str, int] = {}
        self._waiting = False
        self._set_enabled(False)

    # -- the hook ---------------------------------------------------------------------
    async def __call__(self, state: ResearchState, prompt: str) -> Steer:
        if self._future is not None and not self._future.done():
            raise RuntimeError("This panel is already waiting for an answer to another pause.")
        future: asyncio.Future[Steer] = asyncio.get_running_loop().create_future()
        self._future = future
        self._show(state, prompt)
        self._waiting = True
        try:
            if self.timeout_s is None:
                steer = await future
            else:
                steer = await self._answer_or_timeout(future, self.timeout_s)
        except asyncio.CancelledError:
            self._set_state(
                PanelState.CANCELLED,
                "The run was cancelled while waiting here (Kernel › Interrupt or s.cancel()); "
                "nothing from this pause was applied. Its state is saved: "
                "`await s.resume()` continues it.",
            )
            raise
        finally:
            self._waiting = False
            self._set_enabled(False)
        self.answers.append(steer)
        return steer

    async def _answer_or_timeout(self, future: asyncio.Future[Steer], timeout_s: float) -> Steer:
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout_s)
        except TimeoutError:
            self._waiting = False
            _set_result(future, Steer())
            self._set_state(
                PanelState.TIMED_OUT, f"No answer within {timeout_s:g} s — continued unchanged."
            )
            return Steer()

    def run_finished(self, state: ResearchState) -> None:
        """Called by the session when the run ends: the panel shows how it ended."""
        if self.state == PanelState.CANCELLED and state.status == RunStatus.CANCELLED:
            return  # already says so, with more detail
        if state.status == RunStatus.CANCELLED:
            self._set_state(
                PanelState.CANCELLED,
                f"The run was cancelled during {state.phase.value}; its state is saved: "
                "`await s.resume()` continues it.",
            )
        elif state.status == RunStatus.STOPPED:
            self._set_state(PanelState.STOPPED, "The run stopped; its state is saved.")
        else:
            self._set_state(PanelState.FINISHED, f"The run ended: {state.status.value}.")

    @property
    def waiting(self) -> bool:
        """True while a pause is shown and waiting for Approve or Stop."""
        return self._waiting

    async def wait_for_pause(self) -> None:
        """Return once a pause is waiting (for code that answers on a person's behalf)."""
        # Polling rather than an asyncio.Event: the panel may outlive one event loop.
        while not self._waiting:
            await asyncio.sleep(0.01)

    # -- display ----------------------------------------------------------------------
    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]

    def _set_state(self, state: PanelState, message: str) -> None:
        self.state = state
        colour = _COLOURS[state]
        self.status.value = (
            f"<span style='color:{colour};font-weight:600'>{_e(state.value.capitalize())}</span>"
            f" — {_e(message)}"
        )

    def _show(self, state: ResearchState, prompt: str) -> None:
        clarifying = bool(
            state.clarification
            and state.clarification.need_clarification
            and state.clarification.answer is None
        )
        self.title.value = (
            f"<b>Think pause</b> · after {_e(state.phase.value)} · "
            f"iteration {state.iteration}/{state.max_iterations}"
        )
        self.prompt_view.value = f"<pre style='white-space:pre-wrap'>{_e(prompt)}</pre>"
        self.summary_view.value = self._summary(state)
        self._build_sub_query_rows(state)
        self.new_sub_queries_box.value = ""
        self.guidance_box.value = ""
        if clarifying:
            self.guidance_box.description = "Your answer to the clarifying question"
            self.guidance_box.placeholder = "Your answer (Approve without one to go on as asked)"
        else:
            self.guidance_box.description = "Guidance for the next phase"
            self.guidance_box.placeholder = "Guidance for the next phase (optional)"
        self.widget.children = tuple(self._layout(state.phase, clarifying))
        self._set_state(PanelState.WAITING, "Approve to continue, Stop to end the run.")
        self._set_enabled(True)

    def _layout(self, phase: Phase, clarifying: bool) -> list[Any]:
        """The inputs in the order the pause's purpose asks for."""
        head = [self.title, self.prompt_view]
        tail = [self.buttons, self.status]
        if clarifying:  # the answer is the point; there is no plan yet
            return [*head, self.guidance_box, *tail]
        plan = [self.sub_query_rows, self.new_sub_queries_box]
        body = [*plan, self.guidance_box] if phase in _PLAN_PAUSES else [self.guidance_box, *plan]
        return [*head, self.summary_view, *body, *tail]

    def _summary(self, state: ResearchState) -> str:
        counts = {
            "sub-queries": len(state.sub_queries),
            "sources": len(state.sources),
            "findings": len(state.findings),
            "gaps": len(state.gaps),
        }
        parts = []
        for name, n in counts.items():
            delta = n - self._last_counts.get(name, 0)
            parts.append(f"<b>{n}</b> {name}" + (f" (+{delta})" if delta > 0 else ""))
        self._last_counts = counts
        html_parts = [" · ".join(parts)]
        if state.research_brief:
            html_parts.append(
                f"<details><summary>Brief</summary>{_e(state.research_brief)}</details>"
            )
        findings = [f for f in state.findings if f.iteration == state.iteration][-_SHOWN:]
        if findings:
            items = "".join(
                f"<li>[{_e(f.confidence.value)}] {_e(f.content)}</li>" for f in findings
            )
            html_parts.append(f"<div><b>Latest findings</b><ul>{items}</ul></div>")
        gaps = state.unresolved_gaps()[:_SHOWN]
        if gaps:
            items = "".join(f"<li>{_e(g.stated())}</li>" for g in gaps)
            html_parts.append(f"<div><b>Open gaps</b><ul>{items}</ul></div>")
        return "".join(html_parts)

    def _build_sub_query_rows(self, state: ResearchState) -> None:
        """Pending sub-queries: editable, removable. Finished ones: editing re-asks them."""
        self.sub_query_texts, self.remove_boxes, self._original = {}, {}, {}
        self._pending_ids = set()
        rows: list[Any] = []
        for sq in state.sub_queries:
            text = w.Text(
                value=sq.query,
                description=f"{sq.id} ({sq.status.value})",
                style={"description_width": "12em"},
                layout=w.Layout(width="75%"),
            )
            acknowledge_browser_edits(text)
            self.sub_query_texts[sq.id] = text
            self._original[sq.id] = sq.query
            if sq.status == SubQueryStatus.PENDING:
                self._pending_ids.add(sq.id)
                box = w.Checkbox(value=False, description=f"remove {sq.id}", indent=False)
                acknowledge_browser_edits(box)
                self.remove_boxes[sq.id] = box
                rows.append(w.HBox([text, box]))
            else:
                text.tooltip = "Editing a finished sub-query asks it again as a new one."
                rows.append(w.HBox([text]))
        if rows:
            rows.insert(0, w.HTML("<b>Sub-queries</b> (edit the text; tick to remove)"))
        self.sub_query_rows.children = tuple(rows)

    def _set_enabled(self, enabled: bool) -> None:
        controls: list[Any] = [
            self.approve_button,
            self.stop_button,
            self.guidance_box,
            self.new_sub_queries_box,
            *self.sub_query_texts.values(),
            *self.remove_boxes.values(),
        ]
        for control in controls:
            control.disabled = not enabled

    # -- the answer -------------------------------------------------------------------
    def _collect(self, *, stop: bool) -> Steer:
        guidance = self.guidance_box.value.strip() or None
        if stop:
            return Steer(guidance=guidance, stop=True)
        removed = [sid for sid, box in self.remove_boxes.items() if box.value]
        edits: dict[str, str] = {}
        for sid, text in self.sub_query_texts.items():
            new = text.value.strip()
            if sid in removed or new == self._original[sid].strip():
                continue
            if new:
                edits[sid] = new
            elif sid in self._pending_ids:  # emptied a pending one: drop it
                removed.append(sid)
        added = [line.strip() for line in self.new_sub_queries_box.value.splitlines()]
        return Steer(
            guidance=guidance,
            edit_sub_queries=edits,
            remove_sub_queries=removed,
            add_sub_queries=[q for q in added if q],
            stop=False,
        )

    def _answer(self, *, stop: bool) -> None:
        future = self._future
        if future is None or future.done():
            self.status.value = "<i>Nothing is waiting for an answer.</i>"
            return
        steer = self._collect(stop=stop)
        if stop:
            self._set_state(PanelState.STOPPED, _describe(steer))
        else:
            self._set_state(PanelState.CONTINUED, _describe(steer))
        self._set_enabled(False)
        self._waiting = False  # answered: a wait_for_pause() now waits for the next pause
        # Clicks arrive on the kernel's loop; resolve on the future's own loop either way.
        loop = future.get_loop()
        try:
            same_loop = asyncio.get_running_loop() is loop
        except RuntimeError:
            same_loop = False
        if same_loop:
            _set_result(future, steer)
        else:
            loop.call_soon_threadsafe(_set_result, future, steer)


def _describe(steer: Steer) -> str:
    if steer.stop:
        return "the run ends after this pause and its state is saved."
    parts = []
    if steer.guidance:
        parts.append("guidance")
    if steer.edit_sub_queries:
        parts.append(f"{len(steer.edit_sub_queries)} edited")
    if steer.add_sub_queries:
        parts.append(f"{len(steer.add_sub_queries)} added")
    if steer.remove_sub_queries:
        parts.append(f"{len(steer.remove_sub_queries)} removed")
    detail = f"approved with {', '.join(parts)}" if parts else "approved unchanged"
    return f"{detail}; the run goes on."
