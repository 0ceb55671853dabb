"""A part asking for a thing's attribute is answered only by the attribute of that thing."""

from __future__ import annotations

import pytest

import deepresearch as dr
from deepresearch.offline.attributes import (
    Attribute,
    asked_attribute,
    attribute_phrases,
    states_attribute,
    unstated_attribute,
)
from deepresearch.state import RunStatus
from deepresearch.testing import StaticSearch

PERTH = (["Perth"], "Perth is the capital city of Western Australia.")
TASMANIA = (
    ["Tasmania"],
    "Tasmania is the most decentralised state in Australia, with the lowest proportion "
    "of its residents living within its capital city.",
)


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        ("What is the capital of Australia", Attribute("capital", ("australia",))),
        ("Who was the first president of the Moon?", Attribute("president", ("moon",))),
        # a superlative's attribute capitalised as a title is (not "the Bank of England")
        (
            "Who was the first President of the United States",
            Attribute("president", ("united", "states")),
        ),
        ("Who is the President of the United States", None),
        ("Who was Isaac Newton's wife", Attribute("wife", ("isaac", "newton"))),
        # asking for its name asks for the thing
        ("What was the name of Jesse Owens's wife?", Attribute("wife", ("jesse", "owens"))),
        ("What is the name of the capital of Chad", Attribute("capital", ("chad",))),
        ("What is the national anthem of Antarctica", Attribute("anthem", ("antarctica",))),
        # a thing's name is itself "X of Y": the part asks what it is, not an attribute
        ("What is the Book of Kells", None),
        ("What was the Norman Conquest of England?", None),
        # it asks something else of the author, which the author's entry answers
        ("Where did the author of Don Quixote come from", None),
        # words after the name are no part of it: not checked rather than misread
        ("What is the capital of Brazil in 1950", None),
        ("Who is the president of France after Macron", None),
        # but a closing time word is read apart (unstated_now checks the tense)
        ("What is the capital of Brazil now", Attribute("capital", ("brazil",))),
        ("Who is the president of France today", Attribute("president", ("france",))),
        (
            "What is the capital of the United States of America",
            Attribute("capital", ("united", "states", "of", "america")),
        ),
    ],
)
def test_the_attribute_a_part_asks_for(part: str, expected: Attribute | None) -> None:
    assert asked_attribute(part) == expected


def test_a_name_typed_in_lower_case_counts_when_a_gathered_source_has_it_as_title() -> None:
    assert asked_attribute("what is the capital of mongolia") is None
    asked = asked_attribute("what is the capital of mongolia", ["Mongolia", "Steppe"])
    assert asked == Attribute("capital", ("mongolia",))


def test_the_attribute_of_a_longer_name_or_of_another_thing_does_not_answer() -> None:
    asked = asked_attribute("What is the capital of Australia")
    assert asked is not None
    assert not states_attribute(asked, [PERTH, TASMANIA])


def test_the_attribute_said_of_the_thing_answers() -> None:
    ottawa = (["Ottawa"], "Ottawa is the capital city of Canada.")
    possessive = (["Ottawa"], "Canada's capital lies on the Ottawa River.")
    canada = asked_attribute("What is the capital of Canada")
    assert canada is not None
    assert states_attribute(canada, [PERTH, ottawa])
    assert states_attribute(canada, [possessive])
    # an adjective made from the name says it of the thing; not a look-alike's
    rome = asked_attribute("Who was the first emperor of Rome")
    assert rome is not None
    assert states_attribute(rome, [(["Augustus"], "Augustus was the first Roman emperor.")])
    australia = asked_attribute("What is the capital of Australia")
    assert australia is not None
    assert not states_attribute(australia, [(["Vienna"], "Vienna is the Austrian capital.")])
    # "in" joins a thing's attribute to it too
    largest = asked_attribute("What is the largest city of Australia")
    assert largest is not None
    assert states_attribute(
        largest, [(["Sydney"], "Sydney is the most populous city in Australia.")]
    )
    # the longer name asked for is stated whole
    western = asked_attribute("What is the capital of Western Australia")
    assert western is not None and states_attribute(western, [PERTH])


def test_the_entry_on_a_work_naming_who_made_it_answers_who_its_author_was() -> None:
    hamlet = (["Hamlet"], "Hamlet is a tragedy written by William Shakespeare around 1600.")
    author = asked_attribute("Who was the author of Hamlet")
    assert author is not None and states_attribute(author, [hamlet])
    # asking what, a name after "by" is no answer; nor is one outside the work's entry
    what = asked_attribute("What was the first title of Hamlet")
    assert what is not None and not states_attribute(what, [hamlet])
    assert not states_attribute(author, [(["Globe Theatre"], hamlet[1])])
    # a wife is no doer: whatever the entry says was done by someone does not name her
    wife = asked_attribute("Who was Albert Einstein's wife")
    relativity = (["Albert Einstein"], "His theory was confirmed by Eddington in 1919.")
    assert wife is not None and not states_attribute(wife, [relativity])


