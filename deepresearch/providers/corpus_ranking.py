"""How the local corpus ranks passages besides BM25: dense similarity, entity linking
against titles and headings, and the weighted reciprocal rank fusion of the rankings."""

from __future__ import annotations

import re
import sqlite3
import unicodedata

import numpy as np

from deepresearch.providers import match_query, vectors
from deepresearch.providers.corpus_index import Lookup, name_key, name_tokens
from deepresearch.text import TITLE_QUALIFIER

RRF_K = 60  # rank r scores weight / (RRF_K + r)
POOL = 100  # candidates taken from each ranking before fusion
# Cosine below which a passage is not a dense candidate: a static embedding puts every
# text somewhere near every query, and a search should not return what merely exists.
DENSE_FLOOR = 0.3
# A name counts as linked only when its words are rare enough here (sum of their idf):
# 'Theory' or 'City' name entries too, but nearly every text uses those words.
SPECIFIC_NAME = 4.6  # log(100): one word found in at most ~1% of passages
MAX_NAME_WORDS = 6
# A capitalised word no title matches may name one it derives from ("Brazilians"): a
# title of STEM_LETTERS letters or more that it extends by DERIVED_ENDING at most.
STEM_LETTERS, DERIVED_ENDING = 4, 4
_WORD = re.compile(r"\w[\w'\-]*")  # the tokens of corpus_index.name_key
_SENTENCE_END = re.compile(r"[.!?]")
MAX_LINKS = 40  # titles a hit's text links to, in the order it first names them


def dense_ranking(lookup: Lookup, query: str) -> list[int]:
    """Passages by cosine similarity to the query (best first, above DENSE_FLOOR); none
    when the index has no vectors or no embedder is installed.

    Args:
        lookup: the open index's in-memory tables.
        query: the search query.
    """
    if lookup.matrix is None or not len(lookup.matrix_ids):
        return []
    embedder = vectors.load_embedder()
    if embedder is None:
        return []
    scores = lookup.matrix @ embedder.embed([query])[0]
    # argpartition first: a full sort of a million scores cost more than the product.
    pool = min(POOL, len(scores))
    candidates = np.argpartition(-scores, pool - 1)[:pool]
    top = candidates[np.argsort(-scores[candidates])]
    return [lookup.matrix_ids[i] for i in top if scores[i] >= DENSE_FLOOR]


def named_ranking(conn: sqlite3.Connection, lookup: Lookup, query: str) -> list[int]:
    """Entity linking: the longest query n-grams that are a title or heading here, kept
    when their words are specific to few passages, when they are the whole query, or
    when the query writes them as a name (capitalised after its first word), and the
    one-word titles that a word written as a name derives from ("Brazilians": *Brazil*,
    see ``named_stem``) or that a word for one who studies a field names
    ("gastroenterologist": *Gastroenterology*, see ``studied_field``), most specific first.

    Args:
        conn: the index connection (for word idf).
        lookup: the open index's in-memory tables.
        query: the search query.
    """
    cased = name_tokens(query)
    tokens = [t.casefold() for t in cased]
    content = {i for i, w in enumerate(tokens) if w not in match_query.STOPWORDS}
    found: list[tuple[float, int, list[int]]] = []
    used: set[int] = set()
    for size in range(min(MAX_NAME_WORDS, len(tokens)), 0, -1):
        for i in range(len(tokens) - size + 1):
            span = set(range(i, i + size))
            key = " ".join(tokens[i : i + size])
            if span & used or key not in lookup.names:
                continue
            words = [w for w in key.split() if w not in match_query.STOPWORDS]
            specificity = sum(lookup.idf(conn, w) for w in words)
            # A query that is a title ('Christianity') names it, however common its words;
            # so does one that capitalises it mid-sentence ('How did Christianity begin').
            whole = bool(content) and content <= span
            if words and (specificity >= SPECIFIC_NAME or whole or _written_as_name(cased, span & content)):  # fmt: skip
                found.append((specificity, i, lookup.names[key]))
                used |= span
    for i in sorted(content - used):
        stem = named_stem(lookup, tokens[i]) if _written_as_name(cased, {i}) else None
        stem = stem or studied_field(lookup, tokens[i])
        if stem:
            found.append((lookup.idf(conn, stem), i, lookup.names[stem]))
    ranking: list[int] = []
    for _, _, pids in sorted(found, key=lambda f: (-f[0], f[1])):
        ranking += [p for p in pids if p not in ranking]
    return ranking


def named_stem(lookup: Lookup, word: str) -> str | None:
    """The one-word title a name word is derived from by a short ending ("brazilians" →
    *Brazil*, "peruvian" → *Peru*, "japanese" → *Japan*): the longest of STEM_LETTERS or
    more that begins it and leaves at most DERIVED_ENDING letters; None if none does."""
    for cut in range(len(word) - 1, STEM_LETTERS - 1, -1):
        if len(word) - cut > DERIVED_ENDING:
            break
        if word[:cut] in lookup.names:
            return word[:cut]
    return None


