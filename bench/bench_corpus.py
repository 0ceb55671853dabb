"""Demo corpus speed: cold index build, warm reuse, and search latency over the dev questions.

Run:  python bench/bench_corpus.py [--rounds 5] [--questions eval/dev.jsonl]

Prints one figure per line; docs/corpus.md quotes them. Needs the ``demo`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from deepresearch.providers.corpus import CorpusSearch
from deepresearch.providers.demo import demo_corpus

DEFAULT_QUESTIONS = next(
    (
        path
        for path in (
            Path(__file__).parents[1] / "eval" / "dev.jsonl",
            Path("/work/shared/eval/dev.jsonl"),
        )
        if path.is_file()
    ),
    Path("eval/dev.jsonl"),
)


def load_questions(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


async def search_latencies(corpus: CorpusSearch, questions: list[str], rounds: int) -> list[float]:
    latencies: list[float] = []
    for _ in range(rounds):
        for question in questions:
            start = time.perf_counter()
            await corpus.search(question, max_results=10)
            latencies.append(time.perf_counter() - start)
    return latencies


async def concurrent_batch(corpus: CorpusSearch, questions: list[str]) -> float:
    """Wall time of all questions searched at once, as five topic researchers would."""
    start = time.perf_counter()
    await asyncio.gather(*(corpus.search(q, max_results=10) for q in questions))
    return time.perf_counter() - start


def recall_at_10(corpus: CorpusSearch, items: list[dict[str, Any]]) -> tuple[float, float]:
    """(share of all gold titles found in the top 10, mean of the per-question shares)."""
    found, total, per_question = 0, 0, []
    for item in items:
        gold = set(item["gold_titles"])
        hits = asyncio.run(corpus.search(item["question"], max_results=10))
        hit_gold = len(gold & {hit.title for hit in hits})
        found, total = found + hit_gold, total + len(gold)
        per_question.append(hit_gold / len(gold))
    return found / total, statistics.mean(per_question)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="search rounds over all questions")
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    args = parser.parse_args()
    items = load_questions(args.questions)
    questions = [str(item["question"]) for item in items]

    with tempfile.TemporaryDirectory() as index_dir:
        corpus = demo_corpus(index_dir=Path(index_dir))
        start = time.perf_counter()
        stats = corpus.index()
        cold = time.perf_counter() - start
        size_mb = corpus.index_file.stat().st_size / 1e6
        corpus.close()

        start = time.perf_counter()
        warm_corpus = demo_corpus(index_dir=Path(index_dir))
        warm_corpus.index()
        warm = time.perf_counter() - start

        latencies = asyncio.run(search_latencies(warm_corpus, questions, args.rounds))
        batch = asyncio.run(concurrent_batch(warm_corpus, questions))
        recall, recall_mean = recall_at_10(warm_corpus, items)
        warm_corpus.close()

    print(f"demo articles indexed        {stats.added}")
    print(f"index file size              {size_mb:.1f} MB")
    print(f"cold index build             {cold:.2f} s")
    print(f"warm open (index reused)     {warm * 1000:.1f} ms")
    print(f"search latency median        {statistics.median(latencies) * 1000:.2f} ms")
    print(f"search latency p95           {_p95(latencies) * 1000:.2f} ms")
    print(f"{len(questions)} searches at once{'':10}{batch * 1000:.1f} ms")
    print(f"top-10 recall, all titles    {recall:.3f} ({len(items)} questions)")
    print(f"top-10 recall, per question  {recall_mean:.3f}")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


if __name__ == "__main__":
    main()
