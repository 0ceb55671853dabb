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

from deepresearch.offline.asking import QUESTION_WORDS, asked_doer, describes, question_word
from deepresearch.offline.bridges import entities
from deepresearch.offline.dates import asks_year
from deepresearch.offline.mentions import (
    TOKEN,
    describes_kind,
    mentions_name,
    name_words,
    names_doer_by,
)
from deepresearch.offline.parts import Part
from deepresearch.offline.relations import NAMING_VERBS, party_names
from deepresearch.offline.roots import close_word, says_any, speaks_of_any, text_roots
from deepresearch.offline.tense import without_now
from deepresearch.providers import vectors
from deepresearch.text import AUXILIARY_VERBS, STOPWORDS, TITLE_QUALIFIER, sentences, stem, words

KIND_REACH = 3  # words after "which"/"what" that say what kind of thing it asks for
# Relation words at most: a part asking in more describes what it asks for ("which Bronze
# Age civilisation built one of the world's earliest major cities …"), and a description
# is how to find the answer, not words its sources must say.
RELATION_WORDS = 2
RELATION_LETTERS = 4  # a word this long can name a relation ("wife", "born")
_AUXILIARIES = frozenset(AUXILIARY_VERBS.split("|"))
_DO = frozenset(["do", "does", "did"])  # an auxiliary whose main verb comes after the subject
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
# "Who came up with Sesame Street", "Who took over the firm": a verb and its particle
# mean what neither word does, so neither word's vector says the relation.
_PHRASAL = re.compile(r"\b[a-z]+\s+(?:up|out|off|over|down|away|back)\b")
_KIND = re.compile(r"^\W*(?:which|what)\b", re.IGNORECASE)
# "Who was born first, Mozart or Beethoven": "first" after a verb orders the things
# compared; the relation is the verb ("first performed in 1808" is no birth). After "the"
# it is what is asked ("the first to reach the pole").
_ORDER_AFTER_VERB = re.compile(r"(?<=[a-z]{2}\s)(?<!\bthe\s)(?:first|last)\b(?!\s+(?:of|to)\b)")
# A made thing's entry opening with its maker: "… is an epic novel by the Russian author
# Leo Tolstoy", "… is a foundational text in Marxist theory by Karl Marx"; not after a
# verb ("is a country bordered by Cameroon": the verb says the relation, the vectors judge).
MAKER_WORDS = 4  # words of a maker's name after "by" ("Ludwig van Beethoven")
_MAKER = re.compile(
    r"\b(?:is|was|are|were)\s+(?:a|an|the)\s+(?:[^\s.;]+\s+){0,6}?(?<!ed\s)by\s+(?:the\s+)?"
    r"(?:[a-z][\w\-]*\s+){0,2}(?P<name>[A-Z][\w'’\-]*)"
)

# Parts the opening's maker answers: "who wrote", "which composer wrote", "what company
# makes" ("The Magic Flute … is an opera in two acts by Wolfgang Amadeus Mozart").
_ASKS_MAKER = frozenset(["who", "whom", "which", "what"])


def relation_words(part: str) -> tuple[list[str], list[set[str]], set[str]]:
    """For a part asking who, where or which thing relates to a thing it names: the words
    of the relation ("married"; "town", "born"), the words of each name party to it, and
    the words of every name it gives. Empty for any other part. Adverbs ("exactly") and
    words asking for now are not a relation."""
    # A part asking for a year is the date check's (``relations.untimed_event``): "What
    # year did Albert Camus receive the Nobel Prize" is answered by "awarded … in 1957".
    if not _ASKS_ENTITY.match(part) or _WHERE_DESCRIBED.match(part) or asks_year(part):
        return [], [], set()
    kind = _kind_words(part)
    # "What roles did Lenin play …" asks for several things, a description of what he did,
    # not one thing in a relation to him ("What year did …", "Which architect …").
    if kind and stem(kind[0]) != kind[0]:
        return [], [], set()
    # "Which Königsberg-born philosopher …", "Which New Zealander …": a name in the kind
    # asked for describes the thing asked for; the relation is to the other names.
    found = [n for n in entities(part) if not set(words(n)) & set(kind)]
    if not found:
        # "Which German composer went deaf": naming nothing, a thing of the kind described
        # is in the relation; its words are the rest ("deaf" is no composer's)
        return (_relation(part, set(kind)), [], set()) if describes_kind(part) else ([], [], set())
    named = {w for n in found for w in words(n)}
    # "… the Red Fort in Delhi": a place says where the thing is, not a party to the
    # relation, which is between the others when there are several.
    parties = party_names(part, found) if len(found) > 1 else found
    names = [set(words(n)) for n in (parties or found)]
    asked = _relation(part, named)
    # "What sport did Dhyan Chand play": the kind, before "did", names the answer's
    # category, which its sources seldom say ("a field hockey player"); with no word
    # besides it, the part asks no relation to say. ("What colour is the TARDIS" asks the
    # kind of the thing itself: checked.)
    after = [w for written in part.split()[len(kind) + 1 : len(kind) + 2] for w in words(written)]
    if after[:1] and after[0] in _DO and set(asked) <= set(kind):
        return [], [], set()
    return asked, names, named


