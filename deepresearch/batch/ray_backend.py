"""research_many(backend="ray"): each session is a Ray task; Ray places, retries and scales.

- The batch's rate limiter and budget live in one Ray actor (:class:`LimitsService`);
  workers reach it through :class:`RayLimiter`, a proxy with the Limiter methods.
- A worker checkpoints into a SQLite file on its own node (``checkpoint_dir``). When
  Ray retries a task whose worker died, the retry finds that checkpoint (same node, or a
  shared folder) and resumes instead of starting over.
- The final state comes back to the driver, which writes it to the batch's store.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deepresearch.batch.jobs import (
    BatchRun,
    invalid_row,
    prepare,
    resume_point,
    run_prepared,
    skipped_row,
)
from deepresearch.batch.result import BatchRow, row_from_state
from deepresearch.config import Config
from deepresearch.errors import BudgetExhaustedError, DeepResearchError, MissingExtraError
from deepresearch.providers.shared_limits import (
    ProviderLimit,
    ProviderWrapper,
    SharedLimits,
    Spent,
)
from deepresearch.state import EventKind, ResearchState
from deepresearch.store import SessionStore

# A Ray ActorHandle of LimitsService (Ray is imported only when the backend runs).
ActorHandle = Any
DEFAULT_MAX_RETRIES = 3
ATTEMPT_EVENT = EventKind.RAY_ATTEMPT


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError(
            "backend='ray' needs Ray: pip install 'deepresearch[ray]' "
            "(on the driver and on every worker)."
        ) from exc
    return ray


class LimitsService:
    """The body of the limiter actor: a SharedLimits that answers over Ray."""

    def __init__(self, limits: dict[str, ProviderLimit], price_overrides: dict[str, Any]) -> None:
        self.shared = SharedLimits(limits, price_overrides=price_overrides)

    async def acquire(self, provider: str) -> str | None:
        """None when the request may go, else why not (raised again in the worker)."""
        try:
            await self.shared.acquire(provider)
        except BudgetExhaustedError as exc:
            return str(exc)
        return None

    async def charge(
        self, provider: str, model: str, input_tokens: int, output_tokens: int
    ) -> None:
        """Record one call's tokens and cost, as :meth:`Limiter.charge` says."""
        await self.shared.charge(provider, model, input_tokens, output_tokens)

    async def pace(self, provider: str) -> None:
        """Wait until ``provider``'s rate limit lets the next request start.

        Args:
            provider: the provider's name.
        """
        await self.shared.pace(provider)

    async def backoff(self, provider: str, seconds: float) -> None:
        """Hold every request to ``provider`` back for ``seconds`` (a 429's Retry-After).

        Args:
            provider: the provider's name.
            seconds: how long to wait.
        """
        await self.shared.backoff(provider, seconds)

    def any_exhausted(self) -> str | None:
        """Why the batch's budget is spent, or None while any is left."""
        return self.shared.any_exhausted()

    def snapshot(self) -> dict[str, Spent]:
        """What each provider has spent so far (copies)."""
        return self.shared.snapshot()


class RayLimiter:
    """The worker's side of the limiter actor (a Limiter)."""

    def __init__(self, actor: ActorHandle) -> None:
        self.actor = actor

    async def acquire(self, provider: str) -> None:
        """Take one request from ``provider``'s budget on the limits actor; BudgetExhaustedError
        when it is spent.

        Args:
            provider: the provider's name.
        """
        refused = await self.actor.acquire.remote(provider)
        if refused is not None:
            raise BudgetExhaustedError(refused, provider=provider)

    async def charge(
        self, provider: str, model: str, input_tokens: int, output_tokens: int
    ) -> None:
        """Record one call's tokens and cost on the limits actor (:meth:`Limiter.charge`)."""
        await self.actor.charge.remote(provider, model, input_tokens, output_tokens)

    async def pace(self, provider: str) -> None:
        """Wait for ``provider``'s rate limit on the limits actor.

        Args:
            provider: the provider's name.
        """
        await self.actor.pace.remote(provider)

    async def backoff(self, provider: str, seconds: float) -> None:
        """Hold every worker's requests to ``provider`` back for ``seconds``.

        Args:
            provider: the provider's name.
            seconds: how long to wait.
        """
        await self.actor.backoff.remote(provider, seconds)


