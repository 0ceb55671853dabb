"""A question's text cut into clauses (offline decomposition): where one question ends
and the next begins (", and where …", "? ", a dash before a direct question), the
statements of the asker's story before it, and the titles written whole that hold "and" or
"or" ("War and Peace"), kept from being cut. ``parts`` makes parts of the clauses.

No topic vocabulary: only the question's punctuation, its question words and the titles
of what was gathered."""

from __future__ import annotations

import re
from collections.abc import Iterable

from deepresearch.offline.asking import QUESTION_WORDS, opens_asking, written_words
from deepresearch.offline.coordination import APART, COORDINATION, PREPOSITIONS
from deepresearch.offline.scenes import ASKER_SUBJECTS, asks, opens_condition
from deepresearch.text import (
    AUXILIARY_OR_MODAL,
    AUXILIARY_VERBS,
    TITLE_QUALIFIER,
    content_terms,
    normalize,
    split_sentences,
    term_set,
    title_phrases,
    words,
)

# Words that open a question clause ("..., and where did he found his school?"), also a
# preposition before "which" ("…, and under which dynasty …"), with a hedge between ("…,
# and from roughly what period …"), after ", and" maybe a word of time or sequence first
# (_THEN: "…, and nowadays how many …"). After ", and" also a condition or a reason
# leading into the next question ("…, and since I installed Poetry with pipx, how do I add
# a plugin"), or a phrase the next question is asked within ("…, and under the policy that
# makes such pinning safe, for how long …"): the question before ends there.
_WH = rf"(?:what|how|why|when|where|who|whom|whose|which|is|are|was|were|does|did|do|can|(?:(?:{PREPOSITIONS})(?:\s+[a-z]+ly)?|[a-z]+ly)\s+(?:which|what|whom|how|when|where))"
# ... or one setting its thing apart ("…, and apart from embossed paper, on what can …")
# (a phrase with a pronoun of its own, "…, and in the city where it stands, which river …",
# asks of what an earlier part names and stays with the question before it)
_WITHIN = rf"(?!to\b)(?:{PREPOSITIONS}|{APART})\s+(?:(?!\b(?:it|its|they|them|their|he|him|his|she|her)\b)[^,?.;])*,\s*{_WH}"
# "…, and the city it is named after: how does it rank": a new question, asked of the
# thing named before its colon
_NAMED_THEN_ASKED = rf"[^,:;?]+:\s*{_WH}\b"
# "…, and in 3.3 what value does it have": a question asked within a name or number the
# phrase gives, with no comma before the question word
_WITHIN_NAMED = rf"(?:{PREPOSITIONS})\s+(?:(?-i:[A-Z0-9])[\w.+-]*\s+){{1,3}}(?:what|which|how|who|when|where|why)\b"
_THEN = r"(?:(?:nowadays|today|now|also|then)\s+)?"
# ... or, after a comma, a modal before its subject ("…, will they need admin rights")
_MODAL_ASKS = r"(?:will|would|should|could|has|have|had|may|might|must|shall)\s+(?:i|we|you|they|he|she|it|this|that|there)\b"
_CLAUSE_SPLIT = re.compile(
    rf"\s*(?:\?\s+|;(?!\S)|,\s*(?:and|or|but)\s+(?={_THEN}(?:{_WH}|{_WITHIN}|if|unless|once|since|because)\b|{_NAMED_THEN_ASKED}|{_WITHIN_NAMED})|\s+(?:and|but)\s+(?={_WH}\b)|,\s*(?={_WH}\b|{_MODAL_ASKS})"
    r"|,\s*(?=including\b))",
    re.IGNORECASE,
)
INCLUDING = re.compile(r"^including\s+", re.IGNORECASE)
# A question after a dash asks about the clause before it ("…, and one service insists on
# our own certificate - how do I hand that over"): a clause joined by "and" that a dash
# question closes is a part of its own; a direct question before the dash ("how do I raise
# the ceiling on connections - what is it by default") is another question.
_DASH_QUESTION = rf"\s+[-–—]\s+(?={_WH}\b)"
# ... when what "and" joins opens with a subject of its own, not a verb ("…, and entered
# twice - is there a shortcut" goes on with the clause before).
_SUBJECT_OPENERS = (
    "the|a|an|one|some|another|our|my|your|their|its|this|that|these|those|we|i|they|it|he|she|you"
)
_CLOSED_BY_DASH_QUESTION = re.compile(
    rf",\s*(?:and|but)\s+(?=(?:{_SUBJECT_OPENERS})\s[^,;?]*{_DASH_QUESTION})", re.I
)
# "which river does that city stand on", "that country's capital": the noun a part points
# back with
_POINTING = r"that|this|these|those"
POINTED_NOUN = re.compile(rf"\b(?:{_POINTING})\s+([a-z]+)\b(?!['’]t\b)")  # not "isn't"
# A thing a story brings in as new, which "that city" may then point back to.
BROUGHT_IN = re.compile(r"\b(?:a|an|one|another|some)\s+([a-z-]+(?:\s+[a-z]+)?)\b")
_DIRECT_QUESTION = re.compile(
    rf"^(?:(?:and|but|so|also),?\s+)?(?:what|how|why|when|where|who|which)(?:\s+\w+)?"
    rf"\s+(?:am|{AUXILIARY_VERBS})\b",
    re.IGNORECASE,
)


