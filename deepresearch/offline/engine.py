"""The offline engine: an LLMProvider that needs no key and no network.

It ignores the chat messages and computes each role's output type from the request's
structured inputs — deterministic, extractive, grounded in the gathered sources. Which
function answers is the role's (``RoleSpec.offline``, carried by the request as
``LLMRequest.offline``). Token counts are those the same messages would cost a remote
model, so metrics stay comparable: an answer counts as the JSON a model would write,
without the fields left out of the schema sent to it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import SkipJsonSchema

from deepresearch.errors import ProviderError
from deepresearch.providers.base import LLMRequest, LLMResponse, Usage
from deepresearch.text import estimate_tokens


class OfflineEngine:
    """Deterministic, extractive stand-in for every LLM role."""

    name = "offline"

    def __repr__(self) -> str:
        return "OfflineEngine()"

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Compute ``request.output_type`` from ``request.inputs`` with the request's own
        offline function (the messages are not read): the same phase code path as a remote
        model, deterministic and offline."""
        if request.offline is None:
            raise ProviderError(
                f"The offline engine has no rule for {type(request.inputs).__name__} -> "
                f"{request.output_type.__name__} (the request names no offline function).",
                provider="offline",
            )
        output = request.offline(request.inputs)
        if not isinstance(output, request.output_type):
            output = request.output_type.model_validate(output.model_dump())
        usage = Usage(
            input_tokens=estimate_tokens(request.system) + estimate_tokens(request.user),
            output_tokens=estimate_tokens(output.model_dump_json(exclude=_unsent(output))),
        )
        return LLMResponse(output=output, model=self.name, usage=usage)


def _unsent(model: BaseModel) -> dict[Any, Any]:
    """The fields of ``model`` (nested models' too) that the schema sent to a model leaves
    out (``SkipJsonSchema``, e.g. the offline engine's link-following), as pydantic's
    ``exclude`` argument."""
    spec: dict[Any, Any] = {}
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        if any(type(m) is SkipJsonSchema for m in field.metadata):
            spec[name] = True
        elif isinstance(value, BaseModel) and (nested := _unsent(value)):
            spec[name] = nested
        elif isinstance(value, list):
            items = {i: _unsent(v) for i, v in enumerate(value) if isinstance(v, BaseModel)}
            if items := {i: v for i, v in items.items() if v}:
                spec[name] = items
    return spec
