from __future__ import annotations

import io
from pathlib import Path

import pytest

from deepresearch.providers import corpus_index, pdf_outline, readers
from deepresearch.providers.corpus import CorpusSearch
from deepresearch.providers.pdf_outline import with_headings

_FILLER = [f"Sentence {n} of the report says something of little note here." for n in range(24)]


def _page_stream(lines: list[str]) -> bytes:
    shown = " T* ".join(f"({line}) Tj" for line in lines)
    return f"BT /F1 10 Tf 72 760 Td 12 TL {shown} ET".encode()


def _pdf(pages: list[list[str]], outline: list[tuple[str, int, int]]) -> bytes:
    """A PDF of ``pages`` (lines of Helvetica text each) with ``outline``: (title, page,
    parent index in ``outline`` or -1), written by pypdf."""
    pypdf = pytest.importorskip("pypdf")
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = pypdf.PdfWriter()
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    for lines in pages:
        page = writer.add_blank_page(612, 792)
        stream = DecodedStreamObject()
        stream.set_data(_page_stream(lines))
        page[NameObject("/Contents")] = writer._add_object(stream)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
    items: list[object] = []
    for title, page_number, parent in outline:
        items.append(
            writer.add_outline_item(
                title=title,
                page_number=page_number,
                parent=items[parent] if parent >= 0 else None,
            )
        )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _report() -> list[list[str]]:
    return [
        ["Annual report", *_FILLER[:6]],
        [
            "3 Findings",
            *_FILLER[:10],
            "3.2 Results",
            "Yields rose by nine percent in 2023.",
            *_FILLER,
        ],
        ["Closing words of the report stand here.", *_FILLER],
    ]


def test_a_pdfs_bookmarks_give_its_passages_heading_paths(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    outline = [("Findings", 1, -1), ("Results", 1, 0), ("Appendix", 2, -1)]
    path.write_bytes(_pdf(_report(), outline))
    doc = readers.read_document(path)
    passages = corpus_index._passages_of(doc)
    (results,) = [p for p in passages if "nine percent" in p.text]
    # the page's own heading line (with its number) names the section
    assert results.heading == "3 Findings › 3.2 Results"
    assert results.text.startswith("## 3.2 Results")
    # the line range counts lines of the text read, heading lines included
    lines = doc.outline.splitlines()
    assert lines[results.first_line - 1] == "## 3.2 Results"
    assert "Yields rose" in "\n".join(lines[results.first_line - 1 : results.last_line])
    # a bookmark whose title no line of its page reads: a heading line of its own
    (closing,) = [p for p in passages if "Closing words" in p.text]
    assert closing.heading == "Appendix"
    assert "Results." in doc.text and "#" not in doc.text  # headings read as sentences


def test_a_pdf_without_an_outline_has_no_headings(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(_pdf(_report(), []))
    doc = readers.read_document(path)
    assert doc.outline == ""
    assert {p.heading for p in corpus_index._passages_of(doc)} == {""}


async def test_a_cited_pdf_passage_is_titled_by_its_heading_path(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "report.pdf").write_bytes(_pdf(_report(), [("Findings", 1, -1), ("Results", 1, 0)]))
    corpus = CorpusSearch(folder, index_path=tmp_path / "i.sqlite")
    hits = await corpus.search("yields nine percent", max_results=3)
    assert hits[0].title == "report › 3.2 Results"  # a passage's title: its own heading
    first, last = hits[0].lines or (0, 0)
    assert hits[0].url.endswith(f"report.pdf#L{first}-{last}")


def test_headings_go_on_the_line_that_reads_as_the_title() -> None:
    pages = [["Intro text here."], ["2.1. Directory layout", "Files live here."]]
    marks = [(1, 2, "Directory layout")]
    assert with_headings(pages, marks).splitlines() == [
        "Intro text here.",
        "",
        "## 2.1. Directory layout",
        "Files live here.",
    ]


def test_a_title_no_line_reads_as_is_a_line_of_its_own_where_its_page_starts() -> None:
    pages = [["Intro text here."], ["Files live here.", "Directory layout is nested."]]
    assert with_headings(pages, [(1, 1, "Directory layout")]).splitlines() == [
        "Intro text here.",
        "",
        "# Directory layout",
        "Files live here.",
        "Directory layout is nested.",
    ]


def test_markdown_like_pdf_lines_are_indented_out_of_the_way() -> None:
    pages = [["Usage", "# update-mime-database output", "```"]]
    lines = with_headings(pages, [(0, 1, "Usage")]).splitlines()
    assert lines == ["# Usage", "    # update-mime-database output", "    ```"]


def test_no_bookmarks_no_outline() -> None:
    assert with_headings([["Some text."]], []) == ""
    assert with_headings([["Some text."]], [(5, 1, "Past the last page")]) == ""


def test_bookmarks_keep_document_order_and_nesting(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    pages = [["One"], ["One.A"], ["Two"]]
    # (title, page, parent): 'back' points before the bookmark above it, so is left out
    outline = [("One", 0, -1), ("One.A", 1, 0), ("deep", 1, 1), ("back", 0, 0), ("Two", 2, -1)]
    reader = pypdf.PdfReader(io.BytesIO(_pdf(pages, outline)))
    assert pdf_outline.bookmarks(reader) == [
        (0, 1, "One"),
        (1, 2, "One.A"),
        (1, 3, "deep"),
        (2, 1, "Two"),
    ]
