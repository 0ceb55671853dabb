"""Allocation under tight and loose budgets, the guardrails, and the degradation order."""

from __future__ import annotations

import pytest

from deepresearch.budget import BudgetItem, DegradationLevel, TokenBudget, count_tokens
from deepresearch.budget.allocator import finding_item, plan_levels, source_item
from deepresearch.budget.degrade import LEVELS, target_tokens
from deepresearch.config import Config
from deepresearch.state import AgentRole, Confidence, Finding, ResearchState, Source, SourceQuality

from .doubles import ExtractiveLLM, make_context, sentences

L = DegradationLevel


def sources(n: int, sentences_each: int = 25) -> list[BudgetItem]:
    """Equal-size sources whose priority falls with their index."""
    return [
        BudgetItem(
            id=f"src-{i}",
            item_type="source",
            text=sentences(sentences_each, f"topic{i}"),
            relevance=1 - i / n,
        )
        for i in range(n)
    ]


def config_for(content_budget: int, **extra: object) -> Config:
    """A config whose analysis budget is (just over) content_budget tokens: the smallest
    window that gives it, found by bisection (small windows get larger phase fractions)."""

    def config(limit: int) -> Config:
        return Config(
            model_context_overrides={"offline": limit},
            runtime_overhead=0,
            token_safety_margin=0,
            **extra,
        )

    low, high = 1, 4 * content_budget + 10
    while low < high:
        mid = (low + high) // 2
        if TokenBudget(config(mid)).available("offline", "analysis") > content_budget:
            high = mid
        else:
            low = mid + 1
    return config(low)


async def fit(config: Config, items: list[BudgetItem], state: ResearchState, llm=None):  # type: ignore[no-untyped-def]
    llm = llm or ExtractiveLLM()
    ctx, events = make_context(config, llm)
    budget = TokenBudget(config)
    fitted = await budget.fit(
        state, ctx, phase="analysis", model_spec="offline", items=items, reserved_tokens=0
    )
    return fitted, budget, llm, events


def rank(level: str) -> int:
    return LEVELS.index(L(level))


async def test_loose_budget_keeps_everything_full(state: ResearchState) -> None:
    items = sources(10)
    total = sum(count_tokens(i.text) for i in items)
    fitted, _, llm, _ = await fit(config_for(total + 10), items, state)
    assert [f.level for f in fitted] == [L.FULL] * 10
    assert [f.text for f in fitted] == [i.text for i in items]
    assert llm.requests == []
    assert state.allocations[-1].fidelity == 1.0
    assert state.allocations[-1].items_summarized == 0
    assert all(f.level == "full" for f in state.content_fidelity.values())


async def test_tight_budget_degrades_low_priority_first_and_fits(state: ResearchState) -> None:
    items = sources(20)
    size = count_tokens(items[0].text)
    budget_tokens = size * 4  # a fifth of what full content needs
    fitted, budget, llm, _ = await fit(config_for(budget_tokens), items, state)
    available = budget.available("offline", "analysis")
    assert sum(f.tokens for f in fitted) <= available
    levels = [rank(f.level) for f in fitted]
    assert levels == sorted(levels), "a higher-priority source never ends below a lower one"
    assert all(level <= rank(L.COMPRESSED) for level in levels[:5]), "top-5 guardrail"
    assert levels[-1] > rank(L.COMPRESSED)
    for item, f in zip(items, fitted, strict=True):
        assert f.tokens <= target_tokens(count_tokens(item.text), f.level)
        assert f.tokens == count_tokens(f.text)
    assert llm.requests and all(r.role is AgentRole.SUMMARIZER for r in llm.requests)
    summary = state.allocations[-1]
    assert summary.tokens_available == available
    assert summary.utilization <= 1
    assert 0 < summary.fidelity < 1
    assert summary.items_summarized == sum(f.level != L.FULL for f in fitted)


async def test_dropping_only_when_allowed(state: ResearchState) -> None:
    items = sources(30)
    size = count_tokens(items[0].text)
    tiny = size  # not even a headline each
    kept, _, _, _ = await fit(config_for(tiny), items, state)
    assert len(kept) == 30 and all(f.level == L.HEADLINE for f in kept)
    assert state.allocations[-1].utilization > 1, "overflow is recorded, guard() cuts later"

    other = ResearchState(question=state.question)
    kept, _, _, _ = await fit(config_for(tiny, allow_content_dropping=True), items, other)
    assert 0 < len(kept) < 30
    assert [f.id for f in kept] == sorted((f.id for f in kept), key=lambda x: int(x[4:]))
    dropped = [k for k, v in other.content_fidelity.items() if v.level == "dropped"]
    assert len(dropped) == 30 - len(kept) == other.allocations[-1].items_dropped
    assert all(other.content_fidelity[d].current_tokens == 0 for d in dropped)
    assert other.allocations[-1].utilization <= 1


