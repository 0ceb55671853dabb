"""The report is asked for as plain text: no schema, no JSON mode, no tool. An answer cut
off at the output limit is continued and joined; one still cut off after that is kept,
marked, and makes the run degraded with the reason."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.errors import StructuredOutputError
from deepresearch.phases.synthesize import CUT_OFF_NOTE
from deepresearch.providers.anthropic_messages import AnthropicMessages
from deepresearch.providers.base import LLMRequest, Message, Usage
from deepresearch.providers.structured import (
    CONTINUE_PROMPT,
    Answer,
    complete_text,
    plain_text,
)
from deepresearch.roles import ReportDraft, SynthesizeInputs
from deepresearch.state import AgentRole, Outcome, RunStatus
from deepresearch.testing import StaticSearch
from deepresearch.testing.vendor_servers import (
    AnthropicServer,
    OpenAIServer,
    RecordedRequest,
    Reply,
    anthropic_message,
    openai_completion,
    output_name,
    role_answer,
)

from .conftest import Recorder
from .test_sessions_over_vendors import DOCUMENTS, QUESTION, config

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")


def scripted(*answers: Answer) -> tuple[list[list[Message]], object]:
    seen: list[list[Message]] = []

    async def ask(extra: list[Message]) -> Answer:
        seen.append(list(extra))
        return answers[len(seen) - 1]

    return seen, ask


def test_a_cut_off_answer_is_continued_and_joined() -> None:
    seen, ask = scripted(
        Answer("# Print\n\nPresses spread to 250 to", Usage(10, 5), cut_off=True),
        Answer("wns by 1500 [1].", Usage(12, 4)),
    )
    response = asyncio.run(complete_text(ask, ReportDraft, max_retries=2, provider="t"))  # type: ignore[arg-type]
    assert isinstance(response.output, ReportDraft)
    assert response.output.markdown == "# Print\n\nPresses spread to 250 towns by 1500 [1]."
    assert not response.output.cut_off and response.continuations == 1
    assert (response.usage.input_tokens, response.usage.output_tokens) == (22, 9)
    assert seen[1][-1] == Message("user", CONTINUE_PROMPT)
    assert seen[1][0] == Message("assistant", "# Print\n\nPresses spread to 250 to")


def test_an_answer_still_cut_off_is_marked_not_passed_off_as_whole() -> None:
    _, ask = scripted(*[Answer(f"part {n} ", Usage(), cut_off=True) for n in range(3)])
    response = asyncio.run(complete_text(ask, ReportDraft, max_retries=2, provider="t"))  # type: ignore[arg-type]
    assert isinstance(response.output, ReportDraft)
    assert response.output.cut_off and response.continuations == 2
    assert response.output.markdown == "part 0 part 1 part 2"


def test_an_empty_answer_is_asked_again_then_fails() -> None:
    _, ask = scripted(Answer("", Usage()), Answer("  ", Usage()))
    with pytest.raises(StructuredOutputError, match="empty answer"):
        asyncio.run(complete_text(ask, ReportDraft, max_retries=1, provider="t"))  # type: ignore[arg-type]


def test_plain_text_drops_reasoning_a_whole_fence_and_a_json_wrapper() -> None:
    assert plain_text("<think>plan</think>\n# Title\n\nBody [1].", ReportDraft) == (
        "# Title\n\nBody [1]."
    )
    assert plain_text("```markdown\n# Title\n\nBody.\n```", ReportDraft) == "# Title\n\nBody."
    assert plain_text('{"markdown": "# Title\\n\\nBody."}', ReportDraft) == "# Title\n\nBody."
    assert plain_text("# Title\n\n```python\nx = 1\n```\n", ReportDraft).endswith("```")


async def test_a_long_report_arrives_whole_over_a_server_that_cuts_it(tmp_path: Path) -> None:
    limit = 100  # characters per answer; asked to continue, the model goes on from there

    def continuing(request: RecordedRequest) -> Reply:
        if output_name(request.json) != "ReportDraft":
            return server.default_reply(request)
        messages = request.json["messages"]
        prompt = "\n\n".join(str(m["content"]) for m in messages)
        whole = role_answer("ReportDraft", prompt)["markdown"]
        done = messages[-2]["content"] if messages[-1]["content"] == CONTINUE_PROMPT else ""
        rest = whole[len(done) :]
        finish = "length" if len(rest) > limit else "stop"
        return Reply(200, openai_completion(rest[:limit], finish_reason=finish))

    with OpenAIServer(continuing) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url, max_repair_attempts=5)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        await session.run()
        reports = [r.json for r in server.requests if output_name(r.json) == "ReportDraft"]
    assert len(reports) >= 3  # the first answer and at least two continuations
    assert all("response_format" not in b for b in reports)
    assert session.state.status == RunStatus.COMPLETED
    assert session.report is not None and CUT_OFF_NOTE not in session.report.markdown
    for heading in ("## Executive summary", "## Gaps and limitations", "## Conclusion"):
        assert heading in session.report.markdown


async def test_a_report_cut_off_for_good_is_degraded_and_says_so(tmp_path: Path) -> None:
    def always_cut(request: RecordedRequest) -> Reply:
        if output_name(request.json) != "ReportDraft":
            return server.default_reply(request)
        return Reply(200, openai_completion("# Print\n\nPresses [1] ", finish_reason="length"))

    with OpenAIServer(always_cut) as server:
        cfg = config(tmp_path, openai_base_url=server.base_url, max_repair_attempts=1)
        session = dr.Session(
            QUESTION, llm="openai:gpt-4.1-mini", search=StaticSearch(DOCUMENTS), config=cfg
        )
        result = await session.run()
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    synthesis = [m for m in session.state.metrics if m.phase.value == "synthesis"][-1]
    assert synthesis.outcome == Outcome.DEGRADED
    assert any("cut off at its output limit" in p for p in synthesis.problems)
    assert session.report is not None and CUT_OFF_NOTE in session.report.markdown


async def test_anthropic_asks_for_text_and_continues_at_max_tokens() -> None:
    with AnthropicServer() as server:
        server.enqueue(
            Reply(
                200,
                anthropic_message("# Print\n\nPresses spread [1] and", stop_reason="max_tokens"),
            ),
            Reply(200, anthropic_message(" readers multiplied [2].")),
        )
        cfg = dr.Config.build({"anthropic_base_url": server.base_url})
        provider = AnthropicMessages.from_config(
            "claude-sonnet-4-5", cfg, environ={"ANTHROPIC_API_KEY": "sk-ant-test-0123456789"}
        )
        provider.retry = dataclasses.replace(provider.retry, sleep=Recorder())
        request = LLMRequest(
            role=AgentRole.SYNTHESIZER,
            phase="synthesis",
            messages=[Message("system", "You write reports."), Message("user", "Write it.")],
            output_type=ReportDraft,
            inputs=SynthesizeInputs(question=QUESTION),
            max_tokens=50,
        )
        response = await provider.complete(request)
        bodies = [r.json for r in server.requests]
    assert isinstance(response.output, ReportDraft)
    assert response.output.markdown == "# Print\n\nPresses spread [1] and readers multiplied [2]."
    assert all("tools" not in b and "tool_choice" not in b for b in bodies)
    assert "Schema:" not in str(bodies[0].get("system", ""))
    assert bodies[1]["messages"][-1] == {"role": "user", "content": CONTINUE_PROMPT}
