"""The kind of answer a part asks for, and whether a statement gives one."""

from __future__ import annotations

import pytest

from deepresearch.offline.answer_kinds import (
    answer_kind,
    asks_most_had,
    counts_asked,
    deed_on_object,
    gives,
    says_most_had,
    states_bound,
    unstated_superlative,
)
from deepresearch.text import words


@pytest.mark.parametrize(
    ("part", "kind"),
    [
        ("When did the Berlin Wall fall", "time"),
        ("In what year was the bridge finished", "time"),
        ("Who is the current president of France", "now"),
        ("Who invented the telephone", "doer"),
        ("How tall is Mount Everest", "number"),
        ("what share of all species do tropical forests hold", "number"),
        ("What is the term for one woman having several husbands", "term"),
        ("what is the belief that the world is about to end called", "term"),
        ("By what other name is the Conservative movement in Judaism known", "term"),
        ("Roughly what percentage of voters turned out", "number"),
        ("Which is the largest planet", "superlative"),
        ("How do I pin the interpreter version for a project", "usage"),
        ("Separately, can we set that prefix once", "usage"),
        ("How did the printing press change Europe", None),
        ("Under which government did he serve", None),
        ("What is democracy", None),
    ],
)
def test_the_kind_a_part_asks_for(part: str, kind: str | None) -> None:
    assert answer_kind(part) == kind


def test_a_part_asking_for_a_thing_it_does_not_name_asks_for_a_name_when_names_count() -> None:
    assert answer_kind("Under which government did he serve", names=True) == "name"
    assert answer_kind("Where did she work", names=True) == "name"
    assert answer_kind("What is democracy", names=True) is None
    # a more specific kind wins
    assert answer_kind("Which year did it end", names=True) == "time"


def test_a_statement_gives_a_name_only_beyond_the_words_asked() -> None:
    part = "Under which government did the author of Paradise Lost serve"
    asked = {"under", "which", "government", "author", "paradise", "lost", "serve"}
    assert gives("He served under Oliver Cromwell.", "name", asked, part)
    assert not gives("Paradise Lost made him famous.", "name", asked, part)
    assert not gives("He served the government for years.", "name", asked, part)


def test_a_statement_gives_a_time_or_a_number_beyond_the_question() -> None:
    assert gives("It was completed in 1998.", "time", {"when"}, "When was it completed")
    assert not gives("It was completed in 1998.", "time", {"1998"}, "Was it done in 1998")
    assert gives("It stands 8,849 metres high.", "number", set(), "How tall is it")
    assert not gives("It was built in 1931.", "number", set(), "How tall is it")
    lean = "It is known for its nearly four-degree lean."
    assert gives(lean, "number", set(), "how far does it tilt")  # a measure in words
    assert not gives("A tower is a tall structure.", "number", set(), "how far does it tilt")
    # a part asking a measure is given one with its unit, not a count
    assert gives("The canal is 193 kilometres long.", "number", set(), "How long is the canal")
    crossing = "The canal crosses four provinces and has 12 locks."
    assert not gives(crossing, "number", set(), "How long is the canal")
    assert gives(crossing, "number", set(), "How many locks does the canal have")


def test_a_statement_gives_code_for_a_part_asking_how_to_do_something() -> None:
    part = "How do I keep the lockfile from changing in CI"
    asked = {"how", "do", "keep", "lockfile", "from", "changing", "ci", "locked"}
    assert gives("Pass --frozen to uv sync.", "usage", asked, part)
    assert gives("Set the base_url parameter on the client.", "usage", asked, part)
    assert gives("Code: `uv sync`", "usage", asked, part)
    # an option the question already says, or prose, gives nothing new
    assert not gives("Use --locked for that.", "usage", asked, part)
    assert not gives("The lockfile is updated on every run, e.g. by a sync.", "usage", asked, part)


def test_a_compound_verb_gives_the_doer_of_its_last_word() -> None:
    part, asked = "Who founded Microsoft", {"who", "founded", "microsoft"}
    said = "In 1975 he co-founded the company Microsoft with Paul Allen."
    assert gives(said, "doer", asked, part)
    assert not gives("In 1975 he ran the company Microsoft with Paul Allen.", "doer", asked, part)