def test_the_entry_on_the_thing_stating_the_attribute_answers() -> None:
    mongolia = (["Mongolia"], "Ulaanbaatar, the capital and largest city, is home to half.")
    asked = asked_attribute("What is the capital of Mongolia")
    assert asked is not None and states_attribute(asked, [mongolia])
    # the same sentence in another entry says nothing of Mongolia
    assert not states_attribute(asked, [(["Steppe"], mongolia[1])])
    unrelated = (["Mongolia"], "Mongolia is a landlocked country in East Asia.")
    assert not states_attribute(asked, [unrelated])


def _documents(*extra: dict[str, str]) -> list[dict[str, str]]:
    pages = {
        "Perth": PERTH[1] + " It is the fourth-most-populous city in Australia.",
        "Tasmania": TASMANIA[1] + " The state capital and largest city is Hobart.",
        "Australia": "Australia is a country comprising the mainland of the Australian "
        "continent, the island of Tasmania and numerous smaller islands.",
    }
    found = [
        {"url": f"https://example.org/{t}", "title": t, "content": c} for t, c in pages.items()
    ]
    return [*found, *extra]


async def _run(
    documents: list[dict[str, str]], question: str = "What is the capital of Australia?"
) -> dr.Session:
    config = dr.Config(llm="offline", max_iterations=1, persist=False)
    session = dr.Session(question, config=config, search=StaticSearch(documents))
    await session.run()
    return session


async def test_a_run_that_found_only_other_capitals_says_the_question_is_not_answered() -> None:
    session = await _run(_documents())
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS
    (gap,) = session.state.unanswered_gaps()
    assert gap.reason == "no finding drawn for it states the capital of Australia itself"
    assert session.report is not None and "Not answered" in session.report.markdown


async def test_a_run_that_found_the_capital_answers() -> None:
    canberra = {
        "url": "https://example.org/Canberra",
        "title": "Canberra",
        "content": "Canberra is the capital city of Australia, founded in 1913.",
    }
    session = await _run(_documents(canberra))
    assert session.state.status == RunStatus.COMPLETED
    assert session.state.unanswered_gaps() == []
    assert session.report is not None and "Canberra is the capital" in session.report.markdown


MITTERRAND = (
    ["François Mitterrand"],
    "François Mitterrand was President of France from 1981 to 1995.",
)


async def test_a_run_that_found_only_a_past_president_says_the_question_is_not_answered() -> None:
    past = {
        "url": "https://example.org/Mitterrand",
        "title": "François Mitterrand",
        "content": MITTERRAND[1] + " He remained in office longer than any other president "
        "of France.",
    }
    session = await _run([past], "Who is the current president of France?")
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS
    (gap,) = session.state.unanswered_gaps()
    assert gap.reason.endswith("say so only in the past")
    assert session.report is not None and "Not answered" in session.report.markdown


BRISBANE = (
    ["Brisbane"],
    "Brisbane is the capital and largest city of the Australian state of Queensland and the "
    "third-most populous city in Australia.",
)


def test_a_superlative_attribute_is_answered_only_with_its_superlative() -> None:
    """ "The largest city of Australia" is not Brisbane, "the third-most populous city in
    Australia" and the largest of Queensland."""
    asked = asked_attribute("What is the largest city of Australia")
    assert asked is not None and asked.superlative == "largest"
    reason = unstated_attribute("What is the largest city of Australia", [BRISBANE])
    assert reason == "no finding drawn for it states the largest city of Australia itself"
    sydney = (["Sydney"], "Sydney is the largest city in Australia.")
    assert unstated_attribute("What is the largest city of Australia", [BRISBANE, sydney]) is None
    # without a superlative asked, Brisbane's "city in Australia" is a city of Australia
    assert unstated_attribute("What is a city of Australia", [BRISBANE]) is None
    augustus = (["Augustus"], "Augustus was the first Roman emperor.")
    assert unstated_attribute("Who was the first emperor of Rome", [augustus]) is None
    second = (["Tiberius"], "Tiberius was the second Roman emperor.")
    assert unstated_attribute("Who was the first emperor of Rome", [second]) is not None
    # a lower rank said before the superlative, in two words
    ranked = (["Perth"], "Perth is the fourth most populous city in Australia.")
    assert unstated_attribute("What is the most populous city of Australia", [ranked])


