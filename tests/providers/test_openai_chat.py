"""The real openai client against a loopback openai_server speaking the chat-completions format."""

from __future__ import annotations

import dataclasses
import json
import logging

import pytest

from deepresearch.config import Config
from deepresearch.errors import ContextWindowError, ProviderError, StructuredOutputError
from deepresearch.llm import call_llm
from deepresearch.providers.base import LLMRequest, Message
from deepresearch.providers.openai_chat import OpenAIChat
from deepresearch.providers.registry import build_llm
from deepresearch.providers.wrappers import stated_sizes, stated_window
from deepresearch.state import AgentRole, Phase, ResearchState
from deepresearch.testing import EmptySearch, context
from deepresearch.testing.vendor_servers import (
    OpenAIServer,
    Reply,
    openai_completion,
    openai_context_window_error,
    openai_error,
)

from .conftest import Recorder, Verdict, verdict_role, waits

KEY = "sk-test-SECRET-0123456789"


def make(openai_server: OpenAIServer, model: str = "gpt-4.1-mini", **knobs: object) -> OpenAIChat:
    config = Config.build(
        {"openai_base_url": openai_server.base_url, "retry_base_delay_s": 0.001, **knobs}
    )
    provider = OpenAIChat.from_config(model, config, environ={"OPENAI_API_KEY": KEY})
    provider.retry = dataclasses.replace(provider.retry, sleep=Recorder())
    return provider


def request(user: str = "Rate this.", timeout_s: float = 5.0) -> LLMRequest:
    return LLMRequest(
        role=AgentRole.ANALYZER,
        phase="analysis",
        messages=[Message("system", "You rate things."), Message("user", user)],
        output_type=Verdict,
        inputs=Verdict(label="in", score=0),
        temperature=0.2,
        max_tokens=300,
        timeout_s=timeout_s,
    )


async def test_native_structured_output(openai_server: OpenAIServer) -> None:
    response = await make(openai_server).complete(request())
    assert response.output == Verdict(label="Verdict", score=7)
    assert response.model == "openai:gpt-4.1-mini"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 7)
    sent = openai_server.requests[0].json
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["name"] == "Verdict"
    assert sent["response_format"]["json_schema"]["schema"]["required"] == ["label", "score"]
    assert sent["temperature"] == 0.2 and sent["max_tokens"] == 300
    assert openai_server.requests[0].headers["authorization"] == f"Bearer {KEY}"


async def test_server_ignoring_response_format_switches_to_prompt_and_parse() -> None:
    with OpenAIServer(answer=lambda n, p: {"label": n, "score": 1}, structured=False) as srv:
        provider = make(srv)
        responses = [await provider.complete(request()) for _ in range(3)]
        sent = [r.json for r in srv.requests]
    # Each chat answer (the model never saw the schema) is repaired in prompt mode, schema
    # in the prompt. After two native misses and no hit the model is known to ignore the
    # schema, and later calls start in prompt mode.
    assert all(r.output == Verdict(label="Verdict", score=1) for r in responses)
    assert [r.repair_attempts for r in responses] == [1, 1, 0]
    assert "<think>" in responses[0].raw_text
    assert ["response_format" in body for body in sent] == [True, False, True, False, False]
    assert 'schema named "Verdict"' in sent[1]["messages"][0]["content"]
    assert provider.native_output is False


async def test_one_malformed_answer_does_not_switch_native_off(
    openai_server: OpenAIServer,
) -> None:
    provider = make(openai_server)
    openai_server.enqueue(Reply(200, openai_completion('{"label": "Verdict", "sco')))
    first = await provider.complete(request())
    later = [await provider.complete(request()) for _ in range(2)]
    formats = ["response_format" in r.json for r in openai_server.requests]
    assert first.repair_attempts == 1 and all(r.repair_attempts == 0 for r in later)
    assert formats == [True, False, True, True]  # native again after the one bad answer
    assert provider.native_output is True


async def test_prompt_mode_parses_chatty_fenced_json_with_think_blocks() -> None:
    with OpenAIServer(answer=lambda n, p: {"label": n, "score": 2}, structured=False) as srv:
        response = await make(srv, structured_output="prompt").complete(request())
    assert response.output == Verdict(label="Verdict", score=2)
    assert response.repair_attempts == 0 and "```json" in response.raw_text


