"""``run_sync``: run a coroutine to its end from sync code — a script, or a notebook cell
whose event loop is already running (then on a worker thread, never patching that loop)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import signal
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class _Running:
    """The loop and task a worker thread runs a coroutine on (to cancel it from outside)."""

    loop: asyncio.AbstractEventLoop | None = None
    task: asyncio.Task[Any] | None = None

    def cancel(self) -> None:
        if self.loop is not None and self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)


async def _main(
    coro: Coroutine[Any, Any, T], running: _Running, on_interrupt: Callable[[], None] | None
) -> T:
    loop = asyncio.get_running_loop()
    running.loop, running.task = loop, asyncio.current_task()
    watch_sigint = (
        on_interrupt is not None and threading.current_thread() is threading.main_thread()
    )
    if watch_sigint and on_interrupt is not None:
        loop.add_signal_handler(signal.SIGINT, on_interrupt)
    try:
        return await coro
    finally:
        if watch_sigint:
            loop.remove_signal_handler(signal.SIGINT)


def run_sync(coro: Coroutine[Any, Any, T], *, on_interrupt: Callable[[], None] | None = None) -> T:
    """Run a coroutine to completion from sync code and return its result.

    Without a running event loop (a script) it runs on a new one. Inside a running loop (a
    notebook cell) it runs on a new loop in a worker thread and blocks until it is done;
    the running loop is never patched. ``on_interrupt`` is called on Ctrl-C / Kernel ›
    Interrupt, and the coroutine then runs on to its end (e.g. a cancelled session saving
    its state); without it the coroutine is cancelled and KeyboardInterrupt raised.
    """
    running = _Running()
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_main(coro, running, on_interrupt))
    context = contextvars.copy_context()  # the kernel's output routing goes along
    with ThreadPoolExecutor(1, thread_name_prefix="deepresearch-run_sync") as pool:
        future = pool.submit(context.run, asyncio.run, _main(coro, running, None))
        try:
            return future.result()
        except KeyboardInterrupt:
            if on_interrupt is None:
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    future.result()
                raise
            on_interrupt()
            return future.result()
