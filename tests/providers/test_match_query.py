"""Reading a search query: content words and quoted phrases as FTS5 MATCH expressions."""

from __future__ import annotations

from deepresearch.providers.match_query import build_match_query, phrase_match_query


def test_build_match_query_quotes_content_words() -> None:
    assert build_match_query('What is "Light" energy, light?') == '"light" OR "energy"'
    assert build_match_query("the of and") is None


def test_a_quoted_phrase_of_several_words_is_matched_as_written() -> None:
    query = '"the first emperor of China" "Qin" who?'
    assert phrase_match_query(query) == '"the first emperor of china"'
    assert phrase_match_query("the first emperor of China") is None
    assert phrase_match_query('"x* OR (y)"') == '"x or y"'  # no FTS5 syntax gets through


def test_the_measure_a_how_question_asks_for_is_not_searched() -> None:
    """In "How old is the universe", "old" is the kind of answer, not the subject
    (searched, it ranks *Old age* first); "old" as a subject is searched."""
    assert build_match_query("How old is the universe?") == '"universe"'
    assert build_match_query("how long did the dynasty last") == '"dynasty" OR "last"'
    assert build_match_query("old universe") == '"old" OR "universe"'
    assert build_match_query("How did the old town grow?") == '"old" OR "town" OR "grow"'
