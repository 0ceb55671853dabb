from deepresearch.offline.roots import names_of, says_all, says_any, speaks_of_any, text_roots


def test_a_word_made_from_a_short_name_speaks_of_it_when_choosing_sources() -> None:
    """The entry on Augustus, "the first Roman emperor", speaks of Rome; the same-word
    test that decides whether a part is answered stays strict."""
    rome = text_roots("Rome")
    augustus = text_roots(
        "Augustus was the founder of the Roman Empire and the first Roman emperor"
    )
    assert speaks_of_any(rome, augustus)
    assert not speaks_of_any(rome, text_roots("The Pantheon was a temple of the empire"))
    assert not says_any(rome, augustus)  # the strict test, for answered or not


def test_a_word_with_a_hyphen_is_the_word_without() -> None:
    assert says_any(text_roots("man-made"), text_roots("about 80 manmade mounds"))
    assert says_any(text_roots("email"), text_roots("an e-mail client"))


def test_a_word_in_a_longer_form_is_the_same_word_unless_too_short_to_tell() -> None:
    assert says_all(text_roots("China Europe"), text_roots("Chinese and European trade"))
    assert not says_all(text_roots("cat"), text_roots("a category of its own"))


def test_a_capitalised_word_after_a_or_an_is_a_kind_not_a_name() -> None:
    assert names_of("Does it accept an API key or a Boolean flag from Python?") == ["Python"]


def test_a_compound_says_its_last_word_too() -> None:
    roots = text_roots("Irving Berlin was a Russian-born songwriter who co-founded a firm")
    assert {"russian-born", "born"} <= roots and says_all(text_roots("founded"), roots)
    assert "for" not in text_roots("the X-Forwarded-For header")  # a function word says nothing
