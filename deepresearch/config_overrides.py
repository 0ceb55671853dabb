"""Every :class:`~deepresearch.config.Config` field as a keyword argument that IDEs and type
checkers know: ``Session(question, **overrides)`` and ``research(question, **overrides)``
take them as ``**overrides: Unpack[ConfigOverrides]``.

The keys that ``Session`` and ``research`` name explicitly (``llm``, ``search``,
``corpus``, ``max_iterations``, ``max_sub_queries``, ``enable_clarification``,
``persist``) are left out here. ``tests/test_config.py`` checks that this dict and those
parameters cover exactly Config's keys (:func:`~deepresearch.config.flat_fields`), with
the same types, so it cannot drift; the descriptions are Config's own
(docs/configuration.md has the defaults).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Literal, TypedDict

from deepresearch.config import MCPServerSpec

# Config keys that Session() and research() take as named parameters.
NAMED_PARAMETERS = frozenset(
    {"llm", "search", "corpus", "max_iterations", "max_sub_queries", "enable_clarification",
     "persist"}
)  # fmt: skip


class ConfigOverrides(TypedDict, total=False):
    """Any config key not named explicitly by ``Session``/``research``, by its flat name,
    grouped as Config's sections (``# -- loop`` keys live in ``config.loop``)."""

    # -- models (ModelSettings)
    role_models: dict[str, str]
    """Model spec per role (research, summarization, compression, reflection, supervision,
    brief, clarification, report, planner, analyzer, refiner, verifier)."""
    role_fallbacks: dict[str, list[str]]
    """Extra model specs tried in order when a role's model is unavailable."""
    role_temperature: dict[str, float]
    role_max_tokens: dict[str, int]
    openai_base_url: str | None
    anthropic_base_url: str | None
    structured_output: str
    """'auto' (native where supported), 'native', or 'prompt' (parse text)."""
    max_repair_attempts: int
    today: date | None
    """The date every prompt gives as today (YYYY-MM-DD); unset: the real date."""
    price_overrides: dict[str, tuple[float, float]]
    """USD per million (input, output) tokens by model."""

    # -- calls (CallSettings)
    provider_max_concurrency: int
    provider_requests_per_minute: float | None
    max_retries: int
    retry_base_delay_s: float
    retry_max_delay_s: float
    token_limit_max_retries: int
    token_limit_cut_fraction: float

    # -- search_providers (SearchSettings)
    search_mode: Literal["fallback", "merge"]
    """How several `search` providers combine: 'fallback' (the first that answers) or
    'merge' (ask all, fuse by reciprocal rank, drop duplicates)."""
    auto_duckduckgo: bool
    """Let 'auto' add DuckDuckGo (no key; needs the web extra) when no keyed web search is
    set. Off by default: the default run stays offline."""
    mcp_servers: dict[str, MCPServerSpec]
    """MCP servers usable as search providers: search=['mcp:NAME']."""

    # -- tavily (TavilySettings)
    tavily_base_url: str | None
    tavily_search_depth: str
    tavily_topic: str
    tavily_include_raw_content: bool
    tavily_include_domains: list[str]
    tavily_exclude_domains: list[str]

    # -- search_apis (SearchAPISettings)
    semantic_scholar_base_url: str | None
    openalex_base_url: str | None
    arxiv_base_url: str | None
    crossref_base_url: str | None
    polite_pool_email: str | None
    """Your email for the OpenAlex and Crossref polite pools (mailto)."""
    google_base_url: str | None
    google_engine_id: str | None
    """Programmable Search Engine id (cx)."""
    searxng_base_url: str | None
    """Your SearxNG instance (JSON format enabled), e.g. http://localhost:8888."""
    duckduckgo_base_url: str | None
    duckduckgo_region: str

    # -- pages (PageSettings)
    page_max_bytes: int
    """Largest page extract reads."""
    page_timeout_s: float
    """Time limit for one page fetch."""
    respect_robots_txt: bool
    """Skip pages robots.txt disallows."""
    allow_private_urls: bool
    """Let fetch/extract reach loopback, private and link-local hosts (see
    deepresearch.urls); off by default."""

    # -- local_corpus (CorpusSettings)
    corpus_index: Path | None
    """Where the corpus index lives; default beside the store."""
    corpus_follow_symlinks: bool
    """Index files that symlinks in the corpus folder point to outside it."""
    corpus_max_file_bytes: int
    """Corpus files larger than this are skipped with a reason."""

    # -- loop (LoopSettings)
    max_total_sub_queries: int
    """Cap on sub-queries across planning, supervision and refinement."""
    max_sources_per_query: int
    plan_scout_results: int
    """A scout search before planning shows the planner what exists."""
    enable_brief: bool
    max_question_chars: int
    max_cost_usd: float | None
    """Stop before an LLM call whose estimated price would take the run's spend past this
    (USD); the report then covers what was gathered."""

    # -- gathering (GatheringSettings)
    max_concurrent_research_units: int
    topic_max_tool_calls: int
    enable_extract: bool
    extract_max_per_iteration: int
    novelty_related_threshold: float
    novelty_duplicate_threshold: float

    # -- summaries (SummarySettings)
    fetch_time_summarization: bool
    summarization_min_chars: int
    summarization_timeout_s: float
    summarization_max_input_chars: int
    inline_compression: bool
    enable_compression: bool
    compression_timeout_s: float

    # -- supervision (SupervisionSettings)
    enable_supervision: bool
    delegation_model: bool
    max_supervision_rounds: int
    supervision_min_sources_per_query: int
    coverage_confidence_threshold: float
    coverage_weights: dict[str, float]
    supervision_message_budget_tokens: int
    supervision_reasoning_share: float
    preserve_last_n_thinks: int

    # -- verification (VerificationSettings)
    verify_claims: bool
    """Check each cited report sentence against its cited sources."""
    unsupported_claims: Literal["flag", "remove"]
    """What to do with unsupported claims in the report."""
    verify_support_threshold: float
    """Offline check: support score for 'supported'."""
    verify_partial_threshold: float
    """Offline check: support score for 'partial'."""

    # -- timeouts (TimeoutSettings)
    task_timeout_s: float | None
    operation_timeout_s: float
    attempt_timeout_s: float | None
    phase_timeouts_s: dict[str, float]

    # -- tokens (TokenSettings)
    token_management_enabled: bool
    token_safety_margin: float
    runtime_overhead: int
    """Tokens reserved outside research content (Direct API: 10000)."""
    model_context_overrides: dict[str, int]
    summarization_cache_enabled: bool
    allow_content_dropping: bool
    content_archive_enabled: bool
    content_archive_ttl_hours: float
    research_archive_dir: Path | None

    # -- storage (StorageSettings)
    store_path: Path | None
    """SQLite file for sessions; default ~/.deepresearch/sessions.db."""
