"""A budgeted run: 60 sources of ~3,000 words through a model with an 8k window.

    python bench/bench_long_sources.py [--repeat 3] [--context 8000]

Reports wall time, LLM calls, the largest prompt, summarization calls made by the
budget, the report's fidelity, and peak RSS. The offline engine stands in for the model.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import tempfile
import time
from pathlib import Path

import deepresearch as dr
from deepresearch.budget import count_tokens
from deepresearch.providers.base import LLMRequest, SearchHit
from deepresearch.testing import FunctionLLM

ASPECTS = ("literacy", "religion", "science", "trade", "politics", "language")


def document(i: int, words: int = 3000) -> SearchHit:
    aspect = ASPECTS[i % len(ASPECTS)]
    sentences: list[str] = []
    n = 0
    while sum(len(s.split()) for s in sentences) < words:
        sentences.append(
            f"Record {i}.{n}: in {1450 + (i * 7 + n) % 150} the press changed {aspect} "
            f"in city {n % 13}, where workshop {i * 97 + n} printed {100 + 7 * n} copies."
        )
        n += 1
    return SearchHit(
        url=f"https://example.org/press/{i}",
        title=f"Printing press and {aspect} in Europe, study {i}",
        snippet=sentences[0],
        content=" ".join(sentences),
    )


class Pages:
    name = "bench:pages"

    def __init__(self) -> None:
        self.docs = [document(i) for i in range(60)]
        self.cursor = 0

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        page = self.docs[self.cursor : self.cursor + max_results]
        self.cursor += len(page)
        return [d.model_copy() for d in page]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        return [d.model_copy() for d in self.docs if d.url in set(urls)]


async def one(context: int) -> dict[str, float]:
    """One whole run; the documents are templated, so the findings count means little."""
    sizes: list[int] = []

    def record(request: LLMRequest) -> None:
        sizes.append(count_tokens(request.system) + count_tokens(request.user))

    llm = FunctionLLM(name="test:bench", check=record)
    config = dr.Config(
        llm="test:bench",
        model_context_overrides={"offline": context, "test:bench": context},
        runtime_overhead=500,
        max_iterations=1,
        max_sub_queries=6,
        max_sources_per_query=20,
        plan_scout_results=0,
        enable_clarification=False,
        persist=False,
        research_archive_dir=Path(tempfile.mkdtemp()),
    )
    session = dr.Session("How did the printing press change Europe?", llm=llm,
                         search=Pages(), config=config, store=None)  # fmt: skip
    started = time.perf_counter()
    await session.run()
    elapsed = time.perf_counter() - started
    report = session.report
    return {
        "seconds": elapsed,
        "llm_calls": len(sizes),
        "largest_prompt_tokens": max(sizes),
        "fidelity": report.fidelity if report and report.fidelity is not None else 1.0,
    }


async def main(repeat: int, context: int) -> None:
    runs = [await one(context) for _ in range(repeat)]
    last = runs[-1]
    print(json.dumps({
        "context_tokens": context,
        "runs": repeat,
        "median_s": round(statistics.median(r["seconds"] for r in runs), 3),
        "llm_calls": last["llm_calls"],
        "largest_prompt_tokens": last["largest_prompt_tokens"],
        "report_fidelity": last["fidelity"],
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--context", type=int, default=8000)
    args = p.parse_args()
    asyncio.run(main(args.repeat, args.context))
