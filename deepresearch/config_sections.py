"""The small typed sections a :class:`~deepresearch.config.Config` is made of.

Each section groups the knobs of one concern (``config.loop.max_iterations``,
``config.timeouts.task_timeout_s``); docs/configuration.md has one table per section. A
knob's name is unique across sections, so flat keys (``max_iterations=2``,
``DEEPRESEARCH_MAX_ITERATIONS``) still say which section they belong to.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from deepresearch.errors import ConfigError
from deepresearch.state.models import AgentRole, Phase

# Role names as role_models / role_fallbacks / role_temperature / role_max_tokens keys, and
# phase names as phase_timeouts_s keys (a typo would otherwise be silently ignored).
ROLE_NAMES = tuple(role.value for role in AgentRole)
PHASE_NAMES = tuple(phase.value for phase in Phase if phase is not Phase.DONE)
COVERAGE_FACTORS = ("source_adequacy", "domain_diversity", "completion_rate")


def describe_invalid(exc: ValidationError) -> str:
    """The ConfigError message for a pydantic ValidationError: each bad key (as
    ``section.key``) and why.

    Args:
        exc: the error pydantic raised while validating config values.
    """
    problems = "; ".join(_problem(e["loc"], e["msg"]) for e in exc.errors())
    return f"{_INVALID}{problems}.{_SEE_DOCS}"


_INVALID = "Invalid config: "
_SEE_DOCS = " See docs/configuration.md for allowed values."


def _problem(loc: tuple[int | str, ...], msg: str) -> str:
    msg = msg.removeprefix("Value error, ")
    if msg.startswith(_INVALID) and msg.endswith(_SEE_DOCS):
        # A section's own ConfigError, met while Config validates: it already names its
        # keys (unique across sections), so say it once, not wrapped in a second one.
        return msg[len(_INVALID) : -len(_SEE_DOCS)].rstrip(".")
    return (f"{'.'.join(str(p) for p in loc)}: " if loc else "") + msg.rstrip(".")


class ConfigSection(BaseModel):
    """Base of every section: unknown keys and bad values, also assigned ones, are a
    :class:`~deepresearch.errors.ConfigError`.

    Args:
        **data: the section's keys (see each section's fields).
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ConfigError(describe_invalid(exc)) from None

    def __setattr__(self, name: str, value: Any) -> None:
        try:
            super().__setattr__(name, value)
        except ValidationError as exc:
            raise ConfigError(describe_invalid(exc)) from None

    def set_values(self) -> dict[str, Any]:
        """The keys explicitly set on this section (not defaults), with their values."""
        return {name: getattr(self, name) for name in self.model_fields_set}

    @model_validator(mode="before")
    @classmethod
    def _usable_paths_and_urls(cls, data: Any) -> Any:
        """Path("") is ".": an empty path (``--set corpus=``, an unset shell variable)
        would silently mean the working folder, so it is refused; so is a base URL that is
        not http(s), and True or False for a number."""
        if isinstance(data, Mapping):
            for key, value in data.items():
                field = cls.model_fields.get(key)
                kinds = (field.annotation, *get_args(field.annotation)) if field else ()
                if isinstance(value, bool) and bool not in kinds and {int, float} & set(kinds):
                    # bool is an int to Python: max_iterations=True would mean 1
                    raise ValueError(f"{key} takes a number, not {value}")
                if (
                    field is not None
                    and Path in (field.annotation, *get_args(field.annotation))
                    and isinstance(value, str)
                    and not value.strip()
                ):
                    raise ValueError(f"{key} is an empty path; give a path, or leave it unset")
                if (
                    key.endswith("_base_url")
                    and isinstance(value, str)
                    and not value.strip().lower().startswith(("http://", "https://"))
                ):  # without a scheme every call fails, after its retries, as unreachable
                    raise ValueError(
                        f"{key} must be an http(s) URL, e.g. http://localhost:11434/v1; got "
                        f"{value!r:.60}"
                    )
        return data


class MCPServerSpec(BaseModel):
    """An MCP server whose search-like tool is a search provider (``search="mcp:NAME"``).

    Args:
        command: launch the server over stdio with this command (+ ``args``, ``env``,
            ``cwd``); or
        url: reach it over streamable HTTP (exactly one of ``command`` and ``url``).
        tool: the tool to call; default: one named *search*.
        query_argument: the tool argument that takes the query; default: from its schema.
    """

    model_config = ConfigDict(extra="forbid")

    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict, repr=False)  # may hold keys: never shown
    cwd: Path | None = None
    url: str | None = None
    tool: str | None = Field(None, description="The tool to call; default: one named *search*.")
    query_argument: str | None = Field(
        None, description="The tool argument that takes the query; default: from its schema."
    )

    @model_validator(mode="after")
    def _one_transport(self) -> MCPServerSpec:
        if (self.command is None) == (self.url is None):
            raise ValueError("an MCP server needs exactly one of 'command' or 'url'")
        return self


