"""Whether a part that points back to the thing the part before it asks for is answered
about that thing.

"What is the capital of Australia, and when was it founded?": "it" is the capital the
first part asks for. When no source answered that part, what "it" is was never found, and
a finding on when something was founded (*Tasmania*'s) answers the second part of another
thing; the second part is not answered either.

A pronoun stands for the asked-for thing only where that thing is the subject of the part
before, and of the pronoun's kind:
- the part before asks who or what did something ("Which element has the atomic number
  1", "Who founded …") or who or what "is the …" ("What is the capital of …"); where it
  asks what someone did ("What order does the plan recommend, and what targets does it
  set"), "it" is the one who did it;
- "who" asks for a person, "he", "she" or "him" stands for it; "what" or "which" for a
  thing, "it" does ("Which scientist discovered radium, and where was he born" may be
  either, so it is left alone);
- a possessive ("his vaccines", "its narrowest") as often speaks of a name the question
  gives, and "they" of several things, so neither is read.

When the part before is answered, its answer is what the pronoun stands for, and a finding
answers the later part of it only from a source behind that answer (or another passage of
its file), one the answer names, or one that states all the part before asks and so
answers it too: "Who was the first emperor of Rome, and how did he come to power?" was
answered "He succeeded his stepfather Augustus, the first Roman emperor" (*Tiberius*), so
*Augustus* may say how he came to power, and *Sulla*, "the first general … to march on
Rome", does not. A later part asking when of that thing ("Who wrote Hamlet, and when did
he die") is dated of it (``answer_titles``, read by ``relations.untimed_event``): of the
sources behind the answer but the question's own names, not *Hamlet*'s "written … between
1599 and 1601".
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from deepresearch.offline.asking import WORD_TOKEN, defines_name
from deepresearch.offline.coverage import says_all, says_any, text_roots
from deepresearch.offline.mentions import TOKEN, holds_phrase, mentions_name, name_words
from deepresearch.text import AUXILIARY_VERBS

_STANDS_FOR = {"who": {"he", "she", "him"}, "what": {"it"}, "which": {"it"}}
_AUXILIARY = frozenset(AUXILIARY_VERBS.split("|")) | {"must", "may", "might", "shall"}
_COPULA = frozenset({"is", "are", "was", "were"})
_MAIN_VERB = frozenset({"has", "have", "had"})  # "which element has the atomic number 1"


def points_to_asked(part: str, before: str) -> bool:
    """Whether a pronoun of ``part`` stands for the thing the part ``before`` it asks for
    (see the module's description)."""
    words = [w.lower() for w in WORD_TOKEN.findall(before)]
    if not words or words[0] not in _STANDS_FOR or defines_name(before.strip()):
        return False
    said = {w.lower() for w in WORD_TOKEN.findall(part)}
    if not said & _STANDS_FOR[words[0]]:
        return False
    # the first auxiliary after the question word says whether it asks for the subject
    at = next((k for k, w in enumerate(words[1:], 1) if w in _AUXILIARY), None)
    if at is None or words[at] in _MAIN_VERB:
        return True
    return words[at] in _COPULA and words[at + 1 : at + 2] == ["the"]


def hangs_on_unanswered(part: str, before: str, before_answered: bool) -> str | None:
    """Why ``part`` is not answered when it points back to what the unanswered part
    ``before`` it asks for, else None."""
    if before_answered or not points_to_asked(part, before):
        return None
    return f"it points back to what '{before.strip()}' asks for, which no source answered"


def unconnected_answer(
    part: str,
    before: tuple[str, Collection[str]],
    findings: Sequence[tuple[Collection[str], str]],
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
) -> str | None:
    """Why the ``findings`` drawn for a part pointing back to what the answered part
    before it asks for do not answer it of that thing, else None. ``before``: that part
    and the roots of its own words. Each finding is given by its sources, each source by
    its title and the document it is part of (a passage of a file answers with the rest of
    the file), and by what those sources state: a source stating every word of the part
    before answers it too, though its answer was drawn from others ("She won the 1911
    Nobel Prize in Chemistry for the discovery of the elements radium and polonium" for
    "Who discovered radium, and what prize did she win"). ``answers``: the findings drawn
    for the part before (their sources so given, their text); ``titles``: the titles of
    the sources gathered."""
    before_text, asked = before
    if not answers or not points_to_asked(part, before_text):
        return None
    behind = {t for sources, _ in answers for t in sources}
    named = _named_by(answers, titles, _given(part, before_text), asked)
    if any(set(sources) & (behind | named) for sources, _ in findings):
        return None
    if asked and any(says_all(set(asked), text_roots(stated)) for _, stated in findings):
        return None
    return (
        f"no finding drawn for it comes from a source behind the answer to "
        f"'{before_text.strip()}', one that answer names or one stating all it asks"
    )


def answer_titles(
    part: str,
    before: tuple[str, Collection[str]],
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
) -> list[str]:
    """The titles of the things a part pointing back to what the part ``before`` it asks
    for may stand for (``before``: that part and the roots of its own words), as
    ``answers`` (the findings drawn for that part: their sources by title and document,
    their text) gave it: the gathered ``titles`` of their sources, not the names the
    question gives ("Who wrote Hamlet, and when did he die": *William Shakespeare*, not
    *Hamlet*); none when the part does not point back so. The titles the answers' texts
    name are read only when no other source is behind them: "The Tragedy of Hamlet,
    Prince of Denmark, … written by William Shakespeare" names *Denmark* too."""
    before_text, asked = before
    if not answers or not points_to_asked(part, before_text):
        return []
    given = _given(part, before_text)
    behind = {t for sources, _ in answers for t in sources}
    found = [t for t in titles if t in behind and not holds_phrase(given, name_words(t))]
    return sorted(found or _named_by(answers, titles, given, asked))


def _given(part: str, before: str) -> list[str]:
    """The words, lower-cased, of the question's two parts."""
    return [t.lower() for t in TOKEN.findall(f"{before} {part}")]


def _named_by(
    answers: Sequence[tuple[Collection[str], str]],
    titles: Collection[str],
    given: list[str],
    asked: Collection[str],
) -> set[str]:
    """The ``titles`` the ``answers``' texts name, but for those the question gives
    (``given``, its words): a name the question gives is not the thing asked for ("the
    first emperor of Rome"). Read only the answers stating a word the part before asks
    with (``asked``, their roots): a finding drawn for "Who painted The Starry Night" from
    *Night*, "Daylight illuminates one side of Earth", says nothing of what was asked."""
    said = [
        TOKEN.findall(text)
        for _, text in answers
        if not asked or says_any(set(asked), text_roots(text))
    ]
    return {
        t
        for t in titles
        if any(mentions_name(tokens, name_words(t)) for tokens in said)
        and not holds_phrase(given, name_words(t))
    }
