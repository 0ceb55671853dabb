from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from deepresearch.errors import CorpusError
from deepresearch.providers import readers, vectors
from deepresearch.providers.base import SearchProvider
from deepresearch.providers.corpus import (
    CONTENT_CHARS,
    CorpusSearch,
    CorpusWarning,
    IndexStats,
)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("DEEPRESEARCH_HOME", str(home))
    return home


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    (root / "biology").mkdir(parents=True)
    (root / "photosynthesis.md").write_text(
        "Intro line\n\n# Photosynthesis basics\n\nPlants turn light energy into sugar "
        "inside chloroplasts.\n",
        encoding="utf-8",
    )
    (root / "biology" / "chlorophyll.txt").write_text(
        "Chlorophyll is the green pigment that absorbs light.", encoding="utf-8"
    )
    (root / "printing.html").write_text(
        "<html><head><title>The Printing Press</title><style>p {color: red}</style>"
        "<script>var gutenberg = 1;</script></head><body><h1>Gutenberg</h1>"
        "<p>Movable type spread books &amp; literacy across Europe.</p></body></html>",
        encoding="utf-8",
    )
    return root


@pytest.fixture
def read_log(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the files the indexer reads, in order."""
    log: list[str] = []
    real = readers.read_document

    def logged(path: Path) -> readers.Document:
        log.append(path.name)
        return real(path)

    monkeypatch.setattr(readers, "read_document", logged)
    return log


def _titles(hits: list[Any]) -> list[str]:
    return [hit.title for hit in hits]


async def test_indexes_markdown_text_and_html(folder: Path) -> None:
    corpus = CorpusSearch(folder)
    assert isinstance(corpus, SearchProvider)
    assert corpus.name == "corpus"
    assert corpus.index() == IndexStats(added=3)

    # Lexical matches first; dense vectors may add related files after them.
    hit = (await corpus.search("photosynthesis", max_results=5))[0]
    assert hit.title == "Photosynthesis basics"  # the first '#' heading, not the first line
    assert hit.url == str(folder.resolve() / "photosynthesis.md")
    assert hit.domain == "local"
    assert hit.snippet.startswith("Intro line")
    assert hit.score is not None and hit.score > 0

    hit = (await corpus.search("green pigment", max_results=5))[0]
    assert (hit.title, hit.domain) == ("chlorophyll", "biology")  # file stem, parent folder

    hit = (await corpus.search("movable type", max_results=5))[0]
    assert hit.title == "The Printing Press"
    assert "books & literacy" in hit.content
    assert "color" not in hit.content and "var gutenberg" not in hit.content


async def test_title_matches_rank_first(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.md").write_text("# Farming\n\nPotato potato potato fields and more.", "utf-8")
    (root / "b.md").write_text("# Potato\n\nA tuber grown in fields.", "utf-8")
    hits = await CorpusSearch(root).search("potato", max_results=5)
    assert _titles(hits) == ["Potato", "Farming"]


async def test_a_query_that_is_a_title_finds_that_entry_however_common_its_word(
    tmp_path: Path,
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "main.md").write_text(
        "# Christianity\n\nA religion based on the life and teachings of Jesus. It began in "
        "the first century in Judea and spread across the Roman world.", "utf-8"
    )  # fmt: skip
    for n, topic in enumerate(["democracy", "philosophy", "art", "music", "names"]):
        (root / f"c{n}.md").write_text(
            f"# Christian {topic}\n\nChristian {topic}: Christian ideas.", "utf-8"
        )
    hits = await CorpusSearch(root).search("Christianity", max_results=3)
    assert _titles(hits)[0] == "Christianity"


def test_binary_empty_and_undecodable_files_are_skipped(folder: Path) -> None:
    (folder / "binary.txt").write_bytes(b"\x89PNG\x00\x01\x02")
    (folder / "empty.md").write_text("  \n", encoding="utf-8")
    # no NUL byte, but no encoding reads these bytes as clean text
    (folder / "garbled.txt").write_bytes(bytes(range(1, 256)) * 4)
    corpus = CorpusSearch(folder)
    with pytest.warns(CorpusWarning) as caught:
        stats = corpus.index()
    assert (stats.added, stats.skipped) == (3, 3)
    reasons = {Path(item.path).name: item.reason for item in corpus.skipped}
    assert set(reasons) == {"binary.txt", "empty.md", "garbled.txt"}
    assert "binary" in reasons["binary.txt"]
    assert reasons["garbled.txt"] == "not UTF-8 text: re-save the file as UTF-8"
    # pytest.warns records every warning raised meanwhile, other threads' too: count ours.
    ours = [
        w for w in caught if issubclass(w.category, CorpusWarning) and str(folder) in str(w.message)
    ]
    assert len(ours) == 3
    # A skipped file is not read again until it changes.
    assert corpus.index() == IndexStats(skipped=3, unchanged=3)


def test_unreadable_file_is_skipped(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = folder / "secret.md"
    secret.write_text("# Secret\n\nclassified", encoding="utf-8")
    real_open = os.open

    def deny(path: Any, flags: int, *args: Any) -> int:
        if Path(path).name == "secret.md":  # chmod does not stop root, so deny it here
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", deny)
    corpus = CorpusSearch(folder)
    with pytest.warns(CorpusWarning, match="permission denied"):
        corpus.index()
    assert [item.path for item in corpus.skipped] == [str(secret.resolve())]
    assert asyncio.run(corpus.search("classified", max_results=5)) == []


def test_pdf_without_pypdf_is_skipped_naming_the_extra(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (folder / "paper.pdf").write_bytes(b"%PDF-1.4\n")
    monkeypatch.setitem(sys.modules, "pypdf", None)  # import now fails
    corpus = CorpusSearch(folder)
    with pytest.warns(CorpusWarning, match=r"deepresearch-sdk\[pdf\]"):
        assert corpus.index().skipped == 1


def test_a_damaged_pdf_is_one_corpus_warning_and_nothing_from_pypdf(
    folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("pypdf")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf")
    corpus = CorpusSearch(folder)
    with pytest.warns(CorpusWarning, match="not a readable PDF"):
        assert corpus.index().skipped == 1
    # pypdf's own "EOF marker not found", which Python prints to stderr by default
    assert not [r for r in caplog.records if r.name.startswith("pypdf")]


async def test_pdf_text_is_indexed(folder: Path) -> None:
    (folder / "paper.pdf").write_bytes(_minimal_pdf("Stomata regulate gas exchange"))
    (hit,) = await CorpusSearch(folder).search("stomata", max_results=5)
    assert hit.title == "paper"
    assert "gas exchange" in hit.content


async def test_a_pdfs_hash_lines_are_text_not_headings(folder: Path) -> None:
    # A PDF's text is not Markdown: '# comment' in an example opens no section.
    filler = [f"Line {n} of the specification says little of note here." for n in range(30)]
    lines = [*filler, "# update-mime-database command. DO NOT EDIT!", "text/x-diff:*.patch"]
    (folder / "spec.pdf").write_bytes(_minimal_pdf("\n".join([*lines, *filler])))
    hits = await CorpusSearch(folder).search("update-mime-database patch", max_results=5)
    (hit,) = [h for h in hits if "spec.pdf" in h.url]
    assert hit.title == "spec" and "DO NOT EDIT!" in hit.content


def test_hidden_and_unsupported_files_are_ignored_silently(folder: Path) -> None:
    (folder / "data.csv").write_text("potato,1", encoding="utf-8")
    (folder / ".draft.md").write_text("potato", encoding="utf-8")
    (folder / ".git").mkdir()
    (folder / ".git" / "notes.md").write_text("potato", encoding="utf-8")
    corpus = CorpusSearch(folder)
    assert corpus.index() == IndexStats(added=3)
    assert asyncio.run(corpus.search("potato", max_results=5)) == []


async def test_incremental_reindex_reads_only_changed_files(
    folder: Path, read_log: list[str]
) -> None:
    corpus = CorpusSearch(folder)
    assert corpus.index().added == 3
    read_log.clear()

    changed = folder / "biology" / "chlorophyll.txt"
    changed.write_text("Chlorophyll also appears in algae and cyanobacteria.", encoding="utf-8")
    os.utime(changed, ns=(1, 1_000_000_000))  # a distinct mtime even on coarse clocks
    (folder / "printing.html").unlink()
    (folder / "respiration.md").write_text("# Respiration\n\nCells burn sugar.", "utf-8")

    stats = await corpus.refresh()
    assert stats == IndexStats(added=1, updated=1, removed=1, unchanged=1)
    assert sorted(read_log) == ["chlorophyll.txt", "respiration.md"]
    assert _titles(await corpus.search("cyanobacteria", max_results=5)) == ["chlorophyll"]
    assert await corpus.search("gutenberg movable", max_results=5) == []
    assert _titles(await corpus.search("respiration", max_results=5)) == ["Respiration"]


def test_index_is_reused_by_a_new_instance(folder: Path, read_log: list[str]) -> None:
    first = CorpusSearch(folder)
    first.index()
    first.close()
    read_log.clear()
    assert CorpusSearch(folder).index() == IndexStats(unchanged=3)
    assert read_log == []


@pytest.mark.parametrize(
    "query",
    ['"', '""chlorophyll', "chlorophyll AND OR NOT", "chloro*", "title:chlorophyll", "(((",
     "NEAR(light sugar)", "'; DROP TABLE docs; --", "^light", "-light +sugar", "light\x00",
     "Zürich naïve 光合作用", "{light} [sugar] <b>"],
)  # fmt: skip
async def test_special_characters_never_raise(folder: Path, query: str) -> None:
    hits = await CorpusSearch(folder).search(query, max_results=5)
    assert isinstance(hits, list)


async def test_quoted_words_still_match(folder: Path) -> None:
    hits = await CorpusSearch(folder).search('what does "chlorophyll" do?', max_results=5)
    # The file that has the word first; dense vectors may add related files after it.
    assert _titles(hits)[0] == "chlorophyll"
    assert "The Printing Press" not in _titles(hits)


@pytest.mark.parametrize("query", ["", "   ", "what is the", "a ? !", "*"])
async def test_empty_or_stopword_query_returns_nothing(folder: Path, query: str) -> None:
    assert await CorpusSearch(folder).search(query, max_results=5) == []


async def test_a_text_stating_a_quoted_phrase_comes_first(tmp_path: Path) -> None:
    """Texts using the phrase's words apart rank above the one stating it by words alone
    (the title weighs more); quoted, the phrase puts the text stating it first."""
    root = tmp_path / "islands"
    root.mkdir()
    for name in ("baffin", "honshu", "luzon"):
        (root / f"{name}.md").write_text(
            f"# {name.title()}, the largest island of its world region\n\nIt is the "
            "world's seventh-largest island.\n",
            encoding="utf-8",
        )
    (root / "greenland.md").write_text(
        "# Greenland\n\nGreenland is a territory of Denmark, between the Arctic and the "
        "Atlantic, east of the Canadian Arctic Archipelago, with a capital, Nuuk, on its "
        "south-west coast and an ice sheet over most of its land. It is the world's largest "
        "island.\n",
        encoding="utf-8",
    )
    search = CorpusSearch(root)
    plain = await search.search("world's largest island", max_results=4)
    assert plain[0].title != "Greenland"
    quoted = await search.search('"the world\'s largest island"', max_results=4)
    assert quoted[0].title == "Greenland"


async def test_max_results_limits_hits(folder: Path) -> None:
    corpus = CorpusSearch(folder)
    assert len(await corpus.search("light sugar green", max_results=1)) == 1
    assert await corpus.search("light", max_results=0) == []


async def test_extract_returns_full_content_of_indexed_paths(folder: Path) -> None:
    long_text = "# Long\n\n" + "word " * 15_000
    (folder / "long.md").write_text(long_text, encoding="utf-8")
    corpus = CorpusSearch(folder)
    root = folder.resolve()
    hits = await corpus.extract(
        [str(root / "long.md"), "biology/chlorophyll.txt", f"file://{root}/printing.html",
         str(root / "missing.md"), "https://example.com/x"]
    )  # fmt: skip
    assert [hit.title for hit in hits] == ["Long", "chlorophyll", "The Printing Press"]
    assert len(hits[0].content) == CONTENT_CHARS
    assert hits[1].url == str(root / "biology" / "chlorophyll.txt")


async def test_extract_accepts_paths_through_a_symlinked_folder(
    folder: Path, tmp_path: Path
) -> None:
    link = tmp_path / "link"
    link.symlink_to(folder, target_is_directory=True)
    corpus = CorpusSearch(link)
    (hit,) = await corpus.extract([str(link / "printing.html")])
    assert hit.url == str(folder.resolve() / "printing.html")


def test_missing_folder_or_file_raises_corpus_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="does not exist"):
        CorpusSearch(tmp_path / "nope")
    file = tmp_path / "file.md"
    file.write_text("x", encoding="utf-8")
    with pytest.raises(CorpusError, match="not a folder"):
        CorpusSearch(file)


def test_a_folder_with_nothing_readable_raises_corpus_error_saying_what_it_holds(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CorpusError, match=r"has no document .*\(it is empty; readable: .*\.md"):
        asyncio.run(CorpusSearch(empty).search("anything", max_results=5))
    for name in ("guide.docx", "intro.docx", "logo.png"):
        (empty / name).write_text("Guide", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"it holds 2 \.docx, 1 \.png files"):
        CorpusSearch(empty).index()
    (empty / "notes.md").write_text("  \n", encoding="utf-8")  # readable, but says nothing
    with pytest.warns(CorpusWarning), pytest.raises(CorpusError, match=r"notes\.md was skipped"):
        CorpusSearch(empty).index()
    (empty / "notes.md").write_text("# Notes\n\nThe guide is written in Word.", "utf-8")
    assert CorpusSearch(empty).index().added == 1  # one readable file is enough


def test_damaged_index_file_raises_corpus_error(folder: Path, tmp_path: Path) -> None:
    index = tmp_path / "bad.sqlite"
    index.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CorpusError, match="Delete the file"):
        CorpusSearch(folder, index_path=index).index()


def test_index_location(folder: Path, tmp_path: Path, _home: Path) -> None:
    default = CorpusSearch(folder).index_file
    assert default.parent == _home / "indexes"
    assert folder.resolve() not in default.parents
    (tmp_path / "idx").mkdir()
    assert CorpusSearch(folder, index_path=tmp_path / "idx").index_file.parent == tmp_path / "idx"
    explicit = tmp_path / "mine.sqlite"
    assert CorpusSearch(folder, index_path=explicit).index_file == explicit


def test_index_of_another_folder_is_rebuilt(folder: Path, tmp_path: Path) -> None:
    index = tmp_path / "shared.sqlite"
    CorpusSearch(folder, index_path=index).index()
    other = tmp_path / "other"
    other.mkdir()
    (other / "one.md").write_text("# One\n\nsolo", encoding="utf-8")
    assert CorpusSearch(other, index_path=index).index() == IndexStats(added=1)


async def test_concurrent_searches_share_one_index(folder: Path, read_log: list[str]) -> None:
    corpus = CorpusSearch(folder)
    queries = ["light", "pigment", "movable type", "sugar", "europe"] * 4
    results = await asyncio.gather(*(corpus.search(q, max_results=3) for q in queries))
    assert sorted(read_log) == ["chlorophyll.txt", "photosynthesis.md", "printing.html"]
    for query, hits in zip(queries, results, strict=True):
        assert hits == await corpus.search(query, max_results=3)
        assert hits, query


RECORDS = [
    {"title": "Potato", "text": "The potato is a starchy tuber.", "url": "https://a.org/potato"},
    {"title": "Rice", "text": "Rice is a cereal grain.", "url": "https://b.org/rice",
     "domain": "Grains", "snippet": "A staple food"},
]  # fmt: skip


class _ForbiddenRecords:
    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        raise AssertionError("records were read although the fingerprint matched")


async def test_from_records_search_and_extract(tmp_path: Path) -> None:
    corpus = CorpusSearch.from_records(RECORDS, index_path=tmp_path / "r.sqlite")
    assert corpus.name == "records"
    (potato,) = await corpus.search("starchy tuber", max_results=5)
    assert (potato.url, potato.domain) == ("https://a.org/potato", "a.org")
    assert potato.lines is None  # a record (the demo corpus' kind) is a whole document
    assert potato.snippet == "The potato is a starchy tuber."
    (rice,) = await corpus.extract(["https://b.org/rice", "https://nope.org"])
    assert (rice.domain, rice.snippet, rice.content) == (
        "Grains",
        "A staple food",
        RECORDS[1]["text"],
    )


def test_from_records_rebuilds_only_when_fingerprint_changes(tmp_path: Path) -> None:
    index = tmp_path / "r.sqlite"
    built = CorpusSearch.from_records(RECORDS, index_path=index, name="crops", fingerprint="v1")
    assert built.index() == IndexStats(added=2)
    built.close()
    reused = CorpusSearch.from_records(
        _ForbiddenRecords(), index_path=index, name="crops", fingerprint="v1"
    )
    assert reused.index() == IndexStats(unchanged=2)
    rebuilt = CorpusSearch.from_records(
        RECORDS[:1], index_path=index, name="crops", fingerprint="v2"
    )
    assert rebuilt.index() == IndexStats(added=1, removed=2)


def test_from_records_skips_records_without_url_or_text(tmp_path: Path) -> None:
    records = [*RECORDS, {"title": "No url", "text": "x"}, {"url": "https://c.org", "text": " "}]
    corpus = CorpusSearch.from_records(records, index_path=tmp_path / "r.sqlite")
    with pytest.warns(CorpusWarning):
        assert corpus.index() == IndexStats(added=2, skipped=2)


def _minimal_pdf(text: str) -> bytes:
    """A one-page PDF that shows ``text`` in Helvetica, a line per line, with a correct xref
    table."""
    shown = " T* ".join(f"({line}) Tj" for line in text.splitlines())
    stream = f"BT /F1 10 Tf 72 760 Td 12 TL {shown} ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_markdown_headings_become_sentences_of_their_own(tmp_path: Path) -> None:
    page = tmp_path / "charters.md"
    page.write_text(
        "# Guild charters\n\nCharters were granted by the counts in 1127.\n\n"
        "## Later history ##\nThey spread to Holland within a century.\n",
        encoding="utf-8",
    )
    doc = readers.read_document(page)
    assert doc.title == "Guild charters"
    assert "#" not in doc.text
    assert doc.text.startswith("Guild charters.\n\nCharters were granted")
    assert "Later history.\nThey spread" in doc.text


# -- passages, hybrid retrieval and file safety (issues 12 and 13) ----------------------
def _long_markdown() -> str:
    filler = " ".join(
        f"Background sentence number {i} about nothing in particular." for i in range(40)
    )
    return (
        "# Handbook\n\nIntro paragraph of the handbook.\n\n## Budgets\n\n"
        f"{filler}\n\n### Token limits\n\nWhen content is too long the budget is cut by "
        f"ten percent and the call retried.\n\n## Supervision\n\n{filler}\n"
    )


async def test_long_files_are_found_and_cited_by_passage(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "handbook.txt").write_text(_long_markdown(), "utf-8")  # Markdown by content
    corpus = CorpusSearch(root)
    hit = (await corpus.search("content too long retried", max_results=3))[0]
    assert hit.title == "Handbook › Token limits"
    path = str(root.resolve() / "handbook.txt")
    assert hit.url.startswith(path + "#L") and "ten percent" in hit.content
    assert "Background sentence" not in hit.content  # the passage, not the whole file
    (again,) = await corpus.extract([hit.url])
    assert (again.url, again.content) == (hit.url, hit.content)
    (whole,) = await corpus.extract([path])
    assert "Background sentence" in whole.content


async def test_a_passage_says_where_it_sits_in_its_file(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "handbook.md").write_text(_long_markdown(), "utf-8")
    (root / "short.md").write_text("# Short\n\nContent is cut by ten percent.", "utf-8")
    corpus = CorpusSearch(root)
    hits = await corpus.search("content cut ten percent intro handbook", max_results=10)
    middle = next(h for h in hits if h.title == "Handbook › Token limits")
    first, last = middle.lines or (0, 0)
    assert 1 < first <= last and middle.url.endswith(f"#L{first}-{last}")
    (again,) = await corpus.extract([middle.url])
    assert again.lines == middle.lines  # extracting the citation gives the same passage
    opening = next(h for h in hits if h.title == "Handbook")
    assert opening.lines is not None and opening.lines[0] == 1  # the file's first passage
    short = next(h for h in hits if h.title == "Short")
    assert short.lines is None and "#" not in short.url  # a one-passage file is whole
    (whole,) = await corpus.extract([str(root.resolve() / "handbook.md")])
    assert whole.lines is None


async def test_a_passage_names_the_passages_around_it_which_extract_reads(
    tmp_path: Path,
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "handbook.md").write_text(_long_markdown(), "utf-8")
    corpus = CorpusSearch(root)
    hits = await corpus.search("content cut ten percent intro handbook", max_results=10)
    middle = next(h for h in hits if h.title == "Handbook › Token limits")
    before, after = await corpus.extract(middle.around)
    assert before.title == "Handbook › Budgets" and after.title == "Handbook › Supervision"
    first, last = middle.lines or (0, 0)
    assert (before.lines or (0, 0))[1] < first and last < (after.lines or (0, 0))[0]
    assert middle.url in after.around and middle.url in before.around
    opening = next(h for h in hits if h.title == "Handbook")
    assert len(opening.around) == 1  # the file's first passage has only one after it
    (whole,) = await corpus.extract([str(root.resolve() / "handbook.md")])
    assert whole.around == []


async def test_html_headings_split_passages(tmp_path: Path) -> None:
    root = tmp_path / "site"
    root.mkdir()
    filler = "<p>" + "Filler words that say nothing. " * 60 + "</p>"
    (root / "page.html").write_text(
        f"<title>Guide</title><h1>Guide</h1>{filler}<h2>Install</h2><p>Run pip install "
        f"foo to set it up.</p>{filler}",
        "utf-8",
    )
    hit = (await CorpusSearch(root).search("pip install foo", max_results=2))[0]
    assert hit.title == "Guide › Install"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")
def test_fifo_is_skipped_not_read(folder: Path) -> None:
    os.mkfifo(folder / "pipe.txt")  # reading it would block forever
    corpus = CorpusSearch(folder)
    with pytest.warns(CorpusWarning, match="FIFO"):
        stats = corpus.index()
    assert (stats.added, stats.skipped) == (3, 1)
    assert corpus.skipped[0].reason == "not a regular file (a FIFO)"


def test_symlink_out_of_the_folder_is_not_followed(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "private.txt"
    outside.write_text("password hunter2", "utf-8")
    (folder / "passwd.txt").symlink_to(outside)
    (folder / "inside.txt").symlink_to(folder / "biology" / "chlorophyll.txt")
    corpus = CorpusSearch(folder)
    with pytest.warns(CorpusWarning, match="outside the corpus folder"):
        assert corpus.index().added == 4  # the link inside the folder is indexed
    assert asyncio.run(corpus.search("hunter2", max_results=5)) == []
    followed = CorpusSearch(folder, index_path=tmp_path / "f.sqlite", follow_symlinks=True)
    assert _titles(asyncio.run(followed.search("hunter2", max_results=5))) == ["passwd"]


def test_files_over_the_size_limit_are_skipped(folder: Path) -> None:
    (folder / "big.md").write_text("word " * 500, "utf-8")
    corpus = CorpusSearch(folder, max_file_bytes=1000)
    with pytest.warns(CorpusWarning, match="size limit"):
        assert corpus.index().skipped == 1


def test_utf16_files_are_read_as_text(folder: Path) -> None:
    (folder / "wide.txt").write_text("Zebras graze on the savanna.", encoding="utf-16")
    corpus = CorpusSearch(folder)
    assert corpus.index().added == 4
    (hit,) = asyncio.run(corpus.search("zebras", max_results=1))
    assert hit.content == "Zebras graze on the savanna."


async def test_cancelling_a_search_stops_indexing(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = asyncio.Event(), __import__("threading").Event()
    loop = asyncio.get_running_loop()
    real = readers.read_document

    def slow(path: Path) -> readers.Document:
        loop.call_soon_threadsafe(started.set)
        release.wait(5)
        return real(path)

    monkeypatch.setattr(readers, "read_document", slow)
    corpus = CorpusSearch(folder)
    task = asyncio.create_task(corpus.search("light", max_results=5))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    release.set()
    monkeypatch.setattr(readers, "read_document", real)
    for _ in range(100):  # the worker thread stops at the next file and releases the lock
        if corpus._lock.acquire(blocking=False):
            corpus._lock.release()
            break
        await asyncio.sleep(0.05)
    assert corpus._indexed is False  # nothing half-indexed was kept
    assert corpus.index() == IndexStats(added=3)


@pytest.mark.skipif(not vectors.available(), reason="wordllama (the vectors extra) not installed")
async def test_dense_vectors_find_a_paraphrase(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "cars.md").write_text("# Automobiles\n\nAutomobiles have engines and wheels.", "utf-8")
    (root / "fish.md").write_text("# Salmon\n\nSalmon swim upstream to spawn.", "utf-8")
    hits = await CorpusSearch(root).search("vehicle motor car", max_results=2)
    assert _titles(hits)[0] == "Automobiles"  # shares no word with the query


async def test_sessions_sharing_one_index_file_build_it_one_at_a_time(tmp_path: Path) -> None:
    """Several corpora over one folder and one new index file (a batch of sessions with the
    same --corpus) search at once: none may see the index mid-reset ("no such table")."""
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(30):
        (folder / f"n{i}.md").write_text(f"# Press {i}\n\nThe printing press spread to town {i}.\n")
    for round_ in range(12):
        index = tmp_path / f"index-{round_}.sqlite"
        corpora = [CorpusSearch(folder, index_path=index) for _ in range(6)]
        try:
            results = await asyncio.gather(
                *(c.search("printing press", max_results=3) for c in corpora)
            )
        finally:
            for c in corpora:
                c.close()
        assert all(len(hits) == 3 for hits in results)


async def test_a_passage_copied_into_another_file_is_found_once(tmp_path: Path) -> None:
    # The same words under the same headings in two files are one source, found in the
    # file fewer folders deep; a passage that differs by one word, or that another page
    # has under its own heading, is another source.
    root = tmp_path / "docs"
    (root / "backup").mkdir(parents=True)
    intro = "\n\n".join(f"Paragraph {n} introduces the tool at length." for n in range(40))
    lock = "## Lockfile\n\nInstall reads the lockfile and installs the exact versions it lists."
    (root / "install.md").write_text(f"# Install\n\n{intro}\n\n{lock}\n", "utf-8")
    copy = f"# INSTALL\n\n{intro}\n\n{lock.upper()}\n"  # case aside, the same words
    (root / "backup" / "install copy.md").write_text(copy, "utf-8")
    other = f"# Other\n\n{intro}\n\n{lock.replace('exact', 'newest')}\n"
    (root / "other.md").write_text(other, "utf-8")
    (root / "update.md").write_text(f"# Update\n\n{intro}\n\n{lock}\n", "utf-8")
    hits = await CorpusSearch(root).search("lockfile installs exact versions", max_results=5)
    lockfile = {h.url.split("#")[0] for h in hits if "lockfile" in h.content.lower()}
    assert lockfile == {
        str(root.resolve() / name) for name in ("install.md", "other.md", "update.md")
    }