class ModelSettings(ConfigSection):
    """``models``: which LLM serves each role and how its answers are read."""

    llm: str = Field(
        "auto",
        description="Default model spec: 'auto' (a vendor whose key is set, else offline), "
        "'offline', 'openai:MODEL', 'anthropic:MODEL'.",
    )
    role_models: dict[str, str] = Field(
        default_factory=dict,
        description="Model spec per role (research, summarization, compression, reflection, "
        "supervision, brief, clarification, report, planner, analyzer, refiner, verifier).",
    )
    role_fallbacks: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Extra model specs tried in order when a role's model is unavailable.",
    )
    role_temperature: dict[str, float] = Field(default_factory=dict)
    role_max_tokens: dict[str, int] = Field(default_factory=dict)
    openai_base_url: str | None = None
    anthropic_base_url: str | None = None
    structured_output: str = Field(
        "auto", description="'auto' (native where supported), 'native', or 'prompt' (parse text)."
    )
    max_repair_attempts: int = Field(3, ge=0, le=10)
    today: date | None = Field(
        None,
        description="The date every prompt gives as today (YYYY-MM-DD); unset: the real date.",
    )
    price_overrides: dict[str, tuple[float, float]] = Field(
        default_factory=dict, description="USD per million (input, output) tokens by model."
    )

    @model_validator(mode="after")
    def _known_roles(self) -> ModelSettings:
        if self.structured_output not in {"auto", "native", "prompt"}:
            raise ValueError("structured_output must be 'auto', 'native' or 'prompt'")
        for knob in ("role_models", "role_fallbacks", "role_temperature", "role_max_tokens"):
            unknown = set(getattr(self, knob)) - set(ROLE_NAMES)
            if unknown:
                raise ValueError(
                    f"{knob} has unknown roles: {sorted(unknown)}; use one of {list(ROLE_NAMES)}"
                )
        for role, spec in self.role_models.items():
            if not spec.strip():
                raise ValueError(f"role_models.{role} is empty; give a model spec or drop it")
        return self


class CallSettings(ConfigSection):
    """``calls``: concurrency, rate limits and retries of provider calls."""

    provider_max_concurrency: int = Field(4, ge=1)
    provider_requests_per_minute: float | None = Field(None, gt=0)
    max_retries: int = Field(3, ge=0, le=10)
    retry_base_delay_s: float = Field(1.0, ge=0)
    retry_max_delay_s: float = Field(30.0, ge=0)
    token_limit_max_retries: int = Field(3, ge=0, le=10)
    token_limit_cut_fraction: float = Field(0.10, gt=0, lt=1)


class SearchSettings(ConfigSection):
    """``search_providers``: which search providers run and how several combine."""

    search: list[str] = Field(
        default_factory=lambda: ["auto"],
        description="Search providers: 'auto', 'tavily', 'corpus', 'demo', 'semantic_scholar', "
        "'openalex', 'arxiv', 'crossref', 'google', 'searxng', 'duckduckgo' (see search_mode).",
    )
    search_mode: Literal["fallback", "merge"] = Field(
        "fallback",
        description="How several `search` providers combine: 'fallback' (the first that "
        "answers) or 'merge' (ask all, fuse by reciprocal rank, drop duplicates).",
    )
    auto_duckduckgo: bool = Field(
        False,
        description="Let 'auto' add DuckDuckGo (no key; needs the web extra) when no keyed "
        "web search is set. Off by default: the default run stays offline.",
    )
    mcp_servers: dict[str, MCPServerSpec] = Field(
        default_factory=dict,
        description="MCP servers usable as search providers: search=['mcp:NAME'].",
    )

    @model_validator(mode="after")
    def _named_mcp_servers_exist(self) -> SearchSettings:
        if not self.search or not all(spec.strip() for spec in self.search):
            raise ValueError(
                f"search names no provider ({self.search!r}); name one or more, e.g. "
                "['auto'] (the default), ['demo'] or ['corpus']"
            )
        for spec in self.search:
            if spec.startswith("mcp:") and spec[4:] not in self.mcp_servers:
                raise ValueError(
                    f"search {spec!r} names no configured MCP server; add "
                    f"[deepresearch.mcp_servers.{spec[4:] or 'NAME'}] with a command or url"
                )
        return self


