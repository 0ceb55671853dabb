"""One Config, made of small typed sections (:mod:`deepresearch.config_sections`).

Precedence: explicit arguments (including the keys explicitly set on a passed Config) >
DEEPRESEARCH_* environment > config file (deepresearch.toml or [tool.deepresearch] in
pyproject.toml) > defaults. :meth:`Config.layered` applies it.

Code reads a knob through its section (``config.loop.max_iterations``). Every knob's name is
unique, so everywhere a key is written it may be flat (``Config(max_iterations=2)``,
``DEEPRESEARCH_MAX_ITERATIONS``, ``max_iterations = 2`` in TOML), dotted
(``loop.max_iterations``) or in its section's table (``[loop]`` in TOML,
``Config(loop={"max_iterations": 2})``). Every knob changes behaviour;
docs/configuration.md lists each with its default.
"""

from __future__ import annotations

import difflib
import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic.fields import FieldInfo

from deepresearch.config_sections import (
    CallSettings,
    ConfigSection,
    CorpusSettings,
    GatheringSettings,
    LoopSettings,
    MCPServerSpec,
    ModelSettings,
    PageSettings,
    SearchAPISettings,
    SearchSettings,
    StorageSettings,
    SummarySettings,
    SupervisionSettings,
    TavilySettings,
    TimeoutSettings,
    TokenSettings,
    VerificationSettings,
    describe_invalid,
)
from deepresearch.errors import ConfigError
from deepresearch.text_files import decode_unicode, not_unicode

__all__ = ["ENV_PREFIX", "Config", "MCPServerSpec", "default_home", "flat_fields"]

ENV_PREFIX = "DEEPRESEARCH_"


def default_home() -> Path:
    """The deepresearch home folder: ``$DEEPRESEARCH_HOME``, else ``~/.deepresearch``."""
    env = os.environ.get("DEEPRESEARCH_HOME")
    return Path(env).expanduser() if env else Path.home() / ".deepresearch"


