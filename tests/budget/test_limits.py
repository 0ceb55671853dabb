"""Context limits, overrides, and the per-phase budget arithmetic."""

from __future__ import annotations

import pytest

from deepresearch.budget import TokenBudget, context_limit
from deepresearch.config import Config
from deepresearch.errors import ConfigError


@pytest.mark.parametrize(
    ("spec", "limit"),
    [
        ("openai:gpt-4.1-mini", 1_047_576),
        ("openai:gpt-4o-mini", 128_000),
        ("openai:o3", 200_000),
        ("openai:o4-mini", 200_000),
        ("anthropic:claude-sonnet-4-5", 200_000),
        ("offline", 128_000),
        ("openai:qwen2.5:7b", 32_000),
    ],
)
def test_context_limit_table(spec: str, limit: int) -> None:
    assert context_limit(spec) == limit


def test_overrides_by_spec_model_name_or_vendor() -> None:
    assert context_limit("openai:gpt-4o", {"openai:gpt-4o": 9000}) == 9000
    assert context_limit("openai:gpt-4o", {"gpt-4o": 8000}) == 8000
    assert context_limit("offline", {"offline": 8000}) == 8000
    assert context_limit("openai:gpt-4o", {"gpt-4.1": 5}) == 128_000


def test_available_budget_per_phase() -> None:
    config = Config(
        model_context_overrides={"offline": 100_000},
        runtime_overhead=10_000,
        token_safety_margin=0.1,
    )
    budget = TokenBudget(config)
    assert budget.context_limit("offline") == 100_000
    assert budget.call_budget("offline") == 81_000  # (100k - 10k) * 0.9
    assert budget.available("offline", "planning") == 8_100
    assert budget.available("offline", "analysis") == 32_400
    assert budget.available("offline", "synthesis") == 28_350
    assert budget.available("offline", "refinement") == 12_150
    assert budget.available("offline", "supervision") == 81_000  # no fraction: the whole call


def test_the_overhead_never_takes_more_than_a_quarter_of_the_window() -> None:
    budget = TokenBudget(Config(model_context_overrides={"offline": 5000}, runtime_overhead=6000))
    assert budget.call_budget("offline") == int((5000 - 1250) * 0.85)


def test_small_windows_give_every_phase_most_of_the_call() -> None:
    for window in (4096, 8192):
        budget = TokenBudget(Config(model_context_overrides={"offline": window}))
        call = budget.call_budget("offline")
        assert call == int(window * 0.75 * 0.85)  # not (window - 10,000): that is nothing
        for phase in ("planning", "analysis", "synthesis", "refinement"):
            assert budget.available("offline", phase) == int(call * 0.85)
    mid = TokenBudget(Config(model_context_overrides={"offline": 32_000}))
    assert 0.40 < mid.available("offline", "analysis") / mid.call_budget("offline") < 0.85


def test_a_window_too_small_to_research_is_a_config_error_naming_the_fix() -> None:
    budget = TokenBudget(Config(model_context_overrides={"tiny": 1500}))
    budget.check_windows(["offline", "openai:gpt-4.1-mini"])
    with pytest.raises(ConfigError, match="model_context_overrides"):
        budget.check_windows(["offline", "openai:tiny"])
