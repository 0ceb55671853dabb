"""The shared text tools: one sentence splitter, one query normalisation, one token
estimate for every layer."""

from __future__ import annotations

import re

from deepresearch.text import (
    agent_noun,
    content_terms,
    escape_citation_markers,
    estimate_tokens,
    keywords,
    normalize_query,
    sentences,
    split_sentences,
    stem,
    sub_citations,
    term_set,
    title_phrases,
    word_root,
)


def test_sentences_keep_their_citation_markers_and_abbreviations() -> None:
    text = "He was born c. 1775 in Mainz [1]. J. S. Bach wrote it [2, 3]. See e.g. this!"
    assert split_sentences(text) == [
        "He was born c. 1775 in Mainz [1].",
        "J. S. Bach wrote it [2, 3].",
        "See e.g. this!",
    ]


def test_an_abbreviation_before_a_number_or_a_name_ends_no_sentence() -> None:
    text = "Mozart finished his Symphony No. 41 in 1788. Prof. Curie won twice."
    assert split_sentences(text) == [
        "Mozart finished his Symphony No. 41 in 1788.",
        "Prof. Curie won twice.",
    ]


def test_letters_each_followed_by_a_dot_are_one_abbreviation() -> None:
    text = "It uses a bundle of certificates (a.k.a. CA bundle) from a CA. The U.K. Parliament met."
    assert split_sentences(text) == [
        "It uses a bundle of certificates (a.k.a. CA bundle) from a CA.",
        "The U.K. Parliament met.",
    ]


def test_a_sentence_ends_only_before_a_new_sentence() -> None:
    assert split_sentences("Prices rose 2.5 percent. the rest follows.") == [
        "Prices rose 2.5 percent. the rest follows."
    ]
    assert split_sentences("It ended… Then it began.") == ["It ended…", "Then it began."]
    assert split_sentences("Found in Attica. Then Sparta.") == ["Found in Attica.", "Then Sparta."]
    # a text written without capitals opens its sentences with small letters; abbreviations
    # still end none
    assert split_sentences("it broke, e.g. on ci. how do i fix it?", cased=False) == [
        "it broke, e.g. on ci.",
        "how do i fix it?",
    ]
    # a question may open a sentence with a question word in lower case; prose may not
    asked = "One is called `parse (old).py`. why is it missing? it is. what now?"
    assert split_sentences(asked, asking=True) == [
        "One is called `parse (old).py`.",
        "why is it missing? it is.",
        "what now?",
    ]
    assert len(split_sentences(asked)) == 1


def test_line_breaks_wrap_prose_or_end_units() -> None:
    text = "A wrapped\nsentence here. Next one\nfield: value"
    assert split_sentences(text) == ["A wrapped sentence here.", "Next one field: value"]
    assert split_sentences(text, lines=True) == [
        "A wrapped", "sentence here.", "Next one", "field: value"
    ]  # fmt: skip


def test_prose_sentences_drop_fragments() -> None:
    assert sentences("Short. This one is long enough to be a statement.") == [
        "This one is long enough to be a statement."
    ]


def test_queries_compare_without_case_and_spacing() -> None:
    assert normalize_query("  Printing   Press\tEurope ") == "printing press europe"


def test_token_estimate_errs_high_for_non_ascii() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("é" * 8) > estimate_tokens("e" * 8)
    assert estimate_tokens("abcdefgh", chars_per_token=2.0) == 4


def test_agent_nouns_follow_english_morphology() -> None:
    made = {v: agent_noun(v) for v in ["invented", "founded", "created", "painted", "unified",
                                       "planned", "wrote", "directed", "edited", "discovered"]}  # fmt: skip
    assert made == {
        "invented": "inventor", "founded": "founder", "created": "creator",
        "painted": "painter", "unified": "unifier", "planned": "planner", "wrote": "writer",
        "directed": "director", "edited": "editor", "discovered": "discoverer",
    }  # fmt: skip
    assert agent_noun("was") is None and agent_noun("agreed") is None


def test_citation_markers_are_not_read_in_code_headings_or_indexing() -> None:
    def renumber(match: re.Match[str]) -> str:
        return "" if match[1] in {"0", "9"} else f"<{match[1]}>"

    text = (
        "# Why can't I write s[0]?\n\nSee [1], Europe[2], a bad [9], `v[1]` and s[0].\n"
        "```\nx[1]\n```\n"
    )
    assert sub_citations(text, renumber) == (
        "# Why can't I write s[0]?\n\nSee <1>, Europe<2>, a bad , `v[1]` and s[0].\n"
        "```\nx[1]\n```\n"
    )


def test_a_questions_first_word_is_not_a_name_with_its_contraction() -> None:
    assert title_phrases("What's the difference between Rc<T> and Arc<T>?") == ["Rc T", "Arc T"]
    assert title_phrases("Isn't Python slow?") == ["Python"]
    assert title_phrases("O'Brien wrote what?") == ["O'Brien"]  # a name, not a contraction
    assert title_phrases("I'm reading Cargo's output. Don't we've Rust's?") == ["Cargo's", "Rust's"]


def test_a_sources_own_bracketed_numbers_are_escaped_and_then_read_as_no_citation() -> None:
    said = "accumulate([1, 2, 3]) gives [1, 3, 6]; v[2] is `v[2]` in code"
    escaped = escape_citation_markers(said)
    assert escaped == r"accumulate(\[1, 2, 3\]) gives \[1, 3, 6\]; v\[2\] is `v[2]` in code"
    found: list[str] = []
    sub_citations(escaped + " [4]", lambda m: found.append(m[1]) or m[0])
    assert found == ["4"]  # only the marker written after the statement


