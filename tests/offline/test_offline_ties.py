"""A part asking an attribute of a thing it describes through a name is answered only
by a finding from a source tied to that name."""

from __future__ import annotations

from deepresearch.offline.roots import text_roots
from deepresearch.offline.ties import described_attribute
from deepresearch.offline.ties import untied_description as untied

HENIE = "Sonja Henie was a Norwegian figure skater and film star. She won three Olympic titles."
NORWAY = "Norway is a Nordic country. Its capital and largest city is Oslo."
BRAZIL = "Brazil is the largest country in South America. Its capital is Brasília."
PETRA = "Petra is an ancient city in southern Jordan. Famous for its rock-cut architecture."
JORDAN = "Jordan is a country in West Asia. Amman is the country's capital."


def test_the_attributes_and_the_names_of_the_described_thing_are_read() -> None:
    asked = "What is the capital and population of the country Sonja Henie was from?"
    read = described_attribute(asked)
    assert read is not None and not read.in_verb
    assert (read.attributes, read.noun, read.names) == (
        frozenset(text_roots("capital population")),
        "country",
        ("Sonja Henie",),
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


def test_a_source_written_after_the_name_and_a_comma_is_where_the_name_lies() -> None:
    # no entry on Sirte, and Libya's does not name it: "in Sirte, Libya" places it there
    union = "The AU was announced in the Sirte Declaration in Sirte, Libya, in 1999."
    texts = {"African Union": union, "Libya": "Libya is a country. Its capital is Tripoli."}
    asked = "what is the capital of the country where Sirte is"
    assert untied(asked, [(["Libya"], "Its capital is Tripoli.")], texts) is None
    # a comma after the name before another word is no place ("Sirte, a town …")
    texts["African Union"] = "The AU was announced in Sirte, a town near Libya, in 1999."
    assert untied(asked, [(["Libya"], "Its capital is Tripoli.")], texts)


def test_a_name_only_beginning_the_same_letters_is_no_adjective_of_it() -> None:
    texts = {"Sonja Henie": "Sonja Henie skated in Norfolk.", "Norway": NORWAY}
    findings = [(["Norway"], "Its capital and largest city is Oslo.")]
    assert untied("What is the capital of the country Sonja Henie was from", findings, texts)


FLUTE = "The Magic Flute is an opera in two acts by Wolfgang Amadeus Mozart."
MOZART = "Wolfgang Amadeus Mozart was a Classical composer. He died in Vienna in 1791."
DEBUSSY = "Claude Debussy was a French composer, born in Saint-Germain-en-Laye."
CASALS = "Pablo Casals was a Catalan cellist and composer. He lived to the age of 96."


def test_an_attribute_asked_in_a_verb_of_a_thing_named_after_of_is_read() -> None:
    asked = described_attribute("Where was the composer of The Magic Flute born")
    assert asked is not None and asked.in_verb
    assert asked.names == ("Magic Flute",) and asked.attributes == frozenset(text_roots("born"))
    # a name opening the clause is read as one there ("of Hamlet born")
    hamlet = described_attribute("When was the author of Hamlet born")
    assert hamlet is not None and hamlet.names == ("Hamlet",)


def test_a_finding_stating_the_verb_from_a_source_tied_to_no_name_does_not_answer() -> None:
    texts = {"The Magic Flute": FLUTE, "Claude Debussy": DEBUSSY, "Wolfgang Amadeus Mozart": MOZART}
    asked = "Where was the composer of The Magic Flute born"
    untied_only = [(["The Magic Flute"], FLUTE), (["Claude Debussy"], DEBUSSY)]
    reason = untied(asked, untied_only, texts)
    assert reason is not None and "'born'" in reason and "Magic Flute" in reason
    # stated by the entry the opera's entry names, it may answer
    mozart = "Wolfgang Amadeus Mozart was born in Salzburg."
    assert untied(asked, [(["Wolfgang Amadeus Mozart"], mozart)], texts) is None


def test_a_verb_no_finding_states_is_left_to_findings_from_a_tied_source() -> None:
    # "come from" is answered in other words ("a Dutch painter from Brabant")
    texts = {"The Magic Flute": FLUTE, "Wolfgang Amadeus Mozart": MOZART, "Pablo Casals": CASALS}
    asked = "Where did the composer of The Magic Flute come from"
    assert untied(asked, [(["Wolfgang Amadeus Mozart"], MOZART)], texts) is None
    assert untied(asked, [(["Pablo Casals"], CASALS)], texts)


def test_a_part_pointing_back_to_the_thing_described_needs_a_tied_source() -> None:
    texts = {"The Magic Flute": FLUTE, "Wolfgang Amadeus Mozart": MOZART, "Pablo Casals": CASALS}
    before = "Where was the composer of The Magic Flute born"
    asked = "at what age did he die"
    reason = untied(asked, [(["Pablo Casals"], CASALS)], texts, before)
    assert reason is not None and "'age' or 'die'" in reason
    assert untied(asked, [(["Wolfgang Amadeus Mozart"], MOZART)], texts, before) is None
    # without the description before it, the part is not this check's
    assert untied(asked, [(["Pablo Casals"], CASALS)], texts, "Who was Mozart") is None


def test_a_title_the_clause_gives_whole_is_one_name() -> None:
    # capitals alone read "The Sound and the Fury" as two names, "Sound" and "Fury"
    novel = "The Sound and the Fury is a novel by the American author William Faulkner."
    faulkner = "Winner of the 1949 Nobel Prize in Literature, Faulkner was an American writer."
    texts = {"The Sound and the Fury": novel, "William Faulkner": faulkner, "Nobel Prize": ""}
    asked = "In what year did the writer of The Sound and the Fury win the Nobel Prize"
    assert untied(asked, [(["William Faulkner"], faulkner)], texts) is None
    nobel = "The Nobel Prize was first awarded in 1901."
    reason = untied(asked, [(["Nobel Prize"], nobel)], {**texts, "Nobel Prize": nobel})
    assert reason is not None and "The Sound and the Fury" in reason


def test_what_kind_of_thing_is_asked_in_a_verb_of_a_thing_named_after_of() -> None:
    asked = described_attribute("What language did the founder of Buddhism speak")
    assert asked is not None and asked.in_verb and asked.names == ("Buddhism",)
    assert asked.attributes == frozenset(text_roots("speak"))


def test_a_time_of_another_event_does_not_answer_when_the_verb_happened() -> None:
    # *Don Quixote* is tied, but "published in 1605" is no time of its author's death
    novel = "Don Quixote is a novel by Miguel de Cervantes, published in 1605 and 1615."
    texts = {"Don Quixote": novel, "Miguel de Cervantes": "Miguel de Cervantes died in 1616."}
    asked = "When did the author of Don Quixote die"
    reason = untied(asked, [(["Don Quixote"], novel)], texts)
    assert reason is not None and "'die'" in reason
    died = "Miguel de Cervantes died in 1616."
    assert untied(asked, [(["Miguel de Cervantes"], died)], texts) is None


def test_a_title_read_as_the_name_is_given_without_its_qualifier() -> None:
    picasso = "Pablo Picasso was a Spanish painter. Among his works is Guernica (1937)."
    texts = {
        "Guernica (Picasso)": "Guernica is a painting by Pablo Picasso.",
        "Pablo Picasso": picasso,
    }
    asked = "When did the painter of Guernica die"
    reason = untied(asked, [(["Pablo Picasso"], picasso)], texts)
    assert reason is not None and "tied to Guernica:" in reason
    died = "Picasso died in Mougins in 1973."
    assert untied(asked, [(["Pablo Picasso"], died)], texts) is None


def test_a_title_of_no_words_names_nothing() -> None:
    # a file titled only by a bracket ("(1)") once raised IndexError here
    texts = {"(1)": "A draft.", "The Magic Flute": FLUTE, "Wolfgang Amadeus Mozart": MOZART}
    asked = "Where was the composer of The Magic Flute born"
    assert untied(asked, [(["(1)"], "A draft.")], texts) is not None
