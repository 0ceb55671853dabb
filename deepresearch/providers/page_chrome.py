"""Chrome: the runs of lines that most pages of a set share at their top or bottom.

In a folder saved from a documentation site it is the theme in every file (keyboard help,
theme menu, the book's title, a footer); in a PDF, each page's running header and page
number. One page cannot tell chrome from its content; the set of pages can. Chrome is
dropped before a document is split into passages, so it never becomes a passage, a
finding or a snippet. Only whole runs at a page's edges count: a line many files share in
their body ("* Default: false" under each option) is content, and so is a run of headings
alone (the folder's common structure, "### Synopsis").

A navigation line differs from page to page ("Next: Closures, Previous: Types, Up: Using
libffi" in a GNU manual; "<< 3. Advanced Topics | Up | 5. Cachegrind >>" in a DocBook one),
so its text is never shared: a reader marks such lines (nearly all link text, see
``readers``), and when most of the folder's pages open or close with one, the marked lines
in the runs at a page's edges are chrome too (``nav_key`` stands for them all).

A folder's formats are counted apart (``salt``: the format family): a site's theme is in
its HTML pages, and a folder that ships each page as HTML and as Markdown (the Node.js API
docs) has it in half of its files."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

EDGE_LINES = 120  # non-blank lines at each end of a file that may be chrome
PAGE_EDGE_LINES = 3  # ... of a PDF page (a running header, a page number)
CHROME_SHARE = 0.5  # a line is chrome when at least this share of the pages have it there
MIN_PAGES = 3  # ... and at least this many: two pages sharing a line is a coincidence

_NAV_LINE = "\x00"  # what navigation lines count as: no line of text reads so
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_DIGITS = re.compile(r"\d+")
_EDGE_NUMBER = re.compile(r"^\s*(\d{1,4})\b|\b(\d{1,4})\s*$")  # a number opening or closing a line


def line_key(line: str, *, digits: bool = False, salt: str = "") -> int:
    """A stable 64-bit key for a line, whitespace collapsed (stored in the index);
    ``digits``: any number counts as the same (page numbers); ``salt``: the format family
    (the same line in an HTML page and a Markdown file counts apart)."""
    text = " ".join(line.split())
    if digits:
        text = _DIGITS.sub("0", text)
    text = f"{salt}\x00{text}" if salt else text
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def edge_keys(
    lines: list[str], edge: int = EDGE_LINES, *, digits: bool = False, salt: str = ""
) -> set[int]:
    """The keys of the first and last ``edge`` non-blank lines."""
    kept = [line for line in lines if line.strip()]
    return {line_key(line, digits=digits, salt=salt) for line in kept[:edge] + kept[-edge:]}


def nav_key(salt: str = "") -> int:
    """The key a page counts under when it opens or closes with a navigation line."""
    return line_key(_NAV_LINE, salt=salt)


def chrome_keys(counts: Mapping[int, int], pages: int) -> set[int]:
    """The edge lines that enough of the ``pages`` share (``counts``: pages per key)."""
    floor = max(MIN_PAGES, CHROME_SHARE * pages)
    return {key for key, n in counts.items() if n >= floor}


def nav_edge(lines: list[str], nav: frozenset[int]) -> bool:
    """Whether the first or the last non-blank line is a navigation line (``nav``: the
    indexes of those a reader marked): the page counts under ``nav_key``."""
    kept = [i for i, line in enumerate(lines) if line.strip()]
    return bool(kept) and (kept[0] in nav or kept[-1] in nav)


def chrome_lines(
    lines: list[str],
    chrome: set[int],
    edge: int = EDGE_LINES,
    *,
    digits: bool = False,
    salt: str = "",
    nav: frozenset[int] = frozenset(),
) -> set[int]:
    """The indexes of the run of chrome lines at the top and the one at the bottom. A run
    stops at the first line that is not chrome or opens a code fence; the lines in ``nav``
    are chrome when ``nav_key`` is."""
    if not chrome:
        return set()
    nav = nav if nav_key(salt) in chrome else frozenset()
    keyed = _Keyed(chrome, digits, salt, nav)
    top = _run(lines, range(len(lines)), keyed, edge)
    return top | _run(lines, range(len(lines) - 1, -1, -1), keyed, edge)


def pages_without_chrome(pages: list[str]) -> list[str]:
    """A PDF's pages without their running headers and footers (page numbers too)."""
    # Headers that carry the page number go first, then the lines pages share, then the
    # page numbers those hid (a shared title above 'Chapter 2: Parsing 13').
    split = _without_folios([page.splitlines() for page in pages])
    counts = Counter(k for lines in split for k in edge_keys(lines, PAGE_EDGE_LINES, digits=True))
    chrome = chrome_keys(counts, len(pages))
    kept = []
    for lines in split:
        dropped = chrome_lines(lines, chrome, PAGE_EDGE_LINES, digits=True)
        kept.append([line for i, line in enumerate(lines) if i not in dropped])
    return ["\n".join(lines) for lines in _without_folios(kept)]


