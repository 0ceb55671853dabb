"""Whether the findings drawn for a part that asks for a thing's attribute state it of
that thing, not of another one sharing a word of its name.

"What is the capital of Australia" asks for the capital *of Australia*. The corpus
may never say it while still saying "Perth is the capital city of Western Australia"
and "Tasmania is the most decentralised state in Australia, with the lowest proportion of
its residents living within its capital city": each names a capital and Australia, and
neither gives Australia's capital. Such a part is answered only by a finding that says
the attribute of the thing itself:

- from the entry on the thing (its title is the thing's name: *Mongolia* saying
  "Ulaanbaatar, the capital and largest city, …"), stating the attribute, or, for a part
  asking who is a doer of it ("the author", "the founder"), naming someone after "by"
  ("Who was the author of Hamlet": *Hamlet*, "a tragedy written by William Shakespeare");
  or
- stating the attribute with the thing's name close after it, joined by "of" or "in"
  ("the capital city of Canada", "the most populous city in Australia"), with the name
  before it in the possessive ("Canada's capital") or as an adjective made from it ("the
  first Roman emperor"), the name standing alone rather than inside a longer one
  ("Western Australia" does not name Australia).

Only parts asking for exactly that, "what/who/which is the [first] capital of X" or "who
was X's wife" (the attribute a common noun, X a name), are checked: "the Code of
Hammurabi" is itself a name, and "where did the author of X come from" asks for
something else of the author, which the hop to the author's entry answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from deepresearch.offline.apart import NAME_ADJECTIVE
from deepresearch.offline.asking import question_word, without_name_of
from deepresearch.offline.mentions import TOKEN, made_from, mentions_name, name_words, same_form
from deepresearch.offline.ranks import (
    SUPERLATIVE_WORD,
    degree_at,
    degree_said,
    degree_twins,
    one_of_several,
    ranked_below,
    same_degree,
)
from deepresearch.offline.relations import bare_word, titled_entry
from deepresearch.offline.tense import NOW_AFTER
from deepresearch.text import COPULAS, sentences, stem

# A few words at most between the attribute and "of" + the name ("capital city of
# Canada", "the capital of the Commonwealth of Australia" reaches its name in four).
ATTRIBUTE_REACH = 4
# What "in the world", "on Earth" ask a superlative of: the whole world, which no entry
# is on and which a line says as any of these ("the world's largest", "on the globe").
_WORLD = frozenset({"world", "earth", "globe", "planet"})
POSSESSIVE_REACH = 2  # words between "Canada's" and its attribute ("Canada's first capital")

# A name: capitalised words, joined by "of", "the", "de" ("United States of America"); or,
# typed in lower case, a few words (a gathered source's title, see ``asked_attribute``).
# Nothing after it: "the president of France today" is not a name's attribute asked.
_NAME = (
    r"(?:[A-Z][\w'’\-]*(?:\s+(?:of\s+|the\s+|de\s+)?[A-Z][\w'’\-]*){0,3}"
    r"|[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})"
)
_ASKS = r"^\W*(?i:what|who|which)(?:\s+(?i:is|was|are|were)\s+|['’]s\s+)"  # "what's" too
# "what is the capital of Australia", "who was the first president of the Moon"
_ATTRIBUTE_OF = re.compile(
    _ASKS + r"(?:the\s+)?(?P<modifiers>(?:[a-z][\w\-]*\s+){0,2}?)(?P<attribute>[A-Za-z][\w\-]*)"
    r"\s+(?P<joint>of|in|on)\s+"
    r"(?:the\s+)?(?P<name>" + _NAME + r")\W*$",
)
# "who was Isaac Newton's wife", "what is Canada's national anthem"
_POSSESSED = re.compile(
    _ASKS + r"(?P<name>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,3})['’]s\s+"
    r"(?P<modifiers>(?:[a-z][\w\-]*\s+){0,2}?)(?P<attribute>[a-z][\w\-]*)\W*$",
)
# "who was the first Roman emperor", "what is the largest Australian city": the thing
# named by an adjective made from its name, just before the attribute.
_ADJECTIVE_NAMED = re.compile(
    _ASKS + r"(?:the\s+)?(?P<modifiers>(?:[a-z][\w\-]*\s+){0,2}?)"
    rf"(?P<name>{NAME_ADJECTIVE})\s+(?P<attribute>[a-z][\w\-]*)\W*$"
)
# "which river is the longest in Africa", "which lake is the largest in the world": the
# kind asked for, then its superlative of a place.
_KIND_IS_MOST = re.compile(
    r"^\W*(?i:which|what)\s+(?P<attribute>[a-z][\w\-]*)\s+(?i:is|was|are|were)\s+the\s+"
    r"(?P<modifiers>(?:[a-z][\w\-]*\s+)?[a-z][\w\-]*)\s+(?P<joint>of|in|on)\s+"
    r"(?:the\s+)?(?P<name>" + _NAME + r")\W*$",
)
# A superlative among an attribute's modifiers ("the largest city", "the first emperor").
_SUPERLATIVE = re.compile(rf"^{SUPERLATIVE_WORD}$")
_ORDINALS = frozenset({"first", "last"})
SUPERLATIVE_REACH = 3  # words before the attribute where a finding must say it
# Nouns that name a kind of a thing, not a thing: "the most common kind of digital data"
# is stated as "the most common form of digital data".
_KIND_NOUNS = frozenset({"kind", "type", "form", "sort", "variety"})
# "a species of bird" is a bird: a superlative said of it is said of the bird
_KIND_OF = [[kind, "of"] for kind in sorted(_KIND_NOUNS | {"species", "breed"})]


# "written by William Shakespeare": who made a work, in its entry, said with a verb.
_BY_NAME = re.compile(r"\bby\s+[A-Z][\w'’\-]*")


@dataclass(frozen=True)
class Attribute:
    """What a part asks: an ``attribute`` (a word) of the thing ``name`` (its words,
    lower-cased; ``said``: as the part writes it)."""

    attribute: str
    name: tuple[str, ...]
    said: str = field(default="", compare=False)
    who: bool = field(default=False, compare=False)  # the part asks who: a person is the answer
    # "the largest city of Australia": said of the thing, the attribute has this word before it
    superlative: str = field(default="", compare=False)
    # the name is an adjective made from it ("Roman"), said before the attribute
    adjective: bool = field(default=False, compare=False)
    # asked of the whole world ("the largest island in the world", "on Earth")
    world: bool = field(default=False, compare=False)

    def described(self) -> str:
        """The attribute of the thing as a part asks for it ("the first Roman emperor",
        "the largest city of Australia"), for a gap's reason."""
        if self.adjective:
            return " ".join(w for w in (self.superlative, self.said, self.attribute) if w)
        if self.world:
            return f"{self.superlative} {self.attribute} in the world".strip()
        return f"{self.superlative} {self.attribute}".strip() + f" of {self.said}"


