"""acknowledge_browser_edits reports idle exactly for browser edits handled while a cell runs
(the browser test in tests/browser shows the effect: every typed key reaches Python)."""

from __future__ import annotations

from typing import Any

import ipywidgets as w
import pytest
from IPython.core import getipython

from deepresearch.notebook import widget_sync


class FakeEvents:
    def __init__(self) -> None:
        self.callbacks: dict[str, list[Any]] = {}

    def register(self, name: str, callback: Any) -> None:
        self.callbacks.setdefault(name, []).append(callback)

    def trigger(self, name: str) -> None:
        for callback in self.callbacks.get(name, []):
            callback(None)


class FakeSession:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    def send(self, socket: Any, kind: str, content: dict[str, Any], parent: Any) -> None:
        self.sent.append((kind, content, parent))


class FakeKernel:
    iopub_socket = object()

    def __init__(self) -> None:
        self.session = FakeSession()
        self.parent: dict[str, Any] = {}

    def get_parent(self, channel: str) -> dict[str, Any]:
        return self.parent


class FakeShell:
    def __init__(self) -> None:
        self.events = FakeEvents()
        self.kernel = FakeKernel()


def comm_msg(msg_id: str) -> dict[str, Any]:
    return {"header": {"msg_type": "comm_msg", "msg_id": msg_id}}


def test_idle_is_reported_only_for_browser_edits_during_a_cell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shell = FakeShell()
    monkeypatch.setattr(getipython, "get_ipython", lambda: shell)
    box = w.Textarea()
    widget_sync.acknowledge_browser_edits(box)
    kernel = shell.kernel

    kernel.parent = comm_msg("between-cells")
    box.value = "a"  # between cells the kernel reports idle itself
    shell.events.trigger("pre_run_cell")
    kernel.parent = {"header": {"msg_type": "execute_request"}}
    box.value = "set by code"  # not from the browser
    kernel.parent = comm_msg("during-a-cell")
    box.value = "ab"
    shell.events.trigger("post_run_cell")
    kernel.parent = comm_msg("after-the-cell")
    box.value = "abc"

    assert kernel.session.sent == [
        ("status", {"execution_state": "idle"}, comm_msg("during-a-cell"))
    ]


def test_nothing_happens_outside_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(getipython, "get_ipython", lambda: None)
    box = w.Text()
    widget_sync.acknowledge_browser_edits(box)
    box.value = "x"  # no error, nothing to report to
    assert box.value == "x"
