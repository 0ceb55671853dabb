"""Whether the findings drawn for a question part answer it, or only share a word with it.

Sources are kept for a part by a lenient statement match (one rare word can carry it), so a
part the gathered sources cannot answer still draws findings: "the melting point of the
Zorbulon crystal" draws lines on melting points from *Lead* and *Melting*. Such a part is
an open gap, not an answered one. The signs, all from the part's own wording:

- the part gives names (capitalised runs, see ``bridges.entities``) and the sources behind
  its findings name none of them: they are about something else (unless a tenth of all
  the sources gathered name it: then it is what the whole search is about, as "Python"
  is over Python's documentation, whose pages seldom say it). One name is enough, as a
  name may only describe the answer ("the hero who slew Goliath") and the question's
  names may be split oddly ("Jesse Usain Bolt"), so a name's words may be spread over
  those sources; but when every name it gives is of several words, one sentence of a
  source behind its findings states one of them whole ("the GDP of Mars" is stated by
  no sentence, though *Gross domestic product* says "GDP" and *Mars* says "Mars");
- a part that asks how many or how much of something ("how many dragons guard it") when
  no source behind its findings speaks of that thing: a count is given with what it
  counts ("eleven players", "over a billion copies");
- a part that asks what a thing is ("what is the zorblax theorem") when a word of the
  thing's name is stated by no source gathered at all: the search found nothing on it,
  and the findings drawn by the other words (the prime number theorem's) answer
  something else;
- a part that does not point back, none of whose words of SUBSTANTIVE_LETTERS or more any
  gathered source states (a question in another language than the corpus's: "¿Qué es la
  fotosíntesis?" drew *Dar es Salaam* by its "es");
- a part that asks with several words of its own, none of which its findings state;
- a part that asks with two words of its own about a thing a gathered source is titled
  ("shoe" of "what was his shoe size", the source *Shoe*) and refers to an earlier part
  ("his": Napoleon), when no source behind its findings speaks of both;
- a part that asks about two or more things gathered sources are titled ("pet" and
  "unicorn" of "what colour was his pet unicorn", the sources *Pet* and *Unicorn*), when
  no sentence of a source behind its findings states two of its words: each thing was
  found, but only apart, so nothing found says anything of them together. A part
  answered in other words than it asks in still has a sentence of its answer state two
  of them, or names no such pair of things ("how does a wrestler win a bout": no source
  is titled *Win* or *Bout*).

A short part ("how big is it", "when will it return") is answered in other words than it
asks in ("visible every 75 years"), so one word of its own says nothing here, and two
only when they name a thing the sources were searched for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepresearch.offline.asking import asks_when, kind_said_to_be, main_clause
from deepresearch.offline.bridges import entities
from deepresearch.offline.parts import Part
from deepresearch.offline.ranks import unstated_numbers
from deepresearch.text import (
    ARTICLES,
    STOPWORDS,
    TITLE_QUALIFIER,
    keywords,
    sentences,
    term_set,
    word_root,
    words,
)

OWN_WORDS_ASKED = 3  # a part asking in this many words of its own is answered in some
# A part asking in this many (fewer than OWN_WORDS_ASKED) names a thing that a source
# behind its findings must speak of, together with what the part refers to; one word
# alone is too often answered in other words ("when will it return": "every 75 years").
THING_ASKED = 2
TITLE_WORD = 3  # letters each word of a title needs to tell what a part asks about
# How a gap names a part of the question that no finding answers (the report's summary
# lists such a part as "Not answered").
PART_GAP = "No source found answers this part of the question: "
THINGS_APART = 2  # titled things a part asks about that no source behind it states together
COMMON_NAME = 0.1  # share of the gathered sources stating a name the search is about
SAME_WORD = 4  # letters a root needs before a longer word it begins counts as the same
THING_WORDS = 3  # words at most of a thing's name a part asks to identify ("black hole")
SUBSTANTIVE_LETTERS = 4  # a word this long says what a part is about; "es", "la" do not
TOPIC_WORDS = 3  # words of its own at most in a part whose topic its sources must speak of

_APOSTROPHES = re.compile(r"['’ʼ`´]")  # "Bahá'í" as the question types it, "Baháʼí" in text
# The kind of answer a part asks for: the word after "which"/"what"/"how many" ("in which
# year", "what causes"): its answer need not say it ("1972", "gravity").
_KIND = re.compile(r"\b(?:which|what|whose|how\s+(?:many|much))\s+([^\W\d_][\w'\-]*)", re.I)
# What a part counts: the word after "how many"/"how much" ("how many dragons guard it").
_COUNTED = re.compile(r"\bhow\s+(?:many|much)\s+([^\W\d_][\w'\-]*)", re.IGNORECASE)
# What a part asks to identify: "what is the zorblax theorem", "who were the Beatles",
# "(explain) what a black hole is". Its words a whole answer speaks of.
_DEFINED = re.compile(
    r"^\W*(?:(?:what|who)\s+(?:is|are|was|were)\s+(?P<after>[^?]+?)"
    r"|.*?\bwhat\s+(?P<before>[^?]+?)\s+(?:is|are|was|were))\W*$",
    re.IGNORECASE,
)


def text_roots(text: str) -> set[str]:
    """The word roots of ``text``, apostrophes of any kind left out; accents are (see
    ``text.unaccented``), as the corpus search matches words ("Napoleón" asked,
    "Napoleon" found)."""
    return {word_root(_APOSTROPHES.sub("", t)) for t in term_set(text)}


def _own_roots(part: Part) -> set[str]:
    """The roots of the words a part asks with of its own (``Part.own``)."""
    return {word_root(_APOSTROPHES.sub("", t)) for t in part.own}


def _readable(text: str) -> str:
    """``text`` without the words holding a character the input could not decode
    ("Jos\ufffd Rizal" from undecodable bytes): such a word cannot be matched as written."""
    return " ".join(w for w in text.split() if "\ufffd" not in w)


def _names(text: str) -> list[str]:
    """The names ``text`` gives (see ``bridges.entities``), but not a capitalised word used
    as a kind of thing after "a"/"an" ("contains an API key", "a Boolean flag"): that
    says what sort of thing is meant, not which one the part is about."""
    readable = _readable(text)
    return [
        name
        for name in entities(readable)
        if not re.search(rf"\ban?\s+{re.escape(name)}\b", readable, re.IGNORECASE)
    ]


def is_entry_on(part: str, title: str) -> bool:
    """Whether ``title`` (its bracketed qualifier left out) is made of the ``part``'s own
    words, by root: the source is the entry on a thing the part asks about (*Tide* for
    "what causes tides", *Photosynthesis* for "What is photosynthesis")."""
    roots = _title_roots(title)
    return bool(roots) and _held(roots, text_roots(_readable(part)))


def _title_roots(title: str) -> set[str]:
    """The roots of a title's words, its bracketed qualifier left out; none when a word
    has fewer than TITLE_WORD letters (too short to tell what a text asks about)."""
    title_words = keywords(TITLE_QUALIFIER.sub("", title))
    if not title_words or min(map(len, title_words)) < TITLE_WORD:
        return set()
    return text_roots(" ".join(title_words))


def _same(a: str, b: str) -> bool:
    """Whether two word roots are one word's: equal, written with a hyphen or without
    ("man-made" and "manmade"), or the shorter (of at least SAME_WORD letters) begins the
    longer but for its last letter ("europ" and "european", "china" and "chinese",
    "zealand" and "zealander")."""
    short, long = sorted((a.replace("-", ""), b.replace("-", "")), key=len)
    return short == long or (
        len(short) >= SAME_WORD and long.startswith(short[: max(SAME_WORD, len(short) - 1)])
    )


def _held(wanted: set[str], roots: set[str]) -> bool:
    """Whether every root in ``wanted`` is in ``roots`` (as the same word, see ``_same``)."""
    return all(w in roots or any(_same(w, r) for r in roots) for w in wanted)


def _named(name: set[str], roots: set[str]) -> bool:
    """Whether ``roots`` state every root of a ``name`` asked, each as written, as a
    longer word derived from it ("China" by "Chinese") or, hyphenated, by its pieces
    ("Königsberg-born" by "born in Königsberg"); never as a shorter word it begins:
    "Gonder" (root "gond") does not name Gondor."""
    return all(_names_root(w, roots) for w in name)


def _names_root(asked: str, roots: set[str]) -> bool:
    """Whether ``roots`` state the root ``asked`` (see ``_named``)."""
    if asked in roots or any(len(r) > len(asked) and _same(asked, r) for r in roots):
        return True
    pieces = [p for p in asked.split("-") if p]
    return len(pieces) > 1 and all(_names_root(p, roots) for p in pieces)


# What a statement giving a time holds: a number (a year, a date, "every 75 years") or a
# century. Wider than a date (``dates``): "when will it return" is answered by a period.
_TIMED = re.compile(r"\d|\bcentur(?:y|ies)\b", re.IGNORECASE)


def unanswered_reason(
    part: Part,
    findings: list[str],
    statements: list[str],
    titles: Sequence[str] = (),
    gathered: Sequence[str] = (),
    earlier: Sequence[Part] = (),
) -> str | None:
    """Why the findings drawn for ``part`` do not answer it, or None when they may.

    Args:
        part: the question part.
        findings: the texts of the findings drawn for it, each with its sources' titles.
        statements: the texts of the sources those findings come from, one per source,
            each with its title (a name may be given in a statement the findings left out).
        titles: the titles of the sources gathered (see ``titled_words``).
        gathered: the texts of the sources gathered, each with its title: a name that
            many of them state is what the whole search is about ("Does Python ship …"
            over Python's documentation), not a thing its findings must name.
        earlier: the question's parts before it, whose names it may speak of unsaid.
    """
    if not findings:
        return "no finding was drawn for it"
    if asks_when(part.text) and not any(_TIMED.search(f) for f in findings):
        return "no finding drawn for it gives a time"
    said = set().union(*(text_roots(s) for s in statements + findings))
    if named := _unnamed(part, said, statements, gathered):
        return named
    counted = (
        text_roots(m[1]) if (m := _COUNTED.search(part.text)) else set()
    )  # none: "how much does"
    if counted and not _held(counted, said):
        return "no source behind its findings speaks of what it counts"
    if unknown := unknown_words(part.text, gathered):
        return f"no source found speaks of {' '.join(unknown)!r}, the thing it asks about"
    if unnamed := unknown_names(part.text, gathered):
        return f"no source found names {' '.join(unnamed)!r}"
    # A part pointing back ("where did it develop") is answered in other words: not it.
    if gathered and not part.refers_back and (asked := _none_stated(part, gathered)):
        # what drew its findings were short words ("es", "la" of "¿Qué es la fotosíntesis?")
        return f"no source found states any of the words it asks with: {', '.join(asked)}"
    own = _own_roots(part)
    if unsaid := _unsaid(part, own, findings, statements, titles):
        return unsaid
    # an earlier name the part gives again ("Venus" after "The Birth of Venus") is a word
    # of its own, not a thing it speaks of unsaid
    context = [r for p in earlier for n in _names(p.text) if not (r := text_roots(n)) & own]
    if len(own) >= THING_ASKED and _found_apart(part.text, own, statements, titles, context):
        return (
            "the things it asks about were found only apart: no source behind its findings "
            "states two of its words together"
        )
    return None


def _none_stated(part: Part, gathered: Sequence[str]) -> list[str]:
    """The words a part asks with (of SUBSTANTIVE_LETTERS or more, or written as a name:
    "the Sun", "Io"), when none of the ``gathered`` texts states any of them; else none."""
    named_words = set(words(" ".join(_names(part.text))))
    asked = [
        w
        for w in keywords(_readable(part.text))
        if len(w) >= SUBSTANTIVE_LETTERS or w in named_words
    ]
    return asked if asked and len(_unstated(asked, gathered)) == len(asked) else []


def topic_roots(part: Part, titles: Sequence[str]) -> set[str]:
    """The roots of what a short part asks about, which a source that answers it speaks
    of: its words that make up a gathered source's title ("tides" for *Tide*, by root) or
    a name it gives ("Shakespeare"), not the kind of answer it asks for ("which year").
    Empty for a part that points back (its answer may never name what "it" is), asks in
    more than TOPIC_WORDS words of its own (several words share its match), or names no
    such thing. Among the sources gathered for "what causes tides", every one states
    "tide": the entry on bruises stating "the most common cause" matches the rarer word.

    Args:
        part: the question part.
        titles: the titles of the sources gathered.
    """
    own = _own_roots(part)
    if part.refers_back or not own or len(own) > TOPIC_WORDS:
        return set()
    asked = own - text_roots(" ".join(_KIND.findall(part.text)))
    named = set().union(*(text_roots(n) for n in _names(part.text)))
    return _titled_roots(part.text, asked, titles) | (named & asked)


def borrowed_names(
    part: Part, earlier: Sequence[Part], titles: Sequence[str] = ()
) -> list[set[str]]:
    """For a short part that asks with the words of an earlier one without pointing back
    ("who won" after "When was the Battle of Hastings", asking for the battle's winner),
    the roots of each name the ``earlier`` parts give that it borrowed whole: a source
    that answers it states one of them (*William the Conqueror* says "Battle of
    Hastings", *Battle of Vienna* only "battle"). Without such a name, each word it
    borrowed that a gathered source is titled (``titles``): "in what year" after "who
    discovered penicillin" asks of penicillin, which *Gregorian calendar*'s years do not
    speak of. Empty for any other part.

    Args:
        part: the question part.
        earlier: the parts before it.
        titles: the titles of the sources gathered.
    """
    own = _own_roots(part)
    borrowed = text_roots(" ".join(part.terms - part.own))
    if part.refers_back or not own or len(own) > TOPIC_WORDS or not borrowed:
        return []
    names = (text_roots(name) for p in earlier for name in _names(p.text))
    given = [n for n in names if n and n <= borrowed]
    titled = _titled_roots(" ".join(part.terms - part.own), borrowed, titles)
    return given or [{r} for r in sorted(titled)]


def says_all(wanted: set[str], roots: set[str]) -> bool:
    """Whether ``roots`` (see ``text_roots``) hold every one of the ``wanted`` roots, each
    as the same word (see ``_same``)."""
    return _held(wanted, roots)


def _unnamed(
    part: Part, said: set[str], statements: list[str], gathered: Sequence[str]
) -> str | None:
    """Why the sources behind a part's findings (their roots: ``said``; their texts:
    ``statements``) do not name what it names, or state a number labelling it, or None
    when they may."""
    names = [n for n in (text_roots(name) for name in _names(part.text)) if n]
    if names and not any(_named(n, said) or _common(n, gathered) for n in names):
        return "the sources found for it name none of the names it gives"
    joined = [n for n in names if len(n) > 1]
    if joined and len(joined) == len(names) and not any(_together(n, statements) for n in joined):
        # "the GDP of Mars": *Gross domestic product* says "GDP", *Mars* says "Mars"
        return "no source behind its findings states the name it gives as one"
    if numbers := unstated_numbers(part.text, statements):
        return f"no source behind its findings states {' or '.join(numbers)}, which it gives"
    return None


def unknown_words(text: str, gathered: Sequence[str]) -> list[str]:
    """For a part asking what a thing is, or what something of a thing is ("what is the
    main ingredient of guacamole"), the words of the thing's name (lower-cased) that none
    of the ``gathered`` texts states; none for another part. Only a word no
    source found states at all counts: a rare word of a real name is still in the source
    on it.

    Args:
        text: the part.
        gathered: the texts of the sources gathered, each with its title.
    """
    if not gathered or (m := _DEFINED.match(_readable(text))) is None:
        return []
    thing = m["after"] or m["before"]
    named = keywords(thing)
    said = [w for w in words(thing) if w not in ARTICLES]
    if len(named) <= THING_WORDS and len(named) == len(said):
        return _unstated(named, gathered)
    # Not a name but a description ("the right way to get the current time") or a
    # relation ("the difference between the Iliad and the Odyssey"). One asking of the
    # thing after its last "of" ("the main ingredient of guacamole") asks of nothing found
    # when no source states a word of it ("the capital of Germany today" is of Germany).
    of = keywords(thing.rsplit(" of ", 1)[1]) if " of " in thing else []
    unstated = _unstated(of, gathered) if len(of) <= THING_WORDS else []
    return unstated if unstated and len(unstated) == len(of) else []


def unknown_names(text: str, gathered: Sequence[str]) -> list[str]:
    """The words of the names ``text`` gives (lower-cased) that none of the ``gathered``
    texts states. The search was asked for them, and a rare word of a name the corpus
    knows draws the text that states it: a name no text found states is one the corpus
    never speaks of ("the polar explorer Halvard Quennick", "Pieter van Oordt"), so what
    was found is about something else. A name in a clause that describes the answer
    ("the biblical hero who slew Goliath") is left out: the answer can be found by what
    else the question says of it, though the corpus never names what describes it.

    Args:
        text: the part.
        gathered: the texts of the sources gathered, each with its title.
    """
    if not gathered:
        return []
    named = [w for name in _names(main_clause(text)) for w in keywords(name)]
    return _unstated(list(dict.fromkeys(named)), gathered)


def _unstated(wanted: list[str], gathered: Sequence[str]) -> list[str]:
    """The ``wanted`` words (lower-cased) that no text of ``gathered`` states, as written
    or in another form of the word."""
    # Most words are in some text as written: only the rest are compared by root.
    texts = [g.casefold() for g in gathered]
    unseen = [w for w in wanted if not any(w in text for text in texts)]
    if not unseen:
        return []
    stated = set().union(*(text_roots(g) for g in gathered))
    return [w for w in unseen if not _held(text_roots(w), stated)]


def _together(name: set[str], statements: Sequence[str]) -> bool:
    """Whether one sentence of the ``statements`` (or a title with its text's opening)
    states every root of ``name``."""
    return any(_held(name, text_roots(line)) for s in statements for line in sentences(s) or [s])


def _common(name: set[str], gathered: Sequence[str]) -> bool:
    """Whether COMMON_NAME of the ``gathered`` texts (two at least) state ``name``."""
    stating = sum(_held(name, text_roots(text)) for text in gathered)
    return stating >= max(2, COMMON_NAME * len(gathered))


def _found_apart(
    text: str,
    own: set[str],
    statements: list[str],
    titles: Sequence[str],
    context: Sequence[set[str]] = (),
) -> bool:
    """Whether a part asks about THINGS_APART or more things that gathered sources are
    titled (``_titled_roots``) and no sentence of a source behind its findings states two
    of the part's own words (a long page may use two common words far apart), the words of
    one thing it names with an adjective made from a name counting once ("the Roman
    emperors": "Trajan was a Roman emperor" says nothing of "the Roman emperors … on the
    Moon"). *Pet* and *Unicorn* were gathered for "what colour was his pet unicorn" and
    neither speaks of the other: the findings are about a pet and about unicorns, not his
    pet unicorn. Every sentence of the entry on a thing the part names speaks of that
    thing ("the younger brother of Rajyavardhana" in *Harsha*, for "Harsha's elder
    brother"), though it calls it otherwise ("Harshavardhana"); so does the entry on a
    thing it gives by a common noun ("it" in *Almond*, for "almonds"), and the entry on a
    thing an earlier part names (``context``: their roots) speaks of what the part asks
    of it unsaid ("which battle does its story build up to" after "how long is the Bayeux
    Tapestry"; "what was to blame for the deaths" after "how many died in the Bhola
    cyclone"), as one of its words."""
    if _COMPARES.search(text):
        return False  # "marmots vs porcupines": each is found in its own entry, as asked
    described = [g for g in _described(text, own) if len(g) > 1]
    # "in which city did Caravaggio work": a city is what the answer is, which names it
    # rather than says "city"; not a thing to find beside the others (what "how many"
    # counts is: "how many dragons guard it")
    kind = text_roots(" ".join(_KIND.findall(text))) - text_roots(" ".join(_COUNTED.findall(text)))
    titled = _titled_roots(text, own - kind, titles)
    if len(titled) + len([g for g in described if not g & titled]) < THINGS_APART:
        return False
    words = described + [{w} for w in own if not any(w in g for g in described)]
    # an entry on a thing the part names, or gives by a common noun (*Almond* for "how are
    # almonds related to peaches": "Along with the peach, it is classified …")
    asked = text_roots(_readable(text))
    held = [r for t in titles if (r := _title_roots(t)) and _held(r, asked)]
    named = set().union(*(text_roots(n) for n in _names(text)), *held)
    return not any(
        sum(says_any(w, roots | on) for w in words) + referent >= 2
        for s in statements
        for on, referent in [(_entry_roots(s, titles, named), _entry_on_any(s, titles, context))]
        for roots in (text_roots(line) for line in sentences(s))
    )


def _entry_on_any(statement: str, titles: Sequence[str], names: Sequence[set[str]]) -> bool:
    """Whether a ``statement`` (a source's title and text) is the entry on one of the
    ``names`` (their roots): its title, which it opens with, holds the name's words or
    is made of them (*1970 Bhola cyclone* for "the Bhola cyclone")."""
    return any(
        statement.startswith(title) and any(n and (n <= roots or roots <= n) for n in names)
        for title in titles
        if (roots := _title_roots(title))
    )


# A part comparing things, which sources about each one apart answer.
_COMPARES = re.compile(
    r"\b(?:vs\.?|versus|compared?|comparison|compares|differ(?:s|ence|ent)?|than)\b", re.IGNORECASE
)


def _entry_roots(statement: str, titles: Sequence[str], named: set[str]) -> set[str]:
    """The roots of the title a ``statement`` (a source's title and text) opens with, when
    the part names it (``named``: the roots of the part's names): the source is the entry
    on a thing the part names. Empty for another source."""
    for title in titles:
        roots = _title_roots(title)
        if roots and roots <= named and statement.startswith(title):
            return roots
    return set()


# An adjective made from a name ("Roman", "Chinese", "English", "Arabic"), as written.
NAME_ADJECTIVE = r"[A-Z][a-z]+(?:an|ese|ish|ic)"
# A name's adjective and the word it qualifies ("the Roman emperors").
_NAME_ADJECTIVE = re.compile(rf"\b{NAME_ADJECTIVE}\s+[a-z][a-z'\-]+")


def _described(text: str, own: set[str]) -> list[set[str]]:
    """The roots in ``own`` of each thing ``text`` names by a name's adjective and a noun
    ("the Roman emperors": roman, emperor); not a name and the verb after it ("why did the
    Titanic sink")."""
    verbs = _do_verbs(text)
    return [
        {w for w in own if says_any({w}, text_roots(m.group()))}
        for m in _NAME_ADJECTIVE.finditer(_readable(text))
        if word_root(m.group().split()[-1].lower()) not in verbs
    ]


def _titled_roots(text: str, words: set[str], titles: Sequence[str]) -> set[str]:
    """The roots in ``words`` that a title of ``titles`` is made of, when every word of
    that title is a word of ``text`` by root (the title *Plant* for "how do plants
    sing"): things the text asks about that the search found entries on. By root, unlike
    ``titled_words``: a pair of such things no source states together is a sign on its
    own, so "plants" may stand for *Plant*. Title words of TITLE_WORD letters at least."""
    roots = text_roots(_readable(text))
    # "in which constellation does it lie": the word after "does it" is the part's verb,
    # not a thing the entry *Lie* is on
    verbs = _do_verbs(text)
    out: set[str] = set()
    for title in titles:
        title_roots = _title_roots(title)
        if title_roots and _held(title_roots, roots):
            out |= {w for w in words if says_any({w}, title_roots) and word_root(w) not in verbs}
    return out


_DO_VERB = re.compile(
    r"\b(?:do|does|did)\s+(?:it|he|she|they|we|you|i)\s+(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)
# "did the Titanic sink": after "do" and a name, the lower-case word the clause ends with
# (or that a function word follows: "sink in 1912") is the verb; one a content word
# follows is the name's noun ("did the Roman emperors persecute Christians").
_DO_NAME_VERB = re.compile(
    r"\b(?i:do|does|did)\s+(?:(?i:the|a|an)\s+)?(?:[A-Z][\w'’.-]*\s+)+(?P<verb>[a-z]+)\b"
    r"(?P<after>\s*[^\W\d_]*)"
)


def _do_verbs(text: str) -> set[str]:
    """The roots of the verbs a question's "do" asks with: after a pronoun ("in which
    constellation does it lie") or after a name (see ``_DO_NAME_VERB``)."""
    verbs = {word_root(m["verb"].lower()) for m in _DO_VERB.finditer(text)}
    for m in _DO_NAME_VERB.finditer(text):
        after = m["after"].strip().lower()
        if not after or after in STOPWORDS:
            verbs.add(word_root(m["verb"]))
    return verbs


def _unsaid(
    part: Part, own: set[str], findings: list[str], statements: list[str], titles: Sequence[str]
) -> str | None:
    """Why the ``findings`` drawn for a part (``own``: the roots of its own words;
    ``statements``: its sources' texts; ``titles``: the gathered sources') leave unsaid
    what it asks (see ``unanswered_reason``), else None."""
    stated = set().union(*(text_roots(f) for f in findings))
    if len(own) >= OWN_WORDS_ASKED:
        if not any(_held({w}, stated) for w in own):
            return "the findings drawn for it state none of the words it asks with"
    elif len(own) >= THING_ASKED and not _speaks_of_both(part, own, statements, titles):
        return (
            "no source behind its findings speaks of both the thing it asks about and what "
            "it refers to"
        )
    elif (
        not part.refers_back
        and (said_of := text_roots(kind_said_to_be(part.text)))
        and not _held(said_of, stated)
    ):
        # "Which composer became deaf": the kind is in every finding, what it is must be in
        # one ("deaf"), or the findings are on some composer
        return f"the findings drawn for it do not say {' '.join(map(repr, sorted(said_of)))}"
    return None


def _speaks_of_both(
    part: Part, own: set[str], statements: list[str], titles: Sequence[str]
) -> bool:
    """Whether a source behind a part's findings speaks both of the thing the part asks
    about and of what it refers to, for a part that refers to an earlier part's words
    ("what was his shoe size" after "Who was Napoleon") and asks about a thing a gathered
    source is titled ("shoe", the source *Shoe*). The entry on Napoleon never mentions a
    shoe and the entry on shoes never mentions Napoleon: nothing found gives his shoe
    size. True when the part borrows nothing or names no such thing."""
    borrowed = {word_root(t) for t in part.terms} - own
    thing = titled_words(part.text, own, titles)
    if not borrowed or not thing:
        return True
    roots = (text_roots(s) for s in statements)
    return any(says_any(thing, r) and says_any(borrowed, r) for r in roots)


def titled_words(text: str, words: set[str], titles: Sequence[str]) -> set[str]:
    """The roots in ``words`` that, as ``text`` writes them, make up the title of one of
    ``titles`` ("radio" of "who invented the radio", a source being *Radio*): a thing
    the text asks about, which an answer names. As written, so that the title *Race* is
    not what "the goal they raced for" asks about; each title word of TITLE_WORD letters
    at least, as a shorter one is too often a verb or a particle (the title *Go*)."""
    written = set(keywords(_readable(text)))
    out: set[str] = set()
    for title in titles:
        title_words = set(keywords(TITLE_QUALIFIER.sub("", title)))
        if title_words and min(map(len, title_words)) >= TITLE_WORD and title_words <= written:
            out |= text_roots(" ".join(title_words)) & words
    return out


def asked_words(parts: list[Part]) -> list[set[str]]:
    """Per part, the roots of the words it asks with that no other part asks with
    ("radio" of "who invented the radio" beside "who invented the telephone"): what tells
    its answer from the other parts' answers. Empty for a part that asks with none."""
    own = [_own_roots(part) for part in parts]
    return [
        {
            w
            for w in mine
            if not any(_same(w, r) for j, theirs in enumerate(own) if j != i for r in theirs)
        }
        for i, mine in enumerate(own)
    ]


def says_any(wanted: set[str], roots: set[str]) -> bool:
    """Whether ``roots`` (see ``text_roots``) hold one of the ``wanted`` roots, as the same
    word (see ``_same``)."""
    return any(_held({w}, roots) for w in wanted)


def speaks_of_any(wanted: set[str], roots: set[str]) -> bool:
    """``says_any``, or ``roots`` hold a longer word that a short one of the ``wanted``
    roots (under SAME_WORD letters, at least three) begins: "roman" for "rom" (Rome), as
    the entry on Augustus, "the first Roman emperor", speaks of Rome. Wider than the same
    word: for choosing which sources to weigh, not for saying a part is answered."""
    return says_any(wanted, roots) or any(
        3 <= len(w) < SAME_WORD and r.startswith(w) and len(r) > len(w)
        for w in wanted
        for r in roots
    )
