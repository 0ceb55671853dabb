"""What a question part asks, read from its wording: entity questions, descriptions,
requests, "when", a named thing's definition, the main clause."""

from __future__ import annotations

from deepresearch.offline.asking import (
    asked_text,
    asks_for_entity,
    asks_when,
    compares_things,
    defined_name,
    defines_kind,
    defines_name,
    describes,
    is_question,
    kind_said_to_be,
    main_clause,
    pointing_before,
    pointing_words,
    points_back,
    without_connective,
)


def test_entity_questions_are_told_apart_by_syntax() -> None:
    assert asks_for_entity("Which emperor was buried with an army of clay soldiers")
    assert asks_for_entity("who spread it in its first century")
    assert asks_for_entity("What short-lived republic did he lead")
    assert not asks_for_entity("What is the theory of relativity")
    assert not asks_for_entity("what else is known about its author's body of work")
    assert not asks_for_entity("How did the printing press change Europe")


def test_a_thing_described_by_a_relative_clause_is_asked_for() -> None:
    # "the element … that her prize cited" gives what it is, not its name: a hop.
    assert asks_for_entity(
        "What is the atomic number of the element, other than radium, that her prize cited"
    )
    assert asks_for_entity("How long is the railway that crosses Siberia")
    # "that" as a pronoun, or after "is", names nothing to identify.
    assert not asks_for_entity("How is it used for that purpose")
    assert not asks_for_entity("How did the idea that is popular now spread")


def test_a_request_is_not_worded_as_a_question() -> None:
    assert is_question("How do I teach the json module to handle new types")
    assert is_question("Can Cargo optimize only the third-party crates")
    assert is_question("My build is slow. Should I use a release profile")
    assert not is_question("Tell me about the Great Barrier Reef")
    assert not is_question("Compare the contributions of Max Planck to quantum theory")


def test_a_clause_with_a_modal_before_a_named_subject_asks() -> None:
    # the order only a question has, whatever the subject: a name as well as "we"
    assert is_question("Once we are fully strict, will mypy also warn us about dead code")
    assert is_question("With the lockfile in place, does uv still resolve anything")
    # a statement's modal comes after its subject, or before "be" or "not"
    assert not is_question("Once the flag is set, the checker can be slow on large code")
    assert not is_question("In strict mode, mypy will not report unreachable code")
    assert not is_question("On every run, can be slower than before")


def test_a_part_asking_who_or_what_a_named_thing_is_asks_for_no_other_entity() -> None:
    for text in ["Who was Cleopatra", "Who were the Beatles", "What is the Hanseatic League",
                 "Who was Leonardo da Vinci", "What is the Amazon rainforest",
                 "What was the Haitian Revolution"]:  # fmt: skip
        assert defines_name(text) and not asks_for_entity(text), text
    assert defined_name("What is the Amazon rainforest") == "Amazon rainforest"
    # it asks for an entity it does not name, or about something that is not a name
    for text in ["Who is the president of France", "Who was the first Roman emperor",
                 "What is photosynthesis", "What is Pride and Prejudice about",
                 "What is the Moon's diameter", "What is the Sun made of"]:  # fmt: skip
        assert not defines_name(text), text
    assert asks_for_entity("Who is the president of France")


def test_a_part_setting_things_side_by_side_compares_them() -> None:
    assert compares_things("How does the quark makeup of a baryon differ from that of a meson")
    assert compares_things("marmots vs porcupines")
    assert compares_things("How many people live in Luanda compared with Maputo")
    # "than" also describes one thing: the building is the one taller than the tower
    assert not compares_things("Who designed the building taller than the Eiffel Tower")


def test_a_part_asks_when_only_with_when_before_a_verb() -> None:
    assert asks_when("When did World War II end")
    assert asks_when("and when did geologists come to accept it")
    assert not asks_when("When creating a trusted publisher, which flag names the file")
    assert not asks_when("What happened when the war ended")


def test_a_capitalised_question_word_inside_a_name_asks_nothing() -> None:
    assert not is_question("In the What's New document for Python 2.0")
    assert is_question("WHO founded Rome") and is_question("Tell me who founded Rome")


def test_the_main_clause_ends_where_a_clause_describing_its_thing_begins() -> None:
    assert main_clause("How long is the railway that crosses Siberia") == "How long is the railway"
    # with no relative word: a name after "the", or a name and a form of "be"
    asked = "How long is the river the Lewis and Clark Expedition travelled up"
    assert main_clause(asked) == "How long is the river"
    asked = "What is the capital of the country Sonja Henie was from"
    assert main_clause(asked) == "What is the capital of the country"
    # a name the question gives is not a clause
    assert main_clause("How tall is the Eiffel Tower") == "How tall is the Eiffel Tower"
    # a question word after a leading preposition asks: it opens no clause
    assert main_clause("In which year did the Titanic sink") == "In which year did the Titanic sink"
    asked = "In which country is the city that hosted the 1936 Olympics"
    assert main_clause(asked) == "In which country is the city"


