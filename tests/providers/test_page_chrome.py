"""A folder's site chrome (page_chrome) and HTML read as Markdown (readers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepresearch.providers import page_chrome
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


def _manual_page(name: str, nav: str, body: str) -> str:
    """A page of a GNU (texinfo) manual: its navigation line names its neighbours."""
    return (
        f"<html><head><title>{name} (the manual)</title></head><body>\n"
        f'<div class="header"><p>\n{nav} &nbsp; [<a href="Index.html" rel="index">Index</a>]'
        f"</p></div>\n<hr>\n<h3>{name}</h3>\n{body}\n</body></html>\n"
    )


@pytest.fixture
def manual(tmp_path: Path) -> Path:
    names = ["Types", "Closures", "Structures", "Memory", "Threads"]
    for k, name in enumerate(names):
        links = []
        if k + 1 < len(names):
            links.append(f'Next: <a href="{names[k + 1]}.html" rel="next">{names[k + 1]}</a>')
        if k:
            links.append(f'Previous: <a href="{names[k - 1]}.html" rel="prev">{names[k - 1]}</a>')
        links.append('Up: <a href="index.html" rel="up">Using the library</a>')
        body = f"<p>{name} are described here; the library handles {name.lower()} itself.</p>"
        (tmp_path / f"{name}.html").write_text(_manual_page(name, ", ".join(links), body))
    return tmp_path


async def test_navigation_lines_most_pages_open_with_are_chrome(manual: Path) -> None:
    # Each page's line names other neighbours, so no line is shared; the links are.
    corpus = CorpusSearch(manual)
    hits = await corpus.extract([str(p) for p in sorted(manual.resolve().glob("*.html"))])
    assert len(hits) == 5
    for hit in hits:
        assert "Next:" not in hit.content and "Up:" not in hit.content, hit.content
        assert "Index" not in hit.content
        assert "are described here" in hit.content
    assert not await corpus.search("previous next up index", max_results=5)


async def test_a_navigation_line_on_one_page_is_content(manual: Path, tmp_path: Path) -> None:
    # The same line on one page of a folder whose other pages have none: not chrome.
    for name in ("Types", "Closures", "Structures", "Memory"):
        (manual / f"{name}.html").write_text(_page(name, f"<p>{name} text.</p>"), "utf-8")
    (hit,) = await CorpusSearch(manual).extract([str(manual.resolve() / "Threads.html")])
    assert hit.content.startswith("Previous: Memory, Up: Using the library")


def test_navigation_lines_are_marked_by_their_links() -> None:
    outline = Document(title="t", text="x", outline="Next: A, Up: B\n# A\nBody text here.")
    nav = Document(title="t", text="x", outline=outline.outline, nav_lines=frozenset({0}))
    assert without_chrome(outline, {page_chrome.nav_key()}) == outline  # not marked: kept
    assert without_chrome(nav, {page_chrome.nav_key()}).outline.splitlines()[0] == ""


def test_a_page_of_navigation_alone_keeps_its_links() -> None:
    # An index page made of links only is what the page says, not chrome around it.
    outline = "- Types\n- Closures\n- Threads"
    doc = Document(title="t", text=outline, outline=outline, nav_lines=frozenset({0, 1, 2}))
    assert without_chrome(doc, {page_chrome.nav_key()}) == doc


def test_a_pages_own_table_of_contents_and_role_navigation_are_dropped(tmp_path: Path) -> None:
    page = tmp_path / "mc-manual.html"
    page.write_text(
        '<div role="navigation"><ul><li><a href="dns.html">DNS</a></li></ul></div>'
        '<h1><a href="#top">Memcheck</a></h1><div class="toc"><p><b>Table of Contents</b></p>'
        '<dl><dt><a href="mc-manual.html#overview">4.1. Overview</a></dt>'
        '<dt><a href="#errors">4.2. Uninitialised values</a></dt></dl></div>'
        '<h2 id="overview">4.1. Overview</h2><p>Memcheck detects memory errors; see '
        '<a href="#errors">uninitialised values</a>.</p>'
        '<h2 id="errors">4.2. Uninitialised values</h2><p>Reading one is reported.</p>',
        "utf-8",
    )
    doc = read_document(page)
    lines = doc.outline.splitlines()
    assert "# Memcheck" in lines  # a heading linking to itself is a heading
    assert "## 4.1. Overview" in lines and "## 4.2. Uninitialised values" in lines
    assert "4.1. Overview" not in lines and "4.2. Uninitialised values" not in lines
    assert "Memcheck detects memory errors; see uninitialised values." in lines  # prose
    assert "DNS" not in doc.text  # role="navigation" is a <nav>


async def test_chrome_is_counted_among_the_files_of_one_format(tmp_path: Path) -> None:
    # Three HTML pages share a theme; five Markdown notes do not: 3 of 8 files, 3 of 3 pages.
    for name in ("ownership", "borrowing", "cargo"):
        body = f"<h2>{name.title()}</h2><p>{name.title()} is explained on this page.</p>"
        (tmp_path / f"{name}.html").write_text(_page(name.title(), body), "utf-8")
    for n in range(5):
        (tmp_path / f"note{n}.md").write_text(f"# Note {n}\n\nA note numbered {n}.\n", "utf-8")
    (hit,) = await CorpusSearch(tmp_path).extract([str(tmp_path.resolve() / "cargo.html")])
    assert "Press Esc" not in hit.content and "static site generator" not in hit.content
    assert "Cargo is explained on this page." in hit.content


def test_a_running_header_that_names_the_chapter_and_the_page_is_dropped() -> None:
    # Each chapter's header differs, so no line is shared by half of the pages; the page
    # number rising by one a page (printed 3 on the first page here) tells them.
    chapters = ["Chapter 1: Introduction"] * 2 + ["Chapter 2: Parsing"] * 3
    ends = ["Items: 4", "See page 2", "Steps: 4", "Rules in figure 9", "Step 3 of 4"]
    bodies = ["Globs come first.", "Magic is next.", "Then XML.", "Aliases.", "Icons last."]
    pages = [
        f"{chapter} {n + 3}\n{body}\n{end}"
        for n, (chapter, body, end) in enumerate(zip(chapters, bodies, ends, strict=True))
    ]
    kept = pages_without_chrome(pages)
    assert kept[0] == "Globs come first.\nItems: 4"  # 4 is not page 3's number
    assert all("Chapter" not in page for page in kept)
    assert [page.splitlines()[-1] for page in kept] == ends  # no page's own number


def test_the_site_name_most_titles_end_with_is_found() -> None:
    titles = [f"{name} - The Book" for name in ("Ownership", "Borrowing", "Cargo")]
    assert page_chrome.title_chrome([*titles, "The Book"]) == " - The Book"
    manual = [f"{n} (libffi: the manual)" for n in ("Types", "Closures", "Memory")]
    assert page_chrome.title_chrome(manual) == " (libffi: the manual)"
    # Two pages sharing an end, or a title that is all end, are not a site's name.
    assert page_chrome.title_chrome(["A - B", "C - B", "D", "E", "F"]) == ""
    assert page_chrome.without_title_chrome("The Book", " - The Book") == "The Book"


async def test_hits_show_a_pages_title_without_the_sites_name(tmp_path: Path) -> None:
    for name in ("Ownership", "Borrowing", "Cargo"):
        body = f"<h2>{name}</h2><p>{name} is explained on this page at some length.</p>"
        (tmp_path / f"{name.lower()}.html").write_text(_page(f"{name} - The Book", body))
    (tmp_path / "notes.md").write_text("# Cargo - The Book\n\nMy note on cargo.\n", "utf-8")
    hits = await CorpusSearch(tmp_path).search("cargo explained", max_results=5)
    titles = {h.url.rsplit("/", 1)[-1]: h.title for h in hits}
    assert titles["cargo.html"] == "Cargo"
    assert titles["notes.md"] == "Cargo - The Book"  # one Markdown file: its own title
