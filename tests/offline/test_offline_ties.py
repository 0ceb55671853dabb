"""A part asking an attribute of a thing it describes through a name is answered only
by a finding from a source tied to that name."""

from __future__ import annotations

from deepresearch.offline.coverage import text_roots
from deepresearch.offline.ties import DescribedAttribute, described_attribute
from deepresearch.offline.ties import untied_description as untied

HENIE = "Sonja Henie was a Norwegian figure skater and film star. She won three Olympic titles."
NORWAY = "Norway is a Nordic country. Its capital and largest city is Oslo."
BRAZIL = "Brazil is the largest country in South America. Its capital is Brasília."
PETRA = "Petra is an ancient city in southern Jordan. Famous for its rock-cut architecture."
JORDAN = "Jordan is a country in West Asia. Amman is the country's capital."


def test_the_attributes_and_the_names_of_the_described_thing_are_read() -> None:
    asked = "What is the capital and population of the country Sonja Henie was from?"
    assert described_attribute(asked) == DescribedAttribute(
        frozenset(text_roots("capital population")), "country", ("Sonja Henie",)
    )
    where = described_attribute("What is the capital of the country where Petra lies")
    assert where is not None and where.names == ("Petra",) and where.noun == "country"


def test_other_askings_are_not_read() -> None:
    # a name itself, a thing described without a name, an attribute held in a verb, a
    # thing asked for by "the name of"
    assert described_attribute("What is the capital of Norway") is None
    assert described_attribute("Who was the son of the dictator assassinated in 44 BC") is None
    assert described_attribute("Where does the river that flows through Baghdad start") is None
    asked = "What was the name of the periodical in which Tolstoy's Anna Karenina was serialised"
    assert described_attribute(asked) is None


def test_a_source_no_name_of_the_clause_ties_to_does_not_answer() -> None:
    texts = {"Sonja Henie": HENIE, "Brazil": BRAZIL}
    reason = untied(
        "What is the capital of the country Sonja Henie was from",
        [(["Brazil"], "Its capital is Brasília.")],
        texts,
    )
    assert reason is not None and "Sonja Henie" in reason


def test_the_entry_on_the_name_naming_the_source_by_its_adjective_ties_it() -> None:
    texts = {"Sonja Henie": HENIE, "Norway": NORWAY}
    findings = [(["Norway"], "Its capital and largest city is Oslo.")]
    assert (
        untied("What is the capital of the country Sonja Henie was from", findings, texts) is None
    )


def test_the_entry_on_the_name_naming_the_source_ties_it_across_a_sentence_end() -> None:
    texts = {"Petra": PETRA, "Jordan": JORDAN}
    findings = [(["Jordan"], "Amman is the country's capital.")]
    asked = "What is the capital of the country where the ancient city of Petra lies"
    assert untied(asked, findings, texts) is None


def test_a_source_naming_the_name_ties_it_but_must_state_an_attribute() -> None:
    texts = {"Jordan": "Jordan is a country in West Asia, home to the ancient city of Petra."}
    asked = "What is the capital of the country where Petra lies"
    assert untied(asked, [(["Jordan"], "Amman is the capital of Jordan.")], texts) is None
    assert untied(asked, [(["Jordan"], "Jordan is a country in West Asia.")], texts)


def test_a_name_only_beginning_the_same_letters_is_no_adjective_of_it() -> None:
    texts = {"Sonja Henie": "Sonja Henie skated in Norfolk.", "Norway": NORWAY}
    findings = [(["Norway"], "Its capital and largest city is Oslo.")]
    assert untied("What is the capital of the country Sonja Henie was from", findings, texts)
