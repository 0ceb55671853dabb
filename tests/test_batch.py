"""research_many in one process: bounded, shared limits, failures isolated, idempotent."""

from __future__ import annotations

import codecs
import contextlib
import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest

import deepresearch as dr
from deepresearch.batch import ProviderLimit, read_questions
from deepresearch.cli.main import main
from deepresearch.session import Session
from deepresearch.state import Phase
from deepresearch.store import SessionStore
from deepresearch.testing import StaticSearch
from deepresearch.testing.faults import FailingHook

SUBJECTS = [
    "Europe", "literacy", "the Reformation", "universities", "merchants", "Mainz",
    "Martin Luther", "books", "pamphlets", "the Bible", "science", "artisans",
    "textbooks", "Gutenberg", "movable type", "printing presses", "authors", "reading",
    "Western Europe", "volumes",
]  # fmt: skip
QUESTIONS = [f"How did the printing press change {s}?" for s in SUBJECTS]
FAILING = "pamphlets"  # FailingHook fails the question about pamphlets


def batch_kwargs(docs: list[dict[str, str]], store: Path, **kw: Any) -> dict[str, Any]:
    return {"llm": "offline", "search": StaticSearch(docs), "store": store, "progress": False, **kw}


async def test_batch_runs_every_question_and_isolates_a_failure(
    docs: list[dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_flight, peak = 0, 0
    real_run = Session.run

    async def counting_run(self: Session) -> dr.RunResult:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            return await real_run(self)
        finally:
            in_flight -= 1

    monkeypatch.setattr(Session, "run", counting_run)
    store = tmp_path / "s.db"
    result = await dr.research_many(
        QUESTIONS, concurrency=4, hooks=[FailingHook(FAILING)], **batch_kwargs(docs, store)
    )
    frame = result.frame
    assert len(frame) == 20 and list(frame.question) == QUESTIONS
    assert 1 < peak <= 4
    failed = frame[frame.status != "completed"]
    assert list(failed.question) == [QUESTIONS[SUBJECTS.index(FAILING)]]
    assert failed.status.iloc[0] == "failed" and "injected failure" in failed.error.iloc[0]
    done = frame[frame.status == "completed"]
    assert len(done) == 19 and not result.ok
    assert (done.sources_cited > 0).all() and (done.findings > 0).all() and (done.tokens > 0).all()
    assert done.error.isna().all()
    # every session persisted, ids fixed by question + config
    with SessionStore(store) as s:
        assert {x.id for x in s.list()} == set(frame.session_id)
    session = result.session(3)
    assert session.question == QUESTIONS[3] and session.report is not None
    assert session.id == frame.session_id.iloc[3]
    assert "completed=19" in repr(result) and "failed=1" in repr(result)


async def test_rerun_skips_completed_and_resumes_interrupted(
    docs: list[dict[str, str]], tmp_path: Path
) -> None:
    store = tmp_path / "s.db"
    hook = FailingHook(FAILING, Phase.PLANNING, marker_dir=tmp_path / "markers")  # fails once
    first = await dr.research_many(
        QUESTIONS, concurrency=4, hooks=[hook], **batch_kwargs(docs, store)
    )
    assert first.counts == {"completed": 19, "failed": 1}
    search = StaticSearch(docs)
    second = await dr.research_many(
        QUESTIONS, concurrency=4, hooks=[hook], **batch_kwargs(docs, store, search=search)
    )
    assert second.ok
    frame = second.frame
    index = SUBJECTS.index(FAILING)
    assert frame.reused.sum() == 19 and not frame.reused.iloc[index]
    assert frame.resumed_from.iloc[index] == "planning"
    assert list(frame.session_id) == list(first.frame.session_id)
    # only the resumed session searched (one whole run searches about as much; 20 would
    # search 20 times as much), and it did not start over: the brief ran once
    single = StaticSearch(docs)
    await dr.Session(QUESTIONS[index], llm="offline", search=single, persist=False).run()
    assert 0 < len(search.queries) <= 2 * len(single.queries)
    resumed = second.session(index)
    assert [m.phase for m in resumed.state.metrics].count(Phase.BRIEF) == 1
    with SessionStore(store) as s:
        assert len(s.list()) == 20


async def test_a_changed_config_is_a_different_batch(
    docs: list[dict[str, str]], tmp_path: Path
) -> None:
    store = tmp_path / "s.db"
    one = await dr.research_many(QUESTIONS[:2], **batch_kwargs(docs, store))
    two = await dr.research_many(QUESTIONS[:2], max_iterations=1, **batch_kwargs(docs, store))
    assert not two.frame.reused.any()
    assert set(one.frame.session_id).isdisjoint(two.frame.session_id)


async def test_bad_and_repeated_questions_do_not_stop_the_batch(
    docs: list[dict[str, str]], tmp_path: Path
) -> None:
    questions = [QUESTIONS[0], "   ", QUESTIONS[1], " How did the printing  press change Europe?"]
    result = await dr.research_many(questions, **batch_kwargs(docs, tmp_path / "s.db"))
    frame = result.frame
    assert list(frame.status) == ["completed", "invalid", "completed", "completed"]
    assert "empty" in frame.error.iloc[1]
    assert frame.session_id.iloc[0] == frame.session_id.iloc[3]  # one run per question
    with pytest.raises(dr.InputError):
        await dr.research_many([QUESTIONS[0], 42], **batch_kwargs(docs, tmp_path / "s.db"))  # type: ignore[list-item]


async def test_token_budget_is_shared_and_stops_new_sessions(
    docs: list[dict[str, str]], tmp_path: Path
) -> None:
    solo = await dr.research_many(QUESTIONS[:1], **batch_kwargs(docs, tmp_path / "solo.db"))
    per_question = int(solo.frame.tokens.iloc[0])
    budget = int(per_question * 1.5)
    result = await dr.research_many(
        QUESTIONS[:4],
        concurrency=1,
        limits={"offline": ProviderLimit(max_tokens=budget)},
        **batch_kwargs(docs, tmp_path / "s.db"),
    )
    statuses = list(result.frame.status)
    assert statuses[0] == "completed" and statuses[2:] == ["skipped", "skipped"]
    assert all("token budget" in e for e in result.frame.error.iloc[2:])
    spent = result.spent["offline"]
    assert budget <= spent["tokens"] < 2 * per_question and spent["refused"] > 0


async def test_limits_see_every_request(docs: list[dict[str, str]], tmp_path: Path) -> None:
    search = StaticSearch(docs)
    result = await dr.research_many(
        QUESTIONS[:3],
        limits={"test": {"requests_per_minute": 100_000}},
        **batch_kwargs(docs, tmp_path / "s.db", search=search),
    )
    assert result.spent["test"]["requests"] == search.calls["search"] + search.calls["extract"]


def test_sync_twin_without_store(docs: list[dict[str, str]]) -> None:
    result = dr.research_many_sync(
        QUESTIONS[:2], llm="offline", search=StaticSearch(docs), persist=False, progress=False
    )
    assert result.ok and result.store is None
    assert result.session(1).report is not None


def test_progress_reports_each_question(docs: list[dict[str, str]], tmp_path: Path) -> None:
    lines: list[str] = []
    dr.research_many_sync(
        QUESTIONS[:3], **batch_kwargs(docs, tmp_path / "s.db", progress=lines.append)
    )
    assert [line.split(" ")[1] for line in lines[:3]] == ["1/3", "2/3", "3/3"]
    assert lines[-1].startswith("batch of 3: 3 completed")


def test_read_questions_formats(tmp_path: Path) -> None:
    txt = tmp_path / "q.txt"
    txt.write_text("# a comment\nFirst question?\n\nSecond question?\n")
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text(json.dumps({"question": "First?", "id": 1}) + "\n\n" + '"Second?"\n')
    csv = tmp_path / "q.csv"
    csv.write_text('id,question\n1,"First, with a comma?"\n2,Second?\n')
    assert read_questions(txt) == ["First question?", "Second question?"]
    assert read_questions(jsonl) == ["First?", "Second?"]
    assert read_questions(csv) == ["First, with a comma?", "Second?"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"q": "x"}\n')
    with pytest.raises(dr.InputError, match="question"):
        read_questions(bad)


QUESTIONS_FILES = {
    ".txt": "Qu'est-ce qu'une crème brûlée ?\nSecond?\n",
    ".csv": "question,id\nQu'est-ce qu'une crème brûlée ?,1\nSecond?,2\n",
    ".jsonl": '{"question": "Qu\'est-ce qu\'une crème brûlée ?"}\n"Second?"\n',
}
BOMS = {"utf-8-bom": (codecs.BOM_UTF8, "utf-8"), "utf-16-le": (codecs.BOM_UTF16_LE, "utf-16-le"),
        "utf-16-be": (codecs.BOM_UTF16_BE, "utf-16-be")}  # fmt: skip


@pytest.mark.parametrize("bom", BOMS.values(), ids=BOMS.keys())
@pytest.mark.parametrize("suffix", QUESTIONS_FILES)
def test_a_questions_file_saved_with_a_byte_order_mark_is_read(
    tmp_path: Path, suffix: str, bom: tuple[bytes, str]
) -> None:
    # Excel's "CSV UTF-8" and Notepad write a byte-order mark: it is not part of the text
    # (else the CSV's "question" header is not found and is itself read as a question).
    mark, codec = bom
    path = tmp_path / f"q{suffix}"
    path.write_bytes(mark + QUESTIONS_FILES[suffix].encode(codec))
    assert read_questions(path) == ["Qu'est-ce qu'une crème brûlée ?", "Second?"]


def test_a_questions_file_in_a_legacy_encoding_is_an_error_saying_where_and_what_to_do(
    tmp_path: Path,
) -> None:
    # Excel's plain "CSV" is saved in the Windows code page (Windows-1252 in Western Europe)
    path = tmp_path / "q.csv"
    french = "Le café servait une crème brûlée ; « naïve » façade, 5 € la part ?"
    path.write_bytes(f"question\n{french}\n".encode("cp1252"))
    with pytest.raises(dr.InputError) as caught:
        read_questions(path)
    message = str(caught.value)
    assert str(path) in message and "not UTF-8" in message and "line 2" in message
    assert "cp1252" in message  # what it looks like it was saved in
    assert "re-save it as UTF-8" in message


def test_cli_batch(
    docs: list[dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i, d in enumerate(docs):
        (corpus / f"doc{i}.md").write_text(f"# {d['title']}\n\n{d['content']}\n")
    questions = tmp_path / "q.txt"
    questions.write_text("\n".join([*QUESTIONS[:3], ""]))
    out = tmp_path / "results.jsonl"
    args = ["batch", str(questions), "--concurrency", "2", "--out", str(out), "--llm", "offline",
            "--corpus", str(corpus), "--store", str(tmp_path / "s.db"), "--quiet"]  # fmt: skip
    code = main(args)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 0, rows
    assert [r["status"] for r in rows] == ["completed"] * 3
    assert all(r["sources_cited"] > 0 for r in rows)
    assert main(args) == 0  # the re-run reuses every session
    assert all(json.loads(line)["reused"] for line in out.read_text().splitlines())
    questions.write_text(QUESTIONS[0] + "\n" + "x" * 5000 + "\n")
    assert main(args) == 1  # one question could not run: not a success
    assert "1 invalid" in capsys.readouterr().err


async def test_shared_pace_applies_to_every_attempt_including_retries() -> None:
    from deepresearch.providers.resilience import ProviderGate, RetryPolicy, call_with_retries
    from deepresearch.providers.shared_limits import paced

    paces: list[str] = []
    backoffs: list[tuple[str, float]] = []
    attempts = 0

    class Counting:
        async def acquire(self, provider: str) -> None:
            raise AssertionError("not called by the gate")

        async def pace(self, provider: str) -> None:
            paces.append(provider)

        async def charge(self, provider: str, model: str, i: int, o: int) -> None:
            return None

        async def backoff(self, provider: str, seconds: float) -> None:
            backoffs.append((provider, seconds))

    async def flaky() -> str:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise dr.RateLimitError("slow down", provider="openai", retry_after=0)
        return "ok"

    async def no_sleep(seconds: float) -> None:
        return None

    policy = RetryPolicy(max_retries=2, sleep=no_sleep)
    with paced(Counting(), "openai:gpt-4.1-mini"):
        assert await call_with_retries(flaky, policy=policy, gate=ProviderGate(4, None)) == "ok"
    assert paces == ["openai:gpt-4.1-mini"] * 2
    assert backoffs == [("openai:gpt-4.1-mini", 0.0)]  # the 429 told the batch its Retry-After
    assert await call_with_retries(flaky, policy=policy, gate=ProviderGate(4, None)) == "ok"
    assert len(paces) == 2  # outside the block nothing is paced


async def test_pacer_spaces_actual_starts_and_honours_a_retry_after() -> None:
    from deepresearch.providers.shared_limits import ProviderLimit, SharedLimits

    limits = SharedLimits({"openai": ProviderLimit(requests_per_minute=1200)})  # 50 ms apart
    starts = []
    for _ in range(4):
        await limits.pace("openai:gpt-4.1-mini")
        starts.append(time.monotonic())
    assert all(b - a >= 0.05 for a, b in itertools.pairwise(starts))
    await limits.backoff("openai:gpt-4.1", 0.3)
    held = time.monotonic()
    await limits.pace("openai:gpt-4.1-mini")
    assert time.monotonic() - held >= 0.3  # every model of the vendor waits for the 429's hold
    assert limits.snapshot()["openai"].rate_limited == 1
    await limits.backoff("tavily", 5.0)  # no limit declared: counted, nothing to hold
    assert limits.snapshot()["tavily"].rate_limited == 1
    assert limits._pacer("tavily") is None


async def test_remote_clients_wait_for_the_pace_just_before_writing_each_request() -> None:
    import httpx
    import openai

    from deepresearch.providers.credentials import Secret, openai_client
    from deepresearch.providers.resilience import pace_on_the_wire
    from deepresearch.providers.shared_limits import paced
    from deepresearch.testing.vendor_servers.openai_chat import OpenAIServer

    paces: list[str] = []

    class Counting:
        async def acquire(self, provider: str) -> None: ...

        async def pace(self, provider: str) -> None:
            paces.append(provider)

        async def charge(self, provider: str, model: str, i: int, o: int) -> None: ...

        async def backoff(self, provider: str, seconds: float) -> None: ...

    with OpenAIServer() as server:
        async with httpx.AsyncClient(event_hooks={"request": [pace_on_the_wire]}) as http:
            with paced(Counting(), "openai"):
                await http.post(f"{server.url}/v1/chat/completions", json={})
                await http.post(f"{server.url}/v1/chat/completions", json={})
            await http.post(f"{server.url}/v1/chat/completions", json={})  # not paced outside
        assert paces == ["openai", "openai"]
        client = openai_client(Secret("sk-test-not-a-key"), server.base_url)
        with paced(Counting(), "openai:gpt-4.1-mini"), contextlib.suppress(openai.APIError):
            await client.models.list()  # the server has no such route: any answer will do
        assert paces[2:] == ["openai:gpt-4.1-mini"]  # the vendor SDK's client carries the hook
