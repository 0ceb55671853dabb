"""deepresearch.config: precedence (arguments > DEEPRESEARCH_* environment > config file >
defaults), clear errors for unknown keys, bad values and broken files, no secrets."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from deepresearch.config import Config, default_home, flat_fields
from deepresearch.errors import ConfigError
from deepresearch.state import AgentRole, Phase

SECRET = "sk-test-0123456789abcdef-SECRET"


SETTINGS = "# Réglages du café — « naïf »\nmax_iterations = 2\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory without deepresearch.toml or pyproject.toml."""
    cwd = tmp_path / "empty"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return cwd


# -- defaults ---------------------------------------------------------------------------
def test_defaults_follow_the_seeds(no_file: Path) -> None:
    cfg = Config.load(env={})
    assert cfg == Config()
    assert cfg.llm == "auto" and cfg.search == ["auto"]
    assert cfg.max_iterations == 3
    assert cfg.max_sub_queries == 5
    assert cfg.token_limit_max_retries == 3
    assert cfg.token_limit_cut_fraction == pytest.approx(0.10)
    assert cfg.enable_clarification and cfg.enable_brief
    assert cfg.summarization_timeout_s == 60.0
    assert cfg.coverage_weights == {
        "source_adequacy": 0.4,
        "domain_diversity": 0.2,
        "completion_rate": 0.4,
    }


def test_every_phase_has_a_timeout_and_unknown_ones_use_the_operation_timeout() -> None:
    cfg = Config(operation_timeout_s=33.0, phase_timeouts_s={"gathering": 10.0})
    assert cfg.phase_timeout("gathering") == 10.0
    assert cfg.phase_timeout("planning") == 33.0
    defaults = Config()
    assert {p.value for p in Phase if p != Phase.DONE} == set(defaults.phase_timeouts_s)


def test_store_and_archive_paths_default_under_the_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPRESEARCH_HOME", str(tmp_path / "home"))
    assert default_home() == tmp_path / "home"
    cfg = Config()
    assert cfg.resolved_store_path() == tmp_path / "home" / "sessions.db"
    assert cfg.resolved_archive_dir() == tmp_path / "home" / "archive"
    chosen = Config(store_path=tmp_path / "s.db", research_archive_dir=tmp_path / "arch")
    assert chosen.resolved_store_path() == tmp_path / "s.db"
    assert chosen.resolved_archive_dir() == tmp_path / "arch"


# -- precedence -------------------------------------------------------------------------
def test_arguments_beat_environment_beat_file_beat_defaults(tmp_path: Path) -> None:
    toml = write(
        tmp_path / "deepresearch.toml",
        "max_iterations = 2\nmax_sub_queries = 7\nmax_sources_per_query = 9\n",
    )
    env = {"DEEPRESEARCH_MAX_ITERATIONS": "4", "DEEPRESEARCH_MAX_SUB_QUERIES": "8"}

    cfg = Config.load(file=toml, env=env, max_iterations=6)

    assert cfg.max_iterations == 6  # argument
    assert cfg.max_sub_queries == 8  # environment
    assert cfg.max_sources_per_query == 9  # file
    assert cfg.max_total_sub_queries == 20  # default
    assert Config.load(file=toml, env=env).max_iterations == 4
    assert Config.load(file=toml, env={}).max_iterations == 2


def test_a_none_argument_does_not_override(tmp_path: Path) -> None:
    toml = write(tmp_path / "deepresearch.toml", "max_iterations = 2\n")
    assert Config.load(file=toml, env={}, max_iterations=None).max_iterations == 2


