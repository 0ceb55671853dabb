"""Question aspects and entity leads: how the offline engine reaches sources that answer
a question without repeating its words.

"Where did democracy originate?" has no good one-search answer: the entry on democracy
does not say, and the entry that does (*Ancient Greece*) never says "democracy". A person
would search the words sources use for an origin ("established", "cradle", "ancient"),
read what turns up (*Classical Athens*: "Athenian democracy was established in 508 BC";
"a polis of ancient Greece") and follow the place it names. This module does the same,
deterministically: aspect words for planning and refinement, and named-entity leads from
the sentences where a source states that aspect of the topic."""

from __future__ import annotations

import re
from dataclasses import dataclass

from deepresearch.offline.text import (
    STOPWORDS,
    keywords,
    normalize,
    sentences,
    stem,
    term_set,
    words,
)


@dataclass(frozen=True)
class Aspect:
    name: str
    triggers: frozenset[str]  # question words that ask for this aspect
    cues: frozenset[str]  # words sources use when they state it
    query_words: str  # added to the topic to search for it


ASPECTS = (
    Aspect(
        "origin",
        frozenset(
            [
                "originate",
                "originated",
                "origin",
                "origins",
                "begin",
                "began",
                "start",
                "started",
                "invent",
                "invented",
                "arise",
                "arose",
                "emerge",
                "emerged",
                "birthplace",
            ]
        ),
        frozenset(
            [
                "established",
                "founded",
                "originated",
                "origin",
                "first",
                "began",
                "cradle",
                "birthplace",
                "invented",
                "emerged",
                "introduced",
                "earliest",
            ]
        ),
        "origin established first ancient cradle",
    ),
    Aspect(
        "cause",
        frozenset(["why", "cause", "caused", "causes", "reason", "reasons"]),
        frozenset(["because", "caused", "cause", "due", "led", "result", "reason", "triggered"]),
        "causes reasons led to",
    ),
)

CUE_DISTANCE = 3  # words between a topic word and a cue word that states its aspect
# Lower-case words that belong to a place or era name ("ancient Greece").
_ENTITY_MODIFIERS = frozenset(
    ["ancient", "classical", "medieval", "early", "modern", "northern", "southern"]
)
_TOKEN = re.compile(r"[A-Za-z][\w'\-]*")


def aspects_of(text: str) -> list[Aspect]:
    asked = set(words(text))
    return [a for a in ASPECTS if a.triggers & asked]


def aspect_query(topic: str, aspect: Aspect) -> str:
    return f"{topic} {aspect.query_words}"


def entities(text: str) -> list[str]:
    """Capitalised runs not at a sentence start, with a leading era/place modifier kept:
    'a polis of ancient Greece, in Attica' → ['ancient Greece', 'Attica']."""
    out: list[str] = []
    for sent in sentences(text) or [text]:
        tokens = _TOKEN.findall(normalize(sent))
        run: list[str] = []
        for i, tok in enumerate([*tokens, ""]):
            capital = bool(tok) and tok[0].isupper() and i > 0 and tok.lower() not in STOPWORDS
            if capital:
                if not run and i > 0 and tokens[i - 1].lower() in _ENTITY_MODIFIERS:
                    run.append(tokens[i - 1])
                run.append(tok)
                continue
            if run and not (len(run) == 1 and len(run[0]) <= 2):
                out.append(" ".join(run))
            run = []
    return list(dict.fromkeys(out))


def states(sentence: str, topic_terms: set[str], aspect: Aspect) -> bool:
    """Whether a sentence states the aspect of the topic: a cue word within a few words
    of a topic word ('Athenian democracy was established' — not 'the first Marxist
    elected president of a liberal democracy')."""
    tokens = words(sentence)
    topic_at = [i for i, w in enumerate(tokens) if stem(w) in topic_terms]
    cue_at = [i for i, w in enumerate(tokens) if w in aspect.cues]
    return any(abs(i - j) <= CUE_DISTANCE for i in topic_at for j in cue_at)


def entity_leads(
    topic: str, aspect: Aspect, texts: list[str], known_titles: list[str]
) -> list[str]:
    """Entities named by texts that state the aspect of the topic: from the stating
    sentence and from the text's first, defining sentence (where a source says what
    and where its subject is). Entities already gathered as a title, or that are the
    topic itself, are not leads."""
    topic_terms = term_set(topic)
    known = [term_set(t) for t in known_titles]
    leads: list[str] = []
    for text in texts:
        sents = sentences(text)
        stating = [s for s in sents if states(s, topic_terms, aspect)]
        if not stating:
            continue
        for name in entities(" ".join([sents[0], *stating])):
            terms = term_set(name)
            if not terms or terms <= topic_terms or any(terms == k for k in known):
                continue
            leads.append(name)
    return list(dict.fromkeys(leads))


def subject_of(question: str) -> str:
    """What the question is about, without its aspect words: 'What is democracy and where
    did it originate?' → 'democracy'."""
    triggers = frozenset().union(*(a.triggers for a in ASPECTS))
    terms = [w for w in keywords(question) if w not in triggers]
    return " ".join(terms[:4]) or question.strip()
