"""Kernel › Interrupt and run_sync() in a real IPython kernel, with the ThinkPausePanel.

A run waiting at a pause (``await s.run()``), a background run (``s.start()``) and a
blocking run (``s.run_sync()``, which runs in a worker thread) all end ``cancelled`` on an
interrupt, with the state saved and a one-line message instead of a traceback; and
``run_sync()`` refuses a panel up front.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from kernel_driver import kernel

SETUP = """
import asyncio, json, signal
import deepresearch as dr
from deepresearch.notebook import NotebookProgress, ThinkPausePanel
from deepresearch.testing import FunctionLLM, StaticSearch

DOCS = [{"url": "https://ex.org/press", "title": "Printing press",
         "content": "The printing press spread literacy and books across Europe after 1450."}]
STORE = "sessions.db"

def paused(state, prompt):  # a sync hook (runs in a worker thread): says where it is
    print(f"PAUSED {state.phase.value}", flush=True)

def session(*hooks, progress=None):
    config = dr.Config(max_iterations=1, enable_supervision=False, max_sub_queries=2)
    return dr.Session("How did the printing press change Europe?", llm=FunctionLLM(),
                      search=StaticSearch(DOCS), config=config, hooks=list(hooks),
                      store=STORE, progress=progress)

def saved(s):
    return dr.Session.load(s.id, store=STORE).status.value
"""


def result_line(text: str) -> dict[str, object]:
    line = next(x for x in text.splitlines() if x.startswith("RESULT "))
    return dict(json.loads(line.removeprefix("RESULT ")))


def test_interrupts_cancel_cleanly_and_run_sync_refuses_a_panel(tmp_path: Path) -> None:
    with kernel(tmp_path) as k:
        assert not k.run(SETUP).errors

        # 1. `await s.run()` waiting at the panel's first pause: Kernel › Interrupt.
        cell = k.run(
            "panel = ThinkPausePanel(); progress = NotebookProgress()\n"
            "s = session(paused, panel, progress=progress)\n"
            "r = await s.run()\n"
            "print('RESULT ' + json.dumps({'status': r.status.value, 'saved': saved(s),"
            " 'panel': panel.state.value, 'progress': progress.messages[-1]}))",
            interrupt_on="PAUSED clarification",
        )
        assert not cell.errors, cell.errors
        out = result_line(cell.stdout)
        assert out["status"] == out["saved"] == out["panel"] == "cancelled"
        assert str(out["progress"]).startswith("cancelled during clarification")
        assert "Interrupted: the research was cancelled during clarification" in cell.stderr
        assert "CancelledError" not in cell.stderr

        # The kernel's own SIGINT handling is back, and the session resumes.
        cell = k.run(
            "handler = signal.getsignal(signal.SIGINT)\n"
            "s.hooks = []; r = await s.resume()\n"
            "print('RESULT ' + json.dumps({'status': r.status.value,"
            " 'handler': getattr(handler, '__name__', str(handler))}))"
        )
        assert not cell.errors, cell.errors
        assert result_line(cell.stdout) == {"status": "completed", "handler": "handle_sigint"}

        # 2. run_sync() with a panel: a clear typed error before anything runs.
        cell = k.run("s2 = session(ThinkPausePanel()); s2.run_sync()")
        assert [e[0] for e in cell.errors] == ["BlockingRunError"]
        assert "s.start()" in cell.errors[0][1]
        assert not k.run("assert s2.status.value == 'pending'").errors

        # 3. run_sync() (a worker thread) interrupted while a sync hook works.
        cell = k.run(
            "import time\n"
            "def slow(state, prompt):\n"
            "    print(f'PAUSED {state.phase.value}', flush=True); time.sleep(0.5)\n"
            "s3 = session(slow)\n"
            "r3 = s3.run_sync()\n"
            "print('RESULT ' + json.dumps({'status': r3.status.value, 'saved': saved(s3)}))",
            interrupt_on="PAUSED brief",
        )
        assert not cell.errors, cell.errors
        assert result_line(cell.stdout) == {"status": "cancelled", "saved": "cancelled"}
        assert "Interrupted: the research was cancelled" in cell.stderr

        # 4. A background run (s.start()) waiting at a pause while no cell runs.
        cell = k.run("panel4 = ThinkPausePanel(); s4 = session(paused, panel4); task = s4.start()")
        assert not cell.errors
        cell = k.run("await panel4.wait_for_pause(); print('PAUSED at the panel')")
        k.manager.interrupt_kernel()
        time.sleep(1)  # let the kernel take the signal while no cell runs
        cell = k.run(
            "r4 = await task\n"
            "print('RESULT ' + json.dumps({'status': r4.status.value, 'saved': saved(s4),"
            " 'panel': panel4.state.value}))"
        )
        assert not cell.errors, cell.errors
        assert result_line(cell.stdout) == {
            "status": "cancelled",
            "saved": "cancelled",
            "panel": "cancelled",
        }
