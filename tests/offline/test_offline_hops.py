"""Hops: the entries the answering statements name (bridges), and the ties of a part
pointing back to the earlier answer."""

from __future__ import annotations

import pytest

from deepresearch.offline import hops, relevance
from deepresearch.offline.parts import question_parts
from deepresearch.roles import SourceText
from deepresearch.text import sentences, term_set
from tests.offline.conftest import Titled, said_tokens


def _bridged_by_first(question: str, srcs: list[SourceText]) -> dict[str, float]:
    """The sources bridged for the question's first part when the first source answers it."""
    parts = question_parts(question)
    units = {s.id: [s.text] for s in srcs}
    weights = relevance.Weights([term_set(s.text) for s in srcs])
    statement = relevance.part_scores(parts, srcs, units, weights)
    texts = (statement, said_tokens(srcs))
    return hops.bridged(0, parts, srcs, texts, {0: srcs[:1]}, (term_set(question), []), {})


def test_a_source_named_as_a_name_by_the_answer_is_bridged_not_a_common_noun(
    titled: Titled,
) -> None:
    question = "Which emperor was buried with an army of clay soldiers?"
    texts = {
        "Clay Army": "The Clay Army is a set of clay soldiers buried with Qin Shi Huang.",
        "Qin Shi Huang": "Qin Shi Huang founded an empire.",
        "Army": "An army fights on land.",
    }
    srcs = titled(texts)
    bridged = _bridged_by_first(question, srcs)
    assert bridged.get("src-2", 0.0) > 0 and "src-3" not in bridged


def test_a_capitalised_name_does_not_bridge_the_entry_on_a_common_noun(titled: Titled) -> None:
    question = "Who founded the software company?"
    texts = {
        "Software company": "The company became influential through software like Windows "
        "and Office, written by Bill Gates.",
        "Bill Gates": "Bill Gates co-founded the software company in 1975.",
        "Window": "A window is an opening in a wall that lets in light.",
    }
    srcs = titled(texts)
    bridged = _bridged_by_first(question, srcs)
    assert bridged.get("src-2", 0.0) > 0  # a name the answer gives
    assert "src-3" not in bridged  # "Windows" is a name; the entry writes "a window"


def test_a_comma_ends_the_name_an_answer_gives_but_not_inside_a_title(titled: Titled) -> None:
    # "Sirte, Libya" is two names: the one after the comma is bridged; a title with a
    # comma is named whole
    question = "What is the capital of the country where Sirte is?"
    texts = {
        "African Union": "The AU was announced in the Sirte Declaration in Sirte, Libya.",
        "Libya": "Libya is a country in North Africa.",
        "Tripoli, Libya": "Tripoli is the capital of Libya.",
    }
    srcs = titled(texts)
    bridged = _bridged_by_first(question, srcs)
    assert bridged.get("src-2", 0.0) > 0 and bridged.get("src-3", 0.0) == 0.0
    texts["African Union"] = "The AU first met in Tripoli, Libya."
    assert _bridged_by_first(question, titled(texts)).get("src-3", 0.0) > 0


def test_a_disambiguated_title_is_named_only_with_its_context(titled: Titled) -> None:
    question = "Which nickname did the batsman have?"
    texts = {
        "Donald Smith": "Donald Smith, nicknamed the Don, was a batsman.",
        "Don (river)": "The Don is a river in Russia.",
        "Don (title)": "Don is an honorific title used for a batsman or nobleman.",
    }
    srcs = titled(texts)
    bridged = _bridged_by_first(question, srcs)
    assert "src-2" not in bridged


def test_an_entry_is_tied_to_the_earlier_answer_by_name_link_or_shared_title_word(
    titled: Titled,
) -> None:
    srcs = titled(
        {
            "Cai Lun": "Cai Lun was a court official of the Eastern Han dynasty.",
            "Han dynasty": "The Han dynasty ruled China for four centuries.",
            "Xia dynasty": "The Xia dynasty is the first dynasty of traditional history.",
            "Cai Lun Museum": "A museum in Leiyang.",
            "Paper mill": "A mill makes paper.",
        }
    )
    said = said_tokens(srcs)
    asked = term_set("Who invented paper, and under which dynasty did he serve?")
    earlier = srcs[:1]
    tied = {s.title for s in srcs if hops.tied(s, earlier, said, asked)}
    # named by the answer; sharing the word "Cai" with it; "dynasty" is the question's word
    assert tied == {"Cai Lun", "Han dynasty", "Cai Lun Museum"}
    linked = srcs[4].model_copy(update={"links": ["Cai Lun"]})
    assert hops.tied(linked, earlier, said, asked)  # its text links the answer
    passage = srcs[2].model_copy(update={"url": "/docs/history.md#L80-96", "lines": (80, 96)})
    assert hops.tied(passage, earlier, said, asked)  # a file's passage: by its file


