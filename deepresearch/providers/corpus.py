"""Local corpus search over a folder of your files, or over records: hybrid retrieval of
passages (SQLite FTS5 BM25 fused with dense vectors and with titles the query names).

The index is one SQLite file kept outside your folder (``~/.deepresearch/indexes/`` by
default). It is brought up to date on the first search and on ``refresh()``: only files
whose (mtime_ns, size) changed are read again, removed files leave the index. Documents
are split into passages at headings and paragraphs; a long file is cited by passage
(``/path/file.md#L120-148``, titled with its heading path), a short one by its path.

Only regular files inside the folder are read: FIFOs, sockets and devices are skipped with
a reason, symlinks out of the folder too unless ``follow_symlinks=True``, and files over
``max_file_bytes``. Cancelling a search or refresh (Ctrl-C) stops indexing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from filelock import FileLock, Timeout

from deepresearch.config import default_home
from deepresearch.errors import CorpusError
from deepresearch.providers import corpus_index as store
from deepresearch.providers import corpus_sync, page_chrome, readers, vectors
from deepresearch.providers.base import SearchHit
from deepresearch.providers.corpus_index import Lookup
from deepresearch.providers.corpus_ranking import (
    POOL,
    dense_ranking,
    fuse,
    linked_titles,
    named_ranking,
)
from deepresearch.providers.corpus_sync import CorpusWarning as CorpusWarning
from deepresearch.providers.corpus_sync import IndexStats as IndexStats
from deepresearch.providers.corpus_sync import SkippedFile as SkippedFile
from deepresearch.providers.match_query import build_match_query, phrase_match_query
from deepresearch.state.models import PASSAGE_CITATION, passage_lines

__all__ = ["CorpusSearch", "CorpusWarning", "IndexStats", "SkippedFile"]

CONTENT_CHARS = 50_000
DEFAULT_MAX_FILE_BYTES = 20_000_000
# Title matches count ten times a body match: a document named after the query is the
# best answer in encyclopedic and note-taking corpora alike; headings count three times.
TITLE_WEIGHT, HEADING_WEIGHT, BODY_WEIGHT = 10.0, 3.0, 1.0
# Weights of the rankings fused (providers/corpus_ranking.py). Lexical ranks
# weigh most; dense vectors add recall for paraphrases; names the query contains add
# the entries it names (measured in docs/results.md).
LEXICAL_WEIGHT, DENSE_WEIGHT, NAMED_WEIGHT = 0.75, 0.25, 0.5
# SQLite page cache while (re)building, in KiB: FTS5 merges its segments as it grows, and
# the default 2 MB cache made large builds re-read them. Queries keep the default.
BUILD_CACHE_KIB = 128_000
T = TypeVar("T")


def _corpora(search: object) -> list[CorpusSearch]:
    """The local corpora behind ``search``, through merged, fallback and wrapping
    providers."""
    if isinstance(search, CorpusSearch):
        return [search]
    inner = [*getattr(search, "providers", []), getattr(search, "inner", None)]
    return [corpus for provider in inner if provider is not None for corpus in _corpora(provider)]


def unread_files(search: object) -> list[SkippedFile]:
    """The files of the corpora behind ``search`` that could not be read: research that
    did not see part of your folder says so (phases.gather)."""
    return [f for corpus in _corpora(search) for f in corpus.skipped]


def guessed_encodings(search: object) -> dict[str, str]:
    """The files of the corpora behind ``search`` that are not UTF-8 and were read in the
    encoding detected for them, by path: the encoding."""
    return {path: enc for corpus in _corpora(search) for path, enc in corpus.encodings.items()}


def _lexical(conn: sqlite3.Connection, match: str) -> list[int]:
    """The passages an FTS5 ``match`` finds, best first by weighted BM25 (POOL at most)."""
    return [
        pid
        for (pid,) in conn.execute(
            f"SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY "
            f"bm25(fts, {TITLE_WEIGHT}, {HEADING_WEIGHT}, {BODY_WEIGHT}) LIMIT ?",
            (match, POOL),
        )
    ]


def searched_by_words_alone(search: object) -> bool:
    """Whether a local corpus behind ``search`` is searched without dense vectors
    (wordllama not installed): by words alone, it misses passages worded differently from
    the question, and the offline analysis loses its similarity in meaning too."""
    return bool(_corpora(search)) and not vectors.available()


def default_index_path(folder: Path) -> Path:
    """``<home>/indexes/<sha1 of the folder>-v<layout>.sqlite``: one index per folder (and
    index layout), never inside it."""
    digest = hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:16]
    return default_home() / "indexes" / f"{digest}-v{store.SCHEMA_VERSION}.sqlite"


class CorpusSearch:
    """A SearchProvider over local files (``CorpusSearch(folder)``) or records.

    SQLite work runs in worker threads behind one lock, so topic researchers may search
    concurrently from the same event loop.
    """

    def __init__(
        self,
        folder: Path | str,
        *,
        index_path: Path | None = None,
        follow_symlinks: bool = False,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    ) -> None:
        root = Path(folder).expanduser()
        if not root.exists():
            raise CorpusError(
                f"The corpus folder {str(root)!r} does not exist. "
                "Pass an existing folder of documents (.md, .txt, .html, .pdf…: --corpus DIR)."
            )
        if not root.is_dir():
            raise CorpusError(
                f"The corpus path {str(root)!r} is a file, not a folder. "
                "Pass the folder that contains your documents (--corpus DIR)."
            )
        self._folder: Path | None = root.resolve()
        self._records: Iterable[Mapping[str, Any]] = ()
        self._fingerprint: str | None = None
        self._follow_symlinks = follow_symlinks
        self._max_file_bytes = max_file_bytes
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
        the records are hashed. A record is found and cited as a whole.
        """
        self = cls.__new__(cls)
        self._folder = None
        self._records = records if fingerprint else list(records)
        self._fingerprint = fingerprint or _hash_records(self._records)
        self._follow_symlinks = False
        self._max_file_bytes = DEFAULT_MAX_FILE_BYTES
        self._setup(name=name, source=f"records:{name}", index_file=Path(index_path))
        return self

    def _setup(self, *, name: str, source: str, index_file: Path) -> None:
        self._name = name
        self._source = source
        self.index_file = index_file
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._indexed = False
        self._lookup: Lookup | None = None
        self._title_chrome: dict[str, str] | None = None  # format family -> site name
        self._skipped: list[SkippedFile] = []
        self._encodings: dict[str, str] = {}

    @property
    def name(self) -> str:
        """The provider's name in sources and the audit trail (``corpus`` for a folder)."""
        return self._name

    @property
    def skipped(self) -> list[SkippedFile]:
        """Files that have a supported type but could not be indexed, with the reason."""
        return list(self._skipped)

    @property
    def encodings(self) -> dict[str, str]:
        """The files read in an encoding other than UTF-8, by path: the encoding detected
        (a Python codec name, 'cp1252' for Windows-1252)."""
        return dict(self._encodings)

    def __repr__(self) -> str:
        index = str(self.index_file)
        return f"CorpusSearch(name={self._name!r}, source={self._source!r}, index={index!r})"

    # -- public API ----------------------------------------------------------------------
    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """At most ``max_results`` hits for ``query``, best first: full-text, dense and
        name rankings fused; the index is built or brought up to date first.

        Args:
            query: the search.
            max_results: how many hits at most.
        """
        return await self._in_thread(lambda cancel: self._search(query, max_results, cancel))

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The indexed content of ``urls`` found earlier (a ``#L<first>-<last>`` URL gives that
        passage); ones not in the index are left out.

        Args:
            urls: paths or URLs of earlier hits.
        """
        return await self._in_thread(lambda cancel: self._extract(urls, cancel))

    async def refresh(self) -> IndexStats:
        """Bring the index up to date with the folder (or records) now."""
        return await self._in_thread(self._index)

    def index(self) -> IndexStats:
        """Synchronous ``refresh()``."""
        return self._index(None)

    def close(self) -> None:
        """Close the index's database connection; the next search opens it and syncs again."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
                self._indexed = False
                self._lookup = None
                self._title_chrome = None

    async def _in_thread(self, work: Callable[[threading.Event], T]) -> T:
        """Run in a worker thread; a cancelled caller (Ctrl-C) stops indexing there."""
        cancel = threading.Event()
        try:
            return await asyncio.to_thread(work, cancel)
        except asyncio.CancelledError:
            cancel.set()
            raise

    def _index(self, cancel: threading.Event | None) -> IndexStats:
        with self._lock:
            return self._sync(cancel)

    # -- queries (hybrid retrieval) ---------------------------------------------------------
    def _search(self, query: str, max_results: int, cancel: threading.Event) -> list[SearchHit]:
        match = build_match_query(query)
        if match is None or max_results <= 0:
            return []
        with self._lock:
            conn = self._ready(cancel)
            lookup = self._lookup_for(conn)
            rankings = [
                (LEXICAL_WEIGHT, _lexical(conn, match)),
                (DENSE_WEIGHT, dense_ranking(lookup, query)),
                (NAMED_WEIGHT, named_ranking(conn, lookup, query)),
            ]
            fused = fuse(rankings)
            if (phrased := phrase_match_query(query)) is not None:
                # a text stating a phrase the query quotes comes before any that only uses
                # its words, as a search engine treats quotes
                stating = set(_lexical(conn, phrased))
                fused = {p: s + (1.0 if p in stating else 0.0) for p, s in fused.items()}
                fused |= {p: 1.0 for p in stating - fused.keys()}
            return self._hits(conn, lookup, fused, max_results)

    def _hits(
        self, conn: sqlite3.Connection, lookup: Lookup, fused: dict[int, float], limit: int
    ) -> list[SearchHit]:
        hits: list[SearchHit] = []
        seen_docs: set[int] = set()
        shown: set[int] = set()
        for ranked in sorted(fused, key=lambda p: -fused[p]):
            pid = store.canonical_passage(conn, ranked)  # a copy is found in the first file
            if pid in shown:
                continue
            shown.add(pid)
            row = conn.execute(
                "SELECT d.id, d.path, d.title, d.snippet, d.domain, p.heading, p.first_line, "
                "p.last_line, p.text, (SELECT count(*) FROM passages q WHERE q.doc_id = d.id), "
                "substr(d.text, 1, ?) FROM passages p JOIN docs d ON d.id = p.doc_id "
                "WHERE p.id = ?",
                (CONTENT_CHARS, pid),
            ).fetchone()
            if row is None:
                continue
            doc_id, key, title, snippet, domain, heading, first, last, text, parts, whole = row
            whole_doc = self._folder is None or parts == 1
            if whole_doc and doc_id in seen_docs:
                continue  # a record (or a one-passage file) is found and cited as a whole
            seen_docs.add(doc_id)
            if whole_doc:
                named = self._shown_title(conn, key, title)
                hit = self._hit(key, named, snippet, whole, domain, fused[ranked])
            else:
                named = self._shown_title(conn, key, title)
                hit = self._passage_hit(conn, key, named, heading, first, last, text, domain)
                hit = hit.model_copy(update={"score": fused[ranked]})
            hits.append(_with_links(conn, lookup, hit, [title, heading]))
            if len(hits) >= limit:
                break
        return hits

    def _extract(self, urls: list[str], cancel: threading.Event) -> list[SearchHit]:
        hits: list[SearchHit] = []
        with self._lock:
            conn = self._ready(cancel)
            lookup = self._lookup_for(conn)
            for url in urls:
                lines = passage_lines(url)
                key = self._key_for(PASSAGE_CITATION.sub("", url))
                if lines is not None:
                    row = conn.execute(
                        "SELECT d.path, d.title, p.heading, p.first_line, p.last_line, "
                        "p.text, d.domain FROM passages p JOIN docs d ON d.id = p.doc_id "
                        "WHERE d.path = ? AND p.first_line = ? AND p.last_line = ?",
                        (key, *lines),
                    ).fetchone()
                    if row is not None:
                        shown = self._shown_title(conn, row[0], row[1])
                        hit = self._passage_hit(conn, row[0], shown, *row[2:])
                        hits.append(_with_links(conn, lookup, hit, row[1:3]))
                    continue
                row = conn.execute(
                    "SELECT path, title, snippet, substr(text, 1, ?), domain, NULL FROM docs "
                    "WHERE path = ?",
                    (CONTENT_CHARS, key),
                ).fetchone()
                if row is not None:
                    shown = self._shown_title(conn, row[0], row[1])
                    hit = self._hit(row[0], shown, *row[2:])
                    hits.append(_with_links(conn, lookup, hit, [row[1]]))
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

    def _passage_hit(
        self,
        conn: sqlite3.Connection,
        key: str,
        title: str,
        heading: str,
        first: int,
        last: int,
        text: str,
        domain: str,
    ) -> SearchHit:
        """A passage of a long file, cited as file#Lfirst-last and titled with its headings;
        its lines say where it sits in the file (the URL is only the citation), ``around``
        the passages just before and after it there."""
        label = heading.rsplit(" › ", 1)[-1] if heading else ""
        url = self._url_for(key)
        around = _around(conn, key, first)
        return SearchHit(
            url=f"{url}#L{first}-{last}",
            title=f"{title} › {label}" if label and label != title else title,
            snippet=readers.clip(text, store.SNIPPET_CHARS),
            content=text,
            domain=domain,
            lines=(first, last),
            around=[f"{url}#L{a}-{b}" for a, b in around],
        )

    def _shown_title(self, conn: sqlite3.Connection, key: str, title: str) -> str:
        """A file's title as hits show it: without the site's name that most of the
        folder's files of its format end their titles with (page_chrome.title_chrome)."""
        if self._folder is None:
            return title
        if self._title_chrome is None:
            titles: dict[str, list[str]] = {}
            for path, name in conn.execute("SELECT path, title FROM docs"):
                titles.setdefault(readers.family(path), []).append(name)
            self._title_chrome = {k: page_chrome.title_chrome(v) for k, v in titles.items()}
        chrome = self._title_chrome.get(readers.family(key), "")
        return page_chrome.without_title_chrome(title, chrome)

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
    def _ready(self, cancel: threading.Event | None) -> sqlite3.Connection:
        if not self._indexed:
            self._sync(cancel)
        return self._connection()

    def _lookup_for(self, conn: sqlite3.Connection) -> Lookup:
        if self._lookup is None:
            self._lookup = Lookup.load(conn)
        return self._lookup

    def _connection(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            self.index_file.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.index_file, timeout=30.0, check_same_thread=False)
            try:
                meta = _open_schema(conn)
            except sqlite3.Error:
                conn.close()
                raise
        except (OSError, sqlite3.Error) as exc:
            raise CorpusError(
                f"Cannot use the corpus index {str(self.index_file)!r} ({exc}). Delete the "
                "file to rebuild it, or pass another index path (Config(corpus_index=...))."
            ) from exc
        if meta.get("schema") != store.SCHEMA_VERSION or meta.get("source") != self._source:
            # An index of another folder or an older layout: start afresh.
            with conn:
                for table in ("docs", "passages", "vectors", "skipped", "fts", "meta"):
                    conn.execute(f"DROP TABLE IF EXISTS {table}")
                conn.executescript(store.SCHEMA)
                store.set_meta(conn, schema=store.SCHEMA_VERSION, source=self._source)
        self._conn = conn
        return conn

    def _sync(self, cancel: threading.Event | None) -> IndexStats:
        # Sessions (threads or processes) sharing one index file build it one at a time:
        # otherwise one resets the schema while another is writing into it.
        with _index_file_lock(self.index_file, cancel):
            return self._sync_locked(cancel)

    def _sync_locked(self, cancel: threading.Event | None) -> IndexStats:
        conn = self._connection()
        default_cache = conn.execute("PRAGMA cache_size").fetchone()[0]
        conn.execute(f"PRAGMA cache_size = -{BUILD_CACHE_KIB}")
        try:
            with conn:
                if self._folder is not None:
                    limits = (self._follow_symlinks, self._max_file_bytes)
                    stats = corpus_sync.sync_folder(conn, self._folder, limits, cancel)
                else:
                    stats = corpus_sync.sync_records(
                        conn, self._records, (self._name, self._fingerprint), cancel
                    )
                store.embed_missing(conn, cancel)
        finally:
            conn.execute(f"PRAGMA cache_size = {default_cache}")
        skips = list(conn.execute("SELECT path, reason FROM skipped ORDER BY path"))
        if self._folder is not None and not conn.execute("SELECT 1 FROM docs LIMIT 1").fetchone():
            # A search over nothing would answer nothing: say why, and what to do.
            raise CorpusError(readers.nothing_readable(self._folder, skips))
        self._indexed = True
        self._lookup = None
        self._title_chrome = None
        self._skipped = [SkippedFile(path=self._url_for(key), reason=why) for key, why in skips]
        self._encodings = {
            self._url_for(key): encoding
            for key, encoding in conn.execute(
                "SELECT path, encoding FROM docs WHERE encoding != '' ORDER BY path"
            )
        }
        return stats