# A relative clause set off by commas inside a clause ("The city, whose port district is
# Muttrah, is a national capital"): the clause goes on after it with its verb, so neither
# comma ends a clause and its relative word asks nothing. "where" or "when" before a verb
# asks ("…, where is it, is it far"), and so does a verb before a pronoun after it.
_EMBEDDED_RELATIVE = re.compile(
    rf",\s*(?:(?:which|who|whom|whose)\b|(?:where|when)\b(?!\s+(?:{AUXILIARY_OR_MODAL})\b))"
    rf"[^,;?.]*,\s*(?=(?:{AUXILIARY_VERBS})\b"
    r"(?!\s+(?:it|he|she|they|there|this|that|i|you|we)\b))",
    re.IGNORECASE,
)


def stated_scenes(text: str) -> tuple[str, set[str]]:
    """``text`` with each statement before its question ("Hafnium is named after … where
    it was discovered. How many people live in that city?") ending a clause of its own,
    and those statements: each sets the question's scene."""
    # a question typed in lower case opens its sentences so too ("it broke. how do i …"),
    # and any question may open one with a question word ("… (old).py`. why are they …")
    stated = [
        s
        for s in split_sentences(text, cased=not text[:1].islower(), asking=True)[:-1]
        if s.endswith(".")
        and (not opens_asking(_EMBEDDED_RELATIVE.sub(" ", s)) or opens_condition(words(s)))
    ]
    for sentence in stated:
        text = text.replace(sentence, f"{sentence[:-1]};", 1)
    return text, {unjoin(s[:-1]) for s in stated}


# "the one that isn't Sumatra" (of the two islands told before) names a thing only to set
# it aside: the part asks of the other one, which points back to what was told; the names
# set aside are no list of things asked about ("The one that isn't Nigeria, Niger or Chad,
# what is its capital" is one part) and no entry of theirs is the next hop.
_ASKING = "|".join(sorted(QUESTION_WORDS))
_NOT_ASKING = rf"(?!(?:{_ASKING})\b)[\w'’.\-]+"
_SET_ASIDE_NAME = rf"(?:the\s+)?{_NOT_ASKING}(?:\s+{_NOT_ASKING}){{0,3}}"
_SET_ASIDE = re.compile(
    r"\bthe\s+one\s+(?:that|who|which)\s+(?:(?:is|was|are|were)n['’]t|(?:is|was|are|were)\s+not)\s+"
    rf"(?P<names>{_SET_ASIDE_NAME}(?:\s*,\s*{_SET_ASIDE_NAME})*(?:,?\s+(?:and|or)\s+{_SET_ASIDE_NAME})?)"
    rf"(?=\s*[,:;—–()]|\s+(?:{_ASKING})\b)",
    re.IGNORECASE,
)


def without_set_aside(text: str) -> tuple[str, list[str]]:
    """``text`` with each phrase setting a thing aside ("the one that isn't Sumatra") as
    "the other one" and a SET_ASIDE mark, and the names each set aside, in order: the part
    that says it searches them still, as what the one it asks of is listed beside."""
    names = [m["names"] for m in _SET_ASIDE.finditer(text)]
    return _SET_ASIDE.sub(lambda m: f"{m[0][:1]}he other one{SET_ASIDE}", text), names