def asked_attribute(part: str, titles: Sequence[str] = ()) -> Attribute | None:
    """The attribute and the thing a part asks it of, or None for another part. The
    thing is a name as written (capitalised) or, typed in lower case, a gathered source's
    title ("what is the capital of mongolia", the source *Mongolia*)."""
    # "who is the mayor of London now": what it asks of London, now (see unstated_now)
    text = without_name_of(NOW_AFTER.sub("", part.strip()))
    for pattern in (_ATTRIBUTE_OF, _POSSESSED, _ADJECTIVE_NAMED, _KIND_IS_MOST):
        if (m := pattern.match(text)) is None:
            continue
        if pattern is _KIND_IS_MOST and not _superlatives(m["modifiers"]):
            continue
        # "the first President of the United States" is a superlative's attribute written
        # as a title is; "the Bank of England" without one is a name
        if m["attribute"][:1].isupper() and not _superlatives(m["modifiers"]):
            continue
        # "the tallest building in Tijuana" asks it of Tijuana; "the bank in Geneva" may
        # be a name's words, not an attribute; "on" only "on Earth"
        joint = m.groupdict().get("joint")
        if joint in ("in", "on") and not _superlatives(m["modifiers"]):
            continue
        name = tuple(name_words(m["name"]))
        # "the largest island in the world" is asked of no entry's thing
        world = name in {(w,) for w in _WORLD} and (joint != "of" or name == ("world",))
        if joint == "on" and not world:
            continue
        written = m["name"][:1].isupper()
        if name and (written or world or any(tuple(name_words(t)) == name for t in titles)):
            who = question_word(text) == "who"
            adjective = pattern is _ADJECTIVE_NAMED
            superlative = _asked_superlative(m["modifiers"])
            return Attribute(
                m["attribute"].lower(), name, m["name"], who, superlative, adjective, world
            )
    return None


