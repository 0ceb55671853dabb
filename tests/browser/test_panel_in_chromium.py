"""The think-pause panel used as a person uses it: JupyterLab in Chromium, real clicks and keys.

A notebook runs ``await s.run()`` with a ThinkPausePanel. At the pauses the test types into
the boxes key by key (each key is a widget sync while the cell runs), edits a sub-query,
types guidance in two goes, adds a sub-query, clicks Approve and later Stop, then checks the
saved session. A second run is interrupted with Kernel › Interrupt while it waits at a
pause: it must end ``cancelled`` with its partial state saved and a one-line message.

Screenshots of the panel go to ``$BROWSER_TEST_SCREENSHOTS`` when set (docs/images is
where the docs take them from), else to the test's temporary folder.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_lab import chromium, jupyter_lab, missing_prerequisite

import deepresearch as dr
from deepresearch.state import Phase, RunStatus

pytestmark = pytest.mark.skipif(
    missing_prerequisite() is not None, reason=str(missing_prerequisite())
)

PAGE_MS = 120_000  # JupyterLab's page and kernel under a loaded machine
PAUSE_MS = 90_000  # one phase of a tiny offline run, with room for a busy CI machine

SETUP = """
import deepresearch as dr
from deepresearch.notebook import ThinkPausePanel
from deepresearch.testing import FunctionLLM, StaticSearch

DOCS = [{"url": "https://ex.org/press", "title": "Printing press",
         "content": "The printing press spread literacy and books across Europe after 1450."}]

def session(*hooks):
    config = dr.Config(max_iterations=1, enable_supervision=False, max_sub_queries=2)
    return dr.Session("How did the printing press change Europe?", llm=FunctionLLM(),
                      search=StaticSearch(DOCS), config=config, hooks=list(hooks),
                      store="sessions.db")