async def test_protected_items_are_never_dropped(state: ResearchState) -> None:
    items = sources(20)
    items[-1].protected = True  # the lowest priority of all
    size = count_tokens(items[0].text)
    kept, _, _, _ = await fit(config_for(size // 2, allow_content_dropping=True), items, state)
    ids = {f.id for f in kept}
    assert "src-19" in ids
    assert rank(state.content_fidelity["src-19"].level) <= rank(L.HEADLINE)
    assert "src-18" not in ids  # its unprotected neighbour went


async def test_high_confidence_findings_come_before_speculation(state: ResearchState) -> None:
    confidences = [Confidence.SPECULATION, Confidence.HIGH, Confidence.LOW]
    findings = [
        Finding(id=f"f-{i}", content=sentences(6, f"claim{i}"), confidence=c)
        for i, c in enumerate(confidences)
    ]
    items = [finding_item(f) for f in findings]
    size = count_tokens(items[0].text)
    # Every finding at COMPRESSED, and room for one of them to climb to CONDENSED.
    room = 3 * target_tokens(size, L.COMPRESSED) + (
        target_tokens(size, L.CONDENSED) - target_tokens(size, L.COMPRESSED)
    )
    await fit(config_for(room + 2, allow_content_dropping=True), items, state)
    level = {k: L(v.level) for k, v in state.content_fidelity.items()}
    assert level == {"f-0": L.COMPRESSED, "f-1": L.CONDENSED, "f-2": L.COMPRESSED}


def test_confirmed_findings_are_protected() -> None:
    confirmed = Finding(id="f-1", content="x", confidence=Confidence.CONFIRMED)
    high = Finding(id="f-2", content="x", confidence=Confidence.HIGH)
    assert finding_item(confirmed).protected and not finding_item(high).protected
    assert finding_item(confirmed).priority > finding_item(high).priority


@pytest.mark.parametrize("allow", [False, True])
def test_degradation_order_for_one_item(allow: bool) -> None:
    item = BudgetItem(id="x", item_type="finding", text="")
    size = 1000
    seen = []
    for budget in range(size, -1, -25):
        seen.append(plan_levels([item], [size], budget, allow_dropping=allow)[0])
    order = list(dict.fromkeys(seen))
    expected = [L.FULL, L.CONDENSED, L.COMPRESSED, L.KEY_POINTS, L.HEADLINE]
    assert order == [*expected, L.DROPPED] if allow else expected


def test_top_sources_relax_only_when_the_guardrail_is_impossible() -> None:
    items = sources(6)
    tokens = [1000] * 6
    # Room for five COMPRESSED (400 each) plus one headline: the guardrail holds.
    levels = plan_levels(items, tokens, 5 * 400 + 100, allow_dropping=False)
    assert all(rank(level) <= rank(L.COMPRESSED) for level in levels[:5])
    # Room for less: the lowest of the top five gives way first.
    levels = plan_levels(items, tokens, 4 * 400 + 2 * 100, allow_dropping=False)
    assert rank(levels[4]) > rank(L.COMPRESSED) and rank(levels[0]) <= rank(L.COMPRESSED)


async def test_management_disabled_passes_content_through(state: ResearchState) -> None:
    items = sources(5)
    config = config_for(10, token_management_enabled=False)
    fitted, _, llm, _ = await fit(config, items, state)
    assert [f.text for f in fitted] == [i.text for i in items]
    assert llm.requests == [] and state.content_fidelity == {} and state.allocations == []


def test_the_worked_example_of_the_docs() -> None:
    """docs/budgeting.md §9, number for number."""
    budget = TokenBudget(Config(model_context_overrides={"offline": 8000}, runtime_overhead=500))
    assert budget.available("offline", "analysis") - 600 == 4818  # 1950 with the seeds' 40%
    scores = [
        (0.9, 0.8, 1.0),
        (0.8, 0.5, 0.6),
        (0.8, 0.9, 0.6),
        (0.7, 0.5, 0.5),
        (0.6, 0.2, 0.3),
        (0.5, 0.5, 0.5),
        (0.4, 0.6, 0.3),
        (0.2, 0.5, 0.5),
    ]
    items = [
        BudgetItem(id=f"s{i}", item_type="source", text="", relevance=r, recency=t, quality=q)
        for i, (r, t, q) in enumerate(scores)
    ]
    sizes = [1000, 1200, 800, 1000, 600, 1000, 900, 1500]
    levels = plan_levels(items, sizes, 4818, allow_dropping=False)
    f, d, c, k, h = L.FULL, L.CONDENSED, L.COMPRESSED, L.KEY_POINTS, L.HEADLINE
    assert levels == [f, d, f, d, c, d, k, k]
    assert sum(target_tokens(s, lv) for s, lv in zip(sizes, levels, strict=True)) == 4760
    dropping = plan_levels(items, sizes, 4818, allow_dropping=True)
    assert dropping == [f, f, f, d, h, d, k, h]
    assert plan_levels(items, sizes, 128_000, allow_dropping=False) == [L.FULL] * 8


async def test_prompt_frame_larger_than_the_budget_records_an_overflow(
    state: ResearchState,
) -> None:
    items = sources(3)
    config = config_for(500)
    ctx, _ = make_context(config, ExtractiveLLM())
    fitted = await TokenBudget(config).fit(
        state, ctx, phase="analysis", model_spec="offline", items=items, reserved_tokens=10_000
    )
    assert [f.level for f in fitted] == [L.HEADLINE] * 3
    summary = state.allocations[-1]
    assert summary.tokens_available == 0 and summary.utilization > 1


def test_source_item_maps_quality_recency_and_metadata() -> None:
    def src(quality: SourceQuality, published: str | None) -> Source:
        return Source(
            id="src-1",
            citation=1,
            url="https://a.org",
            title="A",
            content="Body.",
            quality=quality,
            published=published,
        )

    new = source_item(src(SourceQuality.HIGH, "2024-05-01"), relevance=0.9, this_year=2025)
    old = source_item(src(SourceQuality.LOW, "1990"), relevance=0.9, this_year=2025)
    unknown = source_item(src(SourceQuality.UNKNOWN, None), this_year=2025)
    assert new.quality == 1.0 and new.recency == pytest.approx(0.9)
    assert (old.quality, old.recency) == (0.3, 0.0)
    assert (unknown.quality, unknown.recency, unknown.relevance) == (0.5, 0.5, 0.5)
    assert new.priority > old.priority
    assert new.text == "Body." and new.metadata == {"url": "https://a.org", "title": "A"}
