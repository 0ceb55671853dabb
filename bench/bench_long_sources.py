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
from deepresearch.providers.base import LLMRequest
from deepresearch.testing import FunctionLLM
from deepresearch.testing.long_documents import PagedSearch


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
        max_sources_per_query=30,  # the plan has two sub-queries: 60 sources
        plan_scout_results=0,
        enable_clarification=False,
        persist=False,
        research_archive_dir=Path(tempfile.mkdtemp()),
    )
    session = dr.Session("How did the printing press change Europe?", llm=llm,
                         search=PagedSearch(60), config=config, store=None)  # fmt: skip
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