"""
CELLS = [
    SETUP,
    "panel = ThinkPausePanel(); s = session(panel); print('SESSION', s.id); panel",
    "result = await s.run(); print('RESULT', result.status.value)",
    "panel2 = ThinkPausePanel(); s2 = session(panel2); print('SESSION', s2.id); panel2",
    "result2 = await s2.run(); print('RESULT', result2.status.value)",
]
GUIDANCE = ("Prefer sources about Venice.", " Skip Mainz.")


def write_notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [nbformat.v4.new_code_cell(code) for code in CELLS]  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, path)  # type: ignore[no-untyped-call]


def screenshots_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BROWSER_TEST_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def menu(page: Any, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{top}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{item}$")).click()


def open_notebook(page: Any, url: str) -> None:
    """Open it (its kernel is already running) and wait until the page shows it idle."""
    page.goto(url, timeout=PAGE_MS)
    page.get_by_text(re.compile(r"Python 3 \(ipykernel\) \| Idle")).wait_for(timeout=PAGE_MS)


def run_all(page: Any, first_cell: Any) -> None:
    """Run › Run All Cells. A click right after the kernel came up is sometimes dropped
    (no cell is even queued); then click again — nothing ran twice."""
    from playwright.sync_api import expect

    started = first_cell.locator(".jp-InputPrompt", has_text=re.compile(r"\[(\*|\d+)\]"))
    for _ in range(3):
        menu(page, "Run", "Run All Cells")
        try:
            expect(started).to_be_visible(timeout=10_000)
            return
        except AssertionError:
            print("Run All Cells started nothing; clicking it again")
            page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for()
    raise AssertionError("Run All Cells did not start the notebook")


def wait_for_pause(panel: Any, phase: str) -> None:
    from playwright.sync_api import expect

    expect(panel.get_by_text(f"after {phase}")).to_be_visible(timeout=PAUSE_MS)
    expect(panel.get_by_text("Waiting", exact=True)).to_be_visible(timeout=PAUSE_MS)


def type_keys(box: Any, text: str) -> None:
    """Key by key, as a person types: every key is its own widget update."""
    box.press_sequentially(text, delay=15)


def session_id(cell: Any) -> str:
    from playwright.sync_api import expect

    printed = cell.get_by_text(re.compile(r"SESSION \w+"))
    failed = cell.locator("[data-mime-type='application/vnd.jupyter.error']")
    expect(printed.or_(failed).first).to_be_visible(timeout=PAUSE_MS)
    text = cell.locator(".jp-OutputArea").inner_text()
    found = re.search(r"SESSION (\w+)", text)
    assert found, text
    return found.group(1)


def steer_and_stop(page: Any, panel: Any, shots: Path) -> None:
    """First run: approve twice, then edit the plan and stop after gathering."""
    from playwright.sync_api import expect

    for phase in ("clarification", "brief"):
        wait_for_pause(panel, phase)
        panel.get_by_role("button", name="Approve").click()
    wait_for_pause(panel, "planning")
    edited = panel.get_by_label("sq-2 (pending)")
    edited.click()
    edited.press("Control+a")
    type_keys(edited, "Aldine press in Venice")
    added = panel.get_by_label("New sub-queries (one per line)")
    added.click()
    type_keys(added, "Paper mills in Italy")
    guidance = panel.get_by_label("Guidance for the next phase")
    guidance.click()
    type_keys(guidance, GUIDANCE[0])
    panel.get_by_text("after planning").click()  # away and back: a second edit of the box
    guidance.click()
    guidance.press("End")
    type_keys(guidance, GUIDANCE[1])
    panel.locator(".widget-vbox").first.screenshot(path=str(shots / "panel-planning.png"))
    panel.get_by_role("button", name="Approve").click()
    # The acknowledgement ("approved with guidance, 1 edited, 1 added") lasts only until the
    # next pause renders, which under load can be before the page is polled: the saved
    # session says what the click did (check_steered_session).
    wait_for_pause(panel, "gathering")
    panel.get_by_role("button", name="Stop").click()
    expect(panel.get_by_text("Stopped", exact=True)).to_be_visible(timeout=PAUSE_MS)


def check_steered_session(store: dr.SessionStore, sid: str) -> None:
    state = store.load(sid)
    assert state.status == RunStatus.STOPPED
    queries = {sq.id: sq for sq in state.sub_queries}
    assert queries["sq-2"].query == "Aldine press in Venice"
    added = [sq for sq in state.sub_queries if sq.query == "Paper mills in Italy"]
    assert [sq.origin for sq in added] == ["user"]
    # Both edits of the guidance box reached the kernel; gathering used it.
    notes = [(g.phase, g.text, g.consumed) for g in state.guidance]
    assert notes == [(Phase.GATHERING, "".join(GUIDANCE), True)]


def interrupt_at_a_pause(page: Any, cell: Any, panel: Any, shots: Path) -> None:
    """Second run: Kernel › Interrupt while it waits after planning."""
    from playwright.sync_api import expect

    for phase in ("clarification", "brief"):
        wait_for_pause(panel, phase)
        panel.get_by_role("button", name="Approve").click()
    wait_for_pause(panel, "planning")
    menu(page, "Kernel", "Interrupt Kernel")
    output = cell.locator(".jp-OutputArea")
    expect(output).to_contain_text("Interrupted: the research was cancelled", timeout=PAUSE_MS)
    expect(output).to_contain_text("RESULT cancelled", timeout=PAUSE_MS)
    expect(panel.get_by_text("Cancelled", exact=True)).to_be_visible()
    assert "CancelledError" not in output.inner_text()
    assert "Traceback" not in output.inner_text()
    panel.locator(".widget-vbox").first.screenshot(path=str(shots / "panel-cancelled.png"))


def run_the_notebook(page: Any, url: str, shots: Path) -> tuple[str, str]:
    """Run All, then answer both runs' pauses; returns the two session ids."""
    from playwright.sync_api import expect

    open_notebook(page, url)
    cells = page.locator(".jp-Notebook .jp-Cell")
    run_all(page, cells.first)
    sid = session_id(cells.nth(1))
    steer_and_stop(page, cells.nth(1).locator(".jp-OutputArea"), shots)
    expect(cells.nth(2).locator(".jp-OutputArea")).to_contain_text(
        "RESULT stopped", timeout=PAUSE_MS
    )
    sid2 = session_id(cells.nth(3))
    interrupt_at_a_pause(page, cells.nth(4), cells.nth(3).locator(".jp-OutputArea"), shots)
    return sid, sid2


def test_panel_steers_and_interrupts_in_jupyterlab(tmp_path: Path) -> None:
    shots = screenshots_dir(tmp_path)
    with jupyter_lab(tmp_path) as lab, chromium(tmp_path) as page:
        write_notebook(lab.root / "panel.ipynb")
        lab.start_kernel("panel.ipynb")
        try:
            sid, sid2 = run_the_notebook(page, lab.page_url("panel.ipynb"), shots)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            print(f"page at failure: {tmp_path / 'failure.png'}; server log: {lab.log}")
            print(page.locator(".jp-Notebook").inner_text())
            raise

        store = dr.SessionStore(lab.root / "sessions.db")
        check_steered_session(store, sid)
        cancelled = store.load(sid2)
        assert cancelled.status == RunStatus.CANCELLED
        assert cancelled.phase == Phase.PLANNING
        assert [sq.id for sq in cancelled.sub_queries] == ["sq-1", "sq-2"]  # the partial state
