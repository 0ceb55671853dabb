"""More ways a model-backed run goes wrong, through the real vendor clients against loopback
servers that answer with the vendors' own error bodies: a search API that refuses every
search, a report writer that cites nothing, an account out of quota or credit, a server
whose context window is smaller than assumed. Each run's status, warnings, report and exit
code say what failed or stood in, and nothing gathered is lost."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import deepresearch as dr
from deepresearch.cli.main import EXIT_WARNINGS, main
from deepresearch.state import Outcome, RunStatus, SubQueryStatus
from deepresearch.testing import StaticSearch
from deepresearch.testing.vendor_servers import (
    AnthropicServer,
    OpenAIServer,
    RecordedRequest,
    Reply,
    TavilyServer,
    anthropic_error,
    openai_completion,
    openai_context_window_error,
    openai_error,
    output_name,
    role_answer,
    tavily_error,
)
from deepresearch.workflow.outcomes import WARNINGS_HEADING

from .test_sessions_over_vendors import DOCUMENTS, QUESTION, config

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

REFUSED = "Unauthorized: missing or invalid API key."


def outcome(session: dr.Session, phase: str) -> Outcome:
    return [m for m in session.state.metrics if m.phase.value == phase][-1].outcome


async def test_a_search_api_refusing_every_search_is_a_degraded_gathering(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-wrong")
    with OpenAIServer() as llm, TavilyServer(DOCUMENTS, lambda r: tavily_error(401, REFUSED)) as tv:
        cfg = config(
            tmp_path, openai_base_url=llm.base_url, tavily_base_url=tv.url, search=["tavily"]
        )
        session = dr.Session(QUESTION, llm="openai:gpt-4.1-mini", config=cfg)
        result = await session.run()
    assert session.state.sub_queries
    assert all(sq.status == SubQueryStatus.FAILED for sq in session.state.sub_queries)
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS and not result.ok
    assert outcome(session, "gathering") == Outcome.DEGRADED
    assert outcome(session, "planning") == Outcome.DEGRADED  # its scout search failed too
    (gathering,) = [w for w in result.warnings if w.startswith("gathering")]
    assert "TAVILY_API_KEY" in gathering and "search" in gathering
    assert session.report is not None and WARNINGS_HEADING in session.report.markdown


async def test_one_failed_search_among_several_is_on_the_record_and_the_rest_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-key")
    failed: list[str] = []

    def first_fails(request: RecordedRequest) -> Reply:
        # the planner's scout search asks the question itself; fail the first sub-query's
        query = str(request.json.get("query", ""))
        if not failed and request.path == "/search" and query != QUESTION:
            failed.append(query)
            return tavily_error(500, "Internal Server Error")
        return tv.default_reply(request)

    with OpenAIServer() as llm, TavilyServer(DOCUMENTS, first_fails) as tv:
        cfg = config(
            tmp_path,
            openai_base_url=llm.base_url,
            tavily_base_url=tv.url,
            search=["tavily"],
            max_retries=0,
            enable_clarification=False,
        )
        session = dr.Session(QUESTION, llm="openai:gpt-4.1-mini", config=cfg)
        result = await session.run()
    statuses = [sq.status for sq in session.state.sub_queries]
    assert SubQueryStatus.FAILED in statuses and SubQueryStatus.COMPLETED in statuses
    assert session.state.sources  # what the other searches found is kept
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert any("1 of" in w and "HTTP 500" in w for w in result.warnings), result.warnings


def test_the_cli_exits_3_when_searches_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-wrong")
    monkeypatch.setenv("DEEPRESEARCH_RETRY_BASE_DELAY_S", "0")
    with OpenAIServer() as llm, TavilyServer(DOCUMENTS, lambda r: tavily_error(401, REFUSED)) as tv:
        monkeypatch.setenv("DEEPRESEARCH_OPENAI_BASE_URL", llm.base_url)
        monkeypatch.setenv("DEEPRESEARCH_TAVILY_BASE_URL", tv.url)
        code = main(
            [QUESTION, "--llm", "openai:gpt-4.1-mini", "--search", "tavily",
             "--store", str(tmp_path / "s.db"), "--max-iterations", "1"]
        )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == EXIT_WARNINGS
    assert "completed with warnings" in err and "TAVILY_API_KEY" in err
    assert WARNINGS_HEADING in out


async def test_a_report_citing_no_source_gives_way_to_the_extractive_report(
    tmp_path: Path,
) -> None:
    prose = "The printing press was very important for Europe and changed many things."

    def uncited_report(request: RecordedRequest) -> Reply:
        if output_name(request.json) == "ReportDraft":
            return Reply(200, openai_completion(prose))
        return server.default_reply(request)

    with OpenAIServer(uncited_report) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
    report = session.report
    assert report is not None and session.state.findings
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert outcome(session, "synthesis") == Outcome.DEGRADED
    assert any("synthesis" in w and "cited none" in w for w in result.warnings)
    # the findings the run gathered are in the report, with their citations
    assert report.cited_source_ids and re.search(r"\[\d+\]", report.markdown)
    assert prose not in report.markdown
    decisions = [d.action for d in session.state.decisions]
    assert "synthesize_uncited" in decisions


async def test_an_openai_account_out_of_quota_ends_the_run_at_once(tmp_path: Path) -> None:
    quota = openai_error(
        429,
        "You exceeded your current quota, please check your plan and billing details.",
        type="insufficient_quota",
        code="insufficient_quota",
    )
    with OpenAIServer(lambda request: quota) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
        calls = len(server.requests)
    assert result.status == RunStatus.FAILED and session.report is None
    assert result.error is not None and "quota" in result.error
    assert "billing" in result.error and "openai:gpt-4.1-mini" in result.error
    assert calls <= 2  # not retried, and no later role asks again


async def test_an_anthropic_account_out_of_credit_ends_the_run_at_once(tmp_path: Path) -> None:
    credit = anthropic_error(
        400,
        "invalid_request_error",
        "Your credit balance is too low to access the Anthropic API. Please go to Plans & "
        "Billing to upgrade or purchase credits.",
    )
    with AnthropicServer(lambda request: credit) as server:
        cfg = config(tmp_path, anthropic_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="anthropic:claude-sonnet-4-5", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
        calls = len(server.requests)
    assert result.status == RunStatus.FAILED and session.report is None
    assert result.error is not None and "credit balance" in result.error
    assert calls <= 2


async def test_a_prompt_cut_after_a_context_window_error_is_a_warning(tmp_path: Path) -> None:
    refused = 0

    def report_too_long_once(request: RecordedRequest) -> Reply:
        nonlocal refused
        if output_name(request.json) == "ReportDraft" and not refused:
            refused += 1
            return openai_context_window_error(4096, 4311)
        return server.default_reply(request)

    with OpenAIServer(report_too_long_once) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:llama3.1:8b", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
    assert refused == 1 and session.report is not None
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert outcome(session, "synthesis") == Outcome.DEGRADED
    (warning,) = [w for w in result.warnings if w.startswith("synthesis")]
    assert "4,096" in warning and "model_context_overrides" in warning
    assert "llama3.1:8b" in warning


def analyzer_citing(cite: Callable[[list[str]], list[str]]) -> OpenAIServer:
    """A server whose analyzer names its findings' sources its own way."""

    def answer(name: str, prompt: str) -> dict[str, Any]:
        data = role_answer(name, prompt)
        if name == "AnalysisOutput":
            for finding in data.get("findings", []):
                finding["source_ids"] = cite(finding.get("source_ids", []))
        return data

    return OpenAIServer(answer=answer)


