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

from deepresearch.offline.apart import asked_kind, do_verbs, found_apart, titled_roots
from deepresearch.offline.asking import (
    COUNTED,
    KINDS,
    asks_when,
    counted_as,
    counts_kinds,
    is_question,
    kind_said_to_be,
    main_clause,
    question_word,
)
from deepresearch.offline.dates import asks_year
from deepresearch.offline.parts import Part
from deepresearch.offline.ranks import unstated_numbers
from deepresearch.offline.roots import (
    TITLE_WORD,
    close_word,
    names_of,
    own_roots,
    readable,
    same_word,
    says_all,
    says_any,
    text_roots,
    title_roots,
)
from deepresearch.offline.scenes import in_first_person
from deepresearch.providers import vectors
from deepresearch.text import ARTICLES, TITLE_QUALIFIER, keywords, sentences, word_root, words

# Cosine of two nouns' vectors at which one names the other's thing: "aircraft" and
# "plane" (0.73), "physician" and "doctor" (0.64), "novel" and "book" (0.63) are over it;
# words of one topic, "flight" and "plane" (0.60), "author" and "book" (0.50), are not.
SAME_THING = 0.62

OWN_WORDS_ASKED = 3  # a part asking in this many words of its own is answered in some
# A part asking in this many (fewer than OWN_WORDS_ASKED) names a thing that a source
# behind its findings must speak of, together with what the part refers to; one word
# alone is too often answered in other words ("when will it return": "every 75 years").
THING_ASKED = 2
# How a gap names a part of the question that no finding answers (the report's summary
# lists such a part as "Not answered").
PART_GAP = "No source found answers this part of the question: "
COMMON_NAME = 0.1  # share of the gathered sources stating a name the search is about
THING_WORDS = 3  # words at most of a thing's name a part asks to identify ("black hole")
SUBSTANTIVE_LETTERS = 4  # a word this long says what a part is about; "es", "la" do not
TOPIC_WORDS = 3  # words of its own at most in a part whose topic its sources must speak of

# The endings of adverbs made from adjectives ("traditionally", "famously", "widely"),
# which nouns ending in "ly" ("family", "assembly", "monopoly") do not have.
_ADVERB = re.compile(r"\w{3}(?:al|ous|ive|ed|ent|ant|ful|less|ing|ar|ual|ate|ic|ide)ly$")
# What a part asks to identify: "what is the zorblax theorem", "who were the Beatles",
# "(explain) what a black hole is". Its words a whole answer speaks of.
_DEFINED = re.compile(
    r"^\W*(?:(?:what|who)\s+(?:is|are|was|were)\s+(?P<after>[^?]+?)"
    r"|.*?\bwhat\s+(?P<before>[^?]+?)\s+(?:is|are|was|were))\W*$",
    re.IGNORECASE,
)


def is_entry_on(part: str, title: str) -> bool:
    """Whether ``title`` (its bracketed qualifier left out) is made of the ``part``'s own
    words, by root: the source is the entry on a thing the part asks about (*Tide* for
    "what causes tides", *Photosynthesis* for "What is photosynthesis")."""
    roots = title_roots(title)
    return bool(roots) and says_all(roots, text_roots(readable(part)))


def _named(name: set[str], roots: set[str]) -> bool:
    """Whether ``roots`` state every root of a ``name`` asked, each as written, as a
    longer word derived from it ("China" by "Chinese"), hyphenated by its pieces
    ("Königsberg-born" by "born in Königsberg") or as a piece of a hyphenated word ("Pooh"
    by "Winnie-the-Pooh"); never as a shorter word it begins:
    "Gonder" (root "gond") does not name Gondor."""
    return all(_names_root(w, roots) for w in name)


