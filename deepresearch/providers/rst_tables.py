"""reStructuredText's tables read as the Markdown tables Sphinx shows, so a row with its
column names is one statement ("Code: 0; Name: EXIT_CODE_OK; …"): a list table ('..
list-table::', each row a bullet list of its cells, where every cell stood alone), a
simple table (columns under runs of '=', whose cells ran into one another once spaces were
collapsed) and a grid table ('+---+' borders, a cell's lines each a row of its own). A
table's lines are written from its first line on, one per row, and the lines left to the
table's end blank, so no line after the table moves."""

from __future__ import annotations

import itertools
import re

_LIST_TABLE = re.compile(r"^([ \t]*)\.\.[ \t]+list-table::")
_HEADER_ROWS = re.compile(r"^[ \t]+:header-rows:[ \t]*(\d+)")
_OPTION = re.compile(r"^[ \t]+:[\w-]+:")
_ROW = re.compile(r"^([ \t]*)[-*+][ \t]+(?:([-*+])(?:[ \t]+|$))(.*)$")  # '- - cell', '* - cell'
_CELL = re.compile(r"^([ \t]*)[-*+](?:[ \t]+|$)(.*)$")  # '  - cell'
_LINE_BLOCK = re.compile(r"^\|[ \t]+")  # a cell's line block ('| anything.py')


def with_list_tables(lines: list[str]) -> list[str]:
    """``lines`` with each list table's rows as Markdown table rows (see the module); a
    table whose cells hold '|', or whose rows would not fit its lines, as written."""
    out = list(lines)
    n = 0
    while n < len(out):
        opening = _LIST_TABLE.match(out[n])
        n += 1
        if opening is None:
            continue
        headers, first = 0, n
        while first < len(out) and (not out[first].strip() or _OPTION.match(out[first])):
            if found := _HEADER_ROWS.match(out[first]):
                headers = int(found[1])
            first += 1
        rows, end = _rows(out, first, len(opening[1]))
        _put(out, (first, end), _markdown(rows, headers), opening[1])
        n = max(n, end)
    return out


def with_tables(lines: list[str]) -> list[str]:
    """``lines`` with each list, simple and grid table as a Markdown table (see the
    module)."""
    out = with_list_tables(lines)
    n = 0
    while n < len(out):
        border = _SIMPLE_BORDER.match(out[n]) or _GRID_BORDER.match(out[n])
        if border is None or (n and out[n - 1].strip()):
            n += 1
            continue
        read = _simple_table if border.re is _SIMPLE_BORDER else _grid_table
        rows, headers, end = read(out, n)
        _put(out, (n, end), _markdown(rows, headers), border[1])
        n = max(n + 1, end)
    return out


def _put(out: list[str], span: tuple[int, int], table: list[str], indent: str) -> None:
    """The ``table``'s lines written over ``out[start:end]`` (``span``) from its start, at
    the table's ``indent``, the lines left blank; nothing when there is no table or it does
    not fit."""
    start, end = span
    if table and len(table) <= end - start:
        out[start:end] = [indent + row for row in table] + [""] * (end - start - len(table))


# A simple table's border: runs of '=' (one per column) parted by spaces.
_SIMPLE_BORDER = re.compile(r"^([ \t]*)=+(?: +=+)+[ \t]*$")
# A grid table's border ('+------+-----+') and the rule under its header ('+======+').
_GRID_BORDER = re.compile(r"^([ \t]*)\+(?:-+\+)+[ \t]*$")
_GRID_RULE = re.compile(r"^[ \t]*\+(?:[-=]+\+)+[ \t]*$")


