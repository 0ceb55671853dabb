"""What a question part asks, read from its wording alone: its question word, whether
it is worded as a question, asks when, asks for a thing it does not name, asks who did
something, describes a thing by a clause (and where its main clause ends), asks only what
a named thing is, or points back to an earlier part. Used by the decomposition into parts
(``parts``) and by every check that reads what a part asks.

No topic vocabulary here: only the syntax of English questions.
"""

from __future__ import annotations

import re

from deepresearch.offline.coordination import PREPOSITIONS
from deepresearch.offline.ranks import SUPERLATIVE_WORD
from deepresearch.text import (
    AUXILIARY_OR_MODAL,
    AUXILIARY_VERBS,
    STOPWORDS,
    agent_noun,
    is_past_form,
    keywords,
    sentences,
    words,
)

# The kind of answer a part asks for: the word after "which"/"what"/"how many" ("in which
# year", "what causes"): its answer need not say it ("1972", "gravity").
ASKED_KIND = re.compile(r"\b(?:which|what|whose|how\s+(?:many|much))\s+([^\W\d_][\w'\-]*)", re.I)


def asks_a_kind(text: str) -> bool:
    """Whether ``text`` asks which or what thing of a kind it names ("which volcano"), not
    with a pronoun or function word ("which one", "what is it")."""
    return any(w.lower() not in STOPWORDS for w in ASKED_KIND.findall(text))


# What a part counts: the word after "how many"/"how much" ("how many dragons guard it"),
# or after a participle describing it ("how many working lungs", "how many living species":
# sources say "one functional lung").
COUNTED = re.compile(
    rf"\bhow\s+(?:many|much)\s+(?:[^\W\d_]+ing\s+(?!(?:{AUXILIARY_OR_MODAL}|{PREPOSITIONS}|and|or)\b))?"
    r"([^\W\d_][\w'\-]*)",
    re.IGNORECASE,
)

# A count of people is a population: "how many people live in Bashkortostan" is answered
# by "it has a population of 4,046,094", as entries word it.
_PEOPLE = frozenset({"people", "persons", "inhabitants", "residents"})
POPULATION = "population"


def counted_as(text: str) -> str | None:
    """The word sources say a count of people with ("population") when ``text`` asks how
    many people (inhabitants, residents …), else None."""
    m = COUNTED.search(text)
    return POPULATION if m and m[1].lower() in _PEOPLE else None


# Words counting the kinds of a thing ("how many kinds of moth"), any of which says such a
# count ("160,000 species of moth").
KINDS = frozenset(["kinds", "types", "sorts", "varieties", "species", "breeds"])


def counts_kinds(text: str) -> bool:
    """Whether ``text`` asks how many kinds of a thing there are ("how many kinds of moth
    are there"): sources may count them as species, types or varieties."""
    m = COUNTED.search(text)
    return m is not None and m[1].lower() in KINDS


# Words that point back to something said before them ("where did he live").
REFERS_BACK = frozenset(
    ["it", "its", "they", "them", "their", "he", "his", "him", "she", "her", "this", "that",
     "these", "those", "there", "then", "each", "both", "ones"]
)  # fmt: skip
# Words after which "that" opens a clause of its own rather than pointing back (its next
# word an article, an auxiliary, or a word ending in "s" that no singular noun ends with: a
# verb or a plural, which "that" cannot point at: "an error that the response wasn't read",
# "a file that is loaded", "the protocol that multiplexes", "a file that users edit"), unless
# they ask or govern it ("does that have", "for that").
_THAT_CLAUSE_NEXT = re.compile(
    rf"(?:the|a|an|{AUXILIARY_OR_MODAL}|[^\W\d_]+s(?<!ss|us|is|as|os))$", re.I
)
# A dash or a colon between two clauses of one piece, and the pronouns that can point
# across it to a thing named before it.
_ASIDE = re.compile(r"\s[-–—]\s|:\s")
PRONOUNS = frozenset(["it", "its", "they", "them", "their", "he", "his", "him", "she", "her"])
_DEMONSTRATIVES = frozenset(["this", "that", "these", "those"])
_EXISTING = frozenset(["is", "are", "was", "were"])
# Words opening a clause right after "ones" that says which ones they are.
_CLAUSE_SUBJECTS = frozenset(["i", "we", "you", "they", "he", "she", "it", "that", "which", "who"])
_ASKING = frozenset(["how", "what", "which", "who"])
_THAT_POINTS_AFTER = re.compile(rf"(?:{AUXILIARY_VERBS}|{PREPOSITIONS}|and|or|but|what|how)$", re.I)