# "where is he buried", "in which town was he born": a part pointing back that asks where
# a state or a deed done to the thing holds, said by a participle after its pronoun
_STATE_ASKED = re.compile(
    r"^\W*(?:(?:in|at|on|from)\s+)?(?:where|which\s+[a-z]+)\s+(?:was|were|is|are)\s+"
    r"(?:he|she|it|they)\s+(?P<state>[a-z]{4,})\W*$",
    re.IGNORECASE,
)


def _unstated_state(part: str, behind: Sequence[tuple[str, Sequence[str]]]) -> str | None:
    """For a part pointing back that asks where a state holds of what its pronoun stands
    for (``_STATE_ASKED``: "where is he buried" after "Who was the first president of the
    United States"): why the sources ``behind`` its findings do not answer it — nothing
    they say holds the state's word or one close to it in meaning (*George Washington*'s
    "a Founding Father and the first president" says nothing of a grave); else None."""
    m = _STATE_ASKED.match(part)
    # "which island was he from": a preposition, not a state
    embedder = vectors.load_embedder() if m and m["state"].lower() not in STOPWORDS else None
    if m is None or embedder is None:
        return None
    asked = [m["state"].lower()]
    said_text = " ".join(s for _, statements in behind for s in statements).replace("-", " ")
    if says_any(text_roots(asked[0]), text_roots(said_text)) or close_word(
        said_text, asked, embedder
    ):
        return None
    return f"what the sources say of what it points back to has no word for {asked[0]!r}"


def _unstated_deed(
    part: str, behind: Sequence[tuple[str, Sequence[str]]], before: str
) -> str | None:
    """For a part pointing back that asks who did something to what its pronoun stands for
    ("who led it" after "What was the Russian Revolution", the part ``before``): why the
    sources ``behind`` its findings do not answer it — nothing they say holds the deed's
    verb or its doer's noun ("led", "leader"), nor a word close to one in meaning
    (*Russian Empire*'s "the final period of the Russian monarchy" names no leader), nor
    a name after "by" other than the thing's ("the Sistine Chapel ceiling …, by
    Michelangelo"; not "developed by Microsoft" for "What is Microsoft"); else None."""
    doer = asked_doer(part) if question_word(part) == "who" else None
    embedder = vectors.load_embedder() if doer else None
    if doer is None or embedder is None:
        return None
    statements = [s for _, said in behind for s in said]
    said_text = " ".join(statements).replace("-", " ")  # "co-founded" says "founded"
    if says_any(text_roots(" ".join(doer)), text_roots(said_text)):
        return None
    thing = set(words(before))
    if any(names_doer_by(line, thing) for line in statements):
        return None
    if close_word(said_text, list(doer), embedder):
        return None
    return f"what the sources say of what it points back to has no word for {doer[0]!r}"


def _relation(part: str, named: set[str]) -> list[str]:
    """The words of a part that may say a relation: not the ``named`` words, a question
    word, an auxiliary, a short or small word, an adverb, nor one asking for now."""
    return [
        w
        for w in dict.fromkeys(words(_ORDER_AFTER_VERB.sub("", without_now(part))))
        if len(w) >= RELATION_LETTERS
        and not w.endswith("ly")
        and w not in named | QUESTION_WORDS | _AUXILIARIES
        and w not in STOPWORDS
    ]


