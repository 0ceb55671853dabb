"""Site chrome in a folder of documents: the runs of lines that most of its files share at
their top or bottom — a documentation theme's keyboard help, theme menu and book title, a
footer. One page cannot tell them from its content; the folder can. They are blanked
before a file is split into passages, so they never become passages, findings or
snippets. Only whole runs at a file's edges count: a line many files share in their body
("* Default: false" under each option) is content."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping

from deepresearch.providers.readers import Document, with_lines_blanked

EDGE_LINES = 40  # non-blank lines at each end of a file that may be chrome
CHROME_SHARE = 0.5  # a line is chrome when at least this share of the files have it there
MIN_FILES = 3  # ... and at least this many: two files sharing a line is a coincidence

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")


def line_key(line: str) -> int:
    """A stable 64-bit key for a line, whitespace collapsed (stored in the index)."""
    digest = hashlib.blake2b(" ".join(line.split()).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def edge_keys(doc: Document) -> set[int]:
    """The keys of the first and last EDGE_LINES non-blank lines of ``doc``."""
    lines = [line for line in _lines(doc) if line.strip()]
    return {line_key(line) for line in lines[:EDGE_LINES] + lines[-EDGE_LINES:]}


def chrome_keys(counts: Mapping[int, int], files: int) -> set[int]:
    """The edge lines that enough of the ``files`` share (``counts``: files per key)."""
    floor = max(MIN_FILES, CHROME_SHARE * files)
    return {key for key, n in counts.items() if n >= floor}


def without_chrome(doc: Document, chrome: set[int]) -> Document:
    """``doc`` with the run of chrome lines at its top and the one at its bottom blanked.
    A run stops at the first line that is not chrome or opens a code fence; a run made only
    of headings is the folder's common structure ("### Synopsis"), not chrome."""
    if not chrome:
        return doc
    lines = _lines(doc)
    blanked = _run(lines, range(len(lines)), chrome)
    blanked |= _run(lines, range(len(lines) - 1, -1, -1), chrome)
    return with_lines_blanked(doc, blanked) if blanked else doc


def _run(lines: list[str], order: Iterable[int], chrome: set[int]) -> set[int]:
    run: list[int] = []
    seen = 0
    for i in order:
        line = lines[i]
        if not line.strip():
            continue
        seen += 1
        if seen > EDGE_LINES or _FENCE.match(line) or line_key(line) not in chrome:
            break
        run.append(i)
    if all(_HEADING.match(lines[i]) for i in run):
        return set()
    return set(run)


def _lines(doc: Document) -> list[str]:
    return (doc.outline or doc.text).splitlines()
