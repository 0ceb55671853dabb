"""guard(): the last safety net before a call."""

from __future__ import annotations

from deepresearch.budget import TokenBudget, count_tokens
from deepresearch.config import Config
from deepresearch.providers.base import LLMRequest, Message
from deepresearch.roles import CondenseInputs, CondenseOutput
from deepresearch.state import AgentRole

from .doubles import sentences

CONFIG = Config(model_context_overrides={"offline": 1000}, runtime_overhead=100)


def request(system: str, user: str) -> LLMRequest:
    return LLMRequest(
        role=AgentRole.ANALYZER,
        phase="analysis",
        messages=[Message("system", system), Message("user", user)],
        output_type=CondenseOutput,
        inputs=CondenseInputs(text="", level="headline", target_tokens=1),
        max_tokens=123,
    )


def prompt_tokens(r: LLMRequest) -> int:
    return count_tokens(r.system) + count_tokens(r.user)


def test_fitting_request_is_returned_unchanged() -> None:
    r = request("Be brief.", "A short question.")
    assert TokenBudget(CONFIG).guard(r, "offline") is r


def test_oversized_user_message_is_cut_to_fit() -> None:
    budget = TokenBudget(CONFIG)
    r = request("You analyse sources.", sentences(200, "press"))
    guarded = budget.guard(r, "offline")
    assert guarded is not r
    assert prompt_tokens(guarded) <= budget.call_budget("offline")
    assert guarded.system == r.system and r.user.startswith(guarded.user)
    assert guarded.max_tokens == 123 and guarded.inputs is r.inputs


def test_oversized_system_prompt_is_cut_too() -> None:
    budget = TokenBudget(CONFIG)
    guarded = budget.guard(request(sentences(200, "rules"), sentences(200, "x")), "offline")
    assert prompt_tokens(guarded) <= budget.call_budget("offline")
    assert guarded.user  # the user message keeps at least half the room


def test_guard_is_off_with_token_management() -> None:
    r = request("s", sentences(200, "press"))
    off = TokenBudget(CONFIG.merged(token_management_enabled=False))
    assert off.guard(r, "offline") is r


def test_a_cut_prompt_keeps_its_line_structure() -> None:
    sources = "\n".join(
        f"[{n}] (ID: src-{n}) Title {n}\n  Content: {sentences(8, f'fact{n}')}"
        for n in range(1, 30)
    )
    budget = TokenBudget(CONFIG)
    guarded = budget.guard(
        request("You compress.", f"Question: Q?\n\nSources:\n\n{sources}"), "offline"
    )
    assert prompt_tokens(guarded) <= budget.call_budget("offline")
    lines = guarded.user.splitlines()
    assert lines[0] == "Question: Q?" and "[1] (ID: src-1) Title 1" in lines
    assert sources.startswith("\n".join(lines[4:-1]))  # whole leading lines, in order


def test_a_window_a_server_stated_fits_later_requests_to_it() -> None:
    budget = TokenBudget(Config(runtime_overhead=100))
    r = request("You analyse sources.", sentences(400, "press"))
    assert budget.guard(r, "openai:llama3") is r  # fits the 32k assumed for a local model
    assert budget.learn_window("openai:llama3", 2000)
    guarded = budget.guard(r, "openai:llama3")
    assert budget.context_limit("openai:llama3") == 2000
    assert prompt_tokens(guarded) <= budget.call_budget("openai:llama3") < 2000
    assert budget.context_limit("openai:other") == 32_000  # per model, not global


def test_a_stated_window_never_widens_the_one_assumed_or_configured() -> None:
    budget = TokenBudget(CONFIG)
    assert not budget.learn_window("offline", 5000)  # the override says 1,000
    assert budget.context_limit("offline") == 1000
    assert budget.learn_window("offline", 800) and budget.context_limit("offline") == 800
    assert not budget.learn_window("offline", 900)  # an earlier, smaller statement stands
    assert budget.context_limit("offline") == 800
