"""Turn model specs and search names into providers. Vendor SDKs are imported lazily."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from deepresearch.config import Config
from deepresearch.errors import ConfigError, MissingExtraError, ProviderUnavailableError
from deepresearch.providers.base import LLMProvider, SearchProvider

OFFLINE = "offline"


# Factories by vendor ("openai" in "openai:gpt-4.1-mini") and by search name; the built-in
# ones are registered at the end of this module, yours with register_llm / register_search.
LLMFactory = Callable[[str, Config, Mapping[str, str] | None], LLMProvider]
SearchFactory = Callable[[Config, Mapping[str, str]], SearchProvider]
_LLMS: dict[str, LLMFactory] = {}
_SEARCHES: dict[str, SearchFactory] = {}
# Vendors that need a model name after the colon.
_NAMED_MODELS: set[str] = set()
# Spec prefixes the test doubles use as names ("test:function"); they build no provider.
_DOUBLES = "test"


def register_llm(vendor: str, factory: LLMFactory, *, needs_model: bool = True) -> None:
    """Make ``"<vendor>:<model>"`` specs build ``factory(model, config, environ)``, e.g. a
    provider for a vendor this package does not ship. Registering a vendor again replaces it."""
    _LLMS[vendor.lower()] = factory
    if needs_model:
        _NAMED_MODELS.add(vendor.lower())
    else:
        _NAMED_MODELS.discard(vendor.lower())


def register_search(name: str, factory: SearchFactory) -> None:
    """Make ``name`` in ``Config.search`` build ``factory(config, environ)``."""
    _SEARCHES[name] = factory


def search_names() -> frozenset[str]:
    """Every name Config.search accepts (besides 'mcp:NAME')."""
    return frozenset({"auto", *_SEARCHES})


def parse_spec(spec: str) -> tuple[str, str]:
    """'openai:gpt-4.1-mini' -> ('openai', 'gpt-4.1-mini'); 'offline' -> ('offline', '')."""
    text = spec.strip()
    if not text:
        raise ConfigError("Empty model spec. Use 'offline', 'openai:MODEL' or 'anthropic:MODEL'.")
    vendor, _, model = text.partition(":")
    vendor = vendor.lower()
    if vendor not in _LLMS and vendor != _DOUBLES:
        raise ConfigError(
            f"Unknown model vendor {vendor!r} in {spec!r}. "
            "Use 'offline', 'openai:MODEL' (also Ollama/vLLM via openai_base_url) or "
            f"'anthropic:MODEL' (registered: {', '.join(sorted(_LLMS))})."
        )
    if vendor in _NAMED_MODELS and not model:
        raise ConfigError(f"Model spec {spec!r} names no model, e.g. '{vendor}:<model>'.")
    return vendor, model


def resolve_llm_spec(config: Config, environ: Mapping[str, str] | None = None) -> str:
    """'auto' picks a vendor whose key is set, else the offline engine."""
    env = os.environ if environ is None else environ
    if config.models.llm != "auto":
        return config.models.llm
    if env.get("OPENAI_API_KEY"):
        return "openai:gpt-4.1-mini"
    if env.get("ANTHROPIC_API_KEY"):
        return "anthropic:claude-sonnet-4-5"
    return OFFLINE


def build_llm(
    spec: str, config: Config, *, environ: Mapping[str, str] | None = None
) -> LLMProvider:
    """The provider for a spec; keys come from ``environ`` (default: os.environ)."""
    vendor, model = parse_spec(spec)
    factory = _LLMS.get(vendor)
    if factory is None:
        raise ProviderUnavailableError(f"No provider for spec {spec!r}.", provider=spec)
    return factory(model, config, environ)


# Main model family -> the small model cheap roles (summarization, compression, reflection,
# supervision) use unless Config.role_models names one. Longest prefix wins.
CHEAP_MODELS: dict[str, dict[str, str]] = {
    "openai": {
        "gpt-4.1": "gpt-4.1-mini",
        "gpt-4.1-nano": "gpt-4.1-nano",
        "gpt-4o": "gpt-4o-mini",
        "gpt-5": "gpt-5-mini",
        "gpt-5-nano": "gpt-5-nano",
        "o1": "o4-mini",
        "o3": "o4-mini",
    },
    "anthropic": {"claude-": "claude-haiku-4-5", "claude-3": "claude-3-5-haiku-latest"},
}


def cheap_spec_for(spec: str) -> str | None:
    """The small model cheap roles use by default when the main model is a vendor's.

    None for the offline engine, unknown families and small models themselves (so a local
    server's model, e.g. ``openai:llama3.1``, is never swapped for one it does not serve).
    """
    vendor, model = parse_spec(spec)
    table = CHEAP_MODELS.get(vendor, {})
    prefixes = [p for p in table if model.startswith(p)]
    if not prefixes or "haiku" in model or model.endswith(("-mini", "-nano")):
        return None
    cheap = table[max(prefixes, key=len)]
    return None if cheap == model else f"{vendor}:{cheap}"


def build_search(config: Config, environ: Mapping[str, str] | None = None) -> SearchProvider:
    """The ordered search providers of config.search, with fallback between them."""
    from deepresearch.providers.fallback import FallbackSearch

    env = os.environ if environ is None else environ
    providers: list[SearchProvider] = []
    problems: list[str] = []
    for name in config.search_providers.search:
        for candidate in _expand_auto(name, config, env):
            try:
                providers.append(_build_one_search(candidate, config, env))
            except (ProviderUnavailableError, MissingExtraError) as exc:
                problems.append(f"{candidate}: {exc}")
    if not providers:
        from deepresearch.errors import CorpusError

        raise CorpusError(_no_search_message(problems))
    if len(providers) == 1:
        return providers[0]
    if config.search_providers.search_mode == "merge":
        from deepresearch.providers.merged import MergedSearch

        return MergedSearch(providers)
    return FallbackSearch(providers)


def _no_search_message(problems: list[str]) -> str:
    """What each provider said, then only the advice none of them gave already."""
    said = " ".join(problems)
    advice = [
        tip
        for marker, tip in (
            ("pip install", "install the demo corpus: pip install 'deepresearch-sdk[demo]'"),
            ("--corpus", "pass --corpus DIR (Config(corpus=...)) to search your own files"),
            ("TAVILY_API_KEY", "set TAVILY_API_KEY for web search"),
        )
        if marker not in said
    ]
    tail = f" Or {'; or '.join(advice)}." if advice else ""
    return f"No search provider is available. {said}{tail}"


def _expand_auto(name: str, config: Config, env: Mapping[str, str]) -> list[str]:
    """'auto': the web searches you set up (Tavily or Google with a key, your SearxNG;
    DuckDuckGo when auto_duckduckgo is on and none is), then your corpus, else demo."""
    if name != "auto":
        return [name]
    names = ["tavily"] if env.get("TAVILY_API_KEY") or config.tavily.tavily_base_url else []
    names += _auto_web_search(config, env)
    if config.local_corpus.corpus is not None:
        names.append("corpus")
    return names or ["demo"]


def _auto_web_search(config: Config, env: Mapping[str, str]) -> list[str]:
    names = ["google"] if env.get("GOOGLE_API_KEY") and config.search_apis.google_engine_id else []
    if config.search_apis.searxng_base_url:
        names.append("searxng")
    if config.search_providers.auto_duckduckgo and not names and not env.get("TAVILY_API_KEY"):
        names.append("duckduckgo")
    return names


def _build_one_search(name: str, config: Config, env: Mapping[str, str]) -> SearchProvider:
    if name in _SEARCHES:
        return _SEARCHES[name](config, env)
    if name.startswith("mcp:"):
        spec = config.search_providers.mcp_servers.get(name[4:])
        if spec is None:
            raise ConfigError(f"No MCP server {name[4:]!r} in Config.mcp_servers for {name!r}.")
        from deepresearch.mcp.search import MCPSearch

        return MCPSearch(name[4:], spec)
    raise ConfigError(
        f"Unknown search provider {name!r}. Use one of {sorted(search_names())}, or 'mcp:NAME' "
        "(a server in Config.mcp_servers)."
    )


# -- scholarly and web search providers (docs/search-providers.md) ----------------------
def _semantic_scholar(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.semantic_scholar import SemanticScholarSearch

    return SemanticScholarSearch.from_config(config, environ=env)


def _openalex(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.openalex import OpenAlexSearch

    return OpenAlexSearch.from_config(config, environ=env)


def _arxiv(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.arxiv import ArxivSearch

    return ArxivSearch.from_config(config)


def _crossref(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.crossref import CrossrefSearch

    return CrossrefSearch.from_config(config)


def _google(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.google_search import GoogleSearch

    return GoogleSearch.from_config(config, environ=env)


def _searxng(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.searxng import SearxngSearch

    return SearxngSearch.from_config(config)


def _duckduckgo(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.duckduckgo import DuckDuckGoSearch

    return DuckDuckGoSearch.from_config(config)


# -- the built-in providers -------------------------------------------------------------
def _offline(model: str, config: Config, environ: Mapping[str, str] | None) -> LLMProvider:
    from deepresearch.offline import OfflineEngine

    return OfflineEngine()


def _openai(model: str, config: Config, environ: Mapping[str, str] | None) -> LLMProvider:
    from deepresearch.providers.openai_chat import OpenAIChat

    return OpenAIChat.from_config(model, config, environ=environ)


def _anthropic(model: str, config: Config, environ: Mapping[str, str] | None) -> LLMProvider:
    from deepresearch.providers.anthropic_messages import AnthropicMessages

    return AnthropicMessages.from_config(model, config, environ=environ)


def _corpus(config: Config, env: Mapping[str, str]) -> SearchProvider:
    if config.local_corpus.corpus is None:
        raise ProviderUnavailableError("no corpus folder configured", provider="corpus")
    from deepresearch.providers.corpus import CorpusSearch

    return CorpusSearch(
        config.local_corpus.corpus,
        index_path=config.local_corpus.corpus_index,
        follow_symlinks=config.local_corpus.corpus_follow_symlinks,
        max_file_bytes=config.local_corpus.corpus_max_file_bytes,
    )


def _demo(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.demo import demo_corpus

    return demo_corpus(index_dir=config.local_corpus.corpus_index)


def _tavily(config: Config, env: Mapping[str, str]) -> SearchProvider:
    from deepresearch.providers.tavily_search import TavilySearch

    return TavilySearch.from_config(config, environ=env)


register_llm(OFFLINE, _offline, needs_model=False)
register_llm("openai", _openai)
register_llm("anthropic", _anthropic)
for _name, _factory in {
    "corpus": _corpus,
    "demo": _demo,
    "tavily": _tavily,
    # docs/search-providers.md
    "semantic_scholar": _semantic_scholar,
    "openalex": _openalex,
    "arxiv": _arxiv,
    "crossref": _crossref,
    "google": _google,
    "searxng": _searxng,
    "duckduckgo": _duckduckgo,
}.items():
    register_search(_name, _factory)
