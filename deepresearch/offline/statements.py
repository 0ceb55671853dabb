"""What may become a finding: statements, not layout. Prose is split into sentences;
tables, code blocks, box-drawing diagrams, headings, navigation and boilerplate are not
statements. A table row or a code line may still answer a question, so each is kept as a
brief quote of its own, never merged into the prose around it.

The sentence splitter is the package's one (``deepresearch.text.sentences``: punctuation,
protected abbreviations and initials). pysbd was measured as the maintained alternative:
~6 ms for a 500-character text (a run splits a few hundred) and it split "c. 1775"
mid-date; see docs/results.md.
"""

from __future__ import annotations

import re

from deepresearch.text import sentences

MAX_STATEMENT_CHARS = 320  # one or two sentences
MAX_QUOTE_CHARS = 160  # a table row or code line quoted as such
MIN_WORDS = 4

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_BOX = re.compile(r"[\u2500-\u257f\u2580-\u259f\u25a0-\u25ff\u2190-\u21ff]")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)\*(?!\s)|`")
_LINKISH = re.compile(r"https?://\S+|\[([^\]]*)\]\([^)]*\)")
# Lines that are page furniture rather than content, whatever the site.
_FURNITURE = re.compile(
    r"^(?:copyright|©|all rights reserved|privacy|terms of|cookie|skip to|home\s*[|›>]|"
    r"menu|search|log ?in|sign ?in|subscribe)\b",
    re.IGNORECASE,
)


def statements(text: str) -> list[str]:
    """Sentences of the prose in ``text`` plus brief quotes of table rows and code lines,
    in document order."""
    out: list[str] = []
    prose: list[str] = []
    fenced = False

    def flush() -> None:
        if prose:
            out.extend(_prose_sentences(" ".join(prose)))
            prose.clear()

    for raw in text.splitlines():
        line = raw.rstrip()
        if _FENCE.match(line):
            flush()
            fenced = not fenced
            continue
        if fenced:
            out.extend(_code_quote(line))
            continue
        if not line.strip() or _HEADING.match(line) or _TABLE_RULE.match(line):
            flush()
            continue
        if _BOX.search(line):
            flush()  # a diagram: its labels are not sentences
            continue
        if line.lstrip().startswith("|"):
            flush()
            out.extend(_table_quote(line))
            continue
        if _LIST_MARK.match(line):
            flush()
            line = _LIST_MARK.sub("", line)
        prose.append(line.strip())
    flush()
    return out


def _prose_sentences(paragraph: str) -> list[str]:
    clean = _LINKISH.sub(lambda m: m[1] or "", _EMPHASIS.sub("", paragraph))
    found: list[str] = []
    for sent in sentences(clean) or [clean.strip()]:
        if len(sent.split()) < MIN_WORDS or _FURNITURE.match(sent):
            continue
        if len(sent) > MAX_STATEMENT_CHARS:
            sent = sent[:MAX_STATEMENT_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + "…"
        found.append(sent)
    return found


def _table_quote(line: str) -> list[str]:
    cells = [c.strip() for c in _EMPHASIS.sub("", line).strip().strip("|").split("|")]
    cells = [c for c in cells if c]
    if len(cells) < 2:
        return []
    quote = " | ".join(cells)
    return [f"Table row: {quote[:MAX_QUOTE_CHARS]}"] if len(quote) >= 8 else []


def _code_quote(line: str) -> list[str]:
    code = line.strip()
    if len(code) < 8 or len(code) > MAX_QUOTE_CHARS or not re.search(r"\w{3}", code):
        return []
    if code.startswith(("#", "//", '"""', "'''")):
        return []  # comments: the prose around the block says it better
    return [f"Code: `{code}`"]
