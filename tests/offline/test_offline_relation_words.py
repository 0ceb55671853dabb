"""A part asking who or what stands in a relation to a named thing is answered only when
what the sources say of that thing says the relation, or a word close to it."""

from __future__ import annotations

import pytest

import deepresearch as dr
from deepresearch.offline.parts import Part, question_parts
from deepresearch.offline.relation_words import relation_words, unstated_relation
from deepresearch.providers import vectors
from deepresearch.state import RunStatus
from deepresearch.testing import StaticSearch

needs_vectors = pytest.mark.skipif(not vectors.available(), reason="wordllama not installed")

FARNSWORTH = (
    "Philo Farnsworth",
    [
        "Philo Taylor Farnsworth was an American inventor and television pioneer.",
        "He was born in Beaver, Utah, and grew up on a farm.",
    ],
)


def _part(question: str) -> Part:
    return question_parts(question)[0]


@pytest.mark.parametrize(
    ("part", "asked"),
    [
        ("Who was Philo Farnsworth married to", ["married"]),
        ("In which town was Leo Baekeland born", ["town", "born"]),
        (
            "Which architect designed the Natural History Museum in London",
            ["architect", "designed"],
        ),
        # an adverb and the words asking for now are not the relation
        ("where exactly is Krakatoa", []),
        ("Who is the mayor of London right now", ["mayor"]),
        # a name inside the kind asked for describes the answer; no other name: no check
        ("Which New Zealander is considered the founder of nuclear physics", []),
        # several things asked for describe what a name did, not one thing related to it
        ("What roles did Lenin play in the Russian Revolution", []),
        # a year is the date check's; the name after the verb is a party, a place is not
        ("What year did Satyendra Nath Bose receive the Nobel Prize in Physics", []),
        (
            "Which medal did Satyendra Nath Bose receive from the Royal Society",
            ["medal", "receive"],
        ),
        ("Who designed the Red Fort in Delhi", ["designed"]),
        # the kind asked ends at its verb's object, a name
        ("Which composer wrote Carmen", ["composer", "wrote"]),
        # where a described thing comes from, what a thing is: not a relation to a name
        ("Where did the painter of The Garden of Earthly Delights come from", []),
        ("What is the Higgs boson", []),
        # the kind before "did" is the answer's category ("a field hockey player" never
        # says "sport"), and "play" says no relation: nothing to check
        ("What sport did Dhyan Chand play", []),
        ("Which city was Mozart born in", ["city", "born"]),
    ],
)
def test_the_relation_a_part_asks_for(part: str, asked: list[str]) -> None:
    assert relation_words(part)[0] == asked


@needs_vectors
def test_a_named_person_s_entry_that_never_says_the_relation_does_not_answer() -> None:
    reason = unstated_relation(_part("Who was Philo Farnsworth married to?"), [FARNSWORTH])
    assert reason == "what the sources say of it has no word for 'married'"


@needs_vectors
def test_a_word_close_in_meaning_answers() -> None:
    title, text = FARNSWORTH
    wed = (title, [*text, "Farnsworth and his wife Pem worked on the first television."])
    assert unstated_relation(_part("Who was Philo Farnsworth married to?"), [wed]) is None


@needs_vectors
def test_the_relation_said_of_another_thing_does_not_answer() -> None:
    # the sentence saying "married" is about someone else, in a source not on Farnsworth
    other = ("Marie Curie", ["Marie Curie married Pierre Curie in 1895."])
    assert unstated_relation(_part("Who was Philo Farnsworth married to?"), [FARNSWORTH, other])


