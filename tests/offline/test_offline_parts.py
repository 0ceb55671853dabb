"""Question parts, entities and bridge entities: syntax and ranking only, no topic words."""

from __future__ import annotations

from deepresearch.offline.asking import (
    asks_for_entity,
)
from deepresearch.offline.parts import (
    MAX_PARTS,
    agent_query,
    follows_names,
    question_parts,
)
from deepresearch.text import words


def test_words_of_any_script_are_words() -> None:
    assert words("Königsberg-born Röntgen's theory of Dalí") == [
        "königsberg-born", "röntgen", "theory", "of", "dalí"
    ]  # fmt: skip


def test_a_clause_of_function_words_is_still_a_part() -> None:
    parts = question_parts("What is Tetris, who made it, and what are the pieces called?")
    assert [p.text for p in parts][:2] == ["What is Tetris", "who made it"]
    assert parts[1].refers_back and parts[1].query == "tetris"


def test_a_bare_question_word_shares_the_clause_beside_it() -> None:
    texts = [p.text for p in question_parts("How and when did the empire split?")]
    assert texts == ["How and when did the empire split"]
    texts = [p.text for p in question_parts("Who built the first radio, and when?")]
    assert texts == ["Who built the first radio, and when"]
    # ... but one ending its sentence asks of the clause it ends
    texts = [p.text for p in question_parts("The build is slow, why? And can I cache it?")]
    assert texts == ["The build is slow, why", "And can I cache it"]
    texts = [
        p.text for p in question_parts("Which war began it, and where and when was it signed?")
    ]
    assert texts == ["Which war began it", "where and when was it signed"]
    question = "What did they decide about retries and timeouts, and why?"
    assert [p.text for p in question_parts(question)] == [  # asked of each thing named
        "What did they decide about retries, and why",
        "What did they decide about timeouts, and why",
    ]


def test_question_phrases_fronted_before_one_verb_each_ask_with_it() -> None:
    question = "With what event, and on what date, did the imperial era of Japan begin?"
    assert [p.text for p in question_parts(question)] == [
        "With what event did the imperial era of Japan begin",
        "on what date did the imperial era of Japan begin",
    ]
    # ... a phrase of three words after its question word too, and one of function words
    question = "Which role, in which 1960 historical epic, is considered her finest performance?"
    assert [p.text for p in question_parts(question)] == [
        "Which role is considered her finest performance",
        "in which 1960 historical epic is considered her finest performance",
    ]
    # a phrase ending the clause before, or a question of its own after "?", is not fronted
    question = "what prize did she win and in what year, and was she the first to get it"
    assert "in what year was she the first to get it" not in [
        p.text for p in question_parts(question)
    ]
    texts = [p.text for p in question_parts("I put 256 into a u8: what happens? Is it an error?")]
    assert not any(t.startswith("what happens Is") for t in texts)


def test_parts_beyond_the_limit_share_the_last_part() -> None:
    parts = question_parts(
        "Compare Athens, Sparta, Corinth, Thebes, Argos and Megara, and who led each?"
    )
    assert len(parts) == MAX_PARTS
    assert {"argos", "megara", "lead"} <= parts[-1].terms  # nothing asked is dropped


def test_names_the_story_lists_stay_together_when_the_questions_need_the_parts() -> None:
    question = (
        "One state, named after a saint, is bordered by Minas Gerais, Paraná, Rio de Janeiro "
        "and Goiás. Its capital has a motto: what is it and what does it mean? And what are "
        "its people called?"
    )
    texts = [p.text for p in question_parts(question)]
    assert texts[1] == "is bordered by Minas Gerais, Paraná, Rio de Janeiro and Goiás"
    assert texts[-1] == "And what are its people called" and len(texts) == MAX_PARTS


def test_parts_asking_what_a_thing_did_follow_the_names_of_its_sources() -> None:
    tesla, panda, how = (
        question_parts(q)[0]
        for q in (
            "What did Tesla contribute to electric power?",
            "What does the giant panda eat?",
            "How did the printing press change Europe?",
        )
    )
    assert not asks_for_entity(tesla.text)  # it is about the thing it names...
    assert follows_names(tesla) and follows_names(panda)  # ...whose deeds are entries
    assert not follows_names(how)


def test_coordinated_names_anywhere_in_a_clause_are_parts_of_their_own() -> None:
    parts = [p.text for p in question_parts("How did the music of Bach and Beethoven differ?")]
    assert parts == ["How did the music of Bach differ", "How did the music of Beethoven differ"]
    listed = [p.text for p in question_parts("Compare the Sahara, the Gobi and the Atacama deserts.")]  # fmt: skip
    assert listed == [
        "Compare the Sahara deserts", "Compare the Gobi deserts", "Compare the Atacama deserts"
    ]  # fmt: skip
    # a one-word name before a plural head shares that head, in the singular
    shared = [p.text for p in question_parts("How did the Dutch and the English East India Companies compare?")]  # fmt: skip
    assert shared == [
        "How did the Dutch East India Company compare", "How did the English East India Company compare"
    ]  # fmt: skip
    # ... but a longer last name is a name of its own, not a head to share
    names = [p.text for p in question_parts("Compare Picasso and Vincent van Gogh")]
    assert names == ["Compare Picasso", "Compare Vincent van Gogh"]
    # "the" inside a name joins it; the last item's closing mark ends each item
    inner = [p.text for p in question_parts("Compare Suleiman the Magnificent and Mehmed II: their wars")]  # fmt: skip
    assert inner == [
        "Compare Suleiman the Magnificent: their wars",
        "Compare Mehmed II: their wars",
    ]


def test_a_span_between_two_ends_is_one_part() -> None:
    for question in (
        "What was the war between Britain and France about?",
        "Which manuscripts were found between 1946 and 1956?",
    ):
        assert len(question_parts(question)) == 1, question


def test_two_things_a_subject_does_are_two_parts_with_their_own_verbs() -> None:
    parts = question_parts("How can I run a shell command and capture its output?")
    assert [p.text for p in parts] == [
        "How can I run a shell command",
        "How can I capture its output",
    ]
    assert parts[1].refers_back  # "its": the command's
    # two objects of one verb keep the verb
    parts = question_parts("Who painted the Mona Lisa and the Last Supper?")
    assert [p.text for p in parts] == ["Who painted the Mona Lisa", "Who painted the Last Supper"]
    # after "with X", a bare verb is what else the subject would do, not a second X
    parts = question_parts("Should I keep a list sorted with bisect.insort, or use heapq?")
    assert [p.text for p in parts] == [
        "Should I keep a list sorted with bisect.insort,",
        "Should I use heapq",
    ]
    parts = question_parts("Did the city grow under the Romans or under the Greeks?")
    assert [p.text for p in parts][1] == "Did the city grow under the Greeks"
    # a conjunct without an article mirrors the whole noun phrase, from its article
    parts = question_parts(
        "Should I go with an INI file read by configparser or TOML read by tomllib?"
    )
    assert [p.text for p in parts][1] == "Should I go with TOML read by tomllib"


