"""Cost estimates from a price table (USD per million input/output tokens).

Prices change; override any model with ``Config.price_overrides``. Unknown models and
the offline engine cost 0.0, which the metrics show as such rather than guessing.
"""

from __future__ import annotations

# model name (without vendor prefix) -> (input, output) USD per 1M tokens
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "o3": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
    "claude-sonnet-4-5": (3.00, 15.00),
    "claude-opus-4-1": (15.00, 75.00),
    "claude-haiku-4-5": (1.00, 5.00),
}


def estimate_cost(
    model: str,
    input_tokens: int,
    output_tokens: int,
    overrides: dict[str, tuple[float, float]] | None = None,
) -> float:
    name = model.split(":", 1)[-1]
    table = {**PRICES, **(overrides or {})}
    price = table.get(model) or table.get(name)
    if price is None:
        return 0.0
    return round((input_tokens * price[0] + output_tokens * price[1]) / 1_000_000, 8)