def test_a_kind_asked_for_is_stated_by_any_noun_naming_a_kind() -> None:
    """ "The most common kind of digital data" is stated as "the most common form"."""
    part = "what's the most common kind of digital data"
    form = (["Digital data"], "The most common form of digital data is binary data.")
    gathered = ["Digital data"]
    assert unstated_attribute(part, [form], gathered) is None
    # a noun that names no kind does not state it
    use = (["Digital data"], "The most common use of digital data is storage.")
    assert unstated_attribute(part, [use], gathered) is not None


def test_the_superlative_of_the_world_said_of_a_thing_placed_in_the_asked_place_answers() -> None:
    part = "What is the longest river in South America"
    amazon = (["Rivers"], "The Amazon River in South America is the longest river in the world.")
    assert unstated_attribute(part, [amazon]) is None
    # of a thing placed elsewhere
    nile = (["Rivers"], "The Nile in Africa is the longest river in the world.")
    assert unstated_attribute(part, [nile])


def test_an_attribute_of_a_thing_named_by_its_adjective_is_said_of_that_thing() -> None:
    """ "the first Roman emperor" is Augustus's "the first Roman emperor" or "the first
    emperor of Rome", not "the last Holy Roman Emperor … the first Emperor of Austria"."""
    asked = asked_attribute("Who was the first Roman emperor")
    assert asked is not None and asked.adjective and asked.described() == "first Roman emperor"
    part = "Who was the first Roman emperor"
    francis = (
        ["Francis II"],
        "Francis II was the last Holy Roman Emperor and the first Emperor of Austria.",
    )
    reason = unstated_attribute(part, [francis])
    assert reason == "no finding drawn for it states the first Roman emperor itself"
    augustus = (
        ["Augustus"],
        "Augustus was the founder of the Roman Empire and the first Roman emperor.",
    )
    assert unstated_attribute(part, [francis, augustus]) is None
    of_rome = (["Augustus"], "Augustus became the first emperor of Rome in 27 BC.")
    assert unstated_attribute(part, [of_rome]) is None
    # the adjective again, or a longer name ending in the thing's, is another thing
    victoria = (
        ["Melbourne"],
        "Melbourne is the most populous city of the Australian state of Victoria.",
    )
    assert unstated_attribute("What is the largest Australian city", [victoria]) is not None
    sydney = (["Sydney"], "Sydney is the most populous city in Australia.")
    assert unstated_attribute("What is the largest Australian city", [sydney]) is None


@pytest.mark.parametrize(
    ("part", "attribute", "name"),
    [
        ("What's the capital city of Palau", "city", ("palau",)),
        # a superlative asked of a place joins it with "in" as well
        ("What is the tallest building in Tijuana", "building", ("tijuana",)),
        ("Which is the oldest university in Russia", "university", ("russia",)),
        # a time word closing the part is no part of the name (unstated_now reads it)
        ("Who is the mayor of London now", "mayor", ("london",)),
        ("Who is the president of Turkey at the moment", "president", ("turkey",)),
    ],
)
def test_attributes_asked_in_other_shapes_are_read(
    part: str, attribute: str, name: tuple[str, ...]
) -> None:
    assert asked_attribute(part) == Attribute(attribute, name)


def test_in_without_a_superlative_may_join_a_name_s_words() -> None:
    assert asked_attribute("What is the bank in Geneva") is None
    reason = unstated_attribute(
        "What is the tallest building in Tijuana",
        [(["Tijuana"], "Tijuana is the largest city of Baja California.")],
    )
    assert reason == "no finding drawn for it states the tallest building of Tijuana itself"


def test_a_superlative_asked_of_the_whole_world_is_said_of_the_world() -> None:
    """ "The largest island in the world" is not Baffin Island, "the largest island in
    Canada … and the fifth-largest island in the world"; Greenland, "the world's largest
    island", is; "on Earth" asks the same, and "highest" answers "tallest"."""
    part = "What is the largest island in the world"
    asked = asked_attribute(part)
    assert asked is not None and asked.world
    baffin = (
        ["Baffin Island"],
        "Baffin Island is the largest island in Canada, the second-largest island in the "
        "Americas, and the fifth-largest island in the world.",
    )
    reason = unstated_attribute(part, [baffin])
    assert reason == "no finding drawn for it states the largest island in the world itself"
    greenland = (["Greenland"], "It is the world's largest island and lies in the Arctic.")
    assert unstated_attribute(part, [baffin, greenland]) is None
    everest = (["Mount Everest"], "Mount Everest is Earth's highest mountain above sea level.")
    assert unstated_attribute("What is the tallest mountain on Earth", [everest]) is None
    # "on" joins no other name: "the largest bank on Wall Street" is asked of no world
    assert asked_attribute("What is the largest bank on Wall Street") is None


