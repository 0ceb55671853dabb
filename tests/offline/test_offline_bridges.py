"""Bridge entities and linked entries: the names and links a source's answering sentences
give, ranked by the part's own words; entities by capitalisation only, no topic words."""

from __future__ import annotations

from deepresearch.offline.bridges import (
    bridge_entities,
    entities,
    linked_entries,
    own_said,
    prose_sentences,
)
from deepresearch.offline.parts import question_parts
from deepresearch.text import sentences, term_set


def test_names_keep_their_joining_words() -> None:
    text = "The war ended with the Peace of Westphalia, signed by Leonardo da Vinci's heirs."
    found = entities(text)
    assert "Peace of Westphalia" in found
    assert "Leonardo da Vinci's" in found or "Leonardo da Vinci" in found
    assert "Peace" not in found and "Westphalia" not in found


def test_a_semicolon_ends_a_name() -> None:
    said = "many writers of the Pre-Raphaelite Brotherhood; the Encyclopaedia Britannica of 1888"
    assert entities(said) == ["Pre-Raphaelite Brotherhood", "Encyclopaedia Britannica"]


def test_a_one_letter_numeral_ends_a_name() -> None:
    assert entities("When did World War I end?") == ["World War I"]
    assert entities("Who were the parents of the Persian king Xerxes I?")[-1] == "Xerxes I"
    assert entities("In CI I want the job to fail") == []


def test_a_joining_word_does_not_end_a_name_with_lower_case() -> None:
    assert entities("It was written by Hammurabi of the old city.") == ["Hammurabi"]


def test_the_comma_closing_a_question_s_opening_phrase_closes_a_name() -> None:
    said = "Besides Syria, Saladin was the first sultan of which country?"
    assert entities(said) == ["Syria", "Saladin"]
    assert entities("Apart from the Azores, Portugal has one other region.") == [
        "Azores",
        "Portugal",
    ]
    # no opening phrase: a place and its country stay one name
    assert entities("What is the capital of Sindh, Pakistan?") == ["Sindh Pakistan"]


def test_the_best_sources_answer_sentence_leads_the_bridges() -> None:
    question = "Which emperor was buried with clay soldiers, and how long did his dynasty last?"
    part = question_parts(question)[0]
    best = (
        "The Clay Army is a set of clay soldiers buried with Qin Shi Huang, the first "
        "emperor of China, in 210 BCE."
    )
    worse = "Soldiers of Rome served the emperor Marcus Aurelius for years."
    leads = bridge_entities(part, [sentences(best), sentences(worse)], ["Clay Army"], question, 6)
    # the best text's names first, the longer (more specific) name before shorter ones
    assert leads[0] == "Qin Shi Huang"
    assert "Clay Army" not in leads  # already gathered
    assert leads.index("Qin Shi Huang") < leads.index("Marcus Aurelius")


def test_bridges_are_ranked_by_the_parts_own_words_by_root() -> None:
    question = "What was the Long War, and how did it end?"
    part = question_parts(question)[1]
    text = (
        "The Long War was fought in Central Europe for decades by many armies. "
        "It ended with the Treaty of Somewhere, signed by both sides."
    )
    # "ended" answers "end"; the first sentence only repeats the borrowed words
    assert bridge_entities(part, [sentences(text)], [], question, 1) == ["Treaty of Somewhere"]


def test_a_sentence_holding_only_borrowed_words_names_no_bridge() -> None:
    question = "What is democracy, and where did it originate?"
    part = question_parts(question)[1]
    text = "Christian democracy is an ideology. Democracy originated in Classical Athens."
    assert bridge_entities(part, [sentences(text)], [], question, 3) == ["Classical Athens"]


def test_links_named_in_lower_case_by_the_answering_sentence_are_hops() -> None:
    question = "Explain what a dark star is and which theory predicts that they exist."
    part = question_parts(question)[1]
    text = (
        "A dark star is a compact body. The theory of general relativity, with its curved "
        "spacetime, predicts that they form. Dark stars are studied with telescopes."
    )
    links = ["General relativity", "Spacetime", "Telescope", "Dark star"]
    # the sentence that holds the part's own words ("theory", "predicts") links them; the
    # longer title first; none the question names, none from a sentence off the part
    assert linked_entries(part, ("Dark star", text, links), question) == [
        "General relativity", "Spacetime"
    ]  # fmt: skip


def test_a_word_derived_from_an_own_word_says_it() -> None:
    part = question_parts("What did Edison and Tesla each contribute to electric power?")[1]
    said = term_set("He is known for his contributions to alternating current electricity.")
    assert own_said(part, said) == 2  # "contribute", "electric"
    assert own_said(part, term_set("An electron is a particle.")) == 0  # "elect..." is short