def test_names_a_singular_verb_speaks_of_are_one_thing() -> None:
    # a title or a country named with "and": the verb before it says it is one thing
    parts = question_parts("What is Pride and Prejudice about, and when was it published?")
    assert [p.text for p in parts] == ["What is Pride and Prejudice about", "when was it published"]
    assert len(question_parts("Where is Bosnia and Herzegovina?")) == 1
    # a plural verb speaks of two
    assert len(question_parts("Who were Gilbert and Sullivan?")) == 2


def test_a_part_pointing_back_borrows_every_name_of_the_first_clause() -> None:
    question = "How were Germany and Italy unified, and who led each effort?"
    *_, led = question_parts(question)
    assert led.refers_back
    assert {"germany", "italy"} <= led.terms and {"germany", "italy"}.isdisjoint(led.own)
    # "then" is the time the first clause names
    *_, then = question_parts(
        "What was the Edo period in Japan, and who governed the country then?"
    )
    assert then.refers_back and {"edo", "period"} <= then.terms


def test_a_part_pointing_back_borrows_the_name_asked_about_first() -> None:
    """It borrows a few words: the names of what the first clause asks about come first
    ("it" is the river, not what Brazilians call it), but not when the first clause asks
    for another thing, which "it" then is (the republic, not 'El Libertador')."""
    *_, long = question_parts(
        "What do Brazilians locally call the São Francisco River, and how long is it?"
    )
    assert {"francisco", "river"} <= long.terms
    *_, include = question_parts(
        "What short-lived republic did 'El Libertador' lead in northern South America, "
        "and which present-day countries did it include?"
    )
    assert {"short-lived", "republic"} <= include.terms


def test_an_including_phrase_is_a_part_of_its_own() -> None:
    parts = question_parts(
        "Compare A. Smith and B. Jones as painters, including Smith's best portrait."
    )
    assert parts[-1].text == "which is Smith's best portrait"
    assert asks_for_entity(parts[-1].text)


def test_a_last_conjunct_after_two_names_is_a_part_that_asks_for_a_thing() -> None:
    parts = question_parts("Compare Confucius and Laozi and the traditions they founded.")
    assert [p.text for p in parts] == [
        "Compare Confucius",
        "Compare Laozi",
        "the traditions they founded",
    ]
    assert parts[1].query == "laozi"  # a name alone does not borrow the first clause's words
    assert parts[2].refers_back and asks_for_entity(parts[2].text)


def test_a_who_part_asks_for_its_doer_by_the_agent_noun() -> None:
    telephone, radio = question_parts("Who invented the telephone and who invented the radio?")
    # the part's words are those its answer's entry uses ("the inventor of radio")
    assert radio.terms == {"inventor", "radio"} and radio.own == {"inventor", "radio"}
    assert agent_query(telephone) == "telephone inventor"
    first, founded = question_parts("What is Buddhism, and who founded it?")
    # a part that points back keeps its verb (matched by root), and searches the noun
    assert founded.refers_back and "founded" in founded.terms
    assert agent_query(founded) == "buddhism founder"
    assert agent_query(first) is None
    assert agent_query(question_parts("Who was Carl Linnaeus?")[0]) is None


def test_names_that_are_the_clauses_subject_may_open_it() -> None:
    subject = [p.text for p in question_parts("Adam Smith and Keynes are both called what?")]
    # "both" speaks of the two names, not of an earlier part: neither copy points back
    assert subject == ["Adam Smith are called what", "Keynes are called what"]
    each = question_parts("What did Edison and Tesla each contribute to electric power?")
    assert [p.text for p in each] == [
        "What did Edison contribute to electric power", "What did Tesla contribute to electric power"
    ]  # fmt: skip
    assert not any(p.refers_back for p in each) and each[1].terms == {
        "tesla", "contribute", "electric", "power"
    }  # fmt: skip
    # an imperative opening the clause is not part of the first name
    assert [p.text for p in question_parts("Compare Picasso and Dalí")] == [
        "Compare Picasso", "Compare Dalí"
    ]  # fmt: skip


def test_names_before_a_colon_or_a_dash_are_the_topic_of_the_clause() -> None:
    owens, bolt = question_parts(
        "Jesse Owens and Usain Bolt: how many golds did each sprinter win?"
    )
    assert [owens.text, bolt.text] == [
        "Jesse Owens: how many golds did each sprinter win",
        "Usain Bolt: how many golds did each sprinter win",
    ]
    # "each" is Owens or Bolt, whichever the copy names: nothing is borrowed
    assert not bolt.refers_back and "owens" not in bolt.terms
    dashed = question_parts("Mont Blanc, Mount Elbrus and Mount Everest - how tall is each?")
    assert [p.text for p in dashed] == [
        "Mont Blanc - how tall is each", "Mount Elbrus - how tall is each",
        "Mount Everest - how tall is each",
    ]  # fmt: skip
    titled = question_parts("Ivan the Terrible and Peter the Great: who was crowned first?")
    assert [p.text for p in titled] == [
        "Ivan the Terrible: who was crowned first", "Peter the Great: who was crowned first"
    ]  # fmt: skip


def test_one_names_copy_borrows_none_of_the_other_names() -> None:
    _, rousseau = question_parts(
        "Explain the Age of Enlightenment and the roles Voltaire and Rousseau played in it."
    )
    # "it" points back, but to the age, not to Voltaire
    assert rousseau.refers_back and "voltaire" not in rousseau.terms
    assert {"enlightenment", "rousseau"} <= rousseau.terms


def test_a_copy_that_says_it_still_points_back() -> None:
    _, ashoka, kanishka = question_parts(
        "Who founded Buddhism, and what did Ashoka and Kanishka do for it?"
    )
    # "it" is Buddhism, not one of the names the clause was copied for
    assert ashoka.refers_back and kanishka.refers_back and "buddhism" in kanishka.terms


def test_a_word_the_shared_head_ends_with_is_not_repeated() -> None:
    parts = question_parts("Which config fields serve as the master switch and as the threshold?")
    assert [p.text for p in parts] == [
        "Which config fields serve as the master switch",
        "Which config fields serve as the threshold",
    ]


def test_a_difference_between_several_things_is_one_part() -> None:
    (part,) = question_parts("What is the difference between Box, Rc and RefCell?")
    assert {"box", "rc", "refcell"} <= part.terms


