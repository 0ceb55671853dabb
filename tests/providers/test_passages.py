"""Long documents as passages: tables cut into row groups, headings kept (issue 12)."""

from __future__ import annotations

from pathlib import Path

from deepresearch.providers import readers
from deepresearch.providers.passages import TABLE_GROUP_CHARS, split_passages


def _table(rows: int) -> str:
    body = "\n".join(
        f"| `tool_{i}` | argument {i} of the tool | what tool {i} returns to the caller |"
        for i in range(rows)
    )
    return f"| Tool | Arguments | Returns |\n|---|---|---|\n{body}\n"


def test_a_long_table_is_cut_into_row_groups_that_repeat_the_header() -> None:
    text = f"# Guide\n\n## Tools\n\nThe tools are:\n\n{_table(30)}\nAfter the table.\n"
    passages = split_passages(text)
    groups = [p for p in passages if "| Tool | Arguments | Returns |" in p.text]
    assert len(groups) > 2
    assert all(p.heading == "Guide › Tools" for p in groups)
    assert all(len(p.text) <= TABLE_GROUP_CHARS + 200 for p in groups)
    assert sum(p.text.count("`tool_") for p in groups) == 30  # each row once
    lines = text.splitlines()
    second = groups[1]  # cited by the lines of its own rows
    assert lines[second.first_line - 1].startswith("| `tool_")
    assert "After the table." not in "".join(p.text for p in groups)


def test_a_short_table_stays_with_its_paragraph() -> None:
    text = f"# Guide\n\nThe tools are:\n\n{_table(2)}"
    (only,) = split_passages(text)
    assert "The tools are:" in only.text and "tool_1" in only.text


def test_a_section_s_first_passage_starts_with_its_heading_line() -> None:
    text = "# Guide\n\n#### [`fetch-retries`](/config#fetch-retries)\n\n* Default: 2\n"
    passages = split_passages(text)
    last = passages[-1]
    assert last.heading == "Guide › fetch-retries"  # a link heading: its text
    assert last.text.startswith("#### ") and "Default: 2" in last.text
    assert last.first_line == 3


def test_front_matter_gives_the_title_and_keeps_line_numbers(tmp_path: Path) -> None:
    page = tmp_path / "npm-ci.md"
    page.write_text(
        "---\ntitle: npm-ci\nsection: 1\ndescription: Clean install a project\n---\n\n"
        "### Synopsis\n\n```bash\n# a comment, not a title\nnpm ci\n```\n",
        "utf-8",
    )
    doc = readers.read_document(page)
    assert doc.title == "npm-ci"
    assert doc.text.startswith("Clean install a project.")
    assert "section: 1" not in doc.text
    assert doc.outline.splitlines()[6] == "### Synopsis"  # line 7 of the file


def test_a_comment_in_a_code_block_is_not_the_title(tmp_path: Path) -> None:
    page = tmp_path / "notes.md"
    page.write_text("Intro.\n\n```bash\n# install it\npip install foo\n```\n", "utf-8")
    assert readers.read_document(page).title == "notes"


def test_a_thematic_break_at_the_top_is_not_front_matter(tmp_path: Path) -> None:
    page = tmp_path / "rule.md"
    page.write_text("---\nJust prose here.\n---\n\n# Real title\n", "utf-8")
    assert readers.read_document(page).title == "Real title"


def test_rst_section_titles_split_passages_and_keep_line_numbers(tmp_path: Path) -> None:
    filler = " ".join(f"Filler sentence {i} says nothing at all." for i in range(40))
    page = tmp_path / "guide.rst"
    page.write_text(
        f"=====\nGuide\n=====\n\n{filler}\n\nInstall\n-------\n\nRun pip install foo.\n\n"
        "::\n\n # not a heading\n pip install foo\n\nUsage\n-------\n\nCall foo().\n",
        "utf-8",
    )
    doc = readers.read_document(page)
    assert doc.title == "Guide"
    passages = split_passages(doc.outline)
    by_heading = {p.heading: p for p in passages}
    assert set(by_heading) == {"Guide", "Guide › Install", "Guide › Usage"}
    install = by_heading["Guide › Install"]
    assert page.read_text().splitlines()[install.first_line - 1] == "Install"
    assert "not a heading" in install.text