@needs_vectors
def test_a_hyphenated_word_and_a_maker_by_name_answer_who_did_it() -> None:
    gates = ("Bill Gates", ["Bill Gates co-founded Microsoft with Paul Allen in 1975."])
    assert unstated_relation(_part("Who founded Microsoft?"), [gates]) is None
    # a made thing's entry opening with what it is and who made it
    kapital = ("Das Kapital", ["Das Kapital is a foundational text by Karl Marx."])
    assert unstated_relation(_part("Who wrote Das Kapital?"), [kapital]) is None
    novel = ("War and Peace", ["War and Peace is an epic novel by the Russian author Leo Tolstoy."])
    assert unstated_relation(_part("Who wrote War and Peace?"), [novel]) is None
    # ... for a part asking which person of a kind made it too
    flute = ("The Magic Flute", ["The Magic Flute is an opera in two acts by Wolfgang Mozart."])
    assert unstated_relation(_part("Which composer wrote The Magic Flute?"), [flute]) is None
    # "by" elsewhere names no maker
    gabon = ("Gabon", ["Gabon is a country bordered by Cameroon and the Congo."])
    assert unstated_relation(_part("Who composed the music of Gabon?"), [gabon]) is not None
    title = FARNSWORTH[0]
    patent = f"{title} was granted the first patent for the television by the United States."
    assert unstated_relation(_part("Who was Philo Farnsworth married to?"), [(title, [patent])])


@needs_vectors
def test_a_relation_between_two_named_things_is_said_with_both() -> None:
    part = _part("Which medal did Satyendra Nath Bose receive from the Royal Society?")
    bose = ("Satyendra Nath Bose", ["Satyendra Nath Bose was an Indian physicist, born in 1894."])
    society = ("Royal Society", ["The Royal Society gives medals that scientists receive."])
    assert unstated_relation(part, [bose, society]) is not None
    won = ("Satyendra Nath Bose", ["Bose received a medal of the Royal Society in 1958."])
    assert unstated_relation(part, [won, society]) is None


@needs_vectors
def test_the_entry_on_a_thing_named_with_more_words_speaks_of_it() -> None:
    part = _part("Whom did Queen Zenobia of Palmyra marry?")
    zenobia = ("Zenobia", ["Septimia Zenobia was a queen in Syria.", "She married Odaenathus."])
    assert unstated_relation(part, [zenobia]) is None
    part = _part("Who commissioned Gershwin's Rhapsody in Blue?")
    work = ("Rhapsody in Blue", ["Rhapsody in Blue is a piece.", "Commissioned by Paul Whiteman."])
    assert unstated_relation(part, [work]) is None


@needs_vectors
def test_the_entry_giving_the_thing_another_name_speaks_of_it() -> None:
    part = _part("Who traps the Monkey King under a mountain?")
    opening = "Sun Wukong, also known as the Monkey King, is a figure of a Chinese novel."
    wukong = ("Sun Wukong", [opening, "He is imprisoned under a mountain by the Buddha."])
    assert unstated_relation(part, [wukong]) is None
    # an entry that does not give it the name speaks of another thing
    other = ("Sun Quan", ["Sun Quan was a warlord.", "He was imprisoned under a mountain."])
    assert unstated_relation(part, [other]) is not None
    # ... nor a passage whose opening names something else first
    part = _part("Who contributed the new GIL?")
    notes = [
        "The mechanism for serializing threads (generally known as the GIL) was rewritten.",
        "(Contributed by Victor Stinner.)",
    ]
    assert unstated_relation(part, [("What's New › Threads", notes)]) is not None


@needs_vectors
def test_a_line_giving_another_name_says_the_name_asked_for() -> None:
    part = _part("By what other name is Queen Elvira Dossa known?")
    opening = "Queen Elvira Dossa, also known as the Lantern Queen, ruled the river towns."
    assert unstated_relation(part, [("Elvira Dossa", [opening])]) is None
    # a line that gives no other name does not say it
    ruled = "Queen Elvira Dossa ruled the river towns for thirty years."
    assert unstated_relation(part, [("Elvira Dossa", [ruled])]) is not None


@needs_vectors
def test_parts_pointing_back_or_describing_at_length_are_left_to_the_other_checks() -> None:
    *_, it = question_parts("What is the Torah, and who was married to it?")
    assert it.refers_back and unstated_relation(it, [FARNSWORTH]) is None
    long = _part("Which Bronze Age civilisation built the earliest cities in Sindh?")
    assert unstated_relation(long, [("Sindh", ["Sindh is a province of Pakistan."])]) is None


