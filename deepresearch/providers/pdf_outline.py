"""A PDF's outline (its bookmarks) as Markdown heading lines in its text, so that its
passages split at sections and each carries a heading path ("Report › 3.2 Results"), as
a Markdown or HTML file's do.

A bookmark names a page, not a line: its heading goes on the page's line that reads as its
title ("2.1 ASN.1 syntax" for the bookmark "ASN.1 syntax"), or, when the page has no such
line, on a line of its own where the page's text (or the previous heading) starts.
"""

from __future__ import annotations

import re
from typing import Any

# A section number before a title: '2.1 ', '3. ', 'A ', 'A.2 ' (casefolded).
_NUMBER = re.compile(r"(?:[a-z]|\d+)(?:\.\d+)*\.?\s+")
# PDF text lines that Markdown would read as headings or code fences: indented out of the
# way, as in reStructuredText (rst_markup.rst_headings); the text strips the indentation.
_MD_LIKE = re.compile(r"^ {0,3}(?:#|```|~~~)")
MAX_LEVEL = 6

Bookmark = tuple[int, int, str]  # (page index, level from 1, title)


def bookmarks(reader: Any) -> list[Bookmark]:
    """The outline of a ``pypdf.PdfReader`` in document order; a bookmark whose page cannot
    be found, or that points before the one above it, is left out. [] when the PDF has no
    outline or pypdf cannot read it."""
    out: list[Bookmark] = []

    def walk(items: list[Any], level: int) -> None:
        for item in items:
            if isinstance(item, list):  # the children of the item before it
                walk(item, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)
            except Exception:  # a damaged destination: a missing bookmark
                continue
            title = " ".join(str(getattr(item, "title", "") or "").split())
            if page is not None and page >= 0 and title and (not out or page >= out[-1][0]):
                out.append((page, min(level, MAX_LEVEL), title))

    try:
        walk(list(reader.outline), 1)
    except Exception:  # pypdf raises many types for a damaged outline
        return []
    return out


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


def _reads_as(line: str, title: str) -> bool:
    """Whether ``line`` is ``title``'s heading: the same words, or a section number and them."""
    got, want = _key(line), _key(title)
    if got == want:
        return True
    return got.endswith(" " + want) and bool(_NUMBER.fullmatch(got[: -len(want)]))


def _placed(
    pages: list[list[str]], marks: list[Bookmark]
) -> tuple[list[str], dict[int, str], dict[int, list[str]]]:
    """The text's lines (pages joined by a blank line), the headings that replace a line
    ({line: heading line}) and those inserted before one ({line: [heading lines]})."""
    lines: list[str] = []
    starts: list[int] = []
    for page_lines in pages:
        if page_lines and lines:
            lines.append("")
        starts.append(len(lines))
        lines += page_lines
    ends = [*starts[1:], len(lines)]
    replaced: dict[int, str] = {}
    inserted: dict[int, list[str]] = {}
    cursor = 0
    for page, level, title in marks:
        if page >= len(pages):
            continue
        start = max(starts[page], cursor)
        hashes = "#" * level + " "
        at = next((i for i in range(start, ends[page]) if _reads_as(lines[i], title)), None)
        if at is None:
            inserted.setdefault(start, []).append(hashes + title)
            cursor = start
        else:
            replaced[at] = hashes + " ".join(lines[at].split())
            cursor = at + 1
    return lines, replaced, inserted


def with_headings(pages: list[list[str]], marks: list[Bookmark]) -> str:
    """The PDF's text as Markdown: ``pages`` (each page's tidied lines) joined by blank
    lines, with ``marks`` as heading lines; '' when there are no bookmarks (the text has no
    headings, and a '# comment' line in it is text)."""
    if not marks:
        return ""
    lines, replaced, inserted = _placed(pages, marks)
    if not replaced and not inserted:
        return ""
    out: list[str] = []
    for i in range(len(lines) + 1):
        for heading in inserted.get(i, []):
            out.append(heading)
        if i < len(lines):
            line = lines[i]
            out.append(replaced.get(i) or ("    " + line if _MD_LIKE.match(line) else line))
    return "\n".join(out)