_STUDENT = re.compile(r"(olog)ists?$")  # "gastroenterologist": one who studies the field


def studied_field(lookup: Lookup, word: str) -> str | None:
    """The one-word title of the field a word names one who studies ("geologists" →
    *Geology*, "gastroenterologist" → *Gastroenterology*), which no stemmer joins to it;
    None for another word or a field with no entry here."""
    field = _STUDENT.sub(r"\1y", word) if _STUDENT.search(word) else None
    return field if field is not None and field in lookup.names else None


def _written_as_name(cased: list[str], content: set[int]) -> bool:
    """Whether every content word at ``content`` starts upper-case and one of them is not
    the text's first word (whose capital says nothing)."""
    return any(i > 0 for i in content) and all(cased[i][:1].isupper() for i in content)


def linked_titles(conn: sqlite3.Connection, lookup: Lookup, text: str, own: list[str]) -> list[str]:
    """The titles (and headings) of other entries that ``text`` names, like a wiki page's
    outgoing links: the longest n-gram at each place that is a name here, in any case
    ('a diet of bamboo' links *Bamboo*), kept when its words are specific to few passages
    (as in :func:`named_ranking`) or the text writes it as a name (capitalised, not as a
    sentence's first word: 'spread to China'); the entry's own names (``own``) are left
    out.

    Args:
        conn: the index connection (for word idf).
        lookup: the open index's in-memory tables.
        text: the hit's text.
        own: the hit's own title and heading.
    """
    skip = {name_key(t) for t in own} | {name_key(TITLE_QUALIFIER.sub("", t)) for t in own}
    flat = unicodedata.normalize("NFKC", text)
    found = list(_WORD.finditer(flat))
    # A possessive names its owner: "Einstein's theory" links *Albert Einstein*.
    tokens = [m.group().casefold().removesuffix("'s").removesuffix("’s") for m in found]
    # A capital after the start or a sentence's end says nothing.
    ends = [0, *(m.end() for m in found)]
    capital = [
        m.group()[:1].isupper() and i > 0 and _SENTENCE_END.search(flat, ends[i], m.start()) is None
        for i, m in enumerate(found)
    ]
    context = set(tokens)
    links: dict[str, None] = {}
    i = 0
    while i < len(tokens) and len(links) < MAX_LINKS:
        size = _name_at(conn, lookup, tokens, capital, i)
        if size:
            key = " ".join(tokens[i : i + size])
            label = lookup.labels.get(key, key)
            if key not in skip and _sense_fits(key, label, context):
                links.setdefault(label)
        i += size or 1
    return list(links)


def _sense_fits(key: str, label: str, context: set[str]) -> bool:
    """Whether the text may mean the entry: an entry titled with a qualifier ('Bark
    (botany)', 'Don (river)') is one sense of its name, linked only when the text uses
    a word of the qualifier too; without it 'bark' or 'a pen' would link any sense."""
    qualifier = TITLE_QUALIFIER.search(label)
    if qualifier is None or key == name_key(label):
        return True
    words = set(name_key(qualifier.group()).split()) - match_query.STOPWORDS
    return bool(words & context)


def _name_at(
    conn: sqlite3.Connection, lookup: Lookup, tokens: list[str], capital: list[bool], i: int
) -> int:
    """How many tokens from ``tokens[i]`` make the longest name here that is specific or
    written capitalised (0: none)."""
    longest = lookup.starts.get(tokens[i], 0) if lookup.starts else MAX_NAME_WORDS
    for size in range(min(longest, MAX_NAME_WORDS, len(tokens) - i), 0, -1):
        key = " ".join(tokens[i : i + size])
        if key not in lookup.names:
            continue
        words = [j for j in range(i, i + size) if tokens[j] not in match_query.STOPWORDS]
        # The whole capitalised run, not a word of a longer one ('School' in 'Case School').
        alone = not (i > 0 and capital[i - 1]) and not (i + size < len(tokens) and capital[i + size])  # fmt: skip
        if words and alone and all(capital[j] for j in words):
            return size
        if sum(lookup.idf(conn, tokens[j]) for j in words) >= SPECIFIC_NAME:
            return size
    return 0


def fuse(rankings: list[tuple[float, list[int]]]) -> dict[int, float]:
    """Weighted reciprocal rank fusion: passage id to summed ``weight / (RRF_K + rank)``.

    Args:
        rankings: (weight, passage ids best first) per ranking.
    """
    fused: dict[int, float] = {}
    for weight, ranking in rankings:
        for rank, pid in enumerate(ranking, 1):
            fused[pid] = fused.get(pid, 0.0) + weight / (RRF_K + rank)
    return fused
