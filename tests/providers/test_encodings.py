from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from deepresearch.errors import UnreadableDocument
from deepresearch.providers import readers
from deepresearch.providers.corpus import CorpusSearch, CorpusWarning
from deepresearch.providers.encodings import decode_legacy

pytest.importorskip("charset_normalizer")

_FRENCH = "Le café servait une crème brûlée ; « naïve » façade, 5 € la part.\n"


def test_windows_1252_is_read_as_windows_1252() -> None:
    decoded = decode_legacy(b"caf\xe9 \x93quoted\x94")
    assert decoded is not None
    assert (decoded.text, decoded.encoding) == ("café “quoted”", "cp1252")


def test_a_tie_between_western_code_pages_goes_to_windows_1252() -> None:
    # Windows-1250 reads these bytes as cleanly, but as 'crčme brűlée'
    decoded = decode_legacy(_FRENCH.encode("cp1252"))
    assert decoded is not None and decoded.text == _FRENCH


def test_other_legacy_encodings_are_read_when_clear() -> None:
    russian = "Привет, как дела? Это текст на русском языке.\n"
    decoded = decode_legacy(russian.encode("cp1251"))
    assert decoded is not None and (decoded.text, decoded.encoding) == (russian, "cp1251")


def test_bytes_no_encoding_reads_cleanly_are_not_text() -> None:
    assert decode_legacy(bytes(range(1, 256)) * 4) is None


def test_clean_readings_that_differ_without_windows_1252_are_unclear() -> None:
    with pytest.raises(UnreadableDocument, match=r"encoding is unclear \(\w+, \w+"):
        decode_legacy("Привет".encode("cp1251"))  # one word: Chinese, Korean, Japanese too?


def test_a_text_file_in_windows_1252_is_read_and_says_its_encoding(tmp_path: Path) -> None:
    path = tmp_path / "menu.txt"
    path.write_bytes(_FRENCH.encode("cp1252"))
    doc = readers.read_document(path)
    assert (doc.text, doc.encoding) == (_FRENCH.strip(), "cp1252")
    utf8 = tmp_path / "menu.md"
    utf8.write_text(_FRENCH, encoding="utf-8")
    assert readers.read_document(utf8).encoding == ""


def test_an_html_page_in_windows_1252_is_read(tmp_path: Path) -> None:
    path = tmp_path / "menu.html"
    path.write_bytes(f"<html><body><h1>Menu</h1><p>{_FRENCH}</p></body></html>".encode("cp1252"))
    doc = readers.read_document(path)
    assert "crème brûlée" in doc.text and doc.encoding == "cp1252"


def test_the_corpus_reads_and_records_a_legacy_file(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "menu.txt").write_bytes(_FRENCH.encode("cp1252"))
    (folder / "plain.md").write_text("# Plain\n\nCafé in UTF-8.\n", encoding="utf-8")
    unclear = folder / "word.txt"
    unclear.write_bytes("Привет".encode("cp1251"))
    corpus = CorpusSearch(folder, index_path=tmp_path / "index.sqlite")
    with pytest.warns(CorpusWarning, match="encoding is unclear") as caught:
        stats = corpus.index()
    assert (stats.added, stats.skipped) == (2, 1)
    assert len([w for w in caught if issubclass(w.category, CorpusWarning)]) == 1
    assert corpus.encodings == {str(folder.resolve() / "menu.txt"): "cp1252"}
    (item,) = corpus.skipped
    assert item.path.endswith("word.txt") and item.reason.startswith("not UTF-8 text, and")
    (hit,) = asyncio.run(corpus.search("brûlée", max_results=3))
    assert "crème brûlée" in hit.content
