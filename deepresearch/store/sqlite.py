"""SessionStore: one SQLite file holding sessions, state snapshots and the audit trail.

Why SQLite in WAL mode with a connection per thread: readers never block the writer,
several threads or processes can share one file, and a killed process loses at most
the transaction it was writing, never what earlier checkpoints committed.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from deepresearch.errors import InputError, SessionNotFoundError, StateVersionError, StoreError
from deepresearch.redaction import scrub_secrets
from deepresearch.state import SCHEMA_VERSION, ResearchState, RunStatus
from deepresearch.store import lease
from deepresearch.store.lean import compress_text, pack, unpack
from deepresearch.store.records import Event, SessionSummary

if TYPE_CHECKING:
    import pandas as pd

    from deepresearch.config import Config

# 2: snapshots are packed (zlib, long texts by reference; deepresearch.store.lean).
STORE_VERSION = 2
SNAPSHOTS_KEPT = 20
BUSY_TIMEOUT_MS = 10_000
LOCK_RETRIES = 5

T = TypeVar("T")


class StoreWarning(UserWarning):
    """A session loaded from an older snapshot because its newest cannot be read."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, question TEXT NOT NULL, status TEXT NOT NULL, phase TEXT NOT NULL,
    iteration INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    sources INTEGER NOT NULL DEFAULT 0, findings INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, saved_at TEXT NOT NULL,
    phase TEXT NOT NULL, iteration INTEGER NOT NULL, status TEXT NOT NULL,
    schema_version INTEGER NOT NULL, state TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS snapshots_by_session ON snapshots (session_id, id);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, ts TEXT NOT NULL,
    kind TEXT NOT NULL, phase TEXT NOT NULL, iteration INTEGER NOT NULL, payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_session ON events (session_id, id);
