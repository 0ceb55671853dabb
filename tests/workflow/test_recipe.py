"""Faithful resume: a session records how to rebuild its providers; Session.load and
`deepresearch resume` restore them, and a custom provider not passed again is a clear
error rather than a silent switch to the demo corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.cli.main import main
from deepresearch.errors import InputError
from deepresearch.state import RunStatus
from deepresearch.testing import StaticSearch

QUESTION = "How did the printing press change Europe?"
DOCS = [
    {
        "url": f"https://example.org/press/{i}",
        "title": f"Printing press and Europe {i}",
        "content": f"The printing press changed Europe: books got cheaper in way {i}.",
    }
    for i in range(4)
]


def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for n, doc in enumerate(DOCS):
        (folder / f"note{n}.md").write_text(f"# {doc['title']}\n\n{doc['content']}\n")
    return folder


def started(tmp_path: Path, **kwargs: object) -> dr.Session:
    """A session stopped after planning, as if interrupted."""
    config = dr.Config(llm="offline", max_iterations=1, corpus_index=tmp_path / "index")
    session = dr.Session(QUESTION, config=config, store=tmp_path / "s.db", **kwargs)  # type: ignore[arg-type]
    dr.run_sync(session.clarify())
    dr.run_sync(session.brief())
    dr.run_sync(session.plan())
    return session


def test_a_corpus_session_resumes_on_its_corpus(tmp_path: Path) -> None:
    folder = corpus(tmp_path)
    first = started(tmp_path, search=folder)
    assert first.state.recipe is not None and first.state.recipe.config["corpus"] == str(folder)
    again = dr.Session.load(first.id, store=tmp_path / "s.db")  # no config: as it ran
    result = dr.run_sync(again.resume())
    assert result.status == RunStatus.COMPLETED
    assert again.state.search == first.state.search != "demo"
    assert again.state.sources and all(str(folder) in s.url for s in again.state.sources)


def test_the_cli_resumes_with_the_recorded_corpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = corpus(tmp_path)
    first = started(tmp_path, search=folder)
    code = main(["resume", first.id, "--store", str(tmp_path / "s.db"), "--quiet"])
    assert code == 0, capsys.readouterr().err
    final = dr.Session.load(first.id, store=tmp_path / "s.db")
    assert final.state.sources and all(str(folder) in s.url for s in final.state.sources)


def test_a_custom_provider_must_be_passed_again(tmp_path: Path) -> None:
    first = started(tmp_path, search=StaticSearch(DOCS))
    again = dr.Session.load(first.id, store=tmp_path / "s.db")
    with pytest.raises(InputError, match=r"search=<your search provider> \(it ran with"):
        dr.run_sync(again.resume())
    again = dr.Session.load(first.id, store=tmp_path / "s.db", search=StaticSearch(DOCS))
    assert dr.run_sync(again.resume()).status == RunStatus.COMPLETED


def test_a_password_in_a_base_url_is_not_saved_and_is_asked_for_again(tmp_path: Path) -> None:
    url = "http://alice:s3cret-pass@localhost:9/v1"
    first = started(tmp_path, search=corpus(tmp_path))
    assert first.state.recipe is not None
    first.state.recipe.config["openai_base_url"] = url  # as if the run had used it
    assert first.store is not None
    first.store.save(first.state)
    assert b"s3cret-pass" not in (tmp_path / "s.db").read_bytes()
    with pytest.raises(InputError, match="password in openai_base_url"):
        dr.Session.load(first.id, store=tmp_path / "s.db")