def test_without_the_vectors_the_check_does_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "load_embedder", lambda: None)
    assert unstated_relation(_part("Who was Philo Farnsworth married to?"), [FARNSWORTH]) is None


@needs_vectors
async def test_a_run_that_found_the_person_but_not_the_relation_says_it_is_not_answered() -> None:
    title, text = FARNSWORTH
    documents = [
        {"url": "https://example.org/Farnsworth", "title": title, "content": " ".join(text)}
    ]
    config = dr.Config(llm="offline", max_iterations=1, persist=False)
    question = "Who was Philo Farnsworth married to?"
    session = dr.Session(question, config=config, search=StaticSearch(documents))
    await session.run()
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS
    (gap,) = session.state.unanswered_gaps()
    assert "no word for 'married'" in gap.reason
    assert session.report is not None and "Not answered" in session.report.markdown


@needs_vectors
def test_a_verb_with_its_particle_is_not_read_word_by_word() -> None:
    # "came up with" says "created"; the vector of "came" says nothing of it
    part = question_parts("Who came up with Sesame Street?")[0]
    behind = [("Sesame Street", ["Sesame Street was created by Joan Ganz Cooney."])]
    assert unstated_relation(part, behind) is None


@needs_vectors
def test_the_kind_asked_for_may_be_said_by_the_title_of_the_source_saying_the_relation() -> None:
    """*Indian Ocean*'s "It is bounded by … Africa to the west and Australia to the east"
    answers "Which ocean is between Africa and Australia" though the line never says
    "ocean"; a source on another kind of thing does not."""
    part = _part("Which ocean is between Africa and Australia?")
    line = "It is bounded by Asia to the north, Africa to the west and Australia to the east."
    assert unstated_relation(part, [("Indian Ocean", [line])]) is None
    assert unstated_relation(part, [("Great Rift Valley", [line])]) is not None


def test_first_after_a_verb_orders_what_is_compared_and_is_no_relation_word() -> None:
    assert relation_words("Who was born first, Beethoven")[0] == ["born"]
    assert relation_words("Who arrived last at the Paris Conference")[0] == ["arrived"]
    # after "the" it is what is asked
    assert "first" in relation_words("Who was the first person to reach the South Pole")[0]


@needs_vectors
def test_an_entry_made_by_the_named_person_does_not_say_how_he_relates_to_it() -> None:
    part = _part("Who was born first, Beethoven?")
    ninth = (
        "Symphony No. 9 (Beethoven)",
        [
            "The Symphony No. 9 is a choral symphony, the final complete symphony by Ludwig "
            "van Beethoven.",
            "It was first performed in Vienna on 7 May 1824.",
        ],
    )
    assert unstated_relation(part, [ninth]) == "what the sources say of it has no word for 'born'"
    born = ("Ludwig van Beethoven", ["Ludwig van Beethoven was born in Bonn in 1770."])
    assert unstated_relation(part, [ninth, born]) is None


@needs_vectors
def test_a_thing_described_by_its_kind_alone_needs_a_source_saying_the_relation() -> None:
    part = _part("Which German composer went deaf?")
    assert relation_words(part.text)[0] == ["deaf"]
    other = ("Karlheinz Stockhausen", ["Karlheinz Stockhausen was a German composer."])
    assert unstated_relation(part, [other]) == "what the sources say of it has no word for 'deaf'"
    deaf = ("Ludwig van Beethoven", ["Beethoven, a German composer, became totally deaf."])
    assert unstated_relation(part, [other, deaf]) is None
    # a kind without adjectives describing it asks no such relation
    assert relation_words("Which composer went deaf")[0] == []


