"""Median wall time and peak memory of a whole offline run over the demo corpus.

    python bench/bench_run.py [--repeat 5]

The demo index is built once before timing (its cold build is in bench/bench_corpus.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import time
import tracemalloc
from pathlib import Path

import deepresearch as dr
from deepresearch.providers.demo import demo_corpus

QUESTIONS = [
    json.loads(line)["question"]
    for line in (Path(__file__).resolve().parent.parent / "eval" / "dev.jsonl")
    .read_text()
    .splitlines()
    if line.strip()
]


async def one(question: str, search: dr.SearchProvider) -> float:
    started = time.perf_counter()
    await dr.Session(question, llm="offline", search=search, persist=False).run()
    return time.perf_counter() - started


async def main(repeat: int) -> None:
    search = demo_corpus()
    await search.search("warm up", max_results=1)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Timing pass without tracemalloc: tracing every allocation slows Python down.
    times = [await one(q, search) for _ in range(repeat) for q in QUESTIONS]
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Memory pass: the Python heap's high-water mark over one run of each question.
    tracemalloc.start()
    for q in QUESTIONS:
        await one(q, search)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(json.dumps({
        "runs": len(times),
        "median_s": round(statistics.median(times), 3),
        "p90_s": round(sorted(times)[int(len(times) * 0.9) - 1], 3),
        "max_s": round(max(times), 3),
        "peak_python_heap_mb": round(peak / 2**20, 1),
        # ru_maxrss is in KiB on Linux: the process's high-water mark, imports included.
        "peak_rss_mb_after_index": round(rss_before / 1024, 1),
        "peak_rss_mb_after_runs": round(rss_after / 1024, 1),
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    asyncio.run(main(p.parse_args().repeat))
