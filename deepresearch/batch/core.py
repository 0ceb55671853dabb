"""research_many: many questions, a bounded number at once, one shared limiter and budget.

Each question's session id is a hash of the question and the effective configuration, so
running the same batch again finds its sessions in the store: completed ones are reused,
interrupted or failed ones are resumed from their last checkpoint.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from typing import Any

from deepresearch.batch.jobs import (
    BatchRun,
    Limits,
    invalid_row,
    prepare,
    resume_point,
    run_prepared,
    shared_limits,
    skipped_row,
)
from deepresearch.batch.progress import Progress, batch_progress
from deepresearch.batch.ray_backend import run_on_ray
from deepresearch.batch.result import BatchResult, BatchRow, row_from_state
from deepresearch.config import Config
from deepresearch.errors import DeepResearchError, InputError
from deepresearch.providers.shared_limits import ProviderWrapper
from deepresearch.state import ResearchState
from deepresearch.store.sqlite import open_store
from deepresearch.sync import run_sync

BACKENDS = ("asyncio", "ray")


async def research_many(
    questions: Iterable[str],
    *,
    concurrency: int = 8,
    config: Config | None = None,
    backend: str = "asyncio",
    limits: Limits | None = None,
    store: Any = None,
    persist: bool | None = None,
    progress: bool | Progress | None = True,
    ray_options: Mapping[str, Any] | None = None,
    **session_kwargs: Any,
) -> BatchResult:
    """Research every question; at most ``concurrency`` sessions run at once.

    A failed question never stops the batch; running the same batch again skips the
    questions that completed and resumes the interrupted ones.

    Args:
        questions: the questions (repeats share one session and row).
        concurrency: how many sessions run at once.
        config: a :class:`Config` for every session (layered as for ``Session``).
        backend: ``"asyncio"`` (this process) or ``"ray"`` (Ray tasks; docs/batch.md).
        limits: per provider (a vendor such as ``"openai"`` or a full spec), a
            :class:`ProviderLimit` (rate, tokens, cost) shared by the whole batch.
        store: a SessionStore or a path, shared by every session of the batch.
        persist: as for ``Session``; False saves nothing and skips nothing next time.
        progress: True for a bar (notebook) or lines (terminal), False for none, or a
            callable receiving each line.
        ray_options: options for each Ray task (``num_cpus=``, ``max_retries=``, ...).
        **session_kwargs: other :class:`Session` arguments (``llm=``, ``search=``, any
            Config field).

    Returns:
        A :class:`BatchResult`: one row per question, and each question's session.
    """
    items = _checked(questions, concurrency, backend, session_kwargs)
    unique = list(dict.fromkeys(_normalized(q) for q in items))
    cfg = Config.layered(config, persist=persist)
    opened = open_store(store, cfg)
    shared = shared_limits(limits, cfg)
    reporter = batch_progress(len(unique), progress)
    started = time.perf_counter()
    run = BatchRun(unique, cfg, opened, shared, reporter, concurrency, session_kwargs)
    if backend == "ray":
        rows, states = await run_on_ray(run, dict(ray_options or {}))
    else:
        rows, states = await _run_in_process(run)
    by_question = dict(zip(unique, rows, strict=True))
    result = BatchResult(
        [by_question[_normalized(q)] for q in items],
        store=opened,
        states=states if opened is None else None,
        seconds=time.perf_counter() - started,
        spent={k: v.model_dump() for k, v in shared.snapshot().items()},
    )
    reporter.close()
    return result


def _checked(
    questions: Iterable[str], concurrency: int, backend: str, session_kwargs: dict[str, Any]
) -> list[str]:
    """The questions as a list, once every argument is known to be usable."""
    if concurrency < 1:
        raise InputError("concurrency must be at least 1.")
    if backend not in BACKENDS:
        raise InputError(f"backend must be one of {BACKENDS}, not {backend!r}.")
    if "state" in session_kwargs or "provider_wrapper" in session_kwargs:
        raise InputError("research_many makes its own sessions; do not pass state=.")
    items = list(questions)
    wrong = [q for q in items if not isinstance(q, str)]
    if wrong:
        raise InputError(f"questions must be strings; got {type(wrong[0]).__name__}: {wrong[0]!r}")
    return items


def research_many_sync(questions: Iterable[str], **kwargs: Any) -> BatchResult:
    """Blocking :func:`research_many` for scripts and notebooks: the same ``questions`` and
    keyword arguments (``**kwargs``)."""
    return run_sync(research_many(questions, **kwargs))


def _normalized(question: str) -> str:
    """One run per distinct question: repeated lines share a session and a row."""
    return " ".join(question.split())


async def _run_in_process(run: BatchRun) -> tuple[list[BatchRow], dict[str, ResearchState]]:
    config, store, shared = run.config, run.store, run.shared
    wrapper = ProviderWrapper(shared)
    slots = asyncio.Semaphore(run.concurrency)
    states: dict[str, ResearchState] = {}

    async def one(question: str) -> BatchRow:
        async with slots:
            clock = time.perf_counter()
            try:
                session, done = prepare(question, config, store, run.session_kwargs, wrapper)
            except DeepResearchError as exc:
                return invalid_row(question, exc)
            spent = shared.any_exhausted()
            if spent is not None and not done:
                return skipped_row(question, spent)
            resumed_from = resume_point(session, done)
            error = None if done else await run_prepared(session)
            if store is None:  # nothing to reload it from later
                states[session.id] = session.state
            return row_from_state(
                question, session.state, seconds=time.perf_counter() - clock,
                reused=done, error=error, resumed_from=resumed_from,
            )  # fmt: skip

    return await run.each(one), states
