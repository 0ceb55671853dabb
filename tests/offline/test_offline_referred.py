"""A part pointing back to the thing the part before it asks for is answered only about
that thing: not at all when that part was not answered, and otherwise only from a source
behind its answer or one its answer names."""

from __future__ import annotations

from deepresearch.offline import analysis, referred
from deepresearch.offline.parts import question_parts
from deepresearch.offline.referred import (
    answer_titles,
    entry_asked_of,
    given_names,
    hangs_on_unanswered,
    named_on_given,
    on_given,
    person_asked_of,
    points_to_asked,
    unconnected_answer,
    untied_either,
)
from deepresearch.offline.roots import text_roots
from deepresearch.roles import AnalyzeInputs
from tests.offline.conftest import Titled


def test_a_pronoun_stands_for_what_the_part_before_asks_for() -> None:
    assert points_to_asked("when was it founded", "What is the capital of Australia")
    assert points_to_asked("who discovered it", "Which element has the atomic number 1")
    assert points_to_asked("how did he come to power", "Who was the first emperor of Rome")
    # "which" or "what" asking for a person, the subject of its clause
    assert points_to_asked("who killed him", "Which Roman general crossed the Rubicon")
    assert points_to_asked("which island was he from", "Which Greek philosopher is credited")
    assert not points_to_asked("where was he born", "Which planet did Galileo observe")
    # he is the one named, whose sibling is asked for
    herschel = "Which of William Herschel's siblings worked alongside him"
    assert not points_to_asked("in what year did he move to Britain", herschel)
    # "they" and the possessives after "who"; "its" right after "what is" (the part
    # asks of it, not of a thing it names first: "that channel at its narrowest")
    assert points_to_asked("what prize did they win", "Who discovered the structure of DNA")
    assert points_to_asked("where was his laboratory", "Who invented the phonograph")
    fe = "Which element has the chemical symbol Fe"
    assert points_to_asked("what is its atomic number", fe)
    # whatever asks of it: "who is its head of state" after the smallest country
    assert points_to_asked("who is its head of state", "What is the smallest country in the world")
    assert not points_to_asked("how wide is that channel at its narrowest", fe)
    # "Which dynasty was that": the copula's complement points back; "it" is the dynasty
    assert points_to_asked("over which years did it rule", "Which dynasty was that")
    assert not points_to_asked("over which years did it rule", "Which dynasty was Tang")


def test_a_pronoun_stands_for_what_was_asked_only_where_that_is_the_subject_of_its_kind() -> None:
    # "it" is Microsoft, not its founder; "Who was Cleopatra" asks for no other thing
    assert not points_to_asked("where is it headquartered", "Who founded Microsoft")
    assert not points_to_asked("where did she die", "Who was Cleopatra")
    assert not points_to_asked("where did he die", "When was the Battle of Hastings")
    # the part before asks for what its subject does: "it" is the plan
    before = "What execution order does the plan recommend"
    assert not points_to_asked("what targets does it set", before)
    assert not points_to_asked("how does it rank in age", "in which city does it stand")
    # a possessive, or a person after "what": a name the question gives, as often
    assert not points_to_asked(
        "which disease did his vaccines target", "Which chemist lent his name"
    )
    before = "What technique is the director of Battleship Potemkin known for"
    assert not points_to_asked("what else did he make", before)


def test_a_part_hanging_on_an_unanswered_part_is_not_answered() -> None:
    before = "What is the capital of Australia"
    reason = hangs_on_unanswered("when was it founded", before, before_answered=False)
    assert reason is not None and before in reason
    assert hangs_on_unanswered("when was it founded", before, before_answered=True) is None


TIBERIUS = (["Tiberius"], "He succeeded his stepfather Augustus, the first Roman emperor.")
TITLES = ["Tiberius", "Augustus", "Sulla", "Rome"]


def test_an_answer_from_a_source_the_answer_before_does_not_name_is_no_answer() -> None:
    before = ("Who was the first emperor of Rome", text_roots("first emperor Rome"))
    part = "how did he come to power"
    sulla = (["Sulla"], "Sulla was the first general to march on Rome.")
    assert unconnected_answer(part, before, [sulla], [TIBERIUS], TITLES)
    # Rome is named by the answer, but it is the question's own name, not the emperor
    answer = (["Tiberius"], "Tiberius was born in Rome and succeeded Augustus.")
    assert unconnected_answer(part, before, [(["Rome"], "Rome is a city.")], [answer], TITLES)


