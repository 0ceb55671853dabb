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

    def emit(self, state: ResearchState, kind: EventKind, payload: dict[str, Any]) -> None:
        """Record one event.

        Args:
            state: the run's state when it happened.
            kind: what happened.
            payload: its data (JSON-ready).
        """


class NullEvents:
    """An event sink that drops every event (a run without a store or listeners)."""

    def emit(self, state: ResearchState, kind: EventKind, payload: dict[str, Any]) -> None:
        """Drop the event.

        Args:
            state: the run's state.
            kind: the event kind.
            payload: the event's data.
        """
        return None


class CancelToken:
    """Thread-safe: cancel() may be called from any thread or task."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.reason = "cancelled"

    def cancel(self, reason: str = "cancelled") -> None:
        """Ask the run to stop at its next safe point; safe from any thread.

        Args:
            reason: how the stop is described (``"Research was {reason}."``).
        """
        self.reason = reason
        self._event.set()

    @property
    def cancelled(self) -> bool:
        """Whether a stop was asked for."""
        return self._event.is_set()

    def check(self) -> None:
        """Raise ResearchCancelled if a stop was asked for (called at safe points)."""
        if self._event.is_set():
            raise ResearchCancelled(f"Research was {self.reason}.")

    def reset(self) -> None:
        """Forget an earlier stop, so a resumed run can go on."""
        self._event.clear()


Checkpoint = Callable[[ResearchState], Awaitable[None]]
Progress = Callable[[str], None]


async def _no_checkpoint(state: ResearchState) -> None:
    return None


@dataclass
class RunContext:
    """Everything a phase needs besides the state: config, models, search, and the run's
    sinks and limits. Built once per run by the Session (``deepresearch.testing`` builds
    one for tests).

    Args:
        config: the run's Config (read through its sections).
        models: the ModelRouter that picks each role's model chain.
        search: the search provider.
        events: where events go (the store, stream listeners).
        checkpoint: saves the state after each phase and finished topic.
        cancel: the run's CancelToken.
        progress: receives one-line progress messages, if given.
        today: the date prompts give as today (``Config.models.today`` or the real date).
        budget: the TokenBudget when token management is on.
        urls: the policy every fetched or extracted URL passes.
        prefetch: searches started ahead of the phase that needs them.
    """

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
        """Send ``message`` to the progress callback, if there is one.

        Args:
            message: one line describing what happens.
        """
        if self.progress is not None:
            self.progress(message)