def test_each_question_mark_ends_a_question() -> None:
    parts = question_parts(
        "When should I use match and when if let? What do I give up with if let?"
    )
    assert [p.text for p in parts] == [
        "When should I use match",
        "when if let",
        "What do I give up with if let",
    ]
    built = question_parts("When was it built? Who built it?")
    assert [p.text for p in built] == ["When was it built", "Who built it"]
    assert built[1].refers_back


def test_a_phrase_saying_how_to_answer_leads_into_the_question_after_it() -> None:
    """ "Put simply" is no part of its own, and "it" after it is the wage asked about."""
    built = question_parts(
        "Put simply, what is a wage, and does an employer still owe it when the company"
        " isn't making money?"
    )
    assert [p.text for p in built] == [
        "Put simply, what is a wage",
        "does an employer still owe it when the company isn't making money",
    ]
    assert built[0].query == "wage"
    assert "wage" in built[1].query.split() and "simply" not in built[1].query.split()


def test_a_part_pointing_back_by_another_noun_than_the_kind_asked_borrows_the_names() -> None:
    """ "that channel" is not the ports asked for: it is the water the clause names."""
    built = question_parts(
        "Which two ports are linked by ferry across the stretch of water separating New"
        " Zealand's North Island from the South Island, and how narrow does that channel get?"
    )
    assert built[1].refers_back
    assert built[1].query.split()[2:] == ["new", "zealand", "north", "island"]
    # pointing back by the kind asked for, it borrows the first clause's words in order
    built = question_parts(
        "Which republic did Bolivar lead, and which countries did that republic include?"
    )
    assert built[1].query.split()[-2:] == ["bolivar", "lead"]


def test_a_question_word_and_its_word_share_the_verb_of_the_one_after() -> None:
    texts = lambda q: [p.text for p in question_parts(q)]  # noqa: E731
    assert texts("How tall and how heavy is an adult impala?") == [
        "How tall is an adult impala",
        "how heavy is an adult impala",
    ]
    # one asked with a verb of its own keeps it
    assert texts("How tall is it and how heavy was the calf?") == [
        "How tall is it",
        "how heavy was the calf",
    ]


def test_a_bare_condition_stays_with_the_question_it_leads_into() -> None:
    texts = lambda q: [p.text for p in question_parts(q)]  # noqa: E731
    assert texts("Can Cargo do that? If not, what should I use?") == [
        "Can Cargo do that",
        "If not, what should I use",
    ]
    # a condition after "and" leads the next question, not the clause before it
    assert texts("Can I delete it from the registry, and if I pull it, what happens?") == [
        "Can I delete it from the registry",
        "if I pull it, what happens",
    ]
    # ... and so does a reason after "and"
    assert texts(
        "How do I activate the environment in bash now, and since I installed Poetry with "
        "pipx, how do I add a plugin?"
    ) == [
        "How do I activate the environment in bash now",
        "since I installed Poetry with pipx",
        "how do I add a plugin",
    ]
    # a scene with words of its own is what the question is about: a part
    assert texts("If I put 256 into a u8, what happens?") == [
        "If I put 256 into a u8",
        "what happens",
    ]


def test_a_gathered_title_the_question_gives_whole_is_one_part() -> None:
    """Syntax alone reads "War and Peace" as two things, as it must "Marx and Engels": a
    gathered title joined by "and" that the question gives whole (any case, the title's
    bracketed qualifier left out) says it is one."""
    titles = ["War and Peace (novel)", "Rock and roll", "Karl Marx", "Friedrich Engels"]

    def texts(question: str, given: list[str]) -> list[str]:
        return [p.text for p in question_parts(question, given)]

    assert texts("Who wrote War and Peace?", []) == ["Who wrote War", "Who wrote Peace"]
    assert texts("Who wrote War and Peace?", titles) == ["Who wrote War and Peace"]
    assert texts("What is the history of rock and roll?", titles) == [
        "What is the history of rock and roll"
    ]
    assert texts("Who were Marx and Engels?", titles) == ["Who were Marx", "Who were Engels"]
    # The title is one thing; the question's other clauses are parts as before.
    parts = question_parts("Who wrote War and Peace and when did he die?", titles)
    assert [p.text for p in parts] == ["Who wrote War and Peace", "when did he die"]
    assert parts[1].refers_back and {"war", "peace"} <= parts[1].terms
    # names joined by "and" that open a longer title (the expedition they led) are one
    expedition = ["Lewis and Clark Expedition"]
    assert texts("Who were Lewis and Clark?", expedition) == ["Who were Lewis and Clark"]
    assert texts("Who were Lewis and Clark?", []) == ["Who were Lewis", "Who were Clark"]


def test_asking_for_a_name_searches_for_the_thing_named() -> None:
    (part,) = question_parts("What was the name of Buddy Holly's backing band?")
    assert part.text == "What was the name of Buddy Holly's backing band"
    assert "name" not in part.query.split()
    (part,) = question_parts("What does the name Cardiff mean?")
    assert "name" in part.query.split()


def test_a_title_with_small_words_inside_is_one_thing_in_a_list() -> None:
    question = "When were Gone with the Wind, War and Peace and Moby-Dick published?"
    titles = ["Gone with the Wind", "War and Peace", "Moby-Dick"]
    assert [p.text for p in question_parts(question, titles)] == [
        "When were Gone with the Wind published",
        "When were War and Peace published",
        "When were Moby-Dick published",
    ]
    # not gathered as a title: capitals alone cut it at "with the"
    cut = question_parts(question, ["War and Peace"])
    assert "When were Gone with War and Peace published" in [p.text for p in cut]


def test_a_leading_phrase_that_only_sets_the_scene_is_a_scene_part() -> None:
    """Searched with the rest, since its words are what the question is about, but never
    an unanswered part: it asks nothing."""
    parts = question_parts("Besides directing, what else did the director of Bicycle Thieves do?")
    assert [(p.text, p.scene) for p in parts] == [
        ("Besides directing", True),
        ("what else did the director of Bicycle Thieves do", False),
    ]
    # the last part is asked whatever it opens with
    assert not question_parts("Tell me about Rome, in short")[-1].scene


def test_a_clause_opening_with_an_approximation_before_how_is_a_part() -> None:
    question = "Which city lies across the river, and about how many mounds survive?"
    assert [p.text for p in question_parts(question)] == [
        "Which city lies across the river",
        "about how many mounds survive",
    ]
    texts = [p.text for p in question_parts("When was it built, and roughly how tall is it?")]
    assert texts == ["When was it built", "roughly how tall is it"]
    # ... also between a preposition and its question word
    question = "When was the empire founded, and across roughly what span is its religion dated?"
    assert [p.text for p in question_parts(question)] == [
        "When was the empire founded",
        "across roughly what span is its religion dated",
    ]