def test_an_answer_from_the_source_behind_the_answer_or_one_it_names_is_kept() -> None:
    before = ("Who was the first emperor of Rome", text_roots("first emperor Rome"))
    part = "how did he come to power"
    augustus = (["Augustus"], "Augustus came to power at Actium.")
    assert unconnected_answer(part, before, [augustus], [TIBERIUS], TITLES) is None
    sulla, tiberius = (["Sulla"], "Sulla marched on Rome."), (["Tiberius"], TIBERIUS[1])
    assert unconnected_answer(part, before, [sulla, tiberius], [TIBERIUS], TITLES) is None


def test_an_answer_from_a_source_stating_all_the_part_before_asks_is_kept() -> None:
    # the part before was answered from other sources; this one answers it too
    before = ("Who discovered radium", text_roots("discovered radium"))
    part, answer = "what prize did she win", (["Actinium"], "Actinium was discovered in 1902.")
    curie = (["Marie Curie"], "She won the Nobel Prize for the discovery of radium.")
    tagore = (["Rabindranath Tagore"], "Tagore won the Nobel Prize in Literature.")
    titles = ["Actinium", "Marie Curie", "Rabindranath Tagore"]
    assert unconnected_answer(part, before, [curie], [answer], titles) is None
    assert unconnected_answer(part, before, [tagore], [answer], titles)
    # not a superlative, which one thing holds: another entry stating its words ("the
    # largest", "population", "Africa") states them of something else
    asked = "Which country has the largest population in Africa"
    before = (asked, text_roots("country largest population Africa"))
    answer = (["Nigeria"], "Nigeria is the most populous country in Africa.")
    south = (["South Africa"], "A country of the fifth largest population in Africa.")
    assert unconnected_answer("what is its capital", before, [south], [answer], titles)


def test_the_analyzer_reports_both_parts_when_the_thing_pointed_to_was_not_found(
    titled: Titled,
) -> None:
    texts = {
        "Australia": "Australia is a country made up of the mainland and Tasmania.",
        "Tasmania": "Tasmania is an island state of Australia, founded as a colony in 1825.",
    }
    question = "What is the capital of Australia, and when was it founded?"
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    founded = question_parts(question)[1].text
    assert not [f for f in out.findings if f.category == founded]
    assert any(founded in g.description for g in out.gaps)


def test_a_part_answered_by_an_earlier_iteration_is_answered(titled: Titled) -> None:
    # a later iteration's analyzer sees only its fresh sources: the part before is
    # answered by findings it does not see, so what points back to it stands
    texts = {"Ottawa River": "The Ottawa River flows through the city of Ottawa."}
    question = "What is the capital of Canada, and what river runs through it?"
    first, runs = (p.text for p in question_parts(question))
    inputs = AnalyzeInputs(question=question, sources=titled(texts), answered_parts=[first])
    out = analysis.analyze(inputs)
    assert [f for f in out.findings if f.category == runs]
    assert not any(runs in g.description for g in out.gaps)
    unseen = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    assert not [f for f in unseen.findings if f.category == runs]


def test_what_points_back_to_an_earlier_iterations_answer_is_answered_of_it(
    titled: Titled,
) -> None:
    question = "Who was the first emperor of Rome, and how did he come to power?"
    first, power = (p.text for p in question_parts(question))
    answer = (first, ["Tiberius", "https://e.org/tiberius"], TIBERIUS[1])
    texts = {
        "Sulla": "Sulla came to power by marching his army on Rome.",
        "Augustus": "Augustus came to power after defeating Mark Antony at Actium.",
    }
    inputs = AnalyzeInputs(
        question=question, sources=titled(texts), answered_parts=[first], earlier_answers=[answer]
    )
    out = analysis.analyze(inputs)
    cited = {sid for f in out.findings if f.category == power for sid in f.source_ids}
    assert "src-2" in cited  # Augustus, whom the answer names
    alone = analysis.analyze(
        inputs.model_copy(update={"sources": titled({"Sulla": texts["Sulla"]})})
    )
    assert not [f for f in alone.findings if f.category == power]


HAMLET = (["Hamlet"], "Hamlet is a tragedy written by William Shakespeare between 1599 and 1601.")


def test_what_a_pronoun_stands_for_is_the_answer_s_sources_not_the_question_s_names() -> None:
    shakespeare = (["William Shakespeare"], "He is often called England's national poet.")
    titles = ["Hamlet", "William Shakespeare", "Denmark"]
    before = ("Who wrote Hamlet", text_roots("wrote Hamlet"))
    found = answer_titles("when did he die", before, [HAMLET, shakespeare], titles)
    assert found == ["William Shakespeare"]
    written = ("When was Hamlet written", text_roots("Hamlet written"))
    assert answer_titles("when did he die", written, [HAMLET], titles) == []


