"""Words and numbers that single out one thing of a kind: a superlative ("the largest"),
a rank below the first said before one ("the 12th largest"), a word narrowing the noun
after one ("the largest hot desert"), and a number labelling the thing a part asks about
("the atomic number 1")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepresearch.text import STOPWORDS, word_root, words

# A superlative word ("largest", "first", "most"), lower-cased.
SUPERLATIVE_WORD = r"(?:[a-z]+est|first|last|most|least)"
# A rank below the first said before a superlative ("the 12th largest desert", "the third
# most populous city"): the thing is not the superlative itself.
RANKED_BELOW = re.compile(
    r"^(?:\d+(?:st|nd|rd|th)|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)$",
    re.IGNORECASE,
)

NARROWING_REACH = 3  # words after a superlative that may narrow the noun it is said of


def narrowed(after: list[str], noun: str) -> bool:
    """Whether the words ``after`` a superlative give the ``noun`` it is asked of only
    after another word narrowing it (within NARROWING_REACH): "the largest Lusophone
    population" is not "the largest population", "the largest hot desert" not "the
    largest desert", "the most massive moon" not "the most moons"."""
    said = [word_root(w) for t in after[:NARROWING_REACH] for w in words(t)]
    return word_root(noun) in said[1:] and said[0] != word_root(noun)


# A number labelling the thing a part asks about picks it out ("which element has the
# atomic number 1", "the first perfect 10", "the 1964 Summer Olympics"): sources none of
# which states it speak of another. Only a number written after a lower-case word that
# names the label or before a capitalised one it is part of the name with, and in digits
# alone ("8-core", "1960s" may be written otherwise); a year that dates a thing ("a 1781
# book", "in 1998") may go unsaid by the entry on the thing.
_LABEL_NUMBER = re.compile(r"\b(?P<label>[a-z]+)\s+(?P<number>\d+)(?![\w\-]|[.,]\d)")
_NAMED_NUMBER = re.compile(r"(?<![\w.,\-])(?P<number>\d+)\s+[A-Z]")


def unstated_numbers(text: str, statements: Sequence[str]) -> list[str]:
    """The numbers labelling what ``text`` asks about that none of the ``statements``
    states."""
    labels = [m["number"] for m in _LABEL_NUMBER.finditer(text) if m["label"] not in STOPWORDS]
    given = labels + [m["number"] for m in _NAMED_NUMBER.finditer(text)]
    said = {n for s in statements for n in re.findall(r"\d+", s.replace(",", ""))}  # "1,000"
    return [n for n in dict.fromkeys(given) if n not in said]
