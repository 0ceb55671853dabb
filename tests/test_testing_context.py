"""deepresearch.testing.context: the one RunContext builder the tests share."""

from __future__ import annotations

import pytest

from deepresearch.config import Config
from deepresearch.state import AgentRole
from deepresearch.testing import EmptySearch, FunctionLLM, RecordingEvents, context


def test_defaults_are_the_offline_engine_no_search_and_recorded_events() -> None:
    ctx = context(max_sub_queries=2, today="2025-01-01")
    assert ctx.config.max_sub_queries == 2 and ctx.today == "2025-01-01"
    assert isinstance(ctx.search, EmptySearch) and isinstance(ctx.events, RecordingEvents)
    assert isinstance(ctx.models.default, FunctionLLM)


def test_models_route_named_specs_and_refuse_others() -> None:
    other = FunctionLLM(name="test:other")
    config = Config(role_models={"planner": "test:other", "report": "test:missing"})
    ctx = context(config=config, models={"test:other": other})
    assert ctx.models.provider("test:other") is other
    with pytest.raises(AssertionError, match="unexpected model spec test:missing"):
        ctx.models.provider("test:missing")
    assert ctx.models.specs(AgentRole.PLANNER)[0] == "test:other"


def test_config_and_config_fields_are_not_mixed() -> None:
    with pytest.raises(TypeError, match="either config or Config fields"):
        context(config=Config(), max_sub_queries=2)