async def test_prompt_mode_sends_the_schema_in_the_system_prompt(
    openai_server: OpenAIServer,
) -> None:
    await make(openai_server, structured_output="prompt").complete(request())
    sent = openai_server.requests[0].json
    assert "response_format" not in sent
    assert 'schema named "Verdict"' in sent["messages"][0]["content"]


async def test_rejected_response_format_falls_back_and_is_remembered(
    openai_server: OpenAIServer,
) -> None:
    provider = make(openai_server)
    openai_server.enqueue(
        openai_error(
            400,
            "Invalid parameter: 'response_format' of type 'json_schema' is "
            "not supported with this model.",
            param="response_format",
        )
    )
    assert (await provider.complete(request())).output.score == 7  # type: ignore[attr-defined]
    assert await provider.complete(request())
    formats = ["response_format" in r.json for r in openai_server.requests]
    assert formats == [True, False, False]


async def test_native_mode_does_not_fall_back(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(openai_error(400, "response_format json_schema is not supported"))
    with pytest.raises(ProviderError, match="HTTP 400"):
        await make(openai_server, structured_output="native").complete(request())


async def test_repair_shows_the_error_then_succeeds(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(Reply(200, openai_completion('{"label": "x", "score": "high"}')))
    response = await make(openai_server).complete(request())
    assert response.repair_attempts == 1
    assert response.usage.input_tokens == 24  # both calls counted
    repair = openai_server.requests[1].json["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"label": "x", "score": "high"}'}
    assert "score" in repair[-1]["content"] and "integer" in repair[-1]["content"]


async def test_repair_exhausted_is_a_typed_error(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(*[Reply(200, openai_completion("I'd rather not.")) for _ in range(3)])
    with pytest.raises(StructuredOutputError) as info:
        await make(openai_server, max_repair_attempts=2).complete(request())
    assert info.value.raw_text == "I'd rather not."
    assert len(openai_server.requests) == 3


async def test_garbage_after_the_repairs_says_what_to_do(openai_server: OpenAIServer) -> None:
    garbage = ['{"label": "x", "sco', "<html><body>502</body></html>", "null"]
    openai_server.enqueue(*[Reply(200, openai_completion(text)) for text in garbage])
    with pytest.raises(StructuredOutputError) as info:
        await make(openai_server, max_repair_attempts=2).complete(request())
    error = info.value
    assert isinstance(error, ProviderError) and not error.retryable
    assert error.provider == "openai:gpt-4.1-mini" and error.raw_text == "null"
    message = str(error)
    assert "did not return a valid Verdict after 2 repair attempt(s)" in message
    assert "max_repair_attempts" in message and "structured_output" in message
    assert len(openai_server.requests) == 3


async def test_429_waits_as_long_as_retry_after_says(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(
        openai_error(
            429,
            "Rate limit reached for gpt-4.1-mini on tokens per min (TPM).",
            type="tokens",
            code="rate_limit_exceeded",
            retry_after=0.013,
        )
    )
    provider = make(openai_server, retry_base_delay_s=5.0)
    assert (await provider.complete(request())).output.label == "Verdict"  # type: ignore[attr-defined]
    assert waits(provider) == [0.013]


async def test_500_then_ok(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(
        openai_error(
            500,
            "The openai_server had an error while processing your request.",
            type="server_error",
        )
    )
    provider = make(openai_server)
    assert await provider.complete(request())
    assert len(waits(provider)) == 1 and len(openai_server.requests) == 2


async def test_timeout_then_ok(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(
        Reply(200, openai_completion('{"label": "late", "score": 1}'), delay_s=1.0)
    )
    provider = make(openai_server)
    response = await provider.complete(request(timeout_s=0.2))
    assert response.output == Verdict(label="Verdict", score=7)
    assert len(waits(provider)) == 1


async def test_timeouts_exhausted_raise_provider_error(openai_server: OpenAIServer) -> None:
    late = Reply(200, openai_completion("{}"), delay_s=1.0)
    openai_server.enqueue(late, late)
    with pytest.raises(ProviderError, match="timed out") as info:
        await make(openai_server, max_retries=1).complete(request(timeout_s=0.2))
    assert info.value.retryable


async def test_malformed_json_body_is_a_provider_error(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(Reply(200, '{"id": "chatcmpl-1", "choices": [ {'))
    with pytest.raises(ProviderError, match="malformed") as info:
        await make(openai_server).complete(request())
    assert not isinstance(info.value, StructuredOutputError)


async def test_context_window_error_is_recognised(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(openai_context_window_error())
    with pytest.raises(ContextWindowError, match="maximum context length"):
        await make(openai_server).complete(request())


@pytest.mark.parametrize("status", [400, 500])  # llama.cpp before late 2025 answered 500
async def test_llama_cpp_context_size_error_is_recognised_with_its_sizes(
    openai_server: OpenAIServer, status: int
) -> None:
    error = {
        "code": status,
        "message": "the request exceeds the available context size. try increasing the "
        "context size or enable context shift",
        "type": "exceed_context_size_error",
        "n_prompt_tokens": 14429,
        "n_ctx": 8192,
    }
    openai_server.enqueue(Reply(status, {"error": error}))
    with pytest.raises(ContextWindowError) as caught:
        await make(openai_server).complete(request())
    assert stated_window(str(caught.value)) == 8192
    assert stated_sizes(str(caught.value)) == (14429, None)
    assert len(openai_server.requests) == 1  # a 500 of this kind is not retried


async def test_reasoning_models_get_no_temperature(openai_server: OpenAIServer) -> None:
    await make(openai_server, model="o4-mini").complete(request())
    assert "temperature" not in openai_server.requests[0].json


async def test_temperature_rejected_is_dropped_and_retried(openai_server: OpenAIServer) -> None:
    openai_server.enqueue(
        openai_error(
            400,
            "Unsupported parameter: 'temperature' is not supported with this model.",
            param="temperature",
            code="unsupported_parameter",
        )
    )
    provider = make(openai_server, model="my-reasoner")
    assert await provider.complete(request())
    assert ["temperature" in r.json for r in openai_server.requests] == [True, False]
    assert provider.send_temperature is False


async def test_call_llm_cuts_the_prompt_by_ten_percent_and_accounts_usage(
    openai_server: OpenAIServer, no_search: EmptySearch
) -> None:
    config = Config(
        llm="openai:gpt-4.1-mini", openai_base_url=openai_server.base_url, operation_timeout_s=5
    )
    provider = build_llm("openai:gpt-4.1-mini", config, environ={})
    ctx = context(
        provider, no_search, config=config, models=lambda spec: build_llm(spec, config, environ={})
    )
    state = ResearchState(question="q")
    openai_server.enqueue(openai_context_window_error())
    user = "evidence " * 200
    spec = verdict_role(AgentRole.ANALYZER, Phase.ANALYSIS, user)
    out = await call_llm(spec, Verdict(label="i", score=0), state, ctx)
    assert out == Verdict(label="Verdict", score=7)
    first, second = (r.json["messages"][-1]["content"] for r in openai_server.requests)
    assert first == user and second == user[: int(len(user) * 0.9)]
    record = state.usage[-1]
    assert record.token_limit_retries == 1
    assert (record.model, record.input_tokens, record.output_tokens) == (
        "openai:gpt-4.1-mini",
        12,
        7,
    )
    assert record.cost_usd == pytest.approx((12 * 0.40 + 7 * 1.60) / 1e6)


async def test_keys_never_show(
    openai_server: OpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    provider = make(openai_server)
    openai_server.enqueue(
        openai_error(429, f"Too many requests for key {KEY}", retry_after=0.001),
        openai_error(401, f"Incorrect API key provided: {KEY}.", code="invalid_api_key"),
    )
    with pytest.raises(ProviderError) as info:
        await provider.complete(request())
    shown = [
        repr(provider),
        str(provider),
        str(info.value),
        repr(info.value),
        caplog.text,
        repr(provider.config),
        json.dumps(provider.config.model_dump(mode="json")),
    ]
    assert caplog.text  # the retry was logged
    assert all(KEY not in text for text in shown)
