"""reST list tables read as the Markdown tables Sphinx shows (providers/rst_tables.py)."""

from __future__ import annotations

from pathlib import Path

from deepresearch.offline.statements import statements
from deepresearch.providers.readers import read_document
from deepresearch.providers.rst_tables import with_list_tables, with_tables

EXIT_CODES = """\
Exit codes
==========

The named codes below come from ``pipx.constants``.

.. list-table::
    :header-rows: 1
    :widths: 12 48 40

    - - Code
      - Name
      - Meaning
    - - ``0``
      - ``EXIT_CODE_INSTALL_VENV_EXISTS``
      - Install skipped because the environment already exists; not treated as a
        failure.
    - - ``1``
      - ``EXIT_CODE_INJECT_ERROR``
      - ``inject`` failed to install one or more packages.

Every other error exits with ``1``.
"""


def test_a_list_table_reads_as_a_markdown_table_and_no_line_after_it_moves() -> None:
    lines = EXIT_CODES.split("\n")
    out = with_list_tables(lines)
    assert len(out) == len(lines)
    first = lines.index("    - - Code")
    assert out[first : first + 4] == [
        "| Code | Name | Meaning |",
        "| --- | --- | --- |",
        "| ``0`` | ``EXIT_CODE_INSTALL_VENV_EXISTS`` | Install skipped because the environment"
        " already exists; not treated as a failure. |",
        "| ``1`` | ``EXIT_CODE_INJECT_ERROR`` | ``inject`` failed to install one or more"
        " packages. |",
    ]
    assert not any(line.strip() for line in out[first + 4 : first + 10])
    last = lines.index("Every other error exits with ``1``.")
    assert out[last] == lines[last]


def test_a_list_table_row_is_one_statement_with_its_column_names(tmp_path: Path) -> None:
    """As bullets, "EXIT_CODE_INSTALL_VENV_EXISTS" and what it means were two items; a
    row with its header says which code means what."""
    path = tmp_path / "exit-codes.rst"
    path.write_text(EXIT_CODES, encoding="utf-8")
    said = statements(read_document(path).text)
    row = next(s for s in said if "EXIT_CODE_INSTALL_VENV_EXISTS" in s)
    assert row.startswith("Table row: Code: 0; Name: EXIT_CODE_INSTALL_VENV_EXISTS; Meaning:")
    assert "already exists" in row


def test_a_cell_of_line_blocks_reads_as_its_lines_and_a_headerless_table_has_no_header() -> None:
    lines = [
        ".. list-table::",
        "",
        "    * - ``a*.py``",
        "      - | anything.py",
        "        | sub/another.py",
        "    * - ``sub/*.py``",
        "      - sub/main.py",
    ]
    out = with_list_tables(lines)
    assert out[2:5] == [
        "| ``a*.py`` | anything.py sub/another.py |",
        "| ``sub/*.py`` | sub/main.py |",
        "",
    ]


def test_what_is_not_a_list_of_lists_stays_as_written() -> None:
    """One column is a plain list, and a cell with '|' would cut the row."""
    one_column = [".. list-table::", "", "    * - alone", "    * - again"]
    piped = [".. list-table::", "", "    * - a | b", "      - c"]
    assert with_list_tables(one_column) == one_column
    assert with_list_tables(piped) == piped


SIMPLE = """\
Some common types:

====== ================================
Type   Description
====== ================================
int    integer
bool   boolean value (a subclass of
       ``int``)
====== ================================

All of them are classes.
"""

GRID = """\
Inside a loop:

+---------------+--------------------------------+
| Variable      | Description                    |
+===============+================================+
| `loop.index`  | The current iteration (from 1) |
+---------------+--------------------------------+
| `loop.revindex` | Iterations left, counting    |
|               | the current one                |
+---------------+--------------------------------+

After the table.
"""


def test_a_simple_table_reads_as_a_markdown_table_its_wrapped_cell_joined() -> None:
    lines = SIMPLE.split("\n")
    out = with_tables(lines)
    assert len(out) == len(lines)
    assert out[2:6] == [
        "| Type | Description |",
        "| --- | --- |",
        "| int | integer |",
        "| bool | boolean value (a subclass of ``int``) |",
    ]
    assert not any(line.strip() for line in out[6:9])
    assert out[10] == "All of them are classes."


def test_a_grid_table_row_is_one_row_whatever_lines_its_cells_take() -> None:
    aligned = GRID.replace(
        "| `loop.revindex` | Iterations left, counting    |",
        "| `loop.rev`    | Iterations left, counting      |",
    )
    lines = aligned.split("\n")
    out = with_tables(lines)
    assert len(out) == len(lines)
    assert out[2:6] == [
        "| Variable | Description |",
        "| --- | --- |",
        "| `loop.index` | The current iteration (from 1) |",
        "| `loop.rev` | Iterations left, counting the current one |",
    ]
    assert not any(line.strip() for line in out[6:11]) and out[11] == "After the table."
    # a row whose bars do not line up with the border's (a cell spanning columns): the
    # table is kept as written
    assert with_tables(GRID.split("\n")) == GRID.split("\n")
