"""The real anthropic client against a loopback anthropic_server speaking the messages format."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from deepresearch.config import Config
from deepresearch.errors import ContextWindowError, ProviderError, StructuredOutputError
from deepresearch.llm import call_llm
from deepresearch.providers.anthropic_messages import AnthropicMessages
from deepresearch.providers.base import LLMRequest, Message
from deepresearch.providers.registry import build_llm
from deepresearch.state import AgentRole, Phase, ResearchState
from deepresearch.testing import EmptySearch, context
from deepresearch.testing.vendor_servers import (
    AnthropicServer,
    Reply,
    anthropic_context_window_error,
    anthropic_error,
    anthropic_message,
)

from .conftest import Recorder, Verdict, verdict_role, waits

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

KEY = "sk-ant-test-SECRET-0123456789"


def make(anthropic_server: AnthropicServer, **knobs: object) -> AnthropicMessages:
    config = Config.build({"anthropic_base_url": anthropic_server.base_url, **knobs})
    provider = AnthropicMessages.from_config(
        "claude-sonnet-4-5", config, environ={"ANTHROPIC_API_KEY": KEY}
    )
    provider.retry = dataclasses.replace(provider.retry, sleep=Recorder())
    return provider


def request(timeout_s: float = 5.0) -> LLMRequest:
    return LLMRequest(
        role=AgentRole.SYNTHESIZER,
        phase="synthesis",
        messages=[Message("system", "You rate things."), Message("user", "Rate this.")],
        output_type=Verdict,
        inputs=Verdict(label="in", score=0),
        temperature=1.4,
        max_tokens=None,
        timeout_s=timeout_s,
    )


async def test_forced_tool_use(anthropic_server: AnthropicServer) -> None:
    response = await make(anthropic_server).complete(request())
    assert response.output == Verdict(label="Verdict", score=4)
    assert response.model == "anthropic:claude-sonnet-4-5"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (20, 9)
    sent = anthropic_server.requests[0].json
    assert sent["tool_choice"] == {"type": "tool", "name": "Verdict"}
    assert sent["tools"][0]["input_schema"]["required"] == ["label", "score"]
    assert sent["system"] == "You rate things."
    assert sent["messages"] == [{"role": "user", "content": "Rate this."}]
    assert sent["max_tokens"] == 4096 and sent["temperature"] == 1.0  # clamped to 0..1


async def test_rejected_tools_fall_back_to_prompt_and_parse(
    anthropic_server: AnthropicServer,
) -> None:
    anthropic_server.enqueue(
        anthropic_error(
            400, "invalid_request_error", "tools: tool use is not supported by this model"
        )
    )
    provider = make(anthropic_server)
    response = await provider.complete(request())
    assert response.output == Verdict(label="Verdict", score=4)
    assert "```json" in response.raw_text  # parsed from chatty text
    assert ["tools" in r.json for r in anthropic_server.requests] == [True, False]
    assert 'schema named "Verdict"' in anthropic_server.requests[1].json["system"]


async def test_text_answer_to_a_tool_request_is_repaired() -> None:
    with AnthropicServer(answer=lambda n, p: {"label": n, "score": 3}) as srv:
        srv.enqueue(Reply(200, anthropic_message("I think it is good, maybe a 3?")))
        response = await make(srv).complete(request())
        repair = srv.requests[1].json
    assert response.output == Verdict(label="Verdict", score=3)
    assert response.repair_attempts == 1
    assert repair["messages"][1]["role"] == "assistant"
    assert "no JSON" in repair["messages"][2]["content"]


async def test_repair_exhausted_is_a_typed_error(anthropic_server: AnthropicServer) -> None:
    anthropic_server.enqueue(
        *[Reply(200, anthropic_message(tool_input={"label": "x"})) for _ in range(2)]
    )
    with pytest.raises(StructuredOutputError, match="score"):
        await make(anthropic_server, max_repair_attempts=1).complete(request())


async def test_garbage_after_the_repairs_says_what_to_do(
    anthropic_server: AnthropicServer,
) -> None:
    garbage = ["I cannot do that.", '```json\n{"label": \n```', "[1, 2"]
    anthropic_server.enqueue(*[Reply(200, anthropic_message(text)) for text in garbage])
    with pytest.raises(StructuredOutputError) as info:
        await make(anthropic_server, max_repair_attempts=2).complete(request())
    error = info.value
    assert isinstance(error, ProviderError) and not error.retryable
    assert error.provider == "anthropic:claude-sonnet-4-5" and error.raw_text == "[1, 2"
    message = str(error)
    assert "did not return a valid Verdict after 2 repair attempt(s)" in message
    assert "max_repair_attempts" in message and "structured_output" in message
    assert len(anthropic_server.requests) == 3


async def test_overloaded_and_rate_limited_are_retried(anthropic_server: AnthropicServer) -> None:
    anthropic_server.enqueue(
        anthropic_error(529, "overloaded_error", "Overloaded"),
        anthropic_error(
            429,
            "rate_limit_error",
            "Number of request tokens has exceeded your per-minute rate limit",
            retry_after=0.021,
        ),
    )
    provider = make(anthropic_server, retry_base_delay_s=0.0)
    assert (await provider.complete(request())).output.score == 4  # type: ignore[attr-defined]
    assert waits(provider) == [0.0, 0.021]


async def test_timeout_exhausted_is_a_provider_error(anthropic_server: AnthropicServer) -> None:
    late = Reply(200, anthropic_message(tool_input={"label": "x", "score": 1}), delay_s=1.0)
    anthropic_server.enqueue(late, late)
    with pytest.raises(ProviderError, match="timed out"):
        await make(anthropic_server, max_retries=1).complete(request(timeout_s=0.2))


async def test_malformed_body_is_a_provider_error(anthropic_server: AnthropicServer) -> None:
    anthropic_server.enqueue(Reply(200, "<html>502 Bad Gateway</html>"))
    with pytest.raises(ProviderError, match="malformed"):
        await make(anthropic_server).complete(request())


async def test_prompt_too_long_is_a_context_window_error_and_recovered(
    anthropic_server: AnthropicServer, no_search: EmptySearch
) -> None:
    anthropic_server.enqueue(anthropic_context_window_error())
    with pytest.raises(ContextWindowError, match="prompt is too long"):
        await make(anthropic_server).complete(request())

    config = Config(anthropic_base_url=anthropic_server.base_url, llm="anthropic:claude-sonnet-4-5")
    env = {"ANTHROPIC_API_KEY": KEY}
    provider = build_llm("anthropic:claude-sonnet-4-5", config, environ=env)
    ctx = context(
        provider, no_search, config=config, models=lambda spec: build_llm(spec, config, environ=env)
    )
    state = ResearchState(question="q")
    anthropic_server.enqueue(anthropic_context_window_error(), anthropic_context_window_error())
    user = "a long source text " * 100
    spec = verdict_role(AgentRole.SYNTHESIZER, Phase.SYNTHESIS, user)
    out = await call_llm(spec, Verdict(label="i", score=0), state, ctx)
    assert out.score == 4
    sent = [r.json["messages"][0]["content"] for r in anthropic_server.requests[1:]]
    assert [len(t) for t in sent] == [
        len(user),
        int(len(user) * 0.9),
        int(int(len(user) * 0.9) * 0.9),
    ]
    assert state.usage[-1].token_limit_retries == 2
    assert state.usage[-1].cost_usd == pytest.approx((20 * 3.0 + 9 * 15.0) / 1e6)


async def test_keys_never_show(
    anthropic_server: AnthropicServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    provider = make(anthropic_server)
    anthropic_server.enqueue(
        anthropic_error(500, "api_error", f"Internal error for {KEY}"),
        anthropic_error(401, "authentication_error", f"invalid x-api-key {KEY}"),
    )
    with pytest.raises(ProviderError) as info:
        await provider.complete(request())
    assert "ANTHROPIC_API_KEY" in str(info.value)
    assert caplog.text
    for text in (repr(provider), str(info.value), caplog.text, repr(vars(provider))):
        assert KEY not in text
