"""Keep a text box's edits flowing to Python while a cell awaits (``await s.run()``).

The browser side of ipywidgets sends one update of a widget at a time and holds the next
until the kernel reports ``idle`` for the one in flight. ipykernel 7 handles widget messages
that arrive while an async cell runs alongside that cell, and reports no busy/idle for
them, so after its first update a box stays held: typing key by key, only the first key
reached Python. :func:`acknowledge_browser_edits` closes that gap for the panel's inputs by
reporting ``idle`` for each update handled while a cell runs — what the kernel reports
for it between cells.
"""

from __future__ import annotations

import weakref
from typing import Any


class _CellWatch:
    """Whether a cell is running in this IPython shell (its run-cell events)."""

    def __init__(self, shell: Any) -> None:
        self.running = False
        shell.events.register("pre_run_cell", self._started)
        shell.events.register("post_run_cell", self._ended)

    def _started(self, *_: Any) -> None:
        self.running = True

    def _ended(self, *_: Any) -> None:
        self.running = False


_watches: weakref.WeakKeyDictionary[Any, _CellWatch] = weakref.WeakKeyDictionary()


def _kernel_and_watch() -> tuple[Any, _CellWatch] | None:
    try:
        from IPython.core.getipython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()  # type: ignore[no-untyped-call]
    kernel = getattr(shell, "kernel", None)
    if kernel is None or not hasattr(kernel, "get_parent"):
        return None  # a terminal IPython or no kernel: nothing to acknowledge
    watch = _watches.get(shell)
    if watch is None:
        watch = _watches[shell] = _CellWatch(shell)
    return kernel, watch


def acknowledge_browser_edits(*widgets: Any) -> None:
    """Report ``idle`` for every browser update of ``widgets`` handled while a cell runs."""
    found = _kernel_and_watch()
    if found is None:
        return
    kernel, watch = found

    def acknowledge(_change: Any) -> None:
        parent = kernel.get_parent("shell")
        if not watch.running or parent.get("header", {}).get("msg_type") != "comm_msg":
            return  # set from Python, or handled between cells (the kernel reports idle)
        kernel.session.send(
            kernel.iopub_socket, "status", {"execution_state": "idle"}, parent=parent
        )

    for widget in widgets:
        widget.observe(acknowledge, names="value")
