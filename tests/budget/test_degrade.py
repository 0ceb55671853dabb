"""The condenser: summarization role, cache, fallbacks, chunking, and targets."""

from __future__ import annotations

from deepresearch.budget import BudgetItem, TokenBudget, count_tokens
from deepresearch.budget.degrade import DegradationLevel, target_tokens
from deepresearch.config import Config
from deepresearch.roles import CondenseInputs
from deepresearch.state import ResearchState

from .doubles import ExtractiveLLM, make_context, sentences

TIGHT = {"model_context_overrides": {"offline": 2000}, "runtime_overhead": 0}


def items(n: int) -> list[BudgetItem]:
    return [
        BudgetItem(id=f"src-{i}", item_type="source", text=sentences(30, f"t{i}")) for i in range(n)
    ]


async def run_fit(budget: TokenBudget, llm: ExtractiveLLM, state: ResearchState, n: int = 8):  # type: ignore[no-untyped-def]
    ctx, events = make_context(budget.config, llm)
    fitted = await budget.fit(
        state, ctx, phase="analysis", model_spec="offline", items=items(n), reserved_tokens=0
    )
    return fitted, events


async def test_summaries_come_from_the_summarization_role(state: ResearchState) -> None:
    llm = ExtractiveLLM()
    fitted, _ = await run_fit(TokenBudget(Config(**TIGHT)), llm, state)
    degraded = [f for f in fitted if f.level is not DegradationLevel.FULL]
    assert degraded
    asked = {r.inputs.text for r in llm.requests if isinstance(r.inputs, CondenseInputs)}
    for f in degraded:
        assert any(f.text.split(". ")[0] in text for text in asked)
    request = llm.requests[0]
    assert isinstance(request.inputs, CondenseInputs)
    assert request.inputs.query == state.question
    assert request.phase == "analysis"
    assert state.usage and state.usage[0].role == "summarization"


async def test_cache_avoids_repeat_calls(state: ResearchState) -> None:
    llm = ExtractiveLLM()
    budget = TokenBudget(Config(**TIGHT))
    await run_fit(budget, llm, state)
    first = len(llm.requests)
    assert first > 0
    await run_fit(budget, llm, state)
    assert len(llm.requests) == first

    uncached = TokenBudget(Config(**TIGHT, summarization_cache_enabled=False))
    llm2 = ExtractiveLLM()
    await run_fit(uncached, llm2, state)
    await run_fit(uncached, llm2, state)
    assert len(llm2.requests) == 2 * first


async def test_failed_summarizer_falls_back_to_truncation(state: ResearchState) -> None:
    fitted, events = await run_fit(TokenBudget(Config(**TIGHT)), ExtractiveLLM(fail=True), state)
    reasons = {e["reason"] for e in events.kinds("budget_fallback")}
    assert reasons == {"ProviderError"}
    original = count_tokens(items(1)[0].text)
    for f in fitted:
        assert f.text and f.tokens <= target_tokens(original, f.level)
        assert f.text.startswith(("Sentence 0", "- Sentence 0"))


async def test_slow_summarizer_times_out_to_truncation(state: ResearchState) -> None:
    config = Config(**TIGHT, summarization_timeout_s=0.01)
    fitted, events = await run_fit(TokenBudget(config), ExtractiveLLM(delay_s=30), state, n=3)
    assert events.kinds("budget_fallback")
    assert all(e["reason"] == "timeout" for e in events.kinds("budget_fallback"))
    assert all(f.text for f in fitted)


async def test_text_longer_than_the_summarizer_prompt_is_chunked(state: ResearchState) -> None:
    config = Config(model_context_overrides={"offline": 1200}, runtime_overhead=0)
    budget = TokenBudget(config)
    llm = ExtractiveLLM()
    ctx, _ = make_context(config, llm)
    text = sentences(120, "long")  # several times the per-call budget
    assert count_tokens(text) > 3 * budget.call_budget("offline")
    result = await budget.condenser.condense(
        state,
        ctx,
        phase="analysis",
        text=text,
        level=DegradationLevel.KEY_POINTS,
        target=200,
        count_spec="offline",
    )
    assert len(llm.requests) > 1
    for request in llm.requests:
        assert count_tokens(request.system) + count_tokens(request.user) <= budget.call_budget(
            "offline"
        )
    assert 0 < count_tokens(result.text) <= 200 and result.fallback is None
    assert "Sentence 0 " in result.text and "Sentence 119 " not in result.text