def test_terms_match_whatever_their_accents_and_apostrophes() -> None:
    # as the corpus search does: "Dvorak" asked, "Dvořák" written; "Bahá'í" and "Baháʼí"
    assert term_set("Antonín Dvořák") == term_set("Antonin Dvorak")
    assert term_set("the Baháʼí Faith") == term_set("the Bahá'í Faith")
    assert keywords("Antonín Dvořák") == ["antonín", "dvořák"]  # queries keep them


def test_an_irregular_past_form_reads_as_its_verb() -> None:
    """ "When did Peking opera arise" matches "It arose in Beijing"; a form that is also a
    common noun stays ("rose", "found")."""
    assert {"arise", "win", "fight"} <= term_set("It arose, fought and won.")
    assert {"rose", "found"} <= term_set("The rose was found.")


def test_the_nouns_of_dying_and_birth_read_as_their_verbs() -> None:
    """ "when did he die" matches "until his death in 1989"; "where was she born" "her
    birth in Warsaw"; "How many people died" (by root) "22 million deaths"."""
    assert "die" in term_set("until his death in 1989") & term_set("when did he die")
    assert word_root("died") in term_set("22 million deaths")
    assert "born" in term_set("after her birth in Warsaw") & term_set("where was she born")


def test_a_determiner_opening_a_sentence_is_not_a_name() -> None:
    assert title_phrases("Every time I touch a file, Docker rebuilds.") == ["Docker"]
    assert title_phrases("It failed. Several workers open app.log with FileHandler.") == [
        "FileHandler"
    ]


def test_plurals_adding_es_to_a_hissing_sound_lose_it() -> None:
    # "multiplexes" and "multiplexing" must meet at "multiplex", not "multiplexe"
    assert [stem(w) for w in ["multiplexes", "boxes", "crashes", "patches", "classes"]] == [
        "multiplex",
        "box",
        "crash",
        "patch",
        "class",
    ]
    # a singular ending in "-che" keeps its "e"
    assert [stem(w) for w in ["caches", "niches", "empires"]] == ["cache", "niche", "empire"]


def test_never_is_a_negation_as_not_is() -> None:
    # a part's words weigh what it asks about: "never" says nothing of it, as "not" does not
    assert keywords("why do my startup handlers never seem to run") == [
        "startup",
        "handlers",
        "seem",
        "run",
    ]


def test_a_words_root_drops_its_inflection() -> None:
    assert [word_root(w) for w in ("ended", "founder", "originated")] == [
        "end",
        "found",
        "originat",
    ]
    # a verb ending in "e" keeps it when the ending would leave too little: "died" is
    # "die", so "when did he die" is answered by "he died in 1616"
    assert word_root("died") == word_root("dies") == word_root("die") == "die"
    assert word_root("tied") == "tie"
    # short words, and a form that would read as a function word, stay as written
    assert [word_root(w) for w in ("bed", "red", "led", "shed")] == ["bed", "red", "led", "shed"]
    # no plural "s" after a vowel or a hissing sound: "Atlantis" is not "Atlantic" shortened
    assert word_root("atlantis") == "atlantis" and word_root("viruses") == word_root("virus")
    # a word ending in "-er" has one root in all its forms: "bordered" is "border"'s,
    # "discoverer" "discovered"'s
    assert word_root("bordered") == word_root("borders") == word_root("border")
    assert word_root("discoverer") == word_root("discovered") == word_root("discover")


def test_contractions_of_stopwords_are_stopwords() -> None:
    # an asker's "I'm", "don't" and "we're" say nothing a source could match
    said = "I'm pulling down files we don't need, and we’re stuck"
    assert keywords(said) == ["pulling", "files", "need", "stuck"]
    assert term_set("what's the catch") == term_set("the catch")


def test_a_one_letter_numeral_ending_a_name_is_a_term_the_pronoun_is_not() -> None:
    assert content_terms("When did World War I end?") == ["world", "war", "#i", "end"]
    assert "#i" not in content_terms("World War II began")
    assert content_terms("In CI I want the job to fail") == ["ci", "want", "job", "fail"]
    assert content_terms("Can I declare it") == ["declare"]
    assert "#v" in content_terms("The Saturn V flew")
    # a search query reads the numeral as a search engine does
    assert keywords("When did World War I end?") == ["world", "war", "i", "end"]
    assert title_phrases("When did World War I end") == ["World War I"]
    assert title_phrases("In CI I want the job") == ["CI"]


def test_a_version_after_a_slash_is_part_of_an_acronyms_name() -> None:
    # "HTTP/2" is not "HTTP/3"; a path ("orders/5") is no name
    assert "http/2" in term_set("Does the server do HTTP/2 at all?")
    assert {"http", "http/1.1", "http/3"} <= term_set("supports HTTP/1.1 and HTTP/3")
    assert keywords("Does it do HTTP/2") == ["http", "HTTP/2"]
    assert not {t for t in term_set("GET /orders/5 returns it") if "/" in t}


def test_an_indefinite_pronoun_ending_a_compound_stands_for_any() -> None:
    assert "x-forwarded" in term_set("trust every X-Forwarded-whatever header")
    assert "state-of-the-art" in term_set("a state-of-the-art design")
