"""Storage faults are typed StoreErrors with one-line messages; a run whose store fails
still prints its report, says it was not saved, and never leaves its session running."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from deepresearch.cli.main import main
from deepresearch.errors import StoreError
from deepresearch.state import ResearchState, RunStatus
from deepresearch.store import SessionStore

ROOT = Path(__file__).resolve().parents[2]


def filled_store(path: Path, sessions: int = 30) -> list[str]:
    ids = []
    with SessionStore(path) as store:
        for n in range(sessions):
            state = ResearchState(question=f"question {n} " + "words " * 300)
            store.save(state)
            store.emit(state, "checkpoint", {"n": n})
            ids.append(state.id)
        conn = store._conn()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return ids


def damage(path: Path) -> None:
    """Overwrite every page after the first with junk: the header stays valid."""
    data = bytearray(path.read_bytes())
    for at in range(4096, len(data), 512):
        data[at : at + 64] = b"\xde\xad\xbe\xef" * 16
    path.write_bytes(bytes(data))


def test_a_damaged_store_is_a_store_error_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sessions.db"
    ids = filled_store(path)
    damage(path)
    with pytest.raises(StoreError, match="is damaged"), SessionStore(path) as store:
        store.list()
        store.load(ids[-1])
    for argv in (["list"], ["show", ids[0]], ["export", ids[0]], ["resume", ids[0], "--quiet"]):
        assert main([*argv, "--store", str(path)]) == 4, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "damaged" in err and "Traceback" not in err


def test_a_new_run_on_a_damaged_store_stops_before_researching(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The store is checked when it opens: nothing is researched (so nothing is lost)."""
    path = tmp_path / "sessions.db"
    filled_store(path)
    damage(path)
    code = main(["printing press", "--llm", "offline", "--search", "demo", "--store", str(path)])
    out, err = capsys.readouterr()
    assert code == 4 and out == ""
    assert err.count("\n") == 1 and "is damaged" in err and "--no-persist" in err


@pytest.mark.parametrize("table", ["contacts (name TEXT)", "sessions (x INTEGER)", "meta (k TEXT)"])
def test_another_programs_database_is_refused_and_left_untouched(
    table: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "contacts.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"CREATE TABLE {table}")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a deepresearch session store"):
        SessionStore(path)
    for argv in (["list"], ["What is a printing press?", "--llm", "offline"]):
        assert main([*argv, "--store", str(path)]) == 4, argv
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "--store OTHER.db" in err, err
    assert path.read_bytes() == before  # no tables added, journal mode unchanged
    assert not Path(f"{path}-wal").exists()


def test_an_empty_database_file_becomes_a_store(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    sqlite3.connect(path).close()  # a file with no tables, e.g. made by `touch` or sqlite3
    with SessionStore(path) as store:
        store.save(ResearchState(question="What is a printing press?"))
        assert len(store.list()) == 1


def test_a_store_path_that_is_a_folder_says_to_name_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    with pytest.raises(StoreError, match="is a folder") as caught:
        SessionStore(folder)
    assert str(folder / "sessions.db") in str(caught.value)
    for argv in (["What is a printing press?", "--llm", "offline"], ["list"]):
        assert main([*argv, "--store", str(folder)]) == 4, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is a folder" in err, err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files")
def test_a_read_only_store_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    filled_store(path, sessions=1)
    for file in tmp_path.iterdir():
        file.chmod(stat.S_IRUSR)
    tmp_path.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(StoreError, match="read-only"), SessionStore(path) as store:
            store.save(ResearchState(question="q"))
    finally:
        tmp_path.chmod(stat.S_IRWXU)


def test_a_read_only_connection_is_a_store_error(tmp_path: Path) -> None:
    """The same path as a read-only file, for a process (root) that file modes do not stop."""
    path = tmp_path / "sessions.db"
    filled_store(path, sessions=1)
    with SessionStore(path) as store:
        store._conn().execute("PRAGMA query_only = ON")
        with pytest.raises(StoreError, match="read-only") as info:
            store.save(ResearchState(question="q"))
    assert "\n" not in str(info.value)


FULL_DISK_RUN = """
import resource, sys
from deepresearch.cli.main import main
from deepresearch.providers.demo import demo_corpus
demo_corpus().index()  # the search index is built before the disk fills: the store is tested
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.exit(main(sys.argv[2:]))
"""


def test_a_full_disk_mid_run_prints_the_report_and_leaves_no_session_running(
    tmp_path: Path,
) -> None:
    path = tmp_path / "sessions.db"
    args = ["How did the printing press change Europe?", "--llm", "offline", "--search", "demo"]
    # 300 KB per file: the store opens and saves the first checkpoints, then the disk is full.
    result = subprocess.run(
        [sys.executable, "-c", FULL_DISK_RUN, str(300_000), *args, "--store", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert "Traceback" not in result.stderr and "unhandled exception" not in result.stderr
    assert result.returncode == 4, result.stderr[-2000:]
    assert "NOT saved" in result.stderr and "full" in result.stderr
    assert "## Sources" in result.stdout  # the report was printed anyway
    with SessionStore(path) as store:
        (summary,) = store.list()
    assert summary.status != RunStatus.RUNNING


def test_a_lock_held_past_the_busy_timeout_is_a_store_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deepresearch.store import sqlite as store_module

    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 50)
    monkeypatch.setattr(store_module, "LOCK_RETRIES", 2)
    path = tmp_path / "sessions.db"
    filled_store(path, sessions=1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="stayed locked"), SessionStore(path) as store:
            store.save(ResearchState(question="q"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
