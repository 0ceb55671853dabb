"""A local model with an 8k window (Ollama's typical size) behind an OpenAI-compatible
server that refuses larger prompts with OpenAI's context-length error: the budget scales
to the window, the run cites its sources and never hits the limit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.errors import ConfigError
from deepresearch.state import RunStatus
from deepresearch.testing.long_documents import PagedSearch
from deepresearch.testing.vendor_servers import OpenAIServer

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
