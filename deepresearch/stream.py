"""Typed events for ``async for event in session.stream()``: scripts and UIs follow a run
as it happens without reading the audit trail.

The loop reports what happens to an event sink as ``(state, kind, payload)``;
:class:`EventTranslator` turns the kinds a reader cares about into these models, and
reads the state for what the payload does not carry (the sources a researcher found,
the findings analysis wrote).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from deepresearch.state import EventKind, Phase, ResearchState, RunStatus

if TYPE_CHECKING:
    from deepresearch.run_result import RunResult


class RunEvent(BaseModel):
    """Base of every streamed event; ``kind`` names the type for JSON consumers."""

    kind: str


class PhaseStarted(RunEvent):
    """A phase began (``phase``, ``iteration``)."""

    kind: Literal["phase_started"] = "phase_started"
    phase: Phase
    iteration: int


class PhaseFinished(RunEvent):
    """A phase ended (``phase``, ``iteration``, its duration and a summary of what changed)."""

    kind: Literal["phase_finished"] = "phase_finished"
    phase: Phase
    iteration: int
    duration_s: float | None = None
    summary: dict[str, Any] = {}


class SourceFound(RunEvent):
    """A researcher kept a new source (ids are final only after gathering: use ``url``)."""

    kind: Literal["source_found"] = "source_found"
    url: str
    title: str
    sub_query_id: str | None = None
    provider: str = ""


class FindingAdded(RunEvent):
    """Analysis recorded a finding (its id, text and confidence)."""

    kind: Literal["finding"] = "finding"
    finding_id: str
    content: str
    confidence: str
    source_ids: list[str] = []


class Paused(RunEvent):
    """A think pause: the hooks were asked ``prompt`` after ``phase``."""

    kind: Literal["pause"] = "pause"
    phase: Phase
    prompt: str
    guidance: str | None = None


class ReportReady(RunEvent):
    """Synthesis wrote the report (its Markdown and how many sources it cites)."""

    kind: Literal["report_ready"] = "report_ready"
    iteration: int
    markdown: str
    cited_sources: int


class RunFinished(RunEvent):
    """The last event: how the run ended."""

    kind: Literal["run_finished"] = "run_finished"
    status: RunStatus
    phase: Phase
    error: str | None = None


Listener = Callable[[ResearchState, str, dict[str, Any]], None]


class EventTranslator:
    """Turns sink events into RunEvents; remembers what it already reported."""

    def __init__(self, state: ResearchState) -> None:
        self._urls = {s.url for s in state.sources}
        self._findings = {f.id for f in state.findings}

    def translate(self, state: ResearchState, kind: str, payload: dict[str, Any]) -> list[RunEvent]:
        """The typed events one loop event stands for (none for kinds a reader does not need).

        Args:
            state: the run's state (read for new sources and findings).
            kind: the loop's event kind.
            payload: the loop's event data.
        """
        if kind == EventKind.PHASE_STARTED:
            return [PhaseStarted(phase=Phase(payload["phase"]), iteration=state.iteration)]
        if kind == EventKind.TOPIC_COMPLETED:
            return self._new_sources(state)
        if kind == EventKind.THINK_PAUSE:
            return [
                Paused(
                    phase=Phase(payload["phase"]),
                    prompt=str(payload.get("prompt", "")),
                    guidance=payload.get("guidance"),
                )
            ]
        if kind == EventKind.PHASE_COMPLETED:
            return self._phase_completed(state, payload)
        return []

    def _phase_completed(self, state: ResearchState, payload: dict[str, Any]) -> list[RunEvent]:
        phase = Phase(payload["phase"])
        events: list[RunEvent] = [*self._new_sources(state), *self._new_findings(state)]
        events.append(
            PhaseFinished(
                phase=phase,
                iteration=state.iteration,
                duration_s=payload.get("duration_s"),
                summary=dict(payload.get("summary") or {}),
            )
        )
        if phase in (Phase.SYNTHESIS, Phase.VERIFICATION) and state.report is not None:
            events.append(
                ReportReady(
                    iteration=state.iteration,
                    markdown=state.report.markdown,
                    cited_sources=len(state.report.cited_source_ids),
                )
            )
        return events

    def _new_sources(self, state: ResearchState) -> list[RunEvent]:
        events: list[RunEvent] = []
        for s in state.sources:
            if s.url not in self._urls:
                self._urls.add(s.url)
                events.append(
                    SourceFound(
                        url=s.url, title=s.title, sub_query_id=s.sub_query_id, provider=s.provider
                    )
                )
        return events

    def _new_findings(self, state: ResearchState) -> list[RunEvent]:
        events: list[RunEvent] = []
        for f in state.findings:
            if f.id not in self._findings:
                self._findings.add(f.id)
                events.append(
                    FindingAdded(
                        finding_id=f.id,
                        content=f.content,
                        confidence=f.confidence.value,
                        source_ids=list(f.source_ids),
                    )
                )
        return events


class TeeEvents:
    """An event sink that passes every event to ``sink`` and to the current listeners."""

    def __init__(self, sink: Any, listeners: list[Listener]) -> None:
        self.sink = sink
        self.listeners = listeners

    def emit(self, state: ResearchState, kind: str, payload: dict[str, Any]) -> None:
        """Send the event to the sink, then to every listener.

        Args:
            state: the run's state.
            kind: the event kind.
            payload: the event's data.
        """
        self.sink.emit(state, kind, payload)
        for listener in list(self.listeners):
            listener(state, kind, payload)


async def run_events(
    state: ResearchState,
    listeners: list[Listener],
    runner: Callable[[], Awaitable[RunResult]],
    cancel: Callable[[], None],
) -> AsyncGenerator[RunEvent]:
    """Start ``runner()`` and yield the typed events of its run, then :class:`RunFinished`.
    Closing the iterator early cancels the run and waits for it to stop.

    Args:
        state: the run's state (the translator reads sources and findings from it).
        listeners: the event sink's listener list; one is added for the run's duration.
        runner: starts the run (or resumes it) and returns how it ended.
        cancel: stops the run at its next safe point.
    """
    queue: asyncio.Queue[RunEvent | None] = asyncio.Queue()
    translator = EventTranslator(state)

    def listen(state: ResearchState, kind: str, payload: dict[str, Any]) -> None:
        for event in translator.translate(state, kind, payload):
            queue.put_nowait(event)

    listeners.append(listen)
    task = asyncio.ensure_future(runner())
    task.add_done_callback(lambda _: queue.put_nowait(None))
    try:
        while (event := await queue.get()) is not None:
            yield event
        result = task.result()
        yield RunFinished(status=result.status, phase=result.phase, error=result.error)
    finally:
        listeners.remove(listen)
        if not task.done():
            cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
