"""Phase time limits (``phase_timeouts_s``) hold for phases the offline engine computes
synchronously on the event loop, as they do for a model's phase: the run ends timed_out,
with the same CLI exit code, and keeps everything the phases before gathered."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch import deadlines
from deepresearch.cli.main import main
from deepresearch.state import Phase, RunStatus
from deepresearch.store import SessionStore
from deepresearch.testing import StaticSearch
from deepresearch.testing.vendor_servers import (
    OpenAIServer,
    RecordedRequest,
    Reply,
    output_name,
)
from tests.conftest import DOCS, QUESTION

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

# Phases whose offline calls never yield to the event loop: a limit on them was ignored.
SYNCHRONOUS = ["clarification", "brief", "supervision", "verification"]
TINY = 1e-6  # passed before the phase's first call can start


def config(store: Path, **knobs: object) -> dr.Config:
    return dr.Config.build(
        {"max_iterations": 1, "enable_clarification": True, "store_path": str(store), **knobs}
    )


@pytest.mark.parametrize("phase", SYNCHRONOUS)
async def test_an_offline_phase_past_its_limit_times_out_and_keeps_what_was_gathered(
    tmp_path: Path, phase: str
) -> None:
    whole = dr.Session(
        QUESTION, llm="offline", search=StaticSearch(DOCS), config=config(tmp_path / "a.db")
    )
    await whole.run()
    path = tmp_path / "s.db"
    session = dr.Session(
        QUESTION,
        llm="offline",
        search=StaticSearch(DOCS),
        config=config(path, phase_timeouts_s={phase: TINY}),
    )
    result = await session.run()
    assert result.status == RunStatus.TIMED_OUT and not result.ok
    assert result.error == f"Timed out during {phase}."
    saved = SessionStore(path).load(session.id)
    assert saved.status == RunStatus.TIMED_OUT and saved.phase == Phase(phase)
    # What the earlier phases gathered is saved as they left it (all of it, before
    # verification: the same sources, findings and report as the run without a limit).
    assert [s.url for s in saved.sources] == [s.url for s in session.state.sources]
    assert [f.content for f in saved.findings] == [f.content for f in session.state.findings]
    if phase == "verification":
        assert [s.url for s in saved.sources] == [s.url for s in whole.state.sources]
        assert saved.report is not None and whole.report is not None
        assert saved.findings
        assert [f.content for f in saved.findings] == [f.content for f in whole.state.findings]
    # Resumed without the limit, the run ends as the one that never stopped (results are
    # unchanged by the limit's checks).
    resumed = dr.Session.load(
        session.id, store=path, search=StaticSearch(DOCS), config=config(path)
    )
    again = await resumed.resume()
    assert again.status == whole.state.status
    assert resumed.report is not None and whole.report is not None
    assert resumed.report.markdown == whole.report.markdown


@pytest.mark.parametrize("llm", ["offline", "openai"])
def test_a_timed_out_phase_ends_the_cli_alike_for_the_offline_engine_and_a_model(
    tmp_path: Path,
    llm: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    corpus = tmp_path / "notes"
    corpus.mkdir()
    for n, doc in enumerate(DOCS):
        (corpus / f"{n}.md").write_text(f"# {doc['title']}\n\n{doc['content']}\n")
    limit = {"verification": 0.5 if llm == "openai" else TINY}
    argv = [QUESTION, "--corpus", str(corpus), "--store", str(tmp_path / "s.db"), "--quiet",
            "--set", f"phase_timeouts_s={json.dumps(limit)}"]  # fmt: skip
    if llm == "openai":
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

        def slow_verifier(request: RecordedRequest) -> Reply:
            reply = server.default_reply(request)
            if output_name(request.json) == "VerifyOutput":
                reply.delay_s = 3.0  # past the 0.5 s limit: the client gives up on it
            return reply

        with OpenAIServer(slow_verifier) as server:
            code = main([*argv, "--llm", "openai:gpt-4.1-mini",
                         "--set", f"openai_base_url={server.base_url}"])  # fmt: skip
    else:
        code = main([*argv, "--llm", "offline"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Research timed_out: Timed out during verification." in err
    assert "Resume with: deepresearch resume " in err


async def test_check_does_not_yield_before_the_limit_or_outside_a_phase() -> None:
    order: list[str] = []

    async def other() -> None:
        order.append("other")

    async def work() -> None:
        task = asyncio.create_task(other())
        await deadlines.check()  # must not give the other task a turn
        order.append("checked")
        await task

    await work()  # outside a phase
    await deadlines.limited(work(), 60)  # within a phase, before its limit
    assert order == ["checked", "other"] * 2


async def test_a_limit_ends_a_phase_at_the_next_check_in_a_task_it_awaits() -> None:
    reached: list[int] = []

    async def unit(n: int) -> None:
        # synchronous work past the limit, then the check that ends the phase
        deadline = asyncio.get_running_loop().time() + 0.05
        while asyncio.get_running_loop().time() < deadline:
            pass
        await deadlines.check()
        reached.append(n)

    async def phase() -> None:
        await asyncio.gather(unit(1), unit(2))

    with pytest.raises(TimeoutError):
        await deadlines.limited(phase(), 0.01)
    assert reached == []