def _names_root(asked: str, roots: set[str]) -> bool:
    """Whether ``roots`` state the root ``asked`` (see ``_named``), also as a piece of a
    hyphenated name ("Pooh" by "Winnie-the-Pooh")."""
    if asked in roots or any(len(r) > len(asked) and same_word(asked, r) for r in roots):
        return True
    if any(asked in r.split("-") for r in roots if "-" in r):
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
    referent: Sequence[str] | None = None,
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
        referent: for a part pointing back to the answer before it, the texts of those of
            the ``statements``' sources tied to that answer (``referred.tied_findings``):
            the ones that must speak of both what it asks about and what it refers to.
    """
    if not findings:
        return "no finding was drawn for it"
    if (asks_when(part.text) or asks_year(part.text)) and not any(
        _TIMED.search(f) for f in findings
    ):
        return "no finding drawn for it gives a time"
    said = set().union(*(text_roots(s) for s in statements + findings))
    if named := _unnamed(part, said, statements, gathered):
        return named
    if _count_unsaid(part.text, said):
        return "no source behind its findings speaks of what it counts"
    if unknown := unknown_words(part.text, gathered):
        return f"no source found speaks of {' '.join(unknown)!r}, the thing it asks about"
    if unnamed := unknown_names(part.text, gathered):
        return f"no source found names {' '.join(unnamed)!r}"
    # A part pointing back ("where did it develop") is answered in other words: not it.
    if gathered and not part.refers_back and (asked := _none_stated(part, gathered)):
        # what drew its findings were short words ("es", "la" of "¿Qué es la fotosíntesis?")
        return f"no source found states any of the words it asks with: {', '.join(asked)}"
    own = own_roots(part)
    behind = statements if referent is None else referent
    if unsaid := _unsaid(part, own, findings, behind, titles):
        return unsaid
    context = _spoken_of(part, own, earlier, titles)
    if len(own) >= THING_ASKED and found_apart(part.text, own, statements, titles, context):
        return (
            "the things it asks about were found only apart: no source behind its findings "
            "states two of its words together"
        )
    return None


def _count_unsaid(part: str, said: set[str]) -> bool:
    """Whether ``part`` asks how many of a thing (none: "how much does") that the roots
    ``said`` never speak of: not as asked, nor as a population for people, nor by species
    or types for a thing's kinds ("160,000 species of moth" for "how many kinds of moth")."""
    m = COUNTED.search(part)
    if m is None or says_all(text_roots(m[1]), said):
        return False
    population = text_roots(counted_as(part) or "")
    if population and says_all(population, said):
        return False
    return not (counts_kinds(part) and says_any(text_roots(" ".join(KINDS)), said))


def _spoken_of(
    part: Part, own: set[str], earlier: Sequence[Part], titles: Sequence[str]
) -> list[set[str]]:
    """The roots of the things earlier parts name that ``part`` may speak of unsaid: their
    names, but one the part gives again ("Venus" after "The Birth of Venus"), a word of its
    own; and, for a part pointing back, an entry the part before names by a common noun
    ("how do psychologists sum it up" after "Is wisdom the same thing as sapience")."""
    out = [r for p in earlier for n in names_of(p.text) if not (r := text_roots(n)) & own]
    if part.refers_back and earlier:
        before = text_roots(earlier[-1].text)
        out += [r for t in titles if (r := title_roots(t)) and r <= before and not r & own]
    return out


_JOINT_TITLE = re.compile(r"\s(?:and|&)\s")  # a title joining two things


def _none_stated(part: Part, gathered: Sequence[str]) -> list[str]:
    """The words a part asks with (of SUBSTANTIVE_LETTERS or more, or written as a name:
    "the Sun", "Io"), when none of the ``gathered`` texts states any of them; else none."""
    named_words = set(words(" ".join(names_of(part.text))))
    asked = [
        w
        for w in keywords(readable(part.text))
        if len(w) >= SUBSTANTIVE_LETTERS or w in named_words
    ]
    return asked if asked and len(_unstated(asked, gathered)) == len(asked) else []


def topic_roots(part: Part, titles: Sequence[str], question: str = "") -> set[str]:
    """The roots of what a short part asks about, which a source that answers it speaks
    of: its words that make up a gathered source's title ("tides" for *Tide*, by root) or
    a name it gives ("Shakespeare"), not the kind of answer it asks for ("which year").
    Empty for a part that points back (its answer may never name what "it" is), asks in
    more than TOPIC_WORDS words of its own (several words share its match), or names no
    such thing. Among the sources gathered for "what causes tides", every one states
    "tide": the entry on bruises stating "the most common cause" matches the rarer word.

    A title joining two things ("Cookware and bakeware") counts when the ``question``
    gives all its words, for the parts it was split into ("where do you use cookware
    versus bakeware": each part gives one).

    Args:
        part: the question part.
        titles: the titles of the sources gathered.
        question: the whole question.
    """
    own = own_roots(part)
    # An adverb says how, not what of ("who is traditionally credited with inventing
    # paper" asks in three words of what it is about).
    topical = {t for t in part.own if not _ADVERB.search(t)}
    if part.refers_back or not own or len(topical) > TOPIC_WORDS:
        return set()
    asked = own - asked_kind(part.text)
    named = set().union(*(text_roots(n) for n in names_of(part.text)))
    joint = [t for t in titles if _JOINT_TITLE.search(t)]
    return (
        titled_roots(part.text, asked, titles)
        | titled_roots(question, asked, joint)
        | (named & asked)
    )


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
    own = own_roots(part)
    borrowed = text_roots(" ".join(part.terms - part.own))
    if part.refers_back or not own or len(own) > TOPIC_WORDS or not borrowed:
        return []
    names = (text_roots(name) for p in earlier for name in names_of(p.text))
    given = [n for n in names if n and n <= borrowed]
    titled = titled_roots(" ".join(part.terms - part.own), borrowed, titles)
    return given or [{r} for r in sorted(titled)]


