"""Cost estimates from a price table (USD per million input/output tokens).

Prices change; override any model with ``Config.price_overrides`` (keyed by model name or
full spec, e.g. ``{"openai:my-finetune": (1.0, 4.0)}``). Dated snapshots such as
``gpt-4.1-mini-2025-04-14`` use their family's price. Unknown models, local servers and the
offline engine cost 0.0, which the metrics show as such rather than guessing.
"""

from __future__ import annotations

from collections.abc import Mapping

# model name (without vendor prefix) -> (input, output) USD per 1M tokens
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "o1": (15.00, 60.00),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "claude-opus-4-1": (15.00, 75.00),
    "claude-opus-4": (15.00, 75.00),
    "claude-sonnet-4-5": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-3-5-haiku": (0.80, 4.00),
}


def price_for(
    model: str, overrides: Mapping[str, tuple[float, float]] | None = None
) -> tuple[float, float] | None:
    """(input, output) USD per 1M tokens for a spec or model name, or None when unknown."""
    name = model.split(":", 1)[-1]
    for table in (overrides or {}, PRICES):
        for key in (model, name):
            if key in table:
                return table[key]
    # A dated or suffixed snapshot: the longest known name it extends ("-2025-04-14").
    family = [k for k in PRICES if name.startswith(k + "-") or name.startswith(k + "@")]
    return PRICES[max(family, key=len)] if family else None


def estimate_cost(
    model: str,
    input_tokens: int,
    output_tokens: int,
    overrides: Mapping[str, tuple[float, float]] | None = None,
) -> float:
    """The USD price of one call (0.0 for a model without a known price).

    Args:
        model: the model name.
        input_tokens: prompt tokens.
        output_tokens: completion tokens.
        overrides: USD per million (input, output) tokens by model, before the built-in table.
    """
    price = price_for(model, overrides)
    if price is None:
        return 0.0
    return round((input_tokens * price[0] + output_tokens * price[1]) / 1_000_000, 8)
