"""Words that single out one thing of a kind: superlatives, their degrees, ranks below."""

from __future__ import annotations

from deepresearch.offline.ranks import (
    degree_twins,
    narrowed,
    of_a_group,
    one_of_several,
    ranked_below,
    same_degree,
)


def test_a_superlative_made_one_of_several_by_the_words_before_it() -> None:
    assert one_of_several(["It", "is", "one", "of", "the", "world's"])
    assert one_of_several(["The", "range", "has", "some", "of", "the", "Earth's"])
    assert one_of_several(["It", "ranks", "among", "the"])
    assert not one_of_several(["It", "is", "the"])
    # only the few words just before count
    assert not one_of_several(["One", "of", "its", "rivers", "is", "far", "away", "and", "the"])


def test_a_superlative_is_answered_by_its_own_degree_or_a_twin() -> None:
    assert same_degree("most populous", "largest")
    assert same_degree("highest mountain", "tallest")
    assert not same_degree("smallest country", "largest")
    assert not same_degree("largest country", "most populous")  # a degree qualified
    assert degree_twins("tallest") == ["highest"]
    assert ranked_below(["the", "12th", "largest"], 2)
    assert not ranked_below(["the", "largest"], 1)


def test_a_capitalised_word_right_after_a_superlative_names_a_group_within() -> None:
    asked = {"who", "received", "the", "first", "nobel", "prize", "in", "physics"}
    assert of_a_group(["American", "to", "win", "the", "Nobel", "Prize"], asked)
    assert not of_a_group(["recipient", "of", "the", "Nobel", "Prize"], asked)
    assert not of_a_group(["Nobel", "Prize", "in", "Physics"], asked)  # the part's own
    # made from a word of the part: the place it asks of
    assert not of_a_group(["Roman", "emperor"], {"first", "emperor", "of", "rome"})


def test_a_noun_joined_by_a_function_word_is_not_narrowed() -> None:
    assert narrowed(["hot", "desert", "in", "the", "world"], "desert")
    assert not narrowed(["desert", "in", "the", "world"], "desert")
    assert not narrowed(["recipient", "of", "the", "nobel"], "nobel")
