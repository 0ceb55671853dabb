"""Words and numbers that single out one thing of a kind: a superlative ("the largest"),
a rank below the first said before one ("the 12th largest"), a word narrowing the noun
after one ("the largest hot desert"), and a number labelling the thing a part asks about
("the atomic number 1")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepresearch.text import STOPWORDS, word_root, words

# A superlative word ("largest", "first", "most"), lower-cased; not a noun in the
# possessive ("the midwest's official name").
SUPERLATIVE_WORD = r"(?:[a-z]+est|first|last|most|least)(?!['’]s\b)"
# A rank below the first said before a superlative ("the 12th largest desert", "the third
# most populous city"): the thing is not the superlative itself.
RANKED_BELOW = re.compile(
    r"^(?:\d+(?:st|nd|rd|th)|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)$",
    re.IGNORECASE,
)

# Superlatives of one degree, each answering the others: size ("the largest city" is the
# most populous one) and height. Any other is answered only as asked: "the largest
# country" is not the smallest one, nor the most populous one.
_SIZE = frozenset({"largest", "biggest", "most populous"})
_HEIGHT = frozenset({"tallest", "highest"})


ADVERB_STEM = 3  # letters an adverb needs before "ly" to be read as made from an adjective


def same_degree(said: str, asked: str) -> bool:
    """Whether a superlative ``said`` (lower-cased, with the word after it) answers the one
    ``asked`` ("most" and "least" with the word they qualify): the same ("most populous"
    with its word), or, for one word asked, one of the same degree ("the most populous
    city" answers "the largest city", "the highest mountain" "the tallest"); "most" and an
    adverb made from the word asked say it too ("most notably" for "most notable")."""
    word, _, after = said.partition(" ")
    asked_word, _, asked_after = asked.partition(" ")
    if word == asked_word and (not asked_after or word_root(after) == word_root(asked_after)):
        return True
    # said as an adverb: "most notably M41" for "the most notable one"
    if word == asked_word and after.endswith("ly") and len(after) > ADVERB_STEM + 2:
        return asked_after.startswith(after[:-2])
    # "the largest city" may be the most populous one, but the most populous country is
    # not the largest (Russia): a degree qualified is answered only as asked
    return not asked_after and any(
        asked_word in group and (said in group or word in group) for group in (_SIZE, _HEIGHT)
    )


def degree_twins(superlative: str) -> list[str]:
    """The other superlatives of a one-word ``superlative``'s degree, which a text may
    say it with ("most populous" for "largest", "highest" for "tallest"); none for
    another."""
    if " " in superlative:
        return []  # "most populous" is answered only as asked (see ``same_degree``)
    return sorted(next((g - {superlative} for g in (_SIZE, _HEIGHT) if superlative in g), []))


def ranked_below(words: list[str], at: int) -> bool:
    """Whether the superlative at ``words[at]`` has a lower rank said just before it ("the
    12th largest", "the third most populous"): the thing is not the superlative itself."""
    return at > 0 and bool(RANKED_BELOW.match(words[at - 1]))


def degree_at(lowered: list[str], at: int, superlative: str) -> bool:
    """Whether the lower-cased words ``lowered`` say the ``superlative`` asked at ``at``
    (the same degree or a twin, see ``same_degree``), not ranked below it ("the 12th
    largest")."""
    return same_degree(" ".join(lowered[at : at + 2]), superlative) and not ranked_below(
        lowered, at
    )


# Words a few before a superlative that make it one of several ("one of the world's oldest
# universities", "some of the Earth's highest peaks", "among the largest").
_SEVERAL = (["one", "of"], ["some", "of"], ["among", "the"])
SEVERAL_REACH = 4  # words before a superlative where they are said


def one_of_several(before: list[str]) -> bool:
    """Whether the words ``before`` a superlative make it one of several: "one of the
    oldest universities", "some of the highest peaks", "among the largest"."""
    said = [t.lower() for t in before[-SEVERAL_REACH:]]
    return any(said[k : k + 2] in _SEVERAL for k in range(len(said)))


def degree_said(words: list[str]) -> str:
    """The superlative ``words`` (lower-cased) open with, "most" and "least" with the word
    they qualify ("most populous"), as ``same_degree`` compares them."""
    return " ".join(words[:2]) if words[:1] in (["most"], ["least"]) else " ".join(words[:1])


NARROWING_REACH = 3  # words after a superlative that may narrow the noun it is said of


def narrowed(after: list[str], noun: str) -> bool:
    """Whether the words ``after`` a superlative give the ``noun`` it is asked of only
    after another word narrowing it (within NARROWING_REACH): "the largest Lusophone
    population" is not "the largest population", "the largest hot desert" not "the
    largest desert", "the most massive moon" not "the most moons"; a word joined to it
    by a function word is no narrower ("the first recipient of the Nobel Prize")."""
    said = [w for t in after[:NARROWING_REACH] for w in words(t)]
    roots = [word_root(w) for w in said]
    if word_root(noun) not in roots[1:] or roots[0] == word_root(noun):
        return False
    return not any(w in STOPWORDS for w in said[: roots.index(word_root(noun))])


GROUP_ROOT = 4  # letters of a part's word that a group's word made from it begins with


def of_a_group(after: list[str], asked: set[str]) -> bool:
    """Whether the word right ``after`` a superlative (as written) names a group it is
    said within, a capitalised word the part does not ``asked`` (lower-cased): "the first
    American to win the Nobel Prize" is not the first to win it, nor "the first Japanese
    author to receive the award" the first author."""
    first = after[:1]
    if not first or not first[0][:1].isupper():
        return False
    # "the first Roman emperor" for "the first emperor of Rome" names the place asked
    said = word_root(first[0].lower())
    return not any(said.startswith(word_root(w)) for w in asked if len(w) >= GROUP_ROOT)


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
