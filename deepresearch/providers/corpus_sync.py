"""Bringing a corpus index up to date: a folder's new, changed and removed files (with
their site chrome blanked, see ``page_chrome``), or a list of records."""

from __future__ import annotations

import sqlite3
import threading
import warnings
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from deepresearch.errors import UnreadableDocument
from deepresearch.providers import corpus_index as store
from deepresearch.providers import page_chrome, readers
from deepresearch.providers.passages import looks_like_markdown

RECORD_BATCH = 1_000  # records inserted per executemany (bench/bench_corpus_scale.py)
FILE_BATCH = 200  # a folder's files inserted per executemany


class CorpusWarning(UserWarning):
    """A file of the corpus folder was skipped (binary, empty, unreadable, unsafe, too big)."""


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
    """A file of a supported type that could not be indexed, and why."""

    path: str
    reason: str


def sync_folder(
    conn: sqlite3.Connection,
    folder: Path,
    limits: tuple[bool, int],
    cancel: threading.Event | None,
) -> IndexStats:
    """Bring the index up to date with ``folder``: read the new and changed files
    (``limits``: follow symlinks, largest file in bytes), drop the removed ones, and
    record what could not be read and why."""
    follow_symlinks, max_bytes = limits
    known = {k: (m, s) for k, m, s in conn.execute("SELECT path, mtime_ns, size FROM docs")}
    known_skips = {
        k: (m, s) for k, m, s in conn.execute("SELECT path, mtime_ns, size FROM skipped")
    }
    seen: set[str] = set()
    added = updated = skipped = unchanged = 0
    pending: list[store.NewDoc] = []  # read, inserted once the folder's chrome is known
    for path in readers.iter_supported_files(folder):
        store.check_cancel(cancel)
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
            readers.check_file(
                path, folder, follow_symlinks=follow_symlinks, max_bytes=max_bytes,
            )  # fmt: skip
            document = readers.read_document(path)
        except UnreadableDocument as exc:
            skipped += 1
            store.delete_doc(conn, key)
            conn.execute(
                "INSERT OR REPLACE INTO skipped VALUES (?, ?, ?, ?)",
                (key, *signature, str(exc)),
            )
            warnings.warn(f"Skipped {path}: {exc}", CorpusWarning, stacklevel=2)
            continue
        conn.execute("DELETE FROM skipped WHERE path = ?", (key,))
        updated += store.delete_doc(conn, key)
        added += key not in known
        parent = Path(key).parent.as_posix()
        domain = "local" if parent == "." else parent
        edges = readers.edge_keys(document, readers.family(key))
        pending.append(store.NewDoc(key, signature, document, domain, edges=edges))
    removed = 0
    for key in known.keys() - seen:
        removed += store.delete_doc(conn, key)
    _insert_without_chrome(conn, pending, cancel)
    for key in known_skips.keys() - seen:
        conn.execute("DELETE FROM skipped WHERE path = ?", (key,))
    return IndexStats(added, updated, removed, skipped, unchanged)


def sync_records(
    conn: sqlite3.Connection,
    records: Iterable[Mapping[str, Any]],
    source: tuple[str, str | None],
    cancel: threading.Event | None,
) -> IndexStats:
    """Index ``records`` (dicts with url, title, text…) afresh unless the index holds this
    ``source``'s (name, fingerprint) already."""
    name, fingerprint = source
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    count = int(conn.execute("SELECT count(*) FROM docs").fetchone()[0])
    if meta.get("fingerprint") == fingerprint:
        return IndexStats(unchanged=count)
    store.clear(conn)
    added = skipped = 0
    seen: set[str] = set()
    pending: list[store.NewDoc] = []
    for record in records:
        if len(pending) >= RECORD_BATCH:
            store.check_cancel(cancel)
            store.insert_docs(conn, pending)
            pending = []
        url, text = str(record.get("url") or ""), str(record.get("text") or "")
        reason = "no url" if not url else "no text" if not text.strip() else ""
        reason = reason or ("duplicate url" if url in seen else "")
        if reason:
            skipped += 1
            conn.execute("INSERT OR REPLACE INTO skipped VALUES (?, -1, -1, ?)", (url, reason))
            warnings.warn(f"Skipped record {url!r}: {reason}", CorpusWarning, stacklevel=2)
            continue
        seen.add(url)
        domain = str(record.get("domain") or urlparse(url).netloc or name)
        doc = readers.Document(title=str(record.get("title") or url), text=text)
        if looks_like_markdown(text):  # a record's Markdown headings split its passages
            doc = replace(doc, outline=text)
        snippet = str(record.get("snippet") or "")
        pending.append(store.NewDoc(url, (0, len(text)), doc, domain, snippet))
        added += 1
    store.insert_docs(conn, pending)
    store.set_meta(conn, fingerprint=fingerprint or "")
    return IndexStats(added=added, removed=count, skipped=skipped)


def _insert_without_chrome(
    conn: sqlite3.Connection, pending: list[store.NewDoc], cancel: threading.Event | None
) -> None:
    """Insert the files read, their site chrome blanked: what most of the folder's files
    of the same format family (these and those indexed) share in the runs at their edges
    (page_chrome)."""
    counts = store.edge_counts(conn)
    for item in pending:
        for edge in item.edges:
            counts[edge] = counts.get(edge, 0) + 1
    paths = [key for (key,) in conn.execute("SELECT path FROM docs")]
    files = Counter(readers.family(key) for key in paths + [item.key for item in pending])
    # A family's keys are salted with it, so its threshold applies to its own lines alone.
    chrome = {name: page_chrome.chrome_keys(counts, n) for name, n in files.items()}
    for start in range(0, len(pending), FILE_BATCH):
        store.check_cancel(cancel)
        batch = pending[start : start + FILE_BATCH]
        store.insert_docs(
            conn,
            [
                replace(item, doc=readers.without_chrome(item.doc, chrome[name], name))
                for item in batch
                for name in [readers.family(item.key)]
            ],
        )


def _signature(path: Path) -> tuple[int, int]:
    """(mtime_ns, size): a file is read again only when this changes; (-1, -1) if unknown."""
    try:
        stat = path.stat()
    except OSError:
        return (-1, -1)  # e.g. a broken symlink: reading it fails and says why
    return (stat.st_mtime_ns, stat.st_size)