def test_the_process_environment_is_read_when_none_is_given(
    no_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPRESEARCH_MAX_ITERATIONS", "5")
    assert Config.load().max_iterations == 5
    assert Config.load(env={}).max_iterations == 3


def test_deepresearch_toml_is_found_in_the_working_directory(
    no_file: Path,
) -> None:
    write(no_file / "deepresearch.toml", "[deepresearch]\nmax_iterations = 2\n")
    write(no_file / "pyproject.toml", "[tool.deepresearch]\nmax_iterations = 9\n")
    assert Config.load(env={}).max_iterations == 2  # deepresearch.toml first


def test_pyproject_tool_table_is_used_when_there_is_no_deepresearch_toml(
    no_file: Path,
) -> None:
    write(
        no_file / "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.deepresearch]\nmax_iterations = 9\n'
        'search = ["corpus", "demo"]\n\n[tool.deepresearch.role_models]\n'
        'report = "openai:gpt-4.1"\n',
    )
    cfg = Config.load(env={})
    assert cfg.max_iterations == 9
    assert cfg.search == ["corpus", "demo"]
    assert cfg.role_models == {"report": "openai:gpt-4.1"}


def test_pyproject_without_a_deepresearch_table_gives_defaults(no_file: Path) -> None:
    write(no_file / "pyproject.toml", '[project]\nname = "x"\n[tool.ruff]\nline-length = 100\n')
    assert Config.load(env={}) == Config()


def test_a_deepresearch_toml_may_use_top_level_keys_or_a_table(tmp_path: Path) -> None:
    flat = write(tmp_path / "flat.toml", 'llm = "offline"\n[phase_timeouts_s]\nbrief = 5.0\n')
    cfg = Config.load(file=flat, env={})
    assert cfg.llm == "offline" and cfg.phase_timeouts_s == {"brief": 5.0}
    table = write(tmp_path / "table.toml", '[deepresearch]\nllm = "offline"\n')
    assert Config.load(file=table, env={}).llm == "offline"


# -- environment parsing ----------------------------------------------------------------
def test_environment_values_are_parsed_by_type(no_file: Path) -> None:
    env = {
        "DEEPRESEARCH_ENABLE_BRIEF": "false",
        "DEEPRESEARCH_TOKEN_LIMIT_CUT_FRACTION": "0.25",
        "DEEPRESEARCH_SEARCH": "corpus, demo",
        "DEEPRESEARCH_ROLE_MODELS": '{"summarization": "openai:gpt-4.1-nano"}',
        "DEEPRESEARCH_TAVILY_INCLUDE_DOMAINS": '["a.org", "b.org"]',
        "DEEPRESEARCH_TASK_TIMEOUT_S": "90",
        "DEEPRESEARCH_CORPUS": "/data/docs",
        "DEEPRESEARCH_HOME": "/somewhere",  # shares the prefix but is not a knob
        "OTHER_MAX_ITERATIONS": "9",  # not ours
    }
    cfg = Config.load(env=env)
    assert cfg.enable_brief is False
    assert cfg.token_limit_cut_fraction == 0.25
    assert cfg.search == ["corpus", "demo"]
    assert cfg.role_models == {"summarization": "openai:gpt-4.1-nano"}
    assert cfg.tavily_include_domains == ["a.org", "b.org"]
    assert cfg.task_timeout_s == 90.0
    assert cfg.corpus == Path("/data/docs")
    assert cfg.max_iterations == 3


def test_environment_json_that_does_not_parse_names_the_variable(no_file: Path) -> None:
    with pytest.raises(ConfigError, match="DEEPRESEARCH_ROLE_MODELS looks like JSON"):
        Config.load(env={"DEEPRESEARCH_ROLE_MODELS": '{"report": '})


# -- unknown keys and bad values --------------------------------------------------------
@pytest.mark.parametrize("source", ["file", "env", "argument"])
def test_unknown_keys_are_errors_that_suggest_the_right_name(
    source: str, tmp_path: Path, no_file: Path
) -> None:
    file = write(tmp_path / "c.toml", "max_iteration = 2\n") if source == "file" else None
    env = {"DEEPRESEARCH_MAX_ITERATION": "2"} if source == "env" else {}
    args = {"max_iteration": 2} if source == "argument" else {}
    with pytest.raises(ConfigError) as caught:
        Config.load(file=file, env=env, **args)
    message = str(caught.value)
    assert "Unknown config keys: ['max_iteration']" in message
    assert "'max_iteration' -> 'max_iterations'" in message
    assert "docs/configuration.md" in message


def test_unknown_keys_without_a_close_match_still_point_to_the_docs() -> None:
    with pytest.raises(ConfigError, match=r"\['zzz'\]\. See docs/configuration\.md"):
        Config.build({"zzz": 1})


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"max_iterations": 0}, "max_iterations: Input should be greater than or equal to 1"),
        ({"max_iterations": "many"}, "max_iterations: Input should be a valid integer"),
        ({"token_limit_cut_fraction": 1.5}, "token_limit_cut_fraction"),
        ({"enable_brief": "perhaps"}, "enable_brief: Input should be a valid boolean"),
        ({"structured_output": "xml"}, "structured_output must be 'auto', 'native' or 'prompt'"),
        (
            {"novelty_related_threshold": 0.9, "novelty_duplicate_threshold": 0.5},
            "novelty_related_threshold must not exceed novelty_duplicate_threshold",
        ),
        ({"phase_timeouts_s": {"gathering": 1.0, "gathring": 2.0}}, "unknown phases: ['gathring']"),
        ({"coverage_weights": {"depth": 1.0}}, "unknown factors: ['depth']"),
        ({"role_models": {"synthesizer": "openai:gpt-4.1"}}, "unknown roles: ['synthesizer']"),
        ({"role_fallbacks": {"planer": ["x"]}}, "role_fallbacks has unknown roles"),
        ({"role_temperature": {"writer": 0.1}}, "role_temperature has unknown roles"),
        ({"role_max_tokens": {"summary": 10}}, "role_max_tokens has unknown roles"),
        ({"role_models": ["openai:gpt-4.1"]}, "role_models: Input should be a valid dictionary"),
    ],
)
def test_bad_values_are_config_errors_naming_the_knob(
    data: dict[str, object], expected: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        Config.build(data)
    message = str(caught.value)
    assert message.startswith("Invalid config: ")
    assert expected in message
    assert "docs/configuration.md" in message


def test_bad_values_from_the_environment_are_config_errors(no_file: Path) -> None:
    with pytest.raises(ConfigError, match="max_sub_queries"):
        Config.load(env={"DEEPRESEARCH_MAX_SUB_QUERIES": "1"})
    with pytest.raises(ConfigError, match="enable_clarification"):
        Config.load(env={"DEEPRESEARCH_ENABLE_CLARIFICATION": "sometimes"})


def test_role_keys_are_the_agent_role_values() -> None:
    every = {role.value: "offline" for role in AgentRole}
    assert Config.build({"role_models": every}).role_models == every
    with pytest.raises(ConfigError) as caught:
        Config.build({"role_models": {"synthesis": "offline"}})
    assert all(role.value in str(caught.value) for role in AgentRole)  # lists the valid ones


def test_direct_construction_and_assignment_raise_config_error() -> None:
    # ConfigError is a ValueError, so `except ValueError` written for pydantic still works.
    with pytest.raises(ConfigError, match="max_iterations"):
        Config(max_iterations=0)
    with pytest.raises(ConfigError, match="'max_iteration' -> 'max_iterations'"):
        Config(max_iteration=2)  # type: ignore[call-arg]
    with pytest.raises(ConfigError, match="Unknown config keys: \\['bogus'\\]"):
        Config(bogus=1)  # type: ignore[call-arg]
    cfg = Config()
    with pytest.raises(ConfigError, match="max_iterations"):
        cfg.max_iterations = 0
    with pytest.raises(ValueError, match="max_iterations"):
        cfg.max_iterations = -1


@pytest.mark.parametrize(
    "weights",
    [
        {"source_adequacy": float("nan")},
        {"source_adequacy": -0.1},
        {"completion_rate": float("inf")},
        {"source_adequacy": 0.0, "completion_rate": 0.0},
    ],
)
def test_coverage_weights_must_be_finite_non_negative_and_not_all_zero(
    weights: dict[str, float],
) -> None:
    with pytest.raises(ConfigError, match="coverage_weights"):
        Config(coverage_weights=weights)


# -- one precedence rule for a passed Config ---------------------------------------------
def test_fields_set_on_a_passed_config_override_and_unset_ones_fall_through(
    tmp_path: Path,
) -> None:
    toml = write(tmp_path / "deepresearch.toml", 'llm = "offline"\nmax_iterations = 2\n')
    env = {"DEEPRESEARCH_MAX_SOURCES_PER_QUERY": "9"}
    passed = Config(max_sub_queries=3, max_iterations=4)

    cfg = Config.layered(passed, file=toml, env=env, max_sub_queries=6)

    assert cfg.llm == "offline"  # toml: not set on the passed Config
    assert cfg.max_sources_per_query == 9  # env
    assert cfg.max_iterations == 4  # set on the Config beats the toml
    assert cfg.max_sub_queries == 6  # an explicit argument beats the Config
    assert cfg.max_concurrent_research_units == Config().max_concurrent_research_units


def test_an_explicit_none_on_a_passed_config_is_kept(tmp_path: Path) -> None:
    toml = write(tmp_path / "deepresearch.toml", "task_timeout_s = 50.0\n")
    cfg = Config.layered(Config(task_timeout_s=None), file=toml, env={})
    assert cfg.task_timeout_s is None


# -- broken files -----------------------------------------------------------------------
def test_a_missing_config_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        Config.load(file=tmp_path / "nope.toml", env={})


def test_a_broken_toml_file_is_an_error_naming_the_file(tmp_path: Path) -> None:
    bad = write(tmp_path / "deepresearch.toml", "max_iterations = = 2\n[unclosed\n")
    with pytest.raises(ConfigError, match="is not valid TOML") as caught:
        Config.load(file=bad, env={})
    assert str(bad) in str(caught.value)


def test_a_broken_discovered_pyproject_is_an_error(no_file: Path) -> None:
    write(no_file / "pyproject.toml", "[tool.deepresearch\n")
    with pytest.raises(ConfigError, match=r"pyproject\.toml is not valid TOML"):
        Config.load(env={})


def test_an_unreadable_config_file_is_an_error(tmp_path: Path) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00max_iterations = 2")
    with pytest.raises(ConfigError, match="Cannot read config file"):
        Config.load(file=binary, env={})
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(ConfigError, match="Cannot read config file"):
        Config.load(file=folder, env={})


# How editors save text with a byte-order mark: the mark, then the text in that codec.
UNICODE_SAVES = {
    "UTF-8 with a BOM (Notepad)": (codecs.BOM_UTF8, "utf-8"),
    "UTF-16 LE (Notepad's 'Unicode')": (codecs.BOM_UTF16_LE, "utf-16-le"),
    "UTF-16 BE": (codecs.BOM_UTF16_BE, "utf-16-be"),
}


@pytest.mark.parametrize("save", UNICODE_SAVES.values(), ids=UNICODE_SAVES.keys())
def test_a_config_file_saved_with_a_byte_order_mark_is_read(
    tmp_path: Path, no_file: Path, save: tuple[bytes, str]
) -> None:
    bom, codec = save
    path = tmp_path / "deepresearch.toml"
    path.write_bytes(bom + SETTINGS.encode(codec))
    assert Config.load(file=path, env={}).max_iterations == 2
    (no_file / "pyproject.toml").write_bytes(bom + f"[tool.deepresearch]\n{SETTINGS}".encode(codec))
    assert Config.load(env={}).max_iterations == 2  # found, not given


def test_a_config_file_in_a_legacy_encoding_is_an_error_saying_where_and_what_to_do(
    tmp_path: Path,
) -> None:
    path = tmp_path / "deepresearch.toml"
    path.write_bytes(("max_iterations = 2\n" + SETTINGS).encode("cp1252"))
    with pytest.raises(ConfigError) as caught:
        Config.load(file=path, env={})
    message = str(caught.value)
    assert str(path) in message and "not UTF-8" in message
    assert "line 2" in message  # where the first byte UTF-8 cannot read is
    assert "re-save it as UTF-8" in message


def test_a_deepresearch_key_that_is_not_a_table_is_an_error(tmp_path: Path) -> None:
    bad = write(tmp_path / "deepresearch.toml", "deepresearch = 3\n")
    with pytest.raises(ConfigError, match="must be a TOML table"):
        Config.load(file=bad, env={})
    project = tmp_path / "pyproject.toml"
    write(project, '[tool]\ndeepresearch = "offline"\n')
    with pytest.raises(ConfigError, match="must be a TOML table"):
        Config.load(file=project, env={})


def test_unknown_keys_in_a_file_are_errors(tmp_path: Path) -> None:
    bad = write(tmp_path / "deepresearch.toml", "[deepresearch]\nopenai_api_key = 'x'\n")
    with pytest.raises(ConfigError, match="Unknown config keys: \\['openai_api_key'\\]"):
        Config.load(file=bad, env={})


# -- merging ----------------------------------------------------------------------------
def test_merged_keeps_what_was_set_and_validates_overrides() -> None:
    base = Config(max_iterations=2, llm="offline")
    merged = base.merged(max_sub_queries=3, llm=None)
    assert (merged.max_iterations, merged.max_sub_queries, merged.llm) == (2, 3, "offline")
    assert base.max_sub_queries == 5  # the original is untouched
    with pytest.raises(ConfigError, match="max_sub_queries"):
        base.merged(max_sub_queries=0)
    with pytest.raises(ConfigError, match="Unknown config keys"):
        base.merged(bogus=1)


# -- secrets ----------------------------------------------------------------------------
def test_api_keys_never_appear_in_the_config(no_file: Path) -> None:
    env = {
        "OPENAI_API_KEY": SECRET,
        "ANTHROPIC_API_KEY": SECRET,
        "TAVILY_API_KEY": SECRET,
        "DEEPRESEARCH_LLM": "openai:gpt-4.1-mini",
    }
    cfg = Config.load(env=env)
    assert cfg.llm == "openai:gpt-4.1-mini"
    for text in (repr(cfg), str(cfg), cfg.model_dump_json(), str(cfg.model_dump())):
        assert SECRET not in text
    assert not any("key" in name for name in flat_fields())  # keys live only in the env


def test_a_key_passed_as_a_config_value_is_rejected_without_echoing_it(no_file: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        Config.load(env={"DEEPRESEARCH_OPENAI_API_KEY": SECRET})
    assert "openai_api_key" in str(caught.value)
    assert SECRET not in str(caught.value)
    with pytest.raises(ConfigError) as bad_value:
        Config.load(env={"DEEPRESEARCH_MAX_ITERATIONS": SECRET})
    assert SECRET not in str(bad_value.value)


def test_every_config_field_is_a_typed_keyword_of_session_and_research() -> None:
    import inspect
    import typing

    import deepresearch as dr
    from deepresearch.config_overrides import NAMED_PARAMETERS, ConfigOverrides

    typed = typing.get_type_hints(ConfigOverrides)
    assert set(typed) | NAMED_PARAMETERS == set(flat_fields())  # nothing left out
    assert not set(typed) & NAMED_PARAMETERS  # a keyword cannot be in both
    for name, annotation in typed.items():
        assert annotation == flat_fields()[name].annotation, name
    for function in (dr.Session.__init__, dr.research):
        parameters = inspect.signature(function).parameters
        assert set(parameters) >= NAMED_PARAMETERS, function
        assert "Unpack[ConfigOverrides]" in str(parameters["overrides"].annotation)


# -- sections ---------------------------------------------------------------------------
def test_code_reads_sections_and_flat_keys_land_in_them() -> None:
    cfg = Config(max_iterations=2, task_timeout_s=None, role_models={"report": "offline"})
    assert cfg.loop.max_iterations == 2 and cfg.max_iterations == 2  # flat read, same value
    assert cfg.timeouts.task_timeout_s is None
    assert cfg.models.role_models == {"report": "offline"}
    assert cfg.loop.model_fields_set == {"max_iterations"}
    assert cfg.set_values() == {
        "max_iterations": 2, "task_timeout_s": None, "role_models": {"report": "offline"},
    }  # fmt: skip


def test_flat_dotted_and_section_keys_are_the_same_config() -> None:
    flat = Config(max_iterations=2, verify_claims=False)
    dotted = Config(**{"loop.max_iterations": 2, "verification.verify_claims": False})
    tables = Config(loop={"max_iterations": 2}, verification={"verify_claims": False})
    assert flat == dotted == tables
    assert flat.set_values() == dotted.set_values() == tables.set_values()
    assert Config.model_validate({"max_iterations": 2, "verify_claims": False}) == flat


def test_nested_toml_tables_layer_like_flat_keys(tmp_path: Path) -> None:
    toml = write(
        tmp_path / "deepresearch.toml",
        "max_sources_per_query = 9\n[loop]\nmax_iterations = 2\n"
        '[models.role_models]\nreport = "offline"\n[timeouts]\ntask_timeout_s = 50.0\n',
    )
    cfg = Config.load(file=toml, env={"DEEPRESEARCH_MAX_ITERATIONS": "4"})
    assert cfg.loop.max_iterations == 4  # the environment beats the file's [loop] table
    assert cfg.loop.max_sources_per_query == 9
    assert cfg.models.role_models == {"report": "offline"}
    assert cfg.timeouts.task_timeout_s == 50.0


def test_unknown_keys_in_a_section_table_suggest_the_right_name(tmp_path: Path) -> None:
    toml = write(tmp_path / "deepresearch.toml", "[loop]\nmax_iteration = 2\n")
    with pytest.raises(ConfigError) as caught:
        Config.load(file=toml, env={})
    assert "'loop.max_iteration' -> 'loop.max_iterations'" in str(caught.value)
    with pytest.raises(ConfigError, match=r"'timeouts\.max_iterations'"):
        Config(timeouts={"max_iterations": 2})  # a key of another section
    with pytest.raises(ConfigError, match="is a section"):
        Config(loop=3)


def test_assigning_to_a_section_validates_and_marks_the_key_set() -> None:
    cfg = Config()
    cfg.loop.max_iterations = 2
    assert cfg.set_values() == {"max_iterations": 2}
    with pytest.raises(ConfigError, match="max_iterations"):
        cfg.loop.max_iterations = 0
    with pytest.raises(ConfigError, match="novelty_related_threshold must not exceed"):
        cfg.gathering.novelty_related_threshold = 0.95


def test_flat_dump_names_every_key_once() -> None:
    dumped = Config(max_iterations=2).flat_dump(mode="json", exclude=frozenset({"persist"}))
    assert set(dumped) == set(flat_fields()) - {"persist"}
    assert dumped["max_iterations"] == 2 and dumped["phase_timeouts_s"]["brief"] == 120.0


@pytest.mark.parametrize(
    ("data", "knob"),
    [
        ({"max_iterations": 0}, "max_iterations"),
        ({"llm": 5}, "llm"),
        ({"search": "demo"}, "search"),
    ],
)
def test_a_bad_value_is_said_once(data: dict[str, object], knob: str) -> None:
    # A section's own ConfigError inside Config's validation must not be wrapped again:
    # one "Invalid config:", the knob named once, one pointer to the docs.
    with pytest.raises(ConfigError) as caught:
        Config.build(data)
    message = str(caught.value)
    assert message.count("Invalid config") == 1, message
    assert message.count("docs/configuration.md") == 1, message
    assert message.startswith(f"Invalid config: {knob}: "), message
    assert ".." not in message, message


def test_a_config_file_that_cannot_be_read_says_what_to_do(tmp_path: Path) -> None:
    folder = tmp_path / "conf"
    folder.mkdir()
    with pytest.raises(ConfigError, match="is a folder") as caught:
        Config.load(file=folder, env={})
    assert str(folder / "deepresearch.toml") in str(caught.value)
    latin = tmp_path / "latin.toml"
    latin.write_bytes('question_hint = "café"\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match="not UTF-8") as caught:
        Config.load(file=latin, env={})
    assert "re-save" in str(caught.value) and "codec" not in str(caught.value)


@pytest.mark.parametrize("key", ["corpus", "corpus_index", "store_path", "research_archive_dir"])
def test_an_empty_path_is_a_config_error_not_the_working_folder(key: str) -> None:
    # Path("") is "." : an unset shell variable would index or write the working folder.
    for value in ("", "  "):
        with pytest.raises(ConfigError, match=f"{key} is an empty path"):
            Config(**{key: value})
    config = Config()
    with pytest.raises(ConfigError, match=f"{key} is an empty path"):
        setattr(config, key, "")
    assert getattr(config, key) is None
    assert Config(**{key: "."}).flat_dump()[key] is not None  # an explicit "." is fine


def test_an_empty_environment_variable_is_unset(no_file: Path) -> None:
    config = Config.load(env={"DEEPRESEARCH_CORPUS": "", "DEEPRESEARCH_MAX_ITERATIONS": " "})
    assert config.corpus is None
    assert config.max_iterations == Config().max_iterations


@pytest.mark.parametrize("search", [[], [""], ["demo", " "]])
def test_search_must_name_providers(search: list[str]) -> None:
    with pytest.raises(ConfigError, match="search names no provider"):
        Config(search=search)


def test_a_search_flag_naming_no_provider_is_a_clear_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from deepresearch.cli.main import main

    assert main(["What is a printing press?", "--search", ",,", "--no-persist"]) == 2
    err = capsys.readouterr().err
    assert "search names no provider" in err and " Or " not in err


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"phase_timeouts_s": {"gathering": -1}}, "phase_timeouts_s must be > 0"),
        ({"phase_timeouts_s": {"gathering": 0}}, "phase_timeouts_s must be > 0"),
        ({"phase_timeouts_s": {"analysis": float("nan")}}, "phase_timeouts_s must be > 0"),
        ({"openai_base_url": "localhost:11434/v1"}, "openai_base_url must be an http"),
        ({"searxng_base_url": "ftp://x"}, "searxng_base_url must be an http"),
        ({"role_models": {"planner": " "}}, "role_models.planner is empty"),
    ],
)
def test_values_that_only_fail_mid_run_are_config_errors(
    data: dict[str, object], expected: str
) -> None:
    # A negative phase timeout ended every run 'timed_out' at once; a base URL without a
    # scheme retried for seconds before 'cannot reach'; an empty role model ran the default.
    with pytest.raises(ConfigError, match=expected):
        Config.build(data)


def test_http_base_urls_are_accepted() -> None:
    config = Config(openai_base_url="http://localhost:11434/v1", tavily_base_url="https://x.io")
    assert config.openai_base_url == "http://localhost:11434/v1"


def test_true_or_false_is_not_a_number() -> None:
    with pytest.raises(ConfigError, match="max_iterations takes a number, not True"):
        Config(max_iterations=True)
    with pytest.raises(ConfigError, match="takes a number"):
        Config(retry_base_delay_s=False)
    assert Config(enable_supervision=False).set_values()  # a real switch still takes one
