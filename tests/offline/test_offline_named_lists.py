"""Names listed in a clause, each asked of in a copy of the clause (offline/named_lists)."""

from __future__ import annotations

from deepresearch.offline.named_lists import is_name_word, split_names


def test_each_listed_name_gets_a_copy_of_the_clause() -> None:
    assert split_names("how did the music of Bach and Beethoven differ") == (
        ["how did the music of Bach differ", "how did the music of Beethoven differ"],
        [],
    )
    copies, _ = split_names("Compare the Sahara, the Gobi and the Atacama deserts")
    assert len(copies) == 3 and copies[2].endswith("the Atacama deserts")
    # a name's own particle joins it ("Mato Grosso do Sul"): no other item ends with it
    copies, _ = split_names("Which rivers cross Minas Gerais, Paraná and Mato Grosso do Sul")
    assert copies == [
        "Which rivers cross Minas Gerais",
        "Which rivers cross Paraná",
        "Which rivers cross Mato Grosso do Sul",
    ]


def test_one_thing_of_two_names_stays_whole() -> None:
    assert split_names("What was the war between Britain and France") == (
        ["What was the war between Britain and France"],
        [],
    )
    assert split_names("Where is Bosnia and Herzegovina") == (
        ["Where is Bosnia and Herzegovina"],
        [],
    )
    lying = "Which park lies between the cities of Nouadhibou and Nouakchott"
    assert split_names(lying) == ([lying], [])
    # "between" asking of the names' years, not joining them: two things asked of
    copies, _ = split_names(
        "Between which years were the Wars of the Roses and the Second War fought"
    )
    assert len(copies) == 2
    # a comma ends the phrase "between" opens: the names after it are listed
    copies, _ = split_names("Between the wars, what did Bach and Handel write")
    assert len(copies) == 2


def test_a_last_conjunct_after_the_names_is_a_part_of_its_own() -> None:
    copies, extra = split_names("Compare Confucius and Laozi and the traditions they founded")
    assert copies == ["Compare Confucius", "Compare Laozi"]
    assert extra == ["the traditions they founded"]


def test_a_name_word_is_capitalised_and_no_function_word() -> None:
    assert is_name_word("Bach,") and not is_name_word("The") and not is_name_word("music")


def test_names_each_placed_by_the_same_preposition_are_copied_with_their_place() -> None:
    copies, _ = split_names("Sakha in Russia and Guangdong in China are both enormous")
    assert copies == ["Sakha in Russia are enormous", "Guangdong in China are enormous"]
    copies, _ = split_names("Ibadan in Nigeria and Indore in India: which state is it in")
    assert copies == [
        "Ibadan in Nigeria: which state is it in",
        "Indore in India: which state is it in",
    ]
    # one place of two names stays theirs: "in" does not follow the second
    assert split_names("what rivers flow in France and Spain")[0] == [
        "what rivers flow in France",
        "what rivers flow in Spain",
    ]


def test_names_before_a_colon_stay_whole_when_the_question_names_one_of_them() -> None:
    # the topics of the questions after them, each naming the one it asks of
    topics = "Bruckner and Mahler: what nationality was Bruckner"
    assert split_names(topics) == ([topics], [])


def test_a_list_from_the_clauses_first_word_is_not_cut_into_garbled_copies() -> None:
    # which words before the first comma are a name, and which lead in, is not told
    clause = "Aruba, Bonaire and Curaçao lie just off the coast of a South American country"
    assert split_names(clause) == ([clause], [])
    # a list after the clause's first word is still one name per copy
    assert split_names("Where do Aruba, Bonaire and Curaçao lie")[0] == [
        "Where do Aruba lie", "Where do Bonaire lie", "Where do Curaçao lie"
    ]  # fmt: skip
