"""Entities that sources name, and the next hop a question part follows: the names a
source's answering sentences give that no gathered source is about yet, and the corpus
entries its answering sentence links. Ranked by how well their sentences match the part
(its own words first, the words it borrowed from an earlier part counting less).

No topic vocabulary here: entities come from capitalisation in what sources say.
"""

from __future__ import annotations

import itertools
import re

from deepresearch.offline.asking import NAME_JOINERS, WORD_TOKEN
from deepresearch.offline.clauses import set_aside_names
from deepresearch.offline.coordination import OPENING_PHRASE
from deepresearch.offline.parts import Part
from deepresearch.offline.quotes import CODE
from deepresearch.offline.referents import opens_with_subject
from deepresearch.text import (
    STOPWORDS,
    TITLE_QUALIFIER,
    ends_name,
    normalize,
    sentences,
    term_set,
    word_root,
)


def entities(text: str, *, listed: bool = False) -> list[str]:
    """Capitalised runs (names) in text, not counting a sentence's first word alone, joined
    across 'of'/'de'/'von'…: 'the Peace of Westphalia ended the war in Europe' →
    ['Peace of Westphalia', 'Europe']. In a source's sentence (``listed``) a comma,
    semicolon or colon ends a name: "founded by Van 't Hoff, Svante Arrhenius and Wilhelm
    Ostwald" lists three people (a question's "Sindh, Pakistan" stays one place); a
    semicolon ends one in a question too, and so does the comma closing the phrase a
    question opens with ("Besides Syria, Saladin was …")."""
    out: list[str] = []
    for sent in sentences(text) or [text]:
        written = normalize(sent)
        found = list(WORD_TOKEN.finditer(written))
        tokens = [m.group() for m in found]
        between = [written[found[i - 1].end() : found[i].start()] for i in range(1, len(found))]
        # a semicolon ends a name anywhere ("… the Pre-Raphaelite Brotherhood; the Encyclopædia
        # Britannica …")
        parted = {
            i
            for i, gap in enumerate(between, 1)
            if ";" in gap or (listed and _PUNCTUATED.search(gap))
        }
        # a question opening "Besides Syria, Saladin was …" names Syria and Saladin
        opening = not listed and OPENING_PHRASE.match(written) is not None
        if opening:
            parted |= set(itertools.islice((i for i, g in enumerate(between, 1) if "," in g), 1))
        # a sentence's first word alone is no name, but opens one the next word goes on
        first = not opening and len(tokens) > 1 and tokens[1][:1].isupper()
        run: list[str] = []
        for i, tok in enumerate([*tokens, ""]):
            capital = bool(tok) and tok[0].isupper() and tok.lower() not in STOPWORDS
            capital = capital or (bool(run) and ends_name(tokens, i))  # "World War I"
            if capital and run and i in parted:
                out += [" ".join(run)] if not (len(run) == 1 and len(run[0]) <= 2) else []
                run = []
            if capital and (i > 0 or first):
                run.append(tok)
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if run and tok in NAME_JOINERS and nxt[:1].isupper() and i not in parted:
                run.append(tok)  # "Code" + "of" + "Hammurabi"
                continue
            if run and not (len(run) == 1 and len(run[0]) <= 2):
                out.append(" ".join(run))
            run = []
    return list(dict.fromkeys(out))


def prose_sentences(statements: list[str]) -> list[str]:
    """A source's statements as the sentences a bridge is read from: code lines quoted as
    statements ("Code: `Client()`") name code, not entries, and are left out."""
    return [sent for st in statements if not st.startswith(CODE) for sent in sentences(st)]


