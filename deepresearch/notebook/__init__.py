"""Notebook layer: DataFrames of a state, rich display, the think-pause panel, progress."""

from deepresearch.notebook.display import (
    report_html,
    report_markdown,
    safe_href,
    session_html,
    show_report,
    state_html,
    state_markdown,
)
from deepresearch.notebook.frames import (
    decisions_frame,
    finding_sources,
    findings_frame,
    gaps_frame,
    metrics_frame,
    sources_frame,
    sub_queries_frame,
    supervision_frame,
    usage_frame,
)
from deepresearch.notebook.progress import NotebookProgress, default_progress, terminal_progress
from deepresearch.notebook.widgets import PanelState, ThinkPausePanel

__all__ = [
    "NotebookProgress",
    "PanelState",
    "ThinkPausePanel",
    "decisions_frame",
    "default_progress",
    "finding_sources",
    "findings_frame",
    "gaps_frame",
    "metrics_frame",
    "report_html",
    "report_markdown",
    "safe_href",
    "session_html",
    "show_report",
    "sources_frame",
    "state_html",
    "state_markdown",
    "sub_queries_frame",
    "supervision_frame",
    "terminal_progress",
    "usage_frame",
]