def _simple_table(lines: list[str], top: int) -> tuple[list[list[str]], int, int]:
    """The rows of the simple table whose top border is ``lines[top]``, how many are its
    header, and the index after its bottom border; no rows for what is no such table (a
    row spanning columns, a border that does not end it)."""
    starts = [m.start() for m in re.finditer(r"=+", lines[top])]
    rows: list[list[str]] = []
    headers, n, fresh = 0, top + 1, True
    while n < len(lines):
        line = lines[n]
        if _SIMPLE_BORDER.match(line) and [m.start() for m in re.finditer(r"=+", line)] == starts:
            if n + 1 < len(lines) and lines[n + 1].strip() and not headers:
                headers, n = len(rows), n + 1  # the rule under the header rows
                continue
            return rows, headers, n + 1
        if not line.strip():
            fresh, n = True, n + 1
            continue
        if line.lstrip().startswith("-") and set(line.strip()) <= {"-", " "}:
            return [], 0, top + 1  # a row spanning columns
        cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]
        if rows and not fresh and not cells[0]:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
        fresh, n = False, n + 1
    return [], 0, top + 1


def _grid_table(lines: list[str], top: int) -> tuple[list[list[str]], int, int]:
    """The rows of the grid table whose top border is ``lines[top]`` (a row's lines joined
    cell by cell), how many are its header, and the index after its bottom border; no rows
    for a table with a cell spanning columns or rows."""
    bars = [m.start() for m in re.finditer(r"\+", lines[top])]
    rows: list[list[str]] = []
    headers, cells, n = 0, [""] * (len(bars) - 1), top + 1
    while n < len(lines) and lines[n].strip()[:1] in ("|", "+"):
        line = lines[n].rstrip()
        if _GRID_RULE.match(line):
            if [m.start() for m in re.finditer(r"\+", line)] != bars:
                return [], 0, top + 1
            rows.append(cells)
            cells = [""] * (len(bars) - 1)
            headers = len(rows) if "=" in line else headers
        elif all(len(line) > b and line[b] == "|" for b in bars):
            said = [line[a + 1 : b].strip() for a, b in itertools.pairwise(bars)]
            cells = [f"{old} {new}".strip() for old, new in zip(cells, said, strict=True)]
        else:
            return [], 0, top + 1
        n += 1
    return rows, headers, n


def _rows(lines: list[str], first: int, column: int) -> tuple[list[list[str]], int]:
    """The rows of the list table whose first row is ``lines[first]`` (each its cells'
    text, a cell's lines joined) and the index after its last line; no rows when the
    lines there are not a list of lists indented past the directive's ``column``."""
    opened = _ROW.match(lines[first]) if first < len(lines) else None
    if opened is None or len(opened[1]) <= column:
        return [], first
    row_at = len(opened[1])
    cell_at = lines[first].index(opened[2], row_at + 1)
    rows: list[list[str]] = []
    end = first
    for n in range(first, len(lines)):
        line = lines[n]
        indent = len(line) - len(line.lstrip())
        if not line.strip():
            continue
        if indent <= column:
            break
        row, cell = _ROW.match(line), _CELL.match(line)
        if row and indent == row_at:
            rows.append([_LINE_BLOCK.sub("", row[3].strip())])
        elif cell and indent == cell_at and rows:
            rows[-1].append(_LINE_BLOCK.sub("", cell[2].strip()))
        elif indent > cell_at and rows:
            said = _LINE_BLOCK.sub("", line.strip())
            rows[-1][-1] = f"{rows[-1][-1]} {said}".strip()
        else:
            return [], first  # not a list of lists
        end = n + 1
    return rows, end


def _markdown(rows: list[list[str]], headers: int) -> list[str]:
    """The Markdown table lines of ``rows`` (the first ``headers`` the header, their cells
    joined by column), or none for a table of one column or with '|' in a cell."""
    width = max((len(row) for row in rows), default=0)
    if width < 2 or any("|" in cell for row in rows for cell in row):
        return []
    rows = [row + [""] * (width - len(row)) for row in rows]
    lines = []
    if headers:
        head = [" ".join(c for c in col if c) for col in zip(*rows[:headers], strict=True)]
        lines += ["| " + " | ".join(head) + " |", "|" + " --- |" * width]
    return lines + ["| " + " | ".join(row) + " |" for row in rows[headers:]]