class Config(BaseModel):
    """Every knob, in one small typed section per concern; docs/configuration.md lists
    each with its default.

    ``Config(**keys)`` holds exactly what you pass: flat keys (``max_iterations=2``), dotted
    ones (``**{"loop.max_iterations": 2}``) or section tables (``loop={...}``); a bad key or
    value is a :class:`~deepresearch.errors.ConfigError`. Given to a Session, only the keys
    you set explicitly override the environment and the config file; the rest fall through.
    Flat reads and writes (``config.max_iterations``) work too; typed code reads the
    sections.

    Args:
        **keys: config keys, as above.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    models: ModelSettings = Field(default_factory=ModelSettings)
    calls: CallSettings = Field(default_factory=CallSettings)
    search_providers: SearchSettings = Field(default_factory=SearchSettings)
    tavily: TavilySettings = Field(default_factory=TavilySettings)
    search_apis: SearchAPISettings = Field(default_factory=SearchAPISettings)
    pages: PageSettings = Field(default_factory=PageSettings)
    local_corpus: CorpusSettings = Field(default_factory=CorpusSettings)
    loop: LoopSettings = Field(default_factory=LoopSettings)
    gathering: GatheringSettings = Field(default_factory=GatheringSettings)
    summaries: SummarySettings = Field(default_factory=SummarySettings)
    supervision: SupervisionSettings = Field(default_factory=SupervisionSettings)
    verification: VerificationSettings = Field(default_factory=VerificationSettings)
    timeouts: TimeoutSettings = Field(default_factory=TimeoutSettings)
    tokens: TokenSettings = Field(default_factory=TokenSettings)
    storage: StorageSettings = Field(default_factory=StorageSettings)

    def __init__(self, **keys: Any) -> None:
        try:
            super().__init__(**_flatten(keys))
        except ValidationError as exc:
            raise ConfigError(describe_invalid(exc)) from None

    @model_validator(mode="before")
    @classmethod
    def _nest_flat_keys(cls, data: Any) -> Any:
        """Flat keys into their section tables (``Config.model_validate`` of a flat dict)."""
        if not isinstance(data, Mapping):
            return data
        nested: dict[str, Any] = {}
        for key, value in data.items():
            section = _SECTION_OF.get(key)
            if section is not None:
                nested.setdefault(section, {})[key] = value
            elif isinstance(value, ConfigSection):
                nested.setdefault(key, {}).update(value.set_values())
            elif key in _SECTIONS and isinstance(value, Mapping):
                nested.setdefault(key, {}).update(value)
            else:
                nested[key] = value  # not a key: extra="forbid" says so
        return nested

    if not TYPE_CHECKING:  # flat reads for people; typed code reads the sections

        def __getattr__(self, name: str) -> Any:
            section = _SECTION_OF.get(name)
            if section is None:
                return super().__getattr__(name)
            return getattr(getattr(self, section), name)

    def __setattr__(self, name: str, value: Any) -> None:
        section = _SECTION_OF.get(name)
        if section is not None:
            setattr(getattr(self, section), name, value)  # the section validates it
            return
        if not name.startswith("_") and name not in _SECTIONS:
            _flatten({name: value})  # an unknown key: ConfigError with a hint
        try:
            super().__setattr__(name, value)
        except ValidationError as exc:
            raise ConfigError(describe_invalid(exc)) from None

    # -- flat views ------------------------------------------------------------------
    def set_values(self) -> dict[str, Any]:
        """The keys explicitly set on this Config (in any section), by flat name."""
        return {k: v for name in _SECTIONS for k, v in getattr(self, name).set_values().items()}

    def flat_dump(
        self, *, mode: Literal["python", "json"] = "python", exclude: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Every key by its flat name (as recorded in a resume recipe or a batch job id).

        Args:
            mode: ``"json"`` for JSON-ready values, as ``BaseModel.model_dump``.
            exclude: flat names left out.
        """
        out: dict[str, Any] = {}
        for name in _SECTIONS:
            out.update(getattr(self, name).model_dump(mode=mode))
        return {k: v for k, v in out.items() if k not in exclude}

    # -- derived ---------------------------------------------------------------------
    def phase_timeout(self, phase: str) -> float:
        """Seconds ``phase`` may take (``phase_timeouts_s``, else ``operation_timeout_s``).

        Args:
            phase: a phase name (``Phase.value``).
        """
        timeouts = self.timeouts
        return timeouts.phase_timeouts_s.get(phase, timeouts.operation_timeout_s)

    def resolved_store_path(self) -> Path:
        """``store_path``, or ``sessions.db`` in the deepresearch home folder."""
        return self.storage.store_path or default_home() / "sessions.db"

    def resolved_archive_dir(self) -> Path:
        """``research_archive_dir``, or ``archive`` in the deepresearch home folder."""
        return self.tokens.research_archive_dir or default_home() / "archive"

    # -- loading ---------------------------------------------------------------------
    @classmethod
    def load(
        cls,
        *,
        file: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> Config:
        """Build a Config from defaults < file < environment < ``overrides`` (highest wins).

        Args:
            file: a TOML file; default ``deepresearch.toml`` (or ``[tool.deepresearch]``
                in ``pyproject.toml``) in the working directory.
            env: the environment to read ``DEEPRESEARCH_*`` from; default ``os.environ``.
            **overrides: config keys; ``None`` means "not given" and falls through.
        """
        return cls.layered(None, file=file, env=env, **overrides)

    @classmethod
    def layered(
        cls,
        config: Config | None = None,
        *,
        file: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> Config:
        """The one precedence rule: ``overrides`` > keys explicitly set on ``config`` >
        environment > file > defaults.

        Args:
            config: a Config whose explicitly set keys (:meth:`set_values`) apply.
            file: as for :meth:`load`.
            env: as for :meth:`load`.
            **overrides: config keys; ``None`` means "not given" and falls through.
        """
        data = _flatten(_read_file(Path(file) if file else _find_config_file()))
        data.update(_read_env(os.environ if env is None else env))
        if config is not None:
            data.update(config.set_values())
        data.update({k: v for k, v in _flatten(overrides).items() if v is not None})
        return cls.build(data)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Config:
        """Validate ``data``, a plain mapping (e.g. a parsed TOML table), into a Config; a
        ConfigError names any unknown key or bad value.

        Args:
            data: config keys, flat, dotted or as section tables.
        """
        return cls(**data)

    def merged(self, **overrides: Any) -> Config:
        """A copy with ``overrides`` applied (``None`` values are ignored); keys set on
        this Config stay set, so it layers the same way.

        Args:
            **overrides: config keys, as for :class:`Config`.
        """
        data = self.set_values()
        data.update({k: v for k, v in _flatten(overrides).items() if v is not None})
        return Config.build(data)


_SECTIONS: dict[str, type[ConfigSection]] = {}
_FIELDS: dict[str, FieldInfo] = {}
_SECTION_OF: dict[str, str] = {}
for _name, _info in Config.model_fields.items():
    _section = _info.annotation
    if not (isinstance(_section, type) and issubclass(_section, ConfigSection)):
        raise TypeError(f"Config.{_name} must be a ConfigSection")
    _SECTIONS[_name] = _section
    for _key, _field in _section.model_fields.items():
        if _key in _SECTION_OF or _key in Config.model_fields:
            raise TypeError(f"config key {_key!r} must be unique across sections")
        _FIELDS[_key], _SECTION_OF[_key] = _field, _name


def flat_fields() -> dict[str, FieldInfo]:
    """Every config key by its flat name, with its pydantic field (type, default,
    description), in section order."""
    return dict(_FIELDS)


def _flatten(data: Mapping[str, Any]) -> dict[str, Any]:
    """Keys by their flat names: section tables and dotted keys opened up; unknown keys
    are ConfigErrors that suggest the closest known key."""
    flat: dict[str, Any] = {}
    unknown: list[str] = []
    for key, value in data.items():
        section, dot, name = key.rpartition(".")
        if dot:
            bucket = {name: value} if _SECTION_OF.get(name) == section else None
        elif key in _SECTIONS:
            table = value.set_values() if isinstance(value, ConfigSection) else value
            if not isinstance(table, Mapping):
                raise ConfigError(f"Config key {key!r} is a section: give it a table of keys.")
            bucket = {f"{key}.{k}": v for k, v in table.items()}
            flat.update(_flatten(bucket))
            continue
        else:
            bucket = {key: value} if key in _SECTION_OF else None
        if bucket is None:
            unknown.append(key)
        else:
            flat.update(bucket)
    if unknown:
        raise ConfigError(_unknown_message(unknown))
    return flat


def _unknown_message(unknown: list[str]) -> str:
    dotted = [f"{s}.{k}" for k, s in _SECTION_OF.items()]
    hints = [
        f"{key!r} -> {close[0]!r}"
        for key in sorted(unknown)
        if (close := difflib.get_close_matches(key, dotted if "." in key else _FIELDS, n=1))
    ]
    return (
        f"Unknown config keys: {sorted(unknown)}. "
        + (f"Did you mean: {', '.join(hints)}? " if hints else "")
        + "See docs/configuration.md for every knob."
    )


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
        data = path.read_bytes()
        raw = tomllib.loads(decode_unicode(data))
    except FileNotFoundError:
        raise ConfigError(f"Config file {path} does not exist.") from None
    except IsADirectoryError:
        raise ConfigError(
            f"Cannot read config file {path}: it is a folder; give the file, e.g. "
            f"{path / 'deepresearch.toml'}."
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"Cannot read config file {path}: {not_unicode(data, exc)}; re-save it as UTF-8 "
            "(TOML files are UTF-8)."
        ) from None
    except OSError as exc:
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
        if name.upper() in _ENV_NOT_KNOBS or not value.strip():
            continue  # an empty variable (FOO= in a shell or .env file) is unset
        out[name] = _parse_env_value(key, value)
    return out


def _parse_env_value(key: str, value: str) -> Any:
    return parse_config_value(key[len(ENV_PREFIX) :].lower(), value, source=key)


def parse_config_value(name: str, text: str, *, source: str | None = None) -> Any:
    """A config value written as text (environment, ``--set``): JSON for lists and
    tables, a comma list for list fields, else the text (pydantic converts numbers and
    booleans)."""
    text = text.strip()
    if text.startswith(("[", "{")):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(
                f"{source or name} looks like JSON but does not parse: {exc}"
            ) from None
    field = flat_fields().get(name.rpartition(".")[2])
    if field is not None and getattr(field.annotation, "__origin__", None) is list:
        return [p.strip() for p in text.split(",") if p.strip()]
    return text
