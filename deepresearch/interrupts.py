"""Kernel › Interrupt (SIGINT) as a clean cancel of the research runs in progress.

In a Jupyter kernel, an interrupt does not reach a run that waits at a think pause:
ipykernel 7 turns SIGINT during an async cell into a cancel of the cell's task, but it
schedules that cancel without waking the event loop, so ``await s.run()`` keeps waiting
(and later ends with a bare ``CancelledError``); between cells it ignores SIGINT, so a
background run (``s.start()``) cannot be interrupted at all.

While a run is in progress on the kernel's main thread, :func:`cancel_on_interrupt` puts
its own SIGINT handler in place: it asks every run in progress to cancel (the session's
cancel token, then ``call_soon_threadsafe``, which wakes the loop), so each ends
``cancelled`` with its state saved. Once no run is in progress the previous handler is
back. Outside a kernel (scripts) nothing changes here: :func:`deepresearch.run_sync` and
the CLI handle Ctrl-C themselves.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any


class InterruptWatch:
    """One run's registration: ``cancel`` is called on SIGINT; ``interrupted`` says it was."""

    def __init__(self, cancel: Callable[[], None]) -> None:
        self.cancel = cancel
        self.interrupted = False

    def interrupt(self) -> None:
        """Note the interrupt and cancel the run."""
        self.interrupted = True
        self.cancel()


class _Interrupts:
    """The one SIGINT handler shared by every run in progress in this process."""

    def __init__(self) -> None:
        self._watches: list[InterruptWatch] = []
        self._previous: Any = signal.SIG_DFL

    def add(self, watch: InterruptWatch) -> None:
        current = signal.getsignal(signal.SIGINT)
        # The kernel saves and restores handlers around each cell, so ours may come back
        # after we left; then the handler it replaced is still the one to fall back to.
        if current != self.handle:
            self._previous = current
            signal.signal(signal.SIGINT, self.handle)
        self._watches.append(watch)

    def discard(self, watch: InterruptWatch) -> None:
        if watch in self._watches:
            self._watches.remove(watch)
        if not self._watches and signal.getsignal(signal.SIGINT) == self.handle:
            signal.signal(signal.SIGINT, self._previous)

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self._watches:
            for watch in list(self._watches):
                watch.interrupt()
            return
        # No run in progress (a handler the kernel restored after we left): as before us.
        previous = self._previous
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:
            raise KeyboardInterrupt


_INTERRUPTS = _Interrupts()


def in_kernel() -> bool:
    """True inside a Jupyter (IPython) kernel."""
    if "ipykernel" not in sys.modules or "IPython" not in sys.modules:
        return False
    from IPython.core.getipython import get_ipython

    shell = get_ipython()  # type: ignore[no-untyped-call]
    return shell is not None and getattr(shell, "kernel", None) is not None


@contextlib.contextmanager
def cancel_on_interrupt(cancel: Callable[[], None]) -> Iterator[InterruptWatch]:
    """While the block runs, Kernel › Interrupt calls ``cancel`` (in a kernel, on its main
    thread; elsewhere the watch is inert and ``interrupted`` stays False)."""
    watch = InterruptWatch(cancel)
    if threading.current_thread() is not threading.main_thread() or not in_kernel():
        yield watch
        return
    _INTERRUPTS.add(watch)
    try:
        yield watch
    finally:
        _INTERRUPTS.discard(watch)
