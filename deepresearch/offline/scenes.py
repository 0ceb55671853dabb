"""Whether a piece of a question only sets its scene: a leading phrase ("According to the
Phase 6 plan, …", "If I put 256 into a u8, …") or a condition ("when I don't pass anything,
where does uv look …") that neither asks nor describes a thing to identify. A scene is
searched, since its words are what the question is about, but never an unanswered part."""

from __future__ import annotations

import re

from deepresearch.offline.asking import (
    QUESTION_WORDS,
    SUBJECT_OPENERS,
    describes,
    is_question,
    opens_asking,
    without_connective,
)
from deepresearch.offline.coordination import PREPOSITIONS
from deepresearch.text import AUXILIARY_OR_MODAL, STOPWORDS, ends_name, is_past_form, words

# Words that open a phrase setting a scene rather than asking: prepositions and
# subordinating conjunctions ("Besides directing, …", "According to the plan, …", "If I put
# 256 into a u8, …").
_SCENE_OPENERS = frozenset(
    [*PREPOSITIONS.split("|"), "besides", "according", "apart", "aside", "unlike", "like",
     "if", "although", "though", "while", "whereas", "since", "as", "because", "given",
     "once", "unless", "whenever"]
)  # fmt: skip
# A verb that puts "when" in a question's order ("when did", "when exactly was", "When
# debugging …, should debug mode stay enabled").
_ASKING_VERBS = frozenset(AUXILIARY_OR_MODAL.split("|"))
# Words joining a piece to what came before ("And on the upload side, …", "Also, when the
# server hangs up, …"): the scene opens after them.
_CONNECTIVES = frozenset(["and", "or", "but", "also", "so", "then", "plus"])


# Words by which the asker speaks of themselves: a story told with them is the asker's
# circumstances ("Our CI cache directory for uv keeps ballooning."), not the topic's.
_FIRST_PERSON = frozenset(
    ["i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "we", "we're", "we've", "we'd",
     "we'll", "us", "our", "ours"]
)  # fmt: skip


# The asker as a clause's subject ("we serve with waitress", "our scraper gets blocked").
ASKER_SUBJECTS = frozenset(["i", "i'm", "i've", "i'd", "we", "we're", "we've", "my", "our"])
_DASH = re.compile(r"\s[-–—]\s")


def in_first_person(piece: str) -> bool:
    """Whether the asker speaks of themselves in ``piece``: it tells their situation. "I"
    after a name within the sentence is a numeral ("Ferdinand I cultivated ties …"), not
    after an acronym ("In CI I want")."""
    tokens = piece.split()
    return any(
        said in _FIRST_PERSON and not (n > 1 and ends_name(tokens, n))
        for n, token in enumerate(tokens)
        for said in words(token)
    )


def sets_scene(piece: str, *, bare: bool = True) -> bool:
    """Whether a piece before the question's next one only sets its scene: it opens with a
    preposition or a subordinating conjunction and neither asks nor describes a thing to
    identify ("In the What's New document for Python 2.0, which switch …"). ``bare``: a
    condition's subject may go without a determiner (see ``opens_condition``)."""
    said = _opening(piece)
    if opens_condition(said, bare=bare):
        return not describes(piece)
    if said[:1] == ["if"] and said[1:2] in (["i"], ["we"]):
        # what the asker would do: the thing it describes ("the flag that skips the
        # check") is theirs to name, not one asked for
        return not is_question(piece)
    if said[:1] and said[0] in ASKER_SUBJECTS and not _DASH.search(piece):
        # the asker telling what they have or do ("Also we serve with waitress, does it
        # …", "I know you can annotate blocks one by one, but …"): a question after a dash
        # ("I set timeout=5 … — isn't that supposed to …") is one of its own
        return not asks(piece)
    return bool(said) and said[0] in _SCENE_OPENERS and not asks(piece)


