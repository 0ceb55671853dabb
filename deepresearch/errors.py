"""Typed errors, all defined here. Each message says what went wrong and what to do about it.

::

    DeepResearchError
    ├── ConfigError (ValueError)
    ├── InputError (ValueError)
    │   ├── BlockingRunError
    │   └── PhaseOrderError
    ├── CostLimitReached
    ├── CorpusError
    │   ├── IndexingCancelled
    │   └── UnreadableDocument
    ├── MissingExtraError (ImportError)
    ├── ProviderError
    │   ├── ProviderUnavailableError
    │   │   └── ProviderSetupError
    │   ├── LLMTimeoutError (TimeoutError)
    │   ├── RateLimitError
    │   ├── ContextWindowError
    │   ├── StructuredOutputError
    │   ├── ModelChainError (ExceptionGroup)
    │   ├── SearchError
    │   ├── PageFetchError
    │   └── BudgetExhaustedError
    ├── RunAbortedError
    ├── StateVersionError
    ├── SessionNotFoundError (KeyError)
    ├── ResearchCancelled
    ├── PhaseTimeoutError (TimeoutError)
    ├── StoreError
    ├── UrlRefused
    └── SessionBusyError
"""

from __future__ import annotations

from deepresearch.redaction import url_passwords_hidden


class DeepResearchError(Exception):
    """Base class for every error this package raises on purpose."""


class ConfigError(DeepResearchError, ValueError):
    """A bad configuration value, unknown key, or unreadable config file."""


class InputError(DeepResearchError, ValueError):
    """A bad argument from the caller: empty or oversized question, bad sub-query edit..."""


class BlockingRunError(InputError):
    """``run_sync()`` was asked to run with a hook that is answered through the event loop
    (a ThinkPausePanel): a blocking call keeps the kernel busy, so no click could arrive.
    Use ``s.start()`` or ``await s.run()`` instead."""


class PhaseOrderError(InputError):
    """A phase was called before the phase that produces its inputs; ``run_first`` names
    the Session method to call first (e.g. ``"plan"``)."""

    def __init__(self, message: str, *, run_first: str) -> None:
        super().__init__(message)
        self.run_first = run_first


class CostLimitReached(DeepResearchError):
    """An LLM call would take the estimated spend past ``Config.max_cost_usd``."""


class CorpusError(DeepResearchError):
    """A local corpus folder or index cannot be used."""


class IndexingCancelled(CorpusError):
    """Indexing stopped because the caller was cancelled (Ctrl-C); nothing half-written
    was kept, the next search indexes again."""


class UnreadableDocument(CorpusError):
    """One corpus file has a supported suffix but cannot be indexed; ``str(exc)`` says why.
    The indexer turns it into a ``CorpusWarning`` and skips the file."""


