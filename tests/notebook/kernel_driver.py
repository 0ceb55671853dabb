"""A real IPython kernel driven over its wire protocol, with Kernel › Interrupt.

Used by the tests that need what nbclient cannot do: send an interrupt while a cell waits,
or run a cell until a line appears in its output.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jupyter_client.manager import start_new_kernel

ROOT = Path(__file__).resolve().parents[2]
CELL_TIMEOUT_S = 120.0  # a hang fails the test instead of stalling CI


@dataclass
class CellRun:
    """What one cell sent back: stdout/stderr text, errors (ename, evalue), results."""

    stdout: str = ""
    stderr: str = ""
    errors: list[tuple[str, str]] = field(default_factory=list)
    results: list[str] = field(default_factory=list)


class Kernel:
    def __init__(self, manager: Any, client: Any) -> None:
        self.manager, self.client = manager, client

    def run(self, code: str, *, interrupt_on: str | None = None) -> CellRun:
        """Run ``code`` to its end; with ``interrupt_on``, send Kernel › Interrupt once that
        text has appeared in the cell's output."""
        msg_id = self.client.execute(code)
        out = CellRun()
        deadline = time.monotonic() + CELL_TIMEOUT_S
        pending_interrupt = interrupt_on
        while time.monotonic() < deadline:
            try:
                msg = self.client.get_iopub_msg(timeout=0.5)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "status" and content["execution_state"] == "idle":
                return out
            if kind == "stream":
                if content["name"] == "stdout":
                    out.stdout += content["text"]
                else:
                    out.stderr += content["text"]
            elif kind == "error":
                out.errors.append((content["ename"], content["evalue"]))
            elif kind == "execute_result":
                out.results.append(content["data"].get("text/plain", ""))
            if pending_interrupt is not None and pending_interrupt in out.stdout + out.stderr:
                pending_interrupt = None
                self.manager.interrupt_kernel()
        raise AssertionError(f"cell did not finish in {CELL_TIMEOUT_S} s: {code[:200]!r}")


@contextmanager
def kernel(cwd: Path) -> Iterator[Kernel]:
    """A python3 kernel importing this worktree's package (PYTHONPATH first)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(cwd), env=env)
    try:
        yield Kernel(manager, client)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
