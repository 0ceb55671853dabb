"""API keys and vendor clients, in one place.

Keys come from an explicit argument or the environment, live only inside a :class:`Secret`
(whose repr and str are masked), and are handed to the vendor SDK when its client is built.
Nothing else in the package ever holds the raw string, so keys cannot reach state, store,
events, logs or reprs. Vendor SDKs are imported here, lazily.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import weakref
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Generic, TypeVar

from deepresearch import redaction
from deepresearch.errors import MissingExtraError, ProviderUnavailableError
from deepresearch.providers.resilience import pace_on_the_wire

ENV_KEYS = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "tavily": "TAVILY_API_KEY",
}
# Local OpenAI-compatible servers (Ollama, vLLM, llama.cpp, LM Studio) ignore the key, but
# the SDK insists on one.
LOCAL_PLACEHOLDER_KEY = "local-no-key"

ClientT = TypeVar("ClientT")


class Secret:
    """An API key that never shows itself: repr/str are masked, and it does not pickle."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret's value (only for the client that sends it)."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __reduce__(self) -> Any:
        raise TypeError("API keys are not serialisable.")


def api_key(
    vendor: str,
    *,
    explicit: str | None = None,
    environ: Mapping[str, str] | None = None,
    base_url: str | None = None,
) -> Secret:
    """The key for vendor: explicit > environment; a placeholder for a custom base_url."""
    env = os.environ if environ is None else environ
    value = explicit or env.get(ENV_KEYS[vendor], "")
    if value:
        return Secret(value)
    if base_url:
        return Secret(LOCAL_PLACEHOLDER_KEY)
    raise ProviderUnavailableError(
        f"{vendor} needs an API key: set {ENV_KEYS[vendor]} in the environment "
        f"(or set {vendor}_base_url for a local server).",
        provider=vendor,
    )


def redact(text: str, *secrets: Secret) -> str:
    """Remove keys from text that came back from a server: the whole key and any 8+
    character piece of it, since some servers echo part of the key (deepresearch.redaction)."""
    return redaction.redact(text, [s.reveal() for s in secrets], mask="********")


def openai_client(key: Secret, base_url: str | None) -> Any:
    """An ``AsyncOpenAI`` client whose retries are ours (they share the rate limiter).

    Args:
        key: the API key.
        base_url: an OpenAI-compatible server; None for api.openai.com.
    """
    openai = ensure_importable("openai", "openai")
    # Retries are ours (resilience.py) so they share the rate limiter and honour Retry-After.
    http = openai.DefaultAsyncHttpxClient(event_hooks={"request": [pace_on_the_wire]})
    return openai.AsyncOpenAI(
        api_key=key.reveal(), base_url=base_url, max_retries=0, http_client=http
    )


def anthropic_client(key: Secret, base_url: str | None) -> Any:
    """An ``AsyncAnthropic`` client whose retries are ours (they share the rate limiter).

    Args:
        key: the API key.
        base_url: a proxy or gateway; None for the vendor default.
    """
    anthropic = ensure_importable("anthropic", "anthropic")
    http = anthropic.DefaultAsyncHttpxClient(event_hooks={"request": [pace_on_the_wire]})
    return anthropic.AsyncAnthropic(
        api_key=key.reveal(), base_url=base_url, max_retries=0, http_client=http
    )


def tavily_client(key: Secret, base_url: str | None) -> Any:
    """An ``AsyncTavilyClient``.

    Args:
        key: the API key.
        base_url: another Tavily endpoint; None for the vendor default.
    """
    tavily = ensure_importable("tavily", "tavily-python")
    return tavily.AsyncTavilyClient(api_key=key.reveal(), api_base_url=base_url)


def ensure_importable(module: str, package: str) -> ModuleType:
    """The vendor SDK's module, or a MissingExtraError that says what to install; called
    at construction too, so a missing SDK fails there rather than at the first call."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"This provider needs the '{package}' package: pip install {package}"
        ) from exc


class ClientPerLoop(Generic[ClientT]):
    """One client per event loop: the SDKs' connection pools belong to the loop that made
    them, and ``run_sync`` or notebooks may run sessions on different loops."""

    def __init__(self, build: Callable[[], ClientT]) -> None:
        self._build = build
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ClientT] = (
            weakref.WeakKeyDictionary()
        )

    def get(self) -> ClientT:
        """The client of the running event loop, built on first use."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._build()
            self._clients[loop] = client
        return client

    def __repr__(self) -> str:
        return "ClientPerLoop()"
