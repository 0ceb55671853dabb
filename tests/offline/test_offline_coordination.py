"""How a clause's coordinated phrases become clauses of their own."""

from __future__ import annotations

from deepresearch.offline.coordination import split_coordination


def test_two_objects_of_one_verb_share_the_head() -> None:
    assert split_coordination("who invented the telephone and the radio") == [
        "who invented the telephone",
        "who invented the radio",
    ]


def test_a_short_phrase_closing_the_clause_goes_with_both_words_joined() -> None:
    assert split_coordination("does the server do formatting and linting by itself") == [
        "does the server do formatting by itself",
        "does the server do linting by itself",
    ]
    # a longer phrase is not one both share: the conjunct goes on with a verb of its own
    went = "which guitarist was thrown out of the band in 1983 and went on to form another"
    assert split_coordination(went) == [went]
    # "or" offers either thing to one question
    either = "what process turns fermented grains or fruit into hard liquor"
    assert split_coordination(either) == [either]


def test_a_long_conjunct_or_a_span_stays_whole() -> None:
    assert split_coordination("the rise and fall of the Roman Empire in the west") == [
        "the rise and fall of the Roman Empire in the west"
    ]
    assert split_coordination("what happened between 499 and 449 BC") == [
        "what happened between 499 and 449 BC"
    ]
    # "between" a few words before the first end: still one relation's two ends
    lying = "which river reached the sea lying between the cities of Nouadhibou and Nouakchott"
    assert split_coordination(lying) == [lying]


def test_a_second_verb_takes_the_place_of_the_heads() -> None:
    assert split_coordination("Should I keep a list sorted with bisect.insort, or use heapq") == [
        "Should I keep a list sorted with bisect.insort,",
        "Should I use heapq",
    ]


def test_two_verb_phrases_describing_the_one_thing_asked_for_stay_together() -> None:
    # One flag does both: asked apart, "skip the verification" would lose the lockfile.
    clause = "which flag do I use when I want uv to trust the lockfile as-is and skip the check"
    assert split_coordination(clause) == [clause]
    assert split_coordination("How can I run a shell command and capture its output") == [
        "How can I run a shell command",
        "How can I capture its output",
    ]
    # A prepositional phrase is no second description: it asks the same of another thing.
    assert (
        len(split_coordination("Which invocation makes make use Ninja, and for the GN build")) == 2
    )


def test_two_long_things_to_do_are_asked_apart() -> None:
    # Longer than a noun phrase's conjunct, but the second opens with a verb and its object.
    assert split_coordination(
        "How do you register a custom marker so that using it does not produce warnings, "
        "and make a mistyped marker name an error instead of a warning"
    ) == [
        "How do you register a custom marker so that using it does not produce warnings",
        "How do you make a mistyped marker name an error instead of a warning",
    ]
    assert split_coordination(
        "Can I declare the version once at the root and have each crate pick it up"
    ) == ["Can I declare the version once at the root", "Can I have each crate pick it up"]
    # ... also after a phrase the question opens with
    assert split_coordination(
        "And in that mode, can we keep running the update and keep our dependency at a URL"
    ) == [
        "And in that mode, can we keep running the update",
        "And in that mode, can we keep our dependency at a URL",
    ]
    # an auxiliary asking of a subject opens a question of its own
    asks = "what should I use to open the file, and will that still let users pass a dash"
    assert split_coordination(asks) == [asks]
    # a phrase after a preposition is where, not a second thing to do
    where = "How do I read that number afterwards in PowerShell and in the old Command Prompt"
    assert split_coordination(where) == [where]
    # a first thing done that ends with a verb of its own leaves no noun phrase to share
    assert split_coordination(
        "how can I limit how many items of each container are displayed and cut long strings short"
    ) == [
        "how can I limit how many items of each container are displayed",
        "how can I cut long strings short",
    ]
    # ... but one word after "and" says how it is ("safe and fast")
    said = "how do I know if it is safe and fast"
    assert split_coordination(said) == [said]


def test_a_noun_phrase_longer_than_the_first_keeps_the_verb_in_the_head() -> None:
    # The right conjunct has a word more than the left noun phrase: mirrored word for word,
    # the left one would take the verb ("to its activation entirely").
    assert split_coordination(
        "I'd like my image to skip the virtualenv and its activation entirely"
    ) == [
        "I'd like my image to skip the virtualenv",
        "I'd like my image to skip its activation entirely",
    ]
    assert split_coordination("how do I remove the cache and its lock file") == [
        "how do I remove the cache",
        "how do I remove its lock file",
    ]


def test_a_series_of_things_to_do_gives_one_clause_each() -> None:
    assert split_coordination(
        "How do I keep the line breaks for that block, hide the trailing notes, and make -h work"
    ) == [
        "How do I keep the line breaks for that block",
        "How do I hide the trailing notes",
        "How do I make -h work",
    ]
    # a pronoun object makes a verb phrase too: not "How do I read print it"
    assert split_coordination("How do I read a file and print it") == [
        "How do I read a file",
        "How do I print it",
    ]
    # items that do not open with a verb's bare form are no such series
    assert "How do I Go" not in split_coordination("How do I pick Rust, Go, and Zig")


def test_a_longer_left_conjunct_starts_where_the_right_ones_words_do() -> None:
    # the left conjunct begins at the word the right one opens with, not as many words
    # back as the right one has ("… coverage won coverage bought" before)
    assert split_coordination(
        "what names are given to coverage won for free versus coverage bought"
    ) == [
        "what names are given to coverage won for free",
        "what names are given to coverage bought",
    ]
    # a verb phrase after "or" shares the auxiliary and subject asked with: one thing
    assert split_coordination(
        "which two kinds of history is it tied to or considered a branch of"
    ) == ["which two kinds of history is it tied to or considered a branch of"]


def test_one_thing_of_a_kind_doing_both_stays_one_question() -> None:
    # "which god" is one god that did both; "which countries", "what is", "what happened"
    # ask of each
    assert split_coordination("Which Olympian god ruled the oceans and quakes") == [
        "Which Olympian god ruled the oceans and quakes"
    ]
    assert split_coordination("Which countries border France and Spain") == [
        "Which countries border France",
        "Which countries border Spain",
    ]
    assert split_coordination("which bay borders it to the southwest and southeast") == [
        "which bay borders it to the southwest",
        "which bay borders it to southeast",
    ]  # what it does to each of them, not the two things one bay is
    assert split_coordination("What happened to the Titanic and the Lusitania") == [
        "What happened to the Titanic",
        "What happened to the Lusitania",
    ]


def test_two_modifiers_of_one_noun_written_alike_each_ask_with_it() -> None:
    assert split_coordination("How do I express different incoming and outgoing names") == [
        "How do I express different incoming names",
        "How do I express different outgoing names",
    ]
    # two nouns are two things asked of as before
    assert split_coordination("who invented the telephone and the radio") == [
        "who invented the telephone",
        "who invented the radio",
    ]