def test_the_larger_of_the_two_points_back_to_the_things_just_named() -> None:
    question = (
        "On which rivers do Zagreb and Warsaw stand, and how many live in the larger of the two?"
    )
    last = question_parts(question)[-1]
    assert last.refers_back and {"zagreb", "warsaw"} <= set(last.query.split())


def test_the_other_one_and_one_of_them_point_back_to_the_few_a_story_names() -> None:
    story = "Market failure is traced back to two Victorian writers, one of them Henry Sidgwick."
    last = question_parts(f"{story} Which principle is the other one known for?")[-1]
    assert last.refers_back and {"victorian", "sidgwick"} <= set(last.query.split())
    question = "Van 't Hoff co-founded a journal with two colleagues. Where was one of them born?"
    last = question_parts(question)[-1]
    assert last.refers_back and {"hoff", "journal"} <= set(last.query.split())
    # "either of those" points back to the two things the sentence just before tells of
    question = (
        "I installed tox as a tool. Tab after tox run does not complete my env names, and "
        "man tox finds nothing. Is either of those supposed to work?"
    )
    last = question_parts(question)[-1]
    assert last.refers_back and {"tab", "complete"} <= set(last.query.split())
    assert "installed" not in last.query.split()


def test_which_one_and_the_two_point_back_to_the_code_names_a_scene_gives() -> None:
    question = (
        "My script moves downloads to a mounted drive with os.rename and fails with a "
        "cross-device error, but shutil.move works. "
        "What is the difference between the two, and which one gives me an atomic move?"
    )
    scene, between, which = question_parts(question)
    assert scene.scene and not scene.refers_back
    for part in (between, which):
        assert part.refers_back
        assert {"os", "rename", "shutil", "move"} <= set(part.query.split())
        assert not {"script", "downloads", "drive"} & set(part.query.split())


def test_each_of_them_is_asked_of_each_alternative_with_its_words() -> None:
    question = (
        "Tasks keep arriving and I need the most urgent one next. "
        "Should I keep them in a sorted list or in a heap? What does each of them cost?"
    )
    *_, listed, heap = question_parts(question)
    assert listed.refers_back and heap.refers_back
    assert {"cost", "list"} <= set(listed.query.split()) and "heap" not in listed.query.split()
    assert {"cost", "heap"} <= set(heap.query.split()) and "list" not in heap.query.split()
    assert not {"tasks", "arriving"} & set(listed.query.split() + heap.query.split())


def test_each_effort_borrows_the_names_and_what_the_clause_says_of_them() -> None:
    question = (
        "Compare how Germany and Italy were unified in the 19th century and who led each effort."
    )
    last = question_parts(question)[-1]
    assert {"led", "effort", "germany", "italy", "unified"} <= set(last.query.split())


def test_which_one_after_a_part_pointing_back_looks_further_back() -> None:
    question = (
        "One colleague says use timeit, another says cProfile. "
        "Which one fits my problem, and what is each of them meant for?"
    )
    which, each = question_parts(question)[1:]
    assert {"timeit", "cprofile"} <= set(which.query.split())
    assert {"timeit", "cprofile"} <= set(each.query.split())


def test_the_two_are_named_by_a_part_that_points_back_but_says_more() -> None:
    question = (
        "I already have a folder with a few files in it. Should I run cargo new or cargo "
        "init to make it a project, and what is the difference between the two?"
    )
    last = question_parts(question)[-1]
    assert {"difference", "new", "init"} <= set(last.query.split())
    assert not {"folder", "files"} & set(last.query.split())


def test_a_part_pointing_back_after_a_scene_borrows_the_names_it_writes_as_code() -> None:
    question = (
        "Our cleanup code is full of try: os.remove(path) / except FileNotFoundError: pass "
        "blocks. Is there a neater way in the standard library to ignore just that one error?"
    )
    scene, asked = question_parts(question)
    assert scene.scene and asked.refers_back
    assert {"os", "remove"} <= set(asked.query.split())
    # a name in prose is not borrowed first: "that other lake" is none of those named
    question = (
        "By volume, Lake Turkana is the fourth-largest salt lake, behind the Caspian Sea, "
        "Lake Van and one other. In which mountain range does that other lake lie?"
    )
    assert "caspian" not in question_parts(question)[-1].query.split()


def test_the_two_followed_by_a_name_names_them_and_points_back_to_nothing() -> None:
    assert not question_parts("When did Spain lose its fleet, and what ended the two World Wars?")[
        -1
    ].refers_back


def test_a_name_with_its_own_capitalised_the_shares_no_plural_head() -> None:
    question = "When were the bands ABBA and The Beach Boys formed?"
    assert [p.text for p in question_parts(question)] == [
        "When were the bands ABBA formed",
        "When were the bands The Beach Boys formed",
    ]
    # a one-word name after "the", before a plural head, still modifies it
    question = "Compare the Dutch and the English East India Companies"
    assert [p.text for p in question_parts(question)] == [
        "Compare the Dutch East India Company",
        "Compare the English East India Company",
    ]


def test_a_statement_before_the_question_sets_its_scene() -> None:
    question = (
        "Hafnium is named after the city where it was discovered. "
        "How many people live in that city, and until when was it a capital?"
    )
    parts = question_parts(question)
    assert [(p.text, p.scene, p.refers_back) for p in parts] == [
        ("Hafnium is named after the city where it was discovered", True, False),
        ("How many people live in that city", False, True),
        ("until when was it a capital", False, True),
    ]
    # its words are what the question is about: the parts pointing back borrow them
    assert "hafnium" in parts[1].query.split()
    # a question of two sentences keeps both as parts
    texts = [p.text for p in question_parts("Who was Hypatia? Where did she teach?")]
    assert texts == ["Who was Hypatia", "Where did she teach"]
    # so does one typed in lower case: its sentences open with a small letter
    lower = question_parts(
        "hafnium is named after the city where it was discovered. how many people live there?"
    )
    assert [(p.text, p.scene) for p in lower] == [
        ("hafnium is named after the city where it was discovered", True),
        ("how many people live there", False),
    ]


def test_the_askers_situation_before_a_colon_is_no_part_its_words_borrowed() -> None:
    parts = question_parts(
        "Evaluating the library for a new project: which Python versions does the current "
        "release target?"
    )
    assert [p.text for p in parts] == ["Which Python versions does the current release target"]
    assert {"evaluating", "project"} <= parts[0].terms and not {"evaluating"} & parts[0].own
    # a phrase naming what is asked about, or followed by a statement, stays in the question
    assert question_parts("Bread wheat: what share of all wheat is that species?")[0].text == (
        "Bread wheat: what share of all wheat is that species"
    )
    told = question_parts("I'm reading about comics: the artist who drew it lived here. Where?")
    assert told[0].text.startswith("I'm reading about comics")


