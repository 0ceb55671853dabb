"""What the HTTP search APIs share: a client per event loop, the API's rate gate, retries,
and HTTP answers turned into typed errors.

Semantic Scholar, OpenAlex, Crossref, arXiv, Google Programmable Search and SearxNG are
plain HTTP GET APIs; each provider module says which path and parameters to send and how
to read the answer, and this module does the rest the same way for all of them.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from deepresearch.config import Config
from deepresearch.errors import ProviderError, ProviderUnavailableError, RateLimitError
from deepresearch.providers.credentials import ClientPerLoop, Secret, redact
from deepresearch.providers.resilience import (
    RetryPolicy,
    call_with_retries,
    gate_for,
    pace_on_the_wire,
    parse_retry_after,
)


class _RedactKeys(logging.Filter):
    """httpx logs each request's URL at INFO; OpenAlex takes its key as a query parameter."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: list[Secret] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            record.msg, record.args = redact(record.getMessage(), *self.secrets), None
        return True


_HTTPX_LOG = _RedactKeys()
logging.getLogger("httpx").addFilter(_HTTPX_LOG)


@dataclass(frozen=True)
class ApiLimits:
    """An API's own documented limits; the config may only lower concurrency."""

    max_concurrency: int | None = None
    requests_per_minute: float | None = None


def optional_key(
    env_name: str, explicit: str | None, environ: Mapping[str, str] | None
) -> Secret | None:
    """An API key that improves limits but is not required: explicit > environment."""
    env = os.environ if environ is None else environ
    value = explicit or env.get(env_name, "")
    return Secret(value) if value else None


def user_agent(config: Config) -> str:
    """Polite APIs (Crossref, OpenAlex, arXiv) ask clients to say who they are."""
    contact = (
        f" (mailto:{config.search_apis.polite_pool_email})"
        if config.search_apis.polite_pool_email
        else ""
    )
    return f"deepresearch{contact}"


