"""The two provider protocols and the values that cross them.

Every phase builds an :class:`LLMRequest` the same way whatever the provider: it names
the role, carries the chat messages, the pydantic output type and the phase's inputs as
structured data. Remote providers send the messages; the offline engine computes the
same output type from ``inputs``. So every phase has one code path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar, runtime_checkable
from urllib.parse import urlparse

from pydantic import BaseModel, PrivateAttr

from deepresearch.state.models import AgentRole

OutputT = TypeVar("OutputT", bound=BaseModel)


class TextOutput(BaseModel):
    """An output type a model answers in plain text, not JSON (a Markdown report).

    A subclass has exactly one ``str`` field, which receives the whole answer. Remote
    providers ask for free text (no schema, no JSON mode); the offline engine and test
    doubles build the instance as for any other output type. ``cut_off`` is True when the
    answer still stopped at the model's output limit after every continuation allowed.
    """

    _cut_off: bool = PrivateAttr(default=False)

    @classmethod
    def text_field(cls) -> str:
        """The name of the model's one str field (its free text)."""
        (name,) = cls.model_fields  # one str field, by contract
        return name

    @classmethod
    def from_text(cls, text: str, *, cut_off: bool = False) -> TextOutput:
        """The output holding ``text``.

        Args:
            text: the model's free-text answer.
            cut_off: the answer stopped at the output-token limit.
        """
        out = cls.model_validate({cls.text_field(): text})
        out._cut_off = cut_off
        return out

    def as_text(self) -> str:
        """The free text this output holds."""
        value = getattr(self, self.text_field())
        return value if isinstance(value, str) else ""

    @property
    def cut_off(self) -> bool:
        """Whether the answer stopped at the output-token limit."""
        return self._cut_off


@dataclass(frozen=True)
class Message:
    """One chat message.

    Args:
        role: ``system``, ``user`` or ``assistant``.
        content: its text.
    """

    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True)
class LLMRequest:
    """One role's call, as every provider receives it (frozen: a changed request is a copy).

    Args:
        role: the role the call is made as.
        phase: the phase it runs in (its metrics record the call).
        messages: the chat messages (system first).
        output_type: the pydantic type the answer must validate as (a
            :class:`TextOutput` is answered in plain text).
        inputs: the phase's structured inputs (see ``deepresearch.roles``).
        temperature, max_tokens, timeout_s: sampling, output limit, time limit per attempt.
        offline: the offline engine's answer for this role, computed from ``inputs``.
    """

    role: AgentRole
    phase: str
    messages: tuple[Message, ...]
    output_type: type[BaseModel]
    inputs: BaseModel
    temperature: float | None = None
    max_tokens: int | None = None
    timeout_s: float | None = None
    offline: Callable[[Any], BaseModel] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", tuple(self.messages))

    @property
    def wants_text(self) -> bool:
        """True when the answer is free text (see :class:`TextOutput`), not JSON."""
        return issubclass(self.output_type, TextOutput)

    @property
    def system(self) -> str:
        """The system messages' text, joined."""
        return "\n\n".join(m.content for m in self.messages if m.role == "system")

    @property
    def user(self) -> str:
        """The other messages' text, joined."""
        return "\n\n".join(m.content for m in self.messages if m.role != "system")

    def with_user(self, text: str) -> LLMRequest:
        """A copy whose user messages are replaced by one with ``text`` (token-limit
        recovery, the budget guard)."""
        system = tuple(m for m in self.messages if m.role == "system")
        return replace(self, messages=(*system, Message("user", text)))

    def with_system(self, text: str) -> LLMRequest:
        """A copy whose system prompt is replaced by ``text``."""
        turns = tuple(m for m in self.messages if m.role != "system")
        return replace(self, messages=(Message("system", text), *turns))


@dataclass
class Usage:
    """Tokens one call used.

    Args:
        input_tokens: prompt tokens.
        output_tokens: completion tokens.
    """

    input_tokens: int = 0
    output_tokens: int = 0


@dataclass
class LLMResponse:
    """A provider's answer to one LLMRequest.

    Args:
        output: the typed answer (the request's ``output_type``).
        model: the model that answered.
        usage: tokens used.
        raw_text: the text the model sent.
        repair_attempts: answers sent back for repair before one validated.
        continuations: free-text answers cut off at the output limit and continued.
        token_limit_retries: user-prompt cuts after context-window errors.
        sent: the request answered, when a wrapper changed it.
    """

    output: BaseModel
    model: str
    usage: Usage = field(default_factory=Usage)
    raw_text: str = ""
    repair_attempts: int = 0
    continuations: int = 0  # free-text answers cut off at the output limit and continued
    token_limit_retries: int = 0  # user prompt cuts after context-window errors
    sent: LLMRequest | None = None  # the request answered, when a wrapper changed it


@runtime_checkable
class LLMProvider(Protocol):
    """Anything that answers an LLMRequest with an instance of its output_type."""

    @property
    def name(self) -> str:
        """A model spec such as ``openai:gpt-4.1-mini`` or ``offline``."""
        ...

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Answer ``request`` with an instance of ``request.output_type`` and the usage."""
        ...


class SearchHit(BaseModel):
    """One search or extract result, before it becomes a Source."""

    url: str
    title: str = ""
    snippet: str = ""
    content: str = ""
    raw_content: str | None = None
    score: float | None = None
    domain: str = ""
    published: str | None = None
    metadata: dict[str, Any] = {}
    provider: str = ""  # the provider that returned it (set by merged and fallback search)
    # A passage's first and last line in its file (the local corpus cites a long file by
    # passage); None for a whole document, which every other provider returns.
    lines: tuple[int, int] | None = None
    # The URLs of the passages just before and after it in its file (the local corpus), which
    # a researcher may extract to read on; empty for a whole document.
    around: list[str] = []
    # Scholarly metadata (Semantic Scholar, OpenAlex, arXiv, Crossref); empty elsewhere.
    authors: list[str] = []
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    citation_count: int | None = None
    open_access_url: str | None = None

    def source_fields(self) -> dict[str, Any]:
        """The fields a Source copies as they are: the bibliographic ones (see Source.authors
        and the rest), a passage's place in its document (Source.lines) and the passages
        around it (Source.around)."""
        return {name: getattr(self, name) for name in (*SCHOLARLY_FIELDS, "lines", "around")}


SCHOLARLY_FIELDS = ("authors", "year", "venue", "doi", "citation_count", "open_access_url")


def web_hit(url: str, title: str, snippet: str, provider: str, **fields: Any) -> SearchHit | None:
    """A web search engine's result as a hit whose content is its snippet (extract fetches
    the page later); None for a result that is not an http(s) page."""
    if not url.startswith(("http://", "https://")):
        return None
    return SearchHit(
        url=url,
        title=title,
        snippet=snippet,
        content=snippet,
        domain=urlparse(url).netloc.lower().removeprefix("www."),
        provider=provider,
        **fields,
    )


@runtime_checkable
class SearchProvider(Protocol):
    """Anything that searches (web, papers, a local corpus) and extracts full pages."""

    @property
    def name(self) -> str:
        """The provider's name as a search spec (``tavily``, ``corpus``, ...)."""
        ...

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """At most ``max_results`` hits for ``query``, best first."""
        ...

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """Full content for ``urls`` (or local paths) found earlier; missing ones are left
        out."""
        ...
