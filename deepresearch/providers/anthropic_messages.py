"""Anthropic messages. Structured output by forced tool use (one tool whose input schema
is the output type) on a call's first attempt; repairs, and models that proved they ignore
or reject tools, use prompted tool use: the schema in the system prompt, the JSON parsed
from the text (see ``structured.NativeOutput``). A free-text output type (``TextOutput``:
the report) is asked for with no tool and no schema; ``stop_reason: max_tokens`` marks an
answer cut off."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from deepresearch.config import Config
from deepresearch.errors import (
    ContextWindowError,
    ProviderError,
    ProviderSetupError,
    RateLimitError,
)
from deepresearch.providers.base import LLMRequest, LLMResponse, Message, Usage
from deepresearch.providers.credentials import (
    ClientPerLoop,
    Secret,
    anthropic_client,
    api_key,
    ensure_importable,
    redact,
)
from deepresearch.providers.resilience import RetryPolicy, attempt_timeout, parse_retry_after
from deepresearch.providers.structured import (
    Answer,
    NativeOutput,
    _AdaptedRequest,
    complete_structured,
    json_schema,
    schema_instructions,
)

ANTHROPIC_URL = "https://api.anthropic.com"
# The messages API requires max_tokens; used when the role sets none.
DEFAULT_MAX_TOKENS = 4096
# Phrases of Anthropic's context-window errors (400 invalid_request_error).
_CONTEXT_PHRASES = ("prompt is too long", "exceed context limit", "context window")


class AnthropicMessages:
    """``LLMProvider`` for ``anthropic:<model>`` specs."""

    def __init__(
        self, model: str, config: Config, key: Secret, base_url: str | None = None
    ) -> None:
        self.model = model
        self.config = config
        self.base_url = base_url
        self.retry = RetryPolicy.from_config(config)
        # Learned per model from evidence (see NativeOutput), never from one bad answer.
        self.native = NativeOutput(config.models.structured_output)
        self.send_temperature = True
        self._key = key
        self._clients: ClientPerLoop[Any] = ClientPerLoop(lambda: anthropic_client(key, base_url))

    @classmethod
    def from_config(
        cls,
        model: str,
        config: Config,
        *,
        api_key_value: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> AnthropicMessages:
        """The Anthropic provider for ``model`` as ``config`` sets it up; the key comes from the environment unless given.

        Args:
            model: the model name (after ``vendor:``).
            config: the run's Config.
            api_key_value: a key to use instead of the environment's.
            environ: the environment to read the key from (default ``os.environ``).
        """
        ensure_importable("anthropic", "anthropic")
        base_url = config.models.anthropic_base_url
        key = api_key("anthropic", explicit=api_key_value, environ=environ, base_url=base_url)
        return cls(model, config, key, base_url)

    @property
    def native_output(self) -> bool:
        """Whether calls start with the native schema (False once the model proved it ignores it)."""
        return self.native.enabled

    @property
    def name(self) -> str:
        """``anthropic:<model>``."""
        return f"anthropic:{self.model}"

    def __repr__(self) -> str:
        where = self.base_url or ANTHROPIC_URL
        return f"AnthropicMessages(model={self.model!r}, base_url={where!r})"

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Send ``request`` and return the model's typed answer (structured output negotiated,
        retried and repaired as configured).

        Args:
            request: the LLM request.
        """
        return await complete_structured(
            request,
            self._send,
            provider=self.name,
            endpoint=f"anthropic|{self.base_url or ANTHROPIC_URL}",
            config=self.config,
            retry=self.retry,
            native=self.native,
        )

    async def _send(self, request: LLMRequest, extra: list[Message]) -> Answer:
        text = request.wants_text  # free text: no tool, no schema
        native = not text and self.native.for_attempt(extra)
        tool = request.output_type.__name__
        system = request.system
        if not native and not text:
            system = f"{system}\n\n{schema_instructions(request.output_type)}".strip()
        turns = [m for m in request.messages if m.role != "system"] + extra
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens or DEFAULT_MAX_TOKENS,
            "messages": [{"role": m.role, "content": m.content} for m in turns],
        }
        if system:
            kwargs["system"] = system
        if native:
            kwargs["tools"] = [
                {
                    "name": tool,
                    "description": f"Record the answer as a {tool} object.",
                    "input_schema": json_schema(request.output_type),
                }
            ]
            kwargs["tool_choice"] = {"type": "tool", "name": tool}
        if request.temperature is not None and self.send_temperature:
            # Sent as a raw body field: recent SDKs dropped the argument, and some models
            # reject it (then it is switched off, below). Anthropic's range is 0..1.
            kwargs["extra_body"] = {"temperature": min(request.temperature, 1.0)}
        try:
            message = await self._clients.get().messages.create(
                **kwargs, timeout=attempt_timeout(self.config, request.timeout_s)
            )
        except Exception as exc:
            raise self._translate(exc) from None
        return self._answer(message)

    def _answer(self, message: Any) -> Answer:
        blocks = getattr(message, "content", None)
        if not isinstance(blocks, list):
            raise ProviderError(
                f"{self.name}: the server's answer has no content (malformed response).",
                provider=self.name,
            )
        usage = getattr(message, "usage", None)
        used = Usage(
            input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
            output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
        )
        cut_off = getattr(message, "stop_reason", None) == "max_tokens"
        for block in blocks:
            if getattr(block, "type", "") == "tool_use" and isinstance(block.input, dict):
                data = block.input
                return Answer(text=json.dumps(data), usage=used, data=data, cut_off=cut_off)
        text = "".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", "") == "text")
        return Answer(text=text, usage=used, cut_off=cut_off)

    def _translate(self, exc: Exception) -> Exception:
        import anthropic

        name = self.name
        message = redact(str(getattr(exc, "message", exc)), self._key)
        if isinstance(exc, anthropic.APITimeoutError):
            return ProviderError(
                f"{name}: request timed out (one attempt; Config.attempt_timeout_s).",
                provider=name,
                retryable=True,
            )
        if isinstance(exc, anthropic.APIConnectionError):
            where = self.base_url or ANTHROPIC_URL
            return ProviderSetupError(
                f"{name}: cannot reach {where} ({message})",
                provider=name,
                setting="anthropic_base_url",
                env_var="DEEPRESEARCH_ANTHROPIC_BASE_URL",
                retryable=True,
            )
        if not isinstance(exc, anthropic.APIStatusError):
            if isinstance(exc, anthropic.AnthropicError | ValueError):
                return ProviderError(f"{name}: malformed response: {message}", provider=name)
            return exc
        status = exc.status_code
        detail = redact(str(getattr(exc, "api_message", None) or message), self._key)
        lowered = detail.lower()
        refused = self._refusal(exc, status, detail)
        if refused is not None:
            return refused
        if status in (400, 413) and any(p in lowered for p in _CONTEXT_PHRASES):
            return ContextWindowError(f"{name}: {detail}", provider=name)
        if status == 400 and self.send_temperature and "temperature" in lowered:
            self.send_temperature = False
            return _AdaptedRequest()
        if status == 400 and "tool" in lowered and self.native.rejected():
            return _AdaptedRequest()
        retryable = status >= 500 or status in (408, 409)  # 529 = overloaded
        return ProviderError(f"{name}: HTTP {status}: {detail}", provider=name, retryable=retryable)

    def _refusal(self, exc: Any, status: int, detail: str) -> Exception | None:
        """A 429, or a server that will not serve this key or model (setup errors)."""
        name, lowered = self.name, detail.lower()
        if status == 429:
            retry_after = parse_retry_after(exc.response.headers)
            return RateLimitError(f"{name}: {detail}", provider=name, retry_after=retry_after)
        if status in (401, 403):
            return ProviderSetupError(
                f"{name}: the server refused the API key (HTTP {status}: {detail}); "
                f"set ANTHROPIC_API_KEY to a valid key",
                provider=name,
                env_var="ANTHROPIC_API_KEY",
            )
        if status == 404:
            unknown_model = "model" in lowered
            return ProviderSetupError(
                f"{name}: HTTP 404: {detail}",
                provider=name,
                setting="llm" if unknown_model else "anthropic_base_url",
                env_var="DEEPRESEARCH_LLM" if unknown_model else "DEEPRESEARCH_ANTHROPIC_BASE_URL",
            )
        if status == 400 and "credit balance" in lowered:  # billing: no later call helps
            return ProviderSetupError(
                f"{name}: the account's credit is used up (HTTP 400: {detail}); check the "
                "plan and billing of the key in ANTHROPIC_API_KEY, or use another model",
                provider=name,
                setting="llm",
                env_var="ANTHROPIC_API_KEY",
            )
        return None
