"""The store's records: one audit-trail event, one row of the session list."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from deepresearch.state import Phase, RunStatus


class SessionSummary(BaseModel):
    """One row of ``SessionStore.list()``: enough to pick a session without loading it."""

    id: str
    question: str
    status: RunStatus
    phase: Phase
    iteration: int
    created_at: datetime
    updated_at: datetime
    sources: int = 0
    findings: int = 0


class Event(BaseModel):
    """One entry of the append-only audit trail."""

    id: int
    session_id: str
    ts: datetime
    kind: str
    phase: str
    iteration: int
    payload: dict[str, Any] = Field(default_factory=dict)
