"""`deepresearch list | show | delete | export` against a store in a temp folder."""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import pytest

from deepresearch.cli.sessions import register
from deepresearch.state import Phase, Report, ResearchState, RunStatus
from deepresearch.store import SessionStore


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="deepresearch")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, ResearchState]:
    path = tmp_path / "sessions.db"
    state = ResearchState(question="How did the printing press change Europe?")
    sq = state.add_sub_query("literacy")
    state.new_source(url="https://example.org/a", title="Literacy", sub_query_id=sq.id)
    state.report = Report(markdown="# Report\n\n## Literacy\n\nIt rose [1].", sections=["Literacy"])
    state.status = RunStatus.COMPLETED
    with SessionStore(path) as store:
        state.phase = Phase.GATHERING
        store.emit(state, "phase_started", {})
        store.emit(state, "search_call", {"query": "literacy", "results": 1, "duration_s": 0.2})
        state.phase = Phase.DONE
        store.save(state)
    return path, state


def test_list(saved: tuple[Path, ResearchState], capsys: pytest.CaptureFixture[str]) -> None:
    path, state = saved
    assert run(["list", "--store", str(path)]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split()[:5] == ["ID", "STATUS", "PHASE", "ITER", "SOURCES"]
    assert row.split()[:5] == [state.id, "completed", "done", "1", "1"]
    assert row.endswith("How did the printing press change Europe?")


def test_list_without_store_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none.db"
    assert run(["list", "--store", str(path)]) == 0
    assert "No sessions yet" in capsys.readouterr().out
    assert not path.exists()


def test_list_uses_configured_store(
    saved: tuple[Path, ResearchState],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, state = saved
    monkeypatch.setenv("DEEPRESEARCH_STORE_PATH", str(path))
    assert run(["list"]) == 0
    assert state.id in capsys.readouterr().out


def test_show_prints_summary_and_timeline(
    saved: tuple[Path, ResearchState], capsys: pytest.CaptureFixture[str]
) -> None:
    path, state = saved
    assert run(["show", state.id, "--store", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Session {state.id}: How did the printing press")
    assert "status completed" in out
    assert "gathering#1" in out
    assert "search 'literacy' → 1 results, 0.20s" in out


def test_export_json_and_md(
    saved: tuple[Path, ResearchState], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, state = saved
    assert run(["export", state.id, "--format", "state", "--store", str(path)]) == 0
    assert ResearchState.from_json(capsys.readouterr().out) == state
    out = tmp_path / "out" / "report.md"
    assert run(["export", state.id, "--out", str(out), "--store", str(path)]) == 0
    assert f"Wrote {out}" in capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# How did the printing press change Europe?")
    assert "### Report" in text and "[Literacy](https://example.org/a)" in text


def test_delete(saved: tuple[Path, ResearchState], capsys: pytest.CaptureFixture[str]) -> None:
    path, state = saved
    assert run(["delete", state.id, "--store", str(path)]) == 0
    assert f"Deleted session {state.id}." in capsys.readouterr().out
    with SessionStore(path) as store:
        assert store.list() == []
    assert run(["delete", state.id, "--store", str(path)]) == 2


@pytest.mark.parametrize("command", ["show", "delete", "export"])
def test_unknown_id_is_one_line_and_exit_2(
    saved: tuple[Path, ResearchState], command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = saved
    assert run([command, "nope", "--store", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("deepresearch: error: No session 'nope'")
    assert "\n" not in err


def test_missing_store_for_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "absent.db"
    assert run(["show", "abc", "--store", str(path)]) == 2
    assert "there is no store at" in capsys.readouterr().err
    assert not path.exists()


def test_unreadable_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"definitely not sqlite" * 200)
    assert run(["list", "--store", str(path)]) == 4  # the store failed, not the input
    err = capsys.readouterr().err
    assert err.startswith("deepresearch: error: ") and "junk.db" in err
    assert err.count("\n") == 1


def test_show_corrupted_state_still_prints_events(
    saved: tuple[Path, ResearchState], capsys: pytest.CaptureFixture[str]
) -> None:
    path, state = saved
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE snapshots SET state = ?", (json.dumps({"schema_version": "x"}),))
    assert run(["show", state.id, "--store", str(path)]) == 2
    captured = capsys.readouterr()
    assert "search 'literacy'" in captured.out
    assert captured.err.startswith(f"deepresearch: error: Session '{state.id}'")


def test_terminal_escapes_from_questions_and_sources_never_reach_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.db"
    state = ResearchState(question="Why \x1b]0;pwned\x07\x1b[2Jnow\u202e?")
    state.new_source(url="file:///etc/passwd", title="<script>x()</script>\x1b[31m", content="c")
    state.report = Report(markdown="Claim [1]. \x1b[1mbold\x1b[0m <img src=x onerror=alert(1)>\n")
    with SessionStore(path) as store:
        store.save(state)
    for argv in (["list"], ["show", state.id], ["export", state.id]):
        assert run([*argv, "--store", str(path)]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out, argv
    assert run(["export", state.id, "--store", str(path)]) == 0
    exported = capsys.readouterr().out
    assert "<img" not in exported and "<script" not in exported and "](file:" not in exported
