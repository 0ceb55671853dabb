"""The corpus index file: documents, their passages, an FTS5 table over the passages and
(when wordllama is installed) a dense vector per passage. Plain functions over one SQLite
connection; ``CorpusSearch`` holds the lock and decides when to call them."""

from __future__ import annotations

import hashlib
import math
import re
import sqlite3
import threading
import unicodedata
from dataclasses import dataclass, field, replace

from deepresearch.errors import IndexingCancelled
from deepresearch.providers import readers, vectors
from deepresearch.providers.passages import TARGET_CHARS, Passage, split_passages
from deepresearch.providers.readers import clip
from deepresearch.text import TITLE_QUALIFIER

SCHEMA_VERSION = "33"  # 3: front-matter titles, table row groups, heading lines in passages;
# 4-6: HTML lists, code and tables as Markdown, chrome blanked (edges: a folder; a PDF's
# pages), an HTML passage cited by the page's own lines; 7: edge keys by format family,
# navigation lines and tables of contents, Markdown comments dropped, passage twins;
# 8: a PDF's bookmarks as headings; 9: docs.encoding; 10: a sentence a code block
# interrupts, HTML <code> outside <pre> (f98133b changed the text read, not the schema);
# 11: an HTML permalink mark ('¶' in a heading's <a href="#…">) is not text; 12: a '.txt'
# with reST markup read as reST (Sphinx's 'name.rst.txt'), wrapped roles, reST links,
# literal blocks as code; Markdown without template tags, admonition markers and inline
# HTML tags; 13: MyST directives and roles as Sphinx renders them, reST version notes;
# 14: a MyST eval-rst directive's content read as reST, reST titles, navigation
# directives and Python example directives; 15: MkDocs content tabs' titles; 16: nested
# content tabs, reST auto-numbered items and line blocks; 17: lines kept after adjacent
# code blocks and wrapped MyST roles; 18: mkdocstrings entries ('::: name') as the name;
# 19: Sphinx object directives ('.. py:method:: load()') as the signature, '~' roles;
# 20: a role's numbered record as 'issue-2335', not a bare number; 22: an admonition's
# own title (MkDocs, Docusaurus, VitePress) as its label (21 was an experiment's, which
# did not land); 23: Sphinx's option, envvar and confval directives as their name;
# 24: an HTML list item's own paragraph ('<li><p>') on the item's line
# 25: reST comments opening with "[" (".. [[[cog"), literal blocks read as written, code tabs
#     as code, titles without code marks; 26: MyST colon fences in list items; 27: reST
#     doctest blocks as code (28: a doctest block beside a code block, fences kept paired),
#     Markdown footnotes as their text; 29: reST interpreted text with no role as the
#     default role shows it ("`pre_load <marshmallow.decorators.pre_load>`" reads pre_load);
#     30: text on an untitled admonition's line ('.. warning::  Setting …') as its content;
#     31: reST list tables as Markdown tables, reST diagrams fenced with their language;
#     32: reST simple and grid tables as Markdown tables;
#     33: Markdown's '{* file *}' includes and PyMdown '/// tip' block markers not read
SNIPPET_CHARS = 300
EMBED_BATCH = 512
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL, title TEXT NOT NULL, text TEXT NOT NULL, domain TEXT NOT NULL,
    snippet TEXT NOT NULL, encoding TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS passages(
    id INTEGER PRIMARY KEY, doc_id INTEGER NOT NULL, heading TEXT NOT NULL,
    first_line INTEGER NOT NULL, last_line INTEGER NOT NULL, text TEXT NOT NULL,
    twin INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS passages_doc ON passages(doc_id);
CREATE INDEX IF NOT EXISTS passages_twin ON passages(twin);
CREATE TABLE IF NOT EXISTS vectors(passage_id INTEGER PRIMARY KEY, vec BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS skipped(
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS edges(doc_id INTEGER NOT NULL, key INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS edges_doc ON edges(doc_id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    title, heading, body, tokenize='porter unicode61 remove_diacritics 2');
"""
_NAME_TOKEN = re.compile(r"\w[\w'\-]*")
_WORD = re.compile(r"\w+")


def check_cancel(cancel: threading.Event | None) -> None:
    """Raise :class:`IndexingCancelled` when ``cancel`` is set.

    Args:
        cancel: the caller's cancel event, or None when indexing cannot be cancelled.
    """
    if cancel is not None and cancel.is_set():
        raise IndexingCancelled("Indexing the corpus was cancelled; nothing was changed.")


def name_key(text: str) -> str:
    """A title or phrase as comparable tokens: 'Theory of Relativity' → 'theory of relativity'."""
    return " ".join(_NAME_TOKEN.findall(unicodedata.normalize("NFKC", text).casefold()))


def name_tokens(text: str) -> list[str]:
    """The tokens of :func:`name_key` with their case as written: 'How did Christianity
    begin' → ['How', 'did', 'Christianity', 'begin']."""
    return _NAME_TOKEN.findall(unicodedata.normalize("NFKC", text))


def clear(conn: sqlite3.Connection) -> None:
    """Delete every document, passage, vector and skipped file from the index.

    Args:
        conn: the index's database.
    """
    for table in ("docs", "passages", "vectors", "skipped", "fts"):
        conn.execute(f"DELETE FROM {table}")


def set_meta(conn: sqlite3.Connection, **values: str) -> None:
    """Store ``values`` (the schema version, source, fingerprint) in the meta table.

    Args:
        conn: the index's database.
        values: meta keys and their values.
    """
    conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(values.items()))


def insert_doc(
    conn: sqlite3.Connection, key: str, signature: tuple[int, int], doc: readers.Document,
    domain: str, snippet: str = "",
) -> None:  # fmt: skip
    """Insert one document with its passages (see :func:`insert_docs`).

    Args:
        conn: the index's database.
        key: its path or URL.
        signature: its file's (mtime_ns, size).
        doc: its title and text, as read.
        domain: the domain its sources show.
        snippet: the snippet its hits show; by default the start of its text.
    """
    insert_docs(conn, [NewDoc(key, signature, doc, domain, snippet)])


@dataclass(frozen=True)
class NewDoc:
    """One document to insert: its key (path or URL), (mtime_ns, size), text, domain."""

    key: str
    signature: tuple[int, int]
    doc: readers.Document
    domain: str
    snippet: str = ""
    # Keys of the lines at the file's top and bottom as read (page_chrome.edge_keys):
    # what tells a folder's site chrome from content when later files are indexed.
    edges: frozenset[int] = frozenset()


def insert_docs(conn: sqlite3.Connection, new: list[NewDoc]) -> None:
    """Insert documents with one ``executemany`` per table, ids assigned here: a row at a
    time costs a statement round-trip each, which dominated building large indexes
    (measured in docs/corpus.md)."""
    doc_id = int(conn.execute("SELECT coalesce(max(id), 0) FROM docs").fetchone()[0])
    pid = int(conn.execute("SELECT coalesce(max(id), 0) FROM passages").fetchone()[0])
    docs, passages, fts = [], [], []
    edges: list[tuple[int, int]] = []
    for item in new:
        doc_id += 1
        edges.extend((doc_id, key) for key in item.edges)
        text = item.doc.text
        snippet = item.snippet or clip(text, SNIPPET_CHARS)
        docs.append(
            (doc_id, item.key, *item.signature, item.doc.title, text, item.domain, snippet,
             item.doc.encoding)
        )  # fmt: skip
        for part in _passages_of(item.doc):
            pid += 1
            passages.append(
                (pid, doc_id, part.heading, part.first_line, part.last_line, part.text,
                 twin_key(item.doc.title, part.heading, part.text))
            )  # fmt: skip
            fts.append((pid, item.doc.title, part.heading, part.text))
    conn.executemany(
        "INSERT INTO docs(id, path, mtime_ns, size, title, text, domain, snippet, encoding) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        docs,
    )
    conn.executemany(
        "INSERT INTO passages(id, doc_id, heading, first_line, last_line, text, twin) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        passages,
    )
    conn.executemany("INSERT INTO fts(rowid, title, heading, body) VALUES (?, ?, ?, ?)", fts)
    conn.executemany("INSERT INTO edges(doc_id, key) VALUES (?, ?)", edges)


def edge_counts(conn: sqlite3.Connection) -> dict[int, int]:
    """How many indexed files have each edge line (page_chrome)."""
    return dict(conn.execute("SELECT key, count(*) FROM edges GROUP BY key").fetchall())


def twin_key(title: str, heading: str, text: str) -> int:
    """A key that passages with the same words under the same title and headings share (a
    file copied under another name): case and punctuation aside. The title and headings
    count: an option that many command pages describe in the same words is each page's own."""
    words = " ".join(_WORD.findall(f"{title}\n{heading}\n{text}".casefold()))
    return int.from_bytes(
        hashlib.blake2b(words.encode(), digest_size=8).digest(), "big", signed=True
    )


def canonical_passage(conn: sqlite3.Connection, pid: int) -> int:
    """The passage a search shows for ``pid``: of those with its words, the one in the file
    fewest folders deep, then first by path (a copy in 'backup/' defers to the original).
    The same text in two files is one source, not two that agree."""
    row = conn.execute(
        "SELECT q.id FROM passages p JOIN passages q ON q.twin = p.twin "
        "JOIN docs d ON d.id = q.doc_id WHERE p.id = ? "
        "ORDER BY length(d.path) - length(replace(d.path, '/', '')), d.path, q.id LIMIT 1",
        (pid,),
    ).fetchone()
    return int(row[0]) if row else pid


def _passages_of(doc: readers.Document) -> list[Passage]:
    whole = [Passage("", doc.text, 1, max(1, doc.text.count("\n") + 1))]
    if len(doc.text) <= TARGET_CHARS:  # a short document is one passage
        return whole
    # The reader keeps an outline when the text has headings; without one, a '# ' line is
    # text (a shell comment in a PDF's example), not a section.
    passages = split_passages(doc.outline or doc.text, headings=bool(doc.outline)) or whole
    return _in_file_lines(passages, doc.source_lines)


def _in_file_lines(
    passages: list[Passage], source_lines: tuple[tuple[int, int], ...]
) -> list[Passage]:
    """Passages with the file's own line numbers (an HTML page's), when the reader kept
    them and they tell the passages apart (a page written on one line does not)."""
    if not source_lines:
        return passages
    last = len(source_lines)
    mapped = [
        replace(
            p,
            first_line=source_lines[min(p.first_line, last) - 1][0],
            last_line=source_lines[min(p.last_line, last) - 1][1],
        )
        for p in passages
    ]
    ranges = [(p.first_line, p.last_line) for p in mapped]
    return mapped if len(set(ranges)) == len(ranges) else passages


def delete_doc(conn: sqlite3.Connection, key: str) -> int:
    """Remove one document and its passages; 1 if it was indexed, else 0."""
    row = conn.execute("SELECT id FROM docs WHERE path = ?", (key,)).fetchone()
    if row is None:
        return 0
    for (pid,) in conn.execute("SELECT id FROM passages WHERE doc_id = ?", (row[0],)).fetchall():
        conn.execute("DELETE FROM fts WHERE rowid = ?", (pid,))
        conn.execute("DELETE FROM vectors WHERE passage_id = ?", (pid,))
    conn.execute("DELETE FROM passages WHERE doc_id = ?", (row[0],))
    conn.execute("DELETE FROM edges WHERE doc_id = ?", (row[0],))
    conn.execute("DELETE FROM docs WHERE id = ?", (row[0],))
    return 1


def embed_missing(conn: sqlite3.Connection, cancel: threading.Event | None = None) -> int:
    """Compute vectors for passages that have none (new passages, or wordllama installed
    after the index was built). Returns how many were added; 0 without wordllama."""
    embedder = vectors.load_embedder()
    if embedder is None:
        return 0
    added, after = 0, 0
    while True:  # a page at a time: a million passages' text does not fit in memory twice
        check_cancel(cancel)
        batch = conn.execute(
            "SELECT p.id, d.title, p.heading, p.text FROM passages p "
            "JOIN docs d ON d.id = p.doc_id LEFT JOIN vectors v ON v.passage_id = p.id "
            "WHERE v.passage_id IS NULL AND p.id > ? ORDER BY p.id LIMIT ?",
            (after, EMBED_BATCH),
        ).fetchall()
        if not batch:
            return added
        matrix = embedder.embed([f"{t}. {h}. {x}" if h else f"{t}. {x}" for _, t, h, x in batch])
        conn.executemany(
            "INSERT OR REPLACE INTO vectors VALUES (?, ?)",
            [(pid, vectors.to_blob(vec)) for (pid, *_), vec in zip(batch, matrix, strict=True)],
        )
        added, after = added + len(batch), batch[-1][0]


@dataclass
class Lookup:
    """In-memory views of the index for one search session, rebuilt after each sync: the
    dense matrix, names (titles and headings) for entity linking, word specificity."""

    passage_count: int = 0
    matrix_ids: list[int] = field(default_factory=list)
    matrix: vectors.Matrix | None = None
    names: dict[str, list[int]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # name key → its title as written
    # First word of a name → most words a name starting with it has (linking a text
    # tries no longer n-grams there).
    starts: dict[str, int] = field(default_factory=dict)
    _idf: dict[str, float] = field(default_factory=dict)

    @classmethod
    def load(cls, conn: sqlite3.Connection) -> Lookup:
        """The views built from the index as it now is.

        Args:
            conn: the index's database.
        """
        count = int(conn.execute("SELECT count(*) FROM passages").fetchone()[0])
        rows = conn.execute("SELECT passage_id, vec FROM vectors ORDER BY passage_id").fetchall()
        matrix = vectors.from_blobs([r[1] for r in rows]) if rows else None
        names: dict[str, list[int]] = {}
        labels: dict[str, str] = {}
        exact: set[str] = set()  # keys that are a whole title: it wins over 'Marble (toy)'
        named_before_comma: list[tuple[str, str, int]] = []
        for title, first in conn.execute(
            "SELECT d.title, min(p.id) FROM docs d JOIN passages p ON p.doc_id = d.id GROUP BY d.id"
        ):
            whole, bare = name_key(title), name_key(TITLE_QUALIFIER.sub("", title))
            for key in dict.fromkeys([whole, bare]):
                if key:
                    names.setdefault(key, []).append(first)
                if key and (key not in labels or (key == whole and key not in exact)):
                    labels[key] = title
            exact.add(whole)
            if ", " in title:
                named_before_comma.append((name_key(title.split(", ", 1)[0]), title, first))
        # "Charles V, Holy Roman Emperor" is named "Charles V", when no title is that name
        # ("Paris" stays *Paris*, not *Paris, Texas*)
        for key, title, first in named_before_comma:
            if key and key not in exact and " " in key:
                names.setdefault(key, []).append(first)
                labels.setdefault(key, title)
        for heading, first in conn.execute(
            "SELECT heading, min(id) FROM passages WHERE heading != '' GROUP BY doc_id, heading"
        ):
            label = heading.rsplit(" › ", 1)[-1]
            key = name_key(label)
            if key:
                names.setdefault(key, []).append(first)
                labels.setdefault(key, label)  # a document's title wins over a heading
        starts: dict[str, int] = {}
        for key in names:
            first, size = key.split(" ", 1)[0], key.count(" ") + 1
            starts[first] = max(starts.get(first, 0), size)
        return cls(count, [r[0] for r in rows], matrix, names, labels, starts)

    def idf(self, conn: sqlite3.Connection, word: str) -> float:
        """log(N / (1 + passages containing the word)): how specific a word is here."""
        if word not in self._idf:
            quoted = '"' + word.replace('"', '""') + '"'
            df = int(conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (quoted,)).fetchone()[0])  # fmt: skip
            self._idf[word] = math.log((self.passage_count + 1) / (df + 1))
        return self._idf[word]
