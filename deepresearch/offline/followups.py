"""New searches for a gap whose own searches have all run: the offline refiner's way of
trying something different for a part of the question it could not answer, before it
gives up. No topic vocabulary: every search is made of the part's own words, the words
the question names its subject with, and the names the gathered sources use beside the
part's words.

The searches, in order:

- the part as a sentence, its pronoun standing for the question's subject ("where did
  it originate" → "where did democracy originate"): the corpus search fuses dense
  vectors, which match a whole sentence better than a bag of keywords;
- each name (a capitalised run, or an entry the corpus links) that a source behind the
  findings states beside most of the part's own words, with those words: the bridge a
  part that hangs on another's answer needs ("it originated in Classical Athens");
- the part's own words as the gathered sources write them when those are other forms
  of them ("origins" for "originate"), with the subject: a form the search may not match.

A search already run is never proposed again (compared as normalised queries and as
sets of words, except the sentence, whose vector is its own).
"""

from __future__ import annotations

import re

from deepresearch.offline.bridges import entities, own_said
from deepresearch.offline.coverage import PART_GAP
from deepresearch.offline.parts import Part, question_parts
from deepresearch.roles import SourceText
from deepresearch.text import (
    QUESTION_FRAME,
    TITLE_QUALIFIER,
    keywords,
    normalize_query,
    sentences,
    term_set,
    title_phrases,
    word_root,
    words,
)

NAMES_PER_GAP = 3  # names the sources state beside the part's words, tried per gap
SUBJECT_WORDS = 3  # words of the first part that stand for the question's subject
DERIVED_ROOT = 5  # letters two roots share at least to be forms of one word
# Pronouns that stand for the question's subject ("where did it originate"); a word such
# as "that" or "its" modifies a noun of the part's own and stays.
_PRONOUN = re.compile(r"\b(?:it|they|them|he|him|she)\b", re.IGNORECASE)


def gap_part(question: str, description: str, titles: list[str]) -> Part:
    """The question part a gap is about (its description names it after PART_GAP), else
    the gap's own words as a part (a reviewer's note). ``titles``: the gathered sources'
    (see ``parts.question_parts``)."""
    text = description.split(": ", 1)[-1] if description.startswith(PART_GAP) else description
    for part in question_parts(question, titles):
        if part.text == text:
            return part
    return Part(text, " ".join(keywords(text)), False)


def subject(question: str, titles: list[str]) -> str:
    """The words the question names its subject with, in its first part (what a later part
    points back to): that part's longest capitalised phrase, else its first SUBJECT_WORDS
    keywords ("What is democracy" → "democracy"). ``titles`` as for ``gap_part``."""
    first = question_parts(question, titles)[0]
    if phrases := title_phrases(first.text):
        return re.sub(r"['’]s\b", "", max(phrases, key=len))  # "Cargo's" names Cargo
    return " ".join(keywords(first.text)[:SUBJECT_WORDS])


def new_searches(
    question: str, description: str, asked: list[str], sources: list[SourceText]
) -> list[str]:
    """New searches for the gap ``description`` of ``question``, best first, none of them
    ``asked`` already (see the module's docstring). ``sources``: the sources findings rest
    on, most used first."""
    titles = [s.title for s in sources]
    part = gap_part(question, description, titles)
    about = subject(question, titles)
    candidates = [(_as_sentence(part, about), True)]
    own = [w for w in keywords(part.text) if w.lower() not in QUESTION_FRAME]
    own = [w for w in own if term_set(w) & (part.own or part.terms)]
    for name in _names(part, question, sources):
        candidates.append((f"{name} {' '.join(own)}".strip(), False))
    if forms := _other_forms(part, sources):
        candidates.append((f"{' '.join(forms)} {about}".strip(), False))
    ran = {normalize_query(q) for q in asked}
    bags = [term_set(q) for q in asked]
    out: list[str] = []
    for query, sentence in candidates:
        key = normalize_query(query)
        if not term_set(query) or key in ran or (not sentence and term_set(query) in bags):
            continue
        out.append(query)
        ran.add(key)
        bags.append(term_set(query))
    return out


def _as_sentence(part: Part, about: str) -> str:
    """The part as a question standing alone: a part that points back with a pronoun has
    the subject in its place, one that points back otherwise ("that leftover") has the
    subject added; any other part stands alone as asked."""
    text = part.text.strip().rstrip("?.!")
    if not part.refers_back or term_set(about) <= term_set(text):
        return text
    if _PRONOUN.search(text):
        return _PRONOUN.sub(about, text, count=1)
    return f"{text} {about}".strip()


def _names(part: Part, question: str, sources: list[SourceText]) -> list[str]:
    """Names stated beside the part's own words: in a statement that holds at least half
    of them (one word alone, as "heavy" of "how small and heavy", says too little of what
    the part asks), its capitalised runs (bridges.entities) and the entries its source links
    whose words it states, none that the question or a gathered title gives; best source
    first, at most NAMES_PER_GAP."""
    asked = term_set(question)
    known = [term_set(TITLE_QUALIFIER.sub("", s.title)) for s in sources]
    needed = max(1, (len(part.own) + 1) // 2)
    names: list[str] = []
    for src in sources:
        for sent in sentences(src.text) or [src.text]:
            said = term_set(sent)
            if own_said(part, said) < needed:
                continue
            linked = [e for e in src.links if term_set(TITLE_QUALIFIER.sub("", e)) <= said]
            for name in [*entities(sent), *linked]:
                terms = term_set(TITLE_QUALIFIER.sub("", name))
                if terms and not terms <= asked and terms not in known:
                    names.append(name)
    return list(dict.fromkeys(names))[:NAMES_PER_GAP]


def _other_forms(part: Part, sources: list[SourceText]) -> list[str]:
    """The part's own words as the sources write them in another form (see
    ``_shares_start``: "origins" for "originate", "efficiency" for "efficient"), the
    commonest form per word."""
    counts: dict[str, dict[str, int]] = {}
    own = {word_root(w): w for w in part.own}
    for src in sources:
        for sent in sentences(src.text) or [src.text]:
            for w in words(sent):
                root = word_root(w)
                for o in own:
                    if root != o and _shares_start(root, o):
                        forms = counts.setdefault(o, {})
                        forms[w] = forms.get(w, 0) + 1
    return [max(forms, key=lambda f: (forms[f], f)) for forms in counts.values()]


def _shares_start(a: str, b: str) -> bool:
    """Whether two roots are forms of one word: they agree up to the last two letters of
    the shorter, DERIVED_ROOT letters at least ("efficien" of "efficient", "efficiency")."""
    same = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return same >= max(DERIVED_ROOT, min(len(a), len(b)) - 2)
