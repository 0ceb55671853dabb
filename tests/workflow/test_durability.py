"""Durability end to end: killed processes, concurrent writers, cancel, timeouts, resume.

Processes are real subprocesses so that SIGKILL and two writers on one file are the real
thing, not a simulation.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import deepresearch as dr
from deepresearch.errors import SessionNotFoundError, StateVersionError
from deepresearch.providers.base import SearchHit
from deepresearch.state import (
    SCHEMA_VERSION,
    Phase,
    ResearchState,
    RunStatus,
    SubQueryStatus,
)
from deepresearch.store import SessionStore
from deepresearch.testing import StaticSearch

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


# -- research sessions ---------------------------------------------------------------------
QUESTION = "How did the printing press change Europe?"

DOCS = [
    {"url": f"https://example.org/{slug}", "title": title, "content": content}
    for slug, title, content in [
        ("press", "Printing press", "The printing press was invented by Johannes Gutenberg "
         "around 1440 in Mainz. It used movable metal type and oil-based ink. Printing spread "
         "to more than two hundred cities by 1500."),
        ("literacy", "Literacy in early modern Europe", "Literacy rates rose in Europe after "
         "the printing press made books cheaper. Pamphlets and vernacular bibles reached "
         "ordinary readers. Schools expanded in Protestant regions."),
        ("reformation", "Protestant Reformation", "Martin Luther's Ninety-five Theses of 1517 "
         "spread quickly through printed pamphlets. The printing press helped the Reformation "
         "reach a mass audience across Germany."),
        ("science", "Scientific Revolution", "Printed books let scholars share accurate "
         "diagrams and data. The printing press standardised scientific texts, and journals "
         "appeared in the seventeenth century."),
        ("economy", "Book trade economy", "The book trade created new businesses for "
         "printers, paper makers and booksellers. Venice became a major printing centre with "
         "hundreds of presses by 1500."),
        ("language", "Standardisation of languages", "Printing fixed spelling and grammar in "
         "vernacular languages. English and German became more uniform because of printed "
         "books."),
        ("censorship", "Censorship of printed books", "Church and state authorities answered "
         "the printing press with censorship. The Index of Prohibited Books was first "
         "published in 1559."),
        ("news", "Early newspapers", "The first newspapers appeared in the early seventeenth "
         "century in Strasbourg and Antwerp. Printed news spread political information to "
         "merchants and citizens."),
    ]
]  # fmt: skip

CHILD = textwrap.dedent(
    """
    import asyncio, json, sys
    from pathlib import Path

    import deepresearch as dr
    from deepresearch.testing import StaticSearch

    mode, store_path, docs_path, log_path = sys.argv[1:5]
    QUESTION = "How did the printing press change Europe?"
    CONFIG = dr.Config(llm="offline", max_iterations=1, max_concurrent_research_units=1)


    class LoggedSearch(StaticSearch):
        # Logs every query; in "kill" mode it hangs once a sub-query is finished, so the
        # parent can SIGKILL it in the middle of gathering.
        state = None

        async def search(self, query, *, max_results):
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps({"mode": mode, "query": query}) + "\\n")
            if mode == "kill" and self.state is not None and self.state.completed_sub_queries():
                await asyncio.sleep(120)
            return await super().search(query, max_results=max_results)


    async def main():
        search = LoggedSearch(json.loads(Path(docs_path).read_text(encoding="utf-8")))
        if mode == "resume":
            session = dr.Session.load(sys.argv[5], store=store_path, search=search, config=CONFIG)
            search.state = session.state
            result = await session.resume()
        else:
            session = dr.Session(QUESTION, search=search, store=store_path, config=CONFIG)
            search.state = session.state
            result = await session.run()
        report = session.report
        print(json.dumps({
            "id": session.id,
            "status": result.status.value,
            "sections": report.sections if report else None,
        }))


    asyncio.run(main())
    """
)


def normalized(query: str) -> str:
    return " ".join(query.lower().split())


def run_child(tmp_path: Path, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(tmp_path / "child.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=child_env(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def child_env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "DEEPRESEARCH_HOME": str(tmp_path / "home")}


def wait_for_finished_sub_query(store_path: Path, proc: subprocess.Popen[str]) -> str:
    """Poll the store until the child has checkpointed a finished sub-query in gathering;
    return the session id."""
    deadline = time.monotonic() + 120  # a hang guard, not a speed assertion
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"child exited early: {proc.stderr.read() if proc.stderr else ''}")
        if store_path.exists():
            with SessionStore(store_path) as store:
                for summary in store.list():
                    state = store.load(summary.id)
                    if state.phase == Phase.GATHERING and state.completed_sub_queries():
                        return summary.id
        time.sleep(0.05)
    pytest.fail("no sub-query checkpoint appeared")


def test_sigkill_mid_gathering_then_resume_in_new_process(tmp_path: Path) -> None:
    (tmp_path / "child.py").write_text(CHILD, encoding="utf-8")
    docs, log = tmp_path / "docs.json", tmp_path / "searches.jsonl"
    docs.write_text(json.dumps(DOCS), encoding="utf-8")
    common = [str(docs), str(log)]

    reference = run_child(tmp_path, "plain", str(tmp_path / "reference.db"), *common)
    assert reference["status"] == "completed"

    store_path = tmp_path / "killed.db"
    victim = subprocess.Popen(
        [sys.executable, str(tmp_path / "child.py"), "kill", str(store_path), *common],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(tmp_path),
    )
    try:
        session_id = wait_for_finished_sub_query(store_path, victim)
    finally:
        victim.kill()  # SIGKILL: no cleanup, no final save
        victim.communicate(timeout=30)
    assert victim.returncode == -signal.SIGKILL

    with SessionStore(store_path) as store:
        checkpoint = store.load(session_id)  # the last state the killed process committed
        events_before = len(store.events(session_id))
    finished = checkpoint.completed_sub_queries()
    unfinished = [sq for sq in checkpoint.sub_queries if sq not in finished]
    assert checkpoint.phase == Phase.GATHERING
    assert finished and unfinished, "the kill must land between finished and pending topics"
    assert checkpoint.sources

    resumed = run_child(tmp_path, "resume", str(store_path), *common, session_id)
    assert resumed == {**reference, "id": session_id}  # completed, same report sections

    with SessionStore(store_path) as store:
        final = store.load(session_id)
        later_events = store.events(session_id)[events_before:]
    # Nothing checkpointed was lost (mid-round sources had provisional ids: phases.settle).
    final_sources = {(s.url, s.sub_query_id) for s in final.sources}
    assert {(s.url, s.sub_query_id) for s in checkpoint.sources} <= final_sources
    # No finished sub-query was searched again: not by its researcher (audit trail scope)...
    assert later_events[0].kind == "resumed"
    finished_ids = {sq.id for sq in finished}
    rescoped = [e for e in later_events if e.kind == "search_call"]
    assert rescoped and not [e for e in rescoped if e.payload.get("scope") in finished_ids]
    # ...and no query a finished researcher ran reached the search provider (search log).
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    resumed_queries = {normalized(e["query"]) for e in entries if e["mode"] == "resume"}
    topic_queries = {t.sub_query_id: t.queries for t in checkpoint.topic_results}
    finished_queries = {
        normalized(q) for sq in finished for q in [sq.query, *topic_queries.get(sq.id, [])]
    }
    assert not finished_queries & resumed_queries
    # The unfinished ones were the ones continued.
    assert {normalized(sq.query) for sq in unfinished} <= resumed_queries
    statuses = {sq.id: sq.status for sq in final.sub_queries}
    assert all(statuses[sq.id] == SubQueryStatus.COMPLETED for sq in unfinished)


# -- cancel, timeouts, resume in one process --------------------------------------------
class HangAfterFirstTopic(StaticSearch):
    """Fast until the session has finished one sub-query; then every search hangs, like a
    provider that stopped answering. ``hanging`` is set when the first hung call starts."""

    def __init__(self) -> None:
        super().__init__(DOCS)
        self.state: ResearchState | None = None
        self.hanging = asyncio.Event()

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        if self.state is not None and self.state.completed_sub_queries():
            self.queries.append(query)
            self.hanging.set()
            await asyncio.sleep(600)
        return await super().search(query, max_results=max_results)


def hanging_session(store: SessionStore, **config: Any) -> tuple[dr.Session, HangAfterFirstTopic]:
    search = HangAfterFirstTopic()
    cfg = dr.Config(llm="offline", max_iterations=1, max_concurrent_research_units=1, **config)
    session = dr.Session(QUESTION, search=search, store=store, config=cfg)
    search.state = session.state
    return session, search


def assert_partial_state_kept(store: SessionStore, session: dr.Session, status: RunStatus) -> None:
    saved = store.load(session.id)
    assert saved.status == status
    assert saved.abort_phase == Phase.GATHERING
    assert saved.abort_iteration == 1
    assert saved.phase == Phase.GATHERING  # resume continues the interrupted phase
    assert saved.completed_sub_queries() and saved.pending_sub_queries()
    assert {s.id for s in saved.sources} == {s.id for s in session.state.sources}
    assert saved.sources
    assert store.events(session.id)[-2].kind == status.value  # then its checkpoint


@pytest.mark.parametrize("caller", ["thread", "task"])
async def test_cancel_takes_effect_quickly_and_saves_partial_state(
    tmp_path: Path, caller: str
) -> None:
    store = SessionStore(tmp_path / "s.db")
    session, search = hanging_session(store)
    task = session.start()
    await asyncio.wait_for(search.hanging.wait(), timeout=60)
    asked = time.monotonic()
    if caller == "thread":
        threading.Thread(target=session.cancel).start()
    else:

        async def canceller() -> None:
            session.cancel()

        asyncio.get_running_loop().create_task(canceller())
    result = await asyncio.wait_for(task, timeout=30)
    assert time.monotonic() - asked < 1.0  # the generous bound
    assert result.status == RunStatus.CANCELLED and not result.ok
    assert result.error and "cancelled" in result.error
    assert_partial_state_kept(store, session, RunStatus.CANCELLED)


async def test_phase_timeout_keeps_partial_state(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "s.db")
    session, search = hanging_session(store, phase_timeouts_s={"gathering": 1.0})
    result = await session.run()
    assert search.hanging.is_set()
    assert result.status == RunStatus.TIMED_OUT
    assert result.error and "gathering" in result.error
    assert_partial_state_kept(store, session, RunStatus.TIMED_OUT)


async def test_resume_after_cancel_continues_without_repeating(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SessionStore(path)
    session, search = hanging_session(store)
    task = session.start()
    await asyncio.wait_for(search.hanging.wait(), timeout=60)
    session.cancel()
    await task
    saved = store.load(session.id)
    finished = {sq.id: sq.query for sq in saved.completed_sub_queries()}

    fresh = StaticSearch(DOCS)
    resumed = dr.Session.load(session.id, store=path, search=fresh, config=session.config)
    result = await resumed.resume()
    assert result.status == RunStatus.COMPLETED and resumed.report is not None
    assert not set(finished.values()) & set(fresh.queries)
    assert {(s.id, s.url) for s in saved.sources} <= {(s.id, s.url) for s in resumed.state.sources}
    kinds = [e.kind for e in store.events(session.id)]
    assert kinds.index("cancelled") < kinds.index("resumed") < len(kinds) - 1


def test_load_corrupted_state_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with SessionStore(path) as store:
        state = ResearchState(question=QUESTION)
        store.save(state)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE snapshots SET state = substr(state, 1, 40)")
    with pytest.raises(StateVersionError, match=f"Session '{state.id}'"):
        dr.Session.load(state.id, store=path)
    with pytest.raises(SessionNotFoundError):
        dr.Session.load("unknown", store=path)


async def test_older_state_version_migrates_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with SessionStore(path) as store:
        store.save(ResearchState(id="old", question=QUESTION))
    v1 = {  # a state as schema version 1 saved it: the seeds' metadata dict
        "id": "old",
        "question": QUESTION,
        "phase": "planning",
        "iteration": 1,
        "max_iterations": 1,
        "metadata": {"timeout": True, "abort_phase": "planning"},
    }
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE snapshots SET state = ?", (json.dumps(v1),))
    session = dr.Session.load("old", store=path, search=StaticSearch(DOCS), llm="offline")
    assert session.state.status == RunStatus.TIMED_OUT
    assert session.state.abort_phase == Phase.PLANNING
    result = await session.resume()
    assert result.status == RunStatus.COMPLETED
    with SessionStore(path) as store:
        assert store.load("old").schema_version == SCHEMA_VERSION


def test_sessions_in_threads_share_one_store(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "s.db")
    questions = [QUESTION, "What was the Protestant Reformation?", "How did literacy change?"]
    sessions = [
        dr.Session(q, llm="offline", search=StaticSearch(DOCS), store=store) for q in questions
    ]
    results: list[dr.RunResult] = []
    threads = [threading.Thread(target=lambda s=s: results.append(s.run_sync())) for s in sessions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status for r in results] == [RunStatus.COMPLETED] * 3
    assert integrity(store.path) == "ok"
    for s in sessions:
        saved = store.load(s.id)
        assert saved.status == RunStatus.COMPLETED and saved.report == s.report
        assert {e.kind for e in store.events(s.id)} >= {"phase_started", "checkpoint"}


# -- Ctrl-C in the command line ------------------------------------------------------------
CLI_HANGING_SEARCH = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path

    import deepresearch.session
    from deepresearch.cli.main import main

    flag = Path(sys.argv[1])
    real_build_search = deepresearch.session.build_search


    class Hang:
        # The configured search, except that every search hangs until Ctrl-C.
        def __init__(self, inner):
            self.name = inner.name

        async def search(self, query, *, max_results):
            flag.touch()
            await asyncio.sleep(600)

        async def extract(self, urls):
            return []


    deepresearch.session.build_search = lambda cfg: Hang(real_build_search(cfg))
    sys.exit(main(sys.argv[2:]))
    """
)


