"""The one sanitizer for everything shown or exported.

Text from sources (titles, snippets, page text, file names) and what models write about it
is untrusted. The rules, applied here and nowhere else:

- **Links**: only ``http``, ``https`` and ``mailto`` targets stay links (:func:`safe_href`);
  ``javascript:``, ``data:``, ``file:`` and local paths are shown as text.
- **Markdown out** (notebook Markdown, CLI report, ``--out``, Markdown export):
  :func:`escape_markdown` makes untrusted text literal — raw HTML is shown as text, and no
  link, image or autolink can be written by a source; links are added only by the renderer
  from typed citations.
- **HTML out** (notebook cards and reports, the standalone HTML export): Markdown is rendered
  by markdown-it-py with raw HTML off, then cleaned by nh3 (:func:`clean_html`), which keeps
  a tag allow-list and only the link schemes above.
- **Terminal out**: :func:`terminal_text` strips escape sequences and control characters.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote, urlsplit

import nh3
from markdown_it import MarkdownIt

LINK_SCHEMES = frozenset({"http", "https", "mailto"})
# Kept as they are in an href: reserved URL characters, % escapes and IPv6 brackets.
# Parentheses, spaces, quotes and angle brackets are %-encoded so a Markdown link or an
# HTML attribute cannot be closed early.
_URL_SAFE = ":/?#@!$&*+,;=%~[]"
# What Markdown gives meaning to in running text: backslash escapes, HTML and entities,
# and link/image brackets (autolinks need "<", so escaping it covers them).
_MARKDOWN_ACTIVE = re.compile(r"([\\\[\]])")
# A CommonMark code span: a run of backticks, then the same run again, on one line.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)[^\n]*?(?<!`)\1(?!`)")
# ANSI/VT escape sequences (CSI, OSC, and two-character ESC forms).
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]"
)
# C0/C1 controls except tab and newline, lone surrogates, and the bidirectional overrides
# that can make a terminal show text in a different order than it is.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
_CARD_ATTRIBUTES = {"a": {"href", "title"}, "div": {"style"}, "ul": {"style"}}


def safe_href(location: str) -> str | None:
    """A link target for ``location`` if it is an http(s) or mailto URL, %-encoded so it is
    safe inside a Markdown link or an HTML attribute; None for anything else."""
    location = location.strip()
    try:
        parts = urlsplit(location)
        parts.hostname  # noqa: B018 - raises ValueError for a malformed IPv6 host
    except ValueError:
        return None
    if parts.scheme.lower() not in LINK_SCHEMES:
        return None
    if parts.scheme.lower() != "mailto" and not parts.netloc:
        return None
    return quote(terminal_text(location), safe=_URL_SAFE)


def escape_markdown(text: str) -> str:
    """Untrusted text made literal inside Markdown: raw HTML shows as text, and brackets
    and backslashes cannot form a link or image. Other Markdown (emphasis, lists,
    headings) is kept, so a model-written report still reads as Markdown. Code spans
    (`Box<T>`) are left as they are: Markdown shows their content literally already, and
    an escape there would show as "&lt;"."""
    text = strip_controls(text)
    out: list[str] = []
    last = 0
    for span in _CODE_SPAN.finditer(text):
        out += [_escaped(text[last : span.start()]), span[0]]
        last = span.end()
    return "".join([*out, _escaped(text[last:])])


def _escaped(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    return _MARKDOWN_ACTIVE.sub(r"\\\1", text)


def one_line(text: str) -> str:
    """All whitespace runs (newlines included) folded to one space."""
    return " ".join(str(text).split())


def strip_controls(text: str) -> str:
    """``text`` without escape sequences, control characters (newline and tab are kept),
    lone surrogates or bidirectional overrides."""
    return _CONTROLS.sub("", _ESCAPE_SEQUENCE.sub("", text))


def terminal_text(text: str) -> str:
    """Text safe to print to a terminal: see :func:`strip_controls`."""
    return strip_controls(text)


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table").enable("strikethrough")


def clean_html(page: str, *, card: bool = False) -> str:
    """``page`` through nh3: allowed tags only, links only to http(s)/mailto, and
    ``rel="noopener noreferrer"`` on every link. ``card`` also keeps inline styles."""
    attributes = _CARD_ATTRIBUTES if card else {"a": {"href", "title"}}
    return nh3.clean(
        page,
        attributes={k: set(v) for k, v in attributes.items()},
        url_schemes=set(LINK_SCHEMES),
        link_rel="noopener noreferrer",
        strip_comments=True,
    )


def markdown_html(markdown: str) -> str:
    """Markdown rendered to clean HTML: markdown-it-py (raw HTML off), then nh3."""
    return clean_html(_markdown().render(strip_controls(markdown)))


__all__ = [
    "LINK_SCHEMES",
    "clean_html",
    "escape_markdown",
    "markdown_html",
    "one_line",
    "safe_href",
    "strip_controls",
    "terminal_text",
]
