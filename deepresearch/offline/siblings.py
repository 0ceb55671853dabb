"""Things asked about side by side are of one kind (offline analysis).

"Compare the Nile and the Amazon" asks of two rivers: the question splits into parts that
say the same but for the name ("Compare the Nile", "Compare the Amazon"), and where a
name stands for several gathered entries (*Amazon River*, *Amazon (company)*, *Amazons*),
the one described as the same kind of thing as its sibling's entry (a river, as *Nile*
is) is the one asked about; the others are other things with that name. Likewise "Who
founded Amazon and Microsoft" (a company) and "Compare Mercury and Venus" (a planet)."""

from __future__ import annotations

import re

from deepresearch.offline.coordination import PREPOSITION_WORDS
from deepresearch.offline.mentions import TOKEN, opens_document
from deepresearch.offline.parts import Part
from deepresearch.roles import SourceText
from deepresearch.text import ARTICLES, COPULAS, word_root

NAME_WORDS = 4  # at most, of the name that sets two parts apart
KIND_REACH = 8  # words after "is a" read for what a thing is said to be, about
# Words that end the phrase saying what a thing is ("a river *in* Africa", "a company
# *that*"), and those after which a comma ends it too ("a city, *the* capital of").
_ENDS_KIND = PREPOSITION_WORDS | frozenset(
    {"that", "which", "who", "whose", "where", "when", "and", "or", "but", "while", "whereas"}
)
_FUNCTION = frozenset(
    ["the", "a", "an", "it", "its", "this", "these", "they", "he", "she", "his", "her", "their"]
)
_PHRASE = re.compile(r"[^\W\d_][\w'\-]*(?:\.[\w'\-]+)*|[,;:.()]")  # "Amazon.com", "."
_DISAMBIGUATOR = re.compile(r"\s*\([^)]*\)\s*$")  # "Amazon (company)": the name is "Amazon"


def sibling_names(parts: list[Part]) -> dict[int, tuple[list[str], int, list[str]]]:
    """Part index → (its name's roots, its sibling's index, the sibling's name's roots)
    for two parts that say the same but for a name ("Who founded Amazon", "Who founded
    Microsoft"); a part with several such siblings is left out (which is its kind?)."""
    tokens = [TOKEN.findall(p.text) for p in parts]
    found: dict[int, list[tuple[list[str], int, list[str]]]] = {}
    for i in range(len(parts)):
        for j in range(i + 1, len(parts)):
            names = _differing(tokens[i], tokens[j])
            if names is not None:
                found.setdefault(i, []).append((names[0], j, names[1]))
                found.setdefault(j, []).append((names[1], i, names[0]))
    return {i: pairs[0] for i, pairs in found.items() if len(pairs) == 1}


def _differing(a: list[str], b: list[str]) -> tuple[list[str], list[str]] | None:
    """The roots of the names in which two parts' words differ, when all else is alike
    and each differs by a name of a few words; else None."""
    start = 0
    while start < min(len(a), len(b)) and a[start].lower() == b[start].lower():
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end].lower() == b[-1 - end].lower():
        end += 1
    if start + end == 0:
        return None
    left, right = a[start : len(a) - end], b[start : len(b) - end]
    if not all(0 < len(n) <= NAME_WORDS and n[0][:1].isupper() for n in (left, right)):
        return None
    return [word_root(w.lower()) for w in left], [word_root(w.lower()) for w in right]


def said_kind(opening: str) -> str | None:
    """The root of the noun an entry's opening says it is ("The Nile is a major
    north-flowing river in northeast Africa": "river"; "Amazon.com, Inc. is an American
    multinational technology company engaged in …": "company"); None where it says none
    ("Caesar was assassinated …")."""
    tokens = _PHRASE.findall(opening)
    at = next((k for k, t in enumerate(tokens) if t.lower() in COPULAS), None)
    if at is None:
        return None
    rest = tokens[at + 1 : at + 1 + 2 * KIND_REACH]  # commas count as tokens
    if [t.lower() for t in rest[:3]] == ["one", "of", "the"]:  # "one of the Greater Sunda Islands"
        rest = rest[3:]
    said: list[str] = []
    for k, token in enumerate(rest):
        low = token.lower()
        if not said and low in ARTICLES:
            continue
        following = rest[k + 1].lower() if k + 1 < len(rest) else ""
        if token in ";:.()" or low in _ENDS_KIND or (token == "," and following in _FUNCTION):
            break
        # a participle after the noun goes on to describe it ("a company headquartered
        # in", "a river flowing through", not "a programming language"); one first says
        # what was done to it ("was assassinated"), not what it is
        if "-" not in low and (
            low.endswith("ed") or (low.endswith("ing") and following in _ENDS_KIND | _FUNCTION)
        ):
            if not said:
                return None
            break
        if token != ",":
            said.append(low)
    return word_root(said[-1]) if said else None


def other_kinds(
    parts: list[Part], sources: list[SourceText], openings: dict[str, str]
) -> dict[int, set[str]]:
    """Part index → the ids of the entries named as the part's name that are said to be
    another kind of thing than its sibling's entry is, where another such entry is said to
    be that kind (see the module's description). ``openings``: each source's first
    statement."""
    entries = {s.id: _name_roots(s.title) for s in sources if opens_document(s)}
    titles = {s.id: s.title for s in sources}
    out: dict[int, set[str]] = {}
    for i, (name, j, sibling) in sibling_names(parts).items():
        if parts[j].refers_back or parts[i].refers_back:
            continue
        own = [sid for sid, roots in entries.items() if _named_as(roots, name)]
        exact = [sid for sid, roots in entries.items() if roots == sibling]
        # *Venus*, not *Venus (mythology)*: the name alone titles what it first means
        plain = [sid for sid in exact if not _DISAMBIGUATOR.search(titles[sid])]
        exact = plain if len(plain) == 1 else exact
        if len(own) < 2 or len(exact) != 1:
            continue
        kind = said_kind(openings.get(exact[0], ""))
        said = {sid: said_kind(openings.get(sid, "")) for sid in own}
        if kind is None or kind not in said.values():
            continue
        out[i] = {sid for sid, k in said.items() if k is not None and k != kind}
    return out


def _name_roots(title: str) -> list[str]:
    return [word_root(w.lower()) for w in TOKEN.findall(_DISAMBIGUATOR.sub("", title))]


def _named_as(title: list[str], name: list[str]) -> bool:
    """Whether an entry's title is the name, or the name and a word saying what kind of
    thing it is ("Amazon River", "Amazon rainforest")."""
    return title[: len(name)] == name and len(title) <= len(name) + 1
