"""Fixtures and helpers shared by the provider tests: the loopback vendor servers, the
output type they are asked for, a sleep that records instead of waiting, an empty search,
a file read as the corpus reads it.

The test modules import the plain helpers with ``from .conftest import ...`` (this folder
is a package for that reason); pytest injects the fixtures by name.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from deepresearch.providers.anthropic_messages import AnthropicMessages
from deepresearch.providers.openai_chat import OpenAIChat
from deepresearch.providers.readers import Document, read_document
from deepresearch.providers.tavily_search import TavilySearch
from deepresearch.roles import RoleSpec
from deepresearch.state import AgentRole, Phase
from deepresearch.testing import EmptySearch
from deepresearch.testing.vendor_servers import AnthropicServer, OpenAIServer


def read_as(folder: Path, name: str, text: str) -> Document:
    """``text`` saved as ``folder/name`` and read as the corpus reads that file."""
    path = folder / name
    path.write_text(text, "utf-8")
    return read_document(path)


class Verdict(BaseModel):
    """The output type the provider tests ask for."""

    label: str
    score: int


def verdict_role(role: AgentRole, phase: Phase, user: str) -> RoleSpec[Verdict, Verdict]:
    """A role asking for a Verdict with system prompt "s" and the given user message."""
    return RoleSpec("rate", role, phase, "s", lambda _: user, Verdict, Verdict, lambda i: i)


class Recorder:
    """A ``RetryPolicy.sleep`` that records the waits instead of sleeping."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def waits(provider: OpenAIChat | AnthropicMessages | TavilySearch) -> list[float]:
    """The waits recorded by a provider whose retry sleep was replaced by a Recorder."""
    sleep = provider.retry.sleep
    assert isinstance(sleep, Recorder)
    return sleep.waits


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """Answers every schema with {"label": <schema name>, "score": 7}."""
    with OpenAIServer(answer=lambda name, prompt: {"label": name, "score": 7}) as srv:
        yield srv


@pytest.fixture
def anthropic_server() -> Iterator[AnthropicServer]:
    """Answers every schema with {"label": <schema name>, "score": 4}."""
    with AnthropicServer(answer=lambda name, prompt: {"label": name, "score": 4}) as srv:
        yield srv


@pytest.fixture
def no_search() -> EmptySearch:
    return EmptySearch()
