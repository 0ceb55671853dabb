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
  from it ("Sonja Henie was a Norwegian figure skater" names *Norway*); or
- a source that a gathered text writes right after the name and a comma, as a place's
  country is written ("the Sirte Declaration in Sirte, Libya" ties *Libya* to Sirte).

Parts asking "what/who/which is the <attribute> [and <attribute>] of the <thing>"
followed by a clause that gives a name, after a relative word ("the country where Sonja
Henie was born") or at once ("the country Sonja Henie was from"), are checked: a thing
described without a name ("the dictator assassinated in 44 BC") has no name to tie it
to. So are parts asking in a verb of "the <thing> of <Name>" ("where was the composer of
The Magic Flute born"), and a part pointing back to such a thing ("at what age did he
die"): there an attribute is said in other words as often as in the part's ("what
instrument did he play": "a virtuoso violinist"), so such a part needs a finding from a
tied source, and, when some finding states the attribute, one from a tied source that
does (*Claude Debussy*'s "born in Saint-Germain-en-Laye" is no answer for Mozart's
birthplace); one asking when the verb happened always needs the latter: any time the
tied entry gives may be another event's. A place is said with other verbs too often to
ask the same ("where does he work now": "a professor at the University of Oxford").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from deepresearch.offline.asking import PRONOUNS, asks_when, without_name_of
from deepresearch.offline.bridges import entities
from deepresearch.offline.mentions import (
    TOKEN,
    holds_phrase,
    made_from,
    mentions_name,
    name_words,
)
from deepresearch.offline.roots import says_any, text_roots
from deepresearch.text import ARTICLES, TITLE_QUALIFIER, keywords, sentences

# "what is the capital and population of the country where Sonja Henie was born"
_DESCRIBED_ATTRIBUTE = re.compile(
    r"^\W*(?i:what|who|which)\s+(?i:is|was|are|were)\s+the\s+"
    r"(?P<attributes>[a-z][\w\-]*(?:\s+and\s+(?:the\s+|its\s+)?[a-z][\w\-]*)?)"
    r"\s+of\s+the\s+(?P<noun>[a-z][\w\-]*)\s+"
    r"(?P<clause>(?:(?:that|where|which|whom|(?:in|on|at|from|for|by|to|with)\s+which)\s+"
    r"[^?]+|[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*\s+[a-z][^?]*))\W*$"
)

# "where was the composer of The Magic Flute born", "what language did the founder of
# Buddhism speak": the name right after "of", the attribute in the words after it
_NAMED_THING_VERB = re.compile(
    r"^\W*(?:(?i:where|when|how|why)|(?:(?i:in|at|on|from|for|by|to|with)\s+)?(?i:what|which)"
    r"\s+[a-z]+)\s+(?i:is|was|are|were|did|does|do)\s+the\s+(?P<noun>[a-z][\w\-]*)\s+of\s+"
    r"(?P<clause>(?:[Tt]he\s+)?[A-Z][\w'’\-]*(?:\s+(?:(?:of|the|and)\s+)*[A-Z][\w'’\-]*)*)"
    r"\s+(?P<attributes>[a-z][^?]*?)\W*$"
)
# A part pointing back to a thing just described ("at what age did he die").
_POINTS_BACK = re.compile(rf"\b(?i:{'|'.join(sorted(PRONOUNS))})\b")


@dataclass(frozen=True)
class DescribedAttribute:
    """What a part asks: the roots of its ``attributes`` of a thing (its ``noun``) that a
    clause gives by ``names``; ``in_verb`` when they are asked in a verb or of a thing
    pointed back to (see the module's description)."""

    attributes: frozenset[str]
    noun: str
    names: tuple[str, ...]
    in_verb: bool = False
    asked_words: tuple[str, ...] = ()  # the attributes' words as the part gives them
    clause: str = ""  # the words that describe the thing


def described_attribute(part: str) -> DescribedAttribute | None:
    """The attributes a part asks of a thing it describes through a name, or None when
    it asks something else (see the module's description)."""
    # "what was the name of the periodical in which …" asks for the periodical itself
    m = _DESCRIBED_ATTRIBUTE.match(without_name_of(part.strip()))
    in_verb = m is None
    m = m or _NAMED_THING_VERB.match(part.strip())
    if m is None:
        return None
    # a name opening the clause reads as one only in the part ("of Hamlet born")
    names = tuple(n for n in entities(m.string) if n in m["clause"]) if in_verb else ()
    names = names or tuple(entities(m["clause"]))
    said = tuple(keywords(m["attributes"]))
    attributes = frozenset(text_roots(" ".join(said)))
    if not names or not attributes:
        return None
    return DescribedAttribute(attributes, m["noun"].lower(), names, in_verb, said, m["clause"])


def _asked(part: str, before: str | None) -> DescribedAttribute | None:
    """What ``part`` asks of a thing described through a name: itself, or, when it points
    back to the thing the part ``before`` it describes, its own words of that thing."""
    if (asked := described_attribute(part)) is not None:
        return asked
    if before is None or not _POINTS_BACK.search(part):
        return None
    described = described_attribute(before)
    said = tuple(keywords(part))
    attributes = frozenset(text_roots(" ".join(said)))
    if described is None or not attributes:
        return None
    return replace(described, attributes=attributes, in_verb=True, asked_words=said)


def untied_description(
    part: str,
    findings: Sequence[tuple[Sequence[str], str]],
    texts: Mapping[str, str],
    before: str | None = None,
) -> str | None:
    """Why the ``findings`` (the titles of each one's sources, its text) drawn for a part
    asking for an attribute of a thing it describes through a name do not answer it, or
    None when they may or the part asks something else. ``texts``: each gathered
    source's title → its text; ``before``: the part before it, when the part points back
    to what that one describes."""
    asked = _asked(part, before)
    if asked is None:
        return None
    # a name of several capitalised words is read whole where a source is titled by it
    # ("The Sound and the Fury", which capitals alone read as two names)
    asked = replace(asked, names=_titled_in(asked.clause, texts) or asked.names)
    # each name's words, and the sentences of the entries on it (read once)
    entries = {
        name: [_sentence_tokens(texts[t]) for t in texts if _as_name(t) == _as_name(name)]
        for name in asked.names
    }
    stating = [t for t, text in findings if says_any(set(asked.attributes), text_roots(text))]
    if asked.in_verb and not stating and not asks_when(part):
        # said in other words, perhaps: a finding from a tied source may say it; not a time
        # ("when did the author of Don Quixote die": "published in 1605" is another event's)
        stating = [titles for titles, _ in findings]
    placed = _placed_in(asked.names, texts)
    if any(
        title in placed or _tied(title, entries, texts) for titles in stating for title in titles
    ):
        return None
    if asked.in_verb:
        what = " or ".join(f"'{w}'" for w in asked.asked_words)
    else:
        what = f"the {asked.noun}'s {' and '.join(sorted(asked.attributes))}"
    return (
        f"no finding drawn for it comes from a source tied to {' or '.join(asked.names)}: "
        f"none states {what} of a source that names {asked.names[0]} or that the entry "
        "on it names"
    )


def _tied(
    title: str, entries: Mapping[str, list[list[list[str]]]], texts: Mapping[str, str]
) -> bool:
    """Whether the source titled ``title`` is the entry on one of the names (``entries``:
    each name → the sentences of the entries on it), names one, or is named by the entry
    on one (see the module's description)."""
    own = _sentence_tokens(texts.get(title, ""))
    for name, lines in entries.items():
        words = _as_name(name)
        if _as_name(title)[: len(words)] == words or any(mentions_name(t, words) for t in own):
            return True
        if any(_names_source(entry, title) for entry in lines):
            return True
    return False


def _placed_in(names: Iterable[str], texts: Mapping[str, str]) -> set[str]:
    """The gathered sources' titles that some gathered text writes right after one of the
    ``names`` and a comma, as a place's country or region is written: "announced in
    Sirte, Libya" ties *Libya* to the town, whose entry the corpus may not hold."""
    titles = {TITLE_QUALIFIER.sub("", t).strip(): t for t in texts}
    placed: set[str] = set()
    for name in names:
        after = re.compile(rf"\b{re.escape(name)},\s+([A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*)")
        for text in texts.values():
            for m in after.finditer(text):
                placed.update(t for shown, t in titles.items() if shown == m[1])
    return placed


def _titled_in(clause: str, titles: Iterable[str]) -> tuple[str, ...]:
    """The ``titles`` the ``clause`` gives whole, capitalised, none inside a longer one."""
    tokens = TOKEN.findall(clause)
    lowered = [t.lower() for t in tokens]
    found: list[str] = []
    for title in sorted(titles, key=lambda t: -len(_as_name(t))):
        words = _as_name(title)
        if not words:  # a title of no words ("(1)") names nothing
            continue
        for at in range(len(lowered) - len(words) + 1):
            given = lowered[at : at + len(words)] == words and tokens[at][:1].isupper()
            if given and not any(holds_phrase(_as_name(f), words) for f in found):
                found.append(TITLE_QUALIFIER.sub("", title).strip())  # "Guernica (Picasso)"
                break
    return tuple(found)


def _as_name(title: str) -> list[str]:
    """A title's words as a name (see ``name_words``), without a leading article: the
    name *The Magic Flute* is "Magic Flute" in a question's clause."""
    words = name_words(title)
    return words[1:] if len(words) > 1 and words[0] in ARTICLES else words


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
