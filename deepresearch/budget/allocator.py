"""TokenBudget: fit research content into a model's context by priority, degrading the
least important items first, and record what was compressed or dropped.

Allocation (see docs/budgeting.md for a worked example):
1. Each item gets a floor: protected items HEADLINE (never dropped), the five
   highest-priority sources COMPRESSED (at least 30% fidelity), everything else
   DROPPED when ``allow_content_dropping`` is on, else HEADLINE.
2. If even the floors exceed the budget, the top sources' floor is relaxed (lowest
   priority first) to HEADLINE, and to DROPPED when dropping is allowed.
3. Then, in rounds, each item in priority order (protected, top sources, the rest)
   climbs one level whenever the budget still has room, until nothing can climb.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from deepresearch.config import Config
from deepresearch.context import RunContext
from deepresearch.providers.base import LLMRequest
from deepresearch.state import (
    AllocationSummary,
    ContentFidelity,
    EventKind,
    Finding,
    ResearchState,
    Source,
)

from .archive import ContentArchive
from .degrade import (
    LEVELS,
    Condenser,
    DegradationLevel,
    fidelity_level,
    fidelity_line,
    report_fidelity,
    step_down,
    step_up,
    target_tokens,
    weighted_fidelity,
)
from .limits import (
    call_budget,
    check_window,
    context_limit,
    phase_fraction,
)
from .tokens import counter_for, truncate_keeping_lines

__all__ = [
    "BudgetItem",
    "DegradationLevel",
    "FittedItem",
    "TokenBudget",
    "fidelity_level",
    "fidelity_line",
    "finding_item",
    "plan_levels",
    "report_fidelity",
    "source_item",
]

TOP_SOURCES = 5
# Chat formats add a few tokens per message (role markers); the guard counts them.
MESSAGE_OVERHEAD_TOKENS = 4
# Levels at or below which the original is archived ("dropped or heavily compressed").
_ARCHIVE_FROM = LEVELS.index(DegradationLevel.COMPRESSED)


@dataclass
class BudgetItem:
    """One piece of content competing for a prompt's tokens, with what ranks it.

    Args:
        id: the source, finding or topic id.
        item_type: ``source``, ``finding`` or ``topic``.
        text: its full text.
        relevance: 0..1, how relevant to the question.
        recency: 0..1, newer is higher.
        quality: 0..1, source quality or finding confidence.
        user_priority: 0..1, a user's boost.
        protected: never dropped, never below headline.
        metadata: kept in the archive record.
    """

    id: str
    item_type: Literal["source", "finding", "topic"]
    text: str
    relevance: float = 0.5  # 0..1, how relevant to the question
    recency: float = 0.5  # 0..1, newer is higher
    quality: float = 0.5  # 0..1, source quality or finding confidence
    user_priority: float = 0.0  # 0..1, a user's boost
    protected: bool = False  # never dropped, never below HEADLINE
    metadata: dict[str, Any] = field(default_factory=dict)  # kept in the archive record

    @property
    def priority(self) -> float:
        """Relevance 0.4, recency 0.3, quality 0.2, user priority 0.1
        (docs/budgeting.md, section 3)."""
        return (
            self.relevance * 0.4
            + self.recency * 0.3
            + self.quality * 0.2
            + self.user_priority * 0.1
        )


# How callers turn what the state knows into priority inputs (0..1).
CONFIDENCE_WEIGHT: dict[str, float] = {
    "speculation": 0.1,
    "low": 0.3,
    "medium": 0.5,
    "high": 0.8,
    "confirmed": 1.0,
}
QUALITY_WEIGHT: dict[str, float] = {"low": 0.3, "unknown": 0.5, "medium": 0.6, "high": 1.0}
RECENCY_HORIZON_YEARS = 10  # a source this old or older scores 0 on recency
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")


def source_item(
    source: Source, *, relevance: float = 0.5, text: str | None = None, this_year: int | None = None
) -> BudgetItem:
    """A source as a budget item: quality from its rating, recency from its publication
    year (0.5 when unknown), the caller's relevance (e.g. search rank or novelty)."""
    recency = 0.5
    found = _YEAR.search(source.published or "")
    if found:
        age = (this_year or date.today().year) - int(found.group(1))
        recency = min(1.0, max(0.0, 1 - age / RECENCY_HORIZON_YEARS))
    return BudgetItem(
        id=source.id,
        item_type="source",
        text=source.content or source.snippet if text is None else text,
        relevance=relevance,
        recency=recency,
        quality=QUALITY_WEIGHT.get(source.quality.value, 0.5),
        metadata={"url": source.url, "title": source.title},
    )


