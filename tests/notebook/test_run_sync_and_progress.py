"""run_sync() and progress where people use them: a plain script (no event loop; progress
lines on stderr) and a real Jupyter kernel (a running loop, left alone: the run goes to a
worker thread; a progress widget)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

SETUP = """
import asyncio, json
import deepresearch as dr
from deepresearch.notebook import default_progress
from deepresearch.testing import FunctionLLM, StaticSearch

DOCS = [
    {"url": "https://ex.org/press", "title": "Printing press",
     "content": "The printing press spread literacy and books across Europe after 1450."},
    {"url": "https://ex.org/reformation", "title": "Reformation pamphlets",
     "content": "Printed pamphlets carried Luther's ideas across Europe quickly."},
]
CONFIG = dr.Config(max_iterations=1, enable_supervision=False, max_sub_queries=2)

def session():
    return dr.Session("How did the printing press change Europe?", llm=FunctionLLM(),
                      search=StaticSearch(DOCS), config=CONFIG, persist=False,
                      progress=default_progress())
"""

SCRIPT = (
    SETUP
    + """
try:
    asyncio.get_running_loop()
    loop_running = True
except RuntimeError:
    loop_running = False
s = session()
result = s.run_sync()
again = session().run_sync()  # a second blocking run in the same script
print(json.dumps({"loop_running": loop_running, "status": result.status.value,
                  "again": again.status.value, "report": s.report is not None}))
"""
)


def test_run_sync_in_a_script_reports_progress_on_stderr(tmp_path: Path) -> None:
    script = tmp_path / "research.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out == {"loop_running": False, "status": "completed", "again": "completed",
                   "report": True}  # fmt: skip
    lines = done.stderr.splitlines()
    assert "[deepresearch] planning (iteration 1)" in lines
    assert any(line.startswith("[deepresearch] researching sq-1: ") for line in lines)
    assert "[deepresearch] synthesis (iteration 1)" in lines


KERNEL_CELLS = [
    SETUP,
    # A plain (not async) cell: the kernel's loop is running underneath it.
    """
try:
    asyncio.get_running_loop()
    loop_running = True
except RuntimeError:
    loop_running = False
s = session()
result = s.run_sync()
result.status.value
""",
    "again = session().run_sync()  # a second blocking run in the same kernel\n",
    "later = await session().run()  # top-level await keeps working afterwards\n",
    """
print("RESULT " + json.dumps({
    "loop_running": loop_running, "status": result.status.value,
    "again": again.status.value, "later": later.status.value,
    "progress": type(s.progress).__name__,
    "messages": list(s.progress.messages), "count": s.progress.count,
}))
""",
]


def test_run_sync_inside_a_running_notebook_with_a_progress_widget(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [nbformat.v4.new_code_cell(src) for src in KERNEL_CELLS]  # type: ignore[no-untyped-call]
    client = NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()

    errors = [o for c in nb.cells for o in c.outputs if o.output_type == "error"]
    assert not errors, errors
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
    result = json.loads(printed.split("RESULT ", 1)[1])
    assert result["loop_running"] is True  # run_sync really ran inside a running loop
    assert [result["status"], result["again"], result["later"]] == ["completed"] * 3
    # default_progress() chose the widget in the kernel, and it logged the run's steps.
    assert result["progress"] == "NotebookProgress"
    assert result["count"] >= 5
    assert result["messages"][-1] == "verification (iteration 1)"
    # The widget showed itself in the running cell (and nothing went to stderr).
    run_cell = nb.cells[1]
    assert any(WIDGET_VIEW in o.get("data", {}) for o in run_cell.outputs), run_cell.outputs
    assert not [o for o in run_cell.outputs if o.get("name") == "stderr"]
    assert run_cell.outputs[-1]["data"]["text/plain"] == "'completed'"