def test_a_statement_naming_the_earlier_answer_with_the_parts_words_answers_it(
    titled: Titled,
) -> None:
    srcs = titled(
        {
            "Sikhism": "Sikhism is a religion that originated in the Punjab.",
            "Guru Nanak": "Guru Nanak was a teacher regarded as the founder of Sikhism.",
            "Kabir": "Kabir was a poet and a founder of a school of verse.",
            "Golden Temple": "The Golden Temple is the holiest site of Sikhism.",
        }
    )
    units = {s.id: sentences(s.text) for s in srcs}
    part = question_parts("Which religion has its holiest site in Amritsar, and who founded it?")[1]
    assert part.refers_back
    resolved = hops.resolved(part, srcs[:1], srcs, units)
    # "founder" holds the part's own word by root, naming the answer it points back to;
    # Kabir founded something else; the temple names Sikhism without the part's words
    assert resolved == {"src-2": 1.0}


def test_a_part_pointing_back_is_bridged_only_by_answerers_tied_to_the_earlier_answer(
    titled: Titled,
) -> None:
    """ "why was it important" after "What did Alexander Fleming discover": an entry that
    states "important" but is not tied to *Alexander Fleming* (it shares only "Alexander"
    with the question) names no hop for it; the answer's own entry still does."""
    question = "What did Alexander Fleming discover and why was it important?"
    texts = {
        "Alexander Fleming": "Alexander Fleming was a Scottish physician who discovered "
        "penicillin, an important antibiotic first described in Penicillin studies.",
        "Mikhail Lermontov": "Mikhail Lermontov was an important Russian poet, often "
        "called the successor of Alexander Pushkin.",
        "Alexander Pushkin": "Alexander Pushkin was a Russian poet and novelist.",
        "Penicillin": "Penicillin is an important group of antibiotics.",
    }
    srcs = titled(texts)
    parts = question_parts(question)
    assert parts[1].refers_back
    units = {s.id: [s.text] for s in srcs}
    weights = relevance.Weights([term_set(s.text) for s in srcs])
    statement = relevance.part_scores(parts, srcs, units, weights)
    answerers = {0: srcs[:1], 1: [srcs[1], srcs[0]]}  # the poet answers "important" first
    asked = (term_set(question), [term_set("Alexander Fleming")])
    bridged = hops.bridged(1, parts, srcs, (statement, said_tokens(srcs)), answerers, asked, {})
    assert "src-3" not in bridged  # Pushkin, named only by the untied poet
    assert bridged.get("src-4", 0.0) > 0  # Penicillin, named by Fleming's entry


def test_a_part_asking_who_a_named_person_was_has_no_hop(titled: Titled) -> None:
    """ "Who was Cleopatra": her entry names *Ptolemaic Kingdom*, which is context, not
    the answer, so it is not bridged; "Which kingdom did Cleopatra rule" bridges it."""
    texts = {
        "Cleopatra": "Cleopatra was Queen of the Ptolemaic Kingdom of Egypt.",
        "Ptolemaic Kingdom": "The Ptolemaic Kingdom was a Hellenistic state in Egypt.",
    }
    srcs = titled(texts)
    assert _bridged_by_first("Who was Cleopatra?", srcs) == {}
    assert "src-2" in _bridged_by_first("Which kingdom did Cleopatra rule?", srcs)


def test_a_part_asking_what_a_kind_of_thing_is_has_no_hop() -> None:
    """ "What are woodlice": their entry links *Wood* ("found in old wood"), context, not
    the answer; "Which material are woodlice named after" bridges it."""
    lice = "Woodlice are isopods. Their name is derived from being often found in old wood."
    srcs = [
        SourceText(id="src-1", citation=1, title="Woodlouse", text=lice, links=["Wood"]),
        SourceText(id="src-2", citation=2, title="Wood", text="Wood is a tissue of trees."),
    ]
    assert _bridged_by_first("What are woodlice?", srcs) == {}
    assert "src-2" in _bridged_by_first("Which material are woodlice named after?", srcs)