def bridge_entities(
    part: Part,
    texts: list[list[str]],
    known_titles: list[str],
    question: str,
    limit: int = 2,
    subjects: list[str] | None = None,
) -> list[str]:
    """Entities that the texts answering ``part`` name, which no gathered source is about
    yet and the question does not name: candidates for the next hop. ``texts`` come best
    first, each as its sentences or statements (statements joined would run into one
    another: "… Code: `import httpx`" would name "Code"); a name scores by how well its
    sentence matches the part (its own words; those it borrowed count BORROWED_SHARE), the
    text's rank discounting it, so the best source's answer sentence leads; a name never
    at the end of a clause ("the Roman poet", "Nero was") counts RUN_ON_SHARE. Ties go to
    longer names (more specific), then to the earlier one. ``subjects``, when given, are
    the texts' entries ("" for a text whose subject is not to be read so): a sentence
    opening with a pronoun for its entry says its name."""
    asked, aside = term_set(question), set_aside_names(question)
    known = [term_set(t) for t in known_titles]
    # "the Swedish one of them" asks of one of several an earlier part names: the
    # sentences naming them need not say what sets that one apart (his own entry does),
    # and each name in their list is one of them
    among = part.refers_back and _ONE_OF_THEM.search(part.text) is not None
    scores: dict[str, float] = {}
    heads: set[str] = set()  # names that end a clause somewhere
    for rank, text in enumerate(texts):
        for sent in text[:8]:
            terms = term_set(sent)
            if subjects and subjects[rank] and opens_with_subject(sent):
                terms |= term_set(subjects[rank])  # "It is bordered by" says the entry's name
            match = _part_match(part, terms)
            if match <= 0 or not (among or _own_match(part, terms)):
                continue  # a sentence that only repeats the borrowed words is about them
            listed = [n.removesuffix("'s").removesuffix("’s") for n in entities(sent, listed=among)]
            names = [
                name
                for name in listed
                if (terms := term_set(name))
                and not terms <= asked
                and not any(a <= terms or terms <= a for a in aside)
                and not any(terms == k for k in known)
            ]
            # only a sentence giving several names lists items (and one to score)
            several = len(listed) > 1 and names
            picked, passed = (
                _items_asked(part, normalize(sent), listed) if several else (set(), set())
            )
            for name in names:
                share = OTHER_ITEM_SHARE if name in passed else 1.0
                scores[name] = scores.get(name, 0.0) + share * match / (1 + rank)
                if name in picked or not _runs_on(name, sent):
                    heads.add(name)
    # a name always followed by a lower-case word counts RUN_ON_SHARE
    scores = {n: v * (1.0 if n in heads else RUN_ON_SHARE) for n, v in scores.items()}
    order = {name: i for i, name in enumerate(scores)}
    ranked = sorted(scores, key=lambda n: (-round(scores[n], 6), -len(n.split()), order[n]))
    return ranked[:limit]


def _items_asked(part: Part, sentence: str, listed: list[str]) -> tuple[set[str], set[str]]:
    """In a sentence listing names as parallel items ("bordered by Germany to the north,
    …, and Italy to the south"), the names whose own item says one of the part's own
    words besides the name's ("south"), and the other items' names, when some items say
    one and others do not: the sentence pairs the first with what is asked, each ending
    its clause as an answer does. Both empty otherwise, and for a sentence whose names
    are not such a list ("a treatise written in Baghdad by Al-Khwarizmi": his name ends
    what describes him). An item opens after a comma, semicolon, colon, "and" or "or"
    (and a determiner), or is the first name, the object of what leads in to the list;
    it runs to the next comma, semicolon or colon, or to the next name other words than
    a conjunction part it from ("Slovenia and Italy to the south" is one item), or to the
    last "and" or "or" before that name. ``listed``: the names the sentence gives."""
    # a name is read across the punctuation between its words ("France, Luxembourg")
    found = ((re.search(r"\W+".join(map(re.escape, n.split())), sentence), n) for n in listed)
    spans = sorted((m.start(), m.end(), n) for m, n in found if m)
    items = [k for k, (start, _, _) in enumerate(spans) if k and _opens_item(sentence[:start])]
    if not items:
        return set(), set()
    own = {word_root(t) for t in part.own or part.terms}
    said: dict[str, bool] = {}
    for k in [0, *items]:
        start, end, name = spans[k]
        punctuation = _PUNCTUATED.search(sentence, end)
        stop = punctuation.start() if punctuation else len(sentence)
        for (_, before, _), (after, _, _) in zip(spans[k:], spans[k + 1 :], strict=False):
            if after >= stop:
                break
            if not _COORDINATED.fullmatch(gap := sentence[before:after]):
                # the words after a conjunction go with the next name ("Indonesia to the
                # west and maritime borders with Australia")
                joints = list(_CONJUNCTION.finditer(gap))
                stop = before + joints[-1].start() if joints else after
                break
        item = {word_root(t) for t in term_set(sentence[start:stop])}
        said[name] = bool(own & item - {word_root(t) for t in term_set(name)})
    if all(said.values()) or not any(said.values()):
        return set(), set()
    return {n for n, says in said.items() if says}, {n for n, says in said.items() if not says}


def _opens_item(before: str) -> bool:
    """Whether a name after the text ``before`` opens an item of a list: nothing but a
    determiner after the last comma, semicolon, colon, "and" or "or" (or the sentence's
    start) before it."""
    boundaries = list(_ITEM_BOUNDARY.finditer(before))
    return _DETERMINER.fullmatch(before[boundaries[-1].end() if boundaries else 0 :]) is not None