def test_a_later_part_naming_nothing_borrows_the_first_clauses_names() -> None:
    question = (
        "Which empress founded the Hermitage Museum, and since when have ordinary visitors "
        "been allowed in?"
    )
    last = question_parts(question)[-1]
    assert not last.refers_back
    assert last.query.split() == ["since", "ordinary", "visitors", "allowed", "hermitage", "museum"]
    # a part with a name of its own asks of that
    other = question_parts("Who founded the Hermitage Museum, and where is the Louvre?")[-1]
    assert "hermitage" not in other.query.split()


def test_a_short_part_of_its_own_borrows_the_first_questions_words_when_it_names_nothing() -> None:
    last = question_parts(
        "Where are macadamia trees native to, and how much was produced in 2025?"
    )[-1]
    assert last.query.split() == ["produced", "2025", "macadamia", "trees", "native"]
    # one asking the same of another thing does not, nor one after a scene
    radio = question_parts("Who invented the telephone, and who invented the radio?")[-1]
    assert "telephone" not in radio.query.split()
    scene = question_parts(
        "My nightly job got slower. What changed, and how much memory did the workers allocate?"
    )[-1]
    assert not {"nightly", "job", "slower"} & set(scene.query.split())


def test_after_the_askers_story_a_short_part_goes_on_from_the_question_just_asked() -> None:
    question = (
        "Our company index is hosted on GitLab, and it passes anonymous requests to PyPI. "
        "How do I make uv look up credentials for that index up front, and what happens if "
        "none can be found?"
    )
    last = question_parts(question)[-1]
    assert last.text == "what happens if none can be found"
    assert {"credentials", "index"} <= set(last.query.split())
    assert not {"gitlab", "pypi"} & set(last.query.split())
    # a phrase naming the question's topic is no story: its words are what is asked about
    casting = question_parts(
        "In die casting, how is the molten metal pushed into the mould, and what are the dies "
        "made from?"
    )[-1]
    assert {"die", "casting"} <= set(casting.query.split())


def test_after_the_askers_own_story_a_part_pointing_back_goes_on_from_the_question() -> None:
    question = (
        "Our CI cache for uv keeps ballooning. The uv page on caching recommends a pruning "
        "step for CI: what is it, and what does it throw away?"
    )
    last = question_parts(question)[-1]
    assert last.text == "what does it throw away"
    assert {"pruning", "caching"} <= set(last.query.split())
    assert not {"ballooning"} & set(last.query.split())
    # a question that points back in turn lends the words it borrowed too
    crate = question_parts(
        "I published a version of my crate that contains an API key. Can I delete that "
        "version from crates.io, and if I pull it, what happens to projects that use it?"
    )[-1]
    assert {"delete", "published", "crate"} <= crate.terms
    # a statement of facts names the topic a part points back to
    mountain = question_parts(
        "Shandong is home to the mountain most revered in Taoism. What is that mountain's "
        "tallest peak called, and how high is it?"
    )[-1]
    assert {"shandong", "mountain"} <= set(mountain.query.split())


def test_a_when_clause_with_a_subject_is_a_condition_not_a_question() -> None:
    question = (
        "On a CI box, uv pip install complained about a missing venv. How do I install into the "
        "machine's interpreter, and when I don't pass anything, where does uv look for an "
        "environment and in what order?"
    )
    parts = question_parts(question)
    assert [(p.text, p.scene) for p in parts[1:]] == [
        ("How do I install into the machine's interpreter", False),
        ("when I don't pass anything", True),
        ("where does uv look for an environment", False),
        ("in what order", False),
    ]
    # a one-word part after the story borrows the question just asked, not the story
    assert parts[-1].query.split() == ["order", "uv", "look", "environment"]
    # "when" before a verb asks for a time
    assert not question_parts("Who founded Rome, and when was it founded?")[-1].scene
    # a sentence opening with such a condition states the asker's story
    story = question_parts("When I run uv pip compile, resolution fails. How do I force it?")
    assert [(p.text, p.scene) for p in story] == [
        ("When I run uv pip compile, resolution fails", True),
        ("How do I force it", False),
    ]


def test_a_short_part_after_the_story_borrows_the_part_before_that_asks_a_kind() -> None:
    # "which volcano buried them" asks a kind of its own: "in what year" asks when the
    # volcano buried them, not when the towns were rediscovered
    question = (
        "For a school project I'm reading about Neoclassicism. The rediscovery of which two "
        "buried towns helped give rise to it, and which volcano buried them, in what year?"
    )
    year = question_parts(question)[-1]
    assert year.text == "in what year" and {"volcano", "buried"} <= year.terms
    assert "rediscovery" not in year.terms


def test_a_part_pointing_back_right_after_a_lead_in_asks_about_what_it_names() -> None:
    question = (
        "A nightly job keeps failing against a flaky upstream. Also, when the server hangs up "
        "in the middle of a response, what error class is that?"
    )
    lead_in, asked = question_parts(question)[-2:]
    assert lead_in.scene
    assert {"server", "hangs", "response"} <= set(asked.query.split())
    assert not {"nightly", "flaky"} & set(asked.query.split())
    # a person pointed back to is named before the lead-in ("Apart from DNA")
    chemist = question_parts(
        "James Watson's 1953 double-helix paper built on the work of an English chemist. "
        "Apart from DNA, which other materials did her research help explain?"
    )[-1]
    assert "watson" in chemist.query.split()


def test_the_clauses_of_a_stated_sentence_tell_the_story_rather_than_ask() -> None:
    question = (
        "Our build agents export a proxy in the shell, which breaks tests that talk to "
        "services on localhost. How can I exempt certain hosts?"
    )
    parts = question_parts(question)
    assert [(p.text, p.scene) for p in parts] == [
        ("Our build agents export a proxy in the shell", True),
        ("which breaks tests that talk to services on localhost", True),
        ("How can I exempt certain hosts", False),
    ]


def test_a_part_whose_that_opens_a_clause_does_not_point_back() -> None:
    parts = question_parts(
        "Where does pip read its settings, and which variable names a file that is loaded first?"
    )
    assert not parts[-1].refers_back
    assert question_parts("Who built the Colosseum, and what was that building used for?")[
        -1
    ].refers_back


def test_the_phrases_of_a_stated_sentence_are_one_story_not_several() -> None:
    # "and" inside a told story joins what happened; cut, it gave "On top of that, get an
    # error" (the subject lost) or "my checkout adds prices the total shows 0.3"
    question = (
        "On top of that, users keep typing -h and get an error. "
        "How do I keep the line breaks, hide the notes, and make -h work?"
    )
    assert [p.text for p in question_parts(question)] == [
        "On top of that, users keep typing -h and get an error",
        "How do I keep the line breaks",
        "How do I hide the notes",
        "How do I make -h work",
    ]