def _kind_words(part: str) -> list[str]:
    """The words after "which"/"what" that say what kind of thing the part asks for, up
    to its verb ("Which Königsberg-born philosopher", "What year" of "What year did …")."""
    if not _KIND.match(part):
        return []
    kind: list[str] = []
    for written in part.split()[1 : KIND_REACH + 1]:
        said = words(written)
        # "Which painter trained Caravaggio": a name after the kind's own words is the
        # verb's object, not part of the kind ("Which New Zealander" opens with one)
        if not said or said[0] in _AUXILIARIES or (kind and written[:1].isupper()):
            break
        kind += said
    return kind


def unstated_relation(
    part: Part, behind: Sequence[tuple[str, Sequence[str]]], before: str = ""
) -> str | None:
    """Why the sources ``behind`` a part's findings (title, statements) do not answer it:
    what they say of the thing it names (of both, when it names two) says no word of the
    relation it asks for, nor one close to it (nor, for a part asking who, does the
    entry on the thing open with its maker); None when it does, or the part asks no
    relation (or of a thing it describes), or the vectors are not installed. A part
    pointing back is checked only when it asks where a state holds ("where is he
    buried", see ``_unstated_state``) or who did something to it ("who led it", see
    ``_unstated_deed``; ``before``: the part it points back to): other verbs are said in
    other words ("where did he work": "a research fellow at Oxford")."""
    if describes(part.text):
        return None
    if part.refers_back:
        return _unstated_state(part.text, behind) or _unstated_deed(part.text, behind, before)
    asked, names, found_words = relation_words(part.text)
    if len(asked) > RELATION_WORDS or _PHRASAL.search(part.text):
        return None
    embedder = vectors.load_embedder() if asked else None
    if embedder is None:
        return None
    roots = [text_roots(" ".join(n)) for n in names]
    # Of several things named ("Bose" and "the Nobel Prize"), the relation is between
    # them: a line gives two of them, or one in the entry on another.
    together = min(len(roots), 2)
    lines: list[str] = []
    openings: list[str] = []  # the first sentence of the entry on a thing named
    titled: list[str] = []  # the titles of the sources those lines are from
    named_roots = text_roots(" ".join(found_words))
    for title, statements in behind:
        its_lines = [line for text in statements for line in sentences(text) or [text]]
        on_it = _entry_on(roots, named_roots, title) | _known_as(roots, title, its_lines[:1])
        openings += its_lines[:1] if on_it else []
        mine = [line for line in its_lines if len(on_it | _speaking_of(roots, line)) >= together]
        lines += mine
        titled += [title] if mine else []
    said_text = " ".join(lines).replace("-", " ")  # "co-founded" says "founded"
    if says_any(text_roots(" ".join(asked)), text_roots(said_text)):
        return None
    if _said_through(lines, behind, asked) or _another_name(asked, lines):
        return None
    # "Which ocean is between Africa and Australia": *Indian Ocean* says "It is bounded by
    # … Africa to the west and Australia to the east", its title the kind asked for
    kind = text_roots(" ".join(_kind_words(part.text)))
    if (
        asked
        and text_roots(" ".join(asked)) <= kind
        and says_any(kind, text_roots(" ".join(titled)))
    ):
        return None
    if question_word(part.text) in _ASKS_MAKER and _maker_named(openings, set().union(*names)):
        return None
    if kind & text_roots(" ".join(asked)) and _names_of_kind(lines, behind, kind):
        return None
    if close_word(said_text, asked, embedder):
        return None
    return f"what the sources say of it has no word for {' or '.join(map(repr, asked))}"


def _another_name(asked: Sequence[str], lines: Sequence[str]) -> bool:
    """Whether a part asking for a thing's name ("By what other name is Hürrem Sultan
    known") is answered by a line giving the thing another name ("also known as
    Roxelana")."""
    return list(asked) == ["name"] and any(_KNOWN_AS.search(line) for line in lines)


