"""Persistence: the SQLite session store and the exports built on it."""

from deepresearch.errors import StoreError
from deepresearch.redaction import scrub_secrets
from deepresearch.store.export import (
    cited_sources_csl,
    describe_event,
    events_frame,
    export_bibtex,
    export_csl_json,
    export_html,
    export_json,
    export_markdown,
    timeline,
)
from deepresearch.store.records import Event, SessionSummary
from deepresearch.store.sqlite import SessionStore, StoreWarning

__all__ = [
    "Event",
    "SessionStore",
    "SessionSummary",
    "StoreError",
    "StoreWarning",
    "cited_sources_csl",
    "describe_event",
    "events_frame",
    "export_bibtex",
    "export_csl_json",
    "export_html",
    "export_json",
    "export_markdown",
    "scrub_secrets",
    "timeline",
]