def test_a_question_after_a_dash_is_cut_from_a_question_or_a_joined_clause() -> None:
    # a clause joined by "and" that a dash question closes asks of its own
    question = (
        "How do I make httpx trust the OS certificate store, and one internal service "
        "insists on our own certificate - how do I hand that over?"
    )
    assert [p.text for p in question_parts(question)] == [
        "How do I make httpx trust the OS certificate store",
        "one internal service insists on our own certificate - how do I hand that over",
    ]
    # a direct question before the dash is another question, the one after pointing back
    parts = question_parts("How do I raise the limit on connections - what is it by default?")
    assert [p.text for p in parts] == [
        "How do I raise the limit on connections",
        "what is it by default",
    ]
    assert parts[1].refers_back
    # a statement before the dash is what the question asks about; a verb joined by "and"
    # goes on with the clause before it
    for kept in (
        "When the output path is bad the error only shows up late - why is that?",
        "I want the password asked without echo, and entered twice - is there a shortcut?",
    ):
        assert [p.text for p in question_parts(kept)] == [kept.rstrip("?")]


def test_an_amount_asked_before_its_verb_keeps_the_verb_after_the_comma() -> None:
    question = "Roughly how much of the island, by area, is forest, and is it protected?"
    assert [p.text for p in question_parts(question)] == [
        "Roughly how much of the island, by area, is forest",
        "is it protected",
    ]
    # "is" inside "his" is no verb
    his = question_parts("How much of his estate, by value, is land, and is it taxed?")
    assert his[0].text == "How much of his estate, by value, is land"


def test_a_clue_before_a_dash_bringing_in_what_the_question_points_to_is_told() -> None:
    question = (
        "Before the sculptor moved to Paris he taught in another city - what river runs "
        "through that city?"
    )
    clue, river = question_parts(question)
    assert clue.text == "Before the sculptor moved to Paris he taught in another city"
    assert clue.scene and not clue.refers_back
    assert river.refers_back and {"paris", "teach", "city"} <= river.terms
    # a thing pointed to that the clue does not bring in leaves it one question
    kept = "The sculptor taught in Paris - what river runs through that city?"
    assert [p.text for p in question_parts(kept)] == [kept.rstrip("?")]
    # "the" points back after a dash to a thing the clue gives as someone's
    given = "The sculptor worked with his younger sister Ilse Varga - where was the sister born?"
    told, born = question_parts(given)
    assert told.scene and born.text == "where was the sister born"
    assert {"ilse", "varga", "sister", "born"} <= born.terms


def test_a_later_part_asking_of_a_gathered_title_borrows_nothing() -> None:
    question = (
        "What is cotton fibre mostly made of chemically, and which plant was papyrus made from?"
    )
    _, papyrus = question_parts(question, ["Cotton", "Papyrus"])
    assert papyrus.query == "plant papyrus"
    # without the title it asks the same of another thing, as before
    _, unnamed = question_parts(question)
    assert "cotton" in unnamed.query.split()
    # "the bird" is the one spoken of before, not the entry *Bird*
    raven = "When was Poe's poem The Raven published, and what single word does the bird keep repeating?"
    _, bird = question_parts(raven, ["The Raven", "Bird"])
    assert "raven" in bird.query.split()


def test_a_part_counting_people_searches_for_their_population() -> None:
    (part,) = question_parts("How many people live in Bashkortostan?")
    assert part.query.split()[-1] == "population"


def test_a_bare_instead_borrows_what_the_asker_said_first() -> None:
    question = (
        "Our nightly export writes every row with print() and a hand-built comma join. "
        "Why does it break on names with commas, and what should I use instead?"
    )
    *_, instead = question_parts(question)
    assert instead.refers_back
    # the asker's own approach, told where the question opens, not the "why" part's words
    assert {"nightly", "export"} <= set(instead.query.split())
    # "instead of …" names its alternative itself and points back to nothing
    alone = question_parts("Who painted the ceiling, and why use fresco instead of oil paint?")
    assert not alone[-1].refers_back


def test_a_phrase_after_and_that_a_question_follows_is_the_scene_that_question_is_asked_in() -> (
    None
):
    question = (
        "When was the bridge opened, and under the toll scheme that paid for the works, how "
        "long did the tolls last?"
    )
    opened, scheme, lasted = question_parts(question)
    assert opened.text == "When was the bridge opened"
    assert scheme.text == "under the toll scheme that paid for the works"
    # the question after the scene is asked within it
    assert {"toll", "scheme"} <= set(lasted.query.split())
    engines = question_parts(
        "How is the fuel ignited in a diesel engine, and in a steam turbine, what turns the rotor?"
    )
    assert "turbine" in engines[-1].query.split()
    assert "diesel" not in engines[-1].query.split()
    # a phrase with a pronoun of its own asks of what the part before names: it stays there
    town = question_parts(
        "When was the castle built, and in the town where it stands, which river flows through?"
    )
    assert town[0].text == "When was the castle built, and in the town where it stands"
    # a condition that only points back lends nothing ("if we keep them together anyway")
    kept = question_parts(
        "Is one repository right for both apps, and if we keep them together anyway, how do "
        "we build each app alone?"
    )
    assert "anyway" not in kept[-1].query.split()
    # a part pointing back asks of an earlier answer, not of the scene before it
    band = question_parts(
        "What minimum share do the top teams keep, and in the payout table of the league, "
        "which band does that minimum fall into?"
    )
    assert band[-1].refers_back and "payout" not in band[-1].query.split()


def test_a_condition_opening_the_question_is_a_scene_the_question_after_it_is_asked_in() -> None:
    question = (
        "When people go underwater, what condition limits how deep they can go, and what "
        "has been created to extend that?"
    )
    parts = question_parts(question)
    assert parts[0].text == "When people go underwater" and parts[0].scene
    assert "underwater" in parts[1].query.split()
    # ... only where the question goes on after a comma: before "and" it asks when
    died, _buried = question_parts("When Napoleon died and where was he buried?")
    assert died.text == "When Napoleon died" and not died.scene
    # a topic the question opens with is no condition: searched as it is, lending nothing
    (_, switch) = question_parts("In the document for Python 2.0, which switch was added?")
    assert "document" not in switch.query.split()


def test_a_condition_before_am_i_asks_and_what_else_asks_on_from_it() -> None:
    question = (
        "We let customers write their own email templates. If I render them with the "
        "sandboxed environment, am I fully safe? What else should I be doing on top of it?"
    )
    _story, safe, besides = question_parts(question)
    assert not safe.scene and safe.text.endswith("am I fully safe")
    # "it" is the sandboxed environment; "else" and "on top of" name nothing asked about
    said = besides.query.split()
    assert {"sandboxed", "environment"} <= set(said) and not {"else", "top"} & set(said)


