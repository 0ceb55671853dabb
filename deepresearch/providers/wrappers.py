"""LLM provider wrappers. Each is an :class:`~deepresearch.providers.base.LLMProvider`
around another, adding one concern, so the call path composes them instead of doing
everything inline (``deepresearch.llm`` stacks them for each model of a role's chain):

- :class:`Fitted` — fits the request before it is sent (the token budget's guard, the
  spend check) and records what was sent;
- :class:`TokenLimitCut` — on a context-window error makes the request fit the window the
  server states (the answer's reserve, then the user prompt), or else cuts the user prompt
  by ``token_limit_cut_fraction``, and tries again, up to ``token_limit_max_retries``
  times (docs/providers.md, "Token-limit recovery");
- :class:`TimeLimit` — holds one call to the request's time limit, whatever the provider.

Retries of transient failures, the shared rate gate and structured-output negotiation
wrap each vendor's request translation (``providers.resilience``, ``providers.structured``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import replace

from deepresearch.errors import ContextWindowError, LLMTimeoutError
from deepresearch.providers.base import LLMProvider, LLMRequest, LLMResponse


class WrapperLLM:
    """A provider that passes every request to ``inner``; subclasses add one concern."""

    def __init__(self, inner: LLMProvider) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        """The wrapped provider's name."""
        return self.inner.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.inner!r})"

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Pass ``request`` to the wrapped provider (subclasses change it on the way).

        Args:
            request: the LLM request.
        """
        return await self.inner.complete(request)


class Fitted(WrapperLLM):
    """Sends ``fit(request)`` instead of the request (``fit`` may raise to refuse it); the
    response's ``sent`` is the request that finally went out."""

    def __init__(self, inner: LLMProvider, fit: Callable[[LLMRequest], LLMRequest]) -> None:
        super().__init__(inner)
        self.fit = fit

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Fit ``request`` to the model's context window, then send it.

        Args:
            request: the LLM request.
        """
        fitted = self.fit(request)
        response = await self.inner.complete(fitted)
        return response if response.sent is not None else replace(response, sent=fitted)


class TokenLimitCut(WrapperLLM):
    """On :class:`ContextWindowError` makes the request smaller and tries again, up to
    ``max_retries`` times. When the error states the window and the prompt's size (OpenAI,
    vLLM, Anthropic), the request is refitted to that: first the answer's reserve
    (``max_tokens``, when the server counts it and says so), down to a quarter of the
    window, then the user prompt by as much as it must lose. Otherwise the first
    ``1 - cut_fraction`` of the user prompt is kept. The response counts the retries
    (``token_limit_retries``) and carries the request that was answered (``sent``);
    ``refusal`` is the last context-window error's text, ``prompt_cut`` whether the user
    prompt lost text and ``answer_cap`` the lowered ``max_tokens`` (None if unchanged)."""

    def __init__(self, inner: LLMProvider, *, max_retries: int, cut_fraction: float) -> None:
        super().__init__(inner)
        self.max_retries = max_retries
        self.cut_fraction = cut_fraction
        self.refusal = ""
        self.prompt_cut = False
        self.answer_cap: int | None = None

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Send ``request``; on a context-window error, make it smaller and retry.

        Args:
            request: the LLM request.
        """
        current, retries = request, 0
        while True:
            try:
                response = await self.inner.complete(current)
            except ContextWindowError as exc:
                self.refusal = str(exc)
                if retries >= self.max_retries:
                    raise
                retries += 1
                current = self._smaller(current, self.refusal)
                continue
            return replace(response, token_limit_retries=retries, sent=current)

    def _smaller(self, request: LLMRequest, refusal: str) -> LLMRequest:
        window, sizes = stated_window(refusal), stated_sizes(refusal)
        fraction = self.cut_fraction
        if window is not None and sizes is not None:
            prompt, answer = sizes
            margin = max(16, window // 50)
            if answer and prompt + answer > window:
                answer = max(min(answer, window - prompt - margin), min(answer, window // 4))
                if answer != request.max_tokens:
                    request = replace(request, max_tokens=answer)
                    self.answer_cap = answer
            excess = prompt - (window - (answer or 0) - margin)
            if excess <= 0:
                return request
            chars = len(request.system) + len(request.user)
            user_tokens = prompt * len(request.user) / max(1, chars)
            # a little more than the share the excess is: the split by characters is rough
            fraction = min(0.95, max(fraction, excess / max(1.0, user_tokens) + 0.02))
        self.prompt_cut = True
        user = request.user
        return request.with_user(user[: int(len(user) * (1 - fraction))])


# How servers state the window they refused a prompt for, and the prompt's size: OpenAI
# ("maximum context length is 4096 tokens. However, your messages resulted in 4311
# tokens"), vLLM ("... you requested 6616 tokens (568 in the messages, 6048 in the
# completion)"), Anthropic ("prompt is too long: 208000 tokens > 200000 maximum").
_STATED_WINDOW = (
    re.compile(r"maximum context length is (\d[\d,]*)", re.IGNORECASE),
    re.compile(r">\s*(\d[\d,]*) maximum", re.IGNORECASE),
)
_STATED_SIZES = (
    re.compile(r"\((\d[\d,]*) in the messages, (\d[\d,]*) in the completion\)", re.I),
    re.compile(r"messages resulted in (\d[\d,]*) tokens", re.IGNORECASE),
    re.compile(r"(\d[\d,]*) tokens\s*>\s*\d[\d,]* maximum", re.IGNORECASE),
)


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def stated_window(refusal: str) -> int | None:
    """The context window (tokens) a context-window error names, None when it names none.

    Args:
        refusal: the error's text.
    """
    for pattern in _STATED_WINDOW:
        match = pattern.search(refusal)
        if match:
            return _number(match[1])
    return None


def stated_sizes(refusal: str) -> tuple[int, int | None] | None:
    """The prompt's tokens and the answer's reserve (None when the server does not count
    it) a context-window error names; None when it names no size.

    Args:
        refusal: the error's text.
    """
    for pattern in _STATED_SIZES:
        match = pattern.search(refusal)
        if match:
            answer = _number(match[2]) if match.re.groups > 1 else None
            return _number(match[1]), answer
    return None


class TimeLimit(WrapperLLM):
    """Holds each call to ``request.timeout_s`` (none: no limit); past it the call fails
    with :class:`LLMTimeoutError`. A timeout the provider raises itself passes through."""

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Send ``request`` within its ``timeout_s``; LLMTimeoutError when it runs out.

        Args:
            request: the LLM request.
        """
        if not request.timeout_s:
            return await self.inner.complete(request)
        try:
            async with asyncio.timeout(request.timeout_s) as limit:
                return await self.inner.complete(request)
        except TimeoutError:
            if not limit.expired():
                raise  # the provider's own timeout error, not ours
            raise LLMTimeoutError(
                f"{self.name} did not answer a {request.role.value} call within "
                f"{request.timeout_s:g} s.",
                provider=self.name,
            ) from None