def test_a_date_of_another_thing_does_not_say_when_what_was_pointed_to_happened(
    titled: Titled,
) -> None:
    texts = {
        "Hamlet": HAMLET[1],
        "William Shakespeare": "William Shakespeare was an English playwright and poet.",
        "Stratford": "Stratford is a market town in Warwickshire.",
    }
    question = "Who wrote Hamlet, and when did he die?"
    died = question_parts(question)[1].text
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    assert any(died in g.description for g in out.gaps)
    texts["William Shakespeare"] += " He died in Stratford in 1616."
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    assert not any(died in g.description for g in out.gaps)


STARRY = (
    ["The Starry Night"],
    "The Starry Night is a painting by the Dutch painter Vincent van Gogh.",
)
PAINTED = ("Who painted The Starry Night", text_roots("painted Starry Night"))


def test_only_the_answers_stating_what_was_asked_name_the_thing() -> None:
    night = (["Night"], "Daylight illuminates one side of Earth, leaving the other dark.")
    titles = ["The Starry Night", "Night", "Earth", "Vincent van Gogh"]
    earth = (["Earth"], "Earth is the third planet from the Sun.")
    part = "where did he die"
    assert unconnected_answer(part, PAINTED, [earth], [STARRY, night], titles)
    named = answer_titles(part, PAINTED, [STARRY, night], ["Earth", "Vincent van Gogh"])
    assert named == ["Vincent van Gogh"]


def test_the_answer_pointed_back_to_is_an_earlier_iteration_s_when_there_is_one() -> None:
    earlier = (PAINTED[0], ["The Starry Night", "https://e.org/starry"], STARRY[1])
    inputs = AnalyzeInputs(question="q", sources=[], earlier_answers=[earlier])
    drawn = [({"Night"}, "Daylight illuminates one side of Earth.")]
    assert referred.answer_before(PAINTED[0], inputs, drawn) == [
        ({"The Starry Night", "https://e.org/starry"}, STARRY[1])
    ]
    assert referred.answer_before("Who wrote Hamlet", inputs, drawn) == drawn


def test_a_pronoun_stands_for_the_name_given_where_the_part_before_asks_who_or_what_it_is() -> None:
    assert given_names("when was it first performed", "Who wrote Hamlet") == ["Hamlet"]
    assert given_names("how did she die", "Who was Cleopatra") == ["Cleopatra"]
    assert given_names("where is it located", "What is the Great Barrier Reef") == [
        "Great Barrier Reef"
    ]
    # "he" after a "who" part is the person asked for, not a name the part gives
    assert given_names("who released it", "Who directed Disney's Snow White") == [
        "Disney",
        "Snow White",
    ]
    assert given_names("when did he die", "Who wrote Hamlet") == []
    assert given_names("when was it founded", "What is the capital of Australia") == []
    # "it" goes on with the thing the part before points back to, not the name it gives
    assert given_names("when was it founded", "Who led the Bulgars who founded that state") == []
    # a possessive speaks of another thing of the named one, and a pronoun in a clause
    # describing what the part asks about is not what it asks about
    assert given_names("who was its second emperor", "Who founded the Mughal Empire") == []
    assert given_names("what are the rules of the game he dominated", "Who is Garry Kasparov") == []
    assert given_names("how big is it", "Who owns the exchange where Black Thursday happened") == []
    # a name may go on in lower case ("the Amazon rainforest"), which capitals alone miss
    assert given_names("which countries does it span", "What is the Amazon rainforest") == [
        "Amazon rainforest"
    ]
    # "there" stands for a place asked about
    assert given_names("how many species live there", "What is the Amazon rainforest") == [
        "Amazon rainforest"
    ]


def test_it_after_a_part_asking_of_a_thing_in_lower_case_stands_for_its_entry() -> None:
    titles = ["Photosynthesis", "Cooperation", "Plant"]
    before = "How does photosynthesis work"
    assert entry_asked_of("where does it take place", before, titles) == ["Photosynthesis"]
    assert entry_asked_of("how often do they occur", "What causes tides", ["Tide"]) == ["Tide"]
    # not what a superlative part finds, nor a name's, nor among several entries
    assert entry_asked_of("how deep is it", "What is the largest ocean", ["Ocean"]) == []
    assert entry_asked_of("where does it grow", "How does the Baobab grow", ["Baobab"]) == []
    assert entry_asked_of("where does it take place", before, [*titles, "Work"]) == []
    # nor after a part pointing back itself, nor in a part asking of a thing of its own
    disease = "what virus caused that disease"
    assert entry_asked_of("when was it eradicated", disease, ["Virus"]) == []
    role = "what role does chlorophyll play in it"
    assert entry_asked_of(role, before, [*titles, "Chlorophyll"]) == []
    # nor a possessive: "its" speaks of another thing of it
    assert entry_asked_of("what is its formula", before, titles) == []