def test_that_noun_points_back_to_the_thing_a_story_brought_in_not_the_last_question() -> None:
    question = (
        "The Irish author of the Gothic novel about Dorian Gray rose to fame as a dramatist "
        "in one city during the 1890s. What offence was he convicted of, and which river "
        "does that city stand on?"
    )
    river = question_parts(question)[-1]
    assert river.refers_back
    said = set(river.query.split())
    assert {"dramatist", "1890s", "dorian"} <= said and "offence" not in said


def test_a_scene_setting_something_apart_lends_it_to_no_part() -> None:
    question = (
        "I'm writing a school report on Leonhard Euler. Apart from topology, which field "
        "of mathematics did he found?"
    )
    assert "topology" not in question_parts(question)[-1].query.split()
    # after ", and" too: the phrase is a scene of its own, not a thing the question before
    # asks again ("What is a person who apart from embossed paper")
    braille = question_parts(
        "What is a person who renounces their religion called, and apart from embossed "
        "paper, on what can braille be read?"
    )
    assert [p.text for p in braille] == [
        "What is a person who renounces their religion called",
        "apart from embossed paper",
        "on what can braille be read",
    ]
    assert braille[1].scene and "embossed" not in braille[2].query.split()


def test_a_question_asked_within_a_name_or_number_after_and_is_a_part_of_its_own() -> None:
    # "…, and in 3.3 what value …" asks again with no comma after the phrase it gives
    version = question_parts(
        "Which configure option made 2.2 use UCS-4 internally, and in 3.3 what value does "
        "sys.maxunicode now always have?"
    )
    assert [p.text for p in version] == [
        "Which configure option made 2.2 use UCS-4 internally",
        "in 3.3 what value does sys.maxunicode now always have",
    ]
    # a relative "which" after a common noun stays with its clause
    town = question_parts("Who founded the abbey, and in the town which he ruled?")
    assert len(town) == 1


def test_a_thing_named_before_a_colon_after_and_opens_a_new_question() -> None:
    # "…, and the mountain range that bounds it on the west: how long is that range" asks
    # a new question, of the range, not more of the plateau
    question = (
        "How large is the Deccan Plateau, and the mountain range that bounds it on the "
        "west: how long is that range?"
    )
    plateau, ranged = question_parts(question)
    assert plateau.text == "How large is the Deccan Plateau"
    assert ranged.text == "the mountain range that bounds it on the west: how long is that range"


def test_a_short_question_pointing_back_to_the_askers_whole_story_carries_that_story() -> None:
    story = (
        "Our export endpoint builds one giant CSV string and the worker runs out of memory. "
        "I changed the view to yield rows from a generator, but now it crashes with a "
        "RuntimeError."
    )
    last = question_parts(f"{story} How should this be written?")[-1]
    assert last.text == "How should this be written"
    assert {"generator", "runtimeerror", "csv", "memory"} <= set(last.story.split())
    assert not last.story_terms & last.terms  # its own and borrowed words count once
    # a question of its own after the story, not one pointing back to it, carries none
    assert question_parts(f"{story} Which image tag should we use?")[-1].story == ""
    # nor does a question after another question, nor one after facts the asker states
    asked = question_parts(f"{story} What does the error mean, and how should this be written?")
    assert [p.story for p in asked[-2:]] == ["", ""]
    stated = question_parts("Mongolia's capital is extremely cold. Is that true?")[-1]
    assert stated.story == ""


def test_a_yes_or_no_part_between_the_story_and_a_part_pointing_back_keeps_the_story() -> None:
    story = "I run the nightly export job and some rows never reach the warehouse."
    *_, last = question_parts(f"{story} Is that expected? How do I get the export to send those?")
    assert {"row", "reach", "warehouse"} <= last.story_terms
    # a question of its own in between asks something else: the last part goes on from it
    *_, last = question_parts(
        f"{story} Why does that happen? How do I get the export to send those?"
    )
    assert last.story == ""


def test_its_after_a_phrase_leading_in_with_a_thing_described_borrows_that_things_words() -> None:
    # "its" stands for the country the lead-in describes, not for the story's inscriptions
    parts = question_parts(
        "The oldest inscriptions of the glyph system come from sites including Chakjobon. "
        "How old are they, and for the country where Chakjobon lies, what is its "
        "population, and how does it rank by land area?"
    )
    population, rank = parts[-2], parts[-1]
    assert population.text == "what is its population" and population.refers_back
    assert {"country", "chakjobon"} <= set(population.query.split())
    assert "inscriptions" not in population.query.split()
    assert {"country", "chakjobon"} <= set(rank.query.split())
    # a question opening with a preposition asks itself: no lead-in ("In what year …")
    later = question_parts(
        "The Roman Republic came to dominate the western part of Europe. In what year did "
        "Rome become a republic, and for how many years did the Iron Curtain split that "
        "western region off?"
    )[-1]
    assert "rome" not in later.query.split()


def test_a_question_word_with_its_verb_contracted_is_read_written_out() -> None:
    genus, _species = question_parts("What's the genus name for oaks, and how many are there?")
    assert genus.text == "What is the genus name for oaks"
    # "What's New" opens a title, not a question
    (title,) = question_parts("What's New In Python 3.2 says what about argparse?")
    assert title.text.startswith("What's New In Python 3.2")


def test_a_question_of_one_word_asks_of_the_statement_just_before() -> None:
    question = (
        "How can I run only our lint envs? Also, on one runner I'd like to leave out every "
        "env starting with pypy through an environment variable. Possible?"
    )
    possible = question_parts(question)[-1]
    assert possible.text == "Possible" and {"runner", "leave"} <= set(possible.query.split())


def test_a_semicolon_inside_a_word_ends_no_clause() -> None:
    # "application/json;q=0.1" is one header value, not two clauses
    parts = question_parts(
        "Our client sends Accept: application/json;q=0.1, text/html;q=0.9 and gets JSON. "
        "How does it pick?"
    )
    assert parts[0].text.startswith("Our client sends Accept: application/json;q=0.1, text")
    assert [p.text for p in question_parts("Is it slow; how do I tell?")] == [
        "Is it slow", "how do I tell"
    ]  # fmt: skip


def test_a_question_after_and_with_a_word_of_time_first_is_a_part() -> None:
    parts = question_parts(
        "What year did the calendar take effect, and nowadays how many days do you add?"
    )
    assert [p.text for p in parts] == [
        "What year did the calendar take effect", "nowadays how many days do you add"
    ]  # fmt: skip


