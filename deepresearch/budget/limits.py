"""Context-window sizes per model and the budget arithmetic (docs/budgeting.md, section 2).

    per-call budget = (context limit − overhead) × (1 − token_safety_margin)
    phase budget    = per-call budget × phase fraction

where overhead = min(runtime_overhead, 25% of the window), and the phase fractions grow
towards 0.85 for windows below 64k, so a 4k or 8k local model still spends most of its
window on sources.

The phase fractions: planning 10%, analysis 40%, synthesis 35%, refinement 15%.
Phases with no fraction (clarification, brief, gathering's
summarization and compression, supervision) use the whole per-call budget: each of
their calls carries one document or one digest, never the whole research.
"""

from __future__ import annotations

from collections.abc import Mapping

from deepresearch.errors import ConfigError

# Longest matching prefix of the model name wins; vendors without a model name match
# by vendor. Numbers are the vendors' published context windows.
CONTEXT_LIMITS: dict[str, int] = {
    "gpt-4.1": 1_047_576,
    "gpt-4o": 128_000,
    "gpt-5": 400_000,
    "o1": 200_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    "claude-": 200_000,
    "offline": 128_000,
}
UNKNOWN_CONTEXT_LIMIT = 32_000  # a cautious size for local or unlisted models
# Small windows: the overhead reserve is capped at a share of the window, and the phase
# fractions grow towards SMALL_WINDOW_FRACTION as the window shrinks from LARGE_WINDOW.
OVERHEAD_SHARE = 0.25
SMALL_WINDOW = 8_192
LARGE_WINDOW = 65_536
SMALL_WINDOW_FRACTION = 0.85
# The prompt frame (system prompt, headings, question, ~600 tokens) plus about one source.
MIN_USEFUL_PROMPT_TOKENS = 1_200

PHASE_FRACTIONS: dict[str, float] = {
    "planning": 0.10,
    "analysis": 0.40,
    "synthesis": 0.35,
    "refinement": 0.15,
}


def context_limit(model_spec: str, overrides: Mapping[str, int] | None = None) -> int:
    """The context window of a model spec. Overrides match the full spec
    ('openai:gpt-4.1-mini'), the model name ('gpt-4.1-mini') or the vendor ('offline')."""
    spec = model_spec.strip()
    vendor, _, model = spec.partition(":")
    name = model or vendor
    for key in (spec, name, vendor):
        if overrides and key in overrides:
            return overrides[key]
    matches = [prefix for prefix in CONTEXT_LIMITS if name.lower().startswith(prefix)]
    if matches:
        return CONTEXT_LIMITS[max(matches, key=len)]
    return UNKNOWN_CONTEXT_LIMIT


def effective_overhead(limit: int, runtime_overhead: int) -> int:
    """The reserve for the answer and the runtime, at most ``OVERHEAD_SHARE`` of the window:
    the default 10,000 tokens would leave an 8k local model nothing for its prompt."""
    return min(runtime_overhead, int(limit * OVERHEAD_SHARE))


def call_budget(limit: int, runtime_overhead: int, safety_margin: float) -> int:
    """Tokens one prompt (system + user) may use."""
    return max(0, int((limit - effective_overhead(limit, runtime_overhead)) * (1 - safety_margin)))


def phase_fraction(phase: str, limit: int | None = None) -> float:
    """The phase's share of the per-call budget. The base fractions suit large windows; a
    small window (``limit`` below ``LARGE_WINDOW``) gives every phase more of its one call,
    up to ``SMALL_WINDOW_FRACTION`` at ``SMALL_WINDOW`` and below."""
    base = PHASE_FRACTIONS.get(phase, 1.0)
    if limit is None or base >= SMALL_WINDOW_FRACTION:
        return base
    smallness = min(1.0, max(0.0, (LARGE_WINDOW - limit) / (LARGE_WINDOW - SMALL_WINDOW)))
    return base + (SMALL_WINDOW_FRACTION - base) * smallness


def smallest_phase_budget(limit: int, runtime_overhead: int, safety_margin: float) -> int:
    """The smallest prompt budget any phase gets with this window."""
    budget = call_budget(limit, runtime_overhead, safety_margin)
    return int(budget * min(phase_fraction(p, limit) for p in PHASE_FRACTIONS))


def check_window(
    model_spec: str,
    overrides: Mapping[str, int] | None,
    runtime_overhead: int,
    safety_margin: float,
) -> None:
    """Raise ConfigError when the model's window cannot hold the smallest useful prompt."""
    limit = context_limit(model_spec, overrides)
    room = smallest_phase_budget(limit, runtime_overhead, safety_margin)
    if room < MIN_USEFUL_PROMPT_TOKENS:
        raise ConfigError(
            f"{model_spec} has a {limit:,}-token context window, which leaves {room:,} tokens "
            f"for a prompt; research needs at least {MIN_USEFUL_PROMPT_TOKENS:,}. Use a model "
            "with a larger window, or if this one is larger than assumed, set "
            f"Config.model_context_overrides (e.g. {{'{model_spec}': 8192}})."
        )