def _asked_superlative(modifiers: str) -> str:
    """The first superlative among an attribute's modifiers, with the word "most" or
    "least" makes one of ("the most populous country": "most populous"); else ""."""
    words = modifiers.lower().split()
    most = _superlatives(modifiers)
    return degree_said(words[words.index(most[0]) :]) if most else ""


def attribute_phrases(part: str, titles: Sequence[str] = ()) -> str | None:
    """For a part asking for a thing's attribute with a superlative (see
    ``asked_attribute``), a search quoting the phrases a text states it in ("the first
    emperor of China", "the world's largest island", "the most populous city in Canada"
    for its largest city), so the texts stating one come first; None for another part.
    ``titles``: the sources gathered."""
    asked = asked_attribute(part, titles)
    # only a superlative's phrase picks out its answer: "the president of France" is
    # also said of Andorra's co-prince, who is no president of France
    if asked is None or not asked.superlative:
        return None
    degrees = [asked.superlative, *degree_twins(asked.superlative)]
    if asked.adjective:  # "the first Roman emperor": as the part writes it
        return " ".join(f'"the {d} {asked.said} {asked.attribute}"' for d in degrees)
    said = [f"{d} {asked.attribute}".strip() for d in degrees]
    # "the" just before: "the seventh-largest island in the world" does not state "the
    # largest island in the world"
    if asked.world:
        places = [f"the {s} {where}" for s in said for where in ("in the world", "on Earth")]
        places += [f"{whose} {s}" for s in said for whose in ("the world's", "Earth's")]
    else:
        # as the part writes it: "in the solar system", "in Canada"
        the = re.search(rf"\bthe\s+{re.escape(asked.said)}\b", part, re.IGNORECASE)
        place = f"the {asked.said}" if the else asked.said
        places = [f"the {s} {joint} {place}" for s in said for joint in ("of", "in")]
        places += [f"{asked.said}'s {s}" for s in said]
        # the attribute left out: "the fifth planet from the Sun and the largest in the
        # Solar System"
        places += [f"the {asked.superlative} {joint} {place}" for joint in ("of", "in")]
    return " ".join(f'"{p}"' for p in places)


def _superlatives(modifiers: str) -> list[str]:
    """The superlatives among an attribute's modifiers ("the largest", "the first")."""
    return [w for w in modifiers.lower().split() if _SUPERLATIVE.match(w)]


def unstated_attribute(
    part: str, findings: Sequence[tuple[Sequence[str], str]], titles: Sequence[str] = ()
) -> str | None:
    """Why the ``findings`` (the titles of each one's sources, its text) drawn for a part
    asking for a thing's attribute do not answer it, or None when they may or the part
    asks something else (see ``asked_attribute``; ``titles``: the sources gathered)."""
    asked = asked_attribute(part, titles)
    if asked is None or states_attribute(asked, findings):
        return None
    return f"no finding drawn for it states the {asked.described()} itself"


def states_attribute(asked: Attribute, findings: Sequence[tuple[Sequence[str], str]]) -> bool:
    """Whether a finding (the titles of its sources, its text) states the attribute of
    the thing itself (see the module's description)."""
    for titles, text in findings:
        entry = not asked.adjective and any(titled_entry(asked.name, t) for t in titles)
        for line in sentences(text) or [text]:
            tokens = TOKEN.findall(line)
            at = [
                i
                for i, t in enumerate(tokens)
                if _said_attribute(t, asked.attribute) and _superlative_before(tokens, i, asked)
            ] + _elided(tokens, asked)
            if asked.world:
                if any(_of_whole_world(tokens, i) for i in at):
                    return True
                continue
            of_it = _of_adjective if asked.adjective else _of_name
            # the entry's own line, unless it says a superlative of another place: "the
            # largest city in the province of Quebec", in *Canada* (but *Harsha*'s "the
            # younger brother of Rajyavardhana" gives Harsha's brother)
            if any(
                entry and not (asked.superlative and _of_other(tokens, i, asked.name)) for i in at
            ):
                return True
            if any(of_it(tokens, i, asked.name) for i in at):
                return True
            if at and _of_world(tokens, at, asked):
                return True
            # "Who was the author of Hamlet": *Hamlet* says "written by William Shakespeare"
            if entry and asked.who and _agent(asked.attribute) and _BY_NAME.search(line):
                return True
    return False