def pointing_words(piece: str) -> set[str]:
    """The words of ``piece`` that point back to something said before it (REFERS_BACK),
    not counting a "that" that opens a clause ("… a file that is loaded", "so that …")."""
    tokens = [w.lower() for w in WORD_TOKEN.findall(piece)]
    said = set(tokens) & REFERS_BACK
    if "that" in said and all(
        _opens_clause(tokens, n) for n, w in enumerate(tokens) if w == "that"
    ):
        said.discard("that")
    if "there" in said and all(
        _existential(tokens, n) for n, w in enumerate(tokens) if w == "there"
    ):
        said.discard("there")
    if "ones" in said and all(
        tokens[n + 1 : n + 2] and tokens[n + 1] in _CLAUSE_SUBJECTS
        for n, w in enumerate(tokens)
        if w == "ones"
    ):
        said.discard("ones")  # "only load the ones we name": the clause after says which
    return said - _named_within(piece, PRONOUNS) - _owned_by_name(piece)


# Possessives that belong to the name a question's auxiliary puts first, when it does: "in
# what year did Spain lose its last territory" asks of Spain's, not of something said
# before the piece ("how many Academy Award nominations did his films earn" does).
_POSSESSIVES = frozenset(["its", "his", "their"])
_SUBJECT_NAMED = re.compile(rf"\b(?:{AUXILIARY_OR_MODAL})\s+(?!I\b)(?-i:[A-Z])", re.IGNORECASE)


def _owned_by_name(piece: str) -> set[str]:
    """The possessives of ``piece`` after the name its auxiliary puts first."""
    named = _SUBJECT_NAMED.search(piece)
    return set() if named is None else written_words(piece[named.end() :]) & _POSSESSIVES


def _existential(tokens: list[str], n: int) -> bool:
    """Whether ``tokens[n]`` ("there") only says that something exists, after the verb of
    a question asking what or how many ("how many species of baboon are there"), not a
    place ("how many people live there"). One opening with the verb ("is there a way to
    …") still asks within what was said before it."""
    return n > 1 and tokens[n - 1] in _EXISTING and bool(_ASKING & set(tokens[: n - 1]))


def pointing_before(piece: str) -> set[str]:
    """The words of ``piece`` that point to something said before the piece itself: not a
    demonstrative after a dash or a colon whose clause before it names something ("every
    call goes to the same host - can I set that prefix once"). Such a part still asks of a
    thing it does not name (``pointing_words``): "a Mediterranean island: what is that
    island's capital" is not answered by *Italy*'s."""
    return pointing_words(piece) - _named_within(piece, _DEMONSTRATIVES)


def written_words(text: str) -> set[str]:
    """The words of ``text`` as written (``WORD_TOKEN``), lower-cased, not stemmed."""
    return {w.lower() for w in WORD_TOKEN.findall(text)}


def _named_within(piece: str, pronouns: frozenset[str]) -> set[str]:
    """The ``pronouns`` of a clause after a dash or a colon that point to what the piece names
    before it ("how do I raise the ceiling on connections - what is it by default", "a
    pruning step meant for CI: what is it"), when that names something (two keywords)."""
    head, *rest = _ASIDE.split(piece, maxsplit=1)
    if not rest or len(keywords(head)) < 2:
        return set()
    return written_words(rest[0]) & pronouns - written_words(head)


def _opens_clause(tokens: list[str], n: int) -> bool:
    """Whether ``tokens[n]`` ("that") opens a clause: after "so", or after a word that
    neither asks nor governs it and before an article or an auxiliary."""
    before = tokens[n - 1] if n else ""
    after = tokens[n + 1] if n + 1 < len(tokens) else ""
    if before == "so":
        return True
    return (
        bool(before)
        and not _THAT_POINTS_AFTER.match(before)
        and bool(_THAT_CLAUSE_NEXT.match(after))
    )


