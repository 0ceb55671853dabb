"""Long documents as passages: split at headings and paragraphs, each passage keeping its
heading path and line range, so search can find (and a report can cite) the place in a
file that answers, not just the file.

Markdown is recognised by content (``#`` heading lines outside code fences), whatever the
file's extension; the HTML reader writes its ``<h1>``–``<h6>`` as such lines too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A passage of a few hundred words: long enough to hold a statement with its context,
# short enough that the passage which answers is what ranks first.
TARGET_CHARS = 1_200
MAX_CHARS = 2_400
# A table longer than this is cut into row groups, each with the header row: a few rows
# a passage, as table rows are denser than prose (600 and 1,200 measured worse on docsB).
TABLE_GROUP_CHARS = 400
HEADING_SEPARATOR = " › "

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_EMPHASIS = re.compile(r"[*`]+")
_WORDY = re.compile(r"\w{2}")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")  # a Markdown link: its text


@dataclass(frozen=True)
class Passage:
    """One passage of a document.

    Args:
        heading: the heading path, outermost first.
        text: the passage's text.
        first_line: its first line in the document (1-based).
        last_line: its last line (inclusive).
    """

    heading: str  # the heading path, outermost first, joined by HEADING_SEPARATOR
    text: str
    first_line: int  # 1-based, inclusive
    last_line: int


@dataclass
class _Block:
    lines: list[str]
    first: int
    last: int
    alone: bool = False  # a table's row group: a passage of its own, never packed

    @property
    def size(self) -> int:
        return sum(len(line) + 1 for line in self.lines)


def looks_like_markdown(text: str) -> bool:
    """Markdown by content: at least one '#' heading line outside a code fence."""
    return any(True for _ in _headings(text.splitlines()))


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, level, heading text) of each heading outside code fences."""
    out: list[tuple[int, int, str]] = []
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            out.append((i, len(m[1]), heading_text(m[2])))
    return out


def heading_text(heading: str) -> str:
    """A heading's words as a reader sees them: a link's text, no emphasis or code marks
    ("Execution: ``coverage run``" reads "Execution: coverage run")."""
    return _EMPHASIS.sub("", _LINK.sub(r"\1", heading)).strip()


def split_passages(text: str, *, headings: bool = True) -> list[Passage]:
    """Sections at headings, then paragraphs packed up to ~TARGET_CHARS; a code block stays
    whole unless it alone is longer than MAX_CHARS. ``headings=False``: the text has none
    (a PDF's '# comment' line in a code sample is not a section)."""
    lines = text.splitlines()
    marks = _headings(lines) if headings else []
    passages: list[Passage] = []
    path: list[tuple[int, str]] = []
    bounds = [*(i for i, _, _ in marks), len(lines)]
    if not marks or marks[0][0] > 0:
        passages += _pack("", lines, 0, bounds[0])
    for n, (start, level, title) in enumerate(marks):
        path = [(lv, t) for lv, t in path if lv < level] + [(level, title)]
        heading = HEADING_SEPARATOR.join(t for _, t in path)
        section = _pack(heading, lines, start + 1, bounds[n + 1])
        if section:  # the heading line opens its section's first passage: a list right
            # under it is about what it names ("#### fetch-retries" / "* Default: 2")
            first = section[0]
            text = f"{lines[start].strip()}\n\n{first.text}"
            section[0] = Passage(heading, text, start + 1, first.last_line)
        passages += section
    return passages


def _pack(heading: str, lines: list[str], start: int, end: int) -> list[Passage]:
    out: list[Passage] = []
    current: _Block | None = None
    for block in _blocks(lines, start, end):
        full = current is not None and current.size + block.size > TARGET_CHARS
        if current is not None and (full or block.alone or current.alone):
            out.append(_passage(heading, current))
            current = None
        if current is None:
            current = block
        else:
            current.lines += ["", *block.lines]
            current.last = block.last
    if current is not None:
        out.append(_passage(heading, current))
    return [p for p in out if _WORDY.search(p.text)]


def _passage(heading: str, block: _Block) -> Passage:
    return Passage(heading, "\n".join(block.lines).strip(), block.first + 1, block.last + 1)


def _blocks(lines: list[str], start: int, end: int) -> list[_Block]:
    """Paragraphs (blank-line separated; a fenced block is one paragraph), each at most
    MAX_CHARS: longer ones are cut at line breaks."""
    blocks: list[_Block] = []
    current: list[tuple[int, str]] = []
    fenced = False

    def flush() -> None:
        if current:
            blocks.extend(_table_groups(current) or _cut(current))
            current.clear()

    for i in range(start, end):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
        if not line.strip() and not fenced:
            flush()
            continue
        current.append((i, line))
    flush()
    return blocks


def _cut(numbered: list[tuple[int, str]]) -> list[_Block]:
    out: list[_Block] = []
    block = _Block([], numbered[0][0], numbered[0][0])
    for i, line in numbered:
        if block.lines and block.size + len(line) > MAX_CHARS:
            out.append(block)
            block = _Block([], i, i)
        block.lines.append(line[:MAX_CHARS])
        block.last = i
    out.append(block)
    return out


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _table_groups(numbered: list[tuple[int, str]]) -> list[_Block]:
    """A Markdown table longer than TABLE_GROUP_CHARS cut into groups of rows, each
    repeating the header row and its rule so that it says what its cells are, and each a
    passage of its own: a long table's rows rank on their own words, not diluted by the
    rest of the table. [] when the paragraph is not such a table."""
    if (
        len(numbered) < 4
        or not _TABLE_RULE.match(numbered[1][1])
        or not all(line.lstrip().startswith("|") for _, line in numbered)
        or sum(len(line) + 1 for _, line in numbered) <= TABLE_GROUP_CHARS
    ):
        return []
    head = [numbered[0][1], numbered[1][1]]
    groups: list[_Block] = []
    block: _Block | None = None
    for i, line in numbered[2:]:
        if block is not None and block.size + len(line) > TABLE_GROUP_CHARS:
            groups.append(block)
            block = None
        if block is None:
            first = numbered[0][0] if not groups else i
            block = _Block([*head], first, i, alone=True)
        block.lines.append(line[:MAX_CHARS])
        block.last = i
    if block is not None:
        groups.append(block)
    return groups
