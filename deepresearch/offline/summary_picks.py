"""Which findings a question part's line of the executive summary opens with and shows.

Each part gets SUMMARY_PER_PART findings (SUMMARY_ALONE when the question has one part),
chosen from its findings in the analysis's order for the names and numbers they state
beyond the question's words, the one that gives the kind of answer asked for first (a
time for "when", a number for "how many", the doer for "who did"), a line that opens with
a pronoun led by its source's statement naming what it stands for.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from deepresearch.offline.answer_kinds import (
    SUPERLATIVE,
    TOKEN_EDGES,
    answer_kind,
    asks_most_had,
    counts_asked,
    deed_on_object,
    gives,
    says_most_had,
)
from deepresearch.offline.asking import (
    asked_doer,
    asks_for_entity,
    compares_things,
    main_clause,
    points_back,
    question_word,
)
from deepresearch.offline.attributes import asked_attribute, states_attribute
from deepresearch.offline.bridges import derived_said, entities
from deepresearch.offline.coordination import PREPOSITION_WORDS
from deepresearch.offline.coverage import is_entry_on
from deepresearch.offline.mentions import TOKEN, holds_phrase, mentions_name, name_words
from deepresearch.offline.quotes import CODE
from deepresearch.offline.referents import PERSON_WORDS
from deepresearch.offline.relations import titled_entry
from deepresearch.offline.roots import close_word, text_roots
from deepresearch.providers import vectors
from deepresearch.roles import FindingBrief
from deepresearch.text import STOPWORDS, jaccard, term_set, words

# The executive summary gives each part the findings that state its answer: SUMMARY_PER_PART
# of them (SUMMARY_ALONE when the question has one part: its answer is the whole summary),
# chosen from the part's findings by the analysis's order, for the names and numbers they
# state beyond the question's words, and against a mere definition when the part asks
# who, which, when, where, how or why (a definition answers "what is").
SUMMARY_PER_PART = 2
SUMMARY_ALONE = 3
SPECIFIC_WEIGHT = 0.3  # a finding stating SPECIFIC_ENOUGH new names or numbers gains this
SPECIFIC_ENOUGH = 4
DEFINITION_PENALTY = 0.2
# "X is a …" in its first few words: what a definition looks like
SAME_SOURCE_BONUS = 0.2  # a second finding from the first's source continues its answer
COMPARED = 2  # entries a comparison's line goes through before going on with the first
_DEFINITION = re.compile(r"^\W*\w+(?:\s+\S+){0,5}?\s+(?:is|are|was|were)\s+(?:a|an|the)\b")


def _specifics(text: str, asked: set[str]) -> int:
    """How many distinct names and numbers ``text`` states that are not among the words
    ``asked``: capitalised words past the first, and anything with a digit."""
    found: set[str] = set()
    for i, token in enumerate(text.split()):
        bare = token.strip(TOKEN_EDGES)
        if not bare or not (any(ch.isdigit() for ch in bare) or (i and bare[0].isupper())):
            continue
        said = words(bare)
        if said and not set(said) <= asked:
            found.add(bare.lower())
    return len(found)


def _asks_what(part: str) -> bool:
    """The part asks what something is ("What is …", "explain what …"), or no question
    word leads it: a definition may be its answer."""
    return question_word(part) in (None, "what")


def summary_picks(
    part: str,
    findings: list[FindingBrief],
    asked: set[str],
    shown: set[str],
    room: int,
    titles: dict[int, str],
    referred: tuple[frozenset[int], set[int], set[int]],
    reserved: frozenset[str] = frozenset(),
) -> list[FindingBrief]:
    """Up to ``room`` of a part's ``findings`` (in the analysis's order, best first) for the
    summary: the first ranked for the names and numbers they state beyond the ``asked``
    words and, unless the part asks what something is, against a definition (for a part
    asking when, how many or who did something, the best that gives a time, a number or
    a doer, if one does; among those, or else, one from the entry another finding names
    for a thing the part describes, or from the entry on a thing the part names,
    ``titles``: citation → title, or on a person, for a part pointing back to one, the
    first of ``referred``, one an earlier part's line cites first, its second; see
    ``_again`` for its third); then more
    of the same source's, not ones an earlier part's summary line already ``shown``, nor
    two that say the same, nor one ``reserved`` for a later part (listed under it)."""
    asked = asked | set(words(part))
    kind = answer_kind(part)
    # "Neil Armstrong was an American astronaut who … became the first person to walk on
    # the Moon": a definition stating the superlative asked for is no mere definition.
    # Things set side by side are told apart by what each is: their definitions answer.
    compared = compares_things(part)
    define_ok = _asks_what(part) or kind == "superlative" or compared
    # nor one saying it is the kind asked for: "Cairo is the capital and largest city of
    # Egypt" for "in which city does it stand"
    kinds = term_set(" ".join(m.split()[-1].lower() for m in _KIND_ASKED.findall(part)))
    rank = {f.id: n for n, f in enumerate(findings)}
    fresh = _fresh(part, findings, shown, kind, asked)
    base = {
        f.id: 1 / (1 + rank[f.id])
        + SPECIFIC_WEIGHT * min(1.0, _specifics(f.content, asked) / SPECIFIC_ENOUGH)
        - (0.0 if define_ok else _definition_penalty(f.content, kinds))
        for f in findings
    }
    leads = _leads(part, fresh, asked, titles, referred[:2])
    leads = _again(part, findings, leads, referred[2])
    picks: list[FindingBrief] = [max(leads, key=lambda f: base[f.id])] if leads else []
    # a comparison goes on to the definition of another entry it may open with (two
    # things set side by side), then more of the first
    others = {n for f in leads for n in f.citations[:1]} if compared else set()
    picks = _go_on(picks, fresh, (base, said_of(part)), room, (reserved, others))
    return _antecedent_first(picks, fresh, room, titles)


def _go_on(
    picks: list[FindingBrief],
    fresh: list[FindingBrief],
    ranked: tuple[dict[str, float], Callable[[str], bool]],
    room: int,
    kept: tuple[frozenset[str], set[int]],
) -> list[FindingBrief]:
    """``picks`` (the opening line) and the findings that go on from it, up to ``room``:
    by their ``ranked`` score, from the same source or saying a word of the part (its
    test), not ``kept[0]`` (reserved for a later part); for a comparison, first the
    definition of another entry among ``kept[1]`` (those it may open with)."""
    base, own = ranked
    reserved, others = kept
    while len(picks) < room:
        lead = picks[0].citations[:1] if picks else None
        seen = {n for p in picks for n in p.citations[:1]}
        unseen = others - seen if len(seen) < COMPARED else set()
        options = [
            f
            for f in fresh
            if f not in picks
            and not (picks and f.content in reserved)
            and all(jaccard(term_set(f.content), term_set(p.content)) < 0.5 for p in picks)
            # after the first, one that goes on from its source or says a word of the
            # part: not a stray line ("Vladivostok is the largest city …" after the fall
            # of maternal mortality)
            and (not picks or f.citations[:1] == lead or own(f.content))
        ]
        if not options:
            break
        picks.append(
            max(
                options,
                key=lambda f: (
                    base[f.id]
                    + SAME_SOURCE_BONUS * (f.citations[:1] == lead and not unseen)
                    + SAME_SOURCE_BONUS
                    * bool(set(f.citations[:1]) & unseen and _DEFINITION.match(f.content))
                ),
            )
        )
    return picks


_LOWER_WORD = re.compile(r"\b[a-z]+\b")


def _definition_penalty(text: str, kinds: set[str]) -> float:
    """DEFINITION_PENALTY for a bare definition ("X is a …"), unless it says each of the
    ``kinds`` of thing a part asks for (not empty) as a word of its own, in lower case:
    not inside a name ("the City of Westminster")."""
    if not _DEFINITION.match(text):
        return 0.0
    said = term_set(" ".join(_LOWER_WORD.findall(text)))
    return 0.0 if kinds and kinds <= said else DEFINITION_PENALTY


def _fresh(
    part: str, findings: list[FindingBrief], shown: set[str], kind: str | None, asked: set[str]
) -> list[FindingBrief]:
    """The ``findings`` a part's line may show: not one an earlier line ``shown``, nor a
    code line when there is prose; but, for a part asking when (``kind``), its best
    finding giving a date, shown or not ("in what year" after "Who discovered
    penicillin": the date the line before showed), and for one asking how many, when none
    of those gives a number, the shown ones that do."""
    fresh = [f for f in findings if f.content not in shown] or findings
    # A code line answers in the findings, quoted; the summary says it in prose if it can.
    fresh = [f for f in fresh if not f.content.startswith(CODE)] or fresh
    if kind == "number" and not any(gives(f.content, kind, asked, part) for f in fresh):
        fresh += [f for f in findings if f not in fresh and gives(f.content, kind, asked, part)]
    dated = [f for f in findings if kind == "time" and gives(f.content, kind, asked, part)]
    if dated and dated[0] not in fresh:
        # the part's best finding giving a date, though a line before showed it ("when did
        # the khanate end": "… from 1501 to 1785", not another khanate's founding date)
        fresh = [dated[0], *fresh]
    # ... and, when none of those says a word of the part, the shown ones that do ("whose
    # novella was the story taken from": "… based on the novella … by Prosper Mérimée"
    # opened the line before)
    said = said_of(part)
    roots = text_roots(part)
    if not any(said(f.content) or derived_said(roots, text_roots(f.content)) for f in fresh):
        fresh += [f for f in findings if f not in fresh and said(f.content)]
    return fresh


def _again(
    part: str, findings: list[FindingBrief], leads: list[FindingBrief], answer: set[int]
) -> list[FindingBrief]:
    """For a part pointing back to what the part before asks for, or to a name it gives,
    whose line opened with the source ``answer``, when its ``leads`` hold none of that
    source's: its findings
    among the part's own that say a word of it, though the line before showed them
    ("Alexander Graham Bell was a Scottish-born … inventor" for "where was he born", not
    *Max Born*'s entry); any of them when the part has no word of its own ("where is
    it")."""
    if not answer or any(f.citations[:1] and f.citations[0] in answer for f in leads):
        return leads
    # the kind asked for ("in which city is it") is seldom said by the answer ("in Dubai")
    bare = _KIND_ASKED.sub(lambda m: m[0].split()[0], part)
    said = said_of(bare) if term_set(bare) else lambda _: True
    # nor, of a person, the verb ("where did he work": "a professor at … MIT")
    asked = answer_kind(part, names=True) if PERSON_WORDS.search(part) else None
    known = set(words(part))
    again = [
        f
        for f in findings
        if f.citations[:1]
        and f.citations[0] in answer
        and (said(f.content) or (asked and gives(f.content, asked, known, part)))
    ]
    # "who led it": a line of the answer's entry saying "led to the founding of a state"
    # names no leader, which the part's leads do
    kind = answer_kind(part)
    if kind and any(gives(f.content, kind, known, part) for f in leads):
        again = [f for f in again if gives(f.content, kind, known, part)]
    return again or leads


_KIND_ASKED = re.compile(r"\b(?:which|what)\s+\w+", re.IGNORECASE)


def said_of(part: str) -> Callable[[str], bool]:
    """Whether a statement says a word of the ``part``: one it writes in lower case, or a
    name it gives, written as the part writes it ("Jaws" the film, not "The jaws are a
    pair of …"), or the name's last word ("Joyner-Kersee")."""
    # the part's first word is capitalised whatever it is ("Compare Confucius …")
    names = [TOKEN.findall(n) for n in entities(part[:1].lower() + part[1:])]
    plain = term_set(part) - term_set(" ".join(" ".join(n) for n in names))
    names += [n[-1:] for n in names if len(n) > 1]

    def said(text: str) -> bool:
        tokens = [t.removesuffix("'s").removesuffix("’s") for t in TOKEN.findall(text)]
        # a word the part writes in lower case is not said inside a name (*Max Born* does
        # not say "born"); in a compound it is ("Scottish-born" does)
        pieces = [p for t in tokens for p in (t, *t.split("-")[1:]) if p]
        lower = " ".join(p for k, p in enumerate(pieces) if not (k and _in_name(pieces[k - 1], p)))
        return bool(term_set(lower) & plain) or any(holds_phrase(tokens, n) for n in names)

    return said


def _in_name(before: str, word: str) -> bool:
    """Whether a capitalised ``word`` goes on a name (after a capitalised word ``before``)."""
    return word[:1].isupper() and not word.isupper() and before[:1].isupper()


# A statement opening with a pronoun continues one before it ("He shared the 1945 Nobel
# Prize …" after "Sir Alexander Fleming was a Scottish physician").
_PRONOUN_OPENING = re.compile(r"^(?:he|she|it|they|his|her|its|their|this|these)\b", re.IGNORECASE)


def _antecedent_first(
    picks: list[FindingBrief], findings: list[FindingBrief], room: int, titles: dict[int, str]
) -> list[FindingBrief]:
    """The ``picks`` opened, when the first opens with a pronoun, by a statement of its
    source that does not (the best one among ``findings``: a pick, else one taking the
    last pick's place when the line has ``room`` for no more), so the line does not
    open with "He"; one naming the source's subject (``titles``: citation → title) first:
    "Mars is the fourth planet from the Sun" before "It is also known as the Red Planet",
    not the line on its atmosphere that stood before it."""
    if not picks or not _PRONOUN_OPENING.match(picks[0].content):
        return picks
    source = picks[0].citations[:1]
    subject = name_words(titles.get(source[0], "")) if source else []
    options = [
        f
        for f in [*picks[1:], *(f for f in findings if f not in picks)]
        if f.citations[:1] == source and not _PRONOUN_OPENING.match(f.content)
    ]
    naming = [
        f
        for f in options
        if subject and holds_phrase([t.lower() for t in TOKEN.findall(f.content)], subject)
    ]
    lead = next(iter(naming or options), None)
    if lead is None:
        return picks
    return [lead, *[p for p in picks if p is not lead][: room - 1]]


def _naming(
    part: str, findings: list[FindingBrief], titles: dict[int, str], persons: frozenset[int]
) -> list[FindingBrief]:
    """The ``findings`` from the entry on a thing the ``part`` names or asks about: their
    first source's title (``titles``: citation → title) is made of the part's words
    (*Mount Everest*, not *Council of Europe* for "Europe"). For a part that points back
    to a person ("which political system did he support"), those from entries on a
    person (``persons``, see ``Referents``): what *he* supported is said of him, not in
    the entry on a political system. None for a part that points back to a thing ("how
    did it change Europe" asks about "it") or asks for a thing it does not name, but a
    date or a number ("Which
    Königsberg-born philosopher …": its names only describe it; "What is the largest
    ocean": *Ocean* is the kind, not the one asked for)."""
    # "which political system did he support": asked of a person an earlier part gives
    if points_back(part) and PERSON_WORDS.search(part):
        return [f for f in findings if f.citations and f.citations[0] in persons]
    # "Which is larger, Jupiter" (of "…, Jupiter or Saturn") asks it of the one it names
    if about := _choice(part):
        return [f for f in findings if _entry_of(name_words(about), titles, f)]
    # "In which year did the Titanic sink" asks a date of the thing it names, not a thing
    # ("During which years did the emperor who altered the Colosseum rule" asks it of one
    # it describes)
    dated = answer_kind(part) in ("time", "number") and main_clause(part) == part
    if (asks_for_entity(part) and not dated) or points_back(part) or SUPERLATIVE.search(part):
        return []
    return [
        f for f in findings if f.citations and is_entry_on(part, titles.get(f.citations[0], ""))
    ]


# "Which is larger, Jupiter", "Which mountain is higher, Mount Kailash": a choice between
# things it names, one per part; the name closes it after a comma.
_CHOICE = re.compile(r"^\W*(?:which|who)\b[^,]+,\s*(?:the\s+)?(?P<name>[^,]+?)\W*$", re.I)


def _choice(part: str) -> str | None:
    """The name a part asking which of several named things is so closes with, else None."""
    m = _CHOICE.match(part)
    # the name is the whole of it, however it begins ("The" makes its first word no opener)
    return m["name"] if m and entities(f"The {m['name']}") == [m["name"]] else None


def _leads(
    part: str,
    findings: list[FindingBrief],
    asked: set[str],
    titles: dict[int, str],
    referred: tuple[frozenset[int], set[int]],
) -> list[FindingBrief]:
    """The findings a part's summary line may open with (see ``summary_picks``): one
    giving the kind asked for from the entry the part's other findings name for a thing
    it describes (the hop's answer), else said of the thing the part names, else one from
    that hop's entry, else one giving that kind, else one said of the thing the part
    names ("How tall is Mount Everest": Everest's entry, not Mount Tai's "tallest
    peak")."""
    persons, earlier = referred
    # "the largest city in Canada": a finding stating it of Canada itself (see
    # ``attributes.states_attribute``), not Ontario's "the country's most populous province"
    attribute = asked_attribute(part, list(titles.values()))
    if attribute is not None and attribute.superlative:
        stating = [
            f
            for f in findings
            if states_attribute(attribute, [([titles.get(n, "") for n in f.citations], f.content)])
        ]
        if stating:
            return stating
    # "Which country has the largest population in Africa": Nigeria's "the most populous
    # country in Africa", not Algeria's "the largest country in Africa"
    if asks_most_had(part) and (stating := [f for f in findings if says_most_had(part, f.content)]):
        return stating
    kind = answer_kind(part)
    giving = [f for f in findings if gives(f.content, kind, asked, part)] if kind else []
    # a doer said with the deed done to what the part names, if one is ("founded Buddhism"),
    # or in other words ("the author of the Iliad")
    deeds = [f for f in giving if deed_on_object(f.content, part)]
    if kind == "doer" and not deeds:
        deeds = _doer_in_other_words(part, findings, asked)
    giving = deeds or giving
    # a number said with what the part counts, if one is ("206 bones", not "14%")
    giving = [f for f in giving if counts_asked(f.content, part)] or giving
    named = _naming(part, findings, titles, persons)
    # what a part pointing back asks of is what the earlier parts' lines are from
    named = [f for f in named or findings if f.citations[:1] and f.citations[0] in earlier] or named
    hop = _hop_answers(part, findings, titles)
    if hop and _described_through(part):
        # what it names only leads to what it asks about: the hop's entry answers, with
        # the lines saying a word of the part first ("devised the painting techniques")
        said = said_of(part)
        named, hop = [], [f for f in hop if said(f.content)] or hop
    return (
        [f for f in giving if f in hop]
        or [f for f in giving if f in named]
        or hop
        or giving
        or named
    )


def _doer_in_other_words(
    part: str, findings: list[FindingBrief], asked: set[str]
) -> list[FindingBrief]:
    """For a part asking who did something to a thing it names ("Who wrote the Iliad"),
    the ``findings`` naming someone with that thing and a word close in meaning to the
    deed's ("credited as the author of the Iliad"), for when none says the deed itself:
    not a line on other writers ("one of the 'Big Three' science fiction writers")."""
    doer = asked_doer(part)
    names = [name_words(n) for n in entities(part)]
    embedder = vectors.load_embedder() if doer and names else None
    if doer is None or embedder is None:
        return []
    return [
        f
        for f in findings
        if any(mentions_name(TOKEN.findall(f.content), n) for n in names)
        and gives(f.content, "name", asked, part)
        and close_word(f.content, list(doer), embedder)
    ]


# A thing the part asks of described through a name it gives ("did the top-billed star of
# the 1939 film The Wizard of Oz have", "did the poet behind The Waste Land receive"):
# an auxiliary of another verb, then "the", lower-case words and "of" or "behind" ("Who
# were the parents of Xerxes", "how big is the surface of Lake Maracaibo" ask who or what
# that is, which the name's own entry says).
_DESCRIBED_THROUGH = re.compile(
    r"\b(?:did|does|do|has|have|had)\s+the\s+(?P<kind>(?:[a-z][\w\-]*\s+){1,3})"
    r"(?:of|behind)\s+(?P<rest>.+)$"
)


def _described_through(part: str) -> re.Match[str] | None:
    """Where the part asks of a thing it describes through a name (``_DESCRIBED_THROUGH``),
    not of an attribute of that name ("the capital of France"), else None."""
    return _DESCRIBED_THROUGH.search(main_clause(part)) if asked_attribute(part) is None else None


def _hop_answers(
    part: str, findings: list[FindingBrief], titles: dict[int, str]
) -> list[FindingBrief]:
    """For a part asking about a thing it describes without naming it ("the emperor who
    carried out later modifications to the Colosseum"), the ``findings`` from an entry
    another of them names ("… during the reign of Domitian" names *Domitian*, whose entry
    says when he ruled; "the composer of The Rite of Spring": *Igor Stravinsky*, whose
    entry says which nationalities he held): the hop's answer. None for a part that names
    what it asks about ("In which year did the Titanic sink": *Harland and Wolff*, which
    the Titanic's entry names, is no answer) or asks an attribute of a name ("the capital
    of France")."""
    main = main_clause(part)
    clause = [name_words(n) for n in entities(part[len(main) :])] or _titles_in(
        part[len(main) :], titles
    )
    described = _described_through(part)
    kind: set[str] = set()
    if not clause and described:
        # "did the composer of The Rite of Spring later hold": described through a name
        clause = [name_words(n) for n in entities(described["rest"])]
        kind = text_roots(described["kind"])
    elif entities(main):
        return []
    if not clause:
        return []
    cited = {n for f in findings for n in f.citations[:1]}
    # the namer speaks of a thing the describing clause names (*Colosseum*'s line), and of
    # the kind described, if one of its lines does ("The film stars Judy Garland" for "the
    # top-billed star of … The Wizard of Oz", not the film its director left for)
    namers = [
        (f.citations[:1], tokens, kind & text_roots(f.content))
        for f in findings
        for tokens in [TOKEN.findall(f.content)]
        if any(_entry_of(name, titles, f) or mentions_name(tokens, name) for name in clause)
    ]
    namers = [n for n in namers if n[2]] or namers
    # the entry on a name the clause gives is what describes the thing, not the thing
    # ("the cleric who led the revolution against Mohammad Reza Pahlavi": not *Mohammad
    # Reza Pahlavi*, whom the revolution's line names beside Khomeini)
    given = {n for n in cited for name in clause if titled_entry(tuple(name), titles.get(n, ""))}
    # each namer line's tokens, with the other entries it names
    reached = [
        (tokens, ids)
        for by, tokens, _ in namers
        if (
            ids := {
                n
                for n in cited - given
                if by != [n] and mentions_name(tokens, name_words(titles.get(n, "")))
            }
        )
    ]
    stating = _stating_deed(reached, part[len(main) :], clause) if main != part else reached
    named = {n for _, ids in stating or reached for n in ids}
    # the kind the describing clause follows ("the cleric who led …"), if a noun; with no
    # line saying the deed, only an entry saying that kind is the hop's
    head = text_roots(_head_noun(main)) if main != part else kind
    named = _of_kind(named, findings, head, strict=not stating)
    return [f for f in findings if f.citations[:1] and f.citations[0] in named]


def _stating_deed(
    namers: list[tuple[list[str], set[int]]], clause: str, names: list[list[str]]
) -> list[tuple[list[str], set[int]]]:
    """Of the lines naming what a describing ``clause`` names and another entry, those
    saying most of its other words, the deed that ties the two ("Further modifications
    were made during the reign of Domitian" for "the emperor who carried out later
    modifications to the Colosseum", not "Construction began under the Emperor
    Vespasian"); none if none does."""
    deed = text_roots(clause) - text_roots(" ".join(w for n in names for w in n))
    said = [len(deed & text_roots(" ".join(tokens))) for tokens, _ in namers]
    most = max(said, default=0)
    return [n for n, k in zip(namers, said, strict=True) if k == most and most]


def _head_noun(main: str) -> str:
    """The noun a describing clause follows: the main clause's last word but a preposition
    ("What is the river along" → "river"); '' if that is a function word."""
    said = [w for w in words(main) if w not in PREPOSITION_WORDS]
    return said[-1] if said and said[-1] not in STOPWORDS else ""


def _of_kind(
    named: set[int], findings: list[FindingBrief], kind: set[str], *, strict: bool
) -> set[int]:
    """Of the entries a hop reaches (``named``), those with a line saying the ``kind`` (its
    roots) the part describes ("the cleric who led the revolution" is *Ruhollah
    Khomeini*, "a Shia cleric", not *Iran*), if any does (*Euripides* is "a tragedian",
    not the "playwright" asked about), unless ``strict`` (no line names it with the deed:
    "the archipelago that separates the Kara Sea …" is not *Arctic Ocean*, which the
    sea's line names otherwise)."""
    saying = {
        n for f in findings for n in f.citations[:1] if n in named and kind & text_roots(f.content)
    }
    return saying if strict and kind else saying or named


def _titles_in(clause: str, titles: dict[int, str]) -> list[list[str]]:
    """The cited titles a describing clause gives in lower case, as common nouns ("the
    philosopher who first articulated the is–ought problem": *Is–ought problem*)."""
    said = [w.lower() for w in TOKEN.findall(clause)]
    return [name for t in titles.values() if holds_phrase(said, name := name_words(t))]


def _entry_of(name: list[str], titles: dict[int, str], finding: FindingBrief) -> bool:
    """Whether the ``finding``'s first source is the entry on ``name`` (its words; *The
    Wizard of Oz* is the entry on "Wizard of Oz", see ``relations.titled_entry``)."""
    return bool(finding.citations) and titled_entry(
        tuple(name), titles.get(finding.citations[0], "")
    )
