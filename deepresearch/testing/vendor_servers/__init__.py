"""Loopback HTTP servers that speak the OpenAI, Anthropic and Tavily wire formats.

Point the real vendor clients at them (``Config(openai_base_url=server.base_url)``) to test
a pipeline with no network and no keys. Each server answers scripted replies first (in
order, including the vendors' real error bodies), then falls back to a responder. They bind
to 127.0.0.1 on a free port and shut themselves down after ``max_lifetime_s``.

    with OpenAIServer() as server:
        server.enqueue(openai_error(429, "Rate limit reached", code="rate_limit_exceeded",
                                    retry_after=0.01))
        config = Config(llm="openai:gpt-4.1-mini", openai_base_url=server.base_url)

One module per vendor (``openai_chat``, ``anthropic_messages``, ``tavily_search``) over the
shared server in ``base``; ``roles`` answers every role's schema. All names are re-exported
here.
"""

from __future__ import annotations

from deepresearch.testing.vendor_servers.anthropic_messages import (
    AnthropicServer,
    anthropic_context_window_error,
    anthropic_error,
    anthropic_message,
)
from deepresearch.testing.vendor_servers.base import (
    JSON,
    Answerer,
    RecordedRequest,
    Reply,
    Responder,
    VendorServer,
    chatty,
    schema_name_in,
)
from deepresearch.testing.vendor_servers.openai_chat import (
    OpenAIServer,
    openai_completion,
    openai_context_window_error,
    openai_error,
)
from deepresearch.testing.vendor_servers.roles import output_name, role_answer
from deepresearch.testing.vendor_servers.tavily_search import (
    TavilyServer,
    tavily_error,
    tavily_search_body,
)

__all__ = [
    "JSON",
    "Answerer",
    "AnthropicServer",
    "OpenAIServer",
    "RecordedRequest",
    "Reply",
    "Responder",
    "TavilyServer",
    "VendorServer",
    "anthropic_context_window_error",
    "anthropic_error",
    "anthropic_message",
    "chatty",
    "openai_completion",
    "openai_context_window_error",
    "openai_error",
    "output_name",
    "role_answer",
    "schema_name_in",
    "tavily_error",
    "tavily_search_body",
]
