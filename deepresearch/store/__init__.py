"""Persistence: the SQLite session store and the exports built on it."""

from deepresearch.errors import StoreError

from deepresearch.store.export import (
    describe_event,
    events_frame,
    export_json,
    export_markdown,
    timeline,
)
from deepresearch.store.sqlite import (
    Event,
    SessionStore,
    SessionSummary,
    scrub_secrets,
)

__all__ = [
    "Event",
    "SessionStore",
    "SessionSummary",
    "StoreError",
    "describe_event",
    "events_frame",
    "export_json",
    "export_markdown",
    "scrub_secrets",
    "timeline",
]
