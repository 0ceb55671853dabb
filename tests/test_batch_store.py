"""The lean store a batch writes to: page text once per content hash across sessions and
snapshots, zlib-compressed snapshots holding references, old stores still readable."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

import deepresearch as dr
from deepresearch.state import ResearchState
from deepresearch.store import SessionStore
from deepresearch.testing import StaticSearch

QUESTIONS = ["How did the printing press change Europe?", "What did Gutenberg invent?"]


def count(path: Path, sql: str) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute(sql).fetchone()[0])


async def test_sessions_share_page_text_and_round_trip(
    docs: list[dict[str, str]], tmp_path: Path
) -> None:
    long_docs = [{**d, "content": d["content"] * 3} for d in docs]  # page-sized texts
    path = tmp_path / "s.db"
    result = await dr.research_many(
        QUESTIONS, llm="offline", search=StaticSearch(long_docs), store=path, progress=False
    )
    assert result.ok
    first, second = result.frame.session_id
    with SessionStore(path) as store:
        for sid in (first, second):
            assert store.load(sid).report is not None
    with sqlite3.connect(path) as conn:
        texts = conn.execute("SELECT count(*), count(DISTINCT hash) FROM texts").fetchone()
        refs = {
            sid: {
                h
                for (h,) in conn.execute("SELECT hash FROM text_refs WHERE session_id = ?", (sid,))
            }
            for sid in (first, second)
        }
        snapshots = [s for (s,) in conn.execute("SELECT state FROM snapshots")]
        stored = [zlib.decompress(d).decode() for (d,) in conn.execute("SELECT data FROM texts")]
    # texts the two sessions share (the same pages) are stored once for both
    assert refs[first] & refs[second]
    assert texts[0] == texts[1] == len(refs[first] | refs[second])
    # snapshots hold references, compressed: no page text appears in them
    assert len(snapshots) > 4 and all(isinstance(s, bytes) for s in snapshots)
    sample = long_docs[0]["content"].encode()  # page-long: only by reference
    assert any(long_docs[0]["content"] in t for t in stored)
    assert not any(sample in zlib.decompress(s) for s in snapshots)


async def test_delete_keeps_shared_text_until_the_last_session(
    docs: list[dict[str, str]], tmp_path: Path
) -> None:
    long_docs = [{**d, "content": d["content"] * 3} for d in docs]
    path = tmp_path / "s.db"
    result = await dr.research_many(
        QUESTIONS, llm="offline", search=StaticSearch(long_docs), store=path, progress=False
    )
    first, second = result.frame.session_id
    with SessionStore(path) as store:
        store.delete(first)
        assert store.load(second).report is not None  # its texts survived
        assert count(path, "SELECT count(*) FROM texts") > 0
        store.delete(second)
    assert count(path, "SELECT count(*) FROM texts") == 0
    assert count(path, "SELECT count(*) FROM text_refs") == 0


def test_a_store_written_before_the_lean_format_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    state = ResearchState(id="old1", question=QUESTIONS[0], research_brief="x" * 1000)
    with sqlite3.connect(path) as conn:  # the version-1 layout, as an older release wrote it
        conn.executescript(
            """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO meta VALUES ('store_version', '1');
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY, question TEXT NOT NULL, status TEXT NOT NULL,
                phase TEXT NOT NULL, iteration INTEGER NOT NULL, created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL, sources INTEGER NOT NULL DEFAULT 0,
                findings INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE snapshots (
                id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
                saved_at TEXT NOT NULL, phase TEXT NOT NULL, iteration INTEGER NOT NULL,
                status TEXT NOT NULL, schema_version INTEGER NOT NULL, state TEXT NOT NULL);
            """
        )
        conn.execute(
            "INSERT INTO sessions VALUES (?, ?, 'pending', 'clarification', 1, ?, ?, 0, 0)",
            (state.id, state.question, state.created_at.isoformat(), state.created_at.isoformat()),
        )
        conn.execute(
            "INSERT INTO snapshots (session_id, saved_at, phase, iteration, status, "
            "schema_version, state) VALUES (?, ?, 'clarification', 1, 'pending', 2, ?)",
            (state.id, state.created_at.isoformat(), state.to_json()),
        )
    with SessionStore(path) as store:
        loaded = store.load("old1")
        assert loaded.research_brief == "x" * 1000 and loaded.question == QUESTIONS[0]
        assert [s.id for s in store.list()] == ["old1"]
        loaded.research_brief = "y" * 1000
        store.save(loaded)  # new snapshots use the lean format next to the old ones
        assert store.load("old1").research_brief == "y" * 1000
    assert count(path, "SELECT value FROM meta WHERE key = 'store_version'") == 2
    with sqlite3.connect(path) as conn:
        kinds = [type(s) for (s,) in conn.execute("SELECT state FROM snapshots ORDER BY id")]
    assert kinds == [str, bytes]


def test_json_round_trip_is_exact(tmp_path: Path) -> None:
    state = ResearchState(question=QUESTIONS[1], research_brief="é" * 600 + " [1]")
    state.counters = {"a": 1}
    with SessionStore(tmp_path / "s.db") as store:
        store.save(state)
        loaded = store.load(state.id)
    assert json.loads(loaded.to_json()) == json.loads(state.to_json())
