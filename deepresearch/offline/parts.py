"""Question decomposition: how the offline engine turns a question into parts it can
search, check and answer one by one. What each part asks (an entity it does not name, a
time, who did something) is read in ``asking``; the entities sources name, and the hops
a part follows to them, are in ``bridges``; where the question's text is cut into clauses,
in ``clauses``.

No topic vocabulary here: parts come from the question's syntax (clauses, coordinated
noun phrases) and the titles of what was gathered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from deepresearch.offline.alternatives import alternatives, asks_of_each
from deepresearch.offline.asking import (
    OF_ALL_NAMED,
    OF_THE_FEW,
    asked_doer,
    asked_text,
    asks_for_entity,
    counted_as,
    pointing_before,
    without_connective,
    written_words,
)
from deepresearch.offline.clauses import (
    INCLUDING,
    SET_ASIDE,
    brings_in_pointed,
    join_titles,
    question_clauses,
    situation,
    stated_scenes,
    told_in,
    unjoin,
    without_set_aside,
)
from deepresearch.offline.coordination import (
    PREPOSITIONS,
    split_coordination,
)
from deepresearch.offline.earlier import (
    NAMED_FEW_WORDS,
    SHORT_PART_WORDS,
    asked_before,
    elliptic,
    few_named,
    new_matter,
    pointed_in_scene,
    story_asked,
)
from deepresearch.offline.lending import (
    borrowed_words,
    context_words,
    first_subject,
    lender_words,
)
from deepresearch.offline.named_lists import is_name_word, split_names
from deepresearch.offline.part import Part as Part  # the parts' type, re-exported
from deepresearch.offline.scenes import (
    asks,
    in_first_person,
    leads_in,
    opens_condition,
    sets_scene,
    told_before_question,
)
from deepresearch.text import (
    AUXILIARY_VERBS,
    TITLE_QUALIFIER,
    keywords,
    normalize,
    title_phrases,
    words,
)

# Words opening a scene that sets its thing apart ("Apart from topology, which field …")
_SET_APART = frozenset(["apart", "aside", "besides", "except", "unlike"])
# A bare "instead" (no "of …" after it) stands for the alternative said before the part:
# "what container should I use instead" asks of the list the asker described.
_INSTEAD = re.compile(r"\binstead\b(?!\s+of\b)", re.IGNORECASE)
# In one name's copy of a clause naming several, these speak of the names themselves.
_OF_THE_NAMES = frozenset(["each", "both", "they", "them", "their", "these", "those"])
MAX_PARTS = 5  # more pieces than this share the last part
BORROWED_NAMES = 4  # words of the first clause's names a later part naming nothing borrows


def question_parts(question: str, titles: Iterable[str] = ()) -> list[Part]:
    """Clauses, and coordinated noun phrases within a clause ("the telephone and the
    radio"), each a part with its own query; one pointing back ("where did he found his
    school") borrows the words of what it points to, so its query stands alone.

    Args:
        question: the question.
        titles: titles of sources gathered for it, if any: a title joined by "and" that
            the question gives whole ("War and Peace") is one thing, not two to ask
            about apart ("Marx and Engels"); one a later part asks of is its own thing.
    """
    text = uncontracted(normalize(question).strip().rstrip("?.!").strip())
    text, aside = without_set_aside(text)
    # the asker's situation ("Setting up a new box: …") is no part; the first part borrows
    # its words, the asker's circumstances rather than what is asked
    lead, text = situation(text)
    parts = _parts_of(text, list(titles))
    if lead:
        query = list(dict.fromkeys(parts[0].query.split() + keywords(lead)))
        parts[0] = replace(parts[0], query=" ".join(query))
    return _with_set_aside(parts, aside) if aside else parts


def _with_set_aside(parts: list[Part], aside: list[str]) -> list[Part]:
    """The ``parts``, each saying "the other one" of things set aside (``aside``: their
    names, in order) with those names' words in its query: the line that names the one
    it asks of lists them beside it ("found only in Borneo and Sumatra")."""
    out = []
    for part in parts:
        said = part.text.count(SET_ASIDE)
        names, aside = aside[:said], aside[said:]
        query = list(dict.fromkeys(part.query.split() + keywords(" ".join(names))))
        out.append(replace(part, text=part.text.replace(SET_ASIDE, ""), query=" ".join(query)))
    return out


def _parts_of(text: str, titles: list[str]) -> list[Part]:
    """The parts of a question's ``text`` (see ``question_parts``)."""
    joined, scenes = stated_scenes(join_titles(text, titles))
    clauses, last = question_clauses(joined)
    # "…, including X" asks for X too: the noun phrase names a thing to identify.
    clauses = [INCLUDING.sub("which is ", c) for c in clauses]
    pieces, copies, siblings, first_pieces = _pieces_within(clauses or [joined], last, scenes)
    clauses = [unjoin(c) for c in clauses]
    scenes |= told_in(scenes, [*clauses, *pieces])
    context = context_words(clauses, text, scenes)
    first_names, unnamed = first_subject(clauses, text, scenes, context)
    parts: list[Part] = []
    told_with_comma: set[str] = set()
    told = bool(pieces) and pieces[0] in scenes  # a story opens it, not "In die casting, …"
    own_story = told and in_first_person(pieces[0])  # ... told by the asker of themselves
    if len(pieces) > MAX_PARTS:  # the rest share the last part: every clause is asked
        pieces = [*pieces[: MAX_PARTS - 1], ", ".join(pieces[MAX_PARTS - 1 :])]
    for n, piece in enumerate(pieces):
        words, few, instead, points = _points_back(piece, copied=n in copies)
        refers = points and bool(parts)
        query_words = keywords(asked_text(piece))
        borrowed = borrowed_words(piece, lender_words(piece, clauses, context), copies.get(n, []))
        if refers and few and n not in copies:
            borrowed = few_named(pieces[:n], (siblings, first_pieces), parts, borrowed)
        pointed = (
            pointed_in_scene(piece, pieces[:n], parts)
            or new_matter(piece, pieces[:n], parts, (scenes, told_with_comma))
            if refers
            else []
        )
        asked, lent = (
            (pointed, pointed)
            if pointed or not told
            else asked_before(pieces[:n], parts, lend=own_story, stated=scenes, said=words)
        )
        if n and pieces[n - 1] in told_with_comma and not pointed:
            # "…; what are the limits" asks of what the clause just told
            asked = keywords(without_connective(pieces[n - 1]))[:NAMED_FEW_WORDS]
        within = [] if refers else _within(pieces, n, text)
        if parts and (refers or (len(query_words) <= 1 and not _ends_in_name(piece))):
            lent = elliptic(piece, pieces[:n], parts) + (
                (not refers and asked) or (refers and not few and not instead and lent) or borrowed
            )
            query_words = list(dict.fromkeys(query_words + lent))
        elif parts and not within and n not in copies and not _names_own_subject(piece, titles):
            # One sharing the first question's words asks the same of another thing
            # ("who invented the telephone, and who invented the radio").
            alone = len(query_words) <= SHORT_PART_WORDS and not set(query_words) & set(context)
            names = (first_names or (unnamed if alone else []))[:BORROWED_NAMES]
            query_words = list(dict.fromkeys(query_words + ((alone and asked) or names)))
        query_words = _as_entries_word(
            piece, list(dict.fromkeys(query_words + within)), refers=refers
        )
        scene = _sets_scene(n, pieces, text, (scenes, told_with_comma))
        story = story_asked(piece, pieces[:n], scenes, parts) if own_story and refers else ""
        parts.append(Part(piece, " ".join(query_words) or piece, refers, scene, story))
    return _each_apart(parts, siblings, copies) or [_whole(text)]


# "what's the capital", "where's the type site": a question word with its verb contracted,
# before a word in lower case (not "What's New In Python 3.2", a title).
_CONTRACTED = re.compile(r"\b(?P<asks>[Ww]hat|[Ww]here|[Ww]hich)['’]s(?=\s+[a-z])")


def uncontracted(text: str) -> str:
    """The ``text`` with "what's" and "where's" written out ("what is"), as the rules
    reading a question's words expect them."""
    return _CONTRACTED.sub(r"\g<asks> is", text)


def _ends_in_name(piece: str) -> bool:
    """Whether a piece ends with a name ("in what year did it reach Peru"); a piece of one
    word is capitalised as a sentence's first word ("Possible?")."""
    said = piece.split()
    return len(said) > 1 and is_name_word(said[-1])


def _sets_scene(n: int, pieces: list[str], text: str, told: tuple[set[str], set[str]]) -> bool:
    """Whether piece ``n`` of the question ``text`` only sets its scene: a lead-in, a
    sentence of the story, or a clue told before the question pointing back to what it
    brings in. ``told``: the story's sentences, and the clauses told with a comma before
    their question so far, which this piece joins when it is one (a part pointing back
    asks of it as of a new matter, and a short question right after it goes on from it)."""
    if n == len(pieces) - 1:
        return False
    piece, (stated, with_comma) = pieces[n], told
    leading = _sets_scene_in(piece, text)
    # (not a clause of a sentence told already)
    if not leading and piece not in stated and told_before_question(piece, pieces[n + 1], text):
        with_comma.add(piece)
    # a clue stated, not asked: "he was Grand Duke of another country — what's that
    # country's capital" asks first which country
    clue = brings_in_pointed(piece, pieces[n + 1 : n + 2])
    return leading or piece in stated | with_comma or (clue and not asks(piece))


def _sets_scene_in(piece: str, text: str) -> bool:
    """Whether ``piece`` of the question ``text`` sets its scene (``scenes.sets_scene``); a
    condition whose subject goes without a determiner only where the question goes on after
    a comma ("When people go underwater, what …"; "When Napoleon died and where …" asks
    when)."""
    return sets_scene(piece, bare=re.search(rf"{re.escape(piece)}\s*,", text) is not None)


def _whole(text: str) -> Part:
    """The question as one part, for a question no clause of which is a part."""
    return Part(text, " ".join(keywords(text)) or text, False)


def _each_apart(
    parts: list[Part], split: dict[int, list[str]], copies: dict[int, list[str]]
) -> list[Part]:
    """The parts, with one asking of "each" of the things listed before it ("What do
    Cargo's commands for each approach do" after "Can I download all dependencies ahead of
    time, or should I copy their source code") asked once per thing, with its words (see
    ``alternatives``; ``split``: the pieces of each clause split in several, but for a
    clause's ``copies`` per name, whose parts borrow every name: "who led each effort"
    after "How were Germany and Italy unified"); while the parts stay within MAX_PARTS."""
    siblings = {n: pieces for n, pieces in split.items() if n not in copies}
    out: list[Part] = []
    for n, part in enumerate(parts):
        asks_each = n and part.refers_back and asks_of_each(part.text) and n not in siblings
        alts = (
            alternatives([p.text for p in parts[:n]], siblings.get(n - 1, [])) if asks_each else []
        )
        if not alts or len(parts) + len(alts) - 1 > MAX_PARTS:
            out.append(part)
            continue
        own = keywords(asked_text(part.text))
        out += [
            replace(
                part, text=f"{part.text}: {a}", query=" ".join(dict.fromkeys(own + keywords(a)))
            )
            for a in alts
        ]
    return out


def _points_back(piece: str, *, copied: bool) -> tuple[set[str], bool, bool, bool]:
    """A piece's written words; whether it asks of the few things named before ("each of
    them"); whether it points back by a bare "instead" alone, which stands for what the
    asker does, told where the question opens; and whether it points back at all."""
    words = written_words(piece)
    if copied:  # "A and B: what did each of them do": they are A and B
        words -= _OF_THE_NAMES
    of_the_few = bool(OF_THE_FEW.search(piece))
    few = of_the_few or bool(words & OF_ALL_NAMED)
    pointing = bool(words & pointing_before(piece))
    instead = bool(_INSTEAD.search(piece)) and not pointing
    return words, few, instead, pointing or instead or of_the_few


def _within(pieces: list[str], n: int, text: str) -> list[str]:
    """The words of the piece before piece ``n`` when ``n`` is asked within it: that piece,
    not the question's opening, leads in to it (``scenes.leads_in``: "…, and in a
    gas-turbine engine, what drives the compressor" asks of that engine's compressor, not
    of the first clause's) and the question goes on from it after a comma. Not a sentence
    of the asker's story before the next one, a condition that only points back ("and if I
    keep them together anyway, how …") nor a phrase setting its thing apart ("Apart from
    topology, …"); asked only for a part that does not point back itself ("which band does
    that minimum fall into" asks of an earlier answer)."""
    scene = without_connective(pieces[n - 1]) if n else ""
    said = words(scene)
    # the question's opening leads in to the next piece only as a condition ("When people
    # go underwater, what condition limits …"): a topic it opens with is searched as it is
    if n < 2 and not (n == 1 and opens_condition(said)):
        return []
    phrase = said[0] in PREPOSITIONS.split("|") if said else False
    if not leads_in(scene) or (not phrase and written_words(scene) & pointing_before(scene)):
        return []
    if not re.search(rf"{re.escape(pieces[n - 1])},\s*{re.escape(pieces[n][:12])}", text):
        return []
    return [] if said[0] in _SET_APART else keywords(scene)


def _as_entries_word(piece: str, query_words: list[str], *, refers: bool) -> list[str]:
    """A part's query words with what it asks for as entries word it: "who invented the
    radio" asks for the radio's inventor; "how many people live in …" for a population.
    A part that points back has its verb matched by root already (relevance)."""
    if population := counted_as(piece):
        query_words = list(dict.fromkeys([*query_words, population]))
    if not refers and (doer := asked_doer(piece)):
        query_words = list(dict.fromkeys(doer[1] if w == doer[0] else w for w in query_words))
    return query_words


# "which plant was papyrus made from": what the part asks of follows its verb.
_ASKED_OF = re.compile(rf"^(?:which|what)\s+(?:[^\W\d_]+\s+){{1,3}}?(?:{AUXILIARY_VERBS})\s+(.+)$", re.IGNORECASE)  # fmt: skip


def _names_own_subject(piece: str, titles: list[str]) -> bool:
    """Whether a part names a thing of its own (``_names_own``) that is not merely beside a
    subject spoken of before ("how far does the city lie from Moscow")."""
    return _names_own(piece, titles) and not _DEFINITE_SUBJECT.match(piece)


def _names_own(piece: str, titles: list[str]) -> bool:
    """Whether a part names a thing of its own: a capitalised name, or, asking which thing
    (of a kind), a gathered title in lower case without a determiner after its verb:
    "which plant was papyrus made from" asks of *Papyrus*; "what single word does the
    bird keep repeating" of the bird named before (*Bird* is no answer)."""
    if title_phrases(piece):
        return True
    asked = _ASKED_OF.match(piece)
    if asked is None:
        return False
    said = [w for w in words(asked[1]) if w]
    for title in titles:
        name = words(TITLE_QUALIFIER.sub("", title))
        for k in range(len(said) - len(name) + 1):
            if name and said[k : k + len(name)] == name and (k == 0 or said[k - 1] not in _DETERMINERS):  # fmt: skip
                return True
    return False


# A question whose subject is a thing already spoken of, "the" and a common noun between
# its auxiliary and its verb ("how far does the city lie from Moscow" after "What was
# Nizhny Novgorod called"): it asks of the first clause's name, whatever else it names.
_DEFINITE_SUBJECT = re.compile(
    r"^(?i:how|what|which|when|where|why|who)\b(?:\s+[a-z]+){0,2}?\s+(?i:do|does|did|can|could"
    r"|will|would|should)\s+the\s+[a-z]+\s+(?!of\b)[a-z]+\b"
)
# Words before a noun that say which one is meant: one already spoken of ("the bird")
_DETERMINERS = frozenset(["the", "this", "that", "these", "those", "its", "his", "her", "their", "our", "my", "your"])  # fmt: skip


def _pieces_within(
    clauses: list[str], last: str, stated: set[str]
) -> tuple[list[str], dict[int, list[str]], dict[int, list[str]], int]:
    """``_pieces``, the story's names kept together when one piece per name would leave
    the questions after them fewer parts than MAX_PARTS allows."""
    pieces = _pieces(clauses, last, stated)
    return (
        pieces if len(pieces[0]) <= MAX_PARTS else _pieces(clauses, last, stated, whole_told=True)
    )


def _pieces(
    clauses: list[str], last: str, stated: set[str], *, whole_told: bool = False
) -> tuple[list[str], dict[int, list[str]], dict[int, list[str]], int]:
    """The ``clauses`` cut into the pieces that become parts (names and coordinated noun
    phrases apart), with, per piece index, the copies of a clause naming several names
    (one per name), the pieces of a clause split in several, and how many pieces the
    first clause gave. ``last``: bare question words ending the question ("…, and why");
    ``stated``: the question's stated sentences, whose clauses' coordinated phrases tell
    one story ("users keep typing -h and get an error") and stay together; ``whole_told``:
    so do their names (one piece for "… is bordered by Minas Gerais, Paraná and Mato
    Grosso do Sul", when one per name would leave the questions after it too few parts)."""
    told = told_in(stated, clauses)
    pieces: list[str] = []
    copies: dict[int, list[str]] = {}
    siblings: dict[int, list[str]] = {}
    first_pieces = 0
    for n, clause in enumerate(clauses, 1):
        named, extra = ([clause], []) if whole_told and clause in told else split_names(clause)
        if len(named) > 1:
            copies |= dict.fromkeys(range(len(pieces), len(pieces) + len(named)), named)
            split = named + extra
        else:
            split = [clause] if clause in told else split_coordination(clause)
        # "…, and why" asks it of each thing the last clause names.
        split = [f"{p}, and {last}" for p in split] if last and n == len(clauses) else split
        first_pieces = first_pieces or len(split)
        if len(split) > 1:
            siblings |= dict.fromkeys(range(len(pieces), len(pieces) + len(split)), split)
        pieces += split
    return (
        [unjoin(p) for p in pieces],
        {n: [unjoin(c) for c in names] for n, names in copies.items()},
        {n: [unjoin(c) for c in split] for n, split in siblings.items()},
        first_pieces,
    )


# "what did Tesla contribute", "what does the panda eat": the answer is what the thing
# named does or did, often an entry its own entry names.
_ASKS_WHAT_DONE = re.compile(r"\bwhat\s+(?:do|does|did)\b", re.IGNORECASE)


def follows_names(part: Part) -> bool:
    """Whether the entries a part's sources name may hold its answer, so researchers
    follow them: it asks for an entity, asks what a thing does or did, or points back."""
    return part.refers_back or asks_for_entity(part.text) or bool(_ASKS_WHAT_DONE.search(part.text))


def agent_query(part: Part) -> str | None:
    """A search for the doer a part asks for by its verb, said as the noun its entry
    would call it ("who invented the radio" → "radio inventor": *Guglielmo Marconi* is
    "the inventor of radio"); None for other parts."""
    doer = asked_doer(part.text)
    if doer is None:
        return None
    rest = [w for w in part.query.split() if w not in doer]
    return " ".join([*rest, doer[1]]) if rest else None
