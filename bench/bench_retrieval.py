"""Single-shot retrieval recall on an eval set: gold titles among the corpus's top k hits
for the question alone, for the fusion's variants (lexical only, + dense, + names).

    python bench/bench_retrieval.py --set dev2 [--only odd]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "eval")]

from run_eval import load_questions, norm, resolve_set, select  # noqa: E402

from deepresearch.providers import corpus  # noqa: E402
from deepresearch.providers.demo import demo_corpus  # noqa: E402

KS = (5, 10, 20)
VARIANTS = {
    "bm25": (1.0, 0.0, 0.0),
    "bm25+dense": (corpus.LEXICAL_WEIGHT, corpus.DENSE_WEIGHT, 0.0),
    "bm25+names": (corpus.LEXICAL_WEIGHT, 0.0, corpus.NAMED_WEIGHT),
    "hybrid (default)": (corpus.LEXICAL_WEIGHT, corpus.DENSE_WEIGHT, corpus.NAMED_WEIGHT),
}


async def recall(search: corpus.CorpusSearch, questions: list[dict[str, object]]) -> list[float]:
    totals = [0.0] * len(KS)
    for q in questions:
        hits = await search.search(str(q["question"]), max_results=max(KS))
        titles = [norm(h.title) for h in hits]
        gold = [norm(str(g)) for g in q["gold_titles"]]  # type: ignore[attr-defined]
        for i, k in enumerate(KS):
            totals[i] += sum(g in titles[:k] for g in gold) / len(gold)
    return [t / len(questions) for t in totals]


async def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--set", default="dev2")
    p.add_argument("--only", choices=["odd", "even"])
    args = p.parse_args()
    questions = select(load_questions(resolve_set(args.set)), args.only)
    search = demo_corpus()
    await search.search("warm up", max_results=1)
    types = sorted({str(q.get("type", "all")) for q in questions})
    for name, (lex, dense, named) in VARIANTS.items():
        corpus.LEXICAL_WEIGHT, corpus.DENSE_WEIGHT, corpus.NAMED_WEIGHT = lex, dense, named
        started = time.perf_counter()
        figures = {"all": await recall(search, questions)}
        for t in types if len(types) > 1 else []:
            figures[t] = await recall(search, [q for q in questions if q.get("type") == t])
        ms = (time.perf_counter() - started) * 1000 / len(questions) / (1 + len(types))
        cells = "  ".join(f"{g} " + "/".join(f"{r:.2f}" for r in v) for g, v in figures.items())
        print(f"{name:<18} {cells}  ({ms:.1f} ms/query)")


if __name__ == "__main__":
    asyncio.run(main())