def test_ctrl_c_in_cli_saves_and_resume_finishes(tmp_path: Path) -> None:
    corpus, store_path, flag = tmp_path / "corpus", tmp_path / "s.db", tmp_path / "searching"
    corpus.mkdir()
    for doc in DOCS:
        slug = doc["url"].rsplit("/", 1)[-1]
        (corpus / f"{slug}.md").write_text(f"# {doc['title']}\n\n{doc['content']}\n")
    options = ["--llm", "offline", "--corpus", str(corpus), "--store", str(store_path)]
    script = tmp_path / "hanging_cli.py"
    script.write_text(CLI_HANGING_SEARCH, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(flag), QUESTION, "--quiet", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(tmp_path),
    )
    deadline = time.monotonic() + 120  # a hang guard, not a speed assertion
    while not flag.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    with SessionStore(store_path) as store:
        [summary] = store.list()
        saved = store.load(summary.id)
    # Planning's scout search starts with the run (deepresearch.prefetch), so the hanging
    # search may be reached while the clarifier or the brief still runs: any early phase.
    assert saved.status == RunStatus.CANCELLED
    assert saved.abort_phase in {Phase.CLARIFICATION, Phase.BRIEF, Phase.PLANNING}
    assert f"Resume with: deepresearch resume {saved.id}" in err

    cli = [sys.executable, "-m", "deepresearch.cli.main"]
    env = child_env(tmp_path)
    done = subprocess.run(
        [*cli, "resume", saved.id, "--quiet", *options], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "## Sources" in done.stdout
    shown = subprocess.run(
        [*cli, "show", saved.id, "--store", str(store_path)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert shown.returncode == 0, shown.stderr
    timeline_lines = shown.stdout.splitlines()
    assert "status completed" in timeline_lines[1]
    cancelled = next(i for i, line in enumerate(timeline_lines) if "■ cancelled" in line)
    at = f"↻ resumed at {saved.abort_phase.value}"
    resumed = next(i for i, line in enumerate(timeline_lines) if at in line)
    assert cancelled < resumed


async def test_a_run_is_saved_as_running_before_its_first_phase_ends(tmp_path: Path) -> None:
    import deepresearch as dr
    from deepresearch.store import SessionStore
    from deepresearch.testing import FunctionLLM

    seen: list[str] = []
    store_path = tmp_path / "s.db"

    def check(request: object) -> None:
        if not seen:  # the first model call, inside the first phase
            loaded = SessionStore(store_path).load(session.id)
            seen.append(loaded.status.value)

    session = dr.Session(
        "How did the printing press change Europe?",
        config=dr.Config(max_iterations=1),
        llm=FunctionLLM(check=check),
        store=store_path,
    )
    await session.run()
    assert seen == ["running"]