@dataclass
class Job:
    """One question as a Ray task receives it.

    Args:
        question: the question.
        config_json: the batch's Config as JSON.
        session_kwargs: other Session arguments (picklable).
        saved_state: the driver's snapshot of an interrupted session, if any.
        checkpoint_path: the SQLite file the worker checkpoints to (retries resume from it).
        run_token: identifies this batch run (a retried task resumes only its own run).
    """

    question: str
    config_json: str
    session_kwargs: dict[str, Any]
    saved_state: str | None  # the driver's snapshot of an interrupted session
    checkpoint_path: str
    run_token: str


def run_job(job: Job, actor: ActorHandle) -> dict[str, Any]:
    """The Ray task: run (or resume) one session on a worker; return its final state."""
    return asyncio.run(_work(job, actor))


async def _work(job: Job, actor: ActorHandle) -> dict[str, Any]:
    clock = time.perf_counter()
    config = Config.model_validate_json(job.config_json)
    store = SessionStore(job.checkpoint_path)
    try:
        session, done = prepare(
            job.question, config, store, job.session_kwargs, ProviderWrapper(RayLimiter(actor))
        )
        if job.saved_state is not None:
            saved = ResearchState.from_json(job.saved_state)
            if not store.exists(saved.id) or store.load(saved.id).updated_at < saved.updated_at:
                session.state, done = saved, False
        resumed_from = resume_point(session, done)
        store.emit(session.state, ATTEMPT_EVENT, {"run": job.run_token})
        attempts = sum(
            1
            for e in store.events(session.id)
            if e.kind == ATTEMPT_EVENT and e.payload.get("run") == job.run_token
        )
        error = None if done else await run_prepared(session)
        return {
            "state": session.state.to_json(),
            "error": error,
            "seconds": time.perf_counter() - clock,
            "attempts": attempts,
            "reused": done,
            "resumed_from": resumed_from,
        }
    finally:
        store.close()


async def run_on_ray(
    run: BatchRun, ray_options: dict[str, Any]
) -> tuple[list[BatchRow], dict[str, ResearchState]]:
    """Run every question of ``run`` (its config, store and limits) as a Ray task with
    ``ray_options`` (less ``checkpoint_dir``), one limits actor shared; rows and states."""
    config, store, shared, session_kwargs = run.config, run.store, run.shared, run.session_kwargs
    ray = _ray()
    if not ray.is_initialized():
        ray.init()  # a local Ray, or the cluster named by RAY_ADDRESS
    default_dir = Path(tempfile.gettempdir()) / "deepresearch-ray"
    folder = Path(ray_options.pop("checkpoint_dir", default_dir))
    task = ray.remote(run_job).options(**{"max_retries": DEFAULT_MAX_RETRIES, **ray_options})
    actor = ray.remote(LimitsService).remote(shared.limits, shared.price_overrides)
    token = uuid.uuid4().hex
    slots = asyncio.Semaphore(run.concurrency)
    states: dict[str, ResearchState] = {}

    async def one(question: str) -> BatchRow:
        clock = time.perf_counter()
        try:
            local, done = prepare(question, config, store, session_kwargs)
        except DeepResearchError as exc:
            return invalid_row(question, exc)
        if done:
            states[local.id] = local.state
            return row_from_state(question, local.state, seconds=0.0, reused=True)
        saved = local.state.to_json() if store is not None and store.exists(local.id) else None
        job = Job(
            question, config.model_dump_json(), session_kwargs, saved,
            str(folder / "checkpoints.db"), token,
        )  # fmt: skip
        async with slots:
            spent = await actor.any_exhausted.remote()
            if spent is not None:
                return skipped_row(question, spent)
            try:
                out = await task.remote(job, actor)
            except Exception as exc:  # the task failed even after Ray's retries
                error = f"{type(exc).__name__}: {exc}"
                return row_from_state(
                    question, local.state, seconds=time.perf_counter() - clock, error=error
                ).model_copy(update={"status": "failed"})
        state = ResearchState.from_json(out["state"])
        states[state.id] = state
        if store is not None:
            store.save(state)
            store.emit(state, EventKind.BATCH_RESULT, {
                "backend": "ray", "attempts": out["attempts"], "resumed_from": out["resumed_from"],
            })  # fmt: skip
        return row_from_state(
            question, state, seconds=out["seconds"], reused=out["reused"],
            error=out["error"], attempts=out["attempts"], resumed_from=out["resumed_from"],
        )  # fmt: skip

    try:
        rows = await run.each(one)
        shared.spent = await actor.snapshot.remote()
    finally:
        ray.kill(actor)
    return rows, states