def test_a_name_ending_a_clause_ranks_above_names_followed_by_a_word() -> None:
    # "Latin" and "Roman" run on into the word after them; "Ovid" ends the sentence.
    (part,) = question_parts("Where did the Metamorphoses' author live?")
    texts = [sentences("Metamorphoses. The Metamorphoses is a Latin poem by the Roman poet Ovid.")]
    assert bridge_entities(part, texts, ["Metamorphoses"], part.text)[0] == "Ovid"
    # ending a clause too, the longer name leads again
    texts = [
        sentences("Metamorphoses. The Metamorphoses was written in Roman Egypt, by the poet Ovid.")
    ]
    found = bridge_entities(part, texts, ["Metamorphoses"], part.text, limit=3)
    assert found[0] == "Roman Egypt"


def test_statements_are_read_one_by_one_and_code_lines_name_nothing() -> None:
    # Run together, the code line's label and literal read as names ("Code", "None"); a
    # capitalised "None" in prose is the function word, not a name either.
    (part,) = question_parts("Which class limits the pool of connections?")
    statements = [
        "Code: `import httpx`",
        "Code: `client = httpx.Client()`",
        "Connections are pooled by the Transport class, or None for no pool limits.",
    ]
    assert prose_sentences(statements) == [statements[2]]
    found = bridge_entities(part, [prose_sentences(statements)], [], part.text, limit=3)
    assert found == ["Transport"]
    joined = bridge_entities(part, [sentences(" ".join(statements))], [], part.text, limit=3)
    assert "Code" in joined  # what reading them as one text did


def test_one_of_the_few_named_is_bridged_from_the_sentence_listing_them() -> None:
    question = (
        "Van 't Hoff co-founded a physical chemistry journal in 1887 with two colleagues. "
        "In which year did the Swedish one of them win his Nobel Prize?"
    )
    part = question_parts(question)[-1]
    listing = (
        "The journal was founded in 1887 by Van 't Hoff, Svante Arrhenius and Wilhelm "
        "Ostwald, at Leipzig University."
    )
    leads = bridge_entities(part, [sentences(listing)], ["Jacobus van 't Hoff"], question, 3)
    # the sentence says none of the part's own words, and lists each colleague apart
    assert {"Svante Arrhenius", "Wilhelm Ostwald"} <= set(leads)


def test_a_listed_name_whose_own_item_says_the_parts_words_leads() -> None:
    # Every country is in the sentence that says "bordered"; only Italy's item says "south".
    question = "What is the capital of the country that borders Switzerland on the south?"
    (part,) = question_parts(question)
    text = [
        "It is bordered by Germany to the north, France to the west, Austria and "
        "Liechtenstein to the east, and Italy to the south."
    ]
    assert bridge_entities(part, [text], ["Switzerland"], question, limit=1) == ["Italy"]
    # names listed with a conjunction share their item ("Slovenia and Italy to the south")
    text = ["Austria borders Germany to the north, and Slovenia and Italy to the south."]
    found = bridge_entities(part, [text], ["Switzerland"], question, limit=2)
    assert set(found) == {"Slovenia", "Italy"}


def test_a_sentence_opening_with_its_entrys_pronoun_says_the_entrys_name() -> None:
    # "It is bordered by …" in *Switzerland* says of Switzerland what the part asks: read
    # so, it outweighs the entry's other sentence, naming as many of the part's words.
    question = "What is the capital of the country that borders Switzerland on the south?"
    (part,) = question_parts(question)
    text = [
        "It is bordered by Germany to the north and Italy to the south.",
        "Switzerland is a country divided among the Swiss Alps and the Jura Mountains.",
    ]
    subjects = ["Switzerland"]
    assert bridge_entities(part, [text], subjects, question, 1, subjects) == ["Italy"]
    assert bridge_entities(part, [text], subjects, question, 1) == ["Jura Mountains"]


def test_names_that_are_not_a_list_keep_their_whole_sentences_match() -> None:
    # "a treatise … written in Baghdad … by Al-Khwarizmi": the words describing him come
    # before his name, and no item of a list says them
    question = "Where did the mathematician whose treatise gave us the word algebra work?"
    (part,) = question_parts(question)
    text = [
        "The Compendious Book on Calculation, commonly abbreviated Al-Jabr, is an "
        "Arabic-language mathematical treatise on algebra written in Baghdad around 820 "
        "by Al-Khwarizmi."
    ]
    assert "Al-Khwarizmi" in bridge_entities(part, [text], ["Algebra"], question, limit=3)


def test_a_name_the_question_sets_aside_is_no_bridge() -> None:
    """ "the one who wasn't Ada Lovelace" asks of the other one the story tells of."""
    question = (
        "A mathematician corresponded with two famous writers. For the one who wasn't "
        "Ada Lovelace: which novel made him famous?"
    )
    scene, part = question_parts(question)[:2]
    told = "She corresponded with Augusta Ada Lovelace and Charles Dickens for years."
    leads = bridge_entities(scene, [sentences(told)], [], question, 3)
    assert "Charles Dickens" in leads
    assert not any("Lovelace" in lead for lead in leads)
    assert "the other one" in part.text and part.refers_back
