"""What the MCP tools do, as plain async methods over Session and the session store.

No research logic lives here: each method builds a Session (or reads the store) and
returns JSON-ready data. Errors are the package's typed errors; the server turns them
into MCP tool errors.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from deepresearch.config import Config
from deepresearch.errors import InputError
from deepresearch.providers.registry import build_search
from deepresearch.session import Session
from deepresearch.state import ResearchState
from deepresearch.store import SessionStore, export_json, export_markdown

Progress = Callable[[str], None]


class ResearchService:
    """Sessions started over MCP, and the saved ones in the store."""

    def __init__(self, config: Config, store: SessionStore | None = None) -> None:
        self.config = config
        self.store = store or SessionStore(config.resolved_store_path())
        self.running: dict[str, tuple[Session, asyncio.Task[Any]]] = {}

    def __repr__(self) -> str:
        return f"ResearchService(store={self.store.path}, running={len(self.running)})"

    def _session(
        self,
        question: str,
        *,
        llm: str | None,
        search: list[str] | None,
        max_iterations: int | None,
        progress: Progress | None = None,
    ) -> Session:
        config = self.config.merged(llm=llm, search=search, max_iterations=max_iterations)
        return Session(question, config=config, store=self.store, progress=progress)

    async def research(
        self,
        question: str,
        *,
        llm: str | None = None,
        search: list[str] | None = None,
        max_iterations: int | None = None,
        progress: Progress | None = None,
    ) -> dict[str, Any]:
        """Research ``question`` to the end; its report view.

        Args:
            question: what to research.
            llm: a model spec for this session.
            search: search providers for this session.
            max_iterations: research iterations.
            progress: receives progress lines.
        """
        session = self._session(
            question, llm=llm, search=search, max_iterations=max_iterations, progress=progress
        )
        await session.run()
        return report_view(session.state)

    async def start(
        self,
        question: str,
        *,
        llm: str | None = None,
        search: list[str] | None = None,
        max_iterations: int | None = None,
    ) -> dict[str, Any]:
        """Start researching ``question`` in the background; its session id.

        Args:
            question: what to research.
            llm: a model spec for this session.
            search: search providers for this session.
            max_iterations: research iterations.
        """
        session = self._session(question, llm=llm, search=search, max_iterations=max_iterations)
        task = asyncio.get_running_loop().create_task(session.run())
        self.running[session.id] = (session, task)
        return {"session_id": session.id, "status": "running"}

    def state(self, session_id: str) -> ResearchState:
        """A session's state: the running one's, else the stored one.

        Args:
            session_id: the session.
        """
        if session_id in self.running:
            return self.running[session_id][0].state
        return self.store.load(session_id)

    def status(self, session_id: str) -> dict[str, Any]:
        """Where a session stands: running or not, status, phase, counts and error.

        Args:
            session_id: the session.
        """
        state = self.state(session_id)
        entry = self.running.get(session_id)
        running = entry is not None and not entry[1].done()
        error = state.error
        if entry is not None and entry[1].done() and not entry[1].cancelled():
            exc = entry[1].exception()
            if exc is not None:
                error = f"{type(exc).__name__}: {exc}"
        return {
            "session_id": state.id,
            "question": state.question,
            "running": running,
            "status": state.status.value,
            "phase": state.phase.value,
            "iteration": state.iteration,
            "sources": len(state.sources),
            "findings": len(state.findings),
            "claims": claim_counts(state),
            "has_report": state.report is not None,
            "error": error,
        }

    def report(self, session_id: str) -> dict[str, Any]:
        """A session's report view; InputError while it has none.

        Args:
            session_id: the session.
        """
        state = self.state(session_id)
        if state.report is None:
            raise InputError(
                f"Session {session_id} has no report yet (phase {state.phase.value}, status "
                f"{state.status.value}); poll research_status until it completes."
            )
        return report_view(state)

    async def search(
        self, query: str, *, max_results: int = 5, search: list[str] | None = None
    ) -> list[dict[str, Any]]:
        """One search with the configured providers (or ``search``), without a session.

        Args:
            query: the search query.
            max_results: how many hits.
            search: search providers to use instead of the configured ones.
        """
        if not query.strip():
            raise InputError("The search query is empty.")
        provider = build_search(self.config.merged(search=search))
        hits = await provider.search(query, max_results=max_results)
        return [
            {"title": h.title, "url": h.url, "snippet": h.snippet or h.content[:300]} for h in hits
        ]

    def sessions(self, limit: int = 20) -> list[dict[str, Any]]:
        """The stored sessions, newest first.

        Args:
            limit: the most to list.
        """
        return [s.model_dump(mode="json") for s in self.store.list()[:limit]]

    def export(self, session_id: str, fmt: Literal["markdown", "json"] = "markdown") -> str:
        """A session as Markdown or JSON.

        Args:
            session_id: the session.
            fmt: ``markdown`` or ``json``.
        """
        state = self.state(session_id)
        return export_markdown(state) if fmt == "markdown" else export_json(state)

    async def close(self) -> None:
        """Cancel runs still going (they are checkpointed and can be resumed)."""
        for session, task in self.running.values():
            if not task.done():
                session.cancel()
        tasks = [t for _, t in self.running.values()]
        await asyncio.gather(*tasks, return_exceptions=True)


def claim_counts(state: ResearchState) -> dict[str, int]:
    """How many of the report's claims verification gave each status.

    Args:
        state: the session's state.
    """
    counts: dict[str, int] = {}
    for c in state.claims:
        counts[c.status.value] = counts.get(c.status.value, 0) + 1
    return counts


def report_view(state: ResearchState) -> dict[str, Any]:
    """A session's outcome as a tool returns it: status, the report, its sources, claims."""
    report = state.report
    sources = []
    if report is not None:
        for n, sid in enumerate(report.cited_source_ids, 1):
            src = state.source(sid)
            if src is not None:
                sources.append({"number": n, "title": src.title, "url": src.url})
    return {
        "session_id": state.id,
        "status": state.status.value,
        "error": state.error,
        "report": report.markdown if report is not None else None,
        "sources": sources,
        "claims": claim_counts(state),
    }
