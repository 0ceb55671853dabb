"""Whether the findings drawn for a part asking for an attribute of a thing it describes
through a name come from a source tied to that name.

"What is the capital and population of the country Sonja Henie was from" asks for the
capital of one country, which the question gives only by a clause naming Sonja Henie.
The corpus may hold the entry on Brazil, stating a capital and a population, which
neither names Sonja Henie nor is named by her entry: it answers some country's capital,
not the one asked for. A finding answers such a part only when it states an attribute
asked and comes from a source tied to a name the clause gives:

- the entry on that name itself;
- a source that names it ("Petra … in southern Jordan" ties *Jordan* to Petra's clause
  when *Jordan* says "Petra"); or
- a source that the entry on that name names, by its title or by an adjective made
  from it ("Sonja Henie was a Norwegian figure skater" names *Norway*).

Only parts asking "what/who/which is the <attribute> [and <attribute>] of the <thing>"
followed by a clause that gives a name, after a relative word ("the country where Sonja
Henie was born") or at once ("the country Sonja Henie was from"), are checked: a thing
described without a name ("the dictator assassinated in 44 BC") has no name to tie it
to, and other askings ("where does the river that …") hold their attribute in a verb.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from deepresearch.offline.asking import without_name_of
from deepresearch.offline.bridges import entities
from deepresearch.offline.coverage import says_any, text_roots
from deepresearch.offline.mentions import TOKEN, made_from, mentions_name, name_words
from deepresearch.text import keywords, sentences

# "what is the capital and population of the country where Sonja Henie was born"
_DESCRIBED_ATTRIBUTE = re.compile(
    r"^\W*(?i:what|who|which)\s+(?i:is|was|are|were)\s+the\s+"
    r"(?P<attributes>[a-z][\w\-]*(?:\s+and\s+(?:the\s+|its\s+)?[a-z][\w\-]*)?)"
    r"\s+of\s+the\s+(?P<noun>[a-z][\w\-]*)\s+"
    r"(?P<clause>(?:(?:that|where|which|whom|(?:in|on|at|from|for|by|to|with)\s+which)\s+"
    r"[^?]+|[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*\s+[a-z][^?]*))\W*$"
)


@dataclass(frozen=True)
class DescribedAttribute:
    """What a part asks: the roots of its ``attributes`` of a thing (its ``noun``) that a
    clause gives by ``names``."""

    attributes: frozenset[str]
    noun: str
    names: tuple[str, ...]


def described_attribute(part: str) -> DescribedAttribute | None:
    """The attributes a part asks of a thing it describes through a name, or None when
    it asks something else (see the module's description)."""
    # "what was the name of the periodical in which …" asks for the periodical itself
    m = _DESCRIBED_ATTRIBUTE.match(without_name_of(part.strip()))
    if m is None:
        return None
    names = tuple(entities(m["clause"]))
    attributes = frozenset(text_roots(" ".join(keywords(m["attributes"]))))
    if not names or not attributes:
        return None
    return DescribedAttribute(attributes, m["noun"].lower(), names)


def untied_description(
    part: str, findings: Sequence[tuple[Sequence[str], str]], texts: Mapping[str, str]
) -> str | None:
    """Why the ``findings`` (the titles of each one's sources, its text) drawn for a part
    asking for an attribute of a thing it describes through a name do not answer it, or
    None when they may or the part asks something else. ``texts``: each gathered
    source's title → its text."""
    asked = described_attribute(part)
    if asked is None:
        return None
    # each name's words, and the sentences of the entries on it (read once)
    entries = {
        name: [_sentence_tokens(texts[t]) for t in texts if name_words(t) == name_words(name)]
        for name in asked.names
    }
    for titles, text in findings:
        if says_any(set(asked.attributes), text_roots(text)) and any(
            _tied(title, entries, texts) for title in titles
        ):
            return None
    return (
        f"no finding drawn for it comes from a source tied to {' or '.join(asked.names)}: "
        f"none states the {asked.noun}'s {' and '.join(sorted(asked.attributes))} of a "
        f"source that names {asked.names[0]} or that the entry on it names"
    )


def _tied(
    title: str, entries: Mapping[str, list[list[list[str]]]], texts: Mapping[str, str]
) -> bool:
    """Whether the source titled ``title`` is the entry on one of the names (``entries``:
    each name → the sentences of the entries on it), names one, or is named by the entry
    on one (see the module's description)."""
    own = _sentence_tokens(texts.get(title, ""))
    for name, lines in entries.items():
        words = name_words(name)
        if name_words(title)[: len(words)] == words or any(mentions_name(t, words) for t in own):
            return True
        if any(_names_source(entry, title) for entry in lines):
            return True
    return False


def _sentence_tokens(text: str) -> list[list[str]]:
    """The words of each sentence of ``text``: a name ends where its sentence does
    ("southern Jordan. Famous …" names Jordan)."""
    return [TOKEN.findall(line) for line in sentences(text) or [text]]


def _names_source(lines: list[list[str]], title: str) -> bool:
    """Whether an entry's sentences (their words) name the source titled ``title``, by
    its name or, for a one-word name, by an adjective made from it."""
    words = name_words(title)
    if any(mentions_name(tokens, words) for tokens in lines):
        return True
    return len(words) == 1 and any(made_from(t, words[0]) for line in lines for t in line)