CREATE TABLE IF NOT EXISTS texts (hash TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS text_refs (
    session_id TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (session_id, hash)
) WITHOUT ROWID;
DROP TABLE IF EXISTS archive;
"""
# Stores written before session 5 have an ``archive`` table nothing reads any more (the
# content archive lives in files, deepresearch.budget.archive); opening one drops it.


@contextmanager
def store_errors(path: Path) -> Iterator[None]:
    """Turn SQLite and file-system failures into one-line StoreErrors that say what to do."""
    try:
        yield
    except StoreError:
        raise
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(describe_store_failure(path, exc)) from exc


def describe_store_failure(path: Path, exc: BaseException) -> str:
    """One line: what went wrong with the store file and what to do about it."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    lowered = text.lower()
    errno = getattr(exc, "errno", None)
    if "malformed" in lowered or "not a database" in lowered or "corrupt" in lowered:
        return (
            f"The session store {path} is damaged ({text}). Move it aside or restore a "
            "backup, or run with --no-persist / --store OTHER.db."
        )
    if "full" in lowered or errno in (28, 27):  # ENOSPC, EFBIG
        return f"The disk holding {path} is full ({text}). Free some space and resume."
    if "readonly" in lowered or "read-only" in lowered or errno in (13, 30):  # EACCES, EROFS
        return (
            f"The session store {path} is read-only ({text}). Make it and its folder "
            "writable, or use --store OTHER.db."
        )
    if "locked" in lowered or "busy" in lowered:
        return (
            f"The session store {path} stayed locked by another process past the busy "
            f"timeout ({text}). Retry when that process has finished."
        )
    if "disk i/o" in lowered:
        return (
            f"Writing the session store {path} failed ({text}): a full disk, a file-size "
            "limit or a failing device. Free space or check the device, then resume."
        )
    return f"The session store {path} failed: {text}."


def _json_default(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return str(value)


def _now() -> str:
    return datetime.now(UTC).isoformat()


class SessionStore:
    """Sessions, snapshots and events in one SQLite file at ``path`` (created when
    missing; see docs/persistence.md).

    Safe to share between threads (a connection per thread) and between processes
    (WAL, a 10 s busy timeout, and retries when the file stays locked).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        if self.path.is_dir():
            raise StoreError(
                f"The session store {self.path} is a folder; give a file, e.g. --store "
                f"{self.path / 'sessions.db'} (Config.store_path)."
            )
        self._local = threading.local()
        self._connections: list[tuple[int, sqlite3.Connection]] = []  # (pid, connection)
        self._connections_lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"Cannot create the store folder {self.path.parent}: {exc}") from exc
        try:
            self._refuse_foreign_database()
            self._init_schema()
        except BaseException:
            self.close()
            raise

    def __repr__(self) -> str:
        return f"SessionStore({str(self.path)!r})"

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- connections ------------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        # A forked child must not reuse its parent's connection.
        if conn is None or getattr(self._local, "pid", None) != os.getpid():
            conn = self._open()
            self._local.conn = conn
            self._local.pid = os.getpid()
        return conn

    def _open(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,  # we issue BEGIN IMMEDIATE ourselves
                check_same_thread=False,  # only close() touches another thread's connection
            )
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL"))
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            raise StoreError(describe_store_failure(self.path, exc)) from exc
        with self._connections_lock:
            self._connections.append((os.getpid(), conn))
        return conn

    def _retry(self, action: Callable[[], T]) -> T:
        """Run action, retrying when another writer held the file past busy_timeout."""
        for attempt in range(LOCK_RETRIES):
            try:
                return action()
            except sqlite3.OperationalError as exc:
                locked = "locked" in str(exc) or "busy" in str(exc)
                if not locked or attempt == LOCK_RETRIES - 1:
                    raise
                time.sleep(0.05 * 2**attempt)
        raise AssertionError("unreachable")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction; BEGIN IMMEDIATE takes the lock up front so two writers
        never deadlock upgrading from a read. Storage failures become StoreError."""
        with store_errors(self.path):
            conn = self._conn()
            self._retry(lambda: conn.execute("BEGIN IMMEDIATE"))
            try:
                yield conn
            except BaseException:
                with contextlib.suppress(sqlite3.Error):  # a broken file may refuse even this
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with store_errors(self.path):
            conn = self._conn()
            rows: list[tuple[Any, ...]] = self._retry(lambda: conn.execute(sql, params).fetchall())
        return rows

    def mark_status(self, session_id: str, status: RunStatus) -> None:
        """Set only the status of session ``session_id`` to ``status``: a small in-place
        update that may still succeed when a full snapshot cannot be written (a full disk),
        so no session stays ``running``."""
        with self._write() as conn:
            conn.execute(
                "UPDATE sessions SET status = ?, updated_at = ? WHERE id = ?",
                (status.value, _now(), session_id),
            )

    def _refuse_foreign_database(self) -> None:
        """Refuse an SQLite file another program wrote (tables, but no deepresearch
        ``store_version``; every store has had one) before anything is written: opening
        switches the file to WAL and adds our tables, which would change that database."""
        if not self.path.is_file() or self.path.stat().st_size == 0:
            return
        with store_errors(self.path):
            conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000
            )
            try:
                rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                tables = sorted(name for (name,) in rows)
                try:
                    ours = "meta" in tables and bool(
                        conn.execute("SELECT 1 FROM meta WHERE key = 'store_version'").fetchone()
                    )
                except sqlite3.OperationalError:  # a "meta" table of another shape
                    ours = False
            finally:
                conn.close()
        if tables and not ours:
            shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
            raise StoreError(
                f"{self.path} is not a deepresearch session store: it is another program's "
                f"SQLite database (tables: {shown}), left untouched. Use --store OTHER.db "
                "(Config.store_path) for a new store."
            )

    def _init_schema(self) -> None:
        try:
            with self._write() as conn:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                row = conn.execute("SELECT value FROM meta WHERE key = 'store_version'").fetchone()
                if row is None:
                    conn.execute(
                        "INSERT INTO meta (key, value) VALUES ('store_version', ?)",
                        (str(STORE_VERSION),),
                    )
                elif int(row[0]) > STORE_VERSION:
                    raise StateVersionError(
                        f"The store {self.path} was written by a newer deepresearch "
                        f"(store version {row[0]}, this one reads {STORE_VERSION}). Upgrade."
                    )
                elif int(row[0]) < STORE_VERSION:  # old snapshots stay readable as they are
                    conn.execute(
                        "UPDATE meta SET value = ? WHERE key = 'store_version'",
                        (str(STORE_VERSION),),
                    )
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path} is not a usable deepresearch session store: {exc}"
            ) from exc

    def close(self) -> None:
        """Close every connection this store opened, in any thread."""
        with self._connections_lock:
            connections, self._connections = self._connections, []
        for pid, conn in connections:
            if pid == os.getpid():  # a forked child leaves its parent's connections alone
                conn.close()
        self._local = threading.local()

    # -- sessions and snapshots -------------------------------------------------------
    def save(self, state: ResearchState) -> None:
        """Upsert the session row of ``state`` and write a snapshot of it; keep the newest
        SNAPSHOTS_KEPT."""
        snapshot, texts = pack(scrub_secrets(state.to_json()))
        now = _now()
        with self._write() as conn:
            self._store_texts(conn, state.id, texts)
            conn.execute(
                """
                INSERT INTO sessions (id, question, status, phase, iteration, created_at,
                                      updated_at, sources, findings)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    question = excluded.question, status = excluded.status,
                    phase = excluded.phase, iteration = excluded.iteration,
                    updated_at = excluded.updated_at, sources = excluded.sources,
                    findings = excluded.findings
                """,
                (
                    state.id,
                    scrub_secrets(state.question),
                    state.status.value,
                    state.phase.value,
                    state.iteration,
                    state.created_at.isoformat(),
                    now,
                    len(state.sources),
                    len(state.findings),
                ),
            )
            conn.execute(
                "INSERT INTO snapshots (session_id, saved_at, phase, iteration, status, "
                "schema_version, state) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    state.id,
                    now,
                    state.phase.value,
                    state.iteration,
                    state.status.value,
                    state.schema_version,
                    snapshot,
                ),
            )
            conn.execute(
                "DELETE FROM snapshots WHERE session_id = ? AND id NOT IN "
                "(SELECT id FROM snapshots WHERE session_id = ? ORDER BY id DESC LIMIT ?)",
                (state.id, state.id, SNAPSHOTS_KEPT),
            )

    def load(self, session_id: str) -> ResearchState:
        """The newest snapshot of session ``session_id``, migrated to the current schema;
        SessionNotFoundError when there is none. When the newest cannot be read (corrupted),
        the newest readable older one, with a :class:`StoreWarning` saying what is missing;
        a StateVersionError when none can be read, or the newest is from a newer version."""
        # Ids first: a snapshot's state is read only when the newer ones could not be.
        rows = self._read(
            "SELECT id, saved_at, schema_version FROM snapshots WHERE session_id = ? "
            "ORDER BY id DESC LIMIT ?",
            (session_id, SNAPSHOTS_KEPT),
        )
        if not rows:
            raise SessionNotFoundError(
                f"No session {session_id!r} in {self.path}. `deepresearch list` shows the ids."
            )
        newest_id, newest_saved, version = rows[0]
        # A newer deepresearch wrote the newest: an older snapshot would drop its work.
        newer = isinstance(version, int) and version > SCHEMA_VERSION
        newest_error: StateVersionError | None = None
        for snapshot_id, saved_at, _ in rows:
            try:
                state = self._state_of(snapshot_id)
            except StateVersionError as exc:
                newest_error = newest_error or exc
                if newer:
                    break
                continue
            if newest_error is not None:
                warnings.warn(
                    f"Session {session_id!r}: its newest snapshot ({newest_id}, saved "
                    f"{newest_saved}) cannot be read ({newest_error}); loaded snapshot "
                    f"{snapshot_id}, saved {saved_at}: the work after it is missing.",
                    StoreWarning,
                    stacklevel=2,
                )
                # A checkpoint from mid-run: unless a live run holds the session, no run is.
                live = lease.live_holders(self)
                if state.status in lease.RUNNING_STATUSES and session_id not in live:
                    state.status = RunStatus.INTERRUPTED
            return lease.mark_interrupted(state, lease.dead_holders(self))
        where = f"Session {session_id!r} (snapshot {newest_id}, saved {newest_saved})"
        if newer:
            raise StateVersionError(f"{where} cannot be loaded: {newest_error}") from newest_error
        which = (
            "its only snapshot cannot"
            if len(rows) == 1
            else f"none of its {len(rows)} snapshots can"
        )
        raise StateVersionError(
            f"{where} cannot be loaded: {which} be read ({newest_error}). "
            f"`deepresearch show {session_id}` still lists its events; "
            f"`deepresearch delete {session_id}` removes it."
        ) from newest_error

    def _state_of(self, snapshot_id: int) -> ResearchState:
        found = self._read("SELECT state FROM snapshots WHERE id = ?", (snapshot_id,))
        if not found:  # pruned by another process's save since the ids were read
            raise StateVersionError(f"snapshot {snapshot_id} was replaced while loading")
        (stored,) = found[0]
        if isinstance(stored, bytes):
            return ResearchState.from_dict(unpack(stored, self._texts))
        return ResearchState.from_json(stored)  # written before store version 2

    def exists(self, session_id: str) -> bool:
        """Whether the store holds session ``session_id``."""
        return bool(self._read("SELECT 1 FROM sessions WHERE id = ?", (session_id,)))

    def list(self) -> list[SessionSummary]:
        """Every session, most recently updated first."""
        rows = self._read(
            "SELECT id, question, status, phase, iteration, created_at, updated_at, sources, "
            "findings FROM sessions ORDER BY updated_at DESC, id"
        )
        fields = list(SessionSummary.model_fields)
        summaries = [
            SessionSummary.model_validate(dict(zip(fields, row, strict=True))) for row in rows
        ]
        dead = lease.dead_holders(self)  # a running session whose runner died: interrupted
        for summary in summaries:
            summary.status = lease.shown_status(summary.status, summary.id, dead)
        return summaries

    def delete(self, session_id: str) -> None:
        """Remove session ``session_id`` with its snapshots, events and lease.

        Raises SessionBusyError while a live run holds the session (stop it first).
        """
        with self._write() as conn:
            lease.forget(conn, session_id)
            cursor = conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            if cursor.rowcount == 0:
                raise SessionNotFoundError(f"No session {session_id!r} in {self.path}.")
            for table in ("snapshots", "events", "text_refs"):
                conn.execute(f"DELETE FROM {table} WHERE session_id = ?", (session_id,))
            conn.execute("DELETE FROM texts WHERE hash NOT IN (SELECT hash FROM text_refs)")

    def _store_texts(
        self, conn: sqlite3.Connection, session_id: str, texts: dict[str, str]
    ) -> None:
        """Write the texts the store lacks (compressing only those) and the session's refs."""
        stored: set[str] = set()
        hashes = builtins.list(texts)
        for start in range(0, len(hashes), 500):  # SQLite caps the number of parameters
            chunk = hashes[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = conn.execute(f"SELECT hash FROM texts WHERE hash IN ({marks})", chunk)
            stored.update(h for (h,) in rows)
        conn.executemany(
            "INSERT INTO texts (hash, data) VALUES (?, ?)",
            [(h, compress_text(t)) for h, t in texts.items() if h not in stored],
        )
        conn.executemany(
            "INSERT OR IGNORE INTO text_refs (session_id, hash) VALUES (?, ?)",
            [(session_id, h) for h in hashes],
        )

    def _texts(self, hashes: Iterable[str]) -> dict[str, bytes]:
        wanted = builtins.list(hashes)
        found: dict[str, bytes] = {}
        for start in range(0, len(wanted), 500):  # SQLite caps the number of parameters
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._read(f"SELECT hash, data FROM texts WHERE hash IN ({marks})", tuple(chunk))
            found.update({h: d for h, d in rows})
        return found

    # -- audit trail ------------------------------------------------------------------
    def emit(self, state: ResearchState, kind: str, payload: dict[str, Any]) -> None:
        """Append one event of ``kind`` with ``payload`` (JSON-able, secrets scrubbed) to the
        audit trail of ``state``'s session (the EventSink protocol)."""
        text = scrub_secrets(json.dumps(payload, default=_json_default, ensure_ascii=False))
        with self._write() as conn:
            conn.execute(
                "INSERT INTO events (session_id, ts, kind, phase, iteration, payload) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (state.id, _now(), kind, state.phase.value, state.iteration, text),
            )

    def events(self, session_id: str) -> builtins.list[Event]:
        """The audit trail of session ``session_id``, oldest first."""
        rows = self._read(
            "SELECT id, session_id, ts, kind, phase, iteration, payload FROM events "
            "WHERE session_id = ? ORDER BY id",
            (session_id,),
        )
        fields = list(Event.model_fields)
        return [
            Event.model_validate({**dict(zip(fields, row, strict=True)), "payload": _load(row[6])})
            for row in rows
        ]

    def events_frame(self, session_id: str) -> pd.DataFrame:
        """The audit trail of session ``session_id`` as a DataFrame (a new one each call)."""
        from deepresearch.store.export import events_frame

        return events_frame(self.events(session_id))


def _load(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"unreadable": text[:200]}
    return value if isinstance(value, dict) else {"value": value}


def open_store(store: object, config: Config) -> SessionStore | None:
    """The store a run writes to: None with ``persist=False``, the configured default for
    None, or the given SessionStore or path; anything else is an InputError."""
    if not config.storage.persist:
        return None
    if store is None:
        return SessionStore(config.resolved_store_path())
    if isinstance(store, SessionStore):
        return store
    if isinstance(store, str | os.PathLike):
        return SessionStore(Path(store).expanduser())
    raise InputError(
        f"store must be a SessionStore or a path, not {type(store).__name__}; "
        "use persist=False to keep nothing."
    )