def test_he_after_a_part_asking_where_of_a_person_named_stands_for_that_person() -> None:
    napoleon = ({"Napoleon"}, "He rose to prominence as a general.", ())
    before = "Where was Napoleon born"
    assert person_asked_of("where did he die", before, [napoleon]) == ["Napoleon"]
    # not "it", nor a name whose entry speaks of no person, nor one of several names
    assert person_asked_of("where is it kept", before, [napoleon]) == []
    oscars = ({"Oscars"}, "The Oscars are awards for film.", ())
    actor = "How many Oscars has the actor who voiced Woody won"
    assert person_asked_of("which honour did he receive", actor, [oscars]) == []
    both = "Where did Napoleon and Wellington fight"
    assert person_asked_of("where did he die", both, [napoleon]) == []


def test_a_part_pointing_to_a_lower_case_thing_keeps_only_findings_on_its_entry(
    titled: Titled,
) -> None:
    texts = {
        "Photosynthesis": "Photosynthesis is the process by which plants convert light energy.",
        "Cooperation": "Cooperation takes place when a group of organisms works together.",
    }
    question = "How does photosynthesis work, and where does it take place?"
    where = question_parts(question)[1].text
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    assert not any(f.category == where and "Cooperation" in f.content for f in out.findings)
    assert any(where in g.description for g in out.gaps)
    texts["Photosynthesis"] += " It takes place in the chloroplasts of plant cells."
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    assert any(f.category == where and "chloroplasts" in f.content for f in out.findings)


def test_a_finding_is_on_the_given_name_by_its_source_s_title_or_by_stating_it() -> None:
    titles = ["Mona Lisa", "Louvre", "The Night Watch", "Taxonomy", "Carl Linnaeus"]
    assert on_given(["Mona Lisa"], {"Mona Lisa"}, "It is a half-length portrait.", titles)
    assert on_given(["Mona Lisa"], {"Louvre"}, "The Louvre is home to the Mona Lisa.", titles)
    assert not on_given(
        ["Mona Lisa"], {"The Night Watch"}, "It is displayed in the Rijksmuseum.", titles
    )
    said = "In 1753 Linnaeus formalised binomial names."
    assert on_given(["Carl Linnaeus"], {"Taxonomy"}, said, titles)


def test_a_name_s_last_word_alone_is_not_it_where_another_gathered_entry_has_it() -> None:
    titles = ["Haitian Revolution", "1911 Revolution", "Toussaint Louverture"]
    xinhai = "The 1911 Revolution culminated in the end of China's last imperial dynasty."
    assert not on_given(["Haitian Revolution"], {"1911 Revolution"}, xinhai, titles)
    louverture = "In 1801 Louverture became Governor-General-for-life."
    assert on_given(["Toussaint Louverture"], {"Haitian Revolution"}, louverture, titles)


def test_an_entry_whose_title_holds_the_given_name_is_another_thing() -> None:
    titles = ["Russian Revolution", "Russian Revolution of 1905", "Russian Empire"]
    said = "The Russian Revolution of 1905 led to the establishment of a constitutional monarchy."
    assert not on_given(["Russian Revolution"], {"Russian Revolution of 1905"}, said, titles)
    own = "The Russian Revolution was a period of political and social change in Russia."
    assert on_given(["Russian Revolution"], {"Russian Revolution"}, own, titles)
    # a passage of the name's own document is on it
    passage = "Russian Revolution › Background"
    assert on_given(["Russian Revolution"], {passage}, "The war went badly.", [*titles, passage])
    # without an entry of the name's own, each longer title is on it ("PEP 324: …")
    section = "What's New › PEP 324: New subprocess Module"
    said = "PEP 324 - subprocess - New process module, written by Peter Astrand."
    assert on_given(["PEP"], {section}, said, [section, "What's New › PEP 327: Decimal"])


