"""One Config model. Precedence: explicit arguments (including the fields explicitly set
on a passed Config) > DEEPRESEARCH_* environment > config file (deepresearch.toml or
[tool.deepresearch] in pyproject.toml) > defaults. :meth:`Config.layered` applies it.

Every field changes behaviour; docs/configuration.md lists each with its default.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import tomllib
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from deepresearch.errors import ConfigError
from deepresearch.state.models import AgentRole

ENV_PREFIX = "DEEPRESEARCH_"


def default_home() -> Path:
    env = os.environ.get("DEEPRESEARCH_HOME")
    return Path(env).expanduser() if env else Path.home() / ".deepresearch"


class MCPServerSpec(BaseModel):
    """An MCP server whose search-like tool is a search provider (``search="mcp:NAME"``).
    Either ``command`` (+ ``args``, ``env``, ``cwd``: launched over stdio) or ``url``
    (streamable HTTP)."""

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


class Config(BaseModel):
    """Every knob in one model; docs/configuration.md lists each with its default.

    ``Config(**data)`` holds exactly what you pass (a bad key or value is a
    :class:`~deepresearch.errors.ConfigError`). Given to a Session, only the fields you set
    explicitly override the environment and the config file; the rest fall through.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=False)

    def __init__(self, **data: Any) -> None:
        _check_keys(data)
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ConfigError(_describe(exc)) from None

    def __setattr__(self, name: str, value: Any) -> None:
        if name in type(self).model_fields:
            try:
                super().__setattr__(name, value)
            except ValidationError as exc:
                raise ConfigError(_describe(exc)) from None
        else:
            if not name.startswith("_"):
                _check_keys({name: value})
            super().__setattr__(name, value)

    # -- providers -------------------------------------------------------------------
    llm: str = Field(
        "auto",
        description="Default model spec: 'auto' (a vendor whose key is set, else offline), "
        "'offline', 'openai:MODEL', 'anthropic:MODEL'.",
    )
    search: list[str] = Field(
        default_factory=lambda: ["auto"],
        description="Search providers: 'auto', 'tavily', 'corpus', 'demo', 'semantic_scholar', "
        "'openalex', 'arxiv', 'crossref', 'google', 'searxng', 'duckduckgo' (see search_mode).",
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
    tavily_base_url: str | None = None
    tavily_search_depth: str = "basic"
    tavily_topic: str = "general"
    tavily_include_raw_content: bool = False
    tavily_include_domains: list[str] = Field(default_factory=list)
    tavily_exclude_domains: list[str] = Field(default_factory=list)
    # -- more search providers and direct pages (docs/search-providers.md) ------------
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
    page_max_bytes: int = Field(5_000_000, ge=1000, description="Largest page extract reads.")
    page_timeout_s: float = Field(20.0, gt=0, description="Time limit for one page fetch.")
    respect_robots_txt: bool = Field(True, description="Skip pages robots.txt disallows.")
    structured_output: str = Field(
        "auto", description="'auto' (native where supported), 'native', or 'prompt' (parse text)."
    )
    max_repair_attempts: int = Field(3, ge=0, le=10)
    today: date | None = Field(
        None,
        description="The date every prompt gives as today (YYYY-MM-DD); unset: the real date.",
    )
    provider_max_concurrency: int = Field(4, ge=1)
    provider_requests_per_minute: float | None = Field(None, gt=0)
    max_retries: int = Field(3, ge=0, le=10)
    retry_base_delay_s: float = Field(1.0, ge=0)
    retry_max_delay_s: float = Field(30.0, ge=0)
    token_limit_max_retries: int = Field(3, ge=0, le=10)
    token_limit_cut_fraction: float = Field(0.10, gt=0, lt=1)
    price_overrides: dict[str, tuple[float, float]] = Field(
        default_factory=dict, description="USD per million (input, output) tokens by model."
    )

    mcp_servers: dict[str, MCPServerSpec] = Field(
        default_factory=dict,
        description="MCP servers usable as search providers: search=['mcp:NAME'].",
    )

    # -- local corpus ----------------------------------------------------------------
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

    # -- the loop (defaults from the seeds) ------------------------------------------
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

    # -- topic researchers -----------------------------------------------------------
    max_concurrent_research_units: int = Field(5, ge=1)
    topic_max_tool_calls: int = Field(10, ge=1)
    enable_extract: bool = True
    extract_max_per_iteration: int = Field(2, ge=0, le=10)
    allow_private_urls: bool = Field(
        False,
        description="Let fetch/extract reach loopback, private and link-local hosts "
        "(see deepresearch.urls); off by default.",
    )
    fetch_time_summarization: bool = True
    summarization_min_chars: int = Field(300, ge=0)
    summarization_timeout_s: float = Field(60.0, gt=0)
    summarization_max_input_chars: int = Field(50_000, ge=1000)
    novelty_related_threshold: float = Field(0.3, ge=0, le=1)
    novelty_duplicate_threshold: float = Field(0.7, ge=0, le=1)
    inline_compression: bool = True
    enable_compression: bool = True
    compression_timeout_s: float = Field(120.0, gt=0)

    # -- supervision -----------------------------------------------------------------
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

    # -- claim verification (after synthesis) ----------------------------------------
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

    # -- timeouts (seconds) ----------------------------------------------------------
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

    # -- token management (seeds: Token Management) ----------------------------------
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

    # -- persistence -----------------------------------------------------------------
    store_path: Path | None = Field(
        None, description="SQLite file for sessions; default ~/.deepresearch/sessions.db."
    )
    persist: bool = Field(True, description="Save sessions, checkpoints and events to the store.")

    @model_validator(mode="after")
    def _check(self) -> Config:
        if self.novelty_related_threshold > self.novelty_duplicate_threshold:
            raise ValueError(
                "novelty_related_threshold must not exceed novelty_duplicate_threshold"
            )
        for spec in self.search:
            if spec.startswith("mcp:") and spec[4:] not in self.mcp_servers:
                raise ValueError(
                    f"search {spec!r} names no configured MCP server; add "
                    f"[deepresearch.mcp_servers.{spec[4:] or 'NAME'}] with a command or url"
                )
        if self.verify_partial_threshold > self.verify_support_threshold:
            raise ValueError("verify_partial_threshold must not exceed verify_support_threshold")
        if self.structured_output not in {"auto", "native", "prompt"}:
            raise ValueError("structured_output must be 'auto', 'native' or 'prompt'")
        unknown = set(self.phase_timeouts_s) - set(_PHASES)
        if unknown:
            raise ValueError(f"phase_timeouts_s has unknown phases: {sorted(unknown)}")
        for knob in ("role_models", "role_fallbacks", "role_temperature", "role_max_tokens"):
            unknown_r = set(getattr(self, knob)) - set(_ROLES)
            if unknown_r:
                raise ValueError(
                    f"{knob} has unknown roles: {sorted(unknown_r)}; use one of {list(_ROLES)}"
                )
        unknown_w = set(self.coverage_weights) - {
            "source_adequacy",
            "domain_diversity",
            "completion_rate",
        }
        if unknown_w:
            raise ValueError(f"coverage_weights has unknown factors: {sorted(unknown_w)}")
        bad_w = {
            k: v for k, v in self.coverage_weights.items() if not (math.isfinite(v) and v >= 0)
        }
        if bad_w:
            raise ValueError(f"coverage_weights must be finite and >= 0, got {bad_w}")
        if self.coverage_weights and not sum(self.coverage_weights.values()) > 0:
            raise ValueError("coverage_weights must not all be 0")
        return self

    # -- derived ---------------------------------------------------------------------
    def phase_timeout(self, phase: str) -> float:
        """Seconds ``phase`` may take (``phase_timeouts_s``, else ``operation_timeout_s``)."""
        return self.phase_timeouts_s.get(phase, self.operation_timeout_s)

    def resolved_store_path(self) -> Path:
        """``store_path``, or ``sessions.db`` in the deepresearch home folder."""
        return self.store_path or default_home() / "sessions.db"

    def resolved_archive_dir(self) -> Path:
        """``research_archive_dir``, or ``archive`` in the deepresearch home folder."""
        return self.research_archive_dir or default_home() / "archive"

    # -- loading ---------------------------------------------------------------------
    @classmethod
    def load(
        cls,
        *,
        file: str | Path | None = None,
        env: dict[str, str] | None = None,
        **overrides: Any,
    ) -> Config:
        """Build a Config from defaults < file < environment < ``overrides`` (highest wins).

        ``file`` defaults to ``deepresearch.toml`` (or ``[tool.deepresearch]`` in
        ``pyproject.toml``) in the working directory; ``env`` to ``os.environ``. An override
        of ``None`` means "not given" and falls through.
        """
        return cls.layered(None, file=file, env=env, **overrides)

    @classmethod
    def layered(
        cls,
        config: Config | None = None,
        *,
        file: str | Path | None = None,
        env: dict[str, str] | None = None,
        **overrides: Any,
    ) -> Config:
        """The one precedence rule: ``overrides`` > fields explicitly set on ``config``
        (pydantic's ``model_fields_set``) > environment > file > defaults."""
        _check_keys(overrides)
        data: dict[str, Any] = {}
        data.update(_read_file(Path(file) if file else _find_config_file()))
        data.update(_read_env(os.environ if env is None else env))
        if config is not None:
            data.update({k: getattr(config, k) for k in config.model_fields_set})
        data.update({k: v for k, v in overrides.items() if v is not None})
        return cls.build(data)

    @classmethod
    def build(cls, data: dict[str, Any]) -> Config:
        """Validate ``data``, a plain dict (e.g. a parsed TOML table), into a Config; a
        ConfigError names any unknown key or bad value."""
        _check_keys(data)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise ConfigError(_describe(exc)) from None

    def merged(self, **overrides: Any) -> Config:
        """A copy with ``overrides`` applied (``None`` values are ignored); fields set on
        this Config stay set, so it layers the same way."""
        data = {k: getattr(self, k) for k in self.model_fields_set}
        data.update({k: v for k, v in overrides.items() if v is not None})
        return Config.build(data)


def _check_keys(data: dict[str, Any]) -> None:
    """Unknown keys are errors that suggest the closest known key."""
    unknown = set(data) - set(Config.model_fields)
    if not unknown:
        return
    hints = [
        f"{key!r} -> {close[0]!r}"
        for key in sorted(unknown)
        if (close := difflib.get_close_matches(key, Config.model_fields, n=1))
    ]
    raise ConfigError(
        f"Unknown config keys: {sorted(unknown)}. "
        + (f"Did you mean: {', '.join(hints)}? " if hints else "")
        + "See docs/configuration.md for every knob."
    )


def _describe(exc: ValidationError) -> str:
    problems = "; ".join(
        (f"{'.'.join(str(p) for p in e['loc'])}: " if e["loc"] else "")
        + e["msg"].removeprefix("Value error, ")
        for e in exc.errors()
    )
    return f"Invalid config: {problems}. See docs/configuration.md for allowed values."


_PHASES = (
    "clarification",
    "brief",
    "planning",
    "gathering",
    "supervision",
    "analysis",
    "synthesis",
    "verification",
    "refinement",
)
# Role names as role_models / role_fallbacks / role_temperature / role_max_tokens keys
# (a typo would otherwise be silently ignored).
_ROLES = tuple(role.value for role in AgentRole)
# Environment names that are not config knobs but share the prefix.
_ENV_NOT_KNOBS = {"HOME"}


def _find_config_file() -> Path | None:
    here = Path.cwd()
    for name in ("deepresearch.toml", "pyproject.toml"):
        p = here / name
        if p.is_file():
            return p
    return None


def _read_file(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"Config file {path} does not exist.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Cannot read config file {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"Config file {path} is not valid TOML: {exc}") from None
    if path.name == "pyproject.toml":
        table = raw.get("tool", {}).get("deepresearch", {})
    else:
        table = raw.get("deepresearch", raw)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: the deepresearch table must be a TOML table.")
    return dict(table)


def _read_env(environ: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in environ.items():
        if not key.startswith(ENV_PREFIX):
            continue
        name = key[len(ENV_PREFIX) :].lower()
        if name.upper() in _ENV_NOT_KNOBS:
            continue
        out[name] = _parse_env_value(key, value)
    return out


def _parse_env_value(key: str, value: str) -> Any:
    return parse_config_value(key[len(ENV_PREFIX) :].lower(), value, source=key)


def parse_config_value(name: str, text: str, *, source: str | None = None) -> Any:
    """A config value written as text (environment, ``--set``): JSON for lists and
    tables, a comma list for list fields, else the text (pydantic converts numbers and
    booleans)."""
    text = text.strip()
    if text[:1] in "[{":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(
                f"{source or name} looks like JSON but does not parse: {exc}"
            ) from None
    field = Config.model_fields.get(name)
    if field is not None and getattr(field.annotation, "__origin__", None) is list:
        return [p.strip() for p in text.split(",") if p.strip()]
    return text
