"""Evaluate the offline defaults on eval/dev.jsonl: gold-article citation recall and fact
recall (case-insensitive, after Unicode NFKC), against plain BM25 top-10 on the question.

    python eval/run_eval.py                      # defaults
    python eval/run_eval.py --no-summarization --no-compression   # issue 6 comparison
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
import unicodedata
from pathlib import Path

import deepresearch as dr
from deepresearch.providers.demo import demo_corpus

HERE = Path(__file__).resolve().parent


def norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def load_questions(path: Path | None) -> list[dict[str, object]]:
    for candidate in [
        path,
        HERE / "dev.jsonl",
        HERE.parent.parent / "shared" / "eval" / "dev.jsonl",
    ]:
        if candidate is not None and candidate.is_file():
            return [json.loads(line) for line in candidate.read_text().splitlines() if line.strip()]
    raise SystemExit("dev.jsonl not found; pass --questions PATH")


async def evaluate(args: argparse.Namespace) -> dict[str, object]:
    questions = load_questions(args.questions)
    search = demo_corpus()
    config = dr.Config(
        llm="offline",
        search=["demo"],
        persist=False,
        max_iterations=args.max_iterations,
        fetch_time_summarization=not args.no_summarization,
        enable_compression=not args.no_compression,
        inline_compression=not args.no_compression,
    )
    rows = []
    for q in questions:
        gold = [norm(t) for t in q["gold_titles"]]  # type: ignore[union-attr]
        facts = [norm(f) for f in q["facts"]]  # type: ignore[union-attr]
        baseline = await search.search(str(q["question"]), max_results=10)
        base_titles = {norm(h.title) for h in baseline}
        started = time.perf_counter()
        session = dr.Session(str(q["question"]), config=config, search=search)
        await session.run()
        seconds = time.perf_counter() - started
        state = session.state
        report = state.report.markdown if state.report else ""
        cited = {
            norm(s.title)
            for s in state.sources
            if state.report and s.id in state.report.cited_source_ids
        }
        rows.append(
            {
                "id": q["id"],
                "citation_recall": sum(g in cited for g in gold) / len(gold),
                "fact_recall": sum(f in norm(report) for f in facts) / len(facts),
                "bm25_top10_recall": sum(g in base_titles for g in gold) / len(gold),
                "missing_titles": [g for g in gold if g not in cited],
                "missing_facts": [f for f in facts if f not in norm(report)],
                "seconds": round(seconds, 3),
                "input_tokens": sum(u.input_tokens for u in state.usage),
                "output_tokens": sum(u.output_tokens for u in state.usage),
                "llm_calls": len(state.usage),
                "searches": sum(m.search_calls for m in state.metrics),
                "sources": len(state.sources),
                "cited": len(state.report.cited_source_ids) if state.report else 0,
                "iterations": state.iteration,
            }
        )

    def mean(key: str) -> float:
        return round(statistics.mean(float(r[key]) for r in rows), 3)  # type: ignore[arg-type]

    return {
        "questions": len(rows),
        "citation_recall": mean("citation_recall"),
        "fact_recall": mean("fact_recall"),
        "bm25_top10_recall": mean("bm25_top10_recall"),
        "median_seconds": round(statistics.median(float(r["seconds"]) for r in rows), 3),  # type: ignore[arg-type]
        "total_input_tokens": sum(int(r["input_tokens"]) for r in rows),  # type: ignore[call-overload]
        "total_output_tokens": sum(int(r["output_tokens"]) for r in rows),  # type: ignore[call-overload]
        "total_searches": sum(int(r["searches"]) for r in rows),  # type: ignore[call-overload]
        "rows": rows,
    }


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--questions", type=Path)
    p.add_argument("--max-iterations", type=int, default=3)
    p.add_argument("--no-summarization", action="store_true")
    p.add_argument("--no-compression", action="store_true")
    p.add_argument("--json", type=Path, help="also write the full results here")
    args = p.parse_args()
    result = asyncio.run(evaluate(args))
    for r in result["rows"]:  # type: ignore[union-attr]
        print(
            f"{r['id']}: citations {r['citation_recall']:.2f} facts {r['fact_recall']:.2f} "
            f"bm25 {r['bm25_top10_recall']:.2f} {r['seconds']:.2f}s "
            f"missing {r['missing_titles'] + r['missing_facts']}"
        )
    summary = {k: v for k, v in result.items() if k != "rows"}
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