@needs_vectors
def test_a_part_pointing_back_asking_where_a_state_holds_needs_it_said() -> None:
    _, buried = question_parts(
        "Who was the first president of the United States, and where is he buried?"
    )
    assert buried.refers_back
    washington = (
        "George Washington",
        ["George Washington was a Founding Father and the first president of the United States."],
    )
    reason = unstated_relation(buried, [washington])
    assert reason == "what the sources say of what it points back to has no word for 'buried'"
    grave = ("Mount Vernon", ["Washington was buried in the family vault at Mount Vernon."])
    assert unstated_relation(buried, [washington, grave]) is None
    # a word close in meaning says it too
    tomb = ("Mount Vernon", ["His tomb lies at Mount Vernon."])
    assert unstated_relation(buried, [washington, tomb]) is None
    # not a preposition after the pronoun
    *_, island = question_parts("Which philosopher proved it, and which island was he from?")
    assert island.refers_back and unstated_relation(island, [washington]) is None
    # not a part asking by another verb ("where did he work": "a research fellow at Oxford")
    _, work = question_parts("Who invented the World Wide Web, and where did he work?")
    fellow = ("Tim Berners-Lee", ["He is a professorial research fellow at Oxford."])
    assert work.refers_back and unstated_relation(work, [fellow]) is None


@needs_vectors
def test_a_relation_is_said_through_the_entry_a_line_on_the_thing_names() -> None:
    # *Baghdad* names the Tigris; *Tigris* says "river" and "flows"
    part = _part("Which river flows through Baghdad?")
    baghdad = (
        "Baghdad",
        ["Baghdad is the capital of Iraq.", "It lies on the banks of the Tigris."],
    )
    assert unstated_relation(part, [baghdad]) is not None
    tigris = ("Tigris", ["The river flows south from the Armenian Highlands."])
    assert unstated_relation(part, [baghdad, tigris]) is None
    # an entry the lines on the thing do not name says nothing of it
    assert unstated_relation(part, [baghdad, ("Danube", tigris[1])]) is not None
    # one word of a relation is said of anything: the named entry's own founding
    gm = ("General Motors", ["General Motors is a carmaker in the United States."])
    states = ("United States", ["The United States was founded in 1776."])
    assert unstated_relation(_part("Who founded General Motors?"), [gm, states]) is not None


@needs_vectors
def test_the_kind_asked_for_may_be_what_the_entry_a_line_names_opens_by_saying_it_is() -> None:
    # "in the eastern part of Indonesia": *Indonesia* opens by saying it is a country
    part = _part("Which country do the Maluku Islands belong to?")
    maluku = ("Maluku Islands", ["The Maluku Islands are an archipelago in eastern Indonesia."])
    assert unstated_relation(part, [maluku]) is not None
    country = ("Indonesia", ["Indonesia is a country in Southeast Asia."])
    assert unstated_relation(part, [maluku, country]) is None
    # its opening must say the kind; an entry the lines do not name says nothing of it
    volcanoes = ("Indonesia", ["Indonesia has many active volcanoes."])
    assert unstated_relation(part, [maluku, volcanoes]) is not None
    assert unstated_relation(part, [maluku, ("Malaysia", ["Malaysia is a country."])]) is not None


@needs_vectors
def test_a_part_pointing_back_asking_who_did_it_needs_the_deed_or_a_maker_said() -> None:
    question = "What was the Russian Revolution, and who led it?"
    first, led = question_parts(question)
    assert led.refers_back
    empire = (
        "Russian Empire",
        ["The Russian Empire was the final period of the Russian monarchy."],
    )
    reason = unstated_relation(led, [empire], first.text)
    assert reason == "what the sources say of what it points back to has no word for 'led'"
    lenin = ("Vladimir Lenin", ["Lenin led the Bolsheviks in the October Revolution."])
    assert unstated_relation(led, [empire, lenin], first.text) is None
    # a doer named after "by", other than the thing the pronoun stands for
    first, painted = question_parts("What is the Sistine Chapel ceiling, and who painted it?")
    frescoes = ("Sistine Chapel", ["Its frescoes include the ceiling, by Michelangelo."])
    assert unstated_relation(painted, [frescoes], first.text) is None
    first, founded = question_parts("What is Microsoft, and who founded it?")
    windows = ("Windows", ["Windows is an operating system developed by Microsoft."])
    assert unstated_relation(founded, [windows], first.text) is not None
