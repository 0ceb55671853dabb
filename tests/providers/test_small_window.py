"""A local model with an 8k window (Ollama's typical size) behind an OpenAI-compatible
server that refuses larger prompts with OpenAI's context-length error: the budget scales
to the window, the run cites its sources and never hits the limit. A window nobody
configured is learned from the server's first refusal and kept for the rest of the run."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.errors import ConfigError
from deepresearch.state import RunStatus
from deepresearch.testing.long_documents import PagedSearch
from deepresearch.testing.vendor_servers import (
    AnthropicServer,
    OpenAIServer,
    RecordedRequest,
    Reply,
    VendorServer,
    anthropic_error,
    openai_context_window_error,
)

from .test_sessions_over_vendors import QUESTION, config

WINDOW = 8192


async def test_an_8k_window_cites_sources_and_never_hits_the_limit(tmp_path: Path) -> None:
    with OpenAIServer(context_window=WINDOW) as server:
        cfg = config(
            tmp_path,
            openai_base_url=server.base_url,
            model_context_overrides={"llama3.1:8b": WINDOW},
        )
        session = dr.Session(
            QUESTION, llm="openai:llama3.1:8b", search=PagedSearch(12, words=1500), config=cfg
        )
        result = await session.run()
        largest = server.largest_prompt_tokens
        bodies = [r.json for r in server.requests]
    assert result.status == RunStatus.COMPLETED, result.warnings
    assert 0 < largest <= WINDOW
    assert all(u.token_limit_retries == 0 for u in session.state.usage)
    report = session.report
    assert report is not None and len(report.cited_source_ids) >= 3
    numbers = {int(n) for n in re.findall(r"\[(\d+)\]", report.markdown)}
    assert len(numbers) >= 3
    # The prompts carried source text, most of the window, not a starved 357 tokens.
    assert largest > WINDOW // 3
    assert all(b.get("max_tokens", 0) <= WINDOW - largest for b in bodies if "max_tokens" in b)


async def test_a_window_too_small_is_a_config_error_before_the_run(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        cfg = config(
            tmp_path, openai_base_url=server.base_url, model_context_overrides={"tiny": 1024}
        )
        session = dr.Session(QUESTION, llm="openai:tiny", search=PagedSearch(3), config=cfg)
        with pytest.raises(ConfigError, match="model_context_overrides"):
            await session.run()
        assert server.requests == []


# A server whose model has a window smaller than the package assumes (32k for an unknown
# model, 200k for Claude) and nobody configured: it refuses longer prompts in its own words.
SMALL = 4096


def prompt_tokens(body: dict[str, object]) -> int:
    """The request's prompt as the loopback servers count it (4 characters a token)."""
    texts = [str(body.get("system", ""))]
    for m in body.get("messages", []):  # type: ignore[attr-defined]
        content = m.get("content", "")
        texts.append(content if isinstance(content, str) else json.dumps(content))
    return len("\n\n".join(texts)) // 4 + 1


def openai_refusal(tokens: int) -> Reply:
    return openai_context_window_error(SMALL, tokens)


def llama_cpp_refusal(tokens: int) -> Reply:
    error = {
        "code": 400,
        "message": "the request exceeds the available context size. try increasing the "
        "context size or enable context shift",
        "type": "exceed_context_size_error",
        "n_prompt_tokens": tokens,
        "n_ctx": SMALL,
    }
    return Reply(400, {"error": error})


def anthropic_refusal(tokens: int) -> Reply:
    message = f"prompt is too long: {tokens} tokens > {SMALL} maximum"
    return anthropic_error(400, "invalid_request_error", message)


SERVERS: dict[str, tuple[type[VendorServer], Callable[[int], Reply], str, str]] = {
    "openai": (OpenAIServer, openai_refusal, "openai:llama3.1:8b", "openai_base_url"),
    "llama.cpp": (OpenAIServer, llama_cpp_refusal, "openai:qwen2.5-7b", "openai_base_url"),
    "anthropic": (
        AnthropicServer,
        anthropic_refusal,
        "anthropic:claude-haiku-4-5",
        "anthropic_base_url",
    ),
}


@pytest.mark.parametrize("vendor", list(SERVERS))
async def test_a_window_a_server_states_is_remembered_so_later_prompts_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vendor: str
) -> None:
    kind, refusal, spec, url_key = SERVERS[vendor]
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    refused: list[str] = []  # the model of each refused request
    after: list[int] = []  # prompt sizes sent to a model after its first refusal

    def answer(request: RecordedRequest) -> Reply:
        model, tokens = str(request.json.get("model")), prompt_tokens(request.json)
        if model in refused:
            after.append(tokens)
        if tokens > SMALL:
            refused.append(model)
            return refusal(tokens)
        return server.default_reply(request)

    # one call at a time, so that no second oversized call is already in flight when the
    # first refusal arrives
    with kind(answer) as server:
        base = server.url + "/v1" if kind is OpenAIServer else server.url
        cfg = config(tmp_path, provider_max_concurrency=1, **{url_key: base})
        session = dr.Session(QUESTION, llm=spec, search=PagedSearch(12, words=1500), config=cfg)
        result = await session.run()
    # Several calls build prompts longer than 4k (compression, verification): only the
    # first is refused; every later request is fitted to the stated window before it is sent.
    assert refused == [spec.partition(":")[2]]
    assert after and max(after) <= SMALL
    assert sum(u.token_limit_retries for u in session.state.usage) == 1
    assert session.report is not None and session.report.cited_source_ids
    # The run still says once that a request was refused and refitted, and what follows.
    assert result.status == RunStatus.COMPLETED_WITH_WARNINGS
    (warning,) = [w for w in result.warnings if "refused the request" in w]
    assert f"Later requests to {spec} in this session are fitted to 4,096 tokens" in warning
    assert "model_context_overrides" in warning
