"""Keep a run going when its store fails: research goes on in memory, the failure is said
once, and the run ends honest about what was not saved."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from deepresearch.errors import StoreError
from deepresearch.state import ResearchState
from deepresearch.store.sqlite import SessionStore


class GuardedStore:
    """Saves and events through ``store`` until the first StoreError; after that, nothing
    more is written (a damaged or full store would fail every time) and ``error`` says why.

    Args:
        store: the session store.
        warn: called once with the one-line error (the run's progress callback).
    """

    def __init__(self, store: SessionStore, warn: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.error: str | None = None
        self._warn = warn

    def __repr__(self) -> str:
        return f"GuardedStore({self.store!r}, failed={self.error is not None})"

    @property
    def saved(self) -> bool:
        """False once a save or event failed: the stored session is behind the run."""
        return self.error is None

    def save(self, state: ResearchState) -> None:
        """Save ``state``; after the first store failure, saving stops and the run goes on.

        Args:
            state: the state to save.
        """
        if self.error is None:
            try:
                self.store.save(state)
            except StoreError as exc:
                self._failed(exc)

    def emit(self, state: ResearchState, kind: str, payload: dict[str, Any]) -> None:
        """Record an event; after the first store failure, nothing more is written.

        Args:
            state: the run's state.
            kind: the event kind.
            payload: the event's data.
        """
        if self.error is None:
            try:
                self.store.emit(state, kind, payload)
            except StoreError as exc:
                self._failed(exc)

    def finish(self, state: ResearchState) -> None:
        """After a run whose store failed: one more try to save the final state (space may
        have been freed), else at least its status, so the session is never left
        ``running``. ``error`` stays set: the saved session misses part of the run."""
        if self.error is None:
            return
        try:
            self.store.save(state)
        except StoreError:
            with contextlib.suppress(StoreError):
                self.store.mark_status(state.id, state.status)

    def _failed(self, exc: StoreError) -> None:
        self.error = str(exc)
        if self._warn is not None:
            self._warn(f"not saving this session any more: {exc}")