def _runs_on(name: str, sentence: str) -> bool:
    """Whether every time ``sentence`` gives ``name`` a lower-case word follows it ("the
    Roman poet", "Nero was"), never a clause's end ("by the poet Ovid."): the name a
    sentence ends a clause with is its object, the likelier next entry."""
    after = [
        m["next"] for m in re.finditer(rf"{re.escape(name)}(?:\s+(?P<next>[a-z]+))?", sentence)
    ]
    return bool(after) and all(after)


_PUNCTUATED = re.compile(r"[,;:]")
_ONE_OF_THEM = re.compile(
    r"\b(?:(?:one|each|either|neither|both|which)\s+of\s+(?:them|those|these)|the\s+other\s+one)\b",
    re.IGNORECASE,
)
BORROWED_SHARE = 0.5  # weight of a part's borrowed words against its own
RUN_ON_SHARE = 0.5  # of its score, for a name never at a clause's end (see _runs_on)
OTHER_ITEM_SHARE = 0.5  # of its sentence's match, for a listed name not asked (_items_asked)
_CONJUNCTION = re.compile(r"\b(?:and|or)\b")
_ITEM_BOUNDARY = re.compile(r"[,;:]|\b(?:and|or)\b")
_DETERMINER = re.compile(r"\s*(?:(?:the|a|an)\s+)?", re.IGNORECASE)
_COORDINATED = re.compile(r"\s*(?:,\s*)?(?:(?:and|or|&)\s+)?(?:the\s+)?", re.IGNORECASE)


def _part_match(part: Part, terms: set[str]) -> float:
    """Share of the part's words in ``terms`` (by root: "end" matches "ended"), its
    borrowed words counting less."""
    own = {word_root(t) for t in part.own or part.terms}
    borrowed = {word_root(t) for t in part.terms} - own
    roots = {word_root(t) for t in terms}
    total = len(own) + BORROWED_SHARE * len(borrowed)
    hit = len(own & roots) + BORROWED_SHARE * len(borrowed & roots)
    return hit / total if total else 0.0


def own_share(part: Part, terms: set[str]) -> float:
    """Share of the part's own words (by root) that ``terms`` hold."""
    own = {word_root(t) for t in part.own or part.terms}
    return len(own & {word_root(t) for t in terms}) / len(own) if own else 0.0


def _own_match(part: Part, terms: set[str]) -> bool:
    """Whether ``terms`` hold one of the part's own words (by root), when it has words of
    its own besides those it borrowed."""
    own = part.own
    if not own or own == part.terms:
        return True
    return bool({word_root(t) for t in own} & {word_root(t) for t in terms})


DERIVED_ROOT = 6  # letters a root needs before a longer word it begins counts as its own


def _own_said(part: Part, terms: set[str]) -> bool:
    """_own_match, where a word also counts as said by a word derived from it (see
    own_said)."""
    own = part.own
    return not own or own == part.terms or own_said(part, terms) > 0


def own_said(part: Part, terms: set[str]) -> int:
    """How many of the part's own words ``terms`` say, by root, a word also said by one
    derived from it ("contribute" by "contributions", "electric" by "electricity"): a root
    of at least DERIVED_ROOT letters that begins the other's root."""
    return derived_said({word_root(t) for t in part.own}, {word_root(t) for t in terms})


def derived_said(asked: set[str], roots: set[str]) -> int:
    """How many of the ``asked`` roots ``roots`` say, each as written or by a root of at
    least DERIVED_ROOT letters that begins the other ("discov" by "discover")."""
    return sum(
        any(
            r == o or (min(len(r), len(o)) >= DERIVED_ROOT and (r.startswith(o) or o.startswith(r)))
            for r in roots
        )
        for o in asked
    )


def linked_entries(part: Part, source: tuple[str, str, list[str]], question: str) -> list[str]:
    """The entries the corpus links from the statements of ``source`` (title, text, linked
    titles) that answer ``part``, best first: the hop a capitalised name cannot give ("a
    diet of bamboo" links *Bamboo*). A link counts where a sentence that holds the part's
    own words mentions all of its title's words, and scores as that sentence matches the
    part (ties: the longer title, then the earlier). None the question names."""
    title, text, links = source
    asked = term_set(question)
    candidates = [(link, term_set(TITLE_QUALIFIER.sub("", link))) for link in links]
    candidates = [(link, terms) for link, terms in candidates if terms and not terms <= asked]
    context = term_set(title)
    scores: dict[str, float] = {}
    for sent in sentences(text)[:8] or [text]:
        said = term_set(sent)
        match = _part_match(part, said | context)
        if match <= 0 or not _own_said(part, said):
            continue
        for link, terms in candidates:
            if terms <= said:
                scores[link] = max(scores.get(link, 0.0), match)
    order = {name: i for i, name in enumerate(scores)}
    return sorted(scores, key=lambda n: (-round(scores[n], 6), -len(n.split()), order[n]))