SET_ASIDE = "\u2064"  # INVISIBLE PLUS: no word, no space, so no pattern reads it


def set_aside_names(text: str) -> list[set[str]]:
    """The words of each name ``text`` sets aside ("the one that isn't Nigeria, Niger or
    Chad"): no entry of theirs is the next hop."""
    names = (m["names"] for m in _SET_ASIDE.finditer(normalize(text)))
    listed = (n for found in names for n in re.split(r",|\b(?:and|or)\b", found))
    return [terms for name in listed if (terms := term_set(name))]


# A question opening with a phrase and a colon before what it asks ("Setting up a new
# box: what is the oldest Python …").
_LEAD_IN = re.compile(r"^(?P<lead>[^:;?]+?):\s+(?P<rest>\S.*)$", re.DOTALL)


def situation(text: str) -> tuple[str, str]:
    """The asker's situation told before a colon opening the question ``text``, and the
    rest: a phrase that asks nothing, opens with a verb's "-ing" form or with the asker
    ("Evaluating the library for a new project: which Python versions …", "My kids asked
    me two questions: …"), and names nothing (no name past its first word, no number, no
    code), unlike "Bread wheat: what share …" or "Comparing Jupiter and Saturn: …", which
    give what is asked about. ("", ``text``) when it opens otherwise."""
    m = _LEAD_IN.match(text)
    if m is None or opens_asking(m["lead"]) or not opens_asking(m["rest"]):
        return "", text
    if split_sentences(m["rest"], asking=True)[0].endswith("."):
        return "", text  # a statement follows ("I'm reading about X: the artist who …. In")
    lead = m["lead"]
    first = lead.split()[0].lower()
    if not (first.endswith("ing") or first in ASKER_SUBJECTS):
        return "", text
    if re.search(r"[\d_./`()]", lead) or title_phrases(lead[:1].lower() + lead[1:]):
        return "", text
    rest = m["rest"]  # a sentence of its own now, as the question's first
    return lead, rest[:1].upper() + rest[1:]


def told_in(stated: set[str], pieces: list[str]) -> set[str]:
    """The ``pieces`` that are clauses or phrases of a ``stated`` sentence ("Our build
    agents export a proxy in the shell, which breaks tests on 127.0.0.1."): all their
    words are that sentence's, so they tell the story too rather than ask."""
    told = [written_words(s) for s in stated]
    return {p for p in pieces if any(written_words(p) <= t for t in told)}


# Joins the words of a title that holds a conjunction while the question is split: not a
# space, so no pattern reads "and" inside it as a conjunction; not a word character, so
# the title's words stay words.
_JOINER = "\u2063"  # INVISIBLE SEPARATOR


def unjoin(piece: str) -> str:
    """A piece of the question with its joined titles (see join_titles) as written."""
    return piece.replace(_JOINER, " ")


# A title opening with two capitalised names joined by "and" and going on.
_NAMES_JOINED = re.compile(r"^((?:[A-Z][\w'.-]*\s+){1,2}and\s+[A-Z][\w'.-]*)\s+\S")


def join_titles(text: str, titles: Iterable[str]) -> str:
    """``text`` with every title (its bracketed qualifier left out) that holds "and"/"or"
    between its words and that ``text`` gives whole, in any case, made one word: the
    longest first, so "Romeo and Juliet" inside "The Tragedy of Romeo and Juliet" is
    not joined twice."""
    names = {
        name.casefold()
        for name in (TITLE_QUALIFIER.sub("", t).strip() for t in titles)
        if COORDINATION.search(name)
    }
    # "Lewis and Clark" of the *Lewis and Clark Expedition*: a title's opening names
    # joined by "and", written as names in the question, are one name too.
    for title in titles:
        m = _NAMES_JOINED.match(TITLE_QUALIFIER.sub("", title).strip())
        if m and re.search(rf"(?<!\w){re.escape(m[1])}(?!\w)", text):  # as written
            names.add(m[1].casefold())
    for name in sorted(names, key=len, reverse=True):
        found = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE)
        if found:
            whole = found.group()
            text = text.replace(whole, _JOINER.join(whole.split()))
    # "To the Lighthouse", "Gone with the Wind": a title with small words inside, written
    # as the title writes it, is one thing in a list of them ("Madame Bovary, To the
    # Lighthouse and The Bell Jar"), though capitals alone would cut it at "the".
    for title in sorted(
        {TITLE_QUALIFIER.sub("", t).strip() for t in titles}, key=len, reverse=True
    ):
        inner = title.split()[1:]
        if inner and title[:1].isupper() and any(w[:1].islower() for w in inner):
            text = re.sub(
                rf"(?<![\w{_JOINER}]){re.escape(title)}(?![\w{_JOINER}])",
                _JOINER.join(title.split()),
                text,
            )
    return text


