"""One question of a batch: its fixed session id, its session (new or saved), its run.

Shared by the in-process runner and the Ray workers, so both treat a question alike.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deepresearch.batch.progress import BatchProgress
from deepresearch.batch.result import INVALID, SKIPPED, BatchRow
from deepresearch.config import Config
from deepresearch.providers.shared_limits import ProviderLimit, ProviderWrapper, SharedLimits
from deepresearch.session import Session
from deepresearch.state import RunStatus
from deepresearch.state.models import FINISHED_STATUSES
from deepresearch.store import SessionStore

# Config fields that say where results go, not what the research is.
_NOT_IDENTITY = frozenset({"store_path", "persist", "corpus_index"})
Limits = Mapping[str, ProviderLimit | Mapping[str, Any]]


@dataclass
class BatchRun:
    """A batch as a backend receives it: the distinct questions and what they share."""

    questions: list[str]
    config: Config
    store: SessionStore | None
    shared: SharedLimits
    reporter: BatchProgress
    concurrency: int
    session_kwargs: dict[str, Any]

    async def each(self, one: Callable[[str], Awaitable[BatchRow]]) -> list[BatchRow]:
        """``one`` for every question at once; each row is reported as it finishes."""

        async def reported(question: str) -> BatchRow:
            row = await one(question)
            self.reporter.finished(row)
            return row

        return list(await asyncio.gather(*(reported(q) for q in self.questions)))


def job_id(question: str, config: Config, llm: object = None, search: object = None) -> str:
    """A session id fixed by the question and everything that shapes its research."""
    identity = {
        "question": " ".join(question.split()),
        "config": config.flat_dump(mode="json", exclude=_NOT_IDENTITY),
        "llm": _provider_name(llm),
        "search": _provider_name(search),
    }
    text = json.dumps(identity, sort_keys=True, default=str)
    return "b" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:15]


def _provider_name(value: object) -> str | None:
    if value is None or isinstance(value, str | list | Path):
        return None  # already merged into the config
    name = getattr(value, "name", None)
    return name if isinstance(name, str) else type(value).__name__


def shared_limits(limits: Limits | None, config: Config) -> SharedLimits:
    """The batch's SharedLimits from per-provider limits, priced with the config's
    ``price_overrides``.

    Args:
        limits: per provider name, a ProviderLimit or its fields as a mapping.
        config: the batch's Config.
    """
    parsed = {
        k: v if isinstance(v, ProviderLimit) else ProviderLimit.model_validate(v)
        for k, v in (limits or {}).items()
    }
    return SharedLimits(parsed, price_overrides=config.models.price_overrides)


def prepare(
    question: str,
    config: Config,
    store: SessionStore | None,
    session_kwargs: dict[str, Any],
    wrapper: ProviderWrapper | None = None,
) -> tuple[Session, bool]:
    """The session for a question: a saved one with the same id, or a new one.
    Returns (session, already_completed)."""
    session = Session(
        question,
        config=config,
        store=store,
        persist=store is not None,
        provider_wrapper=wrapper,
        **session_kwargs,
    )
    sid = job_id(
        session.state.question,
        session.config,
        session_kwargs.get("llm"),
        session_kwargs.get("search"),
    )
    if store is not None and store.exists(sid):
        session.state = store.load(sid)
        return session, session.state.status in FINISHED_STATUSES
    session.state.id = sid
    return session, False


def resume_point(session: Session, done: bool) -> str | None:
    """The phase a saved, unfinished session continues from (None for a fresh one)."""
    if done or session.state.status == RunStatus.PENDING:
        return None
    return session.state.phase.value


async def run_prepared(session: Session) -> str | None:
    """Run or resume; an unexpected exception becomes the row's error, never the batch's."""
    try:
        if session.state.status == RunStatus.PENDING:
            await session.run()
        else:
            await session.resume()
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        if session.state.status not in (RunStatus.FAILED, RunStatus.CANCELLED):
            session.state.status = RunStatus.FAILED
            session.state.error = f"{type(exc).__name__}: {exc}"
            if session.store is not None:
                session.store.save(session.state)  # keep what was gathered, resumable
        return f"{type(exc).__name__}: {exc}"
    return None


def skipped_row(question: str, reason: str) -> BatchRow:
    """The row of a question not started because the batch's budget was spent.

    Args:
        question: the question.
        reason: which budget ran out.
    """
    return BatchRow(question=question, status=SKIPPED, error=f"not started: the batch's {reason}")


def invalid_row(question: str, exc: Exception) -> BatchRow:
    """The row of a question that could not start (a bad question or setting).

    Args:
        question: the question.
        exc: the error it raised.
    """
    return BatchRow(question=question, status=INVALID, error=f"{type(exc).__name__}: {exc}")
