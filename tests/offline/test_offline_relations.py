"""A part asking when something happened to a thing, or how tall or long it is, is
answered only by a date or a measure of that thing; names that only place a thing are no
party to what a part asks."""

from __future__ import annotations

from deepresearch.offline.parts import Part, question_parts
from deepresearch.offline.relations import unmeasured, untimed_event


def _when(question: str) -> Part:
    (part,) = question_parts(question)
    return part


SHAKESPEARE = ["William Shakespeare"], "William Shakespeare was an English playwright."
MACBETH = (
    ["Macbeth"],
    "Macbeth is a tragedy by William Shakespeare, first performed in 1606.",
)


def test_dates_of_other_events_do_not_say_when_the_thing_asked_about_happened() -> None:
    part = _when("When did William Shakespeare die?")
    reason = untimed_event(part, [SHAKESPEARE, MACBETH])
    assert reason == "no finding drawn for it gives a date of what it asks about"
    counts = (["Vincent van Gogh"], "He created about 2,100 artworks; his suicide at 37.")
    assert untimed_event(_when("When did Vincent van Gogh die?"), [counts]) is not None


def test_a_line_giving_its_subject_the_name_asked_for_dates_it() -> None:
    # "known as" gives the entry's subject another name: no preposition placing it
    part = question_parts("During which years did Gustav II Adolf rule Sweden, and who wrote?")[0]
    known = (
        ["Gustavus Adolphus"],
        "Gustavus Adolphus, also known as Gustav II Adolf, was King of Sweden from 1611 to 1632.",
    )
    assert untimed_event(part, [known]) is None
    named_by = (["Riksdag"], "A law of 1611 was signed by Gustav II Adolf in Sweden.")
    assert untimed_event(part, [named_by]) is not None


def test_a_part_naming_nothing_is_dated_of_what_its_pronoun_stands_for() -> None:
    part = _when("when did he die?")
    assert untimed_event(part, [MACBETH]) is None  # of nothing named: not checked
    assert untimed_event(part, [MACBETH], ["William Shakespeare"]) is not None
    died = (["William Shakespeare"], "He is buried at Stratford, where he died in 1616.")
    assert untimed_event(part, [MACBETH, died], ["William Shakespeare"]) is None


def test_a_name_placing_what_a_pronoun_stands_for_may_follow_a_preposition() -> None:
    # "it" is what is dated; Europe only where it struck
    part = Part("during what years did it strike Europe", "years strike europe", True)
    plague = (["Black Death"], "The Black Death was a pandemic that occurred in Europe from 1346.")
    assert untimed_event(part, [plague]) is None
    # a name that is the subject still has to be more than a place in the line
    visit = _when("When did Napoleon visit Egypt?")
    born = (["Corsica"], "He was born in Corsica, then ruled by Napoleon's allies, in 1769.")
    assert untimed_event(visit, [born]) is not None


def test_names_describing_what_a_pronoun_after_a_colon_stands_for_are_no_parties() -> None:
    part = Part(
        "The struggle over the Habsburg inheritance, linked to the War of Jenkins' Ear: in "
        "which years was it fought",
        "struggle habsburg inheritance jenkins ear years fought",
        False,
    )
    war = (["War of the Austrian Succession"], "The war, 1740 to 1748, was fought in Europe.")
    assert untimed_event(part, [war]) is None  # not a date of Habsburg's and Jenkins' Ear


def test_a_date_with_what_happened_or_from_the_thing_s_entry_answers() -> None:
    part = _when("When did William Shakespeare die?")
    died = (["Stratford"], "William Shakespeare died in Stratford in 1616.")
    assert untimed_event(part, [MACBETH, died]) is None
    film = (["Tokyo Story"], "Tokyo Story is a 1953 Japanese drama film.")
    assert untimed_event(_when("When was Tokyo Story released?"), [film]) is None
    # the thing itself is what the dated sentence speaks of, in other words than asked
    fall = (
        ["Roman Empire"],
        "The Western Roman Empire collapsed in 476 AD, whereas the Eastern Roman Empire "
        "persisted until the fall of Constantinople in 1453.",
    )
    eastern = _when("When did the Eastern Roman Empire finally come to an end?")
    assert untimed_event(eastern, [fall]) is None
    ago = (["Neanderthal"], "Neanderthal extinction occurred roughly 40,000 years ago.")
    assert untimed_event(_when("When did the Neanderthals go extinct?"), [ago]) is None


def test_a_when_part_naming_nothing_is_left_to_the_general_check() -> None:
    # "will next appear in mid-2061" answers "when will it return" in other words
    after = question_parts("What is Halley's Comet, and when will it return?")[1]
    assert untimed_event(after, [(["Halley's Comet"], "It will next appear in mid-2061.")]) is None


