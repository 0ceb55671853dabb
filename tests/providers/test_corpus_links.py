"""Entity linking in corpus search: names the query writes capitalised, and the titles a
hit's text names (``SearchHit.metadata["links"]``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepresearch.providers.corpus import CorpusSearch
from deepresearch.providers.corpus_index import Lookup
from deepresearch.providers.corpus_ranking import linked_titles, named_stem, studied_field


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("DEEPRESEARCH_HOME", str(home))
    return home


def _record(title: str, text: str) -> dict[str, str]:
    return {"title": title, "text": text, "url": f"https://w.org/{title.replace(' ', '_')}"}


def _filler(n: int, text: str) -> list[dict[str, str]]:
    return [_record(f"Entry {i}", f"{text} Item {i} of the list.") for i in range(n)]


async def test_a_name_the_query_capitalises_links_its_entry_however_common(
    tmp_path: Path,
) -> None:
    records = [
        _record("History of Christianity", "The history of Christianity: how christianity "
                "began, when it began and where it began; the beginnings of christianity."),
        _record("Christianity", "Christianity is a religion based on the Bible."),
        *_filler(30, "Notes on christianity and other religions."),
    ]  # fmt: skip
    corpus = CorpusSearch.from_records(records, index_path=tmp_path / "c.sqlite")
    # 'christianity' is in nearly every entry here: only its capital names the entry
    capitalised = await corpus.search("How did Christianity begin", max_results=3)
    assert capitalised[0].title == "Christianity"
    lower = await corpus.search("how did christianity begin", max_results=3)
    assert lower[0].title == "History of Christianity"


async def test_a_name_derived_from_a_title_links_that_entry(tmp_path: Path) -> None:
    """ "Brazilians" is no title, but it is *Brazil* with a short ending: the query links
    the entry its words never match; a longer ending or a short title does not."""
    records = [
        _record("Brazil", "Brazil is a country whose official language is Portuguese."),
        _record("Quechua", "Quechua is a language spoken by millions of people."),
        _record("Bra", "A bra is a garment."),
        *_filler(30, "Notes on language and people who speak one."),
    ]
    corpus = CorpusSearch.from_records(records, index_path=tmp_path / "c.sqlite")
    hits = await corpus.search("What language do Brazilians speak", max_results=3)
    assert hits[0].title == "Brazil"
    lookup = _lookup({"brazil": "Brazil", "bra": "Bra"}, {})
    assert named_stem(lookup, "brazilians") == "brazil"
    assert named_stem(lookup, "brazilianistas") is None  # no short ending
    assert named_stem(lookup, "bras") is None  # a title under four letters names nothing


async def test_one_who_studies_a_field_links_the_field_s_entry(tmp_path: Path) -> None:
    """No stemmer joins "gastroenterologist" to *Gastroenterology*: the query links it."""
    records = [
        _record("Gastroenterology", "Gastroenterology is the branch of medicine on the gut."),
        *_filler(30, "Notes on the organs people look after."),
    ]
    corpus = CorpusSearch.from_records(records, index_path=tmp_path / "c.sqlite")
    hits = await corpus.search("what organs does a gastroenterologist look after", max_results=3)
    assert "Gastroenterology" in [h.title for h in hits]  # its words alone never match
    lookup = _lookup({"geology": "Geology", "chemistry": "Chemistry"}, {})
    assert studied_field(lookup, "geologists") == "geology"
    assert studied_field(lookup, "chemist") is None  # no such ending
    assert studied_field(lookup, "biologist") is None  # no entry on the field


def _lookup(names: dict[str, str], idf: dict[str, float]) -> Lookup:
    """A lookup over the given name keys and titles, with word specificity given."""
    keys = {k: [i] for i, k in enumerate(names)}
    return Lookup(passage_count=1000, names=keys, labels=dict(names), _idf=idf)


async def test_a_title_is_named_by_its_words_before_a_comma_that_no_title_is(
    tmp_path: Path,
) -> None:
    records = [
        _record("Charles V, Holy Roman Emperor", "He ruled an empire on which the sun never set."),
        _record("Charles I of England", "Charles was a king who ruled England and was beheaded."),
        _record("Paris", "Paris is the capital of France."),
        _record("Paris, Texas", "Paris is a city in Texas."),
        *_filler(30, "Notes on kings named Charles and the cities they ruled."),
    ]  # fmt: skip
    corpus = CorpusSearch.from_records(records, index_path=tmp_path / "c.sqlite")
    hits = await corpus.search("Who was Charles V?", max_results=3)
    assert hits[0].title == "Charles V, Holy Roman Emperor"
    # a name that is a title of its own keeps naming that title alone
    conn = corpus._ready(None)
    lookup = corpus._lookup_for(conn)
    assert lookup.names["charles v"] and len(lookup.names["paris"]) == 1


def test_a_text_links_the_entries_it_names_in_any_case() -> None:
    lookup = _lookup(
        {"bamboo": "Bamboo", "giant panda": "Giant panda", "china": "China",
         "diet": "Diet (nutrition)", "giant": "Giant", "bear": "Bear"},
        {"bamboo": 7.1, "giant": 5.7, "panda": 6.0, "china": 3.5, "diet": 5.0, "bear": 2.0},
    )  # fmt: skip
    text = (
        "The giant panda is a bear endemic to China. Its diet consists almost entirely of bamboo."
    )
    links = linked_titles(None, lookup, text, ["Giant panda"])  # type: ignore[arg-type]
    # its own title (and not 'giant' inside it) is left out; 'bear' is too common to
    # link lower-case, 'China' is written as a name; 'Diet (nutrition)' is one sense of
    # 'diet' and the text says nothing of nutrition
    assert links == ["China", "Bamboo"]


async def test_hits_carry_the_titles_their_text_links(tmp_path: Path) -> None:
    records = [
        _record("Giant panda", "The giant panda eats bamboo shoots in the mountains."),
        _record("Bamboo", "Bamboo is a grass."),
        *_filler(300, "Mountains and rivers."),
    ]
    corpus = CorpusSearch.from_records(records, index_path=tmp_path / "p.sqlite")
    (panda, *_) = await corpus.search("giant panda", max_results=2)
    assert panda.title == "Giant panda"
    assert panda.metadata["links"] == ["Bamboo"]
    (extracted,) = await corpus.extract([panda.url])
    assert extracted.metadata["links"] == ["Bamboo"]
