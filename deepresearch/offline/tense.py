"""Whether a part asks what holds now, and whether a finding says it in the present.

A part asking what holds now ("Who is the current president of France") is answered only
by a finding saying it in the present tense: the verb nearest before the word asked for is
"is", "has", … ("who is the 47th president"), not only "was", "served", …
("Mitterrand was President of France from 1981 to 1995": a snapshot's past answers what
held then, not what holds now).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepresearch.offline.bridges import entities
from deepresearch.offline.mentions import TOKEN, name_words, same_form
from deepresearch.offline.parts import Part, uncontracted
from deepresearch.text import sentences, stem, term_set

# A part asking what holds now, and the verbs that say a statement holds now or held once.
_NOW = re.compile(
    r"\b(?:current(?:ly)?|(?:right\s+)?now(?:adays)?|today|presently|at\s+present|at\s+the\s+moment)\b",
    re.IGNORECASE,
)
_PRESENT = frozenset({"is", "are", "has", "have", "remains", "remain", "serves", "serve", "holds"})
_PAST = frozenset({"was", "were", "had", "served", "held", "remained"})
TENSE_REACH = 5  # words back from the word asked for to the verb that tells its tense


# A time word closing a part ("… of London now", "… today", "at the moment").
NOW_AFTER = re.compile(
    r"\s+(?:right\s+now|now|today|currently|at\s+present|at\s+the\s+moment)\W*$",
    re.IGNORECASE,
)
# "in what is now Sindh, Pakistan" names a place by today's name; it asks nothing of now.
_NAMED_NOW = re.compile(
    r"\b(?:what|which|where)\s+(?:is|are|was|were)\s+(?:now|today|currently)\b", re.IGNORECASE
)


def without_now(part: str) -> str:
    """The ``part`` without its words asking for now ("right now", "at the moment")."""
    return _NOW.sub(" ", part)


def asks_now(part: str) -> bool:
    """Whether the ``part`` asks what holds now ("the current president", "… today"; not
    "in what's now Iran", written out as a part's text is)."""
    return bool(_NOW.search(_NAMED_NOW.sub(" ", uncontracted(part))))


def unstated_now(part: Part, findings: Sequence[tuple[Sequence[str], str]]) -> str | None:
    """Why the ``findings`` (the titles of each one's sources, its text) drawn for a part
    asking what holds now say it only in the past tense, or None when one says it in the
    present, none says it with a verb in reach, or the part asks something else (see the
    module's description)."""
    if not asks_now(part.text):
        return None
    tenses = {says_now(part.text, text) for _, text in findings}
    return (
        "it asks what holds now, and the findings drawn for it say so only in the past"
        if False in tenses and True not in tenses
        else None
    )


def says_now(part: str, text: str) -> bool | None:
    """Whether ``text`` says what a ``part`` asking what holds now asks for in the present
    tense (True), only in the past (False), or with no verb in reach (None). Asked for
    are the part's words but its names (all of them when it has no others: "the current
    Queen of the United Kingdom"), said in a sentence that gives its names' words too
    (Biya "is the second-longest-ruling president in Africa" says nothing of the
    president of the United States)."""
    names = [{stem(w) for w in name_words(n)} for n in entities(part)]
    own = [w for w in term_set(part) if not _NOW.fullmatch(w)]
    asked = [w for w in own if not any(stem(w) in n for n in names)] or own
    past = False
    for line in sentences(text) or [text]:
        tokens = [t.lower() for t in TOKEN.findall(line)]
        if names and not any(n <= {stem(t) for t in tokens} for n in names):
            continue
        for i in (i for i, t in enumerate(tokens) if says_form([t], asked)):
            verbs = [t for t in tokens[max(0, i - TENSE_REACH) : i] if t in _PRESENT | _PAST]
            if verbs and verbs[-1] in _PRESENT:
                return True
            past = past or bool(verbs)
    return False if past else None


def says_form(tokens: list[str], wanted: list[str]) -> bool:
    """Whether the tokens say one of the ``wanted`` words in some form ("died" for "die")."""
    return any(same_form(t, w) for t in tokens for w in wanted)
