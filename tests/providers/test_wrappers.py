"""The provider wrappers the call path stacks for each model: each adds one concern."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from pydantic import BaseModel

from deepresearch.errors import ContextWindowError, LLMTimeoutError
from deepresearch.providers.base import LLMRequest, Message
from deepresearch.providers.wrappers import (
    Fitted,
    TimeLimit,
    TokenLimitCut,
    stated_sizes,
    stated_window,
)
from deepresearch.roles import BriefInputs, BriefOutput
from deepresearch.state import AgentRole
from deepresearch.testing import FunctionLLM


def request(user: str = "x" * 100, timeout_s: float | None = None) -> LLMRequest:
    return LLMRequest(
        role=AgentRole.BRIEFER,
        phase="brief",
        messages=(Message("system", "SYSTEM"), Message("user", user)),
        output_type=BriefOutput,
        inputs=BriefInputs(question="q", today="2026-01-15"),
        timeout_s=timeout_s,
    )


def test_token_limit_cut_shortens_the_user_prompt_and_counts_the_cuts() -> None:
    def answer(r: LLMRequest) -> BaseModel:
        if len(r.user) > 80:
            raise ContextWindowError("too long")
        return BriefOutput(research_brief="ok")

    llm = FunctionLLM(answer)
    response = asyncio.run(TokenLimitCut(llm, max_retries=3, cut_fraction=0.1).complete(request()))
    assert [len(r.user) for r in llm.requests] == [100, 90, 81, 72]
    assert response.token_limit_retries == 3 and response.sent is llm.requests[-1]
    with pytest.raises(ContextWindowError):
        asyncio.run(TokenLimitCut(llm, max_retries=1, cut_fraction=0.1).complete(request()))


def test_token_limit_cut_keeps_the_refusal_and_the_window_it_states() -> None:
    openai = (
        "Error code: 400 - This model's maximum context length is 4096 tokens. However, your "
        "messages resulted in 4311 tokens. Please reduce the length of the messages."
    )
    refused = [ContextWindowError(openai)]

    def answer(r: LLMRequest) -> BaseModel:
        if refused:
            raise refused.pop()
        return BriefOutput(research_brief="ok")

    cut = TokenLimitCut(FunctionLLM(answer), max_retries=3, cut_fraction=0.1)
    asyncio.run(cut.complete(request()))
    assert cut.refusal == openai and stated_window(cut.refusal) == 4096
    assert stated_sizes(openai) == (4311, None)
    anthropic = "prompt is too long: 208,000 tokens > 200,000 maximum"
    assert stated_window(anthropic) == 200_000 and stated_sizes(anthropic) == (208_000, None)
    vllm = "However, you requested 6616 tokens (568 in the messages, 6048 in the completion)."
    assert stated_sizes(vllm) == (568, 6048)
    unstated = "the request exceeds the available context size"
    assert stated_window(unstated) is None and stated_sizes(unstated) is None


def refused_past(window: int, *, counts_answer: bool) -> FunctionLLM:
    """A model refusing requests past ``window`` tokens (a token: one character here),
    stating its window and the request's size as OpenAI or vLLM do."""

    def answer(r: LLMRequest) -> BaseModel:
        prompt = len(r.system) + len(r.user)
        reserve = (r.max_tokens or 0) if counts_answer else 0
        if prompt + reserve > window:
            sizes = (
                f"you requested {prompt + reserve} tokens ({prompt} in the messages, "
                f"{reserve} in the completion)"
                if counts_answer
                else f"your messages resulted in {prompt} tokens"
            )
            raise ContextWindowError(
                f"This model's maximum context length is {window} tokens. However, {sizes}."
            )
        return BriefOutput(research_brief="ok")

    return FunctionLLM(answer)


def test_a_stated_window_refits_the_request_in_one_retry() -> None:
    # the prompt alone is too long: cut by what it must lose, not 10 % at a time
    llm = refused_past(1000, counts_answer=False)
    cut = TokenLimitCut(llm, max_retries=3, cut_fraction=0.1)
    response = asyncio.run(cut.complete(request("x" * 1500)))
    assert response.token_limit_retries == 1 and cut.prompt_cut and cut.answer_cap is None
    assert 900 <= len(response.sent.user) <= 1000 - 20  # type: ignore[union-attr]

    # the answer's reserve is what does not fit: it is lowered, the prompt kept whole
    llm = refused_past(1000, counts_answer=True)
    cut = TokenLimitCut(llm, max_retries=3, cut_fraction=0.1)
    wide = dataclasses.replace(request("x" * 400), max_tokens=900)
    response = asyncio.run(cut.complete(wide))
    assert response.token_limit_retries == 1 and not cut.prompt_cut
    assert cut.answer_cap == response.sent.max_tokens and 500 < cut.answer_cap < 600  # type: ignore[union-attr,operator]
    assert response.sent.user == wide.user  # type: ignore[union-attr]


def test_fitted_sends_the_fitted_request_and_says_so() -> None:
    llm = FunctionLLM(lambda r: BriefOutput(research_brief="ok"))
    response = asyncio.run(Fitted(llm, lambda r: r.with_user("short")).complete(request()))
    assert llm.requests[0].user == "short" and response.sent == llm.requests[0]
    assert Fitted(llm, lambda r: r).name == llm.name


def test_time_limit_ends_a_slow_call_with_a_typed_error() -> None:
    slow = FunctionLLM(lambda r: BriefOutput(research_brief="late"), delay_s=1.0)
    with pytest.raises(LLMTimeoutError, match=r"within 0\.05 s"):
        asyncio.run(TimeLimit(slow).complete(request(timeout_s=0.05)))
