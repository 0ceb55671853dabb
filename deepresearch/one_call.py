"""``dr.research(question)``: one call that runs a whole :class:`Session` and returns its
report."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Unpack

from deepresearch.config import Config
from deepresearch.config_overrides import ConfigOverrides
from deepresearch.context import Progress
from deepresearch.providers.base import LLMProvider, SearchProvider
from deepresearch.session import Session
from deepresearch.state import Report
from deepresearch.workflow.hooks import Hook

if TYPE_CHECKING:
    from deepresearch.store import SessionStore


async def research(
    question: str,
    *,
    llm: str | LLMProvider | None = None,
    search: str | list[str] | os.PathLike[str] | SearchProvider | None = None,
    config: Config | None = None,
    hooks: list[Hook] | None = None,
    corpus: str | os.PathLike[str] | None = None,
    max_iterations: int | None = None,
    max_sub_queries: int | None = None,
    enable_clarification: bool | None = None,
    persist: bool | None = None,
    store: SessionStore | str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    **overrides: Unpack[ConfigOverrides],
) -> Report | None:
    """One call: run a whole research session and return its report.

    Args:
        question: what to research.
        llm: a model spec (``"offline"``, ``"openai:gpt-4.1-mini"``, ...) or an LLMProvider.
        search: ``"demo"``, ``"corpus"``, ``"tavily"``, ``"auto"``, a list of them, a folder
            of your documents, or a SearchProvider.
        config: a :class:`Config`; only the fields set on it override the lower layers.
        hooks: think-pause hooks called after each phase (see :class:`Steer`).
        corpus: a folder of your documents for the ``corpus`` search provider.
        max_iterations: research iterations (refinement rounds + 1).
        max_sub_queries: how many sub-queries the planner may write.
        enable_clarification: ask (or skip) a clarifying question first.
        persist: save the session to the store (default True).
        store: where to save: a SessionStore or a path.
        progress: a callable receiving one-line progress messages.
        **overrides: any other Config field, typed (``ConfigOverrides``), e.g.
            ``max_sources_per_query=3``.

    Returns:
        The :class:`Report` (``str(report)`` is its Markdown; ``report.save(path)``
        writes it), or None if the run stopped before synthesis.
    """
    session = Session(
        question, llm=llm, search=search, config=config, hooks=hooks, corpus=corpus,
        max_iterations=max_iterations, max_sub_queries=max_sub_queries,
        enable_clarification=enable_clarification, persist=persist, store=store,
        progress=progress, **overrides,
    )  # fmt: skip
    await session.run()
    return session.report
