"""A run that did not really research says so: whole sessions through the real vendor
clients against loopback servers that refuse the key, do not know the model, cannot be
reached, or fail one role — status, error, decisions, report and CLI exit code agree."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.cli.main import EXIT_WARNINGS, main
from deepresearch.state import Outcome, RunStatus
from deepresearch.testing import StaticSearch
from deepresearch.testing.vendor_servers import (
    AnthropicServer,
    OpenAIServer,
    RecordedRequest,
    Reply,
    anthropic_error,
    openai_error,
    output_name,
)
from deepresearch.workflow.outcomes import WARNINGS_HEADING

from .test_sessions_over_vendors import DOCUMENTS, QUESTION, config

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")


def refusing(status: int) -> OpenAIServer:
    """A server that refuses every call with the vendor's own error body."""
    body = openai_error(status, "Incorrect API key provided: sk-wrong.", code="invalid_api_key")
    return OpenAIServer(lambda request: body)


def closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


async def test_a_refused_key_ends_the_run_at_once(tmp_path: Path) -> None:
    with refusing(401) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
        calls = len(server.requests)
    assert result.status == RunStatus.FAILED and session.report is None
    assert result.error is not None and "\n" not in result.error
    assert "openai:gpt-4.1-mini" in result.error and "OPENAI_API_KEY" in result.error
    # not retried, and no later role tries again (the brief, started beside the clarifier
    # by the loop, may have been sent before the refusal came back)
    assert calls <= 2
    assert session.state.metrics[-1].outcome == Outcome.FAILED


async def test_anthropic_forbidden_ends_the_run(tmp_path: Path) -> None:
    body = anthropic_error(403, "permission_error", "Your API key does not have permission.")
    with AnthropicServer(lambda request: body) as server:
        cfg = config(tmp_path, anthropic_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="anthropic:claude-sonnet-4-5", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
    assert result.status == RunStatus.FAILED
    assert result.error is not None and "ANTHROPIC_API_KEY" in result.error


async def test_an_unknown_model_names_the_setting(tmp_path: Path) -> None:
    body = openai_error(404, "The model `gpt-9` does not exist.", code="model_not_found")
    with OpenAIServer(lambda request: body) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:gpt-9", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
    assert result.status == RunStatus.FAILED
    assert result.error is not None and "Config.llm" in result.error and "gpt-9" in result.error


async def test_an_unreachable_server_names_the_base_url_setting(tmp_path: Path) -> None:
    cfg = config(tmp_path, openai_base_url=closed_port(), max_retries=1)
    session = dr.Session(
        QUESTION, llm="openai:llama3.1", search=StaticSearch(DOCUMENTS), config=cfg
    )
    result = await session.run()
    assert result.status == RunStatus.FAILED and session.report is None
    assert result.error is not None
    assert "Config.openai_base_url" in result.error
    assert "DEEPRESEARCH_OPENAI_BASE_URL" in result.error


async def test_a_configured_fallback_is_announced_recorded_and_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with refusing(401) as server:
        cfg = config(
            tmp_path,
            openai_base_url=server.base_url,
            llm="offline",
            role_models={"report": "openai:gpt-4.1-mini"},
        )
        session = dr.Session(QUESTION, search=StaticSearch(DOCUMENTS), config=cfg)
        result = await session.run()
        calls = len(server.requests)
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS and not result.ok
    assert calls == 1  # the refused model is not asked again in this run
    assert "falling back to offline" in caplog.text
    fallbacks = [d for d in session.state.decisions if d.action == "model_fallback"]
    assert fallbacks and fallbacks[0].outputs == {"fallback": "offline"}
    report = session.report
    assert report is not None and report.warnings == result.warnings
    assert any("synthesis" in w and "openai:gpt-4.1-mini" in w for w in result.warnings)
    assert WARNINGS_HEADING in report.markdown
    assert report.markdown.index(WARNINGS_HEADING) < report.markdown.index("## Sources")
    frame = session.metrics
    assert set(frame["outcome"]) == {"ok", "degraded"}


async def test_a_role_whose_calls_are_lost_completes_with_warnings(tmp_path: Path) -> None:
    def answer_but_not_the_report(request: RecordedRequest) -> Reply:
        if output_name(request.json) == "ReportDraft":
            return openai_error(500, "The server had an error.", type="server_error")
        return server.default_reply(request)

    with OpenAIServer(answer_but_not_the_report) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url, max_retries=0)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    synthesis = [m for m in session.state.metrics if m.phase.value == "synthesis"]
    assert synthesis[-1].outcome == Outcome.DEGRADED and synthesis[-1].failed_calls == 1
    assert any("lost" in w for w in result.warnings)
    assert session.report is not None and WARNINGS_HEADING in session.report.markdown
    listed = {s.id: s.status for s in session.store.list()}  # type: ignore[union-attr]
    assert listed[session.id] == RunStatus.COMPLETED_WITH_WARNINGS


def test_the_cli_exits_non_zero_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    for n, doc in enumerate(DOCUMENTS):
        (corpus / f"doc{n}.md").write_text(f"# {doc['title']}\n\n{doc['content']}\n")
    monkeypatch.setenv("DEEPRESEARCH_RETRY_BASE_DELAY_S", "0")
    base = ["--corpus", str(corpus), "--store", str(tmp_path / "s.db"), "--max-iterations", "1"]
    with refusing(401) as server:
        monkeypatch.setenv("DEEPRESEARCH_OPENAI_BASE_URL", server.base_url)
        code = main([QUESTION, "--llm", "openai:gpt-4.1-mini", *base])
    err = capsys.readouterr().err
    assert code == 1 and "OPENAI_API_KEY" in err

    with refusing(401) as server:
        monkeypatch.setenv("DEEPRESEARCH_OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("DEEPRESEARCH_ROLE_MODELS", '{"report": "openai:gpt-4.1-mini"}')
        code = main([QUESTION, "--llm", "offline", *base])
    out, err = capsys.readouterr()
    assert code == EXIT_WARNINGS
    assert "completed with warnings" in err and "synthesis" in err
    assert WARNINGS_HEADING in out


# Far from how long a loopback answer takes (milliseconds), so that a loaded machine does
# not change the outcome: each attempt may take half of it by default.
WHOLE_CALL_S = 8.0


async def test_a_slow_attempt_is_retried_within_the_whole_call_limit(tmp_path: Path) -> None:
    # The first attempt of the first call gets no answer until the run is over: only an
    # attempt timeout shorter than the whole call (default: half of it) leaves room to retry.
    release = threading.Event()
    first: list[dict[str, object]] = []
    lock = threading.Lock()

    def first_attempt_unanswered(request: RecordedRequest) -> Reply:
        with lock:
            held = not first
            if held:
                first.append(request.json)
        if held:
            release.wait(timeout=10 * WHOLE_CALL_S)  # the client gives up long before
        return server.default_reply(request)

    with OpenAIServer(first_attempt_unanswered) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url, operation_timeout_s=WHOLE_CALL_S)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        try:
            result = await session.run()
        finally:
            release.set()
        sent = [r.json for r in server.requests]
    assert result.status == RunStatus.COMPLETED, result.warnings
    assert sent.count(first[0]) == 2  # the attempt left unanswered, then its retry