class MissingExtraError(DeepResearchError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


class ProviderError(DeepResearchError):
    """A provider failed in a way retries did not fix. ``provider`` names it; ``retryable``
    says whether trying the same call again may help (5xx, timeouts, 429s)."""

    def __init__(self, message: str, *, provider: str = "", retryable: bool = False) -> None:
        # A base URL may carry a password; the message is shown, logged and saved.
        super().__init__(url_passwords_hidden(message))
        self.provider = provider
        self.retryable = retryable


class ProviderUnavailableError(ProviderError):
    """A provider cannot be used at all (no key, not installed, unreachable)."""


class ProviderSetupError(ProviderUnavailableError):
    """A provider cannot work as configured: refused credentials (401/403), an unknown
    model (404), an account out of quota or credit, or a server that cannot be reached. Retrying the same call cannot help, so
    unless the role has a fallback model the run ends at once (see :class:`RunAbortedError`).

    ``setting`` is the Config field to fix and ``env_var`` the environment variable behind it;
    ``provider`` names the provider and ``retryable`` is False.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        setting: str = "",
        env_var: str = "",
        retryable: bool = False,
    ) -> None:
        super().__init__(message, provider=provider, retryable=retryable)
        self.setting = setting
        self.env_var = env_var


class RunAbortedError(DeepResearchError):
    """A model the run depends on is unusable as configured, so the run stops at once instead
    of writing a report without it. ``cause`` is the ProviderSetupError that says what to
    fix. Deliberately not a ProviderError: the phases' per-call fallbacks must not absorb
    it."""

    def __init__(self, cause: ProviderSetupError) -> None:
        where = [f"Config.{cause.setting}"] if cause.setting else []
        where += [f"env {cause.env_var}"] if cause.env_var else []
        fix = f" Fix: {' / '.join(where)}." if where else ""
        super().__init__(f"{' '.join(str(cause).split()).rstrip('.')}.{fix}")
        self.cause = cause
        self.provider = cause.provider


class LLMTimeoutError(ProviderError, TimeoutError):
    """One LLM call of ``provider`` exceeded its time limit (``timeout_s`` or
    ``operation_timeout_s``). A ProviderError, so the role's fallback chain and the phases'
    non-fatal paths apply."""

    def __init__(self, message: str, *, provider: str = "") -> None:
        super().__init__(message, provider=provider, retryable=True)


class RateLimitError(ProviderError):
    """``provider`` refused a request for its rate limit (HTTP 429); retried after
    ``retry_after`` seconds when the server says."""

    def __init__(self, message: str, *, provider: str = "", retry_after: float | None = None):
        super().__init__(message, provider=provider, retryable=True)
        self.retry_after = retry_after


class ContextWindowError(ProviderError):
    """The prompt did not fit the model's context window."""


class StructuredOutputError(ProviderError):
    """The answer of ``provider`` could not be parsed into the requested schema, even after
    repair; ``raw_text`` is what it said."""

    def __init__(self, message: str, *, provider: str = "", raw_text: str = "") -> None:
        super().__init__(message, provider=provider)
        self.raw_text = raw_text


class ModelChainError(ExceptionGroup, ProviderError):
    """Every model of a role's chain failed (a chain of two or more; a single model's error
    is raised as itself). ``exceptions`` holds each attempt's error in order, so
    ``except* StructuredOutputError`` finds one among them; it is a :class:`ProviderError`
    like each of them. ``provider`` names the last model tried."""

    def __new__(
        cls, message: str, exceptions: list[ProviderError], *, provider: str = ""
    ) -> ModelChainError:
        return super().__new__(cls, message, exceptions)

    def __init__(
        self, message: str, exceptions: list[ProviderError], *, provider: str = ""
    ) -> None:
        self.provider = provider
        self.retryable = False

    def derive(self, excs: list[ProviderError]) -> ModelChainError:  # type: ignore[override]
        """The same chain error over ``excs`` (what ``except*`` and ``split`` build)."""
        return ModelChainError(self.message, excs, provider=self.provider)


class SearchError(ProviderError):
    """Every configured search provider failed or none is available."""


class StateVersionError(DeepResearchError):
    """A saved state is corrupted or from a newer, unknown schema version."""


class SessionNotFoundError(DeepResearchError, KeyError):
    """No session with that id in the store."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "session not found"


class ResearchCancelled(DeepResearchError):
    """Raised inside the loop at a safe point once cancel() was requested."""


class PhaseTimeoutError(DeepResearchError, TimeoutError):
    """A phase, operation or the whole run exceeded its time limit."""


class StoreError(DeepResearchError):
    """The session store cannot be read or written: a damaged file, a full disk, a read-only
    file or folder, or a lock held past the busy timeout. The message is one line and says
    what to do; nothing already saved is changed by the failure."""


class UrlRefused(DeepResearchError):
    """The URL policy (``deepresearch.urls``) refused to fetch or extract ``url``, for
    ``reason``."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"Refused to fetch {url!r}: {reason}.")
        self.url = url
        self.reason = reason


class SessionBusyError(DeepResearchError):
    """Another live process is running this session (it holds the session's lease)."""


class PageFetchError(ProviderError):
    """A page could not be extracted: an HTTP error, a content type that is not read, too
    many redirects, robots.txt, or no readable text. ``status`` is the HTTP status if any,
    ``provider`` the fetcher."""

    def __init__(self, message: str, *, provider: str = "web", status: int | None = None):
        super().__init__(message, provider=provider)
        self.status = status


class BudgetExhaustedError(ProviderError):
    """A provider's batch budget (tokens or cost, ``ProviderLimit``) is spent; raise the
    limit to go on. Not retryable."""
