"""Whether the findings drawn for a part asking when something happened to a thing it
names, or how tall, long or far it is, give a date or a measure of that very thing; and
which of the names a part gives are party to what it asks (``attributes`` checks a
thing's attribute).

A part asking when something happened to a thing it names ("When did William Shakespeare
die") is answered likewise only by a finding giving a date (a year, an era's year, a
century, "40,000 years ago"; not "2,100 artworks" or "at 37") in a sentence that says what
happened ("died", by root) or that comes from the entry on the thing; of two things or more
named ("When did Malta win the FIFA World Cup"), in a sentence giving all of them (three at
most), or the rest in the entry on one. The dates the
corpus gives near Shakespeare are Macbeth's first performance and the sonnets' printing.

A part asking how tall, high, deep, far, wide, narrow, heavy or long a thing is is answered
likewise only by a measure (a number with its unit) from the entry on the thing or a
sentence about it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from deepresearch.offline.asking import asks_when, main_clause
from deepresearch.offline.bridges import entities
from deepresearch.offline.coverage import is_entry_on
from deepresearch.offline.dates import DATE, asks_year
from deepresearch.offline.mentions import TOKEN, name_words, unpossessed
from deepresearch.offline.parts import Part
from deepresearch.offline.roots import text_roots
from deepresearch.offline.tense import says_form
from deepresearch.text import ARTICLES, NUMBER_WORD, STOPWORDS, sentences, stem

# A part asking for a dimension of a thing, and a measure that answers it: a number with
# a unit of length or weight, or a share.
# "How long is the Limpopo River" asks its length, or a duration ("how long is a day on
# Mars"); "how long did the dynasty rule" is answered by a reign's years: not checked.
# ("how far back does it go" asks since when, not a distance; "how far north can it
# winter" asks to where, answered by "as far north as Pennsylvania")
_ASKS_MEASURE = re.compile(
    r"^\W*how\s+(?:tall|high|deep|far(?!\s+(?:back|north|south|east|west|up|down|inland)\b)"
    r"|wide|narrow|heavy|long\s+(?:is|was|are|were)\b)\b",
    re.IGNORECASE,
)
_UNITS = (
    r"k?m|cm|mm|mi|ft|in\.|feet|foot|inch(?:es)?|yards?|miles?|nautical"
    r"|(?:kilo|centi|milli)?met(?:re|er)s?|light[- ]years?|AU|kg|kilograms?|g|grams?"
    r"|lbs?|pounds?|t|tonnes?|tons?|degrees?"
)
# "8,849 metres", "a nearly four-degree lean"
_NUMBER = rf"(?:\d(?:[\d,.]*\d)?\s*(?:-\s*)?|\b(?:{NUMBER_WORD.pattern})[\s-])"
# A share is a measure too: "how far did mortality fall", "how high is inflation" are
# answered by "from 18% to less than 2%".
_MEASURE = re.compile(rf"{_NUMBER}(?:(?:{_UNITS})\b|%|per\s?cent\b)")
_LENGTH_OR_TIME = re.compile(
    rf"{_NUMBER}(?:{_UNITS}|seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b"
)

# Parties to an event a dated line must give at most ("Which year did Madhubala win the
# Oscar for Mughal-e-Azam": her, the film and the award; a line on her and the film does
# not date an award).
PARTIES_DATED = 3
# Words after which a name says where a thing is ("the bridge between Kobe and Awaji").
PLACE_PREPOSITIONS = ("in", "on", "at", "between", "near", "within", "across", "along", "among", "around")  # fmt: skip
# The verbs giving a thing another name before "as" ("also known as the Monkey King").
NAMING_VERBS = ("known", "called", "referred to")
# Words after which a name is what a sentence speaks of something else by, not its subject.
_PREPOSITIONS = frozenset({"about", "above", "after", "against", "among", "around", "as", "at", "before", "behind", "below", "beside", "between", "by", "during", "for", "from", "in", "into", "like", "near", "of", "on", "over", "than", "through", "to", "toward", "under", "with", "within", "without"})  # fmt: skip


_IN_UNIT = re.compile(r"\bin\s+([a-z]+s)\W*$", re.IGNORECASE)  # "… in parsecs"


def says_measure(text: str) -> bool:
    """Whether ``text`` gives a measure: a number, in figures or words, with its unit
    ("8,849 metres", "a nearly four-degree lean") or a share."""
    return _MEASURE.search(text) is not None


def gives_measure(part: str, text: str) -> bool | None:
    """For a part asking how tall, far, long … something is (see ``unmeasured``), whether
    ``text`` gives such a measure ("981 miles", not "six states"); None for another part."""
    if (asked := _ASKS_MEASURE.match(part)) is None:
        return None
    return _measure_asked(part, asked.group()).search(text) is not None


@cache  # read for every statement ranked for a part (``answer_kinds.gives``)
def _measure_asked(part: str, asked: str) -> re.Pattern[str]:
    """What gives the measure a ``part`` asks for (``asked``: its "how …" words): a length
    or a time for "how long", one of the unit it names ("in parsecs"), else any measure."""
    measure = _LENGTH_OR_TIME if "long" in asked.lower() else _MEASURE
    if unit := _IN_UNIT.search(part):
        # "how far away is it in parsecs" names its unit: "1.3 parsecs" measures it
        measure = re.compile(rf"{measure.pattern}|{_NUMBER}{re.escape(unit[1])}\b", re.I)
    return measure


def unmeasured(part: str, findings: Sequence[tuple[Sequence[str], str]]) -> str | None:
    """Why the ``findings`` (the titles of each one's sources, its text) drawn for a part
    asking how tall, high, deep, far, wide, narrow, heavy or long something is give no measure, or None
    when one may or the part asks something else. A measure is a number with its unit
    ("8,849 metres", "9 km"); a date's day ("18 May 1804") or a count is none; for a part
    naming a thing, one from its entry or a sentence about it (another mountain's height
    does not say how tall Mount Pelée is); "how long is" is answered by a length or a
    time ("24 hours"), and one naming its unit ("in parsecs") by a number of that unit.
    "How long did" and "how big" are left out: a reign's years and "the largest
    contiguous empire" answer them."""
    if (asked := _ASKS_MEASURE.match(part)) is None:
        return None
    measure = _measure_asked(part, asked.group())
    # "the railway that crosses Siberia" is measured, not Siberia
    given = entities(main_clause(part))
    names = [name_words(unpossessed(n)) for n in given]
    named = text_roots(" ".join(w for n in names for w in n))
    # "how far does the city lie from Moscow": when the only names are those a distance
    # is taken from ("from" or "to"), a measure from one of them gives it ("420 kilometers
    # east of Moscow"); "How far is Mars from the Sun" asks of Mars's distance.
    far = "far" in asked.group().lower()
    taken_from = far and all(_after_from_or_to(part, n) for n in given)
    distance = _distance_from(measure, given) if taken_from and given else None
    for titles, text in findings:
        # *Olmec colossal heads* is the entry on what "How tall are the Olmec colossal
        # heads" asks of, though capitals read only "Olmec": a title of the part's words
        # naming more than its names (not *Olmecs*, the people)
        entry = any(titled_entry(tuple(n), t) for n in names for t in titles) or any(
            is_entry_on(part, t) and text_roots(t) > named for t in titles
        )
        for line in sentences(text) or [text]:
            # of the thing the part names: from its entry or a sentence about it
            about = not names or entry or _about(TOKEN.findall(line), names)
            if (about and measure.search(line)) or (distance and distance.search(line)):
                return None
    return "no finding drawn for it gives a measure of what it asks about"


def untimed_event(
    part: Part, findings: Sequence[tuple[Sequence[str], str]], referents: Sequence[str] = ()
) -> str | None:
    """Why the ``findings`` (the titles of each one's sources, its text) drawn for a part
    asking when something happened to a thing it names give no date of it, or None when
    one may or the part asks something else (see the module's description). A part that
    names nothing ("when will it return") is answered in other words than it asks in
    ("will next appear in mid-2061"), so it is checked only of the names of what its
    pronoun stands for (``referents``: "when did he die" after "Who wrote Hamlet" of
    *William Shakespeare*, whose entry may date his death; *Hamlet*'s "written … between
    1599 and 1601" does not)."""
    dated = asks_when(part.text) or asks_year(part.text)
    # "The struggle … over the Habsburg inheritance, linked to the conflict over Jenkins'
    # Ear: in which years was it fought": the names before the colon describe what "it"
    # is, they are no parties to the event asked of
    asked = part.text.rsplit(":", 1)[1] if ":" in part.text else part.text
    own = entities(asked)
    names = [name_words(n) for n in own or referents] if dated else []
    if not names:
        return None
    # "during what years did it strike Europe": what is dated is "it", struck somewhere a
    # line says after a preposition ("occurred in Europe from 1346 to 1353"); a name "it"
    # stands for (``referents``) is what is dated
    placed = bool(own) and _POINTED_SUBJECT.search(asked) is not None
    named = {stem(w) for n in names for w in n}
    event = [w for w in part.own if stem(w) not in named]
    parties = _parties(asked)
    for titles, text in findings:
        entry = any(titled_entry(tuple(n), t) for n in names for t in titles)
        on = {i for i, n in enumerate(parties) for t in titles if titled_entry(tuple(n), t)}
        for line in sentences(text) or [text]:
            said = TOKEN.findall(line) if DATE.search(line) else []
            if not said or not (
                entry or _about(said, names, placed=placed) or says_form(said, event)
            ):
                continue
            # "When did Malta win the FIFA World Cup": a date of Malta's is no date of
            # its winning the cup; a line giving both is (or one in the other's entry).
            if len(parties) < 2 or len(on | _giving(said, parties)) >= min(
                len(parties), PARTIES_DATED
            ):
                return None
    return "no finding drawn for it gives a date of what it asks about"


_POINTED_SUBJECT = re.compile(
    r"\b(?:did|does|do|was|were|is|are|has|have|had|will)\s+(?:it|he|she|they)\b", re.I
)


def _parties(part: str) -> list[list[str]]:
    """The words of each name a part gives that is party to what it asks when of (see
    ``party_names``), but for one whose relation it asks of ("when did Joseph II's mother
    become ruler": the mother is the party, whose entry need not name her son)."""
    return [
        name_words(n)
        for n in party_names(part, entities(part))
        if not re.search(rf"{re.escape(n)}(?<=['’]s)\s+[a-z]", part)
    ]


# A relative pronoun after the noun it describes ("the leader who …"), not a question word
# ("In which year …", "Which leader …", "and who …").
_RELATIVE = rf"\b(?!(?:{'|'.join(_PREPOSITIONS)}|and|or|but)\s)[a-z]+\s+(?:who|whom|whose|which)\b"


def party_names(part: str, names: Sequence[str]) -> list[str]:
    """The ``names`` (as the part writes them) that are party to the relation or event a
    part asks about: not a name after a preposition of place ("the Red Fort in Delhi",
    "the bridge between Kobe and Awaji Island"), which says where or which one ("travel to
    America", "elected to Congress" name a party), nor the owner of a work named next
    ("Ibsen's A Doll's House"), nor a name after "the <noun> of", which describes the
    party ("the writer of The Sound and the Fury": the writer is the party), nor one in a
    relative clause, which describes it too ("the Soviet leader who had Zhukov as his
    wartime deputy": the leader is the party)."""
    after = "|".join(PLACE_PREPOSITIONS)
    parties: list[str] = []
    placed = False  # the name before was no party: one joined to it by "and" is none either
    for n in names:
        joined = re.search(rf"\b(?:and|or)\s+(?:the\s+)?{re.escape(n)}", part) is not None
        placed = (joined and placed) or bool(
            re.search(rf"\b(?:{after})\s+(?:the\s+)?{re.escape(n)}", part)
            or re.search(rf"\b(?i:the)\s+[a-z]+\s+of\s+(?:(?i:the)\s+)?{re.escape(n)}", part)
            or re.search(rf"{re.escape(n)}(?<=['’]s)\s+(?:the\s+|an?\s+)?[A-Z]", part)
            or re.search(rf"{_RELATIVE}[^,;:?]*\b{re.escape(n)}", part)
        )
        if not placed:
            parties.append(n)
    return parties


def _giving(tokens: list[str], parties: list[list[str]]) -> set[int]:
    """Which of the ``parties`` a sentence (its ``tokens``) gives: every word of it, or
    its last word as a name ("Meitner" for Lise Meitner, "Prize" for the Nobel Prize)."""
    said = {stem(bare_word(t)) for t in tokens}
    capitalised = {bare_word(t) for t in tokens if t[:1].isupper()}
    return {
        i
        for i, n in enumerate(parties)
        if n and ({stem(w) for w in n} <= said or n[-1] in capitalised)
    }


_TO_POINT = 40  # characters at most between a distance and the name it is taken from


def _distance_from(measure: re.Pattern[str], points: Sequence[str]) -> re.Pattern[str]:
    """A ``measure`` taken from one of the ``points`` (names): the name after "of", "from"
    or "to" right after it ("420 kilometers (260 mi) east of Moscow"), not anywhere in the
    line ("the second-largest country on the Arabian Peninsula")."""
    named = "|".join(re.escape(point) for point in points)
    return re.compile(
        rf"(?:{measure.pattern})[^.;]{{0,{_TO_POINT}}}?\b(?:of|from|to)\s+(?:the\s+)?"
        rf"(?:{named})\b",
        re.IGNORECASE,
    )


def _after_from_or_to(part: str, name: str) -> bool:
    """Whether the ``part`` gives the ``name`` right after "from" or "to" ("from Moscow")."""
    return re.search(rf"\b(?i:from|to)\s+(?:the\s+)?{re.escape(name)}\b", part) is not None


def _about(tokens: list[str], names: list[list[str]], *, placed: bool = False) -> bool:
    """Whether a sentence (its ``tokens``) is about one of the ``names``: it gives one whole,
    not after a preposition ("the Eastern Roman Empire persisted until 1453", not "a
    tragedy by William Shakespeare, first performed in 1606"); for names that only place
    what is asked about (``placed``), after one too. A name the sentence gives its subject
    ("Gustavus Adolphus, also known as Gustav II Adolf, was King …") is whom it is about."""
    lower = [bare_word(t) for t in tokens]
    for name in names:
        n = len(name)
        for k in range(len(lower) - n + 1):
            if [stem(w) for w in lower[k : k + n]] == [stem(w) for w in name]:
                before = [w for w in lower[:k] if w not in ARTICLES]
                if placed or not (before and before[-1] in _PREPOSITIONS) or _named(before):
                    return True
    return False


def _named(before: list[str]) -> bool:
    """Whether the words ``before`` a name end by giving a thing that name ("known as",
    "referred to as": see NAMING_VERBS): the "as" is no preposition placing it."""
    return any(before[-len(v.split()) - 1 :] == [*v.split(), "as"] for v in NAMING_VERBS)


def titled_entry(name: tuple[str, ...], title: str) -> bool:
    """The source is the entry on the thing: its title (no qualifier) is the name, small
    words aside (*To the Lighthouse* for "Lighthouse", *The Bell Jar* for "Bell Jar": a
    name is read from capitals, which "To" and "The" only open)."""
    said = [stem(w) for w in name_words(title)]
    asked = [stem(w) for w in name]
    return said == asked or (_content(said) == _content(asked) != [])


def _content(name: list[str]) -> list[str]:
    """A name's words without its small words ("the", "to")."""
    return [w for w in name if w not in STOPWORDS]


def bare_word(token: str) -> str:
    """A word lower-cased without its possessive ending ("Canada's" → "canada")."""
    return token.lower().removesuffix("'s").removesuffix("’s")