def _around(conn: sqlite3.Connection, key: str, first: int) -> list[tuple[int, int]]:
    """The lines of the passages just before and after the one starting at ``first`` in
    the file ``key``, in file order (none at either end)."""
    found: list[tuple[int, int]] = []
    for cmp, order in (("<", "DESC"), (">", "ASC")):
        row = conn.execute(
            "SELECT p.first_line, p.last_line FROM passages p JOIN docs d ON d.id = p.doc_id "
            f"WHERE d.path = ? AND p.first_line {cmp} ? ORDER BY p.first_line {order} LIMIT 1",
            (key, first),
        ).fetchone()
        if row is not None:
            found.append((row[0], row[1]))
    return found


def _with_links(
    conn: sqlite3.Connection, lookup: Lookup, hit: SearchHit, own: Iterable[str]
) -> SearchHit:
    """The hit with ``metadata["links"]``: the titles of other entries its text names."""
    links = linked_titles(conn, lookup, hit.content, [t for t in own if t])
    return hit.model_copy(update={"metadata": {**hit.metadata, "links": links}})


@contextlib.contextmanager
def _index_file_lock(index_file: Path, cancel: threading.Event | None) -> Iterator[None]:
    """An inter-process lock beside the index file, waited for in short steps so that a
    cancelled run (Ctrl-C) stops waiting."""
    try:
        index_file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CorpusError(
            f"Cannot use the corpus index {str(index_file)!r} ({exc}); pass another index "
            "path (Config(corpus_index=...))."
        ) from exc
    lock = FileLock(f"{index_file}.lock")
    while True:
        try:
            lock.acquire(timeout=0.2)
            break
        except Timeout:
            store.check_cancel(cancel)
    try:
        yield
    finally:
        lock.release()


def _open_schema(conn: sqlite3.Connection) -> dict[str, str]:
    conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    if meta.get("schema") == store.SCHEMA_VERSION:
        conn.executescript(store.SCHEMA)
    return meta


def _resolve_index_file(index_path: Path | None, default: Path) -> Path:
    """An explicit index path may name the file or a folder to keep it in."""
    if index_path is None:
        return default
    path = Path(index_path).expanduser()
    return path / default.name if path.is_dir() or not path.suffix else path


def _hash_records(records: Iterable[Mapping[str, Any]]) -> str:
    digest = hashlib.sha1()
    for record in records:
        digest.update(json.dumps(dict(record), sort_keys=True, default=str).encode())
    return digest.hexdigest()