def test_the_analyzer_answers_a_part_pointing_to_a_given_name_only_of_that_thing(
    titled: Titled,
) -> None:
    texts = {
        "Hamlet": "Hamlet is a tragedy written by William Shakespeare between 1599 and 1601.",
        "Macbeth": "Macbeth is a tragedy by William Shakespeare, first performed in 1606.",
    }
    question = "Who wrote Hamlet, and when was it first performed?"
    performed = question_parts(question)[1].text
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    assert not [f for f in out.findings if f.category == performed and "1606" in f.content]
    # a source stating the name answers of it
    texts["Theatre"] = "A theatre first performed Hamlet in 1602."
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    shown = [f.content for f in out.findings if f.category == performed]
    assert not any("1606" in c for c in shown)


def test_an_entry_the_answer_on_the_given_name_names_is_on_it_too() -> None:
    linnaeus = ({"Carl Linnaeus"}, "Carl Linnaeus formalised binomial nomenclature.", ())
    titles = ["Carl Linnaeus", "Binomial nomenclature", "Linnaean taxonomy"]
    named = named_on_given(["Carl Linnaeus"], [linnaeus], titles)
    # a common noun names an entry its source links to, as a bridge does
    assert "Binomial nomenclature" not in named
    linked = (*linnaeus[:2], ("Binomial nomenclature",))
    assert "Binomial nomenclature" in named_on_given(["Carl Linnaeus"], [linked], titles)
    # what a finding not on the name names is not
    other = ({"Taxonomy"}, "Taxonomy names Binomial nomenclature.", ())
    assert not named_on_given(["Carl Linnaeus"], [other], titles) - {"Carl Linnaeus"}


def test_a_shorter_name_inside_the_given_name_is_not_named_by_it() -> None:
    king = ({"Martin Luther King Jr."}, "Martin Luther King Jr. was a minister.", ())
    titles = ["Martin Luther King Jr.", "Martin Luther"]
    assert "Martin Luther" not in named_on_given(["Martin Luther King Jr"], [king], titles)


TITLES2 = ["Los Angeles", "Wimbledon", "Tennis", "London"]


def test_an_it_standing_for_the_answer_or_a_given_name_is_answered_of_one_of_them() -> None:
    # "it" may be the sport or Wimbledon: a city's line on neither answers it
    before, part = "What sport is played at Wimbledon", "in which city is it held"
    los_angeles = (["Los Angeles"], "Los Angeles is the most populous city in California.")
    assert untied_either(part, before, [los_angeles], [], TITLES2)
    held = (["Wimbledon"], "The tournament has been held in London since 1877.")
    assert untied_either(part, before, [los_angeles, held], [], TITLES2) is None
    tennis = (["Tennis"], "Tennis is a racket sport.")
    assert (
        untied_either(part, before, [(["Tennis"], "It is played on grass.")], [tennis], TITLES2)
        is None
    )
    # ... or from an entry the answer names
    london = (["London"], "It hosts the oldest tennis tournament.")
    sport = (["Tennis"], "Tennis is played at Wimbledon in London.")
    assert untied_either(part, before, [london], [sport], TITLES2) is None
    # "the city where it stands" describes a city; a story's "it" may be anything
    assert (
        untied_either("which city is it in", "I love Wimbledon", [los_angeles], [], TITLES2) is None
    )
    # where "it" is known to be the asked thing, the other checks read it
    assert (
        untied_either("where is it", "What is the deepest lake", [los_angeles], [], TITLES2) is None
    )


def test_a_title_joining_two_names_by_and_is_the_thing_a_pronoun_stands_for(
    titled: Titled,
) -> None:
    texts = {
        "Pride and Prejudice": "Pride and Prejudice is a novel by Jane Austen. "
        "It was her second novel to see print when it was published in 1813.",
        "Prejudice": "Prejudice can be an affective feeling towards a person.",
        "Jane Austen": "Jane Austen was an English novelist.",
    }
    question = "Who wrote Pride and Prejudice, and when was it published?"
    published = question_parts(question, list(texts))[1].text
    inputs = AnalyzeInputs(question=question, sources=titled(texts), titles=list(texts))
    out = analysis.analyze(inputs)
    assert not any(published in g.description for g in out.gaps)
    assert any(f.category == published and "1813" in f.content for f in out.findings)


def test_a_pronoun_after_a_measure_of_a_described_thing_stands_for_that_thing() -> None:
    before = "How far from London is the city where the Beatles got together in 1960"
    assert points_to_asked("about how many people lived there in 2024", before)
    assert hangs_on_unanswered("what is its population", before, before_answered=False)
    assert hangs_on_unanswered("what is its population", before, before_answered=True) is None
    # a measure of a named thing asks for no thing
    assert not points_to_asked("how many people live there", "How far is Paris from London")
