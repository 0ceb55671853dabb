"""OpenAI chat completions, and any OpenAI-compatible server (Ollama, vLLM, llama.cpp
server, LM Studio) through ``Config.openai_base_url``.

Structured output is negotiated per call (see ``structured.NativeOutput``): the first attempt
uses ``response_format`` = ``json_schema`` unless the config says ``prompt`` or this model
proved it ignores or rejects it; every repair puts the schema and the validation error in
the prompt and parses the answer. A free-text output type (``TextOutput``: the report) is
asked for with no schema at all; ``finish_reason: length`` marks an answer cut off.
"""

from __future__ import annotations

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
    api_key,
    ensure_importable,
    openai_client,
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

OPENAI_URL = "https://api.openai.com/v1"
# Reasoning models reject `temperature` (and want max_completion_tokens).
REASONING_PREFIXES = ("o1", "o3", "o4", "gpt-5")


def is_reasoning_model(model: str) -> bool:
    """Whether ``model`` is an OpenAI reasoning model (o-series, gpt-5), which takes no
    temperature.

    Args:
        model: the model name.
    """
    return model.lower().startswith(REASONING_PREFIXES)


class OpenAIChat:
    """``LLMProvider`` for ``openai:<model>`` specs."""

    def __init__(
        self, model: str, config: Config, key: Secret, base_url: str | None = None
    ) -> None:
        self.model = model
        self.config = config
        self.base_url = base_url
        self.retry = RetryPolicy.from_config(config)
        # Learned per model from evidence (see NativeOutput), never from one bad answer.
        self.native = NativeOutput(config.models.structured_output)
        self.send_temperature = not is_reasoning_model(model)
        self._key = key
        self._clients: ClientPerLoop[Any] = ClientPerLoop(lambda: openai_client(key, base_url))

    @classmethod
    def from_config(
        cls,
        model: str,
        config: Config,
        *,
        api_key_value: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> OpenAIChat:
        """The OpenAI provider for ``model`` as ``config`` sets it up; the key comes from the environment unless given.

        Args:
            model: the model name (after ``vendor:``).
            config: the run's Config.
            api_key_value: a key to use instead of the environment's.
            environ: the environment to read the key from (default ``os.environ``).
        """
        ensure_importable("openai", "openai")
        base_url = config.models.openai_base_url
        key = api_key("openai", explicit=api_key_value, environ=environ, base_url=base_url)
        return cls(model, config, key, base_url)

    @property
    def native_output(self) -> bool:
        """Whether calls start with the native schema (False once the model proved it ignores it)."""
        return self.native.enabled

    @property
    def name(self) -> str:
        """``openai:<model>``."""
        return f"openai:{self.model}"

    def __repr__(self) -> str:
        return f"OpenAIChat(model={self.model!r}, base_url={self.base_url or OPENAI_URL!r})"

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
            endpoint=f"openai|{self.base_url or OPENAI_URL}",
            config=self.config,
            retry=self.retry,
            native=self.native,
        )

    async def _send(self, request: LLMRequest, extra: list[Message]) -> Answer:
        text = request.wants_text  # free text: no schema at all
        native = not text and self.native.for_attempt(extra)
        schema_for = None if native or text else request.output_type
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": _messages(request, extra, schema_for),
        }
        if native:
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": request.output_type.__name__,
                    "schema": json_schema(request.output_type),
                },
            }
        if request.temperature is not None and self.send_temperature:
            kwargs["temperature"] = request.temperature
        if request.max_tokens:
            # Official reasoning models need max_completion_tokens; local servers know max_tokens.
            field = "max_tokens" if self.base_url else "max_completion_tokens"
            kwargs[field] = request.max_tokens
        try:
            completion = await self._clients.get().chat.completions.create(
                **kwargs, timeout=attempt_timeout(self.config, request.timeout_s)
            )
        except Exception as exc:
            raise self._translate(exc) from None
        return self._answer(completion)

    def _answer(self, completion: Any) -> Answer:
        choices = getattr(completion, "choices", None)
        if not choices:
            raise ProviderError(
                f"{self.name}: the server's answer has no choices (malformed response).",
                provider=self.name,
            )
        message = choices[0].message
        text = message.content or ""
        if not text and message.tool_calls:  # some servers answer a schema with a tool call
            text = message.tool_calls[0].function.arguments or ""
        if not text and getattr(message, "refusal", None):
            text = str(message.refusal)
        usage = getattr(completion, "usage", None)
        return Answer(
            text=text,
            usage=Usage(
                input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            ),
            cut_off=getattr(choices[0], "finish_reason", None) == "length",
        )

    def _translate(self, exc: Exception) -> Exception:
        """An SDK exception as a typed error (or _AdaptedRequest after switching a feature off)."""
        import openai

        name = self.name
        message = redact(str(getattr(exc, "message", exc)), self._key)
        if isinstance(exc, openai.APITimeoutError):
            return ProviderError(
                f"{name}: request timed out (one attempt; Config.attempt_timeout_s).",
                provider=name,
                retryable=True,
            )
        if isinstance(exc, openai.APIConnectionError):
            where = self.base_url or OPENAI_URL
            return ProviderSetupError(
                f"{name}: cannot reach {where} ({message})",
                provider=name,
                setting="openai_base_url",
                env_var="DEEPRESEARCH_OPENAI_BASE_URL",
                retryable=True,
            )
        if not isinstance(exc, openai.APIStatusError):
            if isinstance(exc, openai.OpenAIError | ValueError):  # bodies that do not parse
                return ProviderError(f"{name}: malformed response: {message}", provider=name)
            return exc
        status, code = exc.status_code, str(getattr(exc, "code", "") or "")
        lowered = message.lower()
        refused = self._refusal(exc, status, code, message)
        if refused is not None:
            return refused
        kind = str(getattr(exc, "type", "") or "")
        if code == "context_length_exceeded" or "context length" in lowered:
            return ContextWindowError(f"{name}: {message}", provider=name)
        if kind == "exceed_context_size_error" or "available context size" in lowered:
            # llama.cpp's server (HTTP 400, or 500 before late 2025): the sizes are fields
            return ContextWindowError(f"{name}: {message}{_llama_sizes(exc)}", provider=name)
        if status in (400, 422):
            if self.send_temperature and "temperature" in lowered:
                self.send_temperature = False
                return _AdaptedRequest()
            rejected_format = "response_format" in lowered or "json_schema" in lowered
            if rejected_format and self.native.rejected():
                return _AdaptedRequest()
        retryable = status >= 500 or status in (408, 409)
        return ProviderError(
            f"{name}: HTTP {status}: {message}", provider=name, retryable=retryable
        )

    def _refusal(self, exc: Any, status: int, code: str, message: str) -> Exception | None:
        """A 429, or a server that will not serve this key or model (setup errors)."""
        name = self.name
        if status == 429:
            if code == "insufficient_quota":  # billing, not load: no retry or later call helps
                return ProviderSetupError(
                    f"{name}: the account's quota is used up (HTTP 429: {message}); check the "
                    "plan and billing of the key in OPENAI_API_KEY, or use another model",
                    provider=name,
                    setting="llm",
                    env_var="OPENAI_API_KEY",
                )
            retry_after = parse_retry_after(exc.response.headers)
            return RateLimitError(f"{name}: {message}", provider=name, retry_after=retry_after)
        if status in (401, 403):
            return ProviderSetupError(
                f"{name}: the server refused the API key (HTTP {status}: {message}); "
                f"set OPENAI_API_KEY to a valid key",
                provider=name,
                env_var="OPENAI_API_KEY",
            )
        if status == 404:
            unknown_model = code == "model_not_found" or "model" in message.lower()
            return ProviderSetupError(
                f"{name}: HTTP 404: {message}",
                provider=name,
                setting="llm" if unknown_model else "openai_base_url",
                env_var="DEEPRESEARCH_LLM" if unknown_model else "DEEPRESEARCH_OPENAI_BASE_URL",
            )
        return None


def _llama_sizes(exc: Any) -> str:
    """llama.cpp's window and prompt size (``n_ctx``, ``n_prompt_tokens``), said as OpenAI
    says them so the call path can refit the request (providers.wrappers.stated_window)."""
    body = getattr(exc, "body", None)
    if not isinstance(body, dict) or not {"n_ctx", "n_prompt_tokens"} <= body.keys():
        return ""
    return (
        f" (maximum context length is {body['n_ctx']} tokens; your messages resulted in "
        f"{body['n_prompt_tokens']} tokens)"
    )


def _messages(
    request: LLMRequest, extra: list[Message], schema_for: type[Any] | None
) -> list[dict[str, str]]:
    """Chat messages; in prompt mode the schema instructions join the system message."""
    system = request.system
    if schema_for is not None:
        system = f"{system}\n\n{schema_instructions(schema_for)}".strip()
    turns = [m for m in request.messages if m.role != "system"] + extra
    out = [{"role": "system", "content": system}] if system else []
    return out + [{"role": m.role, "content": m.content} for m in turns]
