"""What a batch returns: one row per question, and a way back to each session."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from deepresearch.errors import InputError
from deepresearch.state import ResearchState, RunStatus
from deepresearch.state.models import FINISHED_STATUSES

if TYPE_CHECKING:
    import pandas as pd

    from deepresearch.session import Session
    from deepresearch.store import SessionStore

# Row status for a question that never became a session (e.g. an empty line).
INVALID = "invalid"
# Row status for a question not started because a batch budget was spent.
SKIPPED = "skipped"


class BatchRow(BaseModel):
    """How one question of a batch ended."""

    question: str
    session_id: str | None = None
    status: str
    reused: bool = False  # completed by an earlier run of the same batch; not run again
    sources: int = 0
    sources_cited: int = 0
    findings: int = 0
    gaps: int = 0
    open_gaps: int = 0
    warnings: int = 0  # degraded or failed phase runs (see Session.result().warnings)
    tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0
    resumed_from: str | None = None  # the phase an interrupted session continued from
    attempts: int = 1  # > 1 when Ray retried a lost worker
    error: str | None = None

    @property
    def ok(self) -> bool:
        """A clean, complete run (not ``completed_with_warnings``)."""
        return self.status == RunStatus.COMPLETED.value

    @property
    def finished(self) -> bool:
        """A report exists: completed, with or without warnings."""
        return self.status in {s.value for s in FINISHED_STATUSES}


def row_from_state(
    question: str,
    state: ResearchState,
    *,
    seconds: float,
    reused: bool = False,
    error: str | None = None,
    attempts: int = 1,
    resumed_from: str | None = None,
) -> BatchRow:
    """The batch row for a finished (or stopped) session.

    Args:
        question: the question as given.
        state: the session's state.
        seconds: how long it ran.
        reused: it was already done in the store and not run again.
        error: an error to report instead of the state's.
        attempts: how many times it was started.
        resumed_from: the phase a retry resumed at, if it did.
    """
    report = state.report
    return BatchRow(
        question=question,
        session_id=state.id,
        status=state.status.value,
        reused=reused,
        sources=len(state.sources),
        sources_cited=len(report.cited_source_ids) if report is not None else 0,
        findings=len(state.findings),
        gaps=len(state.gaps),
        open_gaps=sum(1 for g in state.gaps if not g.addressed),
        warnings=len(state.run_warnings()),
        tokens=sum(u.input_tokens + u.output_tokens for u in state.usage),
        cost_usd=round(sum(u.cost_usd for u in state.usage), 6),
        seconds=round(seconds, 3),
        resumed_from=resumed_from,
        attempts=attempts,
        error=error or state.error,
    )


class BatchResult:
    """What :func:`research_many` returns: ``rows`` in question order (``frame`` as a
    DataFrame), ``session(i)`` reopens one from ``store`` (or from ``states`` when
    nothing was persisted), ``seconds`` the batch's wall time and ``spent`` what each
    provider's shared limiter counted (requests, tokens, cost, refusals, 429s)."""

    def __init__(
        self,
        rows: list[BatchRow],
        *,
        store: SessionStore | None,
        states: dict[str, ResearchState] | None = None,
        seconds: float = 0.0,
        spent: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.rows = rows
        self.store = store
        self._states = states or {}  # kept only when there is no store to reload from
        self.seconds = seconds
        self.spent = spent or {}

    @property
    def frame(self) -> pd.DataFrame:
        """One row per question (a new DataFrame each time): session id, status, sources
        cited, findings, gaps, tokens, cost, time, error."""
        import pandas as pd

        columns = list(BatchRow.model_fields)
        return pd.DataFrame([r.model_dump() for r in self.rows], columns=columns)

    @property
    def counts(self) -> dict[str, int]:
        """How many questions ended in each status."""
        return dict(Counter(r.status for r in self.rows))

    @property
    def ok(self) -> bool:
        """True only when every question completed cleanly."""
        return all(r.ok for r in self.rows)

    @property
    def finished(self) -> bool:
        """True when every question has a report (some may carry warnings)."""
        return all(r.finished for r in self.rows)

    @property
    def failed(self) -> list[BatchRow]:
        """The rows of questions that did not complete cleanly."""
        return [r for r in self.rows if not r.ok]

    def session(self, which: int | str) -> Session:
        """The session of row ``which`` (an index) or of a session id."""
        from deepresearch.session import Session

        if isinstance(which, int):
            session_id = self.rows[which].session_id
            if session_id is None:
                raise InputError(
                    f"Question {which} never became a session: {self.rows[which].error}"
                )
        else:
            session_id = which
        if session_id in self._states:
            return Session(state=self._states[session_id], persist=False)
        if self.store is None:
            raise InputError(f"No session {session_id!r} in this batch.")
        return Session.load(session_id, store=self.store)

    @property
    def sessions(self) -> list[Session]:
        """Every question's Session, reloaded from the store."""
        return [self.session(i) for i, r in enumerate(self.rows) if r.session_id is not None]

    def to_jsonl(self) -> str:
        """The rows as JSON lines (what ``deepresearch batch --out`` writes)."""
        return "".join(r.model_dump_json() + "\n" for r in self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={v}" for k, v in sorted(self.counts.items()))
        return f"BatchResult({len(self.rows)} questions: {counts}; {self.seconds:.1f} s)"

    def _repr_html_(self) -> str:
        # DataFrame.to_html escapes cell text (questions and errors may come from anywhere).
        import html

        return f"<p>{html.escape(repr(self))}</p>" + self.frame.to_html(index=False, escape=True)
