"""Scenes: a leading phrase or a condition that only sets the question's scene."""

from __future__ import annotations

from deepresearch.offline.scenes import in_first_person, opens_condition, sets_scene
from deepresearch.text import words


def test_a_leading_phrase_that_neither_asks_nor_describes_sets_the_scene() -> None:
    assert sets_scene("According to the Phase 6 plan") and sets_scene("If I put 256 into a u8")
    assert not sets_scene("In which year did the war end")  # asks
    assert not sets_scene("In the sport that the Bambino played")  # describes a thing


def test_when_before_a_subject_opens_a_condition_when_before_a_verb_asks() -> None:
    assert opens_condition(words("when I don't pass anything"))
    assert sets_scene("when the lockfile is missing")
    assert not opens_condition(words("when was it founded"))
    assert not opens_condition(words("when I run it, which flag applies"))  # asks too
    # a subject without a determiner, no verb of a question's order after it
    assert opens_condition(words("When people go underwater"))
    assert opens_condition(words("When writing a PDM plugin"))
    assert not opens_condition(words("When exactly did the war end"))
    assert not opens_condition(words("When debugging it in an IDE, should debug mode stay on"))
    assert not opens_condition(words("when if let"))  # "when (should I use) if let"
    assert not sets_scene("when if let")


def test_the_asker_speaks_of_themselves_in_the_first_person() -> None:
    assert in_first_person("Our CI cache directory for uv keeps ballooning")
    assert in_first_person("I published a version of my crate")
    assert in_first_person("Yesterday I ran it")
    assert not in_first_person("Shandong is home to the mountain most revered in Taoism")
    # a regnal numeral after a name is no "I"
    assert not in_first_person("Holy Roman Emperor Ferdinand I cultivated ties with a bank")
    assert in_first_person("In CI I want the job to fail")  # after an acronym, "I" is the asker


def test_a_lead_in_after_a_connective_still_sets_the_scene() -> None:
    assert sets_scene("And on the upload side")
    assert sets_scene("Also, when the server hangs up in the middle of a response")
    assert sets_scene("once a response comes back")
    assert not sets_scene("And which flag applies")  # asks


def test_what_the_asker_would_do_sets_a_scene_though_it_describes_a_thing() -> None:
    # the flag is the asker's to name: no part asks which flag
    assert sets_scene("If I just flip the flag that skips the check on my dev machine")
    assert not sets_scene("If I flip the flag, which check is skipped")
    assert not sets_scene("in the sport that the Bambino played")


def test_the_asker_telling_what_they_have_or_do_sets_the_scene() -> None:
    assert sets_scene("Also we serve with waitress")
    assert sets_scene("our scraper gets blocked because of the default user agent")
    assert sets_scene("I know you can annotate blocks one by one")
    assert not sets_scene("we want to know which flag applies")  # asks
    # a question after a dash is one of its own
    assert not sets_scene("I set timeout=5 and it ran for minutes - isn't that supposed to stop")