async def test_findings_citing_sources_by_url_are_kept(tmp_path: Path) -> None:
    urls = {f"src-{n}": d["url"] for n, d in enumerate(DOCUMENTS, 1)}
    with analyzer_citing(lambda ids: [urls.get(i, i) for i in ids]) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
    assert result.status == RunStatus.COMPLETED, result.warnings
    assert len(session.state.findings) == len(DOCUMENTS)
    by_url = {s.url: s.id for s in session.state.sources}
    assert {f.source_ids[0] for f in session.state.findings} == set(by_url.values())


async def test_findings_naming_no_gathered_source_are_on_the_record(tmp_path: Path) -> None:
    with analyzer_citing(lambda ids: ["Wikipedia"]) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert outcome(session, "analysis") == Outcome.DEGRADED
    (warning,) = [w for w in result.warnings if w.startswith("analysis")]
    assert "named no gathered source" in warning and "'Wikipedia'" in warning
    # the sources are not lost: their snippets stand in as low-confidence findings
    findings = session.state.findings
    assert findings and {f.confidence.value for f in findings} == {"low"}
    assert session.report is not None and session.report.cited_source_ids


def vllm(window: int) -> OpenAIServer:
    """vLLM's OpenAI server with ``--max-model-len window``: the prompt and the answer's
    reserve (``max_tokens``) share the window; a request past it is refused with vLLM's
    own error body (4 characters a token)."""

    def answer(request: RecordedRequest) -> Reply:
        body = request.json
        prompt = "\n\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        tokens = len(prompt) // 4 + 1
        reserve = int(body.get("max_tokens") or body.get("max_completion_tokens") or 0)
        if tokens + reserve > window:
            message = (
                f"This model's maximum context length is {window} tokens. However, you "
                f"requested {tokens + reserve} tokens ({tokens} in the messages, {reserve} in "
                "the completion). Please reduce the length of the messages or completion."
            )
            error = {"object": "error", "message": message, "type": "BadRequestError"}
            return Reply(400, {**error, "param": None, "code": 400})
        return server.default_reply(request)

    server = OpenAIServer(answer)
    return server


