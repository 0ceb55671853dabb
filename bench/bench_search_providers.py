"""What merged search costs: reciprocal rank fusion alone, and one search through the
real providers against loopback servers (HTTP round trips, parsing, fusion).

    python bench/bench_search_providers.py [--repeat 20]

Loopback servers answer in microseconds, so the second figure is this package's own
overhead per search; real APIs add their network latency (hundreds of ms) on top.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

import deepresearch as dr
from deepresearch.providers.base import SearchHit
from deepresearch.providers.merged import fuse
from deepresearch.providers.registry import build_search
from deepresearch.testing.search_servers import (
    ArxivServer,
    CrossrefServer,
    OpenAlexServer,
    SemanticScholarServer,
)

DATA = Path(__file__).resolve().parent.parent / "tests" / "providers" / "data"
PAPERS = json.loads((DATA / "literature.json").read_text())["papers"]


def fusion_lists(n: int) -> list[tuple[str, list[SearchHit]]]:
    """Three providers' rankings of n hits each, half of them shared by DOI."""
    lists = []
    for p in range(3):
        hits = [
            SearchHit(
                url=f"https://p{p}.example.org/{i}",
                title=f"Paper number {i} about attention and translation",
                doi=f"10.1000/{i}" if i % 2 == 0 else None,
            )
            for i in range(n)
        ]
        lists.append((f"p{p}", hits))
    return lists


def time_fusion(repeat: int) -> float:
    lists = fusion_lists(100)
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fuse(lists)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


async def time_merged_search(repeat: int) -> dict[str, float]:
    servers = [
        SemanticScholarServer(PAPERS),
        OpenAlexServer(PAPERS),
        CrossrefServer(PAPERS),
        ArxivServer(PAPERS),
    ]
    for server in servers:
        server.start()
    try:
        s2, openalex, crossref, arxiv = (s.base_url for s in servers)
        config = dr.Config(
            semantic_scholar_base_url=s2,
            openalex_base_url=openalex,
            crossref_base_url=crossref,
            arxiv_base_url=arxiv,
            provider_requests_per_minute=600_000,
        )
        figures = {}
        for names in (["openalex"], ["openalex", "semantic_scholar", "crossref", "arxiv"]):
            search = build_search(config.merged(search=names, search_mode="merge"), {})
            await search.search("warm up attention", max_results=5)
            runs = []
            for _ in range(repeat):
                started = time.perf_counter()
                await search.search("attention machine translation", max_results=10)
                runs.append(time.perf_counter() - started)
            figures["+".join(names)] = statistics.median(runs)
        return figures
    finally:
        for server in servers:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"fuse 3 x 100 hits: median {time_fusion(args.repeat) * 1000:.2f} ms")
    for names, seconds in asyncio.run(time_merged_search(args.repeat)).items():
        print(f"one search via {names} (loopback): median {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
