"""What a part of a question borrows from the clauses before it, so its query stands
alone: a part pointing back ("how long is it") takes the words of what it points to, and
a later part naming nothing ("in what year") those of the first clause's names. Syntax
only: no topic words."""

from __future__ import annotations

import re

from deepresearch.offline.asking import asks_for_entity, main_clause, without_connective
from deepresearch.offline.scenes import sets_scene
from deepresearch.text import AUXILIARY_VERBS, keywords, term_set, title_phrases

# A name as code writes it: dotted ("os.rename"), called ("pop(0)"), camel-case after a
# lower-case letter ("cProfile"; not "GitLab", a brand) or snake_case ("lru_cache").
CODE_NAME = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w+(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w*\([^()\s]*\)"
    r"|[a-z]+[A-Z]\w*|[a-z]\w*_\w+)"
)


def borrowed_words(piece: str, lender: list[str], copies: list[str]) -> list[str]:
    """The first words of ``lender`` a part pointing back borrows; one name's copy borrows
    none of the other names (its ``copies``: "the roles Rousseau played in it")."""
    others = {w for p in copies for w in term_set(p)} - term_set(piece)
    return [w for w in lender if w not in others][:4]


def lender_words(piece: str, clauses: list[str], context: list[str]) -> list[str]:
    """The words a part pointing back may borrow: the ``context``, or the first clause's
    names first when the part points past the kind that clause asks for (``points_past``)."""
    return named_first(clauses[0]) if clauses and points_past(piece, clauses[0]) else context


def context_words(clauses: list[str], text: str, scenes: set[str]) -> list[str]:
    """What a part that points back borrows: the first clause's words (all its names, when
    the clause names several: "who led each effort" after "how Germany and Italy …"). A
    scene's names written as code come first ("is there any catch to using it" after
    "try: os.remove(path) / except …"), before the asker's other words; not its names in
    prose, which may be what the answer is not ("that other lake" after "Lake Turkana …")."""
    first = without_connective(clauses[0] if clauses else text)
    context = keywords(first)
    if clauses and (clauses[0] in scenes or sets_scene(clauses[0])):
        return list(dict.fromkeys(code_words(clauses[0]) + context))
    # The names of what the first clause asks about come first, the part borrowing only a
    # few words: "how long is it" after "What do Brazilians locally call the São
    # Francisco River" is asked of the river. Not when it asks for another thing, which
    # "it" is ("which countries did it include" after "What short-lived republic did 'El
    # Libertador' lead": the republic's words), nor names in a clause describing what it
    # asks about ("the cleric who led the revolution against Mohammad Reza Pahlavi").
    if asks_for_entity(first):
        return context
    return named_first(first)


# A demonstrative and its noun ("that channel"), and the kind a clause asks for, up to
# its verb ("Which two ports are linked").
_DEMONSTRATIVE_NOUN = re.compile(r"\b(?:that|this|these|those)\s+(?P<noun>[a-z][\w'-]*)")
_KIND_ASKED = re.compile(
    rf"^\W*(?:which|what)\s+(?P<kind>(?:[\w'-]+\s+){{1,3}}?)(?:{AUXILIARY_VERBS})\b",
    re.IGNORECASE,
)


def points_past(piece: str, first: str) -> bool:
    """Whether ``piece`` points back by a noun other than the kind the ``first`` clause
    asks for: "how narrow does that channel get" after "Which two ports are linked by ferry
    across the stretch of water separating …" speaks of the water, not of the ports."""
    pointed = _DEMONSTRATIVE_NOUN.search(piece)
    kind = _KIND_ASKED.match(first)
    return bool(pointed and kind and not term_set(pointed["noun"]) & term_set(kind["kind"]))


def named_first(clause: str) -> list[str]:
    """The words of a clause, those of the names in its main clause first."""
    named = [w for phrase in title_phrases(main_clause(clause)) for w in keywords(phrase)]
    return list(dict.fromkeys(named + keywords(clause)))


def code_words(text: str) -> list[str]:
    """The words of the names ``text`` writes as code ("os.rename" → "os", "rename")."""
    return [w for n in CODE_NAME.findall(text) for w in keywords(n)]


def first_subject(
    clauses: list[str], text: str, scenes: set[str], context: list[str]
) -> tuple[list[str], list[str]]:
    """What a later part that names nothing and does not point back borrows: the words of
    the first clause's names ("since when have ordinary visitors been allowed in" after
    "… Saint Petersburg's Hermitage Museum"), and, without a name there, the first
    question's words (``context``) for a short part of its own ("how much was produced
    worldwide" after "where are macadamia trees native to"); none of a scene's, which are
    the asker's circumstances rather than what is asked about."""
    first = clauses[0] if clauses else text
    names = [w for phrase in title_phrases(first) for w in keywords(phrase)]
    asking = bool(clauses) and first not in scenes and not sets_scene(first)
    return names, context if asking and not names else []
