"""LLM provider wrappers. Each is an :class:`~deepresearch.providers.base.LLMProvider`
around another, adding one concern, so the call path composes them instead of doing
everything inline (``deepresearch.llm`` stacks them for each model of a role's chain):

- :class:`Fitted` — fits the request before it is sent (the token budget's guard, the
  spend check) and records what was sent;
- :class:`TokenLimitCut` — on a context-window error cuts the user prompt by a fraction
  and tries again (``token_limit_cut_fraction`` of it, up to ``token_limit_max_retries``
  times; docs/providers.md, "Token-limit recovery");
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
    """On :class:`ContextWindowError` keeps the first ``1 - cut_fraction`` of the user
    prompt and tries again, up to ``max_retries`` times; the response counts the cuts
    (``token_limit_retries``) and carries the request that was answered (``sent``).
    ``refusal`` is the last context-window error's text (empty when there was none)."""

    def __init__(self, inner: LLMProvider, *, max_retries: int, cut_fraction: float) -> None:
        super().__init__(inner)
        self.max_retries = max_retries
        self.cut_fraction = cut_fraction
        self.refusal = ""

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Send ``request``; on a context-window error, cut the user prompt and retry.

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
                user = current.user
                current = current.with_user(user[: int(len(user) * (1 - self.cut_fraction))])
                continue
            return replace(response, token_limit_retries=retries, sent=current)


# How servers state the window they refused a prompt for: OpenAI, vLLM and compatible
# servers ("maximum context length is 4096 tokens"), Anthropic ("... > 200000 maximum").
_STATED_WINDOW = (
    re.compile(r"maximum context length is (\d[\d,]*)", re.IGNORECASE),
    re.compile(r">\s*(\d[\d,]*) maximum", re.IGNORECASE),
)


def stated_window(refusal: str) -> int | None:
    """The context window (tokens) a context-window error names, None when it names none.

    Args:
        refusal: the error's text.
    """
    for pattern in _STATED_WINDOW:
        match = pattern.search(refusal)
        if match:
            return int(match[1].replace(",", ""))
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
