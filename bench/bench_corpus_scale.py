"""Corpus scale: index N synthetic short documents, then time queries.

    python bench/bench_corpus_scale.py --docs 100000 [--queries 200] [--no-vectors]

Documents are generated at run time (nothing is stored in the repository): a title of two
or three "names" and 40–80 words drawn from a 20,000-word Zipf-like vocabulary, so term
statistics look like text. Reports build time (and apart, the part of it spent generating
the records), index file size, the first query (which loads titles and vectors into
memory) and search latency p50/p95 over the next queries through ``CorpusSearch`` (the
same hybrid retrieval sessions use). With the ``vectors`` extra installed, passages are
also embedded unless ``--no-vectors``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from deepresearch.providers import vectors
from deepresearch.providers.corpus import CorpusSearch

VOCABULARY = 20_000
GENERATE_BLOCK = 10_000
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "ba", "de", "fi", "go", "hu"]


def word(n: int) -> str:
    """A pronounceable, unique word for rank n (base-14 syllables)."""
    parts = []
    n += 14  # at least two syllables
    while n:
        n, r = divmod(n, len(SYLLABLES))
        parts.append(SYLLABLES[r])
    return "".join(parts)


def documents(count: int, seed: int = 7) -> Iterator[dict[str, Any]]:
    """Records drawn with numpy a block at a time: ``random.choices`` with weights rebuilt
    its cumulative table per call and took most of the old bench's "build" time."""
    rng = np.random.default_rng(seed)
    words = np.array([word(i) for i in range(VOCABULARY)], dtype=object)
    zipf = 1.0 / np.arange(1, VOCABULARY + 1)  # Zipf, s = 1
    zipf /= zipf.sum()
    names = np.array([w.capitalize() for w in words[2000:]], dtype=object)
    for start in range(0, count, GENERATE_BLOCK):
        n = min(GENERATE_BLOCK, count - start)
        body_len, title_len = rng.integers(40, 81, size=n), rng.integers(2, 4, size=n)
        body = words[rng.choice(VOCABULARY, size=int(body_len.sum()), p=zipf)]
        title = names[rng.integers(0, len(names), size=int(title_len.sum()))]
        b = t = 0
        for i in range(n):
            text = " ".join(body[b : b + body_len[i]])
            name = " ".join(title[t : t + title_len[i]])
            b, t = b + body_len[i], t + title_len[i]
            doc = start + i
            yield {"url": f"synthetic://doc/{doc}", "title": f"{name} {doc}", "text": text + "."}


def queries(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    words = [word(i) for i in range(VOCABULARY)]
    return [" ".join(rng.choices(words[50:5000], k=rng.randint(2, 4))) for _ in range(count)]


async def main(n_docs: int, n_queries: int, use_vectors: bool) -> dict[str, Any]:
    if not use_vectors:
        vectors.load_embedder = lambda: None  # type: ignore[assignment]
    folder = Path(tempfile.mkdtemp(prefix="corpus-scale-"))
    index = folder / "index.db"
    search = CorpusSearch.from_records(
        documents(n_docs), index_path=index, name="synthetic", fingerprint=f"synthetic-{n_docs}"
    )
    started = time.perf_counter()
    for _ in documents(n_docs):  # generation alone, to tell it apart from indexing
        pass
    generate_s = time.perf_counter() - started
    started = time.perf_counter()
    stats = search.index()
    build_s = time.perf_counter() - started
    first = time.perf_counter()
    await search.search("warm up", max_results=5)  # loads names and the vector matrix once
    first_query_s = time.perf_counter() - first
    timings = []
    for q in queries(n_queries):
        t = time.perf_counter()
        await search.search(q, max_results=5)
        timings.append(time.perf_counter() - t)
    search.close()
    timings.sort()
    size = sum(p.stat().st_size for p in folder.iterdir())
    shutil.rmtree(folder)  # a 1M index is gigabytes
    return {
        "docs": n_docs,
        "indexed": stats.added,
        "dense_vectors": use_vectors and vectors.available(),
        "build_s": round(build_s, 1),
        "generate_s": round(generate_s, 1),
        "index_s": round(build_s - generate_s, 1),
        "docs_per_s": round(n_docs / (build_s - generate_s)),
        "first_query_s": round(first_query_s, 1),
        "index_mb": round(size / 1e6, 1),
        "query_p50_ms": round(statistics.median(timings) * 1000, 1),
        "query_p95_ms": round(timings[int(len(timings) * 0.95) - 1] * 1000, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--docs", type=int, default=100_000)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--no-vectors", action="store_true")
    args = p.parse_args()
    print(json.dumps(asyncio.run(main(args.docs, args.queries, not args.no_vectors))))