# "the larger of the two", "the difference between the two", "which one is faster", "the
# other one", "one of them", "either of those", "the French one of the pair": one or all
# of the few things just named (not "the two World Wars", which names them).
OF_THE_FEW = re.compile(
    r"\b(?:of\s+the\s+(?:two|three|four|pair|trio)"
    r"|the\s+(?:two|three|four|pair|trio)(?!\s+(?!of\b)[^\W\d_])|which\s+one"
    r"|the\s+other\s+one|one\s+of\s+them|(?:n?either)\s+of\s+(?:them|those|these))\b(?!-)",
    re.IGNORECASE,
)
# A part setting things side by side ("how do comets differ from asteroids", "marmots vs
# porcupines", "compared with"): each is found in its own entry.
_COMPARING = re.compile(
    r"\b(?:vs\.?|versus|compared?|comparison|compares|differ(?:s|ence|ent)?)\b", re.IGNORECASE
)


def compares_things(text: str) -> bool:
    """Whether ``text`` sets things side by side (see _COMPARING); not "than", which also
    describes one thing ("the tallest building taller than the Eiffel Tower")."""
    return bool(_COMPARING.search(text))


# Words that point back to all of the few things just named ("what does each of them cost").
OF_ALL_NAMED = frozenset(["each", "both"])
WORD_TOKEN = re.compile(r"[^\W\d_][\w'\-]*")  # a word as written: letters first
# "What was the name of Jesse Owens's wife" asks what "What was Jesse Owens's wife" does.
_NAME_OF = re.compile(
    r"^(?P<asks>\W*what(?:\s+(?:is|was|are|were)\s+|['’]s\s+))(?:the\s+)?names?\s+of\s+",
    re.IGNORECASE,
)

QUESTION_WORDS = frozenset(["what", "how", "why", "when", "where", "who", "whom", "whose", "which"])
# A question word opening the text (any case) or lower-case inside it: capitalised inside,
# it is part of a name ("What's New In Python 3.2", "Doctor Who").
_ASKING_WORD = "|".join(sorted(QUESTION_WORDS))
_QUESTION_WORD = re.compile(rf"^\W*(?i:{_ASKING_WORD})\b|\b(?:{_ASKING_WORD})\b")
# A sentence that opens with an auxiliary or modal verb asks ("Can I …", "Is it …").
_ASKING_OPENER = re.compile(
    r"^(?:is|are|was|were|do|does|did|can|could|should|would|will|may|might|must|has|have|"
    r"had|shall|am\s+i)\b",
    re.IGNORECASE,
)

# Words that open a clause's subject ("when I …", "can the client …").
SUBJECT_OPENERS = frozenset(
    ["i", "we", "you", "they", "he", "she", "it", "there", "the", "a", "an", "my", "our",
     "your", "their", "this", "that"]
)  # fmt: skip
# ... or, after a clause boundary, before its subject: the order only a question has.
_ASKING_CLAUSE = re.compile(
    rf"(?:[,:;]|\s[-–—])\s+(?:(?:{AUXILIARY_OR_MODAL})\s+"
    rf"(?:{'|'.join(sorted(SUBJECT_OPENERS))})|am\s+i)\b",
    re.IGNORECASE,
)


# ... or a modal or "do" before any subject and its verb ("Once we are fully strict, will
# mypy also warn"): a statement has neither after a clause's boundary ("…, can be …").
_MODAL_CLAUSE = re.compile(
    r"(?:[,:;]|\s[-–—])\s+(?:do|does|did|can|could|will|would|should|shall|may|might|must)\s+"
    r"(?!(?:not|be|been|also|only|never|still|then|have|so|too|well)\b)[\w.'-]+\s+[a-z]",
)