def question_clauses(text: str) -> tuple[list[str], str]:
    """The question's clauses, and the bare question words that end it ("…, and why").
    A clause without content words still asks something of what an earlier clause names
    ("where is it", "who made it") and stays a clause; a bare question word shares the
    clause after it ("how and when did …", "where and when was …"), unless it ends its
    sentence ("…, is the system one, why? And …"): then it asks of the clause before."""
    out: list[str] = []
    bare: list[str] = []
    clauses = [c.strip(" ,—–") for c in _split_clauses(text) if c and c.strip(" ,—–")]
    for c in _fronted_shared(_verb_shared(clauses), text):
        if content_terms(c):
            out.append(" and ".join([*bare, c]))
            bare = []
        elif (
            len(c.split()) == 1
            and out
            and not bare
            and re.search(rf",\s*{re.escape(c)}\s*\?", text)
        ):
            # "…, is the system one, why? And …": it asks of the clause it ends
            out[-1] = f"{out[-1]}, {c}"
        elif len(c.split()) == 1:
            bare.append(c)
        elif out:
            out.append(c)
    return out, " and ".join(bare) if out else ""


# A question phrase fronted without its verb ("With what event", "on what date"), and a
# clause that asks with an auxiliary first ("did the imperial era begin").
_FRONTED = re.compile(
    rf"^(?:(?:{PREPOSITIONS})\s+)?(?:what|which|whose)(?:\s+[\w'-]+){{1,3}}$", re.IGNORECASE
)
_AUXILIARY_FIRST = re.compile(rf"^(?:{AUXILIARY_VERBS})\b", re.IGNORECASE)


# A question word and its one word, with no verb ("How tall"), and one with its verb and
# the rest of its clause ("how heavy is an adult impala").
_BARE_ASKED = re.compile(r"^(?:how|what|which)\s+[\w'-]+$", re.IGNORECASE)
_ASKED_WITH_VERB = re.compile(
    rf"^(?:how|what|which)\s+[\w'-]+\s+(?P<rest>(?:{AUXILIARY_VERBS})\b.*)$", re.IGNORECASE
)


def _verb_shared(clauses: list[str]) -> list[str]:
    """The clauses with a question word and its word before another's verb ("How tall and
    how heavy is an adult impala") asked with that verb too: "How tall is an adult
    impala", "how heavy is an adult impala"."""
    out = list(clauses)
    for n in range(len(out) - 2, -1, -1):
        if _BARE_ASKED.match(out[n]) and (m := _ASKED_WITH_VERB.match(out[n + 1])):
            out[n] = f"{out[n]} {m['rest']}"
    return out


def _fronted_shared(clauses: list[str], text: str) -> list[str]:
    """The clauses with question phrases fronted together before one verb ("With what
    event, and on what date, did the imperial era begin") each asked with it: "With what
    event did the imperial era begin", "on what date did the imperial era begin". Only
    phrases a comma ends in the ``text``, the verb's clause right after the last: "What
    happens? Is it different …" asks twice."""
    out: list[str] = []
    fronted: list[str] = []
    for c in clauses:
        if _FRONTED.match(c) and re.search(rf"{re.escape(c)}\s*,", text):
            fronted.append(c)
            continue
        # the verb right after the last phrase's comma ("…, and was he the first" after
        # "in what year," asks a question of its own)
        if (
            fronted
            and _AUXILIARY_FIRST.match(c)
            and re.search(rf"{re.escape(fronted[-1])}\s*,\s*{re.escape(c)}", text)
        ):
            out += [f"{f} {c}" for f in fronted]
        else:
            out += [*fronted, c]
        fronted = []
    return out + fronted