def test_a_superlative_of_another_degree_or_one_of_several_does_not_answer() -> None:
    smallest = "What is the smallest country in the world"
    russia = (["Russia"], "It is the largest country in the world, spanning eleven time zones.")
    assert unstated_attribute(smallest, [russia])
    populous = "What is the most populous country in the world"
    assert unstated_attribute(populous, [russia])  # the largest country is not the most populous
    china = (["China"], "China is the most populous country in the world.")
    assert unstated_attribute(populous, [china]) is None
    oldest = "What is the oldest university in the world"
    one_of = (["Heidelberg"], "It is one of the world's oldest surviving universities.")
    assert unstated_attribute(oldest, [one_of])
    bologna = (["Bologna"], "It is the oldest university in continuous operation in the world.")
    assert unstated_attribute(oldest, [bologna]) is None


def test_the_entry_on_a_place_says_an_attribute_of_another_place_named_after_it() -> None:
    """In *Canada*, "Montreal is the largest city in the province of Quebec" gives the
    largest city of Quebec, not of Canada; "Its capital is Ottawa, in Ontario" gives
    Canada's capital."""
    montreal = (["Canada"], "Montreal is the largest city in the province of Quebec.")
    assert unstated_attribute("What is the largest city in Canada", [montreal])
    ottawa = (["Canada"], "Its capital is Ottawa, in Ontario.")
    assert unstated_attribute("What is the capital of Canada", [ottawa]) is None


def test_the_entry_on_a_person_gives_a_relation_to_another_named_after_it() -> None:
    harsha = (["Harsha"], "He was the younger brother of Rajyavardhana, son of the king.")
    assert unstated_attribute("What was the name of Harsha's elder brother", [harsha]) is None


def test_a_superlative_said_of_no_narrower_place_is_the_world_s() -> None:
    part = "What is the largest bird in the world"
    ostrich = (["Common ostrich"], "The ostrich is the largest living species of bird.")
    assert unstated_attribute(part, [ostrich]) is None
    family = (["Tyrant flycatcher"], "It is the world's largest family of birds.")
    assert unstated_attribute(part, [family])
    island = "What is the largest island in the world"
    sumatra = (["Sumatra"], "It is the largest island that is fully within Indonesian territory.")
    assert unstated_attribute(island, [sumatra])
    jeju = (["Jeju Island"], "Jeju Island is South Korea's largest island.")
    assert unstated_attribute(island, [jeju])


def test_an_attribute_asked_is_searched_by_the_phrases_stating_it() -> None:
    """Quoted with "the" before, so "the seventh-largest island in the world" does not
    state "the largest island in the world"; a size is said "most populous" as well."""
    world = attribute_phrases("What is the largest island in the world")
    assert world is not None
    assert '"the largest island in the world"' in world and '"the world\'s largest island"' in world
    canada = attribute_phrases("What is the largest city in Canada")
    assert canada is not None and '"the most populous city in Canada"' in canada
    first = attribute_phrases("Who was the first emperor of China")
    assert first is not None and '"the first emperor of China"' in first
    assert '"China\'s first emperor"' in first
    # the place as the part writes it, and the attribute left out ("… and the largest in
    # the Solar System")
    planet = attribute_phrases("What is the largest planet in the solar system", ["Solar System"])
    assert planet is not None and '"the largest planet in the solar system"' in planet
    assert '"the largest in the solar system"' in planet
    assert attribute_phrases("Why did the Roman Empire fall") is None
    assert attribute_phrases("Who is the president of France") is None
    # a thing named by an adjective, as the part writes it (the Holy Roman Emperors'
    # entries share its words; *Augustus* says "the first Roman emperor")
    roman = attribute_phrases("Who was the first Roman emperor")
    assert roman == '"the first Roman emperor"'


def test_a_superlative_said_with_its_attribute_left_out_or_after_of_answers() -> None:
    part = "What is the largest planet in the Solar System"
    jupiter = (["Jupiter"], "Jupiter is the fifth planet from the Sun and the largest in the Solar System.")  # fmt: skip
    assert unstated_attribute(part, [jupiter]) is None
    saturn = (["Saturn"], "Saturn is the sixth planet from the Sun and the second largest in the Solar System.")  # fmt: skip
    assert unstated_attribute(part, [saturn])
    continent = "What is the smallest continent in the world"
    australia = (["Australia"], "Australia is the smallest of the seven traditional continents.")
    assert unstated_attribute(continent, [australia]) is None


def test_which_kind_is_the_superlative_of_a_place_asks_that_attribute() -> None:
    asked = asked_attribute("Which river is the longest in Africa")
    assert asked == Attribute("river", ("africa",))
    assert asked is not None and asked.superlative == "longest"
    world = asked_attribute("Which lake is the largest in the world")
    assert world is not None and world.world
    assert asked_attribute("Which city is the capital of France") is None  # no superlative
