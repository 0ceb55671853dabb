"""Leases: one live runner per session. A second concurrent resume is refused clearly; a
session whose runner was killed shows as ``interrupted`` (in Python and in the store's
list), and resuming it completes and clears the old error."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.errors import SessionBusyError
from deepresearch.providers.base import SearchHit
from deepresearch.state import ResearchState, RunStatus
from deepresearch.store import SessionStore
from deepresearch.testing import StaticSearch

ROOT = Path(dr.__file__).resolve().parent.parent
QUESTION = "How did the printing press change Europe?"
DOCS = [
    {
        "url": f"https://example.org/press/{i}",
        "title": f"Printing press and Europe {i}",
        "content": f"The printing press changed Europe: books got cheaper in way {i}.",
    }
    for i in range(6)
]


class HangAfterFirstTopic(StaticSearch):
    """Fast until one sub-query is finished, then every search hangs."""

    def __init__(self) -> None:
        super().__init__(DOCS)
        self.state: ResearchState | None = None
        self.hanging = asyncio.Event()

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        if self.state is not None and self.state.completed_sub_queries():
            self.hanging.set()
            await asyncio.sleep(300)
        return await super().search(query, max_results=max_results)


def hanging_session(store: SessionStore) -> tuple[dr.Session, HangAfterFirstTopic]:
    search = HangAfterFirstTopic()
    cfg = dr.Config(llm="offline", max_iterations=1, max_concurrent_research_units=1)
    session = dr.Session(QUESTION, search=search, store=store, config=cfg)
    search.state = session.state
    return session, search


async def test_a_second_concurrent_resume_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SessionStore(path)
    first, search = hanging_session(store)
    task = first.start()
    await asyncio.wait_for(search.hanging.wait(), timeout=60)
    events_before = len(store.events(first.id))

    second = dr.Session.load(first.id, store=path, search=StaticSearch(DOCS), config=first.config)
    assert second.status == RunStatus.RUNNING  # its runner is alive: not interrupted
    with pytest.raises(SessionBusyError, match=f"process {os.getpid()}"):
        await second.resume()
    assert len(store.events(first.id)) == events_before  # the refused resume wrote nothing

    first.cancel()
    await task
    assert (await second.resume()).status == RunStatus.COMPLETED  # free again once it ended


CHILD = textwrap.dedent(
    """
    import asyncio, sys
    import deepresearch as dr
    from deepresearch.testing import StaticSearch

    class Hang(StaticSearch):
        state = None
        async def search(self, query, *, max_results):
            if self.state is not None and self.state.completed_sub_queries():
                print("HANGING", self.state.id, flush=True)
                await asyncio.sleep(300)
            return await super().search(query, max_results=max_results)

    async def main():
        docs = [{"url": "https://example.org/%d" % i, "title": "Printing press %d" % i,
                 "content": "The printing press changed Europe in way %d." % i} for i in range(6)]
        search = Hang(docs)
        config = dr.Config(llm="offline", max_iterations=1, max_concurrent_research_units=1)
        session = dr.Session("How did the printing press change Europe?", search=search,
                             store=sys.argv[1], config=config)
        search.state = session.state
        await session.run()

    asyncio.run(main())
    """
)


def test_a_killed_runner_shows_interrupted_and_resumes_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    (tmp_path / "child.py").write_text(CHILD, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DEEPRESEARCH_HOME": str(tmp_path / "home")}
    child = subprocess.Popen(
        [sys.executable, str(tmp_path / "child.py"), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # blocks until the child hangs mid-gathering
        assert line.startswith("HANGING"), child.stderr.read() if child.stderr else ""
        session_id = line.split()[1]
        with SessionStore(path) as store:
            time.sleep(0.2)  # let the child's checkpoint of that sub-query commit
            assert store.load(session_id).status == RunStatus.RUNNING  # alive: running
    finally:
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=30)

    with SessionStore(path) as store:
        listed = {s.id: s.status for s in store.list()}
    assert listed[session_id] == RunStatus.INTERRUPTED
    session = dr.Session.load(session_id, store=path, search=StaticSearch(DOCS))
    assert session.status == RunStatus.INTERRUPTED
    session.state.error = "Research was cancelled."  # an old error a resume must clear
    result = asyncio.run(session.resume())
    assert result.status == RunStatus.COMPLETED and result.error is None
    with SessionStore(path) as store:
        assert {s.id: s.status for s in store.list()}[session_id] == RunStatus.COMPLETED
