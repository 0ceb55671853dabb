"""What a phase needs besides the state: config, models, search, events, cancellation."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from deepresearch.config import Config
from deepresearch.errors import ResearchCancelled
from deepresearch.prefetch import Prefetch
from deepresearch.providers.base import SearchProvider
from deepresearch.routing import ModelRouter
from deepresearch.state import EventKind, ResearchState
from deepresearch.urls import UrlPolicy

if TYPE_CHECKING:
    from deepresearch.budget.allocator import TokenBudget


class EventSink(Protocol):
    """Receives the audit trail: phase starts and ends, every call, decisions, errors."""

    def emit(self, state: ResearchState, kind: EventKind, payload: dict[str, Any]) -> None: ...


class NullEvents:
    def emit(self, state: ResearchState, kind: EventKind, payload: dict[str, Any]) -> None:
        return None


class CancelToken:
    """Thread-safe: cancel() may be called from any thread or task."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.reason = "cancelled"

    def cancel(self, reason: str = "cancelled") -> None:
        self.reason = reason
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise ResearchCancelled(f"Research was {self.reason}.")

    def reset(self) -> None:
        self._event.clear()


Checkpoint = Callable[[ResearchState], Awaitable[None]]
Progress = Callable[[str], None]


async def _no_checkpoint(state: ResearchState) -> None:
    return None


@dataclass
class RunContext:
    config: Config
    models: ModelRouter
    search: SearchProvider
    events: EventSink = field(default_factory=NullEvents)
    checkpoint: Checkpoint = _no_checkpoint
    cancel: CancelToken = field(default_factory=CancelToken)
    progress: Progress | None = None
    today: str = ""  # the date prompts give; empty: Config.today, else the real date
    budget: TokenBudget | None = None
    # Every fetch or extract of a URL asks this first (deepresearch.urls).
    urls: UrlPolicy = field(default_factory=UrlPolicy)
    # Searches the loop started ahead of the phase that needs them (deepresearch.prefetch).
    prefetch: Prefetch = field(default_factory=Prefetch)

    def __post_init__(self) -> None:
        if not self.today:
            self.today = (self.config.models.today or date.today()).isoformat()

    def say(self, message: str) -> None:
        if self.progress is not None:
            self.progress(message)
