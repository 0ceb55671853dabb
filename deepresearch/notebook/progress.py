"""Progress reporters for ``RunContext.progress`` (a ``Callable[[str], None]``).

``terminal_progress()`` writes one line per message; ``NotebookProgress()`` keeps a small
live log in an ipywidgets panel; ``default_progress()`` picks the one that fits.
"""

from __future__ import annotations

import html
import sys
from collections import deque
from collections.abc import Callable
from typing import TextIO

import ipywidgets as w

Progress = Callable[[str], None]


def terminal_progress(stream: TextIO | None = None) -> Progress:
    """A reporter that prints ``[deepresearch] message`` lines (to stderr by default)."""

    def report(message: str) -> None:
        out = stream if stream is not None else sys.stderr
        print(f"[deepresearch] {message}", file=out, flush=True)

    return report


class NotebookProgress:
    """A live log in the notebook: the current step on top, the last ``keep`` messages below.

    It shows itself in the running cell on the first message (or wherever you display it).
    """

    def __init__(self, keep: int = 8) -> None:
        if keep < 1:
            raise ValueError("keep must be at least 1")
        self.messages: deque[str] = deque(maxlen=keep)
        self.count = 0
        self.current = w.HTML("<i>waiting to start…</i>")
        self.log = w.HTML()
        self.widget = w.VBox([self.current, self.log])
        self._displayed = False

    def __call__(self, message: str) -> None:
        if not self._displayed:
            self._ipython_display_()
        self.count += 1
        self.messages.append(message)
        self.current.value = f"<b>{html.escape(message)}</b>"
        earlier = list(self.messages)[:-1]
        lines = "<br>".join(html.escape(m) for m in reversed(earlier))
        self.log.value = f"<div style='color:#666;font-size:90%'>{lines}</div>"

    def _ipython_display_(self) -> None:
        from IPython.display import display

        self._displayed = True
        display(self.widget)  # type: ignore[no-untyped-call]


def in_notebook() -> bool:
    """True inside a Jupyter kernel (where widgets can render), False in a terminal or script."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    from IPython.core.getipython import get_ipython

    ip = get_ipython()  # type: ignore[no-untyped-call]
    return ip is not None and getattr(ip, "kernel", None) is not None


def default_progress() -> Progress:
    """NotebookProgress inside Jupyter, else terminal lines on stderr."""
    return NotebookProgress() if in_notebook() else terminal_progress()