class HttpApi:
    """GET requests to one API, gated and retried, answering parsed JSON or text."""

    def __init__(
        self,
        provider: str,
        base_url: str,
        config: Config,
        *,
        limits: ApiLimits = ApiLimits(),
        headers: Mapping[str, str] | None = None,
        secrets: tuple[Secret, ...] = (),
        key_hint: str = "",
    ) -> None:
        self.provider = provider
        self.base_url = base_url.rstrip("/")
        self.config = config
        self.limits = limits
        self.retry = RetryPolicy.from_config(config)
        self.key_hint = key_hint  # what to do when the API refuses the credentials
        self._secrets = secrets
        _HTTPX_LOG.secrets.extend(s for s in secrets if s not in _HTTPX_LOG.secrets)
        all_headers = {"user-agent": user_agent(config), **(headers or {})}
        self._clients: ClientPerLoop[httpx.AsyncClient] = ClientPerLoop(
            lambda: httpx.AsyncClient(
                base_url=self.base_url,
                headers=all_headers,
                timeout=config.timeouts.operation_timeout_s,
                follow_redirects=True,
                event_hooks={"request": [pace_on_the_wire]},
            )
        )

    def __repr__(self) -> str:
        return f"HttpApi({self.provider!r}, base_url={self.base_url!r})"

    async def get_json(self, path: str, params: Mapping[str, Any]) -> Any:
        """GET ``path`` and parse the answer as JSON (a malformed-response error otherwise).

        Args:
            path: the path under the API's base URL.
            params: query parameters.
        """
        response = await self.get(path, params)
        try:
            return response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise self.malformed("the answer is not JSON") from None

    async def get(self, path: str, params: Mapping[str, Any]) -> httpx.Response:
        """GET ``path`` within the API's concurrency and rate limits, retrying transient failures.

        Args:
            path: the path under the API's base URL.
            params: query parameters.
        """
        gate = gate_for(
            f"{self.provider}|{self.base_url}",
            self.config,
            max_concurrency=self.limits.max_concurrency,
            requests_per_minute=self.limits.requests_per_minute,
        )

        async def once() -> httpx.Response:
            try:
                response = await self._clients.get().get(path, params=dict(params))
            except httpx.TimeoutException:
                raise self.error("timed out", retryable=True) from None
            except httpx.TransportError as exc:
                detail = redact(str(exc), *self._secrets) or type(exc).__name__
                raise self.error(
                    f"cannot reach {self.base_url}: {detail}", retryable=True
                ) from None
            if response.status_code >= 400:
                raise self.status_error(response)
            return response

        return await call_with_retries(once, policy=self.retry, gate=gate, paced_on_the_wire=True)

    def status_error(self, response: httpx.Response) -> ProviderError:
        """The typed error for an HTTP error answer; providers refine it (see overrides)."""
        status, message = response.status_code, self.message_of(response)
        if status == 429:
            return RateLimitError(
                f"{self.provider}: rate limited (HTTP 429): {message}",
                provider=self.provider,
                retry_after=parse_retry_after(response.headers),
            )
        if status in (401, 403):
            return ProviderUnavailableError(
                f"{self.provider}: access refused (HTTP {status}): {message}. {self.key_hint}",
                provider=self.provider,
            )
        retryable = status >= 500 or status == 408
        return self.error(f"HTTP {status}: {message}", retryable=retryable)

    def message_of(self, response: httpx.Response) -> str:
        """The human part of an error body, in any of the shapes these APIs use."""
        try:
            body: Any = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = response.text
        return redact(_message_in(body)[:300], *self._secrets) or response.reason_phrase

    def error(self, detail: str, *, retryable: bool = False) -> ProviderError:
        """A ProviderError naming this API.

        Args:
            detail: what went wrong.
            retryable: whether a retry may succeed.
        """
        return ProviderError(
            f"{self.provider}: {detail}", provider=self.provider, retryable=retryable
        )

    def malformed(self, detail: str) -> ProviderError:
        """The error for an answer that is not what this API sends (likely a wrong base URL).

        Args:
            detail: what was wrong with it.
        """
        return ProviderError(
            f"{self.provider}: malformed response from {self.base_url}: {detail}. Check that "
            f"Config.{self.provider}_base_url points at the {self.provider} API.",
            provider=self.provider,
        )


def _message_in(body: Any) -> str:
    """'message' / 'error' / 'detail' at any depth (Google nests, Crossref lists)."""
    if isinstance(body, str):
        return " ".join(body.split())
    if isinstance(body, list):
        return "; ".join(m for m in (_message_in(item) for item in body) if m)
    if isinstance(body, dict):
        for key in ("message", "error", "detail", "description"):
            if key in body and (found := _message_in(body[key])):
                return found
    return ""


def as_list(data: Any, key: str, api: HttpApi) -> list[dict[str, Any]]:
    """``data[key]`` as a list of objects (null counts as empty), or a typed error."""
    if not isinstance(data, dict):
        raise api.malformed(f"the answer should be an object, got {type(data).__name__}")
    items = data.get(key)
    if items is None:
        return []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise api.malformed(f"'{key}' should be a list of objects")
    return items


def text(value: Any) -> str:
    """A string field that may be missing, null or (Crossref) a one-element list."""
    if isinstance(value, list):
        value = value[0] if value else ""
    return " ".join(str(value).split()) if value is not None else ""


def bare_doi(value: Any) -> str | None:
    """'https://doi.org/10.1/ABC' or 'doi:10.1/abc' -> '10.1/abc' (DOIs are case-blind)."""
    raw = text(value).strip().lower()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "doi:"):
        raw = raw.removeprefix(prefix)
    return raw if raw.startswith("10.") else None


def as_int(value: Any) -> int | None:
    """``value`` as an int, or None when it is missing or not a number.

    Args:
        value: a JSON value.
    """
    try:
        return int(value) if value is not None and value != "" else None
    except (TypeError, ValueError):
        return None