def _unnamed(
    part: Part, said: set[str], statements: list[str], gathered: Sequence[str]
) -> str | None:
    """Why the sources behind a part's findings (their roots: ``said``; their texts:
    ``statements``) do not name what it names, or state a number labelling it, or None
    when they may."""
    given = [_unexpanded(name, statements) for name in names_of(part.text)]
    names = [n for n in (text_roots(name) for name in given) if n]
    if names and not any(_named(n, said) or _common(n, gathered) for n in names):
        return "the sources found for it name none of the names it gives"
    # "Kyoto's Golden Pavilion" names the pavilion, whose sources may not say it is Kyoto's
    joined = [n for n in (text_roots(_possessed(name)) for name in given) if n]
    if (
        joined
        and all(len(n) > 1 for n in joined)
        and not any(_together(n, statements) for n in joined)
    ):
        # "the GDP of Mars": *Gross domestic product* says "GDP", *Mars* says "Mars"
        return "no source behind its findings states the name it gives as one"
    if numbers := unstated_numbers(part.text, statements):
        return f"no source behind its findings states {' or '.join(numbers)}, which it gives"
    return None


def _unexpanded(name: str, statements: list[str]) -> str:
    """``name`` without the initialisms ``statements`` write out in full: "UK US" is named
    by "the United Kingdom and the United States"."""
    return " ".join(word for word in name.split() if not _written_out(word, statements))


def _written_out(word: str, statements: list[str]) -> bool:
    """Whether ``word`` is an initialism some statement writes out in full."""
    if not _INITIALISM.fullmatch(word):
        return False
    spelled = _spelled(word)
    return any(spelled.search(s) for s in statements)


_INITIALISM = re.compile(r"[A-Z]{2,5}")


def _spelled(initials: str) -> re.Pattern[str]:
    """Capitalised words with the ``initials`` ("United Kingdom" for "UK"), "of", "the",
    "and" or "for" between them left out ("Federal Bureau of Investigation")."""
    joint = r"\W+(?:(?:of|the|and|for)\W+)*"
    return re.compile(r"\b" + joint.join(f"{c}[a-z]+" for c in initials) + r"\b")


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
    if not gathered or (m := _DEFINED.match(readable(text))) is None:
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
    named = [w for name in names_of(main_clause(_asking(text))) for w in keywords(name)]
    return _unstated(list(dict.fromkeys(named)), gathered)


def _asking(text: str) -> str:
    """The question a part asks after the asker's account of their own setup ("our ops
    team puts MYAPP_ in front of every variable name: can Config handle that prefix"):
    the names of their setup are theirs, not what the sources must name."""
    told, colon, question = text.rpartition(":")
    return (
        question.strip()
        if colon and in_first_person(told) and is_question(question.strip())
        else text
    )


def _unstated(wanted: list[str], gathered: Sequence[str]) -> list[str]:
    """The ``wanted`` words (lower-cased) that no text of ``gathered`` states, as written
    or in another form of the word."""
    # Most words are in some text as written: only the rest are compared by root.
    texts = [g.casefold() for g in gathered]
    unseen = [w for w in wanted if not any(w in text for text in texts)]
    if not unseen:
        return []
    stated = set().union(*(text_roots(g) for g in gathered))
    return [w for w in unseen if not all(_stated_root(r, stated) for r in text_roots(w))]


def _stated_root(wanted: str, stated: set[str]) -> bool:
    """Whether the ``stated`` roots give the root ``wanted``: as written, as a longer word
    of it ("china" by "chinese"), or by a shorter one it begins whole ("nepalese" by
    "nepal"); "rubicon" is not said by "rubik", which only shares its first letters."""
    return wanted in stated or any(
        same_word(wanted, r) and (len(r) >= len(wanted) or wanted.startswith(r)) for r in stated
    )


def _possessed(name: str) -> str:
    """The name after a possessor within it ("Golden Pavilion" of "Kyoto's Golden
    Pavilion"; "Travels" of "Gulliver's Travels", whose sources say it whole too)."""
    return re.split(r"['’]s\s+", name)[-1]


def _together(name: set[str], statements: Sequence[str]) -> bool:
    """Whether one sentence of the ``statements`` (or a title with its text's opening)
    states every root of ``name``."""
    return any(says_all(name, text_roots(line)) for s in statements for line in sentences(s) or [s])


