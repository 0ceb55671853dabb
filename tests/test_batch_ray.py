"""research_many(backend="ray") on a local Ray: the same guarantees as in-process, plus a
worker killed mid-run being retried by Ray and resuming from its checkpoint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import deepresearch as dr
from deepresearch.state import Phase
from deepresearch.store import SessionStore
from deepresearch.testing import StaticSearch
from deepresearch.testing.faults import CrashOnce, FailingHook

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.ray

ROOT = Path(__file__).resolve().parent.parent
SUBJECTS = [
    "Europe", "literacy", "the Reformation", "universities", "merchants", "Mainz",
    "Martin Luther", "books", "pamphlets", "the Bible", "science", "artisans",
    "textbooks", "Gutenberg", "movable type", "printing presses", "authors", "reading",
    "Western Europe", "volumes",
]  # fmt: skip
QUESTIONS = [f"How did the printing press change {s}?" for s in SUBJECTS]
FAILING, CRASHING = "pamphlets", "Mainz"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # Workers import this checkout's package (an installed one may be another version).
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}},
    )
    yield
    ray.shutdown()


def ray_kwargs(docs: list[dict[str, str]], tmp: Path, **kw: Any) -> dict[str, Any]:
    return {
        "backend": "ray", "llm": "offline", "search": StaticSearch(docs), "progress": False,
        "store": tmp / "driver.db", "concurrency": 4,
        "ray_options": {"checkpoint_dir": str(tmp / "worker"), "max_retries": 2},
        **kw,
    }  # fmt: skip


def test_ray_batch_failure_retry_and_rerun(
    local_ray: None, docs: list[dict[str, str]], tmp_path: Path
) -> None:
    hooks = [FailingHook(FAILING), CrashOnce(tmp_path / "markers", CRASHING, Phase.GATHERING)]
    first = dr.research_many_sync(QUESTIONS, hooks=hooks, **ray_kwargs(docs, tmp_path))
    frame = first.frame
    assert len(frame) == 20 and list(frame.question) == QUESTIONS
    assert first.counts == {"completed": 19, "failed": 1}
    failed = frame.iloc[SUBJECTS.index(FAILING)]
    assert failed.status == "failed" and "injected failure" in failed.error
    done = frame[frame.status == "completed"]
    assert (done.sources_cited > 0).all() and (done.findings > 0).all()

    # the worker that died (os._exit) was retried by Ray and resumed after its checkpoint
    crashed = frame.iloc[SUBJECTS.index(CRASHING)]
    assert (tmp_path / "markers" / f"crashed-{crashed.session_id}").exists()
    assert crashed.status == "completed" and crashed.attempts == 2
    assert crashed.resumed_from in {p.value for p in Phase} - {"clarification", "brief"}
    assert (frame.drop(index=SUBJECTS.index(CRASHING)).attempts == 1).all()

    # the driver wrote every final state to its store
    with SessionStore(tmp_path / "driver.db") as store:
        assert {s.id for s in store.list()} == set(frame.session_id)
        state = store.load(crashed.session_id)
        assert state.report is not None
        assert [m.phase for m in state.metrics].count(Phase.BRIEF) == 1
    assert first.session(0).report is not None

    # a re-run reuses the 19 completed sessions and tries the failed one again
    second = dr.research_many_sync(QUESTIONS, hooks=hooks, **ray_kwargs(docs, tmp_path))
    assert second.frame.reused.sum() == 19
    again = second.frame.iloc[SUBJECTS.index(FAILING)]
    assert not again.reused and again.status == "failed" and again.resumed_from == "planning"
    assert list(second.frame.session_id) == list(frame.session_id)


def test_ray_budget_is_one_actor_for_all_workers(
    local_ray: None, docs: list[dict[str, str]], tmp_path: Path
) -> None:
    solo = dr.research_many_sync(QUESTIONS[:1], **ray_kwargs(docs, tmp_path / "solo"))
    per_question = int(solo.frame.tokens.iloc[0])
    result = dr.research_many_sync(
        QUESTIONS[:4],
        limits={"offline": {"max_tokens": int(per_question * 1.5)}},
        **ray_kwargs(docs, tmp_path, concurrency=1),
    )
    assert list(result.frame.status)[2:] == ["skipped", "skipped"]
    assert result.spent["offline"]["tokens"] >= per_question * 1.5