class TavilySettings(ConfigSection):
    """``tavily``: options of the Tavily search API."""

    tavily_base_url: str | None = None
    tavily_search_depth: str = "basic"
    tavily_topic: str = "general"
    tavily_include_raw_content: bool = False
    tavily_include_domains: list[str] = Field(default_factory=list)
    tavily_exclude_domains: list[str] = Field(default_factory=list)


class SearchAPISettings(ConfigSection):
    """``search_apis``: endpoints and options of the scholarly and web search APIs."""

    semantic_scholar_base_url: str | None = None
    openalex_base_url: str | None = None
    arxiv_base_url: str | None = None
    crossref_base_url: str | None = None
    polite_pool_email: str | None = Field(
        None, description="Your email for the OpenAlex and Crossref polite pools (mailto)."
    )
    google_base_url: str | None = None
    google_engine_id: str | None = Field(None, description="Programmable Search Engine id (cx).")
    searxng_base_url: str | None = Field(
        None, description="Your SearxNG instance (JSON format enabled), e.g. http://localhost:8888."
    )
    duckduckgo_base_url: str | None = None
    duckduckgo_region: str = "us-en"


class PageSettings(ConfigSection):
    """``pages``: fetching a page's full text (extract) directly from the web."""

    page_max_bytes: int = Field(5_000_000, ge=1000, description="Largest page extract reads.")
    page_timeout_s: float = Field(20.0, gt=0, description="Time limit for one page fetch.")
    respect_robots_txt: bool = Field(True, description="Skip pages robots.txt disallows.")
    allow_private_urls: bool = Field(
        False,
        description="Let fetch/extract reach loopback, private and link-local hosts "
        "(see deepresearch.urls); off by default.",
    )


class CorpusSettings(ConfigSection):
    """``local_corpus``: searching a folder of your own documents."""

    corpus: Path | None = Field(None, description="Folder of your documents to search offline.")
    corpus_index: Path | None = Field(
        None, description="Where the corpus index lives; default beside the store."
    )
    corpus_follow_symlinks: bool = Field(
        False, description="Index files that symlinks in the corpus folder point to outside it."
    )
    corpus_max_file_bytes: int = Field(
        20_000_000, ge=1, description="Corpus files larger than this are skipped with a reason."
    )


class LoopSettings(ConfigSection):
    """``loop``: how much research a run does: iterations, sub-queries, sources, cost."""

    max_iterations: int = Field(3, ge=1, le=20)
    max_sub_queries: int = Field(5, ge=2, le=20, description="Planner's sub-query limit.")
    max_total_sub_queries: int = Field(
        20, ge=2, description="Cap on sub-queries across planning, supervision and refinement."
    )
    max_sources_per_query: int = Field(5, ge=1, le=50)
    plan_scout_results: int = Field(
        8, ge=0, description="A scout search before planning shows the planner what exists."
    )
    enable_clarification: bool = True
    enable_brief: bool = True
    max_question_chars: int = Field(4000, ge=10)
    max_cost_usd: float | None = Field(
        None,
        gt=0,
        description="Stop before an LLM call whose estimated price would take the run's "
        "spend past this (USD); the report then covers what was gathered.",
    )


class GatheringSettings(ConfigSection):
    """``gathering``: the topic researchers: parallelism, tool calls, extracts, novelty."""

    max_concurrent_research_units: int = Field(5, ge=1)
    topic_max_tool_calls: int = Field(10, ge=1)
    enable_extract: bool = True
    extract_max_per_iteration: int = Field(2, ge=0, le=10)
    novelty_related_threshold: float = Field(0.3, ge=0, le=1)
    novelty_duplicate_threshold: float = Field(0.7, ge=0, le=1)

    @model_validator(mode="after")
    def _ordered_thresholds(self) -> GatheringSettings:
        if self.novelty_related_threshold > self.novelty_duplicate_threshold:
            raise ValueError(
                "novelty_related_threshold must not exceed novelty_duplicate_threshold"
            )
        return self


class SummarySettings(ConfigSection):
    """``summaries``: summarising sources when fetched and compressing finished topics."""

    fetch_time_summarization: bool = True
    summarization_min_chars: int = Field(300, ge=0)
    summarization_timeout_s: float = Field(60.0, gt=0)
    summarization_max_input_chars: int = Field(50_000, ge=1000)
    inline_compression: bool = True
    enable_compression: bool = True
    compression_timeout_s: float = Field(120.0, gt=0)


