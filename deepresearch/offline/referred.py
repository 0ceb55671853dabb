"""Whether a part that points back to the thing the part before it asks for is answered
about that thing.

"What is the capital of Australia, and when was it founded?": "it" is the capital the
first part asks for. When no source answered that part, what "it" is was never found, and
a finding on when something was founded (*Tasmania*'s) answers the second part of another
thing; the second part is not answered either.

A pronoun stands for the asked-for thing only where that thing is the subject of the part
before, and of the pronoun's kind:
- the part before asks who or what did something ("Which element has the atomic number
  1", "Who founded …") or who or what "is the …" ("What is the capital of …"); where it
  asks what someone did ("What order does the plan recommend, and what targets does it
  set"), "it" is the one who did it;
- "who" asks for a person or people: "he", "she", "him", "they" or "them" stands for
  it, and so does "his", "her" or "their" ("where was his laboratory" after "Who invented
  the phonograph"); "what" or "which" for a thing, "it" does ("Which scientist discovered
  radium, and where was he born" may be either, so it is left alone);
- after "what" or "which" a possessive as often speaks of a name the question gives or a
  thing its own part names ("his vaccines" after "which fatal disease …", "that channel
  at its narrowest"), so it is read only where the part opens with it ("what is its
  atomic number" after "Which element has the chemical symbol Fe").

When the part before is answered, its answer is what the pronoun stands for, and a finding
answers the later part of it only from a source behind that answer (or another passage of
its file), one the answer names, or one that states all the part before asks and so
answers it too: "Who was the first emperor of Rome, and how did he come to power?" was
answered "He succeeded his stepfather Augustus, the first Roman emperor" (*Tiberius*), so
*Augustus* may say how he came to power, and *Sulla*, "the first general … to march on
Rome", does not. A later part asking when of that thing ("Who wrote Hamlet, and when did
he die") is dated of it (``answer_titles``, read by ``relations.untimed_event``): of the
sources behind the answer but the question's own names, not *Hamlet*'s "written … between
1599 and 1601".

A pronoun may instead stand for a name the part before gives (``given_names``): "she"
after "Who was Cleopatra", "it" after "Who wrote Hamlet" (a "who" asks for a person, which
"it" is not). Such a part keeps only its findings on that thing (``off_given``). Where
"it" may stand for either ("What sport is played at Wimbledon, and in which city is it
held"), a finding must be on one of them (``untied_either``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from deepresearch.offline.answer_kinds import SUPERLATIVE
from deepresearch.offline.asking import (
    PRONOUNS,
    WORD_TOKEN,
    defined_name,
    defines_name,
    main_clause,
    points_back,
)
from deepresearch.offline.bridges import entities
from deepresearch.offline.coverage import is_entry_on
from deepresearch.offline.mentions import TOKEN, holds_phrase, mentions_name, name_words
from deepresearch.offline.parts import Part
from deepresearch.offline.referents import PERSON_WORDS
from deepresearch.offline.relations import untimed_event
from deepresearch.offline.roots import says_all, says_any, text_roots
from deepresearch.providers.passages import HEADING_SEPARATOR
from deepresearch.roles import AnalyzeInputs
from deepresearch.text import AUXILIARY_VERBS, COPULAS

_STANDS_FOR = {
    "who": {"he", "she", "him", "they", "them", "his", "her", "their"},
    "what": {"it"},
    "which": {"it"},
}
_THING = frozenset({"it"})
# A part ending with a thing it points back to ("… who founded that state")
_ENDS_POINTING = re.compile(r"\b(?:that|this)\s+[a-z]+\W*$")
_PERSONAL = frozenset({"he", "she", "him"})
_PLACE = frozenset({"there"})
_IT_OR_THEY = frozenset({"it", "they", "them"})
# The question words of a part asking of a thing it gives, which a later pronoun stands
# for: a name ("Where was Napoleon born"), or a thing in lower case ("How does
# photosynthesis work").
_OF_NAMED = frozenset({"where", "when", "how", "why"})
_OF_THING = frozenset({"how", "why", "what"})
_DETERMINERS = frozenset({"the", "a", "an", "this", "that"})
_POINTING_BACK = (["that"], ["this"], ["it"], ["they"], ["those"], ["these"])
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")
_WHERE_CLAUSE = re.compile(r"\s+where\b", re.IGNORECASE)
_AUXILIARY = frozenset(AUXILIARY_VERBS.split("|")) | {"must", "may", "might", "shall"}
_MAIN_VERB = frozenset({"has", "have", "had"})  # "which element has the atomic number 1"
# "in which city is it held": a part asking which, its "it" in its own clause
_ASKS_WHICH = re.compile(r"^\W*(?:\w+\s+)?(?:which|what)\b", re.IGNORECASE)
_QUESTION_WORDS = frozenset({"what", "which", "who", "when", "where", "how"})
# "what is its atomic number", "who is its head of state": "its" right after what the
# part asks is the thing before
_ITS_ASKED = re.compile(
    r"^\W*(?:what|which|who|where|when)\s+(?:is|was|are|were)\s+its\b", re.IGNORECASE
)


# A part asking a measure of a thing it only describes ("How far from London is the city
# where the Beatles got together"): which thing is asked too.
_MEASURE_OF_DESCRIBED = re.compile(
    r"^\W*how\s+\w+\b[^,;]*?\b(?:is|was|are|were)\s+(?:the|that)\s+\w+(?:\s+\w+)?\s+"
    r"(?:where|that|which|who)\b",
    re.IGNORECASE,
)
_STANDS_FOR_PLACE = frozenset({"it", "its", "there"})


def points_to_asked(part: str, before: str) -> bool:
    """Whether a pronoun of ``part`` stands for the thing the part ``before`` it asks for
    (see the module's description), or the thing it asks a measure of and only describes
    ("about how many people lived there" after "How far from London is the city where the
    Beatles got together")."""
    if _MEASURE_OF_DESCRIBED.match(before):
        return bool({w.lower() for w in WORD_TOKEN.findall(part)} & _STANDS_FOR_PLACE)
    words = [w.lower() for w in WORD_TOKEN.findall(before)]
    if not words or words[0] not in _STANDS_FOR or defines_name(before.strip()):
        return False
    said = {w.lower() for w in WORD_TOKEN.findall(part)}
    # "Which Roman general crossed the Rubicon, and who killed him": "which" and "what"
    # may ask for a person, whom "he" stands for where it is the subject
    # (not "Which of William Herschel's siblings …, and when did he move": he is the
    # named one, whose own the asked thing is)
    person = words[0] != "who" and bool(said & _PERSONAL) and not _POSSESSIVE.search(before)
    if person and words[1:2] == ["of"]:
        return False
    owner = words[0] != "who" and bool(_ITS_ASKED.match(part))
    if not said & _STANDS_FOR[words[0]] and not person and not owner:
        return False
    # the first auxiliary after the question word says whether it asks for the subject
    at = next((k for k, w in enumerate(words[1:], 1) if w in _AUXILIARY), None)
    if at is None or words[at] in _MAIN_VERB:
        return True
    if words[at] not in COPULAS:
        return False
    # "Which Greek philosopher is credited with …, and which island was he from": he is
    # the philosopher; "What technique is the director of … known for, and what else did
    # he make": he is the director
    if person:
        written = WORD_TOKEN.findall(before)[at + 1 : at + 2]
        return bool(written) and written[0].lower() not in _DETERMINERS and written[0].islower()
    # "Which dynasty was that": the copula's complement points back, so the part asks
    # which thing it is
    return words[at + 1 : at + 2] == ["the"] or words[at + 1 :] in _POINTING_BACK


def given_names(part: str, before: str) -> list[str]:
    """The names the part ``before`` gives in its main clause that a pronoun of ``part``
    stands for: "he", "she", "him" or "it" after a part asking who or what a named thing
    is ("Who was Cleopatra, and how did she die"), "it" after one asking who did something
    to a named thing ("Who wrote Hamlet, and when was it first performed": a "who" asks
    for a person, which "it" is not) unless that part points back to a thing itself ("that
    state"), which "it" goes on with. Not a possessive ("its author", "his second
    emperor": another thing, of the named one), nor a pronoun in a clause describing what
    the part asks about ("the rules of the game he dominated")."""
    said = pronouns_said(part)
    if (defined := defined_name(before)) is not None:
        # "there" too, of a place: "What is the Amazon rainforest, and how many species
        # live there"
        if not said & (_PERSONAL | _THING | _PLACE):
            return []
        # "the Amazon rainforest": a name going on in lower case, which capitals miss
        return [defined] if defined.split()[-1].islower() else _names_given(before)
    stands = _first_word(before) == "who" and bool(said & _THING) and not said & _PERSONAL
    # "Who led the Bulgars who founded that state, and when was it founded": "it" goes on
    # with the thing that part points back to, not a name it gives
    return _names_given(before) if stands and not _ENDS_POINTING.search(before) else []


def _names_given(before: str) -> list[str]:
    """The names the main clause of the part ``before`` gives ("Disney's Snow White": two
    names, the owner's and the thing's)."""
    return [n.strip() for e in entities(_main(before)) for n in _POSSESSIVE.split(e) if n.strip()]


def _main(text: str) -> str:
    """The text's main clause (``asking.main_clause``), up to a "where" clause too ("the
    stock exchange where Black Thursday took place")."""
    return _WHERE_CLAUSE.split(main_clause(text), maxsplit=1)[0]


def _in_contact_clause(text: str) -> set[str]:
    """The pronouns of ``text`` opening a clause that describes the noun before them ("the
    game he dominated")."""
    tokens = [w.lower() for w in WORD_TOKEN.findall(text)]
    return {
        w for k, w in enumerate(tokens) if k > 1 and tokens[k - 2] in _DETERMINERS and w in PRONOUNS
    }


def on_given(
    names: Collection[str], sources: Collection[str], text: str, titles: Collection[str]
) -> bool:
    """Whether a finding drawn for a part whose pronoun stands for one of the ``names``
    the part before gives (``given_names``) is on that thing: it comes from a source
    titled with the name (``sources``: its sources' titles and documents) or its ``text``
    states the name, or its last word alone ("Linnaeus" for *Carl Linnaeus*) where no
    other gathered source's title (``titles``) has that word; not where the title or the
    text is that of another gathered entry whose title holds the name, beside the name's
    own entry. *Macbeth*'s "first performed in 1606" does not say when *Hamlet* was, nor
    is *1911 Revolution* or *Russian Revolution of 1905* on the Haitian or the Russian
    Revolution."""
    said = TOKEN.findall(text)
    lowered = [t.lower() for t in said]
    wanted = [name_words(n) for n in names]
    entries = [_entry_words(t) for t in titles]
    # only beside an entry of the name's own: "PEP" names no entry, and each "PEP 324 …"
    # section is on it
    longer = [e for e in entries for n in wanted if n in entries and e != n and holds_phrase(e, n)]
    if any(holds_phrase(lowered, e) for e in longer):
        return False
    by_title = [name_words(t) for t in sources if _entry_words(t) not in longer]
    return any(holds_phrase(e, n) for e in by_title for n in wanted) or any(
        mentions_name(said, n) for n in wanted + _short_names(wanted, titles)
    )


def _entry_words(title: str) -> list[str]:
    """The name words of the entry a source is (a passage's: its document's title)."""
    return name_words(title.split(HEADING_SEPARATOR, 1)[0])


def _short_names(names: list[list[str]], titles: Collection[str]) -> list[list[str]]:
    """The last words of the longer ``names`` that stand for them alone: no gathered
    title that is not on the name has the word ("Revolution" is the *1911 Revolution*'s
    too)."""
    short = [n[-1:] for n in names if len(n) > 1]
    others = [name_words(t) for t in titles]
    others = [t for t in others if not any(holds_phrase(t, n) for n in names)]
    return [w for w in short if not any(w[0] in t for t in others)]


def named_on_given(
    names: Collection[str],
    before: Sequence[tuple[Collection[str], str, Collection[str]]],
    titles: Collection[str],
) -> set[str]:
    """The ``titles`` that the findings drawn for the part before which are on one of the
    ``names`` (``on_given``) name: "Carl Linnaeus … formalised binomial nomenclature"
    names *Binomial nomenclature*, which answers "what naming system did he formalise"
    without naming him. Each finding is given by its sources' titles and documents, its
    text, and the titles its sources link to (a common noun names a linked entry)."""
    on = [
        (TOKEN.findall(text), links)
        for where, text, links in before
        if on_given(names, where, text, titles)
    ]
    given = [name_words(n) for n in names]
    return {
        t
        for t in titles
        if any(mentions_name(said, name_words(t), linked=t in links) for said, links in on)
        # "Martin Luther King Jr." names no *Martin Luther*
        and not any(holds_phrase(n, name_words(t)) and n != name_words(t) for n in given)
    }


def off_given(
    parts: Sequence[tuple[str, bool]],
    findings: Sequence[tuple[int, Collection[str], str, Collection[str]]],
    titles: Collection[str],
    every: Collection[str],
) -> tuple[set[int], dict[int, str]]:
    """The findings (by index) drawn for a part whose pronoun stands for a name the part
    before gives (``given_names``) that are not on that thing (``on_given``) nor from an
    entry the part before's findings on it name (``named_on_given``): "when was it first
    performed" after "Who wrote Hamlet" keeps *Hamlet*'s, not *Macbeth*'s; and part index
    → why such a part left with none is not answered. ``parts``: each part's text (names
    cased as the gathered titles write them) and whether it points back; each finding:
    its part, its sources' titles and documents, its text, the titles its source links
    to; ``titles``: the gathered sources' titles; ``every``: those of earlier iterations'
    too, where the entry a pronoun stands for may be (``entry_asked_of``)."""
    dropped: set[int] = set()
    ungiven: dict[int, str] = {}
    for i in range(1, len(parts)):
        (part, refers_back), (before, _) = parts[i], parts[i - 1]
        earlier = [(at, text, links) for p, at, text, links in findings if p == i - 1]
        given = (
            given_titled(part, before, titles)
            or entry_asked_of(part, before, every)
            or person_asked_of(part, before, earlier)
            if refers_back
            else []
        )
        mine = [n for n, f in enumerate(findings) if f[0] == i]
        if not given or not mine:
            continue
        named = named_on_given(given, earlier, titles)
        off = {
            n
            for n in mine
            if not (
                on_given(given, findings[n][1], findings[n][2], titles)
                or set(findings[n][1]) & named
            )
        }
        dropped |= off
        if off == set(mine):
            ungiven[i] = _ungiven_reason(given)
    return dropped, ungiven


def person_asked_of(
    part: str, before: str, earlier: Sequence[tuple[Collection[str], str, Collection[str]]]
) -> list[str]:
    """The person a "he", "she" or "him" of ``part`` stands for when the part ``before``
    asks where, when, how or why of the one name it gives, whose entry among the sources
    of ``earlier`` (that part's findings: their sources' titles, text, links) speaks of a
    person: "Where was Napoleon born, and where did he die" (*Napoleon*'s "He rose to
    prominence …"). Not an "it" ("how is Moses connected to it, and what place does it
    hold in Judaism": the Torah), nor a name whose entry is no person's ("How many Oscars
    has the actor who voiced Woody won, and which honour did he receive": the actor)."""
    said = pronouns_said(part)
    names = _names_given(before)
    if not said & _PERSONAL or _first_word(before) not in _OF_NAMED or len(names) != 1:
        return []
    wanted = name_words(names[0])
    on_person = [text for at, text, _ in earlier if any(_entry_words(t) == wanted for t in at)]
    return names if any(PERSON_WORDS.search(text) for text in on_person) else []


def entry_asked_of(part: str, before: str, titles: Collection[str]) -> list[str]:
    """The gathered entry an "it" or "they" of ``part`` stands for when the part
    ``before`` asks how, why or what of a thing it writes in lower case ("How does
    photosynthesis work, and where does it take place": *Photosynthesis*; "What causes
    tides, and how often do they occur": *Tide*): the one title made of that part's
    words. None where that part gives a name (see ``given_names``) or a superlative
    ("What is the largest ocean, and how deep is it": the ocean it finds) or points back
    itself ("what virus caused that disease": not *Virus*), where several titles are made
    of its words, or where ``part`` asks of a thing of its own, an entry made of its words
    ("what role does chlorophyll play in it")."""
    said = pronouns_said(part)
    if not said & _IT_OR_THEY or _first_word(before) not in _OF_THING:
        return []
    if entities(before) or SUPERLATIVE.search(before) or points_back(before):
        return []
    # "what role does chlorophyll play in it": a part asking of a thing of its own
    if any(is_entry_on(part, t) for t in titles):
        return []
    entries = [t for t in titles if is_entry_on(before, t)]
    return entries if len(entries) == 1 else []


def pronouns_said(part: str) -> set[str]:
    """The words (lower-cased) of the ``part``'s main clause, less those of a clause
    describing what it asks about: where a pronoun standing for an earlier thing is."""
    return {w.lower() for w in WORD_TOKEN.findall(_main(part))} - _in_contact_clause(part)


def _first_word(text: str) -> str:
    """The ``text``'s first word, lower-cased ("" for none)."""
    return next(iter(WORD_TOKEN.findall(text)), "").lower()


def given_titled(part: str, before: str, titles: Collection[str]) -> list[str]:
    """``given_names``, two names joined by "and" into a gathered title (``titles``) read
    as that title (see ``_titles_joined``)."""
    return _titles_joined(given_names(part, before), before, titles)


def _titles_joined(names: list[str], before: str, titles: Collection[str]) -> list[str]:
    """The ``names`` the part ``before`` gives, two it joins by "and" into a gathered
    title as that title: "Who wrote Pride and Prejudice" gives *Pride and Prejudice*, not
    *Pride* and *Prejudice* ("Who founded Amazon and Microsoft" gives two)."""
    entries = {tuple(name_words(t)): t for t in titles}
    said = name_words(before)
    out: list[str] = []
    for name in names:
        joined = [*name_words(out[-1]), "and", *name_words(name)] if out else []
        title = entries.get(tuple(joined))
        if title is not None and holds_phrase(said, joined):
            out[-1] = title
        else:
            out.append(name)
    return out


def _ungiven_reason(names: Collection[str]) -> str:
    """Why a part whose pronoun stands for one of the ``names`` the part before gives is
    not answered when no finding drawn for it is on that thing (``on_given``)."""
    shown = " or ".join(repr(n) for n in names)
    return f"no finding drawn for it comes from a source on {shown} or states it"


def hangs_on_unanswered(part: str, before: str, before_answered: bool) -> str | None:
    """Why ``part`` is not answered when it points back to what the unanswered part
    ``before`` it asks for, else None."""
    if before_answered or not points_to_asked(part, before):
        return None
    return f"it points back to what '{before.strip()}' asks for, which no source answered"


def unconnected_answer(
    part: str,
    before: tuple[str, Collection[str]],
    findings: Sequence[tuple[Collection[str], str]],
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
) -> str | None:
    """Why the ``findings`` drawn for a part pointing back to what the answered part
    before it asks for do not answer it of that thing, else None. ``before``: that part
    and the roots of its own words. Each finding is given by its sources, each source by
    its title and the document it is part of (a passage of a file answers with the rest of
    the file), and by what those sources state: a source stating every word of the part
    before answers it too, though its answer was drawn from others ("She won the 1911
    Nobel Prize in Chemistry for the discovery of the elements radium and polonium" for
    "Who discovered radium, and what prize did she win"). ``answers``: the findings drawn
    for the part before (their sources so given, their text); ``titles``: the titles of
    the sources gathered."""
    before_text, asked = before
    if not answers or not points_to_asked(part, before_text):
        return None
    if tied_findings(part, before, [sources for sources, _ in findings], answers, titles):
        return None
    # not of a superlative, held by one thing: another entry saying its words ("the
    # largest", "population", "Africa") says them of something else
    if (
        asked
        and not SUPERLATIVE.search(before_text)
        and any(says_all(set(asked), text_roots(stated)) for _, stated in findings)
    ):
        return None
    return (
        f"no finding drawn for it comes from a source behind the answer to "
        f"'{before_text.strip()}', one that answer names or one stating all it asks"
    )


def tied_findings(
    part: str,
    before: tuple[str, Collection[str]],
    findings: Sequence[Collection[str]],
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
) -> list[int]:
    """Which of the ``findings`` (by index; each its sources by title and document) drawn
    for a part pointing back to what the answered part ``before`` it asks for come from a
    source behind that part's ``answers`` or one those name (see ``unconnected_answer``);
    all of them when the part does not point back so or the part before drew no answer."""
    before_text, asked = before
    if not answers or not points_to_asked(part, before_text):
        return list(range(len(findings)))
    behind = {t for sources, _ in answers for t in sources}
    named = _named_by(answers, titles, _given(part, before_text), asked)
    return [k for k, sources in enumerate(findings) if set(sources) & (behind | named)]


def untied_either(
    part: str,
    before: str,
    findings: Sequence[tuple[Collection[str], str]],
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
) -> str | None:
    """Why the ``findings`` drawn for a part whose "it" may stand for the thing the part
    ``before`` asks for or for a name it gives ("What sport is played at Wimbledon, and in
    which city is it held": the sport, or Wimbledon) answer it of neither, else None: none
    is on either (``on_either``)."""
    on = on_either(part, before, findings, answers, titles)
    if on is None or on:
        return None
    shown = " or ".join(repr(n) for n in _names_given(before))
    return f"no finding drawn for it is on {shown} or on the answer to {before.strip()!r}"


def on_either(
    part: str,
    before: str,
    findings: Sequence[tuple[Collection[str], str]],
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
) -> list[int] | None:
    """Which of the ``findings`` (by index) drawn for a part whose "it" may stand for the
    thing the part ``before`` asks for or for a name it gives are on one of them: from a
    source behind the ``answers`` to the part before or an entry they name, or on a name
    it gives (``on_given``). Each finding is given by its sources (titles and documents)
    and its text; ``titles``: the gathered sources'. None where the pronoun's thing is
    known (``points_to_asked``, ``given_names``), is no "it" of the part's own clause
    ("the city where it stands" describes a city), or the part before asks nothing (a
    story's "it" may be anything it tells of) or names nothing."""
    own = part if _ASKS_WHICH.match(part) else _main(part)
    said = {w.lower() for w in WORD_TOKEN.findall(own)} - _in_contact_clause(own)
    if not said & _THING or _first_word(before) not in _QUESTION_WORDS:
        return None
    if points_to_asked(part, before) or given_names(part, before):
        return None
    names = _names_given(before)
    if not names or not findings:
        return None
    behind = {t for sources, _ in answers for t in sources}
    behind |= _named_by(answers, titles, _given(part, before), ())
    return [
        k
        for k, (sources, text) in enumerate(findings)
        if set(sources) & behind or on_given(names, sources, text, titles)
    ]


def answer_titles(
    part: str,
    before: tuple[str, Collection[str]],
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
) -> list[str]:
    """The titles of the things a part pointing back to what the part ``before`` it asks
    for may stand for (``before``: that part and the roots of its own words), as
    ``answers`` (the findings drawn for that part: their sources by title and document,
    their text) gave it: the gathered ``titles`` of their sources, not the names the
    question gives ("Who wrote Hamlet, and when did he die": *William Shakespeare*, not
    *Hamlet*); none when the part does not point back so. The titles the answers' texts
    name are read only when no other source is behind them: "The Tragedy of Hamlet,
    Prince of Denmark, … written by William Shakespeare" names *Denmark* too."""
    before_text, asked = before
    if not answers or not points_to_asked(part, before_text):
        return []
    given = _given(part, before_text)
    behind = {t for sources, _ in answers for t in sources}
    found = [t for t in titles if t in behind and not holds_phrase(given, name_words(t))]
    return sorted(found or _named_by(answers, titles, given, asked))


def _given(part: str, before: str) -> list[str]:
    """The words, lower-cased, of the question's two parts."""
    return [t.lower() for t in TOKEN.findall(f"{before} {part}")]


def _named_by(
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
    given: list[str],
    asked: Collection[str],
) -> set[str]:
    """The ``titles`` the ``answers``' texts name, but for those the question gives
    (``given``, its words): a name the question gives is not the thing asked for ("the
    first emperor of Rome"). Read only the answers stating a word the part before asks
    with (``asked``, their roots): a finding drawn for "Who painted The Starry Night" from
    *Night*, "Daylight illuminates one side of Earth", says nothing of what was asked."""
    said = [
        TOKEN.findall(text)
        for _, text in answers
        if not asked or says_any(set(asked), text_roots(text))
    ]
    return {
        t
        for t in titles
        if any(mentions_name(tokens, name_words(t)) for tokens in said)
        and not holds_phrase(given, name_words(t))
    }


def answer_before(
    before: str, inputs: AnalyzeInputs, drawn: list[tuple[set[str], str]]
) -> list[tuple[set[str], str]]:
    """The answer to the part ``before`` (each finding's sources by title and document,
    its text): an earlier iteration's findings for it, else those ``drawn`` in this one. A
    later iteration searches for what is missing, and the findings it draws for a part
    already answered come from whatever it found ("Daylight illuminates one side of Earth"
    for "Who painted The Starry Night")."""
    return [(set(w), t) for p, w, t in inputs.earlier_answers if p == before] or drawn


def unconnected(
    part: Part,
    before: Part,
    findings: tuple[list[tuple[list[str], str]], list[set[str]]],
    answers: list[tuple[set[str], str]],
    texts: dict[str, str],
) -> str | None:
    """Why a part pointing back to what the answered part ``before`` it asks for is not
    answered of that thing: its ``findings`` (the titles of each one's sources and its
    text; the titles and documents of those sources) come from no source tied to the
    ``answers`` to the part before, or, asking when, date nothing of it. ``texts``: each
    gathered source's text by title."""
    behind, found = findings
    stated = [" ".join(texts.get(t, "") for t in of) for of, _ in behind]
    asked = (before.text, text_roots(" ".join(before.own)))
    tied = list(zip(found, stated, strict=True))
    if reason := unconnected_answer(part.text, asked, tied, answers, texts.keys()):
        return reason
    referents = answer_titles(part.text, asked, answers, texts.keys())
    return untimed_event(part, behind, referents) if referents else None
