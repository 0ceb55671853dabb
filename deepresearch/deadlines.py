"""A phase's time limit, enforced between units of work as well as at awaits.

asyncio's timer can interrupt a phase only where it awaits something that really waits
(a model's HTTP call, a search in a worker thread). The offline engine computes each
answer synchronously on the event loop, so a phase made of its calls never gave the timer
a chance and ran past ``phase_timeouts_s`` to the end. :func:`limited` holds a phase to
its limit with the timer, and :func:`check` — called by the call path before and after
each role call, a phase's unit of work — ends the phase there once the limit has passed.
Both end it the same way: ``TimeoutError`` out of :func:`limited`, which the loop records
as ``timed_out`` and checkpoints. Before the limit :func:`check` does not yield, so a run
that is not timed out interleaves exactly as it did.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass
class _Limit:
    when: float  # time.monotonic() at which the phase must end
    task: asyncio.Task[object]  # the task running the phase
    expired: bool = False  # check() found the limit passed and cancelled the phase


_LIMIT: ContextVar[_Limit | None] = ContextVar("deepresearch_phase_limit", default=None)


async def limited(work: Awaitable[T], seconds: float) -> T:
    """Await ``work`` as a phase limited to ``seconds``; past it, ``TimeoutError``.

    ``asyncio.wait_for`` holds the time (so a run schedules its tasks exactly as with
    ``wait_for`` alone); :func:`check` ends the work where the timer cannot.

    Args:
        work: the phase's coroutine.
        seconds: the time limit.
    """

    async def guarded() -> T:
        task = asyncio.current_task()
        if task is None:  # pragma: no cover - wait_for always runs it in a task
            raise RuntimeError("deadlines.limited needs a running task")
        limit = _Limit(time.monotonic() + seconds, task)
        token = _LIMIT.set(limit)
        try:
            return await work
        except asyncio.CancelledError:
            # check() cancelled the phase: a timeout, unless someone else cancelled it too
            if limit.expired and task.uncancel() == 0:
                raise TimeoutError from None
            raise
        finally:
            _LIMIT.reset(token)

    return await asyncio.wait_for(guarded(), timeout=seconds)


async def check() -> None:
    """End the running phase here when its time limit has passed (see the module's
    docstring); return at once, without yielding, when it has not or outside a phase."""
    limit = _LIMIT.get()
    if limit is None or time.monotonic() < limit.when:
        return
    if not limit.expired:
        limit.expired = True
        limit.task.cancel()
    # The cancellation lands at this await, in the phase's task or in a task it awaits.
    await asyncio.sleep(0)
