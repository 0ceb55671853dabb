"""Context-window sizes per model and the budget arithmetic of the seeds.

    per-call budget = (context limit − runtime_overhead) × (1 − token_safety_margin)
    phase budget    = per-call budget × phase fraction

The phase fractions are the seeds' (planning 10%, analysis 40%, synthesis 35%,
refinement 15%). Phases the seeds give no fraction (clarification, brief, gathering's
summarization and compression, supervision) use the whole per-call budget: each of
their calls carries one document or one digest, never the whole research.
"""

from __future__ import annotations

from collections.abc import Mapping

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


def call_budget(limit: int, runtime_overhead: int, safety_margin: float) -> int:
    """Tokens one prompt (system + user) may use."""
    return max(0, int((limit - runtime_overhead) * (1 - safety_margin)))


def phase_fraction(phase: str) -> float:
    return PHASE_FRACTIONS.get(phase, 1.0)
