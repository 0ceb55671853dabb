"""How a corpus search query is read: free text → an FTS5 MATCH expression of its
content words, and of the phrases it quotes."""

from __future__ import annotations

import re

from deepresearch.text import AUXILIARY_VERBS

_TOKEN = re.compile(r"\w+")
_STOPWORD_TEXT = (
    "a about after also an and any are as at be been before being between both but by can "
    "could did do does doing during each for from had has have he her his how i if in into "
    "is it its me more most my no not of on or other our over she should so some such than "
    "that the their them then there these they this those to too under up was we were what "
    "when where which who whom whose why will with would you your"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


# "how old is", "how long did", "how big does": the word after "how" says what kind of
# answer is asked for (a measure), not what the question is about; searched, it matches
# titles that use it (*Old age*, *Old World monkey* for "How old is the universe").
_MEASURE = re.compile(rf"\bhow\s+([^\W\d_]+)\s+(?:{AUXILIARY_VERBS})\b")


# A phrase the query quotes ("first emperor of China"), searched as written.
_QUOTED = re.compile(r'"([^"]+)"')


def phrase_match_query(query: str) -> str | None:
    """An FTS5 MATCH expression for the phrases of several words ``query`` quotes ("the
    first emperor of China"), OR'ed together, each matched as written (word order kept,
    small words included); None when it quotes none."""
    phrases = [
        " ".join(tokens)
        for m in _QUOTED.finditer(query.lower())
        if len(tokens := _TOKEN.findall(m[1])) > 1
    ]
    return " OR ".join(f'"{p}"' for p in dict.fromkeys(phrases)) or None


def build_match_query(query: str) -> str | None:
    """An FTS5 MATCH expression: the query's content words, each quoted, OR'ed together;
    not the measure a "how … is" question asks for (see _MEASURE).

    Quoting every token means no user text is ever parsed as FTS5 syntax (AND, NEAR, *,
    column filters), so special characters cannot raise. None when nothing is left.
    """
    lowered = query.lower()
    measures = {m.group(1) for m in _MEASURE.finditer(lowered)}
    words: list[str] = []
    for word in _TOKEN.findall(lowered):
        if word in measures:
            continue
        if len(word) >= 2 and word not in STOPWORDS and word not in words:
            words.append(word)
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)
