"""Words that single out one thing of a kind: superlatives, their degrees, ranks below."""

from __future__ import annotations

from deepresearch.offline.ranks import degree_twins, one_of_several, ranked_below, same_degree


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
