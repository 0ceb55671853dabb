"""Who is running a session: a lease row (pid, host, token, heartbeat) in the store.

A run holds its session's lease from start to end, refreshing the heartbeat every
``HEARTBEAT_S`` seconds; a second run of the same session — another process, or another
``Session`` object in this one — is refused with :class:`SessionBusyError` while the holder
is alive. A holder is alive when its process exists (same host) or, on another host, when
its heartbeat is younger than ``STALE_S``. A session saved as running whose lease holder is
dead was interrupted (``kill -9``, a crash, a closed notebook): it reads as ``interrupted``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sqlite3
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from deepresearch.errors import SessionBusyError, StoreError
from deepresearch.state import ResearchState, RunStatus

if TYPE_CHECKING:
    from deepresearch.store.sqlite import SessionStore

HEARTBEAT_S = 30.0
STALE_S = 120.0
_TABLE = (
    "CREATE TABLE IF NOT EXISTS leases (session_id TEXT PRIMARY KEY, pid INTEGER NOT NULL, "
    "host TEXT NOT NULL, token TEXT NOT NULL, heartbeat TEXT NOT NULL)"
)
# Statuses a live runner would be in; with a dead lease holder they mean "interrupted".
RUNNING_STATUSES = frozenset({RunStatus.RUNNING, RunStatus.AWAITING_INPUT})


def _alive(pid: int, host: str, heartbeat: str) -> bool:
    if host == socket.gethostname():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # exists, owned by someone else
            return True
        return True
    age = datetime.now(UTC) - datetime.fromisoformat(heartbeat)
    return age.total_seconds() < STALE_S


def _refuse_if_held(conn: sqlite3.Connection, session_id: str, what_to_do: str) -> None:
    """SessionBusyError (saying ``what_to_do``) while a live run holds the session's lease."""
    conn.execute(_TABLE)
    row = conn.execute(
        "SELECT pid, host, heartbeat FROM leases WHERE session_id = ?", (session_id,)
    ).fetchone()
    if row is not None and _alive(*row):
        pid, host, _ = row
        raise SessionBusyError(
            f"Session {session_id!r} is being run by process {pid} on {host}; {what_to_do}."
        )


def acquire(store: SessionStore, session_id: str) -> str:
    """Take the session's lease; return its token. SessionBusyError if a live run holds it."""
    token = uuid.uuid4().hex
    now = datetime.now(UTC).isoformat()
    with store._write() as conn:
        _refuse_if_held(
            conn, session_id, "wait for it to finish (or stop it) before resuming it again"
        )
        conn.execute(
            "INSERT OR REPLACE INTO leases (session_id, pid, host, token, heartbeat) "
            "VALUES (?, ?, ?, ?, ?)",
            (session_id, os.getpid(), socket.gethostname(), token, now),
        )
    return token


def forget(conn: sqlite3.Connection, session_id: str) -> None:
    """Drop a deleted session's lease inside the caller's write; refuse while a live run holds it."""
    _refuse_if_held(conn, session_id, "stop that run before deleting the session")
    conn.execute("DELETE FROM leases WHERE session_id = ?", (session_id,))


def beat(store: SessionStore, session_id: str, token: str) -> None:
    """Refresh the heartbeat of the lease ``token`` holds on a session.

    Args:
        store: the session store.
        session_id: the leased session.
        token: the holder's lease token.
    """
    with store._write() as conn:
        conn.execute(
            "UPDATE leases SET heartbeat = ? WHERE session_id = ? AND token = ?",
            (datetime.now(UTC).isoformat(), session_id, token),
        )


def release(store: SessionStore, session_id: str, token: str) -> None:
    """Give up the lease ``token`` holds on a session.

    Args:
        store: the session store.
        session_id: the leased session.
        token: the holder's lease token.
    """
    with store._write() as conn:
        conn.execute("DELETE FROM leases WHERE session_id = ? AND token = ?", (session_id, token))


@contextlib.asynccontextmanager
async def holding(store: SessionStore | None, session_id: str) -> AsyncIterator[None]:
    """Hold the session's lease for the body, with a heartbeat task; no-op without a store."""
    if store is None:
        yield
        return
    try:
        token = acquire(store, session_id)
    except StoreError:  # a store that cannot be written: the run's saver reports that
        yield
        return

    async def heartbeat() -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            with contextlib.suppress(StoreError):
                beat(store, session_id, token)

    task = asyncio.get_running_loop().create_task(heartbeat())
    try:
        yield
    finally:
        task.cancel()
        # Wait for the heartbeat to end so no pending task outlives the run's event loop.
        with contextlib.suppress(asyncio.CancelledError):
            await task
        # A full or failing disk must not turn a finished run into a crash; a lease left
        # behind belongs to this process and reads as dead once it exits.
        with contextlib.suppress(StoreError):
            release(store, session_id, token)


def dead_holders(store: SessionStore) -> set[str]:
    """Ids of sessions whose lease is held by a process that is gone."""
    try:
        rows = store._read("SELECT session_id, pid, host, heartbeat FROM leases")
    except StoreError:  # no lease table yet (nothing ever ran here), or unreadable
        return set()
    return {sid for sid, pid, host, heartbeat in rows if not _alive(pid, host, heartbeat)}


def live_holders(store: SessionStore) -> set[str]:
    """Ids of sessions whose lease is held by a process that is still running."""
    try:
        rows = store._read("SELECT session_id, pid, host, heartbeat FROM leases")
    except StoreError:
        return set()
    return {sid for sid, pid, host, heartbeat in rows if _alive(pid, host, heartbeat)}


def shown_status(status: RunStatus, session_id: str, dead: set[str]) -> RunStatus:
    """The status to show: a running session whose runner died is ``interrupted``."""
    return RunStatus.INTERRUPTED if status in RUNNING_STATUSES and session_id in dead else status


def mark_interrupted(state: ResearchState, dead: set[str]) -> ResearchState:
    """``state`` with its status shown as interrupted when its run died holding the lease.

    Args:
        state: a loaded state.
        dead: ids of sessions whose lease holder is gone.
    """
    state.status = shown_status(state.status, state.id, dead)
    return state
