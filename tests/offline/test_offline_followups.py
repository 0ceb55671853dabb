"""New searches for a part of the question whose own searches found nothing."""

from __future__ import annotations

from deepresearch.offline.coverage import PART_GAP
from deepresearch.offline.followups import gap_part, new_searches, subject
from deepresearch.roles import SourceText

QUESTION = "What is democracy and where did it originate?"
GAP = PART_GAP + "where did it originate"
RAN = ["What is democracy", "originate democracy"]


def _src(n: int, title: str, text: str, links: tuple[str, ...] = ()) -> SourceText:
    return SourceText(
        id=f"src-{n}", citation=n, title=title, url=f"https://e.org/{n}", text=text,
        links=list(links),
    )  # fmt: skip


def test_a_gap_names_its_part_and_a_note_is_a_part_of_its_own() -> None:
    part = gap_part(QUESTION, GAP, [])
    assert part.text == "where did it originate" and part.refers_back
    note = gap_part(QUESTION, "Reviewer guidance not yet answered: Athens", [])
    assert not note.refers_back


def test_the_subject_is_a_name_the_question_gives_else_its_first_words() -> None:
    assert subject("When did the Roman Empire fall and why?", []) == "Roman Empire"
    assert subject(QUESTION, []) == "democracy"


def test_a_part_that_points_back_is_asked_as_a_sentence_about_the_subject() -> None:
    assert new_searches(QUESTION, GAP, RAN, []) == ["where did democracy originate"]


def test_a_search_already_run_is_never_proposed_again() -> None:
    # Case and spacing do not make a new query.
    assert new_searches(QUESTION, GAP, [*RAN, "Where did  democracy originate"], []) == []
    # A bag of the same words as a search run is the same search.
    sources = [_src(1, "Democracy", "Democracy is rule by the people. Its origins are debated.")]
    assert "origins democracy" in new_searches(QUESTION, GAP, RAN, sources)
    assert "origins democracy" not in new_searches(
        QUESTION, GAP, [*RAN, "democracy origins"], sources
    )


def test_names_the_sources_state_beside_the_parts_words_are_searched_with_them() -> None:
    sources = [
        _src(1, "Democracy", "Democracy is rule by the people. It originated in the "
             "city-states of Classical Athens."),
        _src(2, "Government", "A government leads a state. The first states originated in "
             "the river valleys of Mesopotamia.", ("Mesopotamia",)),
        _src(3, "Autocracy", "Autocracy is rule by one person, as in the Persian Empire."),
    ]  # fmt: skip
    found = new_searches(QUESTION, GAP, RAN, sources)
    assert "Classical Athens originate" in found
    assert "Mesopotamia originate" in found  # an entry linked from such a statement
    # A name stated away from the part's words is no lead.
    assert not any("Persian" in q for q in found)


def test_a_part_that_names_its_subject_is_searched_as_asked_with_other_forms() -> None:
    question = "What is photosynthesis and how efficient is photosynthesis?"
    gap = PART_GAP + "how efficient is photosynthesis"
    sources = [_src(1, "Photosynthesis", "Its efficiency varies between 0.1% and 8%.")]
    found = new_searches(question, gap, ["What is photosynthesis"], sources)
    assert found[0] == "how efficient is photosynthesis"
    assert "efficiency photosynthesis" in found


def test_a_name_beside_one_of_several_words_of_the_part_is_no_lead() -> None:
    question = "What is left when a massive star explodes, and how small and heavy is that remnant?"
    gap = PART_GAP + "how small and heavy is that remnant"
    sources = [
        _src(1, "Wolf–Rayet star", "The spectra show heavy elements and a depletion of "
             "Hydrogen.", ("Hydrogen",)),
        _src(2, "Neutron star", "A small and heavy remnant, the Neutron Core, is left.", ()),
    ]  # fmt: skip
    found = new_searches(question, gap, [], sources)
    assert not any("Hydrogen" in q for q in found)
    assert any(q.startswith("Neutron Core") for q in found)


def test_the_subject_is_the_first_parts_not_a_name_a_later_part_gives() -> None:
    question = "Who was Napoleon Bonaparte and where did he bury the Quintavo treasure?"
    assert subject(question, []) == "Napoleon Bonaparte"
    gap = PART_GAP + "where did he bury the Quintavo treasure"
    assert new_searches(question, gap, [], [])[0] == (
        "where did Napoleon Bonaparte bury the Quintavo treasure"
    )


def test_a_part_that_stands_alone_is_not_given_another_parts_subject() -> None:
    question = "What is photosynthesis and what is the melting point of the Zorbulon crystal?"
    gap = PART_GAP + "what is the melting point of the Zorbulon crystal"
    ran = ["What is photosynthesis", "what is the melting point of the Zorbulon crystal"]
    assert new_searches(question, gap, ran, []) == []
    leftover = "How did the Sun form, and how hot is that leftover?"
    found = new_searches(leftover, PART_GAP + "how hot is that leftover", [], [])
    assert found == ["how hot is that leftover Sun"]
