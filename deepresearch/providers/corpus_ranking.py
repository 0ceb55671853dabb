"""How the local corpus ranks passages besides BM25: dense similarity, entity linking
against titles and headings, and the weighted reciprocal rank fusion of the rankings."""

from __future__ import annotations

import sqlite3

import numpy as np

from deepresearch.providers import readers, vectors
from deepresearch.providers.corpus_index import Lookup, name_key

RRF_K = 60  # rank r scores weight / (RRF_K + r)
POOL = 100  # candidates taken from each ranking before fusion
# Cosine below which a passage is not a dense candidate: a static embedding puts every
# text somewhere near every query, and a search should not return what merely exists.
DENSE_FLOOR = 0.3
# A name counts as linked only when its words are rare enough here (sum of their idf):
# 'Theory' or 'City' name entries too, but nearly every text uses those words.
SPECIFIC_NAME = 4.6  # log(100): one word found in at most ~1% of passages
MAX_NAME_WORDS = 6


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
    when their words are specific to few passages, most specific first.

    Args:
        conn: the index connection (for word idf).
        lookup: the open index's in-memory tables.
        query: the search query.
    """
    tokens = name_key(query).split()
    content = {i for i, w in enumerate(tokens) if w not in readers.STOPWORDS}
    found: list[tuple[float, int, list[int]]] = []
    used: set[int] = set()
    for size in range(min(MAX_NAME_WORDS, len(tokens)), 0, -1):
        for i in range(len(tokens) - size + 1):
            span = set(range(i, i + size))
            key = " ".join(tokens[i : i + size])
            if span & used or key not in lookup.names:
                continue
            words = [w for w in key.split() if w not in readers.STOPWORDS]
            specificity = sum(lookup.idf(conn, w) for w in words)
            # A query that is a title ('Christianity') names it, however common its words.
            whole = bool(content) and content <= span
            if words and (specificity >= SPECIFIC_NAME or whole):
                found.append((specificity, i, lookup.names[key]))
                used |= span
    ranking: list[int] = []
    for _, _, pids in sorted(found, key=lambda f: (-f[0], f[1])):
        ranking += [p for p in pids if p not in ranking]
    return ranking


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
