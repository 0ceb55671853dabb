"""Cost of the sanitizer and of secret scrubbing on large inputs (figures in docs/security.md).

python bench/bench_sanitize.py
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable

from deepresearch.redaction import scrub_secrets
from deepresearch.render import report_html, report_markdown
from deepresearch.state import Citation, Report


def timed(name: str, action: Callable[[], object], repeat: int = 3) -> None:
    started = time.perf_counter()
    for _ in range(repeat):
        action()
    print(f"{name}: {(time.perf_counter() - started) / repeat * 1000:.0f} ms")


def main() -> None:
    os.environ.setdefault("OPENAI_API_KEY", "sk-proj-abcDEF123ghiJKL456mnoPQR789")
    text = "The printing press changed Europe [1]. Literacy spread widely across cities [2]. "
    text *= 2000
    citations = [
        Citation(number=n, source_id=f"src-{n}", title=f"Title {n}", url=f"https://e.org/{n}")
        for n in range(1, 50)
    ]
    report = Report(markdown=text, citations=citations)
    state_json = json.dumps({"sources": [text] * 5})
    print(f"report {len(text) // 1000} KB, state {len(state_json) // 1000} KB")
    timed("report_markdown", lambda: report_markdown(report))
    timed("report_html", lambda: report_html(report))
    timed("scrub_secrets", lambda: scrub_secrets(state_json))


if __name__ == "__main__":
    main()