def test_a_part_asking_for_a_dimension_is_answered_only_by_a_measure() -> None:
    napoleon = (["Napoleon"], "He was Emperor of the French from 18 May 1804 until 1814.")
    reason = unmeasured("How tall was Napoleon", [napoleon])
    assert reason == "no finding drawn for it gives a measure of what it asks about"
    everest = (["Mount Everest"], "Its height was measured as 8,848.86\xa0m in 2020.")
    assert unmeasured("How tall is Mount Everest", [napoleon, everest]) is None
    # a name given as a possessor is still the entry measured
    coast = (["Monaco"], "It has the world's shortest national coastline, at 3.83\xa0km.")
    assert unmeasured("how long is Monaco's coastline", [coast]) is None
    assert unmeasured("how long is Monaco's coastline", [(["Nice"], coast[1])]) is not None
    # a share answers how far a rate fell
    fall = (["Ignaz Semmelweis"], "The maternal mortality rate dropped from 18% to 2%.")
    assert unmeasured("how far did maternal mortality fall", [fall]) is None
    channel = (["Strait of Gibraltar"], "At its narrowest it is 7.7 nautical miles wide.")
    assert unmeasured("how wide is that channel at its narrowest", [channel]) is None
    # ... and so is how narrow it gets
    assert unmeasured("how narrow does that channel get", [channel]) is None
    assert unmeasured("how narrow does that channel get", [napoleon]) is not None
    # "how long is" asks a length or a time
    city = (["Lilongwe"], "Lilongwe is the capital of Malawi, founded in 1902.")
    assert unmeasured("How long is the Lilongwe River", [city]) is not None
    river = (["Limpopo River"], "The river is 1,750 kilometres long.")
    assert unmeasured("How long is the Limpopo River", [city, river]) is None
    # a measure in words: a number word and its unit
    lean = (["Leaning Tower of Pisa"], "It is known for its nearly four-degree lean.")
    assert unmeasured("how far does the Leaning Tower of Pisa lean", [lean]) is None

    degree = (["Leaning Tower of Pisa"], "It was built by a master of the first degree.")
    assert unmeasured("how far does the Leaning Tower of Pisa lean", [degree]) is not None
    assert unmeasured("How long is a day on Mars", [(["Mars"], "A day lasts 24 hours.")]) is None
    # a name in a clause with no relative word tells which river, it is not measured
    asked = "How long is the river the Lewis and Clark Expedition travelled up"
    missouri = (["Missouri River"], "It flows east and south for 2,341 mi (3,767 km).")
    assert unmeasured(asked, [missouri]) is None
    assert unmeasured("How long is the Lewis and Clark Expedition", [missouri]) is not None
    # "how far back" asks since when, not a distance
    ancient = (["Horse racing"], "It has been practised since at least classical antiquity.")
    assert unmeasured("how far back does horse racing go", [ancient]) is None
    # ... and "how far north" to where
    winter = (["Red-winged blackbird"], "It may winter as far north as Pennsylvania.")
    assert unmeasured("how far north can the red-winged blackbird winter", [winter]) is None
    # a reign's years answer "how long did", a superlative "how large": not checked here
    assert unmeasured("How long did the dynasty rule", [napoleon]) is None
    assert unmeasured("how large did the Mongol Empire become", [napoleon]) is None


def test_a_measure_of_another_thing_does_not_say_how_tall_the_one_asked_about_is() -> None:
    soufriere = (["La Soufrière"], "La Soufrière rises to 1,467 m above the sea.")
    reason = unmeasured("How tall is Mount Pelée", [soufriere])
    assert reason == "no finding drawn for it gives a measure of what it asks about"
    pelee = (["Mount Pelée"], "Its summit stands 1,397 m above the sea.")
    assert unmeasured("How tall is Mount Pelée", [soufriere, pelee]) is None


def test_a_part_asking_what_year_is_answered_only_by_a_date_of_what_it_names() -> None:
    part = question_parts("What year was Moscow State University founded?")[0]
    other = (["Lisbon"], "The Lisbon earthquake struck in 1755.")
    assert untimed_event(part, [other]) is not None
    founded = (["Moscow State University"], "Moscow State University was founded in 1755.")
    assert untimed_event(part, [other, founded]) is None


def test_a_part_asking_when_two_named_things_met_needs_a_date_giving_both() -> None:
    part = _when("In what year did Jonas Salk receive the Nobel Prize?")
    vaccine = (["Jonas Salk"], "Jonas Salk developed one of the first polio vaccines in 1955.")
    assert untimed_event(part, [vaccine]) is not None
    nobel = (["Nobel Prize"], "The Nobel Prize was first awarded in 1901.")
    assert untimed_event(part, [vaccine, nobel]) is not None
    awarded = (["Jonas Salk"], "Salk was awarded the Nobel Prize in 1962.")
    assert untimed_event(part, [vaccine, awarded]) is None
    # a place after "at" says where, not who took part: one party's date answers
    battle = _when("In what year did Napoleon win a battle at Austerlitz?")
    won = (["Napoleon"], "Napoleon won his greatest victory in 1805.")
    assert untimed_event(battle, [won]) is None


