"""Whether the things a question part asks about were found only apart.

*Pet* and *Unicorn* were gathered for "what colour was his pet unicorn" and neither speaks
of the other: the findings are about a pet and about unicorns, not his pet unicorn. A part
asking about two or more things gathered sources are titled is open when no sentence of a
source behind its findings states two of its words (see ``found_apart``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepresearch.offline.asking import ASKED_KIND, COUNTED, compares_things
from deepresearch.offline.roots import (
    names_of,
    readable,
    says_all,
    says_any,
    text_roots,
    title_roots,
)
from deepresearch.text import STOPWORDS, sentences, word_root

THINGS_APART = 2  # titled things a part asks about that no source behind it states together


def asked_kind(text: str) -> set[str]:
    """The roots of the kinds of answer ``text`` asks for (see ASKED_KIND)."""
    return text_roots(" ".join(ASKED_KIND.findall(text)))


def found_apart(
    text: str,
    own: set[str],
    statements: list[str],
    titles: Sequence[str],
    context: Sequence[set[str]] = (),
) -> bool:
    """Whether a part asks about THINGS_APART or more things that gathered sources are
    titled (``titled_roots``) and no sentence of a source behind its findings states two
    of the part's own words (a long page may use two common words far apart), the words of
    one thing it names with an adjective made from a name counting once ("the Roman
    emperors": "Trajan was a Roman emperor" says nothing of "the Roman emperors … on the
    Moon"). *Pet* and *Unicorn* were gathered for "what colour was his pet unicorn" and
    neither speaks of the other: the findings are about a pet and about unicorns, not his
    pet unicorn. Every sentence of the entry on a thing the part names speaks of that
    thing ("the younger brother of Rajyavardhana" in *Harsha*, for "Harsha's elder
    brother"), though it calls it otherwise ("Harshavardhana"); so does the entry on a
    thing it gives by a common noun ("it" in *Almond*, for "almonds"), and the entry on a
    thing an earlier part names (``context``: their roots) speaks of what the part asks
    of it unsaid ("which battle does its story build up to" after "how long is the Bayeux
    Tapestry"; "what was to blame for the deaths" after "how many died in the Bhola
    cyclone"), as one of its words."""
    if compares_things(text) or _THAN.search(text):
        return False  # "marmots vs porcupines": each is found in its own entry, as asked
    described = [g for g in _described(text, own) if len(g) > 1]
    # "in which city did Caravaggio work": a city is what the answer is, which names it
    # rather than says "city"; not a thing to find beside the others (what "how many"
    # counts is: "how many dragons guard it")
    kind = asked_kind(text) - text_roots(" ".join(COUNTED.findall(text)))
    titled = titled_roots(text, own - kind, titles)
    if len(titled) + len([g for g in described if not g & titled]) < THINGS_APART:
        return False
    words = described + [{w} for w in own if not any(w in g for g in described)]
    # an entry on a thing the part names, or gives by a common noun (*Almond* for "how are
    # almonds related to peaches": "Along with the peach, it is classified …")
    asked = text_roots(readable(text))
    held = [r for t in titles if (r := title_roots(t)) and says_all(r, asked)]
    named = set().union(*(text_roots(n) for n in names_of(text)), *held)
    return not any(
        sum(says_any(w, roots | on) for w in words) + referent >= 2
        for s in statements
        for on, referent in [(_entry_roots(s, titles, named), _entry_on_any(s, titles, context))]
        for roots in (text_roots(line) for line in sentences(s))
    )


def _entry_on_any(statement: str, titles: Sequence[str], names: Sequence[set[str]]) -> bool:
    """Whether a ``statement`` (a source's title and text) is the entry on one of the
    ``names`` (their roots): its title, which it opens with, holds the name's words or
    is made of them (*1970 Bhola cyclone* for "the Bhola cyclone")."""
    return any(
        statement.startswith(title) and any(n and (n <= roots or roots <= n) for n in names)
        for title in titles
        if (roots := title_roots(title))
    )


_THAN = re.compile(r"\bthan\b", re.IGNORECASE)  # "larger than": compares as well


def _entry_roots(statement: str, titles: Sequence[str], named: set[str]) -> set[str]:
    """The roots of the title a ``statement`` (a source's title and text) opens with, when
    the part names it (``named``: the roots of the part's names): the source is the entry
    on a thing the part names. Empty for another source."""
    for title in titles:
        roots = title_roots(title)
        if roots and roots <= named and statement.startswith(title):
            return roots
    return set()


# An adjective made from a name ("Roman", "Chinese", "English", "Arabic"), as written.
NAME_ADJECTIVE = r"[A-Z][a-z]+(?:an|ese|ish|ic)"


# A name's adjective and the word it qualifies ("the Roman emperors").
_NAME_ADJECTIVE = re.compile(rf"\b{NAME_ADJECTIVE}\s+[a-z][a-z'\-]+")


def _described(text: str, own: set[str]) -> list[set[str]]:
    """The roots in ``own`` of each thing ``text`` names by a name's adjective and a noun
    ("the Roman emperors": roman, emperor); not a name and the verb after it ("why did the
    Titanic sink")."""
    verbs = do_verbs(text)
    return [
        {w for w in own if says_any({w}, text_roots(m.group()))}
        for m in _NAME_ADJECTIVE.finditer(readable(text))
        if word_root(m.group().split()[-1].lower()) not in verbs
    ]


def titled_roots(text: str, words: set[str], titles: Sequence[str]) -> set[str]:
    """The roots in ``words`` that a title of ``titles`` is made of, when every word of
    that title is a word of ``text`` by root (the title *Plant* for "how do plants
    sing"): things the text asks about that the search found entries on. By root, unlike
    ``titled_words``: a pair of such things no source states together is a sign on its
    own, so "plants" may stand for *Plant*. Title words of TITLE_WORD letters at least."""
    roots = text_roots(readable(text))
    # "in which constellation does it lie": the word after "does it" is the part's verb,
    # not a thing the entry *Lie* is on
    verbs = do_verbs(text)
    out: set[str] = set()
    for title in titles:
        entry = title_roots(title)
        if entry and says_all(entry, roots):
            out |= {w for w in words if says_any({w}, entry) and word_root(w) not in verbs}
    return out


_DO_VERB = re.compile(
    r"\b(?:do|does|did)\s+(?:it|he|she|they|we|you|i)\s+(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)


# "did the Titanic sink": after "do" and a name, the lower-case word the clause ends with
# (or that a function word follows: "sink in 1912") is the verb; one a content word
# follows is the name's noun ("did the Roman emperors persecute Christians").
_DO_NAME_VERB = re.compile(
    r"\b(?i:do|does|did)\s+(?:(?i:the|a|an)\s+)?(?:[A-Z][\w'’.-]*\s+)+(?P<verb>[a-z]+)\b"
    r"(?P<after>\s*[^\W\d_]*)"
)


def do_verbs(text: str) -> set[str]:
    """The roots of the verbs a question's "do" asks with: after a pronoun ("in which
    constellation does it lie") or after a name (see ``_DO_NAME_VERB``)."""
    verbs = {word_root(m["verb"].lower()) for m in _DO_VERB.finditer(text)}
    for m in _DO_NAME_VERB.finditer(text):
        after = m["after"].strip().lower()
        if not after or after in STOPWORDS:
            verbs.add(word_root(m["verb"]))
    return verbs