def test_a_possessive_after_the_name_the_question_asks_of_is_that_names() -> None:
    # "its" is Spain's: the part borrows nothing of the Gulf War
    pair = question_parts(
        "How many countries fought in the Gulf War, and in what year did Spain lose its "
        "last territory in the Americas?"
    )
    assert not pair[-1].refers_back and "gulf" not in pair[-1].query.split()
    # a possessive before the name, or with none after the auxiliary, still points back
    for later in ("which Thai kingdom ended up inside his empire",
                  "how many Academy Award nominations did his films earn"):  # fmt: skip
        assert question_parts(f"Who succeeded the king, and {later}?")[-1].refers_back


def test_ones_point_back_to_the_things_named_before() -> None:
    last = question_parts("Do barges have their own engines? How were the first ones moved?")[-1]
    assert last.refers_back and "barges" in last.query.split()
    # "the ones we name": the clause after says which
    named = question_parts("Which plugins load? How do I load only the ones we name?")[-1]
    assert not named.refers_back


def test_a_part_after_a_story_told_midway_asks_of_that_story() -> None:
    # a scene told after a question was asked opens a new matter: "it" is what it tells,
    # not the question's opening
    parts = question_parts(
        "Our report wants security headers on every response; can the server add those? "
        "Separately, a partner says our response headers come back lowercase. Is that the "
        "server doing it, and can I switch it off?"
    )
    for part in parts[-2:]:
        assert {"lowercase", "header"} <= part.terms and "report" not in part.terms
    # a lead-in ("apart from …") is no story: the part asks on of what was named before
    lead = question_parts(
        "What is the capital of the Falklands, and apart from the two main islands, how "
        "many smaller ones make up the archipelago?"
    )[-1]
    assert "falkland" in lead.terms


def test_that_noun_borrows_the_words_around_it_in_the_story_just_before() -> None:
    # the story brings the shift in as a new thing: "that shift" asks of what surrounds it
    called = question_parts(
        "Old chronicles describe a shift to farming in the river valleys soon after the "
        "flood. What is that shift called?"
    )[-1]
    assert {"shift", "farming", "valley"} <= called.terms


def test_a_relative_clause_set_off_by_commas_cuts_no_clause() -> None:
    # the statement goes on after its relative clause: one scene, then the question
    told, asked = question_parts(
        "The harbour town, whose old quarter is Vellamo, is a regional seat. What is its "
        "population?"
    )
    assert told.scene and {"vellamo", "seat"} <= told.terms
    assert asked.text == "What is its population" and not asked.scene
    # inside a question the relative clause describes the thing asked for
    (river,) = question_parts("What river, which rises in the Alps, is the longest here?")
    assert {"river", "alp", "longest"} <= river.terms
    # "where" before its verb asks, and so does a verb before its pronoun
    assert len(question_parts("Who built the fort, where is it, is it still standing?")) == 3


def test_the_subject_the_and_a_common_noun_asks_of_the_first_clauses_name() -> None:
    # "the town" is the one the first part names, though the part names another place
    _, far = question_parts(
        "What was Varosha called before 1950, and how far does the town lie from Kestrel?"
    )
    assert {"varosha", "kestrel", "far"} <= far.terms
    # after a form of "be", "the" and a noun are what is asked for, not a subject
    _, star = question_parts("Where is Orion, and which is the closest star to the Sun?")
    assert "orion" not in star.terms


def test_a_statement_joined_to_its_question_by_a_comma_is_told() -> None:
    # "X does Y, what …" tells as "X does Y. What …" would: a scene the question asks of
    told, options = question_parts(
        "What does the museum open with? And the city wants to fund a new wing, what "
        "are the options for that?"
    )[-2:]
    assert told.scene and not options.scene
    assert {"fund", "wing", "option"} <= options.terms
    # a phrase with no verb names what is asked about: a part, not a scene
    agency = question_parts(
        "Two agencies run the port. The older agency among them, when was it set up?"
    )[1]
    assert not agency.scene
    # a semicolon joins too, and a short question right after the clause goes on from it
    told, limits = question_parts(
        "Why is the lamp dim? Also, the spare bulbs keep burning out; what are the limits?"
    )[-2:]
    assert told.scene and {"bulb", "burning", "limit"} <= limits.terms
    # a participle opening a phrase leads in: what "its" stands for is not what it sets aside
    isotope = question_parts(
        "Two of the gases are inert. Leaving argon aside, how common is the other one, and "
        "what is the boiling point of its liquid form?"
    )[-1]
    assert "argon" not in isotope.terms
    # a label before a colon is no participle: the asker's clause after it tells
    bug = question_parts("Is it free? Unrelated: I think I found a bug, should I file it?")[1]
    assert bug.scene
    # the clauses of a sentence told already are told as it says them
    told = question_parts(
        "A lamp on our shelf shows a blue light, which confused a guest. What does it mean?"
    )
    assert told[1].text == "which confused a guest" and "lamp" not in told[1].terms
    # before a semicolon a clause asks only if it opens as a question, as a sentence would
    shown, switch = question_parts(
        "Our log viewer shows boxes where the tool prints its icons; is there a flag to "
        "turn them off?"
    )
    assert shown.scene and not switch.scene
    (asked, _) = question_parts("Where does the tool print its icons; is there a flag for it?")
    assert not asked.scene


def test_a_modal_before_its_subject_after_a_comma_opens_a_question() -> None:
    parts = question_parts(
        "Some interns have no compiler on their laptops, will they need admin rights for it?"
    )
    assert [p.text for p in parts] == [
        "Some interns have no compiler on their laptops",
        "will they need admin rights for it",
    ]
    assert parts[0].scene and "compiler" in parts[1].terms


def test_a_lead_in_pointing_back_lends_its_own_words_to_the_part_after_it() -> None:
    # "that" is opting into the style: the lead-in's own words, not the story's opening
    last = question_parts(
        "We keep long recipe cards and I'd love every step on its own line. Can the printer "
        "do that layout? And if I opt into it for labels, will that also switch on the "
        "experimental margins for everyone?"
    )[-1]
    assert {"opt", "label", "margin"} <= last.terms and "recipe" not in last.terms


def test_the_one_that_is_not_a_name_asks_of_the_other_one() -> None:
    """The names set aside are no list of things asked about; the part asking of the
    other one searches them, as the line naming it lists them beside it."""
    parts = question_parts(
        "Three rivers meet below the old fort. The one that isn't the Avon, Tamar or Exe, "
        "where does it rise, and how long is it?"
    )
    assert [p.text for p in parts] == [
        "Three rivers meet below the old fort",
        "The other one, where does it rise",
        "how long is it",
    ]
    assert parts[1].refers_back and {"avon", "tamar", "exe"} <= parts[1].terms
    assert not {"avon", "tamar", "exe"} & parts[2].terms
    # "isn't" in a clause that sets nothing aside is read as written
    (kept,) = question_parts("Why is the one that isn't broken slower")
    assert "broken" in kept.query.split()
