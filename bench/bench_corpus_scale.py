"""Corpus scale: index N synthetic short documents, then time queries.

    python bench/bench_corpus_scale.py --docs 100000 [--queries 200] [--no-vectors]

Documents are generated at run time (nothing is stored in the repository): a title of two
or three "names" and 40–80 words drawn from a 20,000-word Zipf-like vocabulary, so term
statistics look like text. Reports build time, index file size, and search latency
p50/p95 through ``CorpusSearch`` (the same hybrid retrieval sessions use). With the
``vectors`` extra installed, passages are also embedded unless ``--no-vectors``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deepresearch.providers import vectors
from deepresearch.providers.corpus import CorpusSearch

VOCABULARY = 20_000
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
    rng = random.Random(seed)
    words = [word(i) for i in range(VOCABULARY)]
    weights = [1.0 / (rank + 1) for rank in range(VOCABULARY)]  # Zipf, s = 1
    for i in range(count):
        title = " ".join(w.capitalize() for w in rng.choices(words[2000:], k=rng.randint(2, 3)))
        body = " ".join(rng.choices(words, weights=weights, k=rng.randint(40, 80)))
        yield {"url": f"synthetic://doc/{i}", "title": f"{title} {i}", "text": body + "."}


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
    stats = search.index()
    build_s = time.perf_counter() - started
    timings = []
    for q in queries(n_queries):
        t = time.perf_counter()
        await search.search(q, max_results=5)
        timings.append(time.perf_counter() - t)
    search.close()
    timings.sort()
    size = sum(p.stat().st_size for p in folder.iterdir())
    return {
        "docs": n_docs,
        "indexed": stats.added,
        "dense_vectors": use_vectors and vectors.available(),
        "build_s": round(build_s, 1),
        "docs_per_s": round(n_docs / build_s),
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