def leads_in(piece: str) -> bool:
    """Whether a piece opens as a scene does (a preposition or a subordinating conjunction)
    and asks no question of its own, though it may describe a thing ("under the policy that
    makes such pinning safe"): the question after it is asked within it."""
    said = _opening(piece)
    if opens_condition(said):
        return True
    return bool(said) and said[0] in _SCENE_OPENERS and not is_question(piece)


def leads_in_describing(piece: str) -> bool:
    """Whether a piece opens as a scene does but describes the thing the question goes on
    to ask of, which is a part of its own ("for the country where Chakjobon lies, what is
    its population": the clause is no question, but which country is asked)."""
    said = _opening(piece)
    return (
        len(said) > 1
        and said[0] in _SCENE_OPENERS
        and said[1] not in QUESTION_WORDS  # "In which year did …" asks itself
        and asks(piece)
    )


def _opening(piece: str) -> list[str]:
    """The words of ``piece`` after those joining it to what came before ("And on the
    upload side" → "on the upload side")."""
    said = words(piece)
    while said and said[0] in _CONNECTIVES:
        said = said[1:]
    return said


def opens_condition(said: list[str], *, bare: bool = True) -> bool:
    """Whether words open a condition as "if" would ("when I don't pass anything, where
    does uv look", "When people go underwater, what …"): "when" before a subject, with no
    verb of a question's order ("when did", "when exactly was") nor other question word
    after it. ``bare``: the subject may go without a determiner ("when people go"); not
    where the question does not go on after a comma, "When Napoleon died and where was he
    buried" asking when."""
    return (
        len(said) > 1
        and said[0] == "when"
        and (
            said[1] in SUBJECT_OPENERS
            # a subject without a determiner, no question's verb after it
            or (bare and said[1] not in STOPWORDS and not _ASKING_VERBS.intersection(said[1:]))
        )
        and not QUESTION_WORDS.intersection(said[1:])
    )


def asks(piece: str) -> bool:
    """The piece asks something: it is worded as a question (``is_question``) or describes
    a thing to identify ("in the sport that the Bambino played": which sport is a part of
    its own)."""
    return is_question(piece) or describes(piece)


# A verb in a clause: an auxiliary or a modal, a contraction of one, a past form or a
# participle, or a present form before its object ("wants to", "keeps the").
_VERB = re.compile(
    rf"\b(?:{AUXILIARY_OR_MODAL}|am)\b|n['’]t\b|['’](?:d|ll|re|ve|m)\b|\b[a-z]{{3,}}(?:ed|ing)\b"
    r"|\b[a-z]{3,}s\s+(?:to|the|a|an|my|our|your|their|its|some|that|this|it|me|us|them)\b",
    re.IGNORECASE,
)
# A phrase opening with a participle ("Leaving tennessine aside, …") has no subject: it
# leads in, it does not tell.
_PARTICIPLE_FIRST = re.compile(
    rf"^\W*(?:(?:{'|'.join(sorted(_CONNECTIVES))})\s+)?[a-z]{{3,}}(?:ing|ed)\s+\w", re.IGNORECASE
)  # (not a label: "Unrelated: I think I found a bug")


def told_before_question(piece: str, after: str, text: str) -> bool:
    """Whether ``piece`` of the question ``text`` is a clause that tells, not asks, and a
    comma or a semicolon joins it to the question ``after`` it in one sentence ("And the
    company wants to give back, what are the options for that"): a statement, as it would
    be with a full stop. A phrase with no verb ("The civilian agency among them, when was
    it set up") names what is asked; one opening with a participle leads in."""
    joined = re.search(rf"{re.escape(piece)}\s*([,;])\s*{re.escape(after)}", text)
    # before a semicolon, a clause is read as a sentence before a full stop is: it asks only
    # if it opens as a question ("…characters where pipx prints its icons; is there …")
    asking = opens_asking(piece) or describes(piece) if joined and joined[1] == ";" else asks(piece)
    return (
        joined is not None
        and not asking
        and asks(after)
        and not _PARTICIPLE_FIRST.match(without_connective(piece))
        and (_VERB.search(piece) is not None or any(is_past_form(w) for w in words(piece)))
    )