def test_a_superlative_after_a_lower_rank_is_not_the_superlative_asked() -> None:
    part, asked = "What is the largest desert in the world", {"largest", "desert", "world"}
    assert not gives("The Karakum is the 12th largest desert in the world.", "superlative", asked, part)  # fmt: skip
    assert not gives("It is the third largest desert in the world.", "superlative", asked, part)
    assert gives("It is the largest desert in the world.", "superlative", asked, part)


def test_a_superlative_of_a_narrower_noun_is_not_the_superlative_asked() -> None:
    part, asked = "What is the largest desert in the world", {"largest", "desert", "world"}
    assert not gives("It is the largest hot desert in the world.", "superlative", asked, part)
    part, asked = "Which planet has the most moons", {"planet", "most", "moons"}
    said = "Ganymede is the most massive moon of any planet."
    assert not gives(said, "superlative", asked, part)
    assert gives("Saturn is the planet with the most moons.", "superlative", asked, part)
    part, asked = "Who was the first to receive a patent", {"first", "receive", "patent"}
    said = "Brunelleschi became the first person to receive a patent in the Western world."
    assert gives(said, "superlative", asked, part)


def test_a_noun_ending_as_a_superlative_does_in_the_possessive_is_none() -> None:
    # "the midwest's official name" asks for no superlative
    part = "what was the midwest's official census bureau name before 1984"
    assert unstated_superlative(part, ["It was named the North Central Region."]) is None
    part = "what was the largest census region before 1984"
    assert unstated_superlative(part, ["It was named the North Central Region."]) is not None


def test_a_superlative_going_on_past_the_phrase_asked_to_a_narrower_name_is_not_it() -> None:
    part = "Who was the first woman to win a Nobel Prize"
    asked = set(words(part))
    said = "She was the first woman to win the Nobel Prize in Literature, in 1909."
    assert not gives(said, "superlative", asked, part)
    assert unstated_superlative(part, [said]) is not None
    assert gives("She was the first woman to win a Nobel Prize.", "superlative", asked, part)
    # a date goes on, but does not narrow it
    moon = "Who was the first man to walk on the Moon"
    said = "He became the first person to walk on the Moon in July 1969."
    assert gives(said, "superlative", set(words(moon)), moon)
    # nor what a part ending in "of" asks for
    style = "Which style is he considered the greatest exponent of"
    said = "He was widely known as the greatest exponent of Catalan Modernisme."
    assert gives(said, "superlative", set(words(style)), style)
    # nor does a name the part gives
    physics = "Who was the first woman to win the Nobel Prize in Physics"
    said = "Marie Curie was the first woman to win the Nobel Prize in Physics."
    assert gives(said, "superlative", set(words(physics)), physics)
    # a "whose" clause narrows it to some of the kind
    lightest = "What is the lightest element"
    said = "It is the lightest element whose isotopes are all radioactive."
    assert not gives(said, "superlative", set(words(lightest)), lightest)
    assert gives("It is the lightest element.", "superlative", set(words(lightest)), lightest)


def test_one_of_several_is_not_the_superlative_asked() -> None:
    part = "Who is considered the greatest basketball player of all time"
    asked = set(part.lower().split())
    said = "He is widely considered to be one of the greatest basketball players of all time."
    assert not gives(said, "superlative", asked, part)
    said = "Jordan is considered by many to be the greatest basketball player of all time."
    assert gives(said, "superlative", asked, part)


def test_a_deed_is_said_of_what_the_part_names_only_within_reach() -> None:
    who = "Who founded Buddhism"
    assert deed_on_object("The Buddha lived in the 5th century BCE and founded Buddhism.", who)
    assert deed_on_object("Buddhism was founded by the Buddha.", who)
    far = "After turning to Mahayana Buddhism, along with his brother, he was one of the founders of the Yogacara school."
    assert not deed_on_object(far, who)
    # a word made from the deed: "the discovery of penicillin"
    assert deed_on_object(
        "He was honoured for the discovery of penicillin.", "Who discovered penicillin"
    )
    assert not deed_on_object("Buddhism was founded by the Buddha.", "Where was Buddhism founded")
    # what was discovered is what "of" follows only right after the deed's noun
    radium = "Who discovered radium"
    isotopes = "Hahn and Meitner discovered isotopes of the radioactive elements radium, thorium."
    assert not deed_on_object(isotopes, radium)
    assert deed_on_object(
        "She won it for the discovery of the elements radium and polonium.", radium
    )


