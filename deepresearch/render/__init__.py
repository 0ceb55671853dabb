"""Rendering for everything shown or exported: safe Markdown, clean HTML, terminal text.

It sits below the state (it reads reports and states, never imports them at run time), so
``Report._repr_markdown_`` and the exports use the same code as the notebook and the CLI.
See :mod:`deepresearch.render.sanitize` for the rules.
"""

from deepresearch.render.cards import session_html, state_html
from deepresearch.render.files import FilesRoute, jupyter_files_route
from deepresearch.render.report import (
    citation_href,
    cited_passages,
    report_html,
    report_markdown,
    sources_markdown,
    state_markdown,
    state_report_markdown,
)
from deepresearch.render.sanitize import (
    LINK_SCHEMES,
    clean_html,
    escape_markdown,
    markdown_html,
    one_line,
    safe_href,
    strip_controls,
    terminal_text,
)

__all__ = [
    "LINK_SCHEMES",
    "FilesRoute",
    "citation_href",
    "cited_passages",
    "clean_html",
    "escape_markdown",
    "jupyter_files_route",
    "markdown_html",
    "one_line",
    "report_html",
    "report_markdown",
    "safe_href",
    "session_html",
    "sources_markdown",
    "state_html",
    "state_markdown",
    "state_report_markdown",
    "strip_controls",
    "terminal_text",
]