def _of_world(tokens: list[str], at: list[int], asked: Attribute) -> bool:
    """Whether the line says the superlative asked of the whole world, of a thing it
    places in the asked place before saying so: "The Amazon River in South America is …
    the longest river system in the world" is the longest river of South America too."""
    if not asked.superlative or asked.superlative in _ORDINALS or asked.adjective:
        return False
    copula = next((k for k, t in enumerate(tokens) if t.lower() in COPULAS), None)
    if copula is None or not mentions_name(tokens[:copula], list(asked.name)):
        return False
    after = [{w.lower() for w in tokens[i + 1 : i + 1 + ATTRIBUTE_REACH]} for i in at]
    return any(said & _WORLD and said & {"in", "on"} for said in after)


def _of_other(tokens: list[str], at: int, name: tuple[str, ...]) -> bool:
    """Whether the attribute at ``tokens[at]`` is said of a place named right after it, by
    "in" or "of", other than the ``name`` asked ("city in the province of Quebec"; not
    "the capital is Ottawa, in Ontario")."""
    if tokens[at + 1 : at + 2] not in (["in"], ["of"]):
        return False
    window = _after_joint(tokens, at, ATTRIBUTE_REACH)
    named = [t for t in window[1:] if t[:1].isupper()]
    return bool(named) and not mentions_name(window, list(name))


def _of_whole_world(tokens: list[str], at: int) -> bool:
    """Whether the attribute at ``tokens[at]`` is said of the whole world: "in", "on" or
    "of" and a word for it a few words after ("the largest island in the world", "on
    Earth", "in continuous operation in the world"), or one in the possessive just
    before ("the world's largest island")."""
    # "the oldest university in continuous operation in the world"
    after = [t.lower() for t in tokens[at + 1 : at + 3 + ATTRIBUTE_REACH]]
    joints = [k for k, t in enumerate(after) if t in ("of", "in", "on")]
    if any(w in _WORLD for k in joints for w in after[k + 1 : k + 3]):
        return True
    before = tokens[max(0, at - SUPERLATIVE_REACH - 1) : at]
    if any(bare_word(t) in _WORLD and t.lower() != bare_word(t) for t in before):
        return True
    # said of no narrower place, the superlative is the world's: "the ostrich … is the
    # largest living species of bird", not "Africa's largest lake", "the largest island
    # in Canada", "the largest island that is fully within Indonesian territory", "the
    # largest Australian city"
    unscoped = after[:1] in ([], ["and"], ["by"], ["with"])
    return unscoped and not any(t[:1].isupper() for t in before[1:])


def _superlative_before(tokens: list[str], at: int, asked: Attribute) -> bool:
    """Whether a superlative answering the one the part asks with, if any, is a word of
    its own among the few before the attribute at ``at``: "first" or "last" as asked, a
    degree as asked or its twin (``ranks.same_degree``: "the most populous city" for "the
    largest city"; not "second-largest", "the third-most populous city", "one of the
    oldest", nor of a noun after "of")."""
    if not asked.superlative:
        return True
    if at >= 2 and [t.lower() for t in tokens[at - 2 : at]] in _KIND_OF:
        at -= 2  # "the largest living species of bird" is the largest bird
    start = max(0, at - SUPERLATIVE_REACH)
    before = [t.lower() for t in tokens[start:at]]
    if asked.superlative in _ORDINALS:
        return asked.superlative in before
    return any(
        _SUPERLATIVE.match(w)
        and same_degree(" ".join(before[j : j + 2]), asked.superlative)
        and not ranked_below(tokens, start + j)  # "the 12th largest"
        and not one_of_several(tokens[: start + j])
        and "of" not in before[j + 1 :]  # "the world's largest family of birds"
        for j, w in enumerate(before)
    )


ELIDED_REACH = 8  # words before an elided attribute's superlative where the attribute is