def finding_item(finding: Finding, *, text: str | None = None) -> BudgetItem:
    """A finding as a budget item. Confidence drives relevance, quality and the user
    boost alike, so high-confidence findings always outrank speculation; confirmed
    findings are protected (never dropped, at least a headline)."""
    weight = CONFIDENCE_WEIGHT.get(finding.confidence.value, 0.5)
    return BudgetItem(
        id=finding.id,
        item_type="finding",
        text=finding.content if text is None else text,
        relevance=weight,
        quality=weight,
        user_priority=weight,
        protected=finding.confidence.value == "confirmed",
    )


@dataclass
class FittedItem:
    """An item as it fits the budget: its text at ``level`` and its token count."""

    id: str
    text: str
    level: DegradationLevel
    tokens: int


def plan_levels(
    items: list[BudgetItem], tokens: list[int], budget: int, *, allow_dropping: bool
) -> list[DegradationLevel]:
    """The level of each item so the sum of their target sizes fits the budget when the
    guardrails allow it (steps 1-3 of the module docstring)."""
    n = len(items)
    if sum(tokens) <= budget:
        return [DegradationLevel.FULL] * n
    ranked = sorted(range(n), key=lambda i: (-items[i].priority, i))
    rank = {i: r for r, i in enumerate(ranked)}
    top = set([i for i in ranked if items[i].item_type == "source"][:TOP_SOURCES])
    lowest = DegradationLevel.DROPPED if allow_dropping else DegradationLevel.HEADLINE
    hard_floor = [DegradationLevel.HEADLINE if it.protected else lowest for it in items]
    levels = [DegradationLevel.COMPRESSED if i in top else hard_floor[i] for i in range(n)]

    used = sum(target_tokens(tokens[i], levels[i]) for i in range(n))
    # Step 2: relax the top-source guardrail, lowest priority first, one level a round.
    relaxable = sorted(top, key=lambda i: (items[i].priority, -i))
    while used > budget and any(levels[i] != hard_floor[i] for i in relaxable):
        for i in relaxable:
            if used <= budget:
                break
            if levels[i] != hard_floor[i]:
                lower = step_down(levels[i])
                used += target_tokens(tokens[i], lower) - target_tokens(tokens[i], levels[i])
                levels[i] = lower
    # Step 3: climb in rounds, most important first.
    order = sorted(range(n), key=lambda i: (not items[i].protected, i not in top, rank[i]))
    climbed = True
    while climbed:
        climbed = False
        for i in order:
            if levels[i] is DegradationLevel.FULL:
                continue
            higher = step_up(levels[i])
            extra = target_tokens(tokens[i], higher) - target_tokens(tokens[i], levels[i])
            if used + extra <= budget:
                levels[i] = higher
                used += extra
                climbed = True
    return levels


