"""Durability end to end: killed processes, concurrent writers, cancel, timeouts, resume.

Processes are real subprocesses so that SIGKILL and two writers on one file are the real
thing, not a simulation.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from deepresearch.state import Phase
from deepresearch.store import SessionStore

WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from deepresearch.state import Phase, ResearchState
    from deepresearch.store import SessionStore

    store_path, session_id, go, count = sys.argv[1], sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
    store = SessionStore(store_path)
    state = ResearchState(id=session_id, question=f"question of {session_id}")
    state.phase = Phase.GATHERING
    while not go.exists():  # start both writers together so they really contend
        time.sleep(0.01)
    for i in range(count):
        sq = state.add_sub_query(f"{session_id} query {i}")
        state.new_source(url=f"https://example.org/{session_id}/{i}", sub_query_id=sq.id)
        store.save(state)
        store.emit(state, "checkpoint", {"i": i})
        print(i, flush=True)
    store.close()
    """
)


def spawn(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        result: str = conn.execute("PRAGMA integrity_check").fetchone()[0]
    return result


def test_two_processes_write_one_store(tmp_path: Path) -> None:
    path, go = tmp_path / "shared.db", tmp_path / "go"
    SessionStore(path).close()
    writers = [spawn(WRITER, str(path), name, str(go), "50") for name in ("alpha", "beta")]
    go.touch()
    for proc in writers:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    assert integrity(path) == "ok"
    with SessionStore(path) as store:
        assert sorted(s.id for s in store.list()) == ["alpha", "beta"]
        for name in ("alpha", "beta"):
            state = store.load(name)
            assert len(state.sub_queries) == len(state.sources) == 50
            assert {s.url for s in state.sources} == {
                f"https://example.org/{name}/{i}" for i in range(50)
            }
            assert [e.payload["i"] for e in store.events(name)] == list(range(50))


def test_sigkill_while_writing_keeps_last_commit(tmp_path: Path) -> None:
    path, go = tmp_path / "killed.db", tmp_path / "go"
    go.touch()
    proc = spawn(WRITER, str(path), "victim", str(go), "100000")
    assert proc.stdout is not None
    for _ in range(30):  # let some checkpoints commit, then kill mid-stream
        assert proc.stdout.readline(), proc.stderr.read() if proc.stderr else ""
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert integrity(path) == "ok"
    with SessionStore(path) as store:
        state = store.load("victim")
        events = store.events("victim")
    # Every save the child reported finished is there; save and emit commit separately,
    # so the trail is at most one event behind the newest snapshot.
    assert len(state.sources) >= 30
    assert state.phase == Phase.GATHERING
    assert [e.payload["i"] for e in events] == list(range(len(events)))
    assert len(state.sources) - 1 <= len(events) <= len(state.sources)
