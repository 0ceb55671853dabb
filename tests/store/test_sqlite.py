"""SessionStore: round trips, snapshots, events, old schemas, secrets, errors, concurrency."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from deepresearch.errors import SessionBusyError, SessionNotFoundError, StateVersionError
from deepresearch.state import Phase, ResearchState, RunStatus
from deepresearch.store import SessionStore, StoreError, lease, scrub_secrets
from deepresearch.store.sqlite import SNAPSHOTS_KEPT, StoreWarning


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SessionStore]:
    s = SessionStore(tmp_path / "nested" / "sessions.db")
    yield s
    s.close()


def make_state(question: str = "How did the printing press change Europe?") -> ResearchState:
    state = ResearchState(question=question)
    sq = state.add_sub_query("printing press literacy")
    state.new_source(url="https://example.org/a", title="A", content="text", sub_query_id=sq.id)
    return state


def test_creates_parent_dirs_and_uses_wal(store: SessionStore) -> None:
    assert store.path.is_file()
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_save_load_round_trip(store: SessionStore) -> None:
    state = make_state()
    state.phase = Phase.GATHERING
    store.save(state)
    loaded = store.load(state.id)
    assert loaded == state
    assert store.exists(state.id)
    assert not store.exists("nope")


def test_save_upserts_and_load_returns_newest(store: SessionStore) -> None:
    state = make_state()
    store.save(state)
    state.phase = Phase.ANALYSIS
    state.new_source(url="https://example.org/b", title="B")
    store.save(state)
    loaded = store.load(state.id)
    assert loaded.phase == Phase.ANALYSIS
    assert [s.id for s in loaded.sources] == ["src-1", "src-2"]
    [summary] = store.list()
    assert (summary.phase, summary.sources, summary.status) == (
        Phase.ANALYSIS,
        2,
        RunStatus.PENDING,
    )


def test_keeps_only_latest_snapshots(store: SessionStore) -> None:
    state = make_state()
    for i in range(SNAPSHOTS_KEPT + 5):
        state.iteration = i + 1
        store.save(state)
    with sqlite3.connect(store.path) as conn:
        rows = conn.execute(
            "SELECT iteration FROM snapshots WHERE session_id = ? ORDER BY id", (state.id,)
        ).fetchall()
    assert len(rows) == SNAPSHOTS_KEPT
    assert rows[-1][0] == SNAPSHOTS_KEPT + 5
    assert store.load(state.id).iteration == SNAPSHOTS_KEPT + 5


def test_list_orders_by_update_and_counts(store: SessionStore) -> None:
    first, second = make_state("first question"), make_state("second question")
    store.save(first)
    store.save(second)
    store.save(first)
    summaries = store.list()
    assert [s.question for s in summaries] == ["first question", "second question"]
    assert summaries[0].sources == 1
    assert summaries[0].findings == 0


def test_unknown_session_is_a_clear_error(store: SessionStore) -> None:
    with pytest.raises(SessionNotFoundError, match="No session 'missing'"):
        store.load("missing")
    with pytest.raises(SessionNotFoundError):
        store.delete("missing")


def test_delete_removes_everything(store: SessionStore) -> None:
    state, other = make_state(), make_state("other")
    for s in (state, other):
        store.save(s)
        store.emit(s, "phase_started", {})
    store.delete(state.id)
    assert not store.exists(state.id)
    assert store.events(state.id) == []
    assert store.load(other.id) == other
    assert len(store.events(other.id)) == 1


def test_corrupted_snapshot_raises_state_version_error(store: SessionStore) -> None:
    state = make_state()
    store.save(state)
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE snapshots SET state = '{not json' WHERE session_id = ?", (state.id,))
    with pytest.raises(StateVersionError, match=f"Session '{state.id}'.*not valid JSON"):
        store.load(state.id)


def test_a_corrupted_newest_snapshot_falls_back_to_the_one_before(store: SessionStore) -> None:
    # Nothing already gathered is lost to one bad snapshot: the store keeps older ones.
    state = make_state()
    saved = []
    for n, status in enumerate([RunStatus.RUNNING, RunStatus.RUNNING, RunStatus.COMPLETED]):
        state.add_sub_query(f"follow-up {n}")
        state.status = status
        store.save(state)
        saved.append(state.model_copy(deep=True))
    with sqlite3.connect(store.path) as conn:
        newest = conn.execute("SELECT max(id) FROM snapshots").fetchone()[0]
        conn.execute("UPDATE snapshots SET state = x'00ff00' WHERE id = ?", (newest,))
    with pytest.warns(
        StoreWarning, match=f"newest snapshot \\({newest}, saved .*\\) cannot be read"
    ):
        loaded = store.load(state.id)
    # The run that wrote it has ended: the mid-run checkpoint does not say "running".
    assert loaded.status == RunStatus.INTERRUPTED
    assert loaded.model_copy(update={"status": RunStatus.RUNNING}) == saved[1]
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE snapshots SET state = x'00ff00'")
    with pytest.raises(StateVersionError, match="none of its 3 snapshots can be read") as caught:
        store.load(state.id)
    assert "export what you can" not in str(caught.value)
    assert f"deepresearch delete {state.id}" in str(caught.value)


def test_newer_state_version_raises(store: SessionStore) -> None:
    state = make_state()
    store.save(state)
    data = json.loads(state.to_json())
    data["schema_version"] = 99
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE snapshots SET state = ?", (json.dumps(data),))
    with pytest.raises(StateVersionError, match="newer"):
        store.load(state.id)


def test_v1_state_is_migrated_on_load(store: SessionStore) -> None:
    state = make_state()
    store.save(state)
    # What the first schema saved: the seeds' metadata dict, sources without citations.
    v1 = {
        "id": state.id,
        "question": state.question,
        "phase": "gathering",
        "iteration": 1,
        "sub_queries": [{"id": "sq-1", "query": "printing press literacy"}],
        "sources": [{"id": "src-3", "url": "https://example.org/a", "title": "A"}],
        "metadata": {
            "cancelled": True,
            "abort_phase": "gathering",
            "agent_decisions": [{"agent": "planner", "action": "plan"}],
        },
    }
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE snapshots SET state = ?", (json.dumps(v1),))
    loaded = store.load(state.id)
    assert loaded.schema_version == 2
    assert loaded.status == RunStatus.CANCELLED
    assert loaded.abort_phase == Phase.GATHERING
    assert loaded.sources[0].citation == 3
    assert loaded.decisions[0].agent == "planner"


def test_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match=r"bogus\.db"):
        SessionStore(bogus)


def test_newer_store_version_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    SessionStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'store_version'")
    with pytest.raises(StateVersionError, match="newer deepresearch"):
        SessionStore(path)


def test_events_are_appended_in_order_with_phase(store: SessionStore) -> None:
    state = make_state()
    state.phase = Phase.PLANNING
    store.emit(state, "phase_started", {})
    store.emit(
        state,
        "llm_call",
        {
            "role": "planner",
            "model": "offline",
            "input_tokens": 120,
            "output_tokens": 30,
            "duration_s": 0.5,
            "cost_usd": 0.0,
        },
    )
    state.phase = Phase.GATHERING
    state.iteration = 2
    store.emit(state, "search_call", {"query": "q", "results": 3, "duration_s": 0.1})
    events = store.events(state.id)
    assert [e.kind for e in events] == ["phase_started", "llm_call", "search_call"]
    assert [e.phase for e in events] == ["planning", "planning", "gathering"]
    assert events[2].iteration == 2
    assert events[1].payload["input_tokens"] == 120
    assert events[0].ts <= events[1].ts <= events[2].ts


def test_events_frame(store: SessionStore) -> None:
    state = make_state()
    store.emit(state, "phase_started", {})
    store.emit(
        state,
        "llm_call",
        {
            "role": "planner",
            "model": "offline",
            "input_tokens": 120,
            "output_tokens": 30,
            "duration_s": 0.5,
            "cost_usd": 0.001,
        },
    )
    frame = store.events_frame(state.id)
    assert isinstance(frame, pd.DataFrame)
    assert list(frame["kind"]) == ["phase_started", "llm_call"]
    assert frame["input_tokens"].sum() == 120
    assert pd.isna(frame["input_tokens"].iloc[0])
    assert "planner" in frame["description"].iloc[1]
    assert str(frame["ts"].dtype).startswith("datetime64")
    assert store.events_frame("nobody").empty


def test_payload_with_rich_values_is_serialised(store: SessionStore) -> None:
    state = make_state()
    store.emit(state, "decision", {"phase": Phase.PLANNING, "at": state.created_at, "set": {1}})
    [event] = store.events(state.id)
    assert event.payload["phase"] == "planning"
    assert event.payload["set"] == [1]


def test_a_store_with_the_old_archive_table_opens_and_drops_it(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with SessionStore(path) as store:
        store.save(make_state())
    with sqlite3.connect(path) as conn:  # as stores before session 5 had it
        conn.execute(
            "CREATE TABLE archive (content_hash TEXT PRIMARY KEY, session_id TEXT NOT NULL, "
            "archived_at TEXT NOT NULL, record TEXT NOT NULL)"
        )
        conn.execute("INSERT INTO archive VALUES ('sha256:1', 'abc', 'now', '{}')")
    conn.close()
    with SessionStore(path) as store:
        assert len(store.list()) == 1
    with sqlite3.connect(path) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert "archive" not in tables and "sessions" in tables


def test_secrets_never_reach_the_file(store: SessionStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "custom-secret-value-42")
    openai_key = "sk-proj-" + "a1B2" * 10
    anthropic_key = "sk-ant-api03-" + "Z9y8" * 10
    state = make_state(f"question mentioning {openai_key}")
    state.error = f"401 from header Bearer {anthropic_key} and custom-secret-value-42"
    store.save(state)
    store.emit(state, "llm_error", {"error": f"bad key tvly-dev-{'x1' * 12}"})
    store.close()
    raw = b"".join(p.read_bytes() for p in store.path.parent.glob("sessions.db*"))
    assert state.id.encode() in raw
    for secret in (openai_key, anthropic_key, "custom-secret-value-42", "tvly-dev-x1x1"):
        assert secret.encode() not in raw
    loaded = SessionStore(store.path).load(state.id)
    assert loaded.error is not None and "[redacted]" in loaded.error
    assert "[redacted]" in loaded.question


def test_scrub_leaves_ordinary_text_alone() -> None:
    text = "risk-assessment-framework-for-banks task-oriented desk-reference-2020 sk-learn"
    assert scrub_secrets(text) == text


def test_threads_share_one_store(store: SessionStore) -> None:
    states = [make_state(f"question {i}") for i in range(4)]
    errors: list[BaseException] = []

    def work(state: ResearchState) -> None:
        try:
            for i in range(10):
                state.iteration = i + 1
                store.save(state)
                store.emit(state, "checkpoint", {"i": i})
        except BaseException as exc:  # surfaced in the assert below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in states]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for state in states:
        assert store.load(state.id).iteration == 10
        assert [e.payload["i"] for e in store.events(state.id)] == list(range(10))


def test_close_then_reuse_reopens(store: SessionStore) -> None:
    state = make_state()
    store.save(state)
    store.close()
    assert store.load(state.id) == state


def _save_in_child(store: SessionStore, question: str) -> None:
    store.save(make_state(question))
    store.close()


def test_forked_child_opens_its_own_connection(store: SessionStore) -> None:
    parent_state = make_state("parent")
    store.save(parent_state)
    child = multiprocessing.get_context("fork").Process(
        target=_save_in_child, args=(store, "child")
    )
    child.start()
    child.join(60)
    assert child.exitcode == 0
    store.save(parent_state)  # the parent's connection still works after the child closed
    assert sorted(s.question for s in store.list()) == ["child", "parent"]
    assert integrity_ok(store.path)


def integrity_ok(path: Path) -> bool:
    with sqlite3.connect(path) as conn:
        return bool(conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def test_delete_drops_a_dead_runners_lease(store: SessionStore) -> None:
    state = make_state()
    store.save(state)
    lease.acquire(store, state.id)
    with sqlite3.connect(store.path) as conn:  # the holder's process is gone
        conn.execute("UPDATE leases SET pid = 2147483646 WHERE session_id = ?", (state.id,))
    store.delete(state.id)
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("SELECT count(*) FROM leases").fetchone() == (0,)


def test_delete_refuses_while_a_live_run_holds_the_session(store: SessionStore) -> None:
    state = make_state()
    store.save(state)
    token = lease.acquire(store, state.id)  # this process: alive
    with pytest.raises(SessionBusyError, match="stop that run"):
        store.delete(state.id)
    assert store.exists(state.id)
    lease.release(store, state.id, token)
    store.delete(state.id)
    assert not store.exists(state.id)