def test_a_superlative_limited_to_a_place_not_asked_is_not_the_superlative_asked() -> None:
    part, asked = "which is the deepest", {"which", "deepest"}
    said = "Great Slave Lake is the deepest lake in North America at 614 m."
    assert not gives(said, "superlative", asked, part)
    assert gives("Lake Baikal is the deepest lake in the world.", "superlative", asked, part)
    part = "Which is the deepest lake in North America"
    assert gives(said, "superlative", set(words(part)), part)
    # a part asking how a thing ranks is answered by its rank in a place
    part = "How does the Arabian Desert rank among the biggest deserts"
    said = "It is the fourth largest desert in the world and the largest in Asia."
    assert gives(said, "superlative", set(words(part)), part)


def test_a_superlative_of_the_same_degree_gives_the_superlative_asked() -> None:
    part = "What is the tallest mountain on Earth"
    asked = {"tallest", "mountain", "earth"}
    assert gives("Mount Everest is the highest mountain on Earth.", "superlative", asked, part)
    assert not gives("It is the lowest mountain on Earth.", "superlative", asked, part)
    populous = "What is the most populous country in the world"
    words = {"most", "populous", "country", "world"}
    assert gives("China is the most populous country.", "superlative", words, populous)
    assert not gives("It is the largest country in the world.", "superlative", words, populous)
    assert not gives("It is the most common country name.", "superlative", words, populous)


def test_a_count_is_said_with_what_the_part_counts() -> None:
    part = "How many bones are in the adult human body"
    assert counts_asked("It has around 206 bones by adulthood.", part)
    assert not counts_asked("Bone makes up about 14% of the total body weight.", part)
    assert not counts_asked("It has around 206 bones.", "What is a bone")
    # a number joined to its unit says the unit: "a 13-day confrontation" counts days
    days = "How many days did the standoff last"
    assert counts_asked("It was a 13-day confrontation between the two.", days)
    assert counts_asked("It was a thirteen-day confrontation.", days)
    assert not counts_asked("It was a 13-hour confrontation.", days)


def test_a_count_of_people_is_a_population_said_before_its_number() -> None:
    part = "How many people live in Tokyo"
    assert counts_asked("The population of the city proper was over 14 million as of 2023.", part)
    assert counts_asked("With a population of more than 242 million, it is the largest.", part)
    assert not counts_asked("It covers 143,600 square kilometres.", part)
    assert not counts_asked("The population of the city grew fast in 1990.", part)  # a year


def test_a_thing_asked_to_be_the_most_is_answered_only_by_a_line_saying_so() -> None:
    part = "What is the heaviest naturally occurring element"
    rarest = (
        "It is the rarest naturally occurring element in the Earth's crust, occurring only "
        "as the decay product of various heavier elements."
    )
    reason = unstated_superlative(part, [rarest])
    assert reason == "no finding drawn for it says what is the heaviest naturally occurring element"
    assert (
        unstated_superlative(part, [rarest, "Uranium is the heaviest naturally occurring element."])
        is None
    )
    # so does its adverb, with the answer it names
    cluster = "which open cluster is the most notable one within its borders"
    notably = "Several open clusters lie within its borders, most notably M41."
    assert unstated_superlative(cluster, [notably]) is None
    # a twin degree says it: "the highest" for "the tallest"
    assert unstated_superlative("Which peak is the tallest", ["It is the highest peak."]) is None
    # one asked of a named thing is the attribute check's ("the most populous city in …")
    assert unstated_superlative("What is the largest city in Australia", [rarest]) is None
    # a manner asked ("the quickest way to …") is answered by a how-to in other words
    shell = "what is the quickest way to get a shell inside my virtualenv"
    assert unstated_superlative(shell, ["Run pdm shell to activate the virtualenv."]) is None


def test_a_count_in_words_is_a_number_given() -> None:
    part = "How many strings does a violin have"
    four = "Most violins commonly have four strings, usually tuned in perfect fifths."
    assert counts_asked(four, part)
    assert gives(four, "number", set(words(part)), part)
    assert not counts_asked("One of the strings is tuned to E.", part)
    assert not gives("Violins are strung with gut.", "number", set(words(part)), part)