def test_a_part_comparing_things_has_no_hop() -> None:
    """ "How does the quark makeup of a baryon differ from that of a meson": each is found
    in its own entry; *Gluon*, which the baryon's entry links, is not the answer. Asking
    which particle binds them bridges it."""
    baryon = "A baryon contains an odd number of valence quarks, which gluons bind."
    srcs = [
        SourceText(id="src-1", citation=1, title="Baryon", text=baryon, links=["Gluon"]),
        SourceText(id="src-2", citation=2, title="Gluon", text="A gluon is a massless particle."),
    ]
    compared = "How does the quark makeup of a baryon differ from that of a meson?"
    assert _bridged_by_first(compared, srcs) == {}
    assert "src-2" in _bridged_by_first("Which particle binds the quarks of a baryon?", srcs)


def test_a_part_asking_a_number_of_the_person_found_has_no_hop() -> None:
    """ "how many campaigns did he direct" asks of the strategist the first part found:
    the empire his entry names with the campaigns is no hop for it."""
    question = "Who was the chief strategist of Genghis Khan, and how many campaigns did he direct?"
    subutai = "Subutai directed more than 20 campaigns for the Mongol Empire."
    srcs = [
        SourceText(id="src-1", citation=1, title="Subutai", text=subutai),
        SourceText(id="src-2", citation=2, title="Mongol Empire", text="An empire in Asia."),
    ]
    parts = question_parts(question)
    units = {s.id: [s.text] for s in srcs}
    weights = relevance.Weights([term_set(s.text) for s in srcs])
    texts = (relevance.part_scores(parts, srcs, units, weights), said_tokens(srcs))
    answerers = {0: srcs[:1], 1: srcs[:1]}
    asked = (term_set(question), [])
    assert hops.bridged(1, parts, srcs, texts, answerers, asked, {}) == {}
    which = question.replace("how many campaigns did he direct", "which empire did he serve")
    parts = question_parts(which)
    texts = (relevance.part_scores(parts, srcs, units, weights), said_tokens(srcs))
    assert "src-2" in hops.bridged(1, parts, srcs, texts, answerers, asked, {})


def test_an_entry_naming_the_described_thing_with_what_is_asked_of_it_is_bridged(
    titled: Titled,
) -> None:
    # The novel's entry states the description, not the opera; the composer's entry
    # names the novel and states "opera" and "composer"; the other novel names nothing.
    question = (
        "The Russian novel in verse published in 1825 was turned into an opera: by which composer?"
    )
    srcs = titled(
        {
            "Eugene Onegin": "Eugene Onegin is a Russian novel in verse published in 1825.",
            "Pyotr Ilyich Tchaikovsky": "Pyotr Ilyich Tchaikovsky was a Russian composer "
            "whose works include the opera Eugene Onegin.",
            "Anna Karenina": "Anna Karenina is a Russian novel in verse published in 1877, "
            "admired by Tchaikovsky.",
        }
    )
    (part,) = question_parts(question)
    units = {s.id: [s.text] for s in srcs}
    bridged = hops.naming_answer(part, srcs, srcs, units, said_tokens(srcs))
    assert bridged == {"src-2": pytest.approx(2 / 3)}  # "opera", "composer"; not "turned"
    # None when the leading entry states few of the part's own words: the composer's
    # entry is no answer to the description, so what names it is no hop.
    assert hops.naming_answer(part, srcs[1:2], srcs, units, said_tokens(srcs)) == {}


def test_a_part_pointing_back_is_asked_of_the_previous_parts_clear_answer(
    titled: Titled,
) -> None:
    # "its highest point" is the range's, which the previous part's answer states of
    # itself; the plain's entry names another range with the same words
    question = (
        "How long is the mountain range that surrounds the plain where Persepolis stands, "
        "and what is its highest point?"
    )
    texts = {
        "Zagros Mountains": "The Zagros Mountains are a mountain range surrounding the plain "
        "of Persepolis. The mountain range has a total length of 1,600 km. The highest point "
        "is Mount Dena.",
        "Ural Mountains": "The Ural Mountains are a mountain range in Russia.",
        "East European Plain": "The highest point of the plain is the Bugulma Upland, by the "
        "Ural Mountains.",
        "Caucasus Mountains": "The Caucasus Mountains are a mountain range between two seas.",
    }
    srcs = titled(texts)
    parts = question_parts(question)
    units = {s.id: sentences(s.text) for s in srcs}
    weights = relevance.Weights([term_set(s.text) for s in srcs])
    statement = relevance.part_scores(parts, srcs, units, weights)

    def total(answered: list[str]) -> dict[str, float]:
        scores = relevance.source_scores(parts, srcs, units, statement, question, answered)
        return {s.id: scores.total[(s.id, 1)] for s in srcs}

    now = total([])
    assert now["src-1"] > now["src-3"]
    # answered in an earlier iteration, the previous part's answer is that iteration's
    earlier = total([parts[0].text])
    assert earlier["src-1"] < now["src-1"]
