"""ThinkPausePanel: an ipywidgets think-pause hook for a person at a notebook.

Use it as a hook and run the session in the background, so the kernel stays free to
deliver your clicks::

    panel = ThinkPausePanel()
    s = dr.Session("question", hooks=[panel])
    panel                 # shows the panel
    task = s.start()      # the run pauses after each phase until you click

Awaiting ``s.run()`` (or ``run_sync()``) in the same cell instead would keep the kernel
busy, so no click could arrive; see docs/troubleshooting.md.
"""

from __future__ import annotations

import asyncio
import html
from typing import Any

import ipywidgets as w

from deepresearch.state import ResearchState, SubQueryStatus
from deepresearch.workflow.hooks import Steer

_SHOWN = 5  # findings / gaps listed in the summary


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _set_result(future: asyncio.Future[Steer], steer: Steer) -> None:
    if not future.done():
        future.set_result(steer)


class ThinkPausePanel:
    """Shows each think pause and turns your clicks into a :class:`Steer`.

    Every control is an attribute so code (and tests) can drive it without a browser:
    ``panel.guidance_box.value = "..."; panel.approve_button.click()``.
    With ``timeout_s``, a pause nobody answers in time continues unchanged and says so.
    """

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
        self.new_sub_queries_box = w.Textarea(
            placeholder="New sub-queries, one per line", layout=w.Layout(width="95%")
        )
        self.guidance_box = w.Textarea(
            placeholder="Guidance for the next phase (optional)", layout=w.Layout(width="95%")
        )
        self.approve_button = w.Button(description="Approve", button_style="success")
        self.stop_button = w.Button(description="Stop", button_style="danger")
        self.status = w.HTML()
        self.approve_button.on_click(lambda _: self._answer(stop=False))
        self.stop_button.on_click(lambda _: self._answer(stop=True))
        self.widget = w.VBox(
            [
                self.title,
                self.prompt_view,
                self.summary_view,
                self.sub_query_rows,
                self.new_sub_queries_box,
                self.guidance_box,
                w.HBox([self.approve_button, self.stop_button]),
                self.status,
            ]
        )
        self.answers: list[Steer] = []  # what each pause returned, oldest first
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
            self.status.value = f"<i>No answer within {timeout_s:g} s — continued unchanged.</i>"
            return Steer()

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

    def _show(self, state: ResearchState, prompt: str) -> None:
        clarifying = bool(
            state.clarification
            and state.clarification.need_clarification
            and state.clarification.answer is None
        )
        self.title.value = (
            f"<b>Think pause</b> · phase {_e(state.phase.value)} · "
            f"iteration {state.iteration}/{state.max_iterations}"
        )
        self.prompt_view.value = f"<pre style='white-space:pre-wrap'>{_e(prompt)}</pre>"
        self.summary_view.value = self._summary(state)
        self._build_sub_query_rows(state)
        self.new_sub_queries_box.value = ""
        self.guidance_box.value = ""
        self.guidance_box.placeholder = (
            "Your answer to the clarifying question"
            if clarifying
            else "Guidance for the next phase (optional)"
        )
        self.status.value = "<i>Waiting for you: Approve to continue, Stop to end the run.</i>"
        self._set_enabled(True)

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
            items = "".join(f"<li>{_e(g.description)}</li>" for g in gaps)
            html_parts.append(f"<div><b>Open gaps</b><ul>{items}</ul></div>")
        return "".join(html_parts)

    def _build_sub_query_rows(self, state: ResearchState) -> None:
        """Pending sub-queries: editable, removable. Finished ones: editing re-asks them."""
        self.sub_query_texts, self.remove_boxes, self._original = {}, {}, {}
        self._pending_ids = set()
        rows: list[Any] = []
        for sq in state.sub_queries:
            text = w.Text(value=sq.query, layout=w.Layout(width="70%"))
            self.sub_query_texts[sq.id] = text
            self._original[sq.id] = sq.query
            label = w.Label(f"{sq.id} ({sq.status.value})", layout=w.Layout(width="22%"))
            if sq.status == SubQueryStatus.PENDING:
                self._pending_ids.add(sq.id)
                box = w.Checkbox(value=False, description="remove", indent=False)
                self.remove_boxes[sq.id] = box
                rows.append(w.HBox([label, text, box]))
            else:
                text.tooltip = "Editing a finished sub-query asks it again as a new one."
                rows.append(w.HBox([label, text]))
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
        self.status.value = _e(_describe(steer))
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
        return "Stopped: the run ends after this pause and its state is saved."
    parts = []
    if steer.guidance:
        parts.append("guidance")
    if steer.edit_sub_queries:
        parts.append(f"{len(steer.edit_sub_queries)} edited")
    if steer.add_sub_queries:
        parts.append(f"{len(steer.add_sub_queries)} added")
    if steer.remove_sub_queries:
        parts.append(f"{len(steer.remove_sub_queries)} removed")
    return "Approved" + (f" with {', '.join(parts)}." if parts else " unchanged.")