def test_any_word_of_what_a_part_counts_may_be_said_with_the_number() -> None:
    part = "How many Olympic gold medals did Johnny Weissmuller win"
    assert counts_asked("He set world records alongside winning five gold medals.", part)
    # the counted words stop at the part's verb: "win" is not counted
    assert not counts_asked("He had 52 wins in a row.", part)


def test_a_part_asking_who_was_first_is_answered_only_by_a_line_saying_so() -> None:
    part = "Who was the first person to reach the South Pole"
    stray = [
        "First aid is the first and immediate assistance given to any person in an emergency.",
        "Pole vaulting was first established by the Germans.",
    ]
    reason = unstated_superlative(part, stray)
    assert reason == "no finding drawn for it says who is the first person to reach the South Pole"
    amundsen = "Amundsen led the first expedition to reach the South Pole, in 1911."
    assert unstated_superlative(part, [*stray, amundsen]) is None
    moon = "Armstrong became the first person to walk on the Moon."
    assert unstated_superlative("Who was the first man on the Moon", [moon]) is None
    second = "Tiberius was the second man to reach the South Pole."
    assert unstated_superlative(part, [second]) is not None
    assert unstated_superlative("What was the first computer", stray) is None  # not "who"


def test_a_first_of_another_noun_sharing_one_word_is_not_the_first_asked() -> None:
    # "the very first" asks for the first as "the first" does
    part = "Who received the very first Nobel Prize in Physics"
    assert answer_kind("What was the very first computer") == "superlative"
    professor = "He became the first physics professor of the University of Amsterdam."
    assert unstated_superlative(part, [professor]) is not None
    recipient = "In 1901 Röntgen became the first recipient of the Nobel Prize in Physics."
    assert unstated_superlative(part, [professor, recipient]) is None
    # a first within a group ("the first American") is not the first of all
    american = "In 1907 he became the first American to win the Nobel Prize in Physics."
    assert unstated_superlative(part, [american]) is not None
    # the noun alone does not say a longer phrase: another person's first is another's
    person = "Who was the first person to receive the Nobel Prize in Physics"
    davis = "She was the first person to accrue ten Academy Award nominations."
    assert unstated_superlative(person, [davis]) is not None
    assert unstated_superlative(person, [recipient]) is None
    # a group made from a word of the part is the one asked: "Roman" of Rome
    roman = "Augustus was the first Roman emperor, from 27 BC."
    assert unstated_superlative("Who was the first emperor of Rome", [roman]) is None
    # a name the part says the superlative of must be said: another place is another first
    india = "Who was the first European to reach India by sea"
    tasman = "Tasman was the first European to reach New Zealand."
    assert unstated_superlative(india, [tasman]) is not None
    gama = "Vasco da Gama was the first European to reach India by sea."
    assert unstated_superlative(india, [tasman, gama]) is None
    # only the names of its own phrase: a clause after a comma describes, and a sentence
    # after a full stop asks anew
    genji = "It is the first novel written by a woman to have won global recognition."
    heian = "Who wrote the first novel by a woman to win global recognition, set at the Heian court"
    assert unstated_superlative(heian, [genji]) is None
    patent = "In 1421, Brunelleschi became the first person to receive a patent."
    asked = "Who was the first to receive something. What was it"
    assert unstated_superlative(asked, [patent]) is None


def test_a_superlative_asked_with_a_deed_is_the_kind_asked() -> None:
    # the first is asked, whoever received one; the summary's leads state it
    part = "Who received the first Nobel Prize in Physics"
    assert answer_kind(part) == "superlative"
    asked = set(words(part))
    said = "In 1901, Röntgen became the first recipient of the Nobel Prize in Physics."
    assert gives(said, "superlative", asked, part)  # "of" joins; no narrower noun
    assert not gives("The prizes were first awarded in 1901.", "superlative", asked, part)


