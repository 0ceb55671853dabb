"""The offline engine: an LLMProvider that needs no key and no network.

It ignores the chat messages and computes each role's output type from the request's
structured inputs — deterministic, extractive, grounded in the gathered sources. Token
counts are those the same messages would cost a remote model, so metrics stay comparable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from deepresearch.errors import ProviderError
from deepresearch.offline import analysis, planning, report, research, verify
from deepresearch.offline.text import estimate_tokens
from deepresearch.providers.base import LLMRequest, LLMResponse, Usage
from deepresearch.roles import (
    AnalyzeInputs,
    BriefInputs,
    ClarifyInputs,
    CompressInputs,
    CondenseInputs,
    CoverageAssessment,
    DelegationOutput,
    PlanInputs,
    RefineInputs,
    ReflectInputs,
    SummarizeInputs,
    SupervisionInputs,
    SynthesizeInputs,
    ThinkOutput,
    VerifyInputs,
)

Handler = Callable[[Any], BaseModel]

_BY_INPUT: dict[type[BaseModel], Handler] = {
    ClarifyInputs: planning.clarify,
    BriefInputs: planning.brief,
    PlanInputs: planning.plan,
    RefineInputs: planning.refine,
    SummarizeInputs: research.summarize,
    ReflectInputs: research.reflect,
    CompressInputs: research.compress,
    CondenseInputs: research.condense,
    AnalyzeInputs: analysis.analyze,
    SynthesizeInputs: report.synthesize,
    VerifyInputs: verify.verify,
}
# Supervision shares one input type across three steps; the output type says which.
_SUPERVISION: dict[type[BaseModel], Handler] = {
    ThinkOutput: research.supervise_think,
    DelegationOutput: research.supervise_delegate,
    CoverageAssessment: research.supervise_assess,
}


class OfflineEngine:
    """Deterministic, extractive stand-in for every LLM role."""

    name = "offline"

    def __repr__(self) -> str:
        return "OfflineEngine()"

    async def complete(self, request: LLMRequest) -> LLMResponse:
        handler = self._handler(request)
        output = handler(request.inputs)
        if not isinstance(output, request.output_type):
            output = request.output_type.model_validate(output.model_dump())
        usage = Usage(
            input_tokens=estimate_tokens(request.system) + estimate_tokens(request.user),
            output_tokens=estimate_tokens(output.model_dump_json()),
        )
        return LLMResponse(output=output, model=self.name, usage=usage)

    @staticmethod
    def _handler(request: LLMRequest) -> Handler:
        kind = type(request.inputs)
        if kind is SupervisionInputs:
            handler = _SUPERVISION.get(request.output_type)
        else:
            handler = _BY_INPUT.get(kind)
        if handler is None:
            raise ProviderError(
                f"The offline engine has no rule for {kind.__name__} -> "
                f"{request.output_type.__name__}.",
                provider="offline",
            )
        return handler