def _without_folios(pages: list[list[str]]) -> list[list[str]]:
    folios = _folio_lines(pages)
    return [
        [line for i, line in enumerate(lines) if (page, i) not in folios]
        for page, lines in enumerate(pages)
    ]


def _folio_lines(pages: list[list[str]]) -> set[tuple[int, int]]:
    """(page, line) of each running header or footer that carries the page's number, its
    other words changing with the chapter ('Chapter 2: Parsing 3', 'Chapter 4: Function
    reference 13'): the first or last line of a page that starts or ends with the number
    that rises by one a page (number = page index + one offset on at least half of the
    pages, and 3)."""
    found: list[set[tuple[int, int]]] = []
    offsets: Counter[int] = Counter()
    for page, lines in enumerate(pages):
        text = [i for i, line in enumerate(lines) if line.strip()]
        ends = {text[0], text[-1]} if text else set()
        numbered = {
            (i, int(n))
            for i in ends
            for m in _EDGE_NUMBER.finditer(lines[i])
            for n in m.groups()
            if n
        }
        found.append(numbered)
        offsets.update({n - page for _, n in numbered})
    if not offsets:
        return set()
    offset, n = offsets.most_common(1)[0]
    if n < max(MIN_PAGES, CHROME_SHARE * len(pages)):
        return set()
    return {
        (page, i) for page, numbered in enumerate(found) for i, k in numbered if k - page == offset
    }


@dataclass(frozen=True)
class _Keyed:
    chrome: set[int]
    digits: bool
    salt: str
    nav: frozenset[int]

    def __contains__(self, at: tuple[int, str]) -> bool:
        i, line = at
        key = line_key(line, digits=self.digits, salt=self.salt)
        return i in self.nav or key in self.chrome


def _run(lines: list[str], order: Iterable[int], chrome: _Keyed, edge: int) -> set[int]:
    run: list[int] = []
    seen = 0
    for i in order:
        line = lines[i]
        if not line.strip():
            continue
        seen += 1
        if seen > edge or _FENCE.match(line) or (i, line) not in chrome:
            break
        run.append(i)
    if all(_HEADING.match(lines[i]) for i in run):
        return set()
    return set(run)


# What joins a page's own title to the site's name in its <title>: 'DNS | Node.js v20
# Documentation', 'Data Types - The Rust Programming Language'; or the name in brackets,
# 'Closure Example (libffi: the portable foreign function interface library)'.
_TITLE_JOINS = (" | ", " - ", " – ", " — ", " · ", " :: ")
_BRACKETED = re.compile(r"\s+\([^()]+\)$")


def title_chrome(titles: list[str]) -> str:
    """The end that at least half of ``titles`` (and 3) share after a joiner: the site's
    name in every page's title, which says nothing about the page; '' when none is."""
    counts: Counter[str] = Counter()
    for title in titles:
        ends = {join + title.rsplit(join, 1)[1] for join in _TITLE_JOINS if join in title}
        if m := _BRACKETED.search(title):
            ends.add(m[0])
        counts.update(end for end in ends if len(end) < len(title))
    if not counts:
        return ""
    end, n = max(counts.items(), key=lambda item: (item[1], len(item[0])))
    return end if n >= max(MIN_PAGES, CHROME_SHARE * len(titles)) else ""


def without_title_chrome(title: str, chrome: str) -> str:
    """``title`` without the site's name ``chrome`` at its end."""
    return title[: -len(chrome)] if chrome and title.endswith(chrome) and title != chrome else title
