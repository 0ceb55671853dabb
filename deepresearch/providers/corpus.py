"""Local corpus search: SQLite FTS5 (BM25) over a folder of your files, or over records.

The index is one SQLite file kept outside your folder (``~/.deepresearch/indexes/`` by
default). It is brought up to date on the first search and on ``refresh()``: only files
whose (mtime_ns, size) changed are read again, removed files leave the index. A local
document is cited by its absolute path, so a report's references open on your machine.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import threading
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from deepresearch.config import default_home
from deepresearch.errors import CorpusError
from deepresearch.providers import readers
from deepresearch.providers.base import SearchHit
from deepresearch.providers.readers import build_match_query, clip

SNIPPET_CHARS = 300
CONTENT_CHARS = 50_000
# Title matches count ten times a body match: a document named after the query is the
# best answer in encyclopedic and note-taking corpora alike.
TITLE_WEIGHT, BODY_WEIGHT = 10.0, 1.0
_SCHEMA_VERSION = "1"
_HIT_COLUMNS = "docs.path, docs.title, docs.snippet, substr(docs.text, 1, ?), docs.domain"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL, title TEXT NOT NULL, text TEXT NOT NULL, domain TEXT NOT NULL,
    snippet TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS skipped(
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    reason TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    title, body, tokenize='porter unicode61 remove_diacritics 2');
"""


class CorpusWarning(UserWarning):
    """A file of the corpus folder was skipped (binary, empty, unreadable, no PDF reader)."""


@dataclass(frozen=True)
class IndexStats:
    """What one pass of the indexer did."""

    added: int = 0
    updated: int = 0
    removed: int = 0
    skipped: int = 0
    unchanged: int = 0


@dataclass(frozen=True)
class SkippedFile:
    path: str
    reason: str


def default_index_path(folder: Path) -> Path:
    """``<home>/indexes/<sha1 of the folder>.sqlite``: one index per folder, never inside it."""
    digest = hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:16]
    return default_home() / "indexes" / f"{digest}.sqlite"


