from __future__ import annotations

import io

import pytest

from deepresearch.notebook import progress


def test_terminal_progress_writes_lines() -> None:
    out = io.StringIO()
    report = progress.terminal_progress(out)
    report("planning")
    report("gathering 3 sub-queries")
    assert out.getvalue() == "[deepresearch] planning\n[deepresearch] gathering 3 sub-queries\n"


def test_terminal_progress_defaults_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    progress.terminal_progress()("hello")
    assert capsys.readouterr().err == "[deepresearch] hello\n"


def test_notebook_progress_keeps_a_short_escaped_log() -> None:
    log = progress.NotebookProgress(keep=2)
    log._displayed = True  # no frontend in tests
    for message in ["one", "two", "<three>"]:
        log(message)
    assert log.count == 3
    assert list(log.messages) == ["two", "<three>"]
    assert "&lt;three&gt;" in log.current.value
    assert "two" in log.log.value and "one" not in log.log.value


def test_default_progress_outside_jupyter_is_the_terminal() -> None:
    assert not progress.in_notebook()
    assert not isinstance(progress.default_progress(), progress.NotebookProgress)
