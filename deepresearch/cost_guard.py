"""The cost ceiling: ``Config.max_cost_usd`` stops a run before an LLM call whose
estimated price would take the spend past it.

The estimate is deliberately pessimistic: the prompt's tokens (4 characters each) plus
the call's ``max_tokens`` (or OUTPUT_ESTIMATE) at the model's price. Models without a
known price cost 0 here, as in the usage records. The Session then writes a report of
what was gathered with the offline engine (no spend) and leaves the run ``stopped``.
"""

from __future__ import annotations

from deepresearch.config import Config
from deepresearch.errors import CostLimitReached
from deepresearch.pricing import estimate_cost
from deepresearch.providers.base import LLMRequest
from deepresearch.state import ResearchState
from deepresearch.text import estimate_tokens

OUTPUT_ESTIMATE = 2000  # tokens assumed for a call without max_tokens
COST_LIMIT_PREFIX = "Cost ceiling reached"


def spent_usd(state: ResearchState) -> float:
    """What the run's LLM calls cost so far (USD).

    Args:
        state: the run's state.
    """
    return sum(u.cost_usd for u in state.usage)


def check_spend(config: Config, state: ResearchState, spec: str, request: LLMRequest) -> None:
    """Raise CostLimitReached if this call could take the spend past max_cost_usd."""
    limit = config.loop.max_cost_usd
    if limit is None:
        return
    tokens_in = estimate_tokens(request.system + request.user)
    tokens_out = request.max_tokens or OUTPUT_ESTIMATE
    call = estimate_cost(spec, tokens_in, tokens_out, config.models.price_overrides)
    spent = spent_usd(state)
    if call > 0 and spent + call > limit:
        raise CostLimitReached(
            f"{COST_LIMIT_PREFIX}: ${spent:.4f} spent; a {request.role.value} call on {spec} "
            f"(up to ${call:.4f}) would pass max_cost_usd=${limit:g}. The run stopped; "
            "raise max_cost_usd and resume to continue."
        )
