"""Whether a part asks what holds now, and whether a finding says it in the present."""

from __future__ import annotations

from deepresearch.offline.parts import question_parts
from deepresearch.offline.tense import asks_now, says_now, unstated_now

MITTERRAND = (
    ["François Mitterrand"],
    "François Mitterrand was President of France from 1981 to 1995.",
)


def test_a_part_asking_what_holds_now_is_not_answered_by_the_past_alone() -> None:
    part = question_parts("Who is the current president of France?")[0]
    reason = unstated_now(part, [MITTERRAND])
    assert reason == "it asks what holds now, and the findings drawn for it say so only in the past"
    # present tense near the word asked, in a sentence giving the part's names, answers
    now = (["Emmanuel Macron"], "Emmanuel Macron is the 25th president of France.")
    assert unstated_now(part, [MITTERRAND, now]) is None
    # a present-tense president of somewhere else says nothing of France's
    elsewhere = (["Paul Biya"], "Biya is the longest-serving current president in Africa.")
    assert says_now(part.text, elsewhere[1]) is None
    assert unstated_now(part, [MITTERRAND, elsewhere]) is not None


def test_a_part_naming_its_attribute_with_a_capital_letter_reads_it_too() -> None:
    queen = question_parts("Who is the current Queen of the United Kingdom?")[0]
    victoria = "Victoria was Queen of the United Kingdom from 1837 until her death in 1901."
    assert says_now(queen.text, victoria) is False
    assert unstated_now(queen, [(["Queen Victoria"], victoria)]) is not None


def test_a_place_named_by_its_present_name_asks_nothing_of_now() -> None:
    assert asks_now("Who is the president of France now")
    assert asks_now("what modern capital stands on its site today")
    assert not asks_now("Which civilisation built a city in what is now Sindh, Pakistan")
    assert not asks_now("Susa was the capital of a civilization in what's now Iran")
    part = question_parts("Which civilisation built a city in what is now Sindh, Pakistan?")[0]
    past = (["Mohenjo-daro"], "Mohenjo-daro was built in Sindh, Pakistan around 2500 BCE.")
    assert unstated_now(part, [past]) is None