def test_a_superlative_noun_a_statement_ends_its_phrase_at_says_it() -> None:
    said = "The highest general was Hannibal, who led the army across the Alps."
    assert unstated_superlative("Who was the highest general of the army", [said]) is None
    # a phrase going on with "to" says more, which must match
    person = "Who was the first person to receive the Nobel Prize in Physics"
    assert unstated_superlative(person, ["Davis was the first person to win ten awards."])
    # a thing's superlative may be said of it in other words ("peak" for "summit")
    part = "What is the highest summit of the mountain where Zeus rules"
    asked = set(words(part))
    said = "The highest peak, Mytikas, is 2,917 metres high."
    assert gives(said, "superlative", asked, part)


def test_which_thing_has_a_superlative_is_answered_only_by_a_line_saying_it() -> None:
    part = "Which country has the largest population in Africa"
    algeria = [
        "Spanning over 2,381,741 square kilometres, it is the largest country in Africa.",
        "With a population of over 47 million, Algeria is the tenth-most populous country in Africa.",
    ]
    reason = unstated_superlative(part, algeria)
    assert (
        reason == "no finding drawn for it says which country has the largest population in Africa"
    )
    # an adjective made from the noun, before the kind asked for
    nigeria = (
        "With a population of more than 242 million, it is the most populous country in Africa."
    )
    assert unstated_superlative(part, [*algeria, nigeria]) is None
    assert says_most_had(part, nigeria) and not says_most_had(part, algeria[0])
    # not of another kind, ranked below, one of several, nor of another place
    congo = "The Congo is the most populous Francophone country in the world."
    assert not says_most_had(part, congo)
    assert not says_most_had(part, "Egypt has the second largest population in Africa.")
    assert not says_most_had(part, "It has one of the largest populations in Africa.")
    assert not says_most_had(part, "India has the largest population in Asia.")
    assert says_most_had(part, "Nigeria has the largest population in Africa.")
    # the noun as asked, right after the superlative
    moons = "Which planet has the most moons"
    assert asks_most_had(moons) and not asks_most_had("Which river is the longest in Africa")
    assert says_most_had(moons, "Saturn has the most moons of any planet.")
    assert not says_most_had(moons, "Ganymede is the most massive moon.")
    heat = "Which planet has the highest surface temperature"
    assert not says_most_had(heat, "It is the planet with the highest delta-v from Earth.")
    assert says_most_had(heat, "Venus has the highest surface temperature of any planet.")


def test_the_most_or_fewest_of_a_count_is_answered_by_its_bound() -> None:
    part = "what is the most tickets one buyer may hold for a match"
    limit = "A buyer may not hold more than four tickets for any one match."
    assert states_bound(part, limit)
    assert unstated_superlative(part, [limit]) is None
    # a line without the bound, or a bound on another count, does not say it
    assert unstated_superlative(part, ["Tickets go on sale in May."]) is not None
    assert not states_bound(part, "A buyer may not hold more than one account.")
    fewest = "what is the fewest players a side may field"
    assert states_bound(fewest, "A side must field at least seven players.")
    assert not states_bound(fewest, "A side may field up to eleven players.")


def test_a_share_in_words_is_a_number_given() -> None:
    part = "What fraction of plant and animal species were wiped out"
    assert gives("It wiped out three-quarters of plant and animal species.", "number", set(), part)
    assert gives("About half of all species disappeared.", "number", set(), part)
    assert not gives("It is the third-largest extinction.", "number", set(), part)
    # a share in words answers a share asked, not a length
    length = "How long is the Yukon River"
    assert not gives("The lower half of the river flows west.", "number", set(), length)


def test_a_line_gives_a_term_by_calling_the_thing_something() -> None:
    part = "What is the term for one woman having several husbands"
    said = "When a woman is married to more than one husband at once, it is called polyandry."
    assert gives(said, "term", set(), part)
    assert gives("The city was originally named Edo.", "term", set(), part)
    alias = "The Green Revolution, or the Third Agricultural Revolution, was a period of growth."
    assert gives(alias, "term", set(), part)  # another name beside the first
    assert not gives("A husband is a man involved in a marital relationship.", "term", set(), part)
    assert not gives("He called for reform of the courts.", "term", set(), part)
    assert not gives("It is named after the river.", "term", set(), part)
    # a person's name is a name, not a term: "What was the name of Hafez's father"
    assert answer_kind("What was the name of Hafez's father", names=True) != "term"