def is_question(text: str) -> bool:
    """Whether ``text`` is worded as a question: it has a question word, or its last
    sentence opens with an auxiliary or modal verb ("Can I …"), or a clause of it does
    before its subject ("As a compromise, can I …", "…: does that count as a failure",
    "Once we are strict, will mypy warn"); "Tell me about the reef" and "Compare A and B"
    are requests."""
    said = sentences(text)
    last = said[-1] if said else text
    return bool(
        _QUESTION_WORD.search(text)
        or _ASKING_OPENER.match(last.strip())
        or _ASKING_CLAUSE.search(last)
        or _MODAL_CLAUSE.search(last)
    )


def opens_asking(sentence: str) -> bool:
    """Whether a sentence opens as a question does: with a question word among its first
    words or an auxiliary verb ("Hafnium is named after the city where …" does not)."""
    return question_word(sentence) is not None or bool(_ASKING_OPENER.match(sentence.strip()))


# Lower-case words that join the words of one name: "Peace of Westphalia", "Leonardo da Vinci".
NAME_JOINERS = frozenset(["of", "the", "de", "da", "di", "del", "von", "van", "der", "du", "la", "le", "y", "al", "bin", "ibn", "do", "dos", "das", "des"])  # fmt: skip
# An entity question: its answer is a thing the question does not name ("which emperor",
# "who", "where"), as opposed to "what is X" / "how did X" about a thing it names.
_ASKS_FOR_ENTITY = re.compile(
    r"\b(?:who|whom|whose|which|where)\b|\bwhat\s+(?!(?:is|are|was|were|do|does|did|has|have|"
    r"had|can|could|would|should|will|it|its|else)\b)[a-z]",
    re.IGNORECASE,
)


_LEADING_WORDS = 3  # a part's question word is among its first words ("and so when did …")
# "When did …", "when was …": a part asking for a time; "When creating a publisher, which
# flag …" opens with a clause saying when, and asks something else.
_WHEN_ASKED = re.compile(
    rf"(?:\S+\s+){{0,{_LEADING_WORDS - 1}}}?when\s+(?:{AUXILIARY_VERBS})\b",
    re.IGNORECASE,
)


def without_name_of(text: str) -> str:
    """The part without the words asking for a name ("the name of" after "what was"):
    "name" says nothing of what it asks about, and draws sources that say "name"."""
    return _NAME_OF.sub(r"\g<asks>", text, count=1)


# An adverb opening a part before a comma ("Separately, …", "Additionally, …") links it to
# the question before, or says how to answer it with a word more ("Generally speaking, …",
# "Put simply, …"): it says nothing of what the part asks about. First, its stem has five
# letters at least, as a name ending in "ly" does not ("Italy, …", "Sicily, …"); after
# another word, it is in lower case ("Ancient Sicily, …" is a name).
_CONNECTIVE = re.compile(r"^\s*(?:[A-Za-z]{5,}ly(?:\s+[a-z]+)?|[A-Za-z]+\s+[a-z]{4,}ly),\s+")


def without_connective(text: str) -> str:
    """The part without an opening adverb that only links it to the part before it
    ("Separately, every call goes to one host" → "every call goes to one host")."""
    return _CONNECTIVE.sub("", text, count=1)


# "else" after a question word ("what else should I do") asks for things other than those
# said, and "on top of" before a word pointing back ("on top of it") means besides it:
# neither names what is asked about. ("everything else it doesn't recognise" names the
# rest of a thing, and stays.)
_OTHER_THAN_SAID = re.compile(
    r"\b(?P<keep>what|who|where|how)\s+else\b"
    r"|\bon\s+top\s+of\s+(?=(?:it|that|this|them|these|those)\b)",
    re.IGNORECASE,
)


def asked_text(part: str) -> str:
    """The words of a part that say what it asks about: without an opening connective
    (``without_connective``), "the name of" (``without_name_of``), nor the words asking
    for other things than those said ("what else", "on top of it")."""
    said = without_name_of(without_connective(part))
    return " ".join(_OTHER_THAN_SAID.sub(lambda m: m["keep"] or "", said).split())


def question_word(text: str) -> str | None:
    """The question word that leads a part (the first among its first few words,
    lower-cased), or None: "and so when did …" → "when"."""
    return next((w for w in words(text)[:_LEADING_WORDS] if w in QUESTION_WORDS), None)


