"""One progress display for a whole batch: a bar in a notebook, a line per question in a
terminal, or your own ``Callable[[str], None]``."""

from __future__ import annotations

import html
import sys
import time
from collections import Counter, deque
from collections.abc import Callable

from deepresearch.batch.result import BatchRow

Progress = Callable[[str], None]


class BatchProgress:
    """Counts finished questions and reports each one to a sink (or a notebook widget)."""

    def __init__(self, total: int, sink: Progress | None = None, *, widget: bool = False) -> None:
        self.total = total
        self.done = 0
        self.statuses: Counter[str] = Counter()
        self._sink = sink
        self._started = time.perf_counter()
        self._widget: _BatchWidget | None = _BatchWidget(total) if widget else None

    def finished(self, row: BatchRow) -> None:
        """Count a finished question and report it (widget, progress callback).

        Args:
            row: the question's result row.
        """
        self.done += 1
        self.statuses[row.status] += 1
        q = row.question if len(row.question) <= 60 else row.question[:57] + "..."
        how = "reused" if row.reused else f"{row.seconds:.1f} s"
        message = f"batch {self.done}/{self.total} {row.status} ({how}): {q}"
        if row.error and not row.ok:
            message += f" — {row.error[:120]}"
        if self._widget is not None:
            self._widget.update(self, message)
        if self._sink is not None:
            self._sink(message)

    def close(self) -> None:
        """Report the totals once the batch is over."""
        if self._sink is not None:
            self._sink(self.summary())

    def summary(self) -> str:
        """One line: how many questions ended how, and the time taken."""
        counts = ", ".join(f"{n} {s}" for s, n in sorted(self.statuses.items()))
        return f"batch of {self.total}: {counts} in {time.perf_counter() - self._started:.1f} s"


class _BatchWidget:
    def __init__(self, total: int) -> None:
        import ipywidgets as w
        from IPython.display import display

        self.bar = w.IntProgress(value=0, min=0, max=max(total, 1), description="0/" + str(total))
        self.counts = w.HTML()
        self.log: deque[str] = deque(maxlen=6)
        self.lines = w.HTML()
        display(w.VBox([w.HBox([self.bar, self.counts]), self.lines]))  # type: ignore[no-untyped-call]

    def update(self, progress: BatchProgress, message: str) -> None:
        self.bar.value = progress.done
        self.bar.description = f"{progress.done}/{progress.total}"
        self.counts.value = html.escape(
            ", ".join(f"{s}: {n}" for s, n in sorted(progress.statuses.items()))
        )
        self.log.appendleft(message)
        lines = "<br>".join(html.escape(m) for m in self.log)
        self.lines.value = f"<div style='color:#666;font-size:90%'>{lines}</div>"


def batch_progress(total: int, progress: bool | Progress | None) -> BatchProgress:
    """True: a widget in Jupyter, else lines on stderr. False/None: silent. A callable: yours."""
    if progress is None or progress is False:
        return BatchProgress(total)
    if progress is True:
        from deepresearch.notebook.progress import in_notebook

        if in_notebook():
            return BatchProgress(total, widget=True)
        return BatchProgress(total, _stderr)
    return BatchProgress(total, progress)


def _stderr(message: str) -> None:
    print(f"[deepresearch] {message}", file=sys.stderr, flush=True)
