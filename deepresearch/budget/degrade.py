"""Degradation levels and the condenser that produces them.

The summarization role writes each degraded text (through the one LLM call path, so
usage is accounted and the role's model routing applies). Results are cached by
(SHA-256 of the text, level). When the call fails or exceeds
``summarization_timeout_s`` the condenser falls back to deterministic truncation at
sentence boundaries and says so. A degraded text never exceeds its target.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from deepresearch.context import RunContext
from deepresearch.errors import PhaseTimeoutError, ProviderError
from deepresearch.llm import ask
from deepresearch.offline import research as offline_research
from deepresearch.roles import CondenseInputs, CondenseOutput, RoleSpec
from deepresearch.state import AgentRole, Phase, ResearchState
from deepresearch.text import split_sentences
from deepresearch.untrusted import UNTRUSTED_BRIEF, source_block

from .tokens import count_tokens, split_to_chunks, truncate_to_tokens


class DegradationLevel(StrEnum):
    """How much of an item a prompt keeps, from full text down to dropped."""

    FULL = "full"
    CONDENSED = "condensed"
    COMPRESSED = "compressed"
    KEY_POINTS = "key_points"
    HEADLINE = "headline"
    DROPPED = "dropped"


# Best to worst; the nominal fidelity of each level (docs/budgeting.md, section 4).
LEVELS: tuple[DegradationLevel, ...] = tuple(DegradationLevel)
LEVEL_FIDELITY: dict[str, float] = {
    DegradationLevel.FULL: 1.0,
    DegradationLevel.CONDENSED: 0.7,
    DegradationLevel.COMPRESSED: 0.4,
    DegradationLevel.KEY_POINTS: 0.2,
    DegradationLevel.HEADLINE: 0.1,
    DegradationLevel.DROPPED: 0.0,
}
_CITATION = re.compile(r"\[\d+\]")
# A summary shorter than this cannot hold one sentence; small items keep that much.
MIN_SUMMARY_TOKENS = 16
# Prompt framing around a chunk sent to the summarizer (instructions, question, labels).
_PROMPT_SLACK_TOKENS = 64

_INSTRUCTIONS: dict[str, str] = {
    DegradationLevel.CONDENSED: "Condense the text lightly: keep every key detail, number, "
    "name and date; remove repetition and filler.",
    DegradationLevel.COMPRESSED: "Compress the text heavily: keep only its main points and the "
    "facts that support them.",
    DegradationLevel.KEY_POINTS: "Reduce the text to a few bullet points of its most critical "
    "information.",
    DegradationLevel.HEADLINE: "Summarise the text in a single sentence.",
}


def step_down(level: DegradationLevel) -> DegradationLevel:
    """The next smaller level (dropped stays dropped).

    Args:
        level: the current level.
    """
    return LEVELS[min(LEVELS.index(level) + 1, len(LEVELS) - 1)]


def step_up(level: DegradationLevel) -> DegradationLevel:
    """The next fuller level (full stays full).

    Args:
        level: the current level.
    """
    return LEVELS[max(LEVELS.index(level) - 1, 0)]


def target_tokens(original_tokens: int, level: DegradationLevel) -> int:
    """The most tokens an item may use at a level."""
    if level is DegradationLevel.FULL:
        return original_tokens
    if level is DegradationLevel.DROPPED:
        return 0
    share = math.ceil(original_tokens * LEVEL_FIDELITY[level])
    return min(original_tokens, max(MIN_SUMMARY_TOKENS, share))


@dataclass
class Condensed:
    """A condensed text and, when truncation replaced the summarizer, why."""

    text: str
    fallback: str | None = None  # why truncation replaced the summarizer, if it did


class Condenser:
    """Brings a text down to a level via the summarization role, with cache and fallback."""

    def __init__(
        self, *, cache_enabled: bool, timeout_s: float, call_budget: Callable[[str], int]
    ) -> None:
        self._cache: dict[tuple[str, str], str] | None = {} if cache_enabled else None
        self._timeout_s = timeout_s
        self._call_budget = call_budget  # model spec -> tokens one prompt may use
        self.calls = 0  # summarization calls made (cache hits excluded)

    async def condense(
        self,
        state: ResearchState,
        ctx: RunContext,
        *,
        phase: str,
        text: str,
        level: DegradationLevel,
        target: int,
        count_spec: str,
    ) -> Condensed:
        """Text at a level within target tokens, counted for count_spec (the model whose
        prompt the result joins)."""
        key = (hashlib.sha256(text.encode("utf-8")).hexdigest(), level.value)
        if self._cache is not None and key in self._cache:
            cached = self._cache[key]
            if count_tokens(cached, count_spec) <= target:
                return Condensed(cached)
        try:
            summary = await asyncio.wait_for(
                self._summarize(state, ctx, phase, text, level, target), self._timeout_s
            )
        except PhaseTimeoutError:
            raise
        except TimeoutError:
            return Condensed(_truncate(text, level, target, count_spec), "timeout")
        except ProviderError as exc:
            return Condensed(_truncate(text, level, target, count_spec), type(exc).__name__)
        if not summary.strip():
            return Condensed(_truncate(text, level, target, count_spec), "empty summary")
        if _CITATION.search(text) and not _CITATION.search(summary):
            # Findings rest on [n] numbers: a summary without them would drop the findings.
            return Condensed(_truncate(text, level, target, count_spec), "citations lost")
        summary = truncate_to_tokens(summary, target, count_spec)
        if self._cache is not None:
            self._cache[key] = summary
        return Condensed(summary)

    async def _summarize(
        self,
        state: ResearchState,
        ctx: RunContext,
        phase: str,
        text: str,
        level: DegradationLevel,
        target: int,
    ) -> str:
        """One call when the text fits the summarizer's prompt; otherwise condense
        sentence-aligned chunks, each to its share of the target, and join them."""
        summarizer_spec = ctx.models.specs(AgentRole.SUMMARIZER)[0]
        system = condense_system(level, target)
        framing = count_tokens(system + state.question, summarizer_spec) + _PROMPT_SLACK_TOKENS
        room = max(MIN_SUMMARY_TOKENS, self._call_budget(summarizer_spec) - framing)
        total = max(1, count_tokens(text, summarizer_spec))
        chunks = [text] if total <= room else split_to_chunks(text, room, summarizer_spec)
        parts: list[str] = []
        for chunk in chunks:
            chunk_target = max(1, target * count_tokens(chunk, summarizer_spec) // total)
            self.calls += 1
            inputs = CondenseInputs(
                text=chunk, level=level.value, target_tokens=chunk_target, query=state.question
            )
            out = await ask(CONDENSER, inputs, state, ctx, phase=phase)
            parts.append(out.text.strip())
        return "\n".join(p for p in parts if p)


def condense_system(level: DegradationLevel, target: int) -> str:
    """The summarization role's system prompt for condensing to ``level``."""
    return (
        f"You condense research material. {_INSTRUCTIONS[level]} Write at most "
        f"{target} tokens. Use only facts from the text. Keep every [n] citation "
        f"marker exactly as written, next to the statement it supports. {UNTRUSTED_BRIEF}"
    )