def _names_of_kind(
    lines: Sequence[str], behind: Sequence[tuple[str, Sequence[str]]], kind: set[str]
) -> bool:
    """Whether the ``lines`` said of the thing name an entry behind the findings whose
    opening says it is of the ``kind`` asked (roots): "Which country do the Maluku Islands
    belong to" is answered by "an archipelago in the eastern part of Indonesia", whose
    entry opens "Indonesia … is a country in Southeast Asia"."""
    said = " ".join(lines)
    return any(
        re.search(rf"(?<!\w){re.escape(title)}(?!\w)", said) is not None
        and says_any(kind, text_roots(first))
        for title, statements in behind
        if title and (first := next(iter(sentences(statements[0]) if statements else []), ""))
    )


def _said_through(
    lines: Sequence[str], behind: Sequence[tuple[str, Sequence[str]]], asked: Sequence[str]
) -> bool:
    """Whether a line on the thing named names another source ``behind`` the findings one
    of whose statements says every word of the relation ``asked``, two at least: the hop
    that answers ("It is located on the banks of the Tigris" in *Baghdad*; *Tigris*: "The
    river flows south"). One word alone is said of anything ("founded" in *United States*,
    which a line on General Motors names)."""
    if len(asked) < 2:
        return False
    said = [TOKEN.findall(line) for line in lines]
    roots = [text_roots(word) for word in asked]
    return any(
        any(all(says_any(r, text_roots(s.replace("-", " "))) for r in roots) for s in statements)
        and any(mentions_name(tokens, name_words(title)) for tokens in said)
        for title, statements in behind
    )


def _speaking_of(names: Sequence[set[str]], text: str) -> set[int]:
    """Which of the names (their roots) ``text`` gives, each word as written or by a word
    made from it ("Roman" for Rome)."""
    said = text_roots(text)
    return {
        i for i, name in enumerate(names) if name and all(speaks_of_any({r}, said) for r in name)
    }


def _entry_on(parties: Sequence[set[str]], named: set[str], title: str) -> set[int]:
    """Which parties (their roots) a source is the entry on: its title gives them, or its
    title's words are all among the part's names and share one with the party ("Zenobia"
    for "Queen Zenobia of Palmyra", "Rhapsody in Blue" for "Gershwin's Rhapsody in Blue")."""
    on = _speaking_of(parties, title)
    words_of = text_roots(TITLE_QUALIFIER.sub("", title))
    if words_of and words_of <= named:
        on |= {i for i, party in enumerate(parties) if party & words_of}
    return on


# An entry's opening giving the thing another name ("Sun Wukong, also known as the Monkey
# King, is …"), and how many words of it are read.
_NAMING = "|".join(verb.replace(" ", r"\s+") for verb in NAMING_VERBS)
_KNOWN_AS = re.compile(rf"\b(?:{_NAMING})\s+as\s+(?:the\s+)?(?P<name>(?:[\w'-]+\s*){{1,4}})")


def _known_as(parties: Sequence[set[str]], title: str, opening: Sequence[str]) -> set[int]:
    """Which parties (their roots) an entry is on by another name its ``opening`` sentence
    gives it after its title ("Sun Wukong, also known as the Monkey King": the entry on the
    Monkey King); not a passage whose opening names something else first ("The mechanism …
    (generally known as the GIL)" of a release's notes)."""
    titled = text_roots(TITLE_QUALIFIER.sub("", title))
    named = [
        text_roots(m["name"])
        for line in opening
        for m in _KNOWN_AS.finditer(line)
        if titled and titled <= text_roots(line[: m.start()])
    ]
    return {i for i, party in enumerate(parties) for n in named if party and party <= n}


def _maker_named(openings: Sequence[str], named: set[str]) -> bool:
    """Whether an entry on the thing opens by saying what it is and who made it (see
    _MAKER), the maker a name other than the thing's: "Who was born first, Beethoven?"
    is not answered by "… the final complete symphony by Ludwig van Beethoven"."""
    for line in openings:
        for m in _MAKER.finditer(line):
            maker = words(line[m.start("name") :])[:MAKER_WORDS]
            if set(maker[:1]) - named and not set(maker) & named:
                return True
    return False