def _elided(tokens: list[str], asked: Attribute) -> list[int]:
    """The superlatives said with the attribute left out, a place after them: "Jupiter is
    the fifth planet from the Sun and the largest in the Solar System" (the attribute
    a few words before), "the smallest of the seven continents" (after "of")."""
    if not asked.superlative or asked.adjective:
        return []
    lowered = [t.lower() for t in tokens]
    out = []
    for k, w in enumerate(lowered[:-1]):
        if not (
            _SUPERLATIVE.match(w)
            and lowered[k + 1] in ("in", "of", "on")
            and degree_at(lowered, k, asked.superlative)
            and not one_of_several(tokens[:k])
        ):
            continue
        # "the smallest of the seven continents": said where the attribute is
        after = [
            j
            for j in range(k + 2, min(k + 6, len(tokens)))
            if _said_attribute(tokens[j], asked.attribute)
        ]
        if lowered[k + 1] == "of" and after:
            out.append(after[0])
        elif any(_said_attribute(t, asked.attribute) for t in tokens[max(0, k - ELIDED_REACH) : k]):
            out.append(k)
    return out


def _said_attribute(token: str, attribute: str) -> bool:
    """Whether ``token`` says the attribute asked: its word in another form, or, for a
    kind asked for, any noun naming a kind ("kind" is said as "form", "type", "sort")."""
    if same_form(token, attribute):
        return True
    return any(same_form(attribute, k) for k in _KIND_NOUNS) and any(
        same_form(token, k) for k in _KIND_NOUNS
    )


def _agent(attribute: str) -> bool:
    """Whether the attribute is a doer's noun ("author", "founder", "leader", "ruler"),
    whom a thing's entry names after "by" ("founded by …"); a "wife" or a "king" it does
    not ("Einstein's wife" is not whoever his entry says something was done by)."""
    return attribute.endswith(("er", "or", "ist"))


def _of_name(tokens: list[str], at: int, name: tuple[str, ...]) -> bool:
    """The attribute at ``tokens[at]`` is said of the name: "of" and the name a few
    words after it, or the name in the possessive just before it."""
    window = _after_joint(tokens, at, ATTRIBUTE_REACH + len(name))
    if window and mentions_name(window, list(name)) and _standalone(window, name):
        return True
    wanted = [stem(w) for w in name]
    n = len(name)
    for end in range(max(n, at - POSSESSIVE_REACH), at + 1):  # the name ends before ``end``
        said = tokens[end - n : end]
        possessive = said[-1].endswith(("'s", "’s")) and said[0][:1].isupper()
        if possessive and [stem(bare_word(t)) for t in said] == wanted:
            return True
    before = tokens[max(1, at - POSSESSIVE_REACH) : at]  # a sentence's first word may be any
    return len(name) == 1 and any(made_from(t, name[0]) for t in before)


def _of_adjective(tokens: list[str], at: int, name: tuple[str, ...]) -> bool:
    """The attribute at ``tokens[at]`` is said of the thing whose adjective ``name`` holds
    ("roman"): the adjective just before it, standing alone ("a Roman emperor", not "Holy
    Roman Emperor"), or "of"/"in" and a name it is made from ("the emperor of Rome")."""
    for k in range(max(0, at - POSSESSIVE_REACH), at):
        if tokens[k].lower() == name[0] and not (k and tokens[k - 1][:1].isupper()):
            return True
    window = _after_joint(tokens, at, ATTRIBUTE_REACH)
    # the name itself, standing alone: not the adjective again ("of the Australian state")
    # nor the end of a longer name ("of Western Australia")
    return any(
        made_from(name[0].capitalize(), bare_word(t))
        and bare_word(t) != name[0]
        and not window[k - 1][:1].isupper()
        for k, t in enumerate(window[1:], 1)
    )


def _after_joint(tokens: list[str], at: int, reach: int) -> list[str]:
    """The tokens from the first "of" or "in" within ``reach`` words after the attribute at
    ``at`` ("city in Australia …"), to the end of that reach; empty without one."""
    after = tokens[at + 1 : at + 2 + reach]
    joints = [k for k, t in enumerate(after) if t.lower() in ("of", "in")]
    return after[joints[0] :] if joints else []


def _standalone(window: list[str], name: tuple[str, ...]) -> bool:
    """The name is in the window by itself, not as the end of a longer capitalised name
    ("Western Australia" for Australia): the word before it is not capitalised."""
    wanted = [stem(w) for w in name]
    n = len(wanted)
    for k in range(1, len(window) - n + 1):
        said = [stem(bare_word(t)) for t in window[k : k + n]]
        if said == wanted:
            return not window[k - 1][:1].isupper()
    return True