def test_the_one_a_part_asks_of_by_its_relation_to_a_name_is_the_party_dated() -> None:
    # "Joseph II's mother": her entry dates her rule and need not name her son
    part = _when("In what year did Joseph II's mother become ruler of the Habsburg lands?")
    mother = (["Maria Theresa"], "Maria Theresa was the ruler of the Habsburg monarchy from 1740.")
    assert untimed_event(part, [mother]) is None
    # ... but a date must still be given
    undated = (["Maria Theresa"], "Maria Theresa was the ruler of the Habsburg monarchy.")
    assert untimed_event(part, [undated]) is not None


def test_names_saying_where_or_which_one_are_no_party_and_a_surname_gives_one() -> None:
    bridge = _when("In what year was the Akashi Kaikyo Bridge between Kobe and Awaji Island built?")
    done = (["Akashi Kaikyo Bridge"], "It was completed in 1998.")
    assert untimed_event(bridge, [done]) is None
    fission = _when("In what year did Lise Meitner, with Fritz Strassmann, discover fission?")
    said = (["Otto Hahn"], "In 1938, Hahn, Meitner and Fritz Strassmann discovered fission.")
    assert untimed_event(fission, [said]) is None
    apart = (["Lise Meitner"], "Lise Meitner was born in Vienna in 1878.")
    assert untimed_event(fission, [apart]) is not None


def test_a_name_after_the_noun_of_describes_the_party_it_is_not() -> None:
    # the writer of the novel won the prize: the novel is no party to the winning
    part = _when("In what year did the writer of Hamlet win the Nobel Prize?")
    won = (["George Orwell"], "Winner of the 1950 Nobel Prize, he wrote plays.")
    assert untimed_event(part, [won]) is None
    # named as the party, the play must be given with the prize
    part = _when("In what year did Hamlet win the Nobel Prize?")
    assert untimed_event(part, [won]) is not None


def test_a_name_in_a_relative_clause_describes_the_party_it_is_not() -> None:
    # the leader died; his deputy is how the question tells which leader
    part = _when("When did the Soviet leader who had Zhukov as his wartime deputy die?")
    died = (["Joseph Stalin"], "Stalin ruled the Soviet Union until his death in 1953.")
    assert untimed_event(part, [died]) is None
    # named as a party, the deputy must be given with the date
    part = _when("When did the Soviet leader and Zhukov meet?")
    assert untimed_event(part, [died]) is not None
    # a question word is no relative pronoun: both names are parties
    award = _when("In which year was Douglas Engelbart given the Turing Award?")
    demo = (["Douglas Engelbart"], "These were demonstrated at The Mother of All Demos in 1968.")
    assert untimed_event(award, [demo]) is not None


def test_the_entry_on_a_title_opening_with_a_small_word_is_its_entry() -> None:
    # capitals read the name as "Lighthouse"; the entry is *To the Lighthouse*
    part = _when("When was To the Lighthouse published?")
    novel = (["To the Lighthouse"], "It is a 1927 novel by Virginia Woolf.")
    assert untimed_event(part, [novel]) is None
    other = (["Lighthouse"], "The first lighthouse was built in 280 BC.")
    assert untimed_event(part, [(["Virginia Woolf"], "She died in 1941.")]) is not None
    assert untimed_event(_when("When was the Lighthouse built?"), [other]) is None


def test_the_entry_on_what_a_part_asks_of_gives_its_measure() -> None:
    # capitals read "Olmec"; the entry *Olmec colossal heads* is on what is measured
    heads = (["Olmec colossal heads"], "They range in height from 1.17 to 3.4 metres.")
    assert unmeasured("How tall are the Olmec colossal heads", [heads]) is None
    other = (["Heads of state"], "Their palaces stand 30 metres high.")
    assert unmeasured("How tall are the Olmec colossal heads", [other]) is not None
    # a title of the part's words naming no more than its names is no such entry
    tower = (["Tower"], "The tallest tower stands 828 metres high.")
    assert unmeasured("How tall is the Eiffel Tower", [tower]) is not None


def test_a_part_naming_its_unit_is_measured_by_a_number_of_that_unit() -> None:
    star = (["Proxima Centauri"], "Proxima Centauri is 1.3020 parsecs from the Sun.")
    assert unmeasured("How far away is Proxima Centauri in parsecs", [star]) is None
    unmeasured_star = (["Proxima Centauri"], "Proxima Centauri is a small red dwarf.")
    assert unmeasured("How far away is Proxima Centauri in parsecs", [unmeasured_star])


def test_a_distance_from_the_only_name_given_is_a_measure_from_that_name() -> None:
    # the thing measured is pointed back to; the line measures from the name given
    town = (["Varosha"], "The town lies 310 kilometres (190 mi) north of Kestrel.")
    assert unmeasured("how far does the town lie from Kestrel", [town]) is None
    # a measure elsewhere in a line naming it is no distance from it
    area = (["Dravia"], "Dravia covers 45,000 square kilometres and borders Kestrel.")
    assert unmeasured("how far does the town lie from Kestrel", [area]) is not None
    # a part naming what it measures asks of that thing, not of another's distance
    other = (["Venus"], "Venus orbits 108 million km from the Sun.")
    assert unmeasured("How far is Mars from the Sun", [other]) is not None