def condense_user(question: str, text: str) -> str:
    """The user message carrying one text (or chunk) to condense."""
    text_block = source_block({"kind": "text to condense"}, text)
    return f"Research question: {question}\n\nText:\n{text_block}"


CONDENSER = RoleSpec(
    "condense",
    AgentRole.SUMMARIZER,
    Phase.GATHERING,  # condensing runs in whichever phase fits its prompt (ask(phase=...))
    lambda i: condense_system(DegradationLevel(i.level), i.target_tokens),
    lambda i: condense_user(i.query, i.text),
    CondenseInputs,
    CondenseOutput,
    offline_research.condense,
)


def _truncate(text: str, level: DegradationLevel, target: int, count_spec: str) -> str:
    """Deterministic fallback: leading sentences (as bullets for key points)."""
    cut = truncate_to_tokens(text, target, count_spec)
    if level is DegradationLevel.KEY_POINTS:
        bullets = "\n".join(f"- {s}" for s in split_sentences(cut, lines=True))
        if count_tokens(bullets, count_spec) <= target:
            return bullets
    return cut


# -- fidelity for reports --------------------------------------------------------------
def fidelity_level(score: float) -> str:
    """A report's fidelity named: ≥0.9 full, ≥0.6 condensed, ≥0.3 compressed, else minimal."""
    if score >= 0.9:
        return "full"
    if score >= 0.6:
        return "condensed"
    if score >= 0.3:
        return "compressed"
    return "minimal"


def weighted_fidelity(entries: list[tuple[str, int]]) -> float:
    """Mean level fidelity weighted by original size (a dropped long source costs more
    than a dropped one-liner); 1.0 when there is nothing."""
    if not entries:
        return 1.0
    total = sum(max(1, n) for _, n in entries)
    kept = sum(LEVEL_FIDELITY.get(level, 1.0) * max(1, n) for level, n in entries)
    return round(kept / total, 4)


def report_fidelity(state: ResearchState) -> tuple[float | None, str | None]:
    """Overall fidelity of what the research last fed its models (each item's latest
    level), and its level name; (None, None) when no budgeting was recorded."""
    if not state.content_fidelity:
        return None, None
    entries = [(f.level, f.original_tokens) for f in state.content_fidelity.values()]
    score = min(weighted_fidelity(entries), carried_fraction(state))
    score = round(score, 2)
    return score, fidelity_level(score)


def carried_fraction(state: ResearchState) -> float:
    """How much of the gathered source text the fullest phase's prompts really carried
    (1.0 when nothing was gathered): a run whose prompts held no source text scores 0,
    whatever the budget records say."""
    gathered = sum(len(s.content) for s in state.sources)
    if not gathered:
        return 1.0
    by_phase: dict[str, int] = {}
    for m in state.metrics:
        by_phase[m.phase.value] = by_phase.get(m.phase.value, 0) + m.prompt_source_chars
    return min(1.0, max(by_phase.values(), default=0) / gathered)


def fidelity_line(state: ResearchState) -> str | None:
    """One line for the report, e.g. 'Fidelity: 0.62 (compressed) — 41 of 60 items
    summarized, 3 dropped'; None when no budgeting was recorded."""
    score, level = report_fidelity(state)
    if score is None:
        return None
    records = state.content_fidelity.values()
    dropped = sum(f.level == DegradationLevel.DROPPED for f in records)
    summarized = sum(f.level not in ("full", "dropped") for f in records)
    return (
        f"Fidelity: {score:.2f} ({level}) — {summarized} of {len(records)} items summarized, "
        f"{dropped} dropped"
    )
