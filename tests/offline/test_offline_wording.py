"""Names and quoted phrases count as the question writes them."""

from __future__ import annotations

from deepresearch.offline.parts import question_parts
from deepresearch.offline.wording import Wording


def test_a_one_word_name_the_question_capitalises_counts_only_capitalised() -> None:
    wording = Wording.of(question_parts("What is Hamlet about, and who wrote PHASE_TO_AGENT?"), [])
    assert wording.names == {"hamlet"}  # identifiers are not names here
    assert "hamlet" not in wording.stated("A village is larger than a hamlet.", "Village")
    assert "hamlet" in wording.stated("Hamlet is a tragedy.", "Tragedy")
    assert "hamlet" in wording.stated("It is a tragedy.", "Hamlet")  # the title names it
    assert {"phase", "agent"} <= wording.stated("A phase_to_agent table maps roles.", "Roles")


def test_the_words_of_a_quoted_phrase_count_only_where_the_phrase_is_held() -> None:
    question = "Who painted the 1931 'melting clocks' picture, and is Picasso's work there?"
    wording = Wording.of(question_parts(question), [])
    assert wording.phrases == (("melting", "clock"),)  # a possessive is no quote
    held = wording.stated('It is also called "The Melting Clocks".', "The Persistence of Memory")
    assert {"melting", "clock"} <= held
    assert not {"melting", "clock"} & wording.stated("A clock measures time.", "Clock")
    assert {"melting", "clock"} <= wording.stated("It was shown in 1931.", "Melting clocks")
    plain = Wording.of(question_parts("Who made the first melting clocks?"), [])
    assert "clock" in plain.stated("A clock measures time.", "Clock")


def test_a_gathered_title_the_question_gives_whole_is_a_phrase_unless_it_is_a_name() -> None:
    parts = question_parts("How did the printing press and Pablo Picasso change Europe?")
    titles = ["Printing press", "Machine press", "Pablo Picasso", "Europe (band)"]
    wording = Wording.of(parts, titles)
    assert wording.phrases == (("printing", "press"),)  # not the name, not an unnamed title
    aside = wording.stated("A forming press changes the shape of a work-piece.", "Machine press")
    assert "press" not in aside and "change" in aside
    assert "press" in wording.stated("Gutenberg built the first printing press.", "Gutenberg")
    assert "picasso" in wording.stated("Picasso painted Guernica.", "Guernica")


def test_a_phrase_is_held_with_one_coordinated_word_between() -> None:
    parts = question_parts("What are the capital cities of Gabon?")
    wording = Wording.of(parts, ["Capital city", "Gabon"])
    assert wording.phrases == (("capital", "city"),)
    said = wording.stated("Libreville is the capital and largest city.", "Gabon")
    assert {"capital", "city"} <= said
    apart = wording.stated(
        "The capital has grown faster than any other big industrial city.", "Gabon"
    )
    assert "capital" not in apart
