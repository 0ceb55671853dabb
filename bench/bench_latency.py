"""Latency: how many sequential model/search round trips one research run takes.

    python bench/bench_latency.py                      # 3 dev questions, 200 ms per request
    python bench/bench_latency.py --questions 5 --latency 0.1 --json

Each question runs one session at default settings with the real ``openai`` and
``tavily-python`` clients against the package's loopback servers
(deepresearch.testing.vendor_servers), which answer every request after a fixed
``--latency``. The search server holds the demo corpus's top articles for the questions
(the ``demo`` extra), so pages are real Wikipedia summaries of realistic length.

Per question it prints: LLM and search requests, prompt and completion tokens (estimated
from the request and answer text, 4 characters a token — the loopback server's usage
figures are fixed), wall time, *sequential round trips* (wall ÷ latency), the *critical
path* — the longest chain of requests in which each started after the previous one was
answered, computed from the servers' request timeline: the least number of round trips
this run's schedule needs, whatever the local compute — and the most requests in flight.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import deepresearch as dr
from deepresearch.budget.tokens import estimate_tokens
from deepresearch.testing.timeline import critical_chain, most_in_flight
from deepresearch.testing.vendor_servers import OpenAIServer, RecordedRequest, TavilyServer
from deepresearch.testing.vendor_servers.base import JSON
from deepresearch.testing.vendor_servers.roles import output_name, role_answer

ROOT = Path(__file__).resolve().parents[1]


def dev_questions(count: int) -> list[str]:
    dev = ROOT / "eval" / "dev.jsonl"
    if not dev.is_file():
        dev = ROOT.parent / "shared" / "eval" / "dev.jsonl"
    rows = [json.loads(line) for line in dev.read_text().splitlines() if line.strip()]
    return [str(r["question"]) for r in rows[:count]]


def corpus_documents(questions: list[str], per_question: int) -> list[JSON]:
    """The demo corpus's best articles for each question: what the search server holds."""
    from deepresearch.providers.demo import demo_corpus

    search = demo_corpus()

    async def hits() -> list[JSON]:
        docs: dict[str, JSON] = {}
        for q in questions:
            for h in await search.search(q, max_results=per_question):
                docs.setdefault(h.url, {"url": h.url, "title": h.title, "content": h.content})
        return list(docs.values())

    return asyncio.run(hits())


@dataclass
class Figures:
    question: str
    status: str
    llm_requests: int
    search_requests: int
    prompt_tokens: int
    completion_tokens: int
    wall_s: float
    round_trips: float
    critical_path: int
    llm_in_flight: int
    sub_queries: int
    sources: int
    chain: list[str]


def label(request: RecordedRequest) -> str:
    """What a request on the critical chain was: the output type or the search call."""
    if "messages" in request.json:
        return output_name(request.json) or "chat"
    return request.path.strip("/")


async def run_one(
    question: str, docs: list[JSON], latency: float, store: Path, knobs: dict[str, Any]
) -> Figures:
    answered: list[int] = []

    def answer(schema: str, prompt: str) -> JSON:
        data = role_answer(schema, prompt)
        answered.append(estimate_tokens(json.dumps(data)))
        return data

    llm = OpenAIServer(answer=answer, latency_s=latency, max_lifetime_s=900)
    search = TavilyServer(docs, latency_s=latency, max_lifetime_s=900)
    with llm, search:
        config = dr.Config.build(
            {
                "store_path": str(store),
                "openai_base_url": llm.base_url,
                "tavily_base_url": search.base_url,
                **knobs,
            }
        )
        session = dr.Session(question, llm="openai:gpt-4.1-mini", search="tavily", config=config)
        started = time.perf_counter()
        await session.run()
        wall = time.perf_counter() - started
    chain = critical_chain(llm.requests + search.requests)
    prompts = [
        "\n".join(str(m.get("content", "")) for m in r.json.get("messages", []))
        for r in llm.requests
    ]
    return Figures(
        question=question,
        status=session.state.status.value,
        llm_requests=len(llm.requests),
        search_requests=len(search.requests),
        prompt_tokens=sum(estimate_tokens(p) for p in prompts),
        completion_tokens=sum(answered),
        wall_s=round(wall, 2),
        round_trips=round(wall / latency, 1),
        critical_path=len(chain),
        llm_in_flight=most_in_flight(llm.requests),
        sub_queries=len(session.state.sub_queries),
        sources=len(session.state.sources),
        chain=[label(r) for r in chain],
    )


def table(rows: list[Figures]) -> str:
    head = (
        "| question | LLM req | search req | prompt tok | completion tok | wall s "
        "| round trips | critical path | LLM in flight |"
    )
    lines = [head, "|" + "---|" * 9]
    for f in rows:
        lines.append(
            f"| {f.question[:48]} | {f.llm_requests} | {f.search_requests} | {f.prompt_tokens} "
            f"| {f.completion_tokens} | {f.wall_s} | {f.round_trips} | {f.critical_path} "
            f"| {f.llm_in_flight} |"
        )
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--questions", type=int, default=3, help="the first N dev questions")
    p.add_argument("--latency", type=float, default=0.2, help="seconds per request")
    p.add_argument("--docs-per-question", type=int, default=25)
    p.add_argument(
        "--raw-content",
        action="store_true",
        help="tavily_include_raw_content=true: whole pages come back and are summarized",
    )
    p.add_argument("--json", action="store_true", help="one JSON line per question")
    a = p.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key-0000")
    os.environ.setdefault("TAVILY_API_KEY", "tvly-bench-not-a-real-key-0000")
    questions = dev_questions(a.questions)
    docs = corpus_documents(questions, a.docs_per_question)
    store = Path(tempfile.mkdtemp(prefix="bench-latency-")) / "sessions.db"
    knobs = {"tavily_include_raw_content": True} if a.raw_content else {}

    async def run_all() -> list[Figures]:
        # One event loop for every session, so vendor clients close on the loop they used.
        return [await run_one(q, docs, a.latency, store, knobs) for q in questions]

    rows = asyncio.run(run_all())
    if a.json:
        for f in rows:
            print(json.dumps(f.__dict__))
        return
    print(
        f"latency {a.latency:g} s per request, {len(docs)} documents on the search server, "
        f"settings: defaults{' + ' + str(knobs) if knobs else ''}"
    )
    print(table(rows))
    print(f"statuses: {sorted({f.status for f in rows})}")
    print("critical path of the first question: " + " → ".join(rows[0].chain))


if __name__ == "__main__":
    main()