def test_a_that_opening_a_clause_points_back_to_nothing() -> None:
    assert not pointing_words("a configuration file that is loaded first")
    assert not pointing_words("I got an error that the response wasn't read")
    assert not pointing_words("what should I use instead so that amounts add up")
    # before a verb's "-s" form or a plural, which no "that" pointing back can precede
    assert not pointing_words("how do I turn on the protocol that multiplexes calls")
    assert not pointing_words("a gateway that needs a username")
    assert not pointing_words("a settings file that users edit by hand")
    assert pointing_words("who built that fortress") == {"that"}  # a singular noun in "-ss"
    # a "that" asked about, governed, or naming a thing said before points back
    assert pointing_words("what does that mean") == {"that"}
    assert pointing_words("what aliases does the command used for that have") == {"that"}
    assert pointing_words("when did the republic that dictator ruled end") == {"that"}
    assert pointing_words("what did it cost") == {"it"}


def test_a_there_saying_that_something_exists_points_back_to_nothing() -> None:
    assert not pointing_words("how many species of baboon are there")
    assert not pointing_words("How many Kurds are there worldwide")
    # a place said before is pointed back to
    assert pointing_words("how many people live there") == {"there"}
    assert pointing_words("how long did the court sit there") == {"there"}
    # a question opening with the verb asks within what was said before it
    assert pointing_words("is there a way to skip it") == {"there", "it"}
    assert pointing_words("is there any catch") == {"there"}


def test_a_pronoun_after_a_dash_or_colon_points_to_what_the_piece_named() -> None:
    asked = "how do I raise the ceiling on simultaneous connections - what is it by default"
    assert not pointing_words(asked)
    assert not pointing_words("The uv page on caching recommends a pruning step: what is it")
    # a demonstrative points within, to a thing the part describes but does not name
    asked = "every call goes to the same host - can I set that prefix once"
    assert not pointing_before(asked)
    assert pointing_words(asked) == {"that"}
    assert pointing_before("who built it - and when did that war end") == {"it", "that"}
    # a name alone before the colon is asked about, and "he" may point past it
    assert pointing_words("Napoleon: when did he die") == {"he"}
    assert pointing_words("how did it end - and who won") == {"it"}  # said before the dash


def test_a_clause_that_puts_its_verb_before_its_subject_asks() -> None:
    assert is_question("And as a compromise, can I let them type a unique beginning")
    assert is_question("If nobody passes one, it prints the help: does that count as a failure")
    # a statement keeps its subject first, whatever follows a comma
    assert not is_question("If nobody passes one, it prints the help and exits")
    assert not is_question("Tell me about the reef, as it was before the storm")
    # "am I" is the first person's verb before its subject
    assert is_question("If I render them in the sandbox, am I fully safe")
    assert is_question("Am I allowed to cache the compiled templates")
    assert not is_question("If I render them in the sandbox, I am fully safe")


def test_words_asking_for_things_other_than_those_said_name_nothing_asked() -> None:
    assert asked_text("What else should I be doing on top of it") == "What should I be doing it"
    assert asked_text("Finally, who else did he teach") == "who did he teach"
    # "else" of a program's branch, the rest of a thing ("everything else"), and a thing
    # on top of a named one are asked about
    kept = "how do I keep everything else as it is"
    assert asked_text(kept) == kept
    assert asked_text("Does the for loop's else block run") == "Does the for loop's else block run"
    assert asked_text("what sits on top of the stack") == "what sits on top of the stack"


def test_an_opening_adverb_that_links_a_part_to_the_one_before_is_not_asked() -> None:
    asked = "Separately, every call goes to the same host"
    assert without_connective(asked) == "every call goes to the same host"
    assert without_connective("Finally, how long does it take") == "how long does it take"
    # an adverb that is not set off by a comma says how: it is asked
    assert without_connective("Quickly install it") == "Quickly install it"
    assert without_connective("Italy, a country") == "Italy, a country"
    # ... nor a phrase saying how to answer, an adverb in two words
    assert without_connective("Put simply, what is a wage") == "what is a wage"
    assert without_connective("Generally speaking, who wrote it") == "who wrote it"
    assert without_connective("Ancient Sicily, what was it") == "Ancient Sicily, what was it"


def test_what_a_part_asking_for_a_kind_says_it_is() -> None:
    assert kind_said_to_be("Which composer became deaf") == "deaf"
    assert kind_said_to_be("What element is radioactive?") == "radioactive"
    # a superlative may be answered in other words; a longer part says more than that
    assert kind_said_to_be("Which planet is closest") == ""
    assert kind_said_to_be("Which planet is closest to the Sun") == ""
    assert kind_said_to_be("Which goal they raced for") == ""


def test_a_part_asking_what_a_kind_of_thing_is_defines_it() -> None:
    assert defines_kind("What are woodlice")
    assert defines_kind("What is a cliff")
    assert not defines_kind("What is the capital")  # an attribute of something unsaid
    assert not defines_kind("What is the Moon")  # a name: see defines_name
    assert not defines_kind("What are woodlice made of")


def test_a_thing_described_by_a_clause_without_that_is_asked_for() -> None:
    assert describes("When was the realm Krishnadevaraya ruled over founded")
    assert describes("What did the film Kubrick directed earn")
    assert not describes("When did the Roman Empire fall")  # a name, no clause
    # not asked for by a question word: "Explain … the part Joan of Arc played in it"
    assert not describes("Explain the war and the part Joan of Arc played in it")


def test_one_of_a_pair_named_before_points_back() -> None:
    assert points_back("What nicknames did the French one of the pair pick up")
    assert points_back("Which of the trio was born first")
    assert not points_back("What nicknames did the French mathematician pick up")
