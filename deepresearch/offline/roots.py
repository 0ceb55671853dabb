"""Word roots and the names a text gives, as the coverage checks compare them.

A part of a question and a source speak of the same thing when they share a word's root
("tides" and *Tide*), written with or without a hyphen, or in a longer form of the word
("China" and "Chinese"); see ``same_word``. Apostrophes of any kind are left out, as
a question types "Bahá'í" and a text "Baháʼí".
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from deepresearch.offline.bridges import entities
from deepresearch.offline.parts import Part
from deepresearch.providers.vectors import Embedder
from deepresearch.text import (
    STOPWORDS,
    TITLE_QUALIFIER,
    keywords,
    term_set,
    with_units,
    word_root,
    words,
)

# Cosine of two words' vectors at which one says the other: "wife" and "married" (0.55),
# "founder" and "founded" (0.58) are over it; "architect" and "buildings" (0.42), words of
# one topic but not one relation, and "married" and "born" (0.01) are not.
RELATED = 0.45

TITLE_WORD = 3  # letters each word of a title needs to tell what a part asks about
HEAD_LETTERS = 3  # letters the last word of a compound needs to count on its own
SAME_WORD = 4  # letters a root needs before a longer word it begins counts as the same
_APOSTROPHES = re.compile(r"['’ʼ`´]")  # "Bahá'í" as the question types it, "Baháʼí" in text


def text_roots(text: str) -> set[str]:
    """The word roots of ``text``, apostrophes of any kind left out; accents are (see
    ``text.unaccented``), as the corpus search matches words ("Napoleón" asked,
    "Napoleon" found). A number's compound says its unit too: "a 13-day confrontation"
    speaks of days; and a compound its last word, which the others qualify: "a
    Russian-born songwriter" says where he was born, "co-founded" that someone founded."""
    terms = with_units(term_set(text))
    heads = {t.rsplit("-", 1)[1] for t in terms if "-" in t}
    terms |= {h for h in heads if len(h) >= HEAD_LETTERS and h.isalpha() and h not in STOPWORDS}
    return {word_root(_APOSTROPHES.sub("", t)) for t in terms}


def own_roots(part: Part) -> set[str]:
    """The roots of the words a part asks with of its own (``Part.own``)."""
    return {word_root(_APOSTROPHES.sub("", t)) for t in part.own}


def readable(text: str) -> str:
    """``text`` without the words holding a character the input could not decode
    ("Jos\ufffd Rizal" from undecodable bytes): such a word cannot be matched as written."""
    return " ".join(w for w in text.split() if "\ufffd" not in w)


def names_of(text: str) -> list[str]:
    """The names ``text`` gives (see ``bridges.entities``), but not a capitalised word used
    as a kind of thing after "a"/"an" ("contains an API key", "a Boolean flag"): that
    says what sort of thing is meant, not which one the part is about."""
    decoded = readable(text)
    return [
        name
        for name in entities(decoded)
        if not re.search(rf"\ban?\s+{re.escape(name)}\b", decoded, re.IGNORECASE)
    ]


def title_roots(title: str) -> set[str]:
    """The roots of a title's words, its bracketed qualifier left out; none when a word
    has fewer than TITLE_WORD letters (too short to tell what a text asks about)."""
    title_words = keywords(TITLE_QUALIFIER.sub("", title))
    if not title_words or min(map(len, title_words)) < TITLE_WORD:
        return set()
    return text_roots(" ".join(title_words))


def same_word(a: str, b: str) -> bool:
    """Whether two word roots are one word's: equal, written with a hyphen or without
    ("man-made" and "manmade"), or the shorter (of at least SAME_WORD letters) begins the
    longer but for its last letter ("europ" and "european", "china" and "chinese",
    "zealand" and "zealander")."""
    short, long = sorted((a.replace("-", ""), b.replace("-", "")), key=len)
    return short == long or (
        len(short) >= SAME_WORD and long.startswith(short[: max(SAME_WORD, len(short) - 1)])
    )


def says_all(wanted: set[str], roots: set[str]) -> bool:
    """Whether ``roots`` (see ``text_roots``) hold every one of the ``wanted`` roots, each
    as the same word (see ``same_word``)."""
    return all(w in roots or any(same_word(w, r) for r in roots) for w in wanted)


def says_any(wanted: AbstractSet[str], roots: set[str]) -> bool:
    """Whether ``roots`` (see ``text_roots``) hold one of the ``wanted`` roots, as the same
    word (see ``same_word``)."""
    return any(says_all({w}, roots) for w in wanted)


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


def close_word(text: str, asked: list[str], embedder: Embedder, at: float = RELATED) -> bool:
    """Whether a word of ``text`` is close in meaning to one ``asked``: their cosine is
    ``at`` or more ("tomb" for "buried", "wife" for "married" at RELATED)."""
    said = sorted(set(words(text)) - STOPWORDS)
    return bool(said) and float((embedder.embed(said) @ embedder.embed(asked).T).max()) >= at