class TokenBudget:
    """Per-session budgeting: limits, per-phase budgets, fitting, and the prompt guard."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.condenser = Condenser(
            cache_enabled=config.tokens.summarization_cache_enabled,
            timeout_s=config.summaries.summarization_timeout_s,
            call_budget=self.call_budget,
        )
        self.archive: ContentArchive | None = None
        if config.tokens.content_archive_enabled:
            self.archive = ContentArchive(
                config.resolved_archive_dir(), config.tokens.content_archive_ttl_hours
            )
        self._archive_cleaned = False
        # Windows servers stated when they refused a request (spec -> tokens): later
        # requests to that model are fitted to them before they are sent (learn_window).
        self.stated_windows: dict[str, int] = {}

    # -- arithmetic ------------------------------------------------------------------
    def context_limit(self, model_spec: str) -> int:
        """The context window of ``model_spec`` (``model_context_overrides`` first), or the
        smaller one its server stated in a refusal earlier in this session.

        Args:
            model_spec: a model spec such as ``openai:gpt-4.1-mini``.
        """
        limit = context_limit(model_spec, self.config.tokens.model_context_overrides)
        return min(limit, self.stated_windows.get(model_spec, limit))

    def learn_window(self, model_spec: str, window: int) -> bool:
        """Remember the window ``model_spec``'s server stated when it refused a request, so
        every later request to it is fitted to that window before it is sent (instead of
        being refused again). True when this made the model's window smaller.

        Args:
            model_spec: the model spec that refused.
            window: the context window (tokens) the refusal stated.
        """
        if window <= 0 or window >= self.context_limit(model_spec):
            return False
        self.stated_windows[model_spec] = window
        return True

    def call_budget(self, model_spec: str) -> int:
        """(limit − runtime_overhead) × (1 − safety margin): what one prompt may use."""
        cfg = self.config
        return call_budget(
            self.context_limit(model_spec),
            cfg.tokens.runtime_overhead,
            cfg.tokens.token_safety_margin,
        )

    def available(self, model_spec: str, phase: str) -> int:
        """The phase's share of the per-call budget (1.0 for phases without a fraction;
        larger for small windows, see ``limits.phase_fraction``)."""
        limit = self.context_limit(model_spec)
        return int(self.call_budget(model_spec) * phase_fraction(phase, limit))

    def check_windows(self, model_specs: list[str]) -> None:
        """ConfigError before the run when a model's window is too small to be useful."""
        cfg = self.config
        for spec in dict.fromkeys(model_specs):
            check_window(
                spec,
                cfg.tokens.model_context_overrides,
                cfg.tokens.runtime_overhead,
                cfg.tokens.token_safety_margin,
            )

    # -- fitting ---------------------------------------------------------------------
    async def fit(
        self,
        state: ResearchState,
        ctx: RunContext,
        *,
        phase: str,
        model_spec: str,
        items: list[BudgetItem],
        reserved_tokens: int,
    ) -> list[FittedItem]:
        """Items within ``available(model_spec, phase) − reserved_tokens``, in their
        original order, DROPPED ones left out. Records fidelity in the state."""
        count = counter_for(model_spec)
        originals = [count(item.text) for item in items]
        if not self.config.tokens.token_management_enabled:
            return [
                FittedItem(it.id, it.text, DegradationLevel.FULL, n)
                for it, n in zip(items, originals, strict=True)
            ]
        budget = max(0, self.available(model_spec, phase) - reserved_tokens)
        levels = plan_levels(
            items, originals, budget, allow_dropping=self.config.tokens.allow_content_dropping
        )
        limit = asyncio.Semaphore(self.config.calls.provider_max_concurrency)

        async def produce(i: int) -> FittedItem:
            item, level = items[i], levels[i]
            target = target_tokens(originals[i], level)
            if level is DegradationLevel.DROPPED:
                return FittedItem(item.id, "", level, 0)
            if target >= originals[i]:
                return FittedItem(item.id, item.text, DegradationLevel.FULL, originals[i])
            async with limit:
                result = await self.condenser.condense(
                    state,
                    ctx,
                    phase=phase,
                    text=item.text,
                    level=level,
                    target=target,
                    count_spec=model_spec,
                )
            if result.fallback:
                ctx.events.emit(
                    state,
                    EventKind.BUDGET_FALLBACK,
                    {"item_id": item.id, "level": level.value, "reason": result.fallback},
                )
            return FittedItem(item.id, result.text, level, count(result.text))

        tasks = [asyncio.ensure_future(produce(i)) for i in range(len(items))]
        try:
            fitted = list(await asyncio.gather(*tasks))
        except BaseException:
            for task in tasks:
                task.cancel()
            raise
        self._record(state, ctx, phase, items, originals, fitted, budget)
        return [f for f in fitted if f.level is not DegradationLevel.DROPPED]

    def _record(
        self,
        state: ResearchState,
        ctx: RunContext,
        phase: str,
        items: list[BudgetItem],
        originals: list[int],
        fitted: list[FittedItem],
        budget: int,
    ) -> None:
        for item, original, fit in zip(items, originals, fitted, strict=True):
            state.content_fidelity[item.id] = ContentFidelity(
                item_id=item.id,
                item_type=item.item_type,
                original_tokens=original,
                current_tokens=fit.tokens,
                level=fit.level.value,
                phase=phase,
                archived_hash=self._archive(item, original, fit.level),
            )
        summary = AllocationSummary(
            phase=phase,
            fidelity=weighted_fidelity(
                [(f.level.value, n) for f, n in zip(fitted, originals, strict=True)]
            ),
            tokens_used=sum(f.tokens for f in fitted),
            tokens_available=budget,
            items_dropped=sum(f.level is DegradationLevel.DROPPED for f in fitted),
            items_summarized=sum(
                f.level not in (DegradationLevel.FULL, DegradationLevel.DROPPED) for f in fitted
            ),
        )
        state.allocations.append(summary)
        ctx.events.emit(state, EventKind.BUDGET_ALLOCATION, summary.model_dump(mode="json"))

    def _archive(self, item: BudgetItem, original: int, level: DegradationLevel) -> str | None:
        if self.archive is None or LEVELS.index(level) < _ARCHIVE_FROM:
            return None
        if not self._archive_cleaned:  # TTL cleanup once per budget, before the first write
            self.archive.cleanup()
            self._archive_cleaned = True
        reason: Literal["dropped", "compressed"] = (
            "dropped" if level is DegradationLevel.DROPPED else "compressed"
        )
        return self.archive.store(
            item.text,
            item_id=item.id,
            item_type=item.item_type,
            reason=reason,
            original_tokens=original,
            metadata=item.metadata,
        )

    def _cap_answer(self, request: LLMRequest, model_spec: str) -> LLMRequest:
        """Prompt and answer must share the window: ``max_tokens`` is capped at the reserve
        beside the prompt budget (it matters for small windows, e.g. 8k local models)."""
        limit = self.context_limit(model_spec)
        cap = limit - self.call_budget(model_spec)
        if request.max_tokens is None or request.max_tokens <= cap:
            return request
        return dataclasses.replace(request, max_tokens=cap)

    # -- the last safety net -----------------------------------------------------------
    def guard(self, request: LLMRequest, model_spec: str) -> LLMRequest:
        """The request unchanged when system + user fit the per-call budget; otherwise
        the user message (and, if the system prompt alone is too long, that too) cut at
        sentence boundaries to fit."""
        if not self.config.tokens.token_management_enabled:
            return request
        request = self._cap_answer(request, model_spec)
        count = counter_for(model_spec)
        limit = self.call_budget(model_spec) - MESSAGE_OVERHEAD_TOKENS * len(request.messages)
        system, user = request.system, request.user
        system_tokens = count(system)
        if system_tokens + count(user) <= limit:
            return request
        if system_tokens > limit // 2:
            system = truncate_keeping_lines(system, limit // 2, model_spec)
            system_tokens = count(system)
        user = truncate_keeping_lines(user, max(0, limit - system_tokens), model_spec)
        return request.with_system(system).with_user(user)
