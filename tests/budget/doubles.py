"""Shared doubles for the budget tests: an extractive summarizer and a run context."""

from __future__ import annotations

import asyncio
import re

from deepresearch.budget import count_tokens
from deepresearch.config import Config
from deepresearch.context import RunContext
from deepresearch.errors import ProviderError
from deepresearch.providers.base import LLMProvider, LLMRequest, LLMResponse, Usage
from deepresearch.roles import CondenseInputs, CondenseOutput
from deepresearch.testing import RecordingEvents, context


class ExtractiveLLM:
    """Answers CondenseInputs by keeping whole leading sentences up to target_tokens."""

    def __init__(self, *, fail: bool = False, delay_s: float = 0.0, name: str = "offline") -> None:
        self._name = name
        self.fail = fail
        self.delay_s = delay_s
        self.requests: list[LLMRequest] = []

    @property
    def name(self) -> str:
        return self._name

    async def complete(self, request: LLMRequest) -> LLMResponse:
        self.requests.append(request)
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        if self.fail:
            raise ProviderError("summarizer down")
        inputs = request.inputs
        assert isinstance(inputs, CondenseInputs)
        kept: list[str] = []
        for sentence in re.split(r"(?<=[.!?])\s+", inputs.text):
            if count_tokens(" ".join([*kept, sentence])) > inputs.target_tokens:
                break
            kept.append(sentence)
        return LLMResponse(
            output=CondenseOutput(text=" ".join(kept)),
            model=self.name,
            usage=Usage(count_tokens(request.system + request.user), 10),
        )


def make_context(config: Config, llm: LLMProvider) -> tuple[RunContext, RecordingEvents]:
    events = RecordingEvents()
    return context(llm, config=config, events=events), events


def sentences(n: int, topic: str, words_each: int = 18) -> str:
    """n distinct sentences about a topic (~words_each words each)."""
    filler = " ".join(f"{topic}{k}" for k in range(words_each - 4))
    return " ".join(f"Sentence {i} about {topic} says {filler}." for i in range(n))
