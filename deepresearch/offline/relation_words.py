"""Whether the sources behind a part's findings say the relation the part asks for.

"Who was Philo Farnsworth married to?" names a person and asks for the one related to him
by "married": the inventor's entry, which says where he was born and what he invented, is
about him but does not answer. Such a part is answered only when what the sources behind
its findings say of the thing it names (an entry on it, or a sentence naming it) holds a
word of the relation or one close to it in meaning ("wife" or "husband" for "married",
"founder" for "founded"). Static word vectors (wordllama) tell related words from
unrelated ones ("married" and "born" are far apart) where a word list would be a guess;
without them installed the check does not run, as exact words alone would call answered
parts unanswered ("founded" asked, "co-founder" said).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepresearch.offline.bridges import entities
from deepresearch.offline.coverage import says_any, speaks_of_any, text_roots
from deepresearch.offline.parts import Part, describes
from deepresearch.offline.relations import BY_NAME, without_now
from deepresearch.providers import vectors
from deepresearch.text import AUXILIARY_VERBS, STOPWORDS, sentences, words

# Cosine of two words' vectors at which one says the other: "wife" and "married" (0.55),
# "founder" and "founded" (0.58) are over it; "architect" and "buildings" (0.42), words of
# one topic but not one relation, and "married" and "born" (0.01) are not.
RELATED = 0.45
KIND_REACH = 3  # words after "which"/"what" that say what kind of thing it asks for
# Relation words at most: a part asking in more describes what it asks for ("which Bronze
# Age civilisation built one of the world's earliest major cities …"), and a description
# is how to find the answer, not words its sources must say.
RELATION_WORDS = 2
RELATION_LETTERS = 4  # a word this long can name a relation ("wife", "born")
_AUXILIARIES = frozenset(AUXILIARY_VERBS.split("|"))
# A part asking who, where, or which thing stands in a relation to a thing it names.
_ASKS_ENTITY = re.compile(
    rf"^\W*(?:(?:in|at|from|to|by|for|with|of|on)\s+)?"
    rf"(?:who|whom|where|(?:which|what)\s+(?!(?:{AUXILIARY_VERBS})\b)[^\W\d_]+)\b",
    re.IGNORECASE,
)
# "Where did the painter of … come from": where the part asks of a thing it describes.
_WHERE_DESCRIBED = re.compile(
    rf"^\W*where\s+(?:{AUXILIARY_VERBS})\s+(?:the|a|an|his|her|its|their)\s", re.IGNORECASE
)
_KIND = re.compile(r"^\W*(?:which|what)\b", re.IGNORECASE)
_ASKS_WHO = re.compile(r"^\W*(?:(?:to|by|for|with|from)\s+)?whom?\b", re.IGNORECASE)
_QUESTION = frozenset({"who", "whom", "where", "which", "what", "whose"})


def relation_words(part: str) -> tuple[list[str], list[set[str]]]:
    """For a part asking who, where or which thing relates to a thing it names: the words
    of the relation ("married"; "town", "born"), and the names' words. Empty for any other
    part. Adverbs ("exactly") and words asking for now are not a relation."""
    if not _ASKS_ENTITY.match(part) or _WHERE_DESCRIBED.match(part):
        return [], []
    # "Which Königsberg-born philosopher …", "Which New Zealander …": a name in the kind
    # asked for describes the thing asked for; the relation is to the other names.
    kind = set(words(" ".join(part.split()[: KIND_REACH + 1]))) if _KIND.match(part) else set()
    names = [set(words(n)) for n in entities(part)]
    names = [n for n in names if not n & kind]
    if not names:
        return [], []
    named = set().union(*names)
    asked = [
        w
        for w in dict.fromkeys(words(without_now(part)))
        if len(w) >= RELATION_LETTERS
        and not w.endswith("ly")
        and w not in named | _QUESTION | _AUXILIARIES
        and w not in STOPWORDS
    ]
    return asked, names


def unstated_relation(part: Part, behind: Sequence[tuple[str, Sequence[str]]]) -> str | None:
    """Why the sources ``behind`` a part's findings (title, statements) do not answer it:
    what they say of the thing it names says no word of the relation it asks for, nor one
    close to it (nor, for a part asking who, a maker "by" a name); None when it does, or
    the part asks no relation (or of a thing it describes or points back to), or the
    vectors are not installed."""
    if part.refers_back or describes(part.text):
        return None
    asked, names = relation_words(part.text)
    if len(asked) > RELATION_WORDS:
        return None
    embedder = vectors.load_embedder() if asked else None
    if embedder is None:
        return None
    roots = [text_roots(" ".join(n)) for n in names]
    lines: list[str] = []
    for title, statements in behind:
        on_it = _speaks_of(roots, title)
        lines += [
            line
            for text in statements
            for line in sentences(text) or [text]
            if on_it or _speaks_of(roots, line)
        ]
    said_text = " ".join(lines).replace("-", " ")  # "co-founded" says "founded"
    if says_any(text_roots(" ".join(asked)), text_roots(said_text)):
        return None
    if _ASKS_WHO.match(part.text) and _maker_named(lines, set().union(*names)):
        return None
    said = sorted(set(words(said_text)) - STOPWORDS)
    if said and float((embedder.embed(said) @ embedder.embed(asked).T).max()) >= RELATED:
        return None
    return f"what the sources say of it has no word for {' or '.join(map(repr, asked))}"


def _speaks_of(names: Sequence[set[str]], text: str) -> bool:
    """Whether ``text`` gives one of the names (its roots), each word as written or by a
    word made from it ("Roman" for Rome)."""
    said = text_roots(text)
    return any(all(speaks_of_any({r}, said) for r in name) for name in names if name)


def _maker_named(lines: Sequence[str], named: set[str]) -> bool:
    """Whether a line names a maker the way a work's entry does, "a text by Karl Marx":
    "by" a name other than the thing's, after a noun. After a verb ("bordered by
    Cameroon") the verb says the relation, and the vectors judge it."""
    for line in lines:
        for m in BY_NAME.finditer(line):
            before = line[: m.start()].split()[-1:]
            if (
                before
                and not before[0].lower().endswith("ed")
                and set(words(m.group())) - named - {"by"}
            ):
                return True
    return False
