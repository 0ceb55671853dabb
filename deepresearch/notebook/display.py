"""Rich display for notebooks: the report as Markdown with clickable citations, and
compact HTML cards for a state or a session.

The rendering itself lives in :mod:`deepresearch.render` (below the state, shared with the
CLI and the exports); this module is the notebook-facing entry point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deepresearch.render import (
    jupyter_files_route,
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
    cell renders it with clickable citations (a summary before synthesis). A cited file of
    your own links through the Jupyter server when it lies under the server's root;
    otherwise its cited passage is quoted under it in the sources list."""
    from IPython.core.display import Markdown

    state = target if isinstance(target, ResearchState) else target.state
    text = state_markdown(state, files=jupyter_files_route(), passages=True)
    return Markdown(text)  # type: ignore[no-untyped-call]


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
