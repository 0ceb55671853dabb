"""Batches: wall time, questions per second, peak RSS and store size; and the shared limiter.

    python bench/bench_batch.py inprocess  --questions 200 --concurrency 8
    python bench/bench_batch.py ray        --questions 200 --concurrency 8 --cpus 2
    python bench/bench_batch.py throughput --questions 100      # 100 sessions at once
    python bench/bench_batch.py ratelimit  --questions 8 --rps 8 --latency 0.2
    python bench/bench_batch.py list       --sessions 1000      # SessionStore.list() time

Offline modes use the offline engine over the demo corpus (the ``demo`` extra). Questions
are the dev questions (eval/dev.jsonl) repeated with a variant suffix up to ``--questions``,
so every one is a distinct session. Peak RSS is this process's (for Ray: the driver's;
workers are separate processes). Store size is the SQLite file after a WAL checkpoint.

``ratelimit`` runs loopback OpenAI-style and Tavily-style servers, in a process of their
own as a real server is, that answer after ``--latency`` seconds and refuse (HTTP 429)
requests beyond ``--rps`` per second (a token bucket, burst 2); it runs the batch without
and with ``limits=`` set to that rate and counts the 429s the servers sent.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import deepresearch as dr

ROOT = Path(__file__).resolve().parents[1]


def questions(count: int) -> list[str]:
    dev = ROOT / "eval" / "dev.jsonl"
    if not dev.is_file():
        dev = ROOT.parent / "shared" / "eval" / "dev.jsonl"
    base = [json.loads(line)["question"] for line in dev.read_text().splitlines() if line.strip()]
    out = []
    for i in range(count):
        q = base[i % len(base)]
        out.append(q if i < len(base) else f"{q.rstrip('?')} (variant {i // len(base)})?")
    return out


def store_mb(path: Path) -> float:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return round(path.stat().st_size / 1e6, 1)


def rss_mb() -> int:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def figures(result: dr.BatchResult, store: Path, n: int) -> dict[str, Any]:
    return {
        "questions": n,
        "counts": result.counts,
        "wall_s": round(result.seconds, 1),
        "questions_per_s": round(n / result.seconds, 2),
        "peak_rss_mb": rss_mb(),
        "store_mb": store_mb(store),
        "store_mb_per_session": round(store_mb(store) / n, 3),
    }


def offline(mode: str, n: int, concurrency: int, cpus: int) -> dict[str, Any]:
    from deepresearch.providers.demo import demo_corpus

    store = Path(tempfile.mkdtemp(prefix="bench-batch-")) / "sessions.db"
    qs = questions(n)
    if mode == "ray":
        import ray

        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})  # fmt: skip
        kwargs: dict[str, Any] = {"backend": "ray", "search": "demo"}
    else:
        search = demo_corpus()
        asyncio.run(search.search("warm up", max_results=1))  # build the index untimed
        kwargs = {"search": search}
    result = dr.research_many_sync(
        qs, concurrency=concurrency, llm="offline", store=store, progress=False, **kwargs
    )
    return {"mode": mode, "concurrency": concurrency, **figures(result, store, n)}


def list_speed(sessions: int) -> dict[str, Any]:
    from deepresearch.state import ResearchState

    store_path = Path(tempfile.mkdtemp(prefix="bench-list-")) / "sessions.db"
    with dr.SessionStore(store_path) as store:
        for i in range(sessions):
            store.save(ResearchState(question=f"Question number {i}?"))
        timings = []
        for _ in range(5):
            started = time.perf_counter()
            rows = store.list()
            timings.append(time.perf_counter() - started)
    return {"mode": "list", "sessions": len(rows), "list_s_best_of_5": round(min(timings), 4)}


class TokenBucket:
    """The servers' rate limit: ``rate`` requests per second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float = 2.0) -> None:
        self.rate, self.burst, self.tokens = rate, burst, burst
        self.stamp = time.monotonic()
        self.lock = threading.Lock()
        self.refused = 0

    def take(self) -> bool:
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= 1:
                self.tokens -= 1
                return True
            self.refused += 1
            return False


