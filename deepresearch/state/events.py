"""The kinds of event a run reports to its event sink (the store's audit trail, listeners,
``Session.stream()``): one enum, so what is emitted and what is described agree."""

from __future__ import annotations

from enum import StrEnum

from deepresearch.state.models import RunStatus


class EventKind(StrEnum):
    """Every event kind the package emits. Values are the strings stored in the event log
    (a ``StrEnum``: each member equals its string)."""

    # the loop (deepresearch.workflow.loop) and the session
    PHASE_STARTED = "phase_started"
    PHASE_COMPLETED = "phase_completed"
    THINK_PAUSE = "think_pause"
    DECISION = "decision"
    CHECKPOINT = "checkpoint"
    RESUMED = "resumed"
    # how a run that did not finish ended: one per stopping RunStatus (see ENDED)
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"
    FAILED = "failed"
    STOPPED = "stopped"
    # calls
    LLM_CALL = "llm_call"
    LLM_ERROR = "llm_error"
    SEARCH_CALL = "search_call"
    URL_REFUSED = "url_refused"
    # phases
    CLARIFICATION = "clarification"
    CLARIFICATION_FAILED = "clarification_failed"
    BRIEF = "brief"
    BRIEF_FAILED = "brief_failed"
    TOPIC_COMPLETED = "topic_completed"
    EXTRACT_FAILED = "extract_failed"
    SUMMARIZATION_FAILED = "summarization_failed"
    COMPRESSION_FAILED = "compression_failed"
    # token budget
    BUDGET_ALLOCATION = "budget_allocation"
    BUDGET_FALLBACK = "budget_fallback"
    # batches on Ray
    RAY_ATTEMPT = "ray_attempt"
    BATCH_RESULT = "batch_result"


# The event that says a run stopped with this status.
ENDED: dict[RunStatus, EventKind] = {
    RunStatus.CANCELLED: EventKind.CANCELLED,
    RunStatus.TIMED_OUT: EventKind.TIMED_OUT,
    RunStatus.FAILED: EventKind.FAILED,
    RunStatus.STOPPED: EventKind.STOPPED,
}
