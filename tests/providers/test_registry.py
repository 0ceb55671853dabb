"""Model specs, automatic provider choice from the environment, cheap defaults, pricing."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepresearch.config import Config
from deepresearch.errors import ConfigError, CorpusError, ProviderUnavailableError
from deepresearch.pricing import estimate_cost, price_for
from deepresearch.providers.anthropic_messages import AnthropicMessages
from deepresearch.providers.fallback import FallbackSearch
from deepresearch.providers.openai_chat import OpenAIChat
from deepresearch.providers.registry import (
    build_llm,
    build_search,
    cheap_spec_for,
    parse_spec,
    resolve_llm_spec,
)
from deepresearch.providers.tavily_search import TavilySearch


def test_parse_spec() -> None:
    assert parse_spec("openai:gpt-4.1-mini") == ("openai", "gpt-4.1-mini")
    assert parse_spec("Anthropic:claude-sonnet-4-5") == ("anthropic", "claude-sonnet-4-5")
    assert parse_spec("offline") == ("offline", "")
    with pytest.raises(ConfigError, match="names no model"):
        parse_spec("openai")
    with pytest.raises(ConfigError, match="Unknown model vendor"):
        parse_spec("mistral:large")


def test_auto_picks_a_vendor_whose_key_is_set_and_explicit_wins() -> None:
    auto = Config()
    assert resolve_llm_spec(auto, {}) == "offline"
    assert resolve_llm_spec(auto, {"OPENAI_API_KEY": "k"}) == "openai:gpt-4.1-mini"
    assert resolve_llm_spec(auto, {"ANTHROPIC_API_KEY": "k"}) == "anthropic:claude-sonnet-4-5"
    explicit = Config(llm="anthropic:claude-haiku-4-5")
    assert resolve_llm_spec(explicit, {"OPENAI_API_KEY": "k"}) == "anthropic:claude-haiku-4-5"
    assert resolve_llm_spec(Config(llm="offline"), {"OPENAI_API_KEY": "k"}) == "offline"


def test_build_llm_needs_a_key_unless_a_local_server_is_configured() -> None:
    openai = build_llm("openai:gpt-4.1", Config(), environ={"OPENAI_API_KEY": "sk-x"})
    assert isinstance(openai, OpenAIChat) and openai.name == "openai:gpt-4.1"
    claude = build_llm("anthropic:claude-opus-4-1", Config(), environ={"ANTHROPIC_API_KEY": "a"})
    assert isinstance(claude, AnthropicMessages) and claude.name == "anthropic:claude-opus-4-1"
    with pytest.raises(ProviderUnavailableError, match="OPENAI_API_KEY"):
        build_llm("openai:gpt-4.1", Config(), environ={})
    local = Config(openai_base_url="http://127.0.0.1:11434/v1")
    ollama = build_llm("openai:llama3.1", local, environ={})
    assert "127.0.0.1:11434" in repr(ollama)


def test_cheap_defaults() -> None:
    assert cheap_spec_for("openai:gpt-4.1") == "openai:gpt-4.1-mini"
    assert cheap_spec_for("openai:gpt-4.1-2025-04-14") == "openai:gpt-4.1-mini"
    assert cheap_spec_for("openai:gpt-4o") == "openai:gpt-4o-mini"
    assert cheap_spec_for("openai:gpt-5") == "openai:gpt-5-mini"
    assert cheap_spec_for("openai:o3") == "openai:o4-mini"
    assert cheap_spec_for("anthropic:claude-sonnet-4-5") == "anthropic:claude-haiku-4-5"
    assert cheap_spec_for("anthropic:claude-3-7-sonnet-latest") == (
        "anthropic:claude-3-5-haiku-latest"
    )
    for small in ("openai:gpt-4.1-mini", "openai:o4-mini", "anthropic:claude-haiku-4-5"):
        assert cheap_spec_for(small) is None
    assert cheap_spec_for("openai:llama3.1") is None  # a local model keeps itself
    assert cheap_spec_for("offline") is None


def test_auto_search_uses_tavily_with_a_key_then_the_corpus(tmp_path: Path) -> None:
    env = {"TAVILY_API_KEY": "tvly-x"}
    assert isinstance(build_search(Config(), env), TavilySearch)
    both = build_search(Config(corpus=tmp_path), env)
    assert isinstance(both, FallbackSearch)
    assert [p.name for p in both.providers][:1] == ["tavily"]


def test_unavailable_providers_are_skipped_and_none_left_is_clear() -> None:
    with pytest.raises(CorpusError, match="tavily: tavily needs an API key"):
        build_search(Config(search=["tavily", "corpus"]), {})


def test_pricing_matches_snapshots_and_honours_overrides() -> None:
    assert price_for("openai:gpt-4.1-mini") == (0.40, 1.60)
    assert price_for("openai:gpt-4.1-mini-2025-04-14") == (0.40, 1.60)
    assert price_for("anthropic:claude-sonnet-4-5-20250929") == (3.00, 15.00)
    assert price_for("openai:llama3.1") is None
    assert estimate_cost("openai:gpt-4.1", 1_000_000, 500_000) == 6.0
    assert estimate_cost("openai:llama3.1", 1000, 1000) == 0.0
    assert estimate_cost("openai:llama3.1", 1_000_000, 0, {"openai:llama3.1": (0.5, 0)}) == 0.5
    assert estimate_cost("openai:gpt-4.1", 1_000_000, 0, {"gpt-4.1": (1.0, 1.0)}) == 1.0


def test_a_registered_vendor_and_search_are_built_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deepresearch.providers import registry
    from deepresearch.testing import FunctionLLM, StaticSearch

    monkeypatch.setattr(registry, "_LLMS", dict(registry._LLMS))
    monkeypatch.setattr(registry, "_SEARCHES", dict(registry._SEARCHES))
    monkeypatch.setattr(registry, "_NAMED_MODELS", set(registry._NAMED_MODELS))
    built: list[str] = []

    def echo(model: str, config: Config, environ: object) -> FunctionLLM:
        built.append(model)
        return FunctionLLM(name=f"echo:{model}")

    registry.register_llm("echo", echo)
    registry.register_search("notes", lambda config, env: StaticSearch([], name="notes"))

    assert build_llm("echo:small", Config()).name == "echo:small" and built == ["small"]
    with pytest.raises(ConfigError, match="names no model"):
        build_llm("echo", Config())
    assert "notes" in registry.search_names()
    assert build_search(Config(search=["notes"])).name == "notes"
    with pytest.raises(ConfigError, match="registered: anthropic, echo, offline, openai"):
        build_llm("nope:x", Config())