# At most this many words in a phrase saying how to answer ("Put simply", "Very briefly").
_MANNER_WORDS = 3


def _split_clauses(text: str) -> list[str]:
    """The text cut at its clause boundaries, except after a bare condition that leads
    into the question after its comma ("If not, what …", "…, and if I pull it, what
    happens"): it asks nothing and names nothing of its own, so it stays with the clause
    it leads into. A scene with words of its own ("If I put 256 into a u8, what happens")
    stays a part: its words are what the question is about."""
    pieces: list[str] = []
    start, lead = 0, ""
    embedded = [r.span() for r in _EMBEDDED_RELATIVE.finditer(text)]
    for m in _CLAUSE_SPLIT.finditer(text):
        if any(begin <= m.start() < end for begin, end in embedded):
            continue
        piece = lead + text[start : m.start()]
        start, lead = m.end(), ""
        leads = m.group().strip() == "," and not INCLUDING.match(text[start:])
        if leads and not asks(piece) and len(_unmannered_terms(piece)) <= 1:
            lead = piece + ", "
            continue
        if leads and _AUXILIARY.match(text[start:]) and _awaits_verb(piece):
            lead = piece + ", "  # "how much of a dried leaf, by weight, is nicotine"
            continue
        pieces.append(piece)
    pieces.append(lead + text[start:])
    return [q for piece in pieces for q in _dash_questions(piece)]


# "how much of", "what share of": a question asking for an amount of a thing, whose verb
# may come after a comma
_AMOUNT_OF = re.compile(
    r"\b(?:how\s+(?:much|many)|what\s+(?:share|percentage|proportion|fraction|part))\s+of\b",
    re.IGNORECASE,
)
_AUXILIARY = re.compile(rf"\b(?:{AUXILIARY_OR_MODAL})\b", re.IGNORECASE)


def _awaits_verb(piece: str) -> bool:
    """Whether ``piece`` asks for an amount of a thing but has no verb yet, so that the
    auxiliary after its comma is its own ("how much of a dried leaf, by weight, is
    nicotine"), not another question's ("how many of them survived, and was it …")."""
    amount = _AMOUNT_OF.search(piece)
    return amount is not None and not _AUXILIARY.search(piece, amount.end())


def _unmannered_terms(piece: str) -> list[str]:
    """The content terms of a piece, but for the adverbs of a short one that says how to
    answer ("Put simply", "Generally speaking"): what it names of its own."""
    if len(piece.split()) > _MANNER_WORDS:
        return content_terms(piece)
    return content_terms(" ".join(w for w in piece.split() if not w.lower().endswith("ly")))


def _dash_questions(piece: str) -> list[str]:
    """``piece`` cut where a dash opens another question (see ``_DASH_QUESTION``): after
    a direct question, or after a clause bringing in the thing the question points back to
    ("he was Grand Duke of another country — what's that country's capital": which
    country is the clue's to answer first)."""
    out = []
    for clause in _CLOSED_BY_DASH_QUESTION.split(piece):
        before, *after = re.split(_DASH_QUESTION, clause, maxsplit=1)
        direct = bool(after) and bool(_DIRECT_QUESTION.match(before.strip()))
        out += [before, *after] if direct or brings_in_pointed(before, after) else [clause]
    return out


# After a dash, "the" points back too ("… with his older brother — when did the brother
# die"), to a thing the clause brings in, or gives as someone's.
_DASH_POINTED = re.compile(rf"\b(?:the|{_POINTING})\s+([a-z]+)\b(?!['’]t\b)")
_GIVEN = re.compile(r"\b(?:his|her|its|their)\s+([a-z-]+(?:\s+[a-z]+)?)\b")


def brings_in_pointed(before: str, after: list[str]) -> bool:
    """Whether a question after a dash (``after``) points back with a noun ("that
    country", "the brother") that the clause ``before`` it brings in as a new thing
    ("another country") or gives as someone's ("his older brother")."""
    pointed = set(content_terms(" ".join(n for q in after for n in _DASH_POINTED.findall(q))))
    brought = [*BROUGHT_IN.findall(before), *_GIVEN.findall(before)]
    return bool(pointed & set(content_terms(" ".join(brought))))