class CorpusSearch:
    """A SearchProvider over local files (``CorpusSearch(folder)``) or records.

    SQLite work runs in worker threads behind one lock, so topic researchers may search
    concurrently from the same event loop.
    """

    def __init__(self, folder: Path | str, *, index_path: Path | None = None) -> None:
        root = Path(folder).expanduser()
        if not root.exists():
            raise CorpusError(
                f"The corpus folder {str(root)!r} does not exist. "
                "Pass an existing folder of .md/.txt/.html/.pdf files (--corpus DIR)."
            )
        if not root.is_dir():
            raise CorpusError(
                f"The corpus path {str(root)!r} is a file, not a folder. "
                "Pass the folder that contains your documents (--corpus DIR)."
            )
        self._folder: Path | None = root.resolve()
        self._records: Iterable[Mapping[str, Any]] = ()
        self._fingerprint: str | None = None
        self._setup(
            name="corpus",
            source=f"folder:{self._folder}",
            index_file=_resolve_index_file(index_path, default_index_path(self._folder)),
        )

    @classmethod
    def from_records(
        cls,
        records: Iterable[Mapping[str, Any]],
        *,
        index_path: Path,
        name: str = "records",
        fingerprint: str | None = None,
    ) -> CorpusSearch:
        """Search records (``title``, ``text``, ``url``, optional ``domain``, ``snippet``).

        The index is rebuilt only when ``fingerprint`` differs from the stored one, so a
        lazy iterable is not even read when the index is current. Without a fingerprint
        the records are hashed.
        """
        self = cls.__new__(cls)
        self._folder = None
        self._records = records if fingerprint else list(records)
        self._fingerprint = fingerprint or _hash_records(self._records)
        self._setup(name=name, source=f"records:{name}", index_file=Path(index_path))
        return self

    def _setup(self, *, name: str, source: str, index_file: Path) -> None:
        self._name = name
        self._source = source
        self.index_file = index_file
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._indexed = False
        self._skipped: list[SkippedFile] = []

    @property
    def name(self) -> str:
        return self._name

    @property
    def skipped(self) -> list[SkippedFile]:
        """Files that have a supported type but could not be indexed, with the reason."""
        return list(self._skipped)

    def __repr__(self) -> str:
        index = str(self.index_file)
        return f"CorpusSearch(name={self._name!r}, source={self._source!r}, index={index!r})"

    # -- public API ----------------------------------------------------------------------
    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        return await asyncio.to_thread(self._search, query, max_results)

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        return await asyncio.to_thread(self._extract, urls)

    async def refresh(self) -> IndexStats:
        """Bring the index up to date with the folder (or records) now."""
        return await asyncio.to_thread(self.index)

    def index(self) -> IndexStats:
        """Synchronous ``refresh()``."""
        with self._lock:
            return self._sync()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
                self._indexed = False

    # -- queries ------------------------------------------------------------------------
    def _search(self, query: str, max_results: int) -> list[SearchHit]:
        match = build_match_query(query)
        if match is None or max_results <= 0:
            return []
        with self._lock:
            conn = self._ready()
            rows = conn.execute(
                f"SELECT {_HIT_COLUMNS}, -bm25(fts, {TITLE_WEIGHT}, {BODY_WEIGHT}) AS score "
                "FROM fts JOIN docs ON docs.id = fts.rowid WHERE fts MATCH ? "
                "ORDER BY score DESC LIMIT ?",
                (CONTENT_CHARS, match, max_results),
            ).fetchall()
        return [self._hit(*row) for row in rows]

    def _extract(self, urls: list[str]) -> list[SearchHit]:
        hits: list[SearchHit] = []
        with self._lock:
            conn = self._ready()
            for url in urls:
                row = conn.execute(
                    f"SELECT {_HIT_COLUMNS}, NULL FROM docs WHERE path = ?",
                    (CONTENT_CHARS, self._key_for(url)),
                ).fetchone()
                if row is not None:
                    hits.append(self._hit(*row))
        return hits

    def _hit(
        self, key: str, title: str, snippet: str, content: str, domain: str, score: float | None
    ) -> SearchHit:
        return SearchHit(
            url=self._url_for(key),
            title=title,
            snippet=snippet,
            content=content,
            score=score,
            domain=domain,
        )

    def _url_for(self, key: str) -> str:
        return str(self._folder / key) if self._folder is not None else key

    def _key_for(self, url: str) -> str:
        if self._folder is None:
            return url
        path = Path(url.removeprefix("file://")).expanduser()
        if not path.is_absolute():
            return path.as_posix()
        # The folder is stored resolved; the caller's path may go through a symlink.
        for candidate in (Path(os.path.normpath(path)), path.parent.resolve() / path.name):
            if candidate.is_relative_to(self._folder):
                return candidate.relative_to(self._folder).as_posix()
        return url

    # -- index maintenance (lock held) -------------------------------------------------------
    def _ready(self) -> sqlite3.Connection:
        conn = self._connection()
        if not self._indexed:
            self._sync()
        return conn

    def _connection(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            self.index_file.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.index_file, timeout=30.0, check_same_thread=False)
            try:
                conn.executescript(_SCHEMA)
                meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            except sqlite3.Error:
                conn.close()
                raise
        except (OSError, sqlite3.Error) as exc:
            raise CorpusError(
                f"Cannot use the corpus index {str(self.index_file)!r} ({exc}). Delete the "
                "file to rebuild it, or pass another index path (Config(corpus_index=...))."
            ) from exc
        if meta.get("schema") != _SCHEMA_VERSION or meta.get("source") != self._source:
            # An index of another folder or an older layout: start afresh.
            with conn:
                _clear(conn)
                conn.execute("DELETE FROM meta")
                _set_meta(conn, schema=_SCHEMA_VERSION, source=self._source)
        self._conn = conn
        return conn

    def _sync(self) -> IndexStats:
        conn = self._connection()
        with conn:
            if self._folder is not None:
                stats = self._sync_folder(conn, self._folder)
            else:
                stats = self._sync_records(conn)
        self._indexed = True
        self._skipped = [
            SkippedFile(path=self._url_for(key), reason=reason)
            for key, reason in conn.execute("SELECT path, reason FROM skipped ORDER BY path")
        ]
        return stats

    def _sync_folder(self, conn: sqlite3.Connection, folder: Path) -> IndexStats:
        known = {k: (m, s) for k, m, s in conn.execute("SELECT path, mtime_ns, size FROM docs")}
        known_skips = {
            k: (m, s) for k, m, s in conn.execute("SELECT path, mtime_ns, size FROM skipped")
        }
        seen: set[str] = set()
        added = updated = skipped = unchanged = 0
        for path in readers.iter_supported_files(folder):
            key = path.relative_to(folder).as_posix()
            seen.add(key)
            signature = _signature(path)
            if known.get(key) == signature:
                unchanged += 1
                continue
            if known_skips.get(key) == signature:
                skipped += 1  # already warned about this exact version of the file
                continue
            try:
                document = readers.read_document(path)
            except readers.UnreadableDocument as exc:
                skipped += 1
                _delete_doc(conn, key)
                conn.execute(
                    "INSERT OR REPLACE INTO skipped VALUES (?, ?, ?, ?)",
                    (key, *signature, str(exc)),
                )
                warnings.warn(f"Skipped {path}: {exc}", CorpusWarning, stacklevel=2)
                continue
            conn.execute("DELETE FROM skipped WHERE path = ?", (key,))
            updated += _delete_doc(conn, key)
            added += key not in known
            parent = Path(key).parent.as_posix()
            domain = "local" if parent == "." else parent
            _insert_doc(conn, key, signature, document, domain)
        removed = 0
        for key in known.keys() - seen:
            removed += _delete_doc(conn, key)
        for key in known_skips.keys() - seen:
            conn.execute("DELETE FROM skipped WHERE path = ?", (key,))
        return IndexStats(added, updated, removed, skipped, unchanged)

    def _sync_records(self, conn: sqlite3.Connection) -> IndexStats:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        count = int(conn.execute("SELECT count(*) FROM docs").fetchone()[0])
        if meta.get("fingerprint") == self._fingerprint:
            return IndexStats(unchanged=count)
        _clear(conn)
        added = skipped = 0
        seen: set[str] = set()
        for record in self._records:
            url, text = str(record.get("url") or ""), str(record.get("text") or "")
            reason = "no url" if not url else "no text" if not text.strip() else ""
            reason = reason or ("duplicate url" if url in seen else "")
            if reason:
                skipped += 1
                conn.execute("INSERT OR REPLACE INTO skipped VALUES (?, -1, -1, ?)", (url, reason))
                warnings.warn(f"Skipped record {url!r}: {reason}", CorpusWarning, stacklevel=2)
                continue
            seen.add(url)
            domain = str(record.get("domain") or urlparse(url).netloc or self._name)
            doc = readers.Document(title=str(record.get("title") or url), text=text)
            _insert_doc(conn, url, (0, len(text)), doc, domain, str(record.get("snippet") or ""))
            added += 1
        _set_meta(conn, fingerprint=self._fingerprint or "")
        return IndexStats(added=added, removed=count, skipped=skipped)