async def test_a_vllm_window_counting_the_answer_is_refitted_not_lost(tmp_path: Path) -> None:
    # The report writer asks for up to 8,000 tokens of answer: with an 8k window and no
    # model_context_overrides, no cut of the prompt alone could ever fit.
    with vllm(8192) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        session = dr.Session(
            QUESTION, llm="openai:qwen2.5-7b", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
        reports = [r.json for r in server.requests if output_name(r.json) == "ReportDraft"]
    assert session.report is not None
    actions = {d.action for d in session.state.decisions}
    assert "synthesize_failed" not in actions  # the model wrote the report
    assert [r["max_tokens"] for r in reports][:1] == [8000] and reports[-1]["max_tokens"] < 8000
    assert len(reports) == 2  # one refusal, then the refitted request
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    (warning,) = [w for w in result.warnings if w.startswith("synthesis")]
    assert "8,192" in warning and "answer limited" in warning and "prompt cut" not in warning


async def test_a_window_a_server_stated_is_saved_and_a_reopened_session_fits_to_it(
    tmp_path: Path,
) -> None:
    with vllm(8192) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url)
        llm, search = "openai:qwen2.5-7b", StaticSearch(DOCUMENTS)
        first = dr.Session(QUESTION, llm=llm, search=search, config=cfg)
        await first.run()
        assert first.state.stated_windows == {llm: 8192}
        reopened = dr.Session.load(first.id, config=cfg, llm=llm, search=search)
        assert reopened.state.stated_windows == {llm: 8192}
        server.requests.clear()
        await reopened.synthesize()  # the report again, in a new process's session
        reports = [r.json for r in server.requests if output_name(r.json) == "ReportDraft"]
    assert len(reports) == 1 and reports[0]["max_tokens"] < 8000  # fitted, not refused


async def test_pages_that_could_not_be_read_are_a_warning_and_the_snippets_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-key")
    wanted = DOCUMENTS[0]["url"]

    def reflect_asking_to_read(name: str, prompt: str) -> dict[str, Any]:
        data = role_answer(name, prompt)
        if name == "ReflectOutput":
            data["urls_to_extract"] = [wanted]
        return data

    def extract_fails(request: RecordedRequest) -> Reply:
        if request.path == "/extract":
            return tavily_error(500, "Internal Server Error")
        return tv.default_reply(request)

    with (
        OpenAIServer(answer=reflect_asking_to_read) as llm,
        TavilyServer(DOCUMENTS, extract_fails) as tv,
    ):
        cfg = config(
            tmp_path,
            openai_base_url=llm.base_url,
            tavily_base_url=tv.url,
            search=["tavily"],
            max_retries=0,
        )
        session = dr.Session(QUESTION, llm="openai:gpt-4.1-mini", config=cfg)
        result = await session.run()
        extracts = [r for r in tv.requests if r.path == "/extract"]
    assert extracts and wanted in {s.url for s in session.state.sources}
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    (gathering,) = [w for w in result.warnings if w.startswith("gathering")]
    assert "could not be read" in gathering and "HTTP 500" in gathering