def asks_when(text: str) -> bool:
    """Whether a part asks when: "when" leads it, before a verb."""
    return question_word(text) == "when" and bool(_WHEN_ASKED.match(text.strip()))


# A part that is a bare noun phrase ("the goal they raced for", "its most famous work")
# describes a thing to identify, as "which goal did they race for" would.
_DESCRIBED = re.compile(r"^(?:the|its|their|his|her)\s+[a-z]", re.IGNORECASE)


# A thing described by a relative clause ("the element, other than radium, that her
# second prize cited"): the question gives what it is, not its name.
_RELATIVE = re.compile(
    r"\bthe\s+(?:[a-z-]+\s+){0,2}(?P<noun>[a-z-]+)(?:\s*,[^,]{1,40},)?\s+that\s+(?!is\b|are\b)",
    re.IGNORECASE,
)


# Where a clause describing a thing the question asks about begins (after its first word:
# "Which … did", "Who was …" ask).
_DESCRIBING = re.compile(r"(?<=\S)\s+(?:who|whom|whose|which|that)\b", re.IGNORECASE)
# A clause may also begin with no relative word ("the river the Lewis and Clark
# Expedition travelled up", "the country Sonja Henie was from"): a common noun after
# "the", then the clause's own subject, a name after "the" or a name and a form of
# "be"/"have"/"do".
_NAME_WORDS = r"[A-Z][\w'’.\-]*(?:\s+(?:and\s+|of\s+)?[A-Z][\w'’.\-]*)*"
_CONTACT_CLAUSE = re.compile(
    rf"\b(?i:the)\s+[a-z]+(?=\s+(?:the\s+[A-Z]|{_NAME_WORDS}\s+(?:{AUXILIARY_VERBS})\b))"
)


_PREPOSITION_ASKING = re.compile(
    r"^\W*(?:in|at|on|by|for|from|to|with|during|under|into|after|before|since|until)\s+"
    r"(?=(?:which|whom|whose|what)\b)",
    re.IGNORECASE,
)


def main_clause(text: str) -> str:
    """``text`` up to a clause describing a thing it asks about ("How long is the railway"
    of "How long is the railway that crosses Siberia"): what it names there is the
    thing asked about; a name in the clause only tells which one. A question word after a
    leading preposition asks ("In which year did the Titanic sink")."""
    lead = _PREPOSITION_ASKING.match(text)
    start = lead.end() if lead else 0
    main = text[:start] + _DESCRIBING.split(text[start:], maxsplit=1)[0]
    contact = _CONTACT_CLAUSE.search(main)
    return main[: contact.end()] if contact else main


# A clause describing the noun before it without "that", its subject a name and its verb
# in the past ("the realm Krishnadevaraya ruled over", "the film Kubrick directed").
_CONTACT_DESCRIBED = re.compile(
    rf"\b(?i:the)\s+(?P<noun>[a-z-]+)\s+{_NAME_WORDS}\s+(?P<verb>[a-z]+)\b"
)


_QUESTION_OPENER = re.compile(r"\W*(?:when|where|what|which|who|whom|whose|how)\b", re.IGNORECASE)


def describes(text: str) -> bool:
    """The text describes a thing by a relative clause ("the sport that the Bambino
    played", "the realm Krishnadevaraya ruled over") rather than naming it."""
    if any(m["noun"].lower() not in STOPWORDS for m in _RELATIVE.finditer(text)):
        return True
    # without "that", only where a question word asks of it ("Explain … the part Joan of
    # Arc played in it" asks how, not which)
    return bool(_QUESTION_OPENER.match(text)) and any(
        m["noun"] not in STOPWORDS and is_past_form(m["verb"])
        for m in _CONTACT_DESCRIBED.finditer(text)
    )