class SupervisionSettings(ConfigSection):
    """``supervision``: coverage assessment and delegation between gathering and analysis."""

    enable_supervision: bool = True
    delegation_model: bool = True
    max_supervision_rounds: int = Field(6, ge=0)
    supervision_min_sources_per_query: int = Field(2, ge=1)
    coverage_confidence_threshold: float = Field(0.75, ge=0, le=1)
    coverage_weights: dict[str, float] = Field(
        default_factory=lambda: {
            "source_adequacy": 0.4,
            "domain_diversity": 0.2,
            "completion_rate": 0.4,
        }
    )
    supervision_message_budget_tokens: int = Field(6000, ge=200)
    supervision_reasoning_share: float = Field(0.6, gt=0, lt=1)
    preserve_last_n_thinks: int = Field(2, ge=0)

    @model_validator(mode="after")
    def _usable_weights(self) -> SupervisionSettings:
        weights = self.coverage_weights
        unknown = set(weights) - set(COVERAGE_FACTORS)
        if unknown:
            raise ValueError(f"coverage_weights has unknown factors: {sorted(unknown)}")
        bad = {k: v for k, v in weights.items() if not (math.isfinite(v) and v >= 0)}
        if bad:
            raise ValueError(f"coverage_weights must be finite and >= 0, got {bad}")
        if weights and not sum(weights.values()) > 0:
            raise ValueError("coverage_weights must not all be 0")
        return self


class VerificationSettings(ConfigSection):
    """``verification``: checking the report's cited claims against their sources."""

    verify_claims: bool = Field(
        True, description="Check each cited report sentence against its cited sources."
    )
    unsupported_claims: Literal["flag", "remove"] = Field(
        "flag", description="What to do with unsupported claims in the report."
    )
    verify_support_threshold: float = Field(
        0.6, ge=0, le=1, description="Offline check: support score for 'supported'."
    )
    verify_partial_threshold: float = Field(
        0.35, ge=0, le=1, description="Offline check: support score for 'partial'."
    )

    @model_validator(mode="after")
    def _ordered_thresholds(self) -> VerificationSettings:
        if self.verify_partial_threshold > self.verify_support_threshold:
            raise ValueError("verify_partial_threshold must not exceed verify_support_threshold")
        return self


class TimeoutSettings(ConfigSection):
    """``timeouts``: time limits (seconds) for the run, each phase and each call."""

    task_timeout_s: float | None = Field(3600.0, gt=0)
    operation_timeout_s: float = Field(120.0, gt=0)
    # One HTTP attempt of an LLM call; timed-out attempts are retried with backoff within
    # the whole call's limit. None: half the call's limit, so one retry always fits.
    attempt_timeout_s: float | None = Field(None, gt=0)
    phase_timeouts_s: dict[str, float] = Field(
        default_factory=lambda: {
            "clarification": 120.0,
            "brief": 120.0,
            "planning": 300.0,
            "gathering": 900.0,
            "supervision": 300.0,
            "analysis": 600.0,
            "synthesis": 600.0,
            "verification": 300.0,
            "refinement": 300.0,
        }
    )

    @model_validator(mode="after")
    def _known_phases(self) -> TimeoutSettings:
        unknown = set(self.phase_timeouts_s) - set(PHASE_NAMES)
        if unknown:
            raise ValueError(f"phase_timeouts_s has unknown phases: {sorted(unknown)}")
        bad = {k: v for k, v in self.phase_timeouts_s.items() if not (math.isfinite(v) and v > 0)}
        if bad:  # a phase given 0 or less would time out at once, every run
            raise ValueError(f"phase_timeouts_s must be > 0 seconds, got {bad}")
        return self


class TokenSettings(ConfigSection):
    """``tokens``: fitting sources and findings into each model's context window."""

    token_management_enabled: bool = True
    token_safety_margin: float = Field(0.15, ge=0, lt=1)
    runtime_overhead: int = Field(
        10000, ge=0, description="Tokens reserved outside research content (Direct API: 10000)."
    )
    model_context_overrides: dict[str, int] = Field(default_factory=dict)
    summarization_cache_enabled: bool = True
    allow_content_dropping: bool = False
    content_archive_enabled: bool = False
    content_archive_ttl_hours: float = Field(168.0, gt=0)
    research_archive_dir: Path | None = None


class StorageSettings(ConfigSection):
    """``storage``: where and whether sessions are saved."""

    store_path: Path | None = Field(
        None, description="SQLite file for sessions; default ~/.deepresearch/sessions.db."
    )
    persist: bool = Field(True, description="Save sessions, checkpoints and events to the store.")
