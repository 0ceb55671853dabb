"""A folder's site chrome (page_chrome) and HTML read as Markdown (readers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepresearch.providers.corpus import CorpusSearch
from deepresearch.providers.page_chrome import line_key, pages_without_chrome
from deepresearch.providers.readers import Document, read_document, without_chrome

THEME = (
    '<div id="help"><h2>Keyboard shortcuts</h2><p>Press S or / to search in the book</p>'
    "<p>Press Esc to hide this help</p></div><ul><li>Light</li><li>Navy</li></ul>"
    '<nav class="sidebar"><ol><li>Introduction</li><li>Ownership</li></ol></nav>'
    "<h1>The Book</h1>"
)
FOOTER = "<p>Built with a static site generator, version 0.4.52.</p>"


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body>{THEME}{body}{FOOTER}</body></html>"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    root.mkdir()
    chapters = {
        "ownership": "<h2>Ownership</h2><p>Each value in Rust has an owner, and there can only "
        "be one owner at a time.</p><p>Let us recap the rules:</p><ul><li>Each value has an "
        "owner.</li><li>When the owner goes out of scope, the value is dropped.</li></ul>",
        "borrowing": "<h2>Borrowing</h2><p>A reference borrows a value without taking "
        "ownership of it.</p><pre>fn main() {\n    let len = length(&amp;s);\n}</pre>",
        "types": "<h2>Types</h2><table><tr><th>Type</th><th>Size</th></tr>"
        "<tr><td>i32</td><td>4 bytes</td></tr><tr><td>u8</td><td>1 byte</td></tr></table>",
        "cargo": "<h2>Cargo</h2><p>Cargo builds your code and downloads the libraries it "
        "depends on.</p>",
    }
    for name, body in chapters.items():
        (root / f"{name}.html").write_text(_page(name.title(), body), "utf-8")
    return root


def test_html_lists_code_and_tables_read_as_markdown(book: Path) -> None:
    doc = read_document(book / "types.html")
    assert "| Type | Size |" in doc.outline and "| i32 | 4 bytes |" in doc.outline
    borrowing = read_document(book / "borrowing.html").outline
    assert "```\nfn main() {" in borrowing  # <pre> is a code block, not prose
    ownership = read_document(book / "ownership.html").outline
    assert "- When the owner goes out of scope, the value is dropped." in ownership
    assert "Introduction" not in ownership  # <nav> is skipped


def test_hidden_elements_are_skipped(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text(
        "<p>Visible text here.</p><div hidden><p>Secret menu</p><input hidden></div>"
        '<div aria-hidden="true">Popup</div><p>After the popup.</p>',
        "utf-8",
    )
    text = read_document(page).text
    assert "Visible text here." in text and "After the popup." in text
    assert "Secret menu" not in text and "Popup" not in text


async def test_a_folders_site_chrome_is_never_searched_or_shown(book: Path) -> None:
    corpus = CorpusSearch(book)
    hits = await corpus.search("press esc to hide this help", max_results=5)
    assert not [h for h in hits if "Press Esc" in h.content or "Press Esc" in h.snippet]
    (hit,) = await corpus.extract([str(book.resolve() / "cargo.html")])
    assert hit.content.startswith("Cargo.")  # the chapter, not the theme's help
    assert "Press Esc" not in hit.content and "Navy" not in hit.content
    assert "static site generator" not in hit.content and "The Book" not in hit.content
    assert "Cargo builds your code" in hit.content


async def test_one_page_has_no_chrome_to_tell(tmp_path: Path) -> None:
    # A line at the top of one file (or two) is content: chrome needs MIN_FILES files.
    (tmp_path / "a.html").write_text(_page("A", "<p>Alpha text of the page.</p>"), "utf-8")
    (hit,) = await CorpusSearch(tmp_path).extract([str(tmp_path.resolve() / "a.html")])
    assert "Press Esc to hide this help" in hit.content


def test_a_run_of_shared_headings_is_structure_not_chrome() -> None:
    doc = Document(title="t", text="Synopsis.\nnpm ci", outline="### Synopsis\nnpm ci")
    assert without_chrome(doc, {line_key("### Synopsis")}) == doc
    blanked = without_chrome(doc, {line_key("### Synopsis"), line_key("npm ci")})
    assert blanked.outline.strip() == ""


def test_chrome_lines_keep_the_files_line_numbers() -> None:
    outline = "Menu item one\nMenu item two\n# Title\nBody line.\n"
    doc = Document(title="t", text=outline, outline=outline)
    kept = without_chrome(doc, {line_key("Menu item one"), line_key("Menu item two")})
    assert kept.outline.splitlines()[2:4] == ["# Title", "Body line."]


def test_a_pdfs_running_header_and_page_numbers_are_dropped() -> None:
    pages = [
        f"Shared Database\n{body}\n{n}"
        for n, body in enumerate(["Intro words.", "Globs come first.", "Magic next.", "End."], 1)
    ]
    kept = pages_without_chrome(pages)
    assert kept[1] == "Globs come first."
    assert all("Shared Database" not in page for page in kept)
    assert pages_without_chrome(pages[:2]) == pages[:2]  # two pages cannot tell


async def test_a_pages_passages_cite_the_pages_own_lines(tmp_path: Path) -> None:
    # Three paragraphs to a file line, one wrapped: the text's lines are not the file's.
    filler = "\n".join(
        f"<p>Filler {n} says\nnothing.</p><p>More filler {n}.</p><p>Still more {n}.</p>"
        for n in range(30)
    )
    page = (
        f"<html><head><title>Strings</title></head><body>\n<h1>Strings</h1>\n{filler}\n"
        "<h2>Indexing</h2>\n<p>Indexing operations are expected\nto take constant time.</p>\n"
        f"{filler}\n</body></html>\n"
    )
    (tmp_path / "strings.html").write_text(page, "utf-8")
    hit = next(
        h
        for h in await CorpusSearch(tmp_path).search("indexing constant time", max_results=3)
        if "constant time" in h.content
    )
    assert hit.lines is not None
    first, last = hit.lines
    cited = "\n".join(page.splitlines()[first - 1 : last])
    assert "expected\nto take constant time" in cited  # the quoted lines, as the file has them
    assert hit.url.endswith(f"#L{first}-{last}")