# "Who was Cleopatra", "What is the Hanseatic League": "who"/"what", a form of "be", then
# a name (capitalised words, and the words that join a name's), nothing after it.
_NAME_JOINER = rf"(?:{'|'.join(sorted(NAME_JOINERS))})"
_DEFINES_NAME = re.compile(
    rf"^(?i:who|what)\s+(?i:is|was|are|were)\s+(?:the\s+)?(?:[A-Z][\w'’.\-]*|{_NAME_JOINER})"
    rf"(?:\s+(?:[A-Z][\w'’.\-]*|{_NAME_JOINER}))*(?P<tail>(?:\s+[a-z][\w\-]*){{0,2}})$"
)
_POSSESSIVE_S = re.compile(r"\w['’]s\b")
# "What are woodlice", "What is a cliff": what a kind of thing is, in one lower-case word.
_DEFINES_KIND = re.compile(r"^(?i:what)\s+(?i:is|are)\s+(?:an?\s+)?[a-z][\w\-]*$")


def defines_name(text: str) -> bool:
    """Whether a part asks only who or what a thing it names is ("Who was Cleopatra",
    "What is the Amazon rainforest": a name may end in a word or two in lower case):
    it names its answer's entry, so no entry another names is a hop for it. Not "What is
    the Moon's diameter" (an attribute of the named thing) nor a tail of function words
    ("What is the Sun made of")."""
    return defined_name(text) is not None


def defines_kind(text: str) -> bool:
    """Whether a part asks only what a kind of thing it names in one lower-case word is
    ("What are woodlice", "What is a cliff"): the entry on that kind answers it, so no
    entry another names is a hop for it (*Wood*, which *Woodlouse* links, is not)."""
    return _DEFINES_KIND.match(text.strip()) is not None


def defined_name(text: str) -> str | None:
    """The name a part asking only who or what it is gives (see ``defines_name``), else
    None: "Amazon rainforest" of "What is the Amazon rainforest"."""
    stripped = text.strip()
    m = _DEFINES_NAME.match(stripped)
    if m is None or _POSSESSIVE_S.search(stripped):
        return None
    said = stripped.split()
    tail = m["tail"].split()
    if not said[len(said) - len(tail) - 1][:1].isupper() or any(w in STOPWORDS for w in tail):
        return None
    name = said[2:]
    return " ".join(name[1:] if name[0].lower() == "the" else name)


def points_back(text: str) -> bool:
    """Whether ``text`` has a word that points back to something said before it ("why
    is it important", "where did he live", "the larger of the two"), as a part after the
    first does."""
    return bool(pointing_words(text)) or bool(OF_THE_FEW.search(text))


def asks_for_entity(text: str) -> bool:
    """Whether a part asks for something it does not name (syntax only)."""
    if defines_name(text):
        return False
    return bool(_ASKS_FOR_ENTITY.search(text) or _DESCRIBED.match(text.strip()) or describes(text))


# A part that asks who did something ("who invented the radio", "who first described
# it"): the verb right after "who", past one adverb.
_WHO_DID = re.compile(r"^who\s+(?:[a-z]+ly\s+|first\s+)?(?P<verb>[a-z]+)\b", re.IGNORECASE)


def asked_doer(text: str) -> tuple[str, str] | None:
    """The verb of a part that asks who did something, and the noun for its doer
    ("who invented the radio" → ("invented", "inventor")), else None."""
    m = _WHO_DID.match(text.strip())
    verb = m["verb"].lower() if m else ""
    noun = agent_noun(verb) if verb else None
    return (verb, noun) if noun else None


# "Which composer became deaf": what a part asking for a kind of thing says it is
_KIND_IS = re.compile(
    r"^\W*(?:which|what)\s+[^\W\d_][\w'\-]*\s+(?:is|are|was|were|became|becomes|become)\s+"
    r"(?P<said>[^\W\d_][\w'\-]*)\W*$",
    re.IGNORECASE,
)


def kind_said_to_be(text: str) -> str:
    """The word a part asking which thing of a kind is so says it is ("deaf" of "Which
    composer became deaf"), when the part says only that; "" for a superlative ("Which
    planet is closest": the answer may say "the first planet from the Sun")."""
    m = _KIND_IS.match(text)
    return "" if m is None or re.fullmatch(SUPERLATIVE_WORD, m["said"].lower()) else m["said"]
