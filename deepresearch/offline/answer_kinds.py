"""The kind of answer a question part asks for, and whether a statement gives one.

"When …" is answered by a statement giving a time, "how many …" by one giving a number,
"who invented …" by one naming the doer with the deed, "how do I …" by one giving code,
"which …" or "where …" by one giving a name. The analysis ranks a source's statements by it
(the one that can answer first) and the report opens a part's summary with one that gives
it. Syntax only: no topic words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from itertools import takewhile

from deepresearch.offline.asking import (
    COUNTED,
    asked_doer,
    asks_for_entity,
    asks_when,
    counted_as,
    question_word,
)
from deepresearch.offline.attributes import asked_attribute
from deepresearch.offline.dates import MONTHS, asks_year, gives_date
from deepresearch.offline.quotes import CODE
from deepresearch.offline.ranks import (
    SUPERLATIVE_WORD,
    degree_at,
    degree_said,
    narrowed,
    of_a_group,
    one_of_several,
)
from deepresearch.offline.relations import gives_measure, says_measure
from deepresearch.offline.roots import says_all, says_any, text_roots
from deepresearch.offline.tense import asks_now, says_now
from deepresearch.text import COPULAS, NUMBER_WORD, STOPWORDS, word_root, words

_COMPOUND_HEAD = re.compile(r"(?<=\w-)([a-z]+)\b")  # "co-founded" → "founded"
# "How tall is", "how deadly was", "how far did" ask for a measure too: "how", a word, then
# the question's verb (not "how he died", "how a steam engine works"); so does "what share
# of" (``_ASKS_SHARE``: "about 50%", "one-fifth").
_ASKS_NUMBER = re.compile(
    r"\bhow\s+(?:many|much|[a-z]+\s+(?:is|are|was|were|did|does|do|can|will|has|have|had)\b)",
    re.IGNORECASE,
)
_ASKS_SHARE = re.compile(
    r"\b(?:what|which)\s+(?:share|percentage|proportion|fraction|percent)\b", re.IGNORECASE
)
# A number or an amount ("500", "2,300", "US$700"), not a name with a digit in it ("H1N1").
_AMOUNT = re.compile(r"(?:[A-Z]{0,2}[$€£¥])?\d")
# "What is the term for …", "what is X called", "by what alternative name is …": the
# name of a thing the part describes, which a line gives as "it is called polyandry".
_ASKS_TERM = re.compile(
    r"^\W*(?:what|which)\b[^?]*\b(?:called|termed|known\s+as)\W*$"
    r"|\b(?:what|which)\s+(?:is|are|was|were)\s+the\s+(?:term|word)\s+(?:for|of)\b"
    r"|\bby\s+what\s+(?:\w+\s+)?name\b|\bwhat\s+(?:do|does|did)\s+\w+\s+call\b",
    re.IGNORECASE,
)
_GIVES_TERM = re.compile(
    r"\b(?:called|termed|named|known\s+as|referred\s+to\s+as)\s+"
    r"(?!(?:for|on|upon|off|out|up|back|after|by|in|to|as)\b)"
    r"[\"“'‘]?\w",
    re.IGNORECASE,
)
# ... or as another name beside the first: "The Green Revolution, or the Third Agricultural
# Revolution, was …"
_ALIAS = re.compile(r",\s+or\s+(?:the\s+)?[A-Z]")
# A share in words: "three-quarters of", "one-fifth", "half of" (not "third-largest").
_FRACTION = re.compile(
    r"\b(?:a|one|two|three|four|five|six|seven|eight|nine)[\s-]"
    r"(?:half|third|quarter|fifth|sixth|seventh|eighth|ninth|tenth)s?\b(?!-)|\bhalf\s+of\b",
    re.IGNORECASE,
)
# A year or a span of years ("1918–1920"): when a thing happened, not how many or how much.
_YEARS = re.compile(r"[12]\d{3}(?:[–-][12]?\d{1,3})?")
# "How do I …", "how can we …", "how to …", "can I …", "is there a way to …": a part asking
# how to do something, which documentation answers with the code that does it.
_ASKS_USAGE = re.compile(
    r"\b(?:how\s+(?:do|can|could|would)\s+(?:i|we|you|one)|how\s+to|(?:can|could)\s+(?:i|we)"
    r"|is\s+there\s+(?:a|any)\s+way)\b",
    re.IGNORECASE,
)
# A token of code: an option ("--locked", "-o"), a call, a setting or an item opened
# ("load_cert_chain(", "nargs=-1", "httpx[http2]"), a snake_case or dotted name.
_CODE_TOKEN = re.compile(
    r"-{1,2}[A-Za-z][\w-]*|[A-Za-z_][\w.]*[(=\[]|[A-Za-z_]\w*(?:_\w|\.[A-Za-z_]\w)[\w.]*"
)
# "the largest ocean", "the first emperor": a part asks for the one thing that is so,
# which the entry on the kind (*Ocean*) does not name.
SUPERLATIVE = re.compile(rf"\bthe\s+(?:very\s+)?{SUPERLATIVE_WORD}\b", re.IGNORECASE)
TOKEN_EDGES = ".,;:()[]\"'“”‘’"


def answer_kind(part: str, *, names: bool = False) -> str | None:
    """ "time" for a part asking when (or what year), "now" for one asking what holds now
    ("the current president"), "doer" for one asking who did something, "number" for one
    asking how many, how much or for a measure ("how tall is"), "superlative" for one
    asking for the first, last or most of a kind ("the first man on the Moon", "the
    largest planet"), "usage" for one asking how to do something ("how do I", "can we");
    "term" for one asking what a thing it describes is called ("What is the term for one
    woman having several husbands", "by what other name is it known"); with ``names``,
    "name" for another part asking for a thing it does not name ("which government",
    "where"); else None."""
    if asks_when(part) or (question_word(part) and asks_year(part)):
        return "time"
    if asks_now(part):
        return "now"
    # "Who received the first Nobel Prize": the first is asked, whoever received one
    if question_word(part) and SUPERLATIVE.search(part):
        return "superlative"
    if asked_doer(part):
        return "doer"
    if question_word(part) and (_ASKS_NUMBER.search(part) or _ASKS_SHARE.search(part)):
        return "number"
    if _ASKS_USAGE.search(part):
        return "usage"
    if _ASKS_TERM.search(part):
        return "term"
    return "name" if names and asks_for_entity(part) else None


def gives(text: str, kind: str, asked: set[str], part: str) -> bool:
    """Whether ``text`` gives an answer of ``kind`` (see ``answer_kind``) beyond the
    lower-case words ``asked``: a year, decade or "century" for a time, a number or an
    amount but a year for a number, the part's words said in the present tense for
    ``now``, the part's superlative for a ``superlative``, a name said with the deed ("for
    the discovery of penicillin", with Fleming's name, not the definition of penicillin)
    for a ``doer`` (the part's verb and doer noun), a name for a ``name``, code (a quoted
    line, an option, a call, a setting) for ``usage``."""
    tokens = [t for t in (token.strip(TOKEN_EDGES) for token in text.split()) if t]
    if kind == "time":
        return gives_date(text, asked)
    if kind == "superlative":
        return _states_superlative(tokens, part)
    if kind == "now":
        return says_now(part, text) is True
    if kind == "term":
        return _GIVES_TERM.search(text) is not None or _ALIAS.search(text) is not None
    if kind == "usage":
        return text.startswith(CODE) or any(
            _CODE_TOKEN.match(t) and not set(words(t)) <= asked for t in tokens
        )
    if kind in ("doer", "name"):
        named = any(
            i and len(t) > 1 and t[0].isupper() and not set(words(t)) <= asked
            for i, t in enumerate(tokens)
        )
        doer = asked_doer(part) if kind == "doer" else None
        # a compound's last word is what it does: "co-founded" says "founded"
        said = text_roots(text) | text_roots(" ".join(_COMPOUND_HEAD.findall(text)))
        return named and (doer is None or says_any(text_roots(" ".join(doer)), said))
    # "How long is the river": a measure with its unit, not a count ("six states")
    if (measured := gives_measure(part, text)) is not None:
        return measured
    # a count in words with what the part counts ("commonly have four strings"), a
    # measure in words ("a nearly four-degree lean"), or for a share asked, one in words
    # ("three-quarters of"; of a length, "the lower half of the river" is none)
    return (
        counts_asked(text, part)
        or says_measure(text)
        or (_ASKS_SHARE.search(part) is not None and _FRACTION.search(text) is not None)
        or any(
            _AMOUNT.match(t) and not _YEARS.fullmatch(t) and not set(words(t)) <= asked
            for t in tokens
        )
    )


COUNT_REACH = 3  # words at most between a number and what it counts ("206 bones")
_JOINING = {"and", "or"}  # joins the words describing what is counted ("black and white")
COUNTED_WORDS = 4  # words at most of what a part counts ("Olympic gold medals")


@cache  # read for every statement ranked for a part
def _counted(part: str) -> frozenset[str]:
    """The roots of what a "how many" ``part`` counts: its words up to its verb, any of
    which may be said with the number ("five gold medals" for "how many Olympic gold
    medals did he win"); none for another part or one naming nothing ("how many of his
    plays survive", "how many are held")."""
    if (m := COUNTED.search(part)) is None:
        return frozenset()
    phrase = list(takewhile(lambda w: w not in STOPWORDS, words(part[m.start(1) :])))
    return frozenset(text_roots(" ".join([*phrase[:COUNTED_WORDS], counted_as(part) or ""])))


def counts_asked(text: str, part: str) -> bool:
    """Whether ``text`` gives a number with the thing a "how many" ``part`` counts a few
    words after it ("around 206 bones by adulthood", "four strings" for "How many bones are
    in the adult human body", not "about 14% of the total body weight"). False for another
    part."""
    counted = _counted(part)
    return bool(counted) and any(
        says_any(counted, text_roots(" ".join(after))) for after in _counting(text)
    )


def _counting(text: str) -> list[list[str]]:
    """The words after each number of ``text`` that say what it counts: up to COUNT_REACH
    of them, up to a stopword ("206 bones by adulthood", "four Olympic gold medals"; not "a
    1:2:4 orbital resonance with the moons"), the unit joined to it ("a 13-day
    confrontation": see ``roots.text_roots``), and the word a few words before it that
    "of" joins it to ("a population of more than 242 million")."""
    tokens = [t for t in (token.strip(TOKEN_EDGES) for token in text.split()) if t]
    return [
        [
            t,
            *takewhile(
                lambda w: w.lower() in _JOINING or w.lower() not in STOPWORDS,
                tokens[k + 1 : k + 1 + COUNT_REACH],
            ),
            *_count_of(tokens, k),
        ]
        for k, t in enumerate(tokens)
        if (_AMOUNT.match(t) and not _YEARS.fullmatch(t)) or NUMBER_WORD.fullmatch(t)
    ]


def _count_of(tokens: list[str], at: int) -> list[str]:
    """What the number at ``at`` counts when said before it: the word before an "of" at
    most COUNT_REACH words back ("a population of more than 242 million"), or the words
    of the subject a copula just before it says it of ("The population of the city
    proper was over 14 million"; not "Bones make up about 14% of …")."""
    for j in range(at - 1, max(0, at - 1 - COUNT_REACH), -1):
        said = tokens[j].lower()
        if said == "of":
            return tokens[j - 1 : j]
        if said in COPULAS:
            return tokens[max(0, j - SUBJECT_REACH) : j]
        if said not in _QUALIFIERS:
            return []
    return []


SUBJECT_REACH = 6  # words of the subject a copula says a number of
# Words between a number and the verb or "of" before it: "was over 14 million", "a
# population of just over 56,500".
_QUALIFIERS = frozenset(["over", "about", "around", "nearly", "almost", "approximately", "roughly", "some", "just", "more", "less", "fewer", "than", "under", "an", "a", "estimated"])  # fmt: skip


# Words at most between the deed a who-did part asks about and what it was done to:
# "founded Buddhism", "Buddhism was founded by", "the discoverer of penicillin".
DEED_REACH = 6


def deed_on_object(text: str, part: str) -> bool:
    """Whether ``text`` says the deed a who-did ``part`` asks about ("Who founded
    Buddhism"), or a word made from it ("discovery"), within DEED_REACH words of a word
    of what it was done to: "… and founded Buddhism", not "one of the main founders of
    the Yogacara school" in a sentence on Mahayana Buddhism. False for another part."""
    doer = asked_doer(part)
    if doer is None:
        return False
    asked = words(part)
    done_to = {
        r for w in asked[asked.index(doer[0]) + 1 :] if w not in STOPWORDS for r in text_roots(w)
    }
    deed = text_roots(" ".join(doer))
    said = words(text)
    roots = [text_roots(w) for w in said]
    # the deed's noun too: "the discovery of penicillin" says "discovered"
    deeds = [k for k, r in enumerate(roots) if any(w.startswith(d) for w in r for d in deed)]
    return any(
        roots[j] & done_to and not _of_another(said, k, j)
        for k in deeds
        for j in range(max(0, k - DEED_REACH - 1), min(len(roots), k + DEED_REACH + 2))
    )


def _of_another(said: list[str], deed: int, done_to: int) -> bool:
    """Whether the deed at ``deed``, said by a verb, was done to another thing that the
    word at ``done_to`` only qualifies: an "of" between them ("discovered isotopes of
    the radioactive elements radium"). A deed's noun takes its object with "of" ("the
    discovery of …", "the creator and lead developer of the Linux kernel")."""
    return said[deed].endswith(("ed", "ing")) and "of" in said[deed + 1 : done_to]


SUPERLATIVE_REACH = 6  # content words after a superlative where what it is said of follows


def unstated_superlative(part: str, texts: Sequence[str]) -> str | None:
    """Why none of the ``texts`` (the findings drawn for a part asking who is the first,
    last or most of a kind: "Who was the first person to reach the South Pole") answers
    it, or None when one may or the part asks something else. One answers by saying the
    superlative (as a word of its own, not ranked below it, within a group nor narrowed
    past the part's phrase) with what the part says it of after it (see ``_said_after``:
    "the first person to walk on the Moon" for "the first man on the Moon"); "First aid
    is the first and immediate assistance given to any person" and a pole vaulter's
    entry do not. A part asking which thing has a superlative ("Which planet has the most
    moons") is answered by a text saying it (see ``says_most_had``); one asking what thing
    is the most of a kind, not of a named thing ("What is the heaviest naturally occurring
    element"), by a text saying that superlative (see ``_states_superlative``), not
    Astatine's "the rarest naturally occurring element … of various heavier elements"."""
    if m := _HAS_MOST.match(part):
        if any(says_most_had(part, text) for text in texts):
            return None
        return f"no finding drawn for it says which {m['kind']} has {part[m.start('degree') - 4 :]}"
    # one of a named thing ("the largest city in Australia") is read by ``attributes``
    if (most := _IS_THE_MOST.match(part)) and asked_attribute(part) is None:
        if any(_states_superlative([t.strip(TOKEN_EDGES) for t in s.split()], part) for s in texts):
            return None
        if any(states_bound(part, text) for text in texts):
            return None
        return f"no finding drawn for it says what is {part[most.start('the') :].strip()}"
    if question_word(part) not in ("who", "whom") or (asked := _superlative_asked(part)) is None:
        return None
    start, superlative, after = asked
    size = len(superlative.split())  # "most populous" is two words
    said_in_part = set(words(part))
    for text in texts:
        tokens = [t.strip(TOKEN_EDGES) for t in text.split()]
        lowered = [t.lower() for t in tokens]
        for k in range(len(lowered)):
            # "the first American to win the Nobel Prize" is not the first to win it
            if (
                degree_at(lowered, k, superlative)
                and not of_a_group(tokens[k + size :], said_in_part)
                and not _narrowed_after(tokens[k + size :], after, part)
                and _said_after(lowered[k + size :], after, part)
            ):
                return None
    return f"no finding drawn for it says who is {part[start:].strip()}"


# "What is the quickest way to get a shell": a manner asked, which a how-to answers in
# other words than the superlative's (not "the longest river").
_MANNER = r"(?:way|ways|method|approach)\b"
# "What is the heaviest naturally occurring element", "Which planet is the largest": a
# thing that is the superlative, which a line answering says.
_IS_THE_MOST = re.compile(
    r"^\W*(?:what|which)\b[^?]*?\b(?:is|are|was|were)\s+(?P<the>the)\s+(?:very\s+)?"
    rf"{SUPERLATIVE_WORD}\b(?!\s+{_MANNER})",
    re.IGNORECASE,
)
# "Which country has the largest population in Africa", "Which planet has the most moons":
# the kind asked for, and the superlative it has, of a noun (not "Which river is the
# longest", read by ``attributes``).
_HAS_MOST = re.compile(
    rf"^\W*(?:which|what)\s+(?P<kind>[a-z][\w\-]*)\s+(?:has|had|have)\s+the\s+"
    rf"(?P<degree>{SUPERLATIVE_WORD})\s+(?P<rest>[a-z].*?)\W*$",
    re.IGNORECASE,
)
_JOINTS = frozenset({"in", "of", "on", "among", "within"})


def asks_most_had(part: str) -> bool:
    """Whether a ``part`` asks which thing of a kind has a superlative of a noun ("Which
    planet has the most moons", see _HAS_MOST)."""
    return _HAS_MOST.match(part) is not None


def says_most_had(part: str, text: str) -> bool:
    """Whether ``text`` says the superlative a part asking which thing has it asks (see
    _HAS_MOST): as asked, its noun right after ("the largest population", "the most
    moons", "the highest surface temperature"), or with an adjective made from the noun
    before the kind ("the most populous country" for the largest population); not ranked
    below it nor one of several, and giving the place asked of, if any. "Algeria is the
    largest country in Africa" does not say it has the largest population; "the highest
    delta-v" is no surface temperature."""
    if (m := _HAS_MOST.match(part)) is None:
        return False
    rest = [w.lower() for w in words(m["rest"])]
    joint = next((k for k, w in enumerate(rest) if w in _JOINTS), len(rest))
    superlative = degree_said([m["degree"].lower(), *rest[:joint]])
    size = len(superlative.split())
    noun = rest[size - 1 : joint]  # "population"; none after "most moons"
    place = text_roots(" ".join(w for w in rest[joint + 1 :] if w not in STOPWORDS))
    if place and not place <= text_roots(text):
        return False
    kind = text_roots(m["kind"])
    lowered = [t.strip(TOKEN_EDGES).lower() for t in text.split()]
    for k in range(len(lowered)):
        if not degree_at(lowered, k, superlative) or one_of_several(lowered[:k]):
            continue
        said = lowered[k + size : k + size + len(noun)]
        if text_roots(" ".join(said)) == text_roots(" ".join(noun)):
            return True
        after = text_roots(" ".join(lowered[k + 2 : k + 3]))  # "most populous country"
        if noun and _made_from_noun(lowered[k + 1 : k + 2], noun[-1]) and says_any(kind, after):
            return True
    return False


def _made_from_noun(said: list[str], noun: str) -> bool:
    """Whether the one word ``said`` is an adjective made from the ``noun`` ("populous"
    from "population"): they share all but the noun's last five letters, at least four."""
    lead = noun[: max(4, len(noun) - 5)]
    return bool(said) and said[0] != noun and said[0].startswith(lead)


# "the most releases", "the fewest players": a count asked at its bound, which sources
# state as a limit ("there should not be more than one release per month", "at most two
# players", "up to 32 teams").
_COUNT_SUPERLATIVE = re.compile(
    r"\bthe\s+(?P<degree>most|fewest|least)\s+(?P<noun>[a-z]+s)\b", re.I
)
# "no more than", "not be more than", "may not hold more than"
_DENIED = r"(?:\bno|\bnot|n't)\s+(?:\w+\s+){0,2}?"
_BOUND = {
    "most": re.compile(
        rf"(?:{_DENIED}more\s+than|\bat\s+most|\bup\s+to|\ba\s+maximum\s+of)\b", re.I
    ),
    "least": re.compile(
        rf"(?:{_DENIED}(?:fewer|less)\s+than|\bat\s+least|\ba\s+minimum\s+of)\b", re.I
    ),
}


def states_bound(part: str, text: str) -> bool:
    """Whether ``text`` states the limit a ``part`` asking the most or fewest of a counted
    thing asks for: the bound's words with the thing counted ("there should not be more
    than one release per month" for "what is the most releases it should make in a
    month")."""
    if (m := _COUNT_SUPERLATIVE.search(part)) is None:
        return False
    bound = _BOUND["most" if m["degree"].lower() == "most" else "least"]
    return bool(bound.search(text)) and says_all(text_roots(m["noun"]), text_roots(text))


def _superlative_asked(part: str) -> tuple[int, str, list[str]] | None:
    """Where a ``part``'s superlative starts ("the first …"), the superlative ("first";
    "most populous" with the word "most" or "least" makes one of) and the words after
    it; None for a part asking none."""
    if (m := SUPERLATIVE.search(part)) is None:
        return None
    said = [m[0].split()[-1].lower(), *words(part[m.end() :])]
    superlative = degree_said(said)
    return m.start(), superlative, said[len(superlative.split()) :]


def _states_superlative(tokens: list[str], part: str) -> bool:
    """Whether a statement (its ``tokens``) says the part's superlative as a word of its own
    ("the first person to walk on the Moon" for "the first man on the Moon"; not
    "second-largest" for "the largest") with another word of the part."""
    if (superlative := _superlative_asked(part)) is None:
        return False
    _, asked, after = superlative
    lowered = [t.lower() for t in tokens]
    of_person = question_word(part) in ("who", "whom")
    said_in_part = set(words(part))
    others = said_in_part - {asked.split()[0], "the"}
    # what the part asks the superlative of: "the largest desert", not "the first to"
    noun = [w for w in after[:1] if w not in STOPWORDS]
    size = len(asked.split())  # "most populous" is two words
    own = any(
        degree_at(lowered, k, asked)  # not "the 12th largest"
        and not one_of_several(lowered[:k])  # nor "one of the greatest"
        # "most notably M41" names the answer, not a group it is said within
        and (_adverb_said(lowered, k, asked) or not of_a_group(tokens[k + size :], said_in_part))
        and not (noun and narrowed(lowered[k + size :], noun[0]))
        and not _scoped_elsewhere(tokens[k + size :], part)
        and not _narrowed_after(tokens[k + size :], after, part)
        # of a person, what it is said of (not "The prizes were first awarded"), as
        # ``unstated_superlative`` asks; a thing's may be said in other words ("The
        # highest peak, Mytikas" for "the highest summit")
        and (not of_person or _said_after(lowered[k + size :], after, part))
        for k in range(len(lowered))
    )
    return own and bool(others & set(words(" ".join(tokens))))


def _adverb_said(lowered: list[str], at: int, asked: str) -> bool:
    """Whether the superlative said at ``at`` is the adverb of the one ``asked`` ("most
    notably" for "most notable")."""
    asked_words = asked.split()
    said = lowered[at : at + len(asked_words)]
    return len(said) == len(asked_words) and said[-1] != asked_words[-1] and said[-1].endswith("ly")


_PHRASE_END = re.compile(r"[,;:.?!]")
_CAPITALISED = re.compile(r"\b[A-Z][\w'\-]*")


def _names_after(part: str) -> list[str]:
    """The capitalised words (lower-cased) a ``part`` writes after its superlative, in its
    phrase: up to a comma or a sentence's end ("…, set at the Heian court" describes
    another thing; ". What was it" opens a sentence)."""
    m = SUPERLATIVE.search(part)
    phrase = _PHRASE_END.split(part[m.end() :], maxsplit=1)[0] if m else ""
    return [w.lower() for w in _CAPITALISED.findall(phrase)]


# A preposition right after a statement's superlative leaves its noun unsaid ("the
# largest in Asia", "the first to reach the Pole"); "the first and immediate" does not.
_ELLIPTIC = frozenset({"in", "of", "on", "among", "within", "to"})
NOUN_ENOUGH = 2  # words a superlative is said of, at most, whose noun alone says them


def _said_after(following: list[str], after: list[str], part: str) -> bool:
    """Whether the words ``following`` a statement's superlative (lower-cased) say what
    the ``part`` says it of (its words ``after`` the superlative): each name of its phrase
    (``_names_after``), and, within SUPERLATIVE_REACH content words, half of its words or
    their first, the noun, where they are NOUN_ENOUGH or fewer or the statement's phrase
    ends at it ("the first person to walk on the Moon" for "the first man on the Moon",
    "The highest peak is …"); "the first physics professor" is no first Nobel Prize in
    Physics. Anything, where the part or the statement says nothing after it ("Which
    planet is the largest", "the largest in Asia")."""
    content = [w for w in after if w not in STOPWORDS]
    # nothing said after it, in the part or the statement ("the largest in Asia")
    if not content or (bool(following) and following[0] in _ELLIPTIC):
        return True
    # a name the part says it of is said ("the first European to reach New Zealand" is
    # no first to reach India), or a word made from it ("Roman" of Rome)
    said = [word_root(w) for w in following[: SUPERLATIVE_REACH * 2]]
    if any(not any(w.startswith(word_root(n)) for w in said) for n in _names_after(part)):
        return False
    said_of = text_roots(" ".join(content))
    reach = text_roots(" ".join([w for w in following if w not in STOPWORDS][:SUPERLATIVE_REACH]))
    noun = text_roots(content[0])
    # the noun alone of a short phrase, or of one the statement ends at it ("The highest
    # peak is Jengish Chokusu"): "the first person to accrue ten Academy Award
    # nominations" is no first person to receive the Nobel Prize in Physics
    if len(said_of) <= NOUN_ENOUGH and says_any(noun, reach):
        return True
    ends = len(following) < 2 or following[1] not in _ELLIPTIC
    if following and ends and says_any(noun, text_roots(following[0])):
        return True
    return 2 * sum(says_all({w}, reach) for w in said_of) >= len(said_of)


def _narrowed_after(following: list[str], after: list[str], part: str) -> bool:
    """Whether a statement goes on past the ``part``'s phrase (its words ``after`` the
    superlative) with "in", "of" or "for" and a name the part does not give: "the first
    woman to win the Nobel Prize in Literature" is no first woman to win a Nobel Prize;
    or with "whose" ("the lightest element whose isotopes are all radioactive"). A date
    does not narrow it ("the first person to walk on the Moon in July 1969")."""
    content = [w for w in after if w not in STOPWORDS]
    # "… considered the greatest exponent of": what goes on is the answer asked for
    if not content or after[-1] in STOPWORDS:
        return False
    last, given = word_root(content[-1]), set(words(part))
    for k, token in enumerate(following[: SUPERLATIVE_REACH * 2]):
        if word_root(token.lower()) != last:
            continue
        joint, name = following[k + 1 : k + 2], following[k + 2 : k + 3]
        # "the lightest element whose isotopes are all radioactive" is one of some elements
        if joint and joint[0].lower() == "whose":
            return "whose" not in given
        return (
            bool(joint and name)
            and joint[0].lower() in _NARROWING
            and name[0][:1].isupper()
            and name[0].lower() not in given
            and name[0] not in MONTHS
        )
    return False


_NARROWING = frozenset({"in", "of", "for"})
SCOPE_REACH = 3  # words after a superlative before "in" that scopes it to a place


def _scoped_elsewhere(after: list[str], part: str) -> bool:
    """Whether the words ``after`` a superlative limit it to a place the ``part`` does not
    give: "the deepest lake in North America" does not answer "which is the deepest",
    where "the deepest lake in the world" does. Only for a part asking which thing it is:
    "how does it rank among the biggest" is answered by "the largest in Asia" too."""
    if question_word(part) not in ("which", "what", "who"):
        return False
    for k, token in enumerate(after[: SCOPE_REACH + 1]):
        if token.lower() == "in" and k + 1 < len(after):
            place = after[k + 1]
            return place[:1].isupper() and not set(words(place)) <= set(words(part))
    return False
