"""One notion of a date for the offline checks and summary leads."""

from __future__ import annotations

import pytest

from deepresearch.offline.dates import asks_year, gives_date


@pytest.mark.parametrize(
    "text",
    [
        "William Shakespeare died in Stratford in 1616.",
        "Athenian democracy was established in 508 BC.",
        "Vesuvius buried Pompeii in AD 79.",
        "Railways spread in the 1840s.",
        "It was built in the 9th century.",
        "Neanderthals vanished roughly 40,000 years ago.",
        "It began approximately 538.8 million years ago.",
        "He was crowned Emperor of the French on 18 May 1804.",
        "It made the first piloted ascent in 1783, carrying Jacques-Étienne.",
        "Founded in 1636, it is the oldest.",
        # a year of three figures where the clause goes on or ends
        'Old Saxony became a Carolingian "stem duchy" in 804, in what is now Germany.',
        "The abbey was founded in 962 and rebuilt later.",
    ],
)
def test_dates_of_every_kind_are_dates(text: str) -> None:
    assert gives_date(text)


@pytest.mark.parametrize(
    "text",
    [
        "He created about 2,100 artworks.",
        "He took his own life at 37.",
        "The city covers 1,287.36 km2.",
        "It has 2,1000 members.",
        "About 1,500 people live there.",
        "It is visible every 75 to 79 years.",
        "The chain has shops in 300 cities.",
        "A reply comes in 100 ms.",
    ],
)
def test_counts_ages_and_measures_are_not(text: str) -> None:
    assert not gives_date(text)


def test_a_year_the_question_gives_is_no_answer() -> None:
    assert not gives_date("The war of 1914 was fought across Europe.", ["war", "1914"])
    assert gives_date("The war of 1914 ended in 1918.", ["war", "1914"])


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("What year was Moscow State University founded?", True),
        ("In which year did the war end?", True),
        ("In what years were Madame Bovary and The Bell Jar published?", True),
        ("When did the war end?", False),  # "when": the time check's
        ("How many years did the war last?", False),
        ("In which century did the Renaissance begin?", True),
        ("Which decade saw the first jet airliner?", True),
    ],
)
def test_a_year_asked_without_when(text: str, asks: bool) -> None:
    assert asks_year(text) is asks