def _common(name: set[str], gathered: Sequence[str]) -> bool:
    """Whether COMMON_NAME of the ``gathered`` texts (two at least) state ``name``."""
    stating = sum(says_all(name, text_roots(text)) for text in gathered)
    return stating >= max(2, COMMON_NAME * len(gathered))


def _unsaid(
    part: Part, own: set[str], findings: list[str], behind: Sequence[str], titles: Sequence[str]
) -> str | None:
    """Why the ``findings`` drawn for a part (``own``: the roots of its own words;
    ``behind``: the texts of its sources, those tied to what it refers to when it points
    back so; ``titles``: the gathered sources') leave unsaid what it asks (see
    ``unanswered_reason``), else None."""
    stated = set().union(*(text_roots(f) for f in findings))
    if len(own) >= OWN_WORDS_ASKED:
        if not any(says_all({w}, stated) for w in own):
            return "the findings drawn for it state none of the words it asks with"
    elif (len(own) >= THING_ASKED or _names_one_thing(part, own)) and not _speaks_of_both(
        part, own, behind, titles
    ):
        return (
            "no source behind its findings speaks of both the thing it asks about and what "
            "it refers to"
        )
    elif (
        not part.refers_back
        and (said_of := text_roots(kind_said_to_be(part.text)))
        and not says_all(said_of, stated)
    ):
        # "Which composer became deaf": the kind is in every finding, what it is must be in
        # one ("deaf"), or the findings are on some composer
        return f"the findings drawn for it do not say {' '.join(map(repr, sorted(said_of)))}"
    return None


def _names_one_thing(part: Part, own: set[str]) -> bool:
    """Whether a part pointing back asks in one word of its own where, when or how about a
    thing: "where was his laboratory" after "Who invented the phonograph" asks of a
    laboratory, which his entry must speak of. Not one asking who, which or what, whose
    word is mostly the kind of thing it asks to name: "which island was he from" is
    answered by "Pythagoras of Samos", "who is its hero" by "Gilgamesh, king of Uruk"."""
    return part.refers_back and bool(own) and question_word(part.text) not in _NAMING


_NAMING = frozenset({"who", "whom", "whose", "which", "what"})


def _speaks_of_both(
    part: Part, own: set[str], statements: Sequence[str], titles: Sequence[str]
) -> bool:
    """Whether a source behind a part's findings speaks both of the thing the part asks
    about and of what it refers to, for a part that refers to an earlier part's words
    ("what was his shoe size" after "Who was Napoleon") and asks about a thing a gathered
    source is titled ("shoe", the source *Shoe*). The entry on Napoleon never mentions a
    shoe and the entry on shoes never mentions Napoleon: nothing found gives his shoe
    size. True when the part borrows nothing or names no such thing."""
    borrowed = {word_root(t) for t in part.terms} - own
    # a year asked for ("in what year") is the date check's, no thing it asks about (*Year*)
    year = text_roots("year years") if asks_year(part.text) else set()
    # nor are the kind of thing it asks to name ("which number president was he": "the
    # 32nd president" need not say "number") and the verb it asks with ("does it lie")
    kind = asked_kind(part.text) | do_verbs(part.text)
    thing = titled_words(part.text, own - year - kind, titles)
    if not borrowed or not thing:
        return True
    speaking = [s for s in statements if says_any(borrowed, text_roots(s))]
    if any(says_any(thing, text_roots(s)) for s in speaking):
        return True
    # the thing in other words: *Charles Lindbergh* names his "aircraft", not his "plane"
    embedder = vectors.load_embedder() if speaking else None
    written = [w for w in keywords(part.text) if word_root(w) in thing]
    return embedder is not None and any(
        close_word(s, written, embedder, SAME_THING) for s in speaking
    )


def titled_words(text: str, words: set[str], titles: Sequence[str]) -> set[str]:
    """The roots in ``words`` that, as ``text`` writes them, make up the title of one of
    ``titles`` ("radio" of "who invented the radio", a source being *Radio*): a thing
    the text asks about, which an answer names. As written, so that the title *Race* is
    not what "the goal they raced for" asks about; each title word of TITLE_WORD letters
    at least, as a shorter one is too often a verb or a particle (the title *Go*)."""
    written = set(keywords(readable(text)))
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
    own = [own_roots(part) for part in parts]
    return [
        {
            w
            for w in mine
            if not any(same_word(w, r) for j, theirs in enumerate(own) if j != i for r in theirs)
        }
        for i, mine in enumerate(own)
    ]
