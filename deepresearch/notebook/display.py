"""Rich display for notebooks: the report as Markdown with clickable citations, and
compact HTML cards for a state or a session.

The rendering itself lives in :mod:`deepresearch.render` (below the state, shared with the
CLI and the exports); this module is the notebook-facing entry point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deepresearch.render import (
    report_html,
    safe_href,
    session_html,
    state_html,
    state_markdown,
)
from deepresearch.render import (
    state_report_markdown as report_markdown,
)
from deepresearch.render.cards import HasState
from deepresearch.state import ResearchState

if TYPE_CHECKING:
    from IPython.core.display import Markdown


def show_report(target: ResearchState | HasState) -> Markdown:
    """The report of a state or session as an IPython Markdown object: the last line of a
    cell renders it with clickable citations (a summary before synthesis)."""
    from IPython.core.display import Markdown

    state = target if isinstance(target, ResearchState) else target.state
    return Markdown(state_markdown(state))  # type: ignore[no-untyped-call]


__all__ = [
    "HasState",
    "report_html",
    "report_markdown",
    "safe_href",
    "session_html",
    "show_report",
    "state_html",
    "state_markdown",
]