def serve_rate_limited(conn: Any, rps: float, latency: float) -> None:
    """In a process of its own (as a real server is): loopback OpenAI-style and Tavily-style
    servers that refuse requests beyond ``rps`` per second. Sends their base URLs, waits
    for "stop", sends back the request and refusal counts."""
    from deepresearch.testing.vendor_servers import base
    from deepresearch.testing.vendor_servers.openai_chat import OpenAIServer, openai_error
    from deepresearch.testing.vendor_servers.tavily_search import TavilyServer, tavily_error

    docs = [
        {"url": f"https://example.org/{i}", "title": f"Page {i}",
         "content": f"Printing in Europe, fact {i}: presses spread after 1450 across cities."}
        for i in range(30)
    ]  # fmt: skip
    llm_bucket, search_bucket = TokenBucket(rps), TokenBucket(rps)
    openai = OpenAIServer(max_lifetime_s=900)
    tavily = TavilyServer(docs, max_lifetime_s=900)

    def limited(server: base.VendorServer, bucket: TokenBucket, error: Any) -> None:
        plain = server.default_reply

        def reply(request: base.RecordedRequest) -> base.Reply:
            if not bucket.take():
                return error(latency)
            answer = plain(request)
            answer.delay_s = latency
            return answer

        server.default_reply = reply  # type: ignore[method-assign]

    limited(openai, llm_bucket,
            lambda d: openai_error(429, "Rate limit reached", type="rate_limit_exceeded",
                                   code="rate_limit_exceeded", retry_after=1, delay_s=d))  # fmt: skip
    limited(tavily, search_bucket, lambda d: tavily_error(429, "Too many requests", delay_s=d))
    with openai, tavily:
        conn.send((openai.base_url, tavily.base_url))
        conn.recv()
        conn.send({
            "llm_requests": len(openai.requests),
            "search_requests": len(tavily.requests),
            "rate_limit_errors_429": llm_bucket.refused + search_bucket.refused,
        })  # fmt: skip


def rate_limited(n: int, rps: float, latency: float, share: float) -> dict[str, Any]:
    runs = {}
    for label, use_limits in (("no limits", False), (f"limits = {share:g} x server rate", True)):
        ours, theirs = multiprocessing.Pipe()
        server = multiprocessing.get_context("spawn").Process(
            target=serve_rate_limited, args=(theirs, rps, latency), daemon=True
        )
        server.start()
        openai_url, tavily_url = ours.recv()
        os.environ["OPENAI_API_KEY"] = "sk-bench-not-a-real-key-0000"
        os.environ["TAVILY_API_KEY"] = "tvly-bench-not-a-real-key-0000"
        rpm = rps * 60 * share
        limits = {"openai": {"requests_per_minute": rpm}, "tavily": {"requests_per_minute": rpm}}
        store = Path(tempfile.mkdtemp(prefix="bench-rl-")) / "s.db"
        result = dr.research_many_sync(
            questions(n), concurrency=n, llm="openai:gpt-4.1-mini", search="tavily",
            openai_base_url=openai_url, tavily_base_url=tavily_url,
            limits=limits if use_limits else None, store=store, progress=False,
            retry_base_delay_s=0.2,
        )  # fmt: skip
        ours.send("stop")
        served = ours.recv()
        server.join()
        spent = result.spent
        runs[label] = {
            "counts": result.counts,
            "wall_s": round(result.seconds, 1),
            **served,
            "429s_met_by_the_batch": sum(s.get("rate_limited", 0) for s in spent.values()),
        }
    return {"mode": "ratelimit", "questions": n, "server_rps": rps, "latency_s": latency, **runs}


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=("inprocess", "ray", "throughput", "ratelimit", "list"))
    p.add_argument("--questions", type=int, default=200)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--cpus", type=int, default=2)
    p.add_argument("--rps", type=float, default=8.0)
    p.add_argument("--latency", type=float, default=0.2)
    p.add_argument("--limit-share", type=float, default=1.0, help="limits= as a share of --rps")
    p.add_argument("--sessions", type=int, default=1000)
    a = p.parse_args()
    if a.mode == "throughput":
        out = offline("inprocess", a.questions, a.questions, a.cpus)
        out["mode"] = "throughput"
    elif a.mode == "ratelimit":
        out = rate_limited(a.questions, a.rps, a.latency, a.limit_share)
    elif a.mode == "list":
        out = list_speed(a.sessions)
    else:
        out = offline(a.mode, a.questions, a.concurrency, a.cpus)
    print(json.dumps(out))