def _signature(path: Path) -> tuple[int, int]:
    """(mtime_ns, size): a file is read again only when this changes; (-1, -1) if unknown."""
    try:
        stat = path.stat()
    except OSError:
        return (-1, -1)  # e.g. a broken symlink: reading it fails and says why
    return (stat.st_mtime_ns, stat.st_size)


def _resolve_index_file(index_path: Path | None, default: Path) -> Path:
    """An explicit index path may name the file or a folder to keep it in."""
    if index_path is None:
        return default
    path = Path(index_path).expanduser()
    return path / default.name if path.is_dir() or not path.suffix else path


def _clear(conn: sqlite3.Connection) -> None:
    for table in ("docs", "skipped", "fts"):
        conn.execute(f"DELETE FROM {table}")


def _set_meta(conn: sqlite3.Connection, **values: str) -> None:
    conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(values.items()))


def _insert_doc(
    conn: sqlite3.Connection, key: str, signature: tuple[int, int], doc: readers.Document,
    domain: str, snippet: str = "",
) -> None:  # fmt: skip
    row = (key, *signature, doc.title, doc.text, domain, snippet or clip(doc.text, SNIPPET_CHARS))
    cursor = conn.execute(
        "INSERT INTO docs(path, mtime_ns, size, title, text, domain, snippet) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        row,
    )
    conn.execute(
        "INSERT INTO fts(rowid, title, body) VALUES (?, ?, ?)",
        (cursor.lastrowid, doc.title, doc.text),
    )


def _delete_doc(conn: sqlite3.Connection, key: str) -> int:
    """Remove one document; 1 if it was indexed, else 0."""
    row = conn.execute("SELECT id FROM docs WHERE path = ?", (key,)).fetchone()
    if row is None:
        return 0
    conn.execute("DELETE FROM fts WHERE rowid = ?", (row[0],))
    conn.execute("DELETE FROM docs WHERE id = ?", (row[0],))
    return 1


def _hash_records(records: Iterable[Mapping[str, Any]]) -> str:
    digest = hashlib.sha1()
    for record in records:
        digest.update(json.dumps(dict(record), sort_keys=True, default=str).encode())
    return digest.hexdigest()
