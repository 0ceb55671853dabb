"""Parts asking of "each" of the things listed before them (offline decomposition)."""

from __future__ import annotations

from deepresearch.offline.alternatives import alternatives, asks_of_each
from deepresearch.offline.parts import question_parts


def test_a_part_asks_of_each_thing_by_these_words() -> None:
    assert asks_of_each("What do Cargo's commands for each approach do")
    assert asks_of_each("What does each of them cost")
    assert asks_of_each("Can both of them write the file back")
    assert not asks_of_each("Which one fits my problem")
    assert not asks_of_each("How do they relate to each other")


def test_the_alternatives_are_the_split_clause_or_the_items_listed_last() -> None:
    siblings = ["Should I keep a list sorted,", "Should I use heapq"]
    assert alternatives(["Tasks keep arriving", *siblings], siblings) == [
        "Should I keep a list sorted",
        "Should I use heapq",
    ]
    listed = "I want nicer reports in two situations: errors logged by the service, and crashes"
    assert alternatives([listed], []) == ["errors logged by the service", "crashes"]
    # "and" alone joins the words of one item; four items are a list, not alternatives
    assert alternatives(["It is evenly sized and filling the width"], []) == []
    assert alternatives(["a, and b, and c, and d"], []) == []


def test_a_part_asking_of_each_alternative_is_asked_once_per_alternative() -> None:
    built = question_parts(
        "Our build servers have no internet access. Can I download all dependencies ahead of"
        " time, or should I copy their source code into our repository? What do Cargo's"
        " commands for each approach do?"
    )
    texts = [p.text for p in built]
    assert texts[-2:] == [
        "What do Cargo's commands for each approach do: Can I download all dependencies ahead of time",
        "What do Cargo's commands for each approach do: should I copy their source code into our repository",
    ]
    # each searched with its own alternative's words, not the other's
    assert "download" in built[-2].query.split() and "copy" not in built[-2].query.split()
    assert "copy" in built[-1].query.split() and "download" not in built[-1].query.split()


def test_each_of_several_names_is_left_to_the_names() -> None:
    # "Osiris and Anubis": one copy per name already, not per item
    built = question_parts(
        "Who were the two men who first stood on Everest, and where was each of them from?"
    )
    assert len(built) == 2
