"""Median wall time and peak memory of a whole offline run over the demo corpus.

    python bench/bench_run.py [--repeat 5]

The demo index is built once before timing (its cold build is in bench/bench_corpus.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
import tracemalloc
from pathlib import Path

import deepresearch as dr
from deepresearch.providers.demo import demo_corpus

QUESTIONS = [
    json.loads(line)["question"]
    for line in (Path(__file__).resolve().parent.parent / "eval" / "dev.jsonl").read_text().splitlines()
    if line.strip()
]


async def one(question: str, search: dr.SearchProvider) -> float:
    started = time.perf_counter()
    await dr.Session(question, llm="offline", search=search, store=False).run()
    return time.perf_counter() - started


async def main(repeat: int) -> None:
    search = demo_corpus()
    await search.search("warm up", max_results=1)
    times = []
    tracemalloc.start()
    for _ in range(repeat):
        for q in QUESTIONS:
            times.append(await one(q, search))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(json.dumps({
        "runs": len(times),
        "median_s": round(statistics.median(times), 3),
        "p90_s": round(sorted(times)[int(len(times) * 0.9) - 1], 3),
        "max_s": round(max(times), 3),
        "peak_python_mem_mb": round(peak / 2**20, 1),
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    asyncio.run(main(p.parse_args().repeat))
