"""Session: the notebook and script façade over state, workflow and store."""

from __future__ import annotations

import asyncio
import os
import re
import threading
import warnings
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from deepresearch.config import Config
from deepresearch.context import CancelToken, NullEvents, Progress, RunContext
from deepresearch.errors import InputError
from deepresearch.llm import ModelRouter
from deepresearch.phases import PhaseReport
from deepresearch.providers.base import LLMProvider, SearchProvider
from deepresearch.providers.registry import (
    SEARCH_NAMES,
    build_llm,
    build_search,
    cheap_spec_for,
    resolve_llm_spec,
)
from deepresearch.state import Phase, Report, ResearchState, RunStatus
from deepresearch.state.models import FINISHED_STATUSES
from deepresearch.urls import UrlPolicy
from deepresearch.workflow.hooks import Hook
from deepresearch.workflow.loop import Workflow

if TYPE_CHECKING:
    import pandas as pd

    from deepresearch.store import SessionStore

T = TypeVar("T")


class RunResult(BaseModel):
    """What run() and resume() return: how the run ended, and the report if there is one."""

    session_id: str
    status: RunStatus
    phase: Phase
    iteration: int
    report: Report | None = None
    error: str | None = None
    # One line per degraded or failed phase run (empty for a clean run).
    warnings: list[str] = []

    @property
    def ok(self) -> bool:
        """True only for a clean, complete run (not for ``completed_with_warnings``)."""
        return self.status == RunStatus.COMPLETED

    def __repr__(self) -> str:
        extra = f", error={self.error!r}" if self.error else ""
        return (
            f"RunResult(session_id={self.session_id!r}, status={self.status.value}, "
            f"phase={self.phase.value}, iteration={self.iteration}{extra})"
        )


_SURROGATES = re.compile("[\ud800-\udfff]")


def validate_question(question: object, config: Config) -> str:
    """The question as text with whitespace collapsed, or an InputError saying what to do."""
    if isinstance(question, bytes | bytearray):
        raise InputError(
            f"The question is {type(question).__name__}, not text. Decode it first, e.g. "
            "question.decode('utf-8')."
        )
    if not isinstance(question, str):
        raise InputError(
            f"The question must be a str, not {type(question).__name__} ({question!r:.40})."
        )
    if not question.strip():
        raise InputError(
            "The research question is empty. Pass a question, e.g. 'How does X work?'."
        )
    # Lone surrogates (undecodable bytes from a terminal) cannot be saved or sent as UTF-8.
    text = " ".join(_SURROGATES.sub("\ufffd", question).split())
    if len(text) > config.max_question_chars:
        raise InputError(
            f"The question is {len(text)} characters; the limit is {config.max_question_chars}. "
            "Shorten it, or put background material in a corpus folder (--corpus) and ask "
            "about it, or raise Config.max_question_chars."
        )
    return text


class Session:
    """One research question, run as a whole loop or one phase at a time.

    Configuration follows one rule, highest first: the keyword arguments below and
    ``**overrides`` (any :class:`Config` field) > fields explicitly set on ``config`` >
    ``DEEPRESEARCH_*`` environment > ``deepresearch.toml`` > defaults.

    Args:
        question: what to research (not needed with ``state=``; see :meth:`load`).
        llm: a model spec (``"offline"``, ``"openai:gpt-4.1-mini"``, ...) or an LLMProvider.
        search: ``"demo"``, ``"corpus"``, ``"tavily"``, ``"auto"``, a list of them (tried in
            order), a folder of your documents, or a SearchProvider.
        config: a :class:`Config`; only the fields you set on it override the lower layers.
        hooks: think-pause hooks called after each phase (see :class:`Steer`).
        corpus: a folder of your documents for the ``corpus`` search provider.
        max_iterations: research iterations (refinement rounds + 1).
        max_sub_queries: how many sub-queries the planner may write.
        enable_clarification: ask (or skip) a clarifying question first.
        persist: save the session, checkpoints and events to the store (default True).
        store: where to save: a SessionStore or a path (default ``Config.store_path``).
        progress: a callable receiving one-line progress messages.
        state: resume from a ResearchState instead of a question.
        **overrides: any other Config field, e.g. ``max_sources_per_query=3``.
    """

    def __init__(
        self,
        question: str | None = None,
        *,
        llm: str | LLMProvider | None = None,
        search: str | list[str] | os.PathLike[str] | SearchProvider | None = None,
        config: Config | None = None,
        hooks: list[Hook] | None = None,
        corpus: str | os.PathLike[str] | None = None,
        max_iterations: int | None = None,
        max_sub_queries: int | None = None,
        enable_clarification: bool | None = None,
        persist: bool | None = None,
        store: SessionStore | str | os.PathLike[str] | bool | None = None,
        progress: Progress | None = None,
        state: ResearchState | None = None,
        **overrides: Any,
    ) -> None:
        if isinstance(store, bool):
            warnings.warn(
                "Session(store=True/False) is deprecated; use persist=True/False.",
                DeprecationWarning,
                stacklevel=2,
            )
            persist, store = (store if persist is None else persist), None
        explicit: dict[str, Any] = {
            "corpus": corpus,
            "max_iterations": max_iterations,
            "max_sub_queries": max_sub_queries,
            "enable_clarification": enable_clarification,
            "persist": persist,
            **overrides,
        }
        if isinstance(llm, str):
            explicit["llm"] = llm
        if isinstance(search, os.PathLike) or (
            isinstance(search, str) and search not in SEARCH_NAMES and os.path.isdir(search)
        ):
            folder = Path(search).expanduser()
            if not folder.is_dir():
                raise InputError(
                    f"search={str(search)!r} is not a folder. Pass a folder of documents, "
                    "or a search name: 'auto', 'corpus', 'demo', 'tavily'."
                )
            explicit.update(corpus=folder, search=["corpus"])
        elif isinstance(search, str | list):
            explicit["search"] = [search] if isinstance(search, str) else search
        base = Config.layered(config, **explicit)
        self.config = base
        self.hooks: list[Hook] = list(hooks or [])
        self.progress = progress
        self._llm = llm if isinstance(llm, LLMProvider) else None
        self._search = search if isinstance(search, SearchProvider) else None
        self.store = _open_store(store, base)
        if state is None:
            if question is None:
                raise InputError("Session needs a question (or use Session.load(id)).")
            state = ResearchState(
                question=validate_question(question, base), max_iterations=base.max_iterations
            )
        self.state = state
        self._cancel = CancelToken()
        self._ctx: RunContext | None = None
        self._task: asyncio.Task[RunResult] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    # -- construction -----------------------------------------------------------------
    @classmethod
    def load(
        cls,
        session_id: str,
        *,
        store: SessionStore | str | os.PathLike[str] | None = None,
        config: Config | None = None,
        **kwargs: Any,
    ) -> Session:
        """Reopen a saved session (to read it, or to :meth:`resume` it).

        ``store`` defaults to the configured store; other keyword arguments are as for
        :class:`Session` (e.g. ``hooks=``, ``progress=``). Raises SessionNotFoundError.
        """
        from deepresearch.store import SessionStore

        if isinstance(store, SessionStore):
            opened = store
        else:
            path = store if store is not None else Config.layered(config).resolved_store_path()
            opened = SessionStore(Path(path).expanduser())
        state = opened.load(session_id)
        return cls(state=state, store=opened, config=config, **kwargs)

    def _context(self) -> RunContext:
        if self._ctx is None:
            cfg = self.config
            spec = resolve_llm_spec(cfg)
            default = self._llm or build_llm(spec, cfg)

            def factory(s: str) -> LLMProvider:
                return build_llm(s, cfg)

            router = ModelRouter(cfg, default, factory, cheap_spec_for)
            search = self._search or build_search(cfg)
            self.state.llm, self.state.search = default.name, search.name
            budget = None
            if cfg.token_management_enabled:
                from deepresearch.budget.allocator import TokenBudget

                budget = TokenBudget(cfg)
            store = self.store

            async def checkpoint(state: ResearchState) -> None:
                if store is not None:
                    store.save(state)
                    store.emit(state, "checkpoint", {"phase": state.phase.value})

            self._ctx = RunContext(
                config=cfg,
                models=router,
                search=search,
                events=store if store is not None else NullEvents(),
                checkpoint=checkpoint,
                cancel=self._cancel,
                progress=self.progress,
                budget=budget,
                urls=UrlPolicy(allow_private=cfg.allow_private_urls),
            )
        return self._ctx

    # -- running ----------------------------------------------------------------------
    async def run(self) -> RunResult:
        """Run the whole loop from where the state is."""
        self._bind()
        ctx = self._context()
        if self.store is not None:
            self.store.save(self.state)
        await Workflow(ctx, self.hooks).run(self.state)
        return self.result()

    async def resume(self) -> RunResult:
        """Continue a cancelled, timed-out, failed, stopped or crashed run."""
        if self.state.status in FINISHED_STATUSES:
            return self.result()
        self._cancel.reset()
        self.state.error = None
        ctx = self._context()
        ctx.events.emit(self.state, "resumed", {"phase": self.state.phase.value})
        return await self.run()

    def run_sync(self) -> RunResult:
        """Blocking run() for scripts — also inside a running notebook (via nest-asyncio)."""
        return run_sync(self.run())

    def start(self) -> asyncio.Task[RunResult]:
        """Run in the background on the current event loop (e.g. while a widget steers it)."""
        self._task = asyncio.get_running_loop().create_task(self.run())
        return self._task

    def cancel(self) -> None:
        """Stop at the next safe point; safe to call from any thread or task."""
        self._cancel.cancel()
        task, loop = self._task, self._loop
        if task is not None and loop is not None and not task.done():
            loop.call_soon_threadsafe(task.cancel)

    def _bind(self) -> None:
        self._loop = asyncio.get_running_loop()
        current = asyncio.current_task()
        if current is not None:
            self._task = current

    def result(self) -> RunResult:
        s = self.state
        return RunResult(
            session_id=s.id, status=s.status, phase=s.phase, iteration=s.iteration,
            report=s.report, error=s.error, warnings=s.run_warnings(),
        )  # fmt: skip

    # -- one phase at a time --------------------------------------------------------------
    async def _phase(self, phase: Phase) -> PhaseReport | None:
        self._bind()
        ctx = self._context()
        if self.store is not None:
            self.store.save(self.state)
        return await Workflow(ctx, self.hooks).step(self.state, phase)

    async def clarify(self) -> PhaseReport | None:
        return await self._phase(Phase.CLARIFICATION)

    async def brief(self) -> PhaseReport | None:
        return await self._phase(Phase.BRIEF)

    async def plan(self) -> PhaseReport | None:
        return await self._phase(Phase.PLANNING)

    async def gather(self) -> PhaseReport | None:
        return await self._phase(Phase.GATHERING)

    async def supervise(self) -> PhaseReport | None:
        return await self._phase(Phase.SUPERVISION)

    async def analyze(self) -> PhaseReport | None:
        return await self._phase(Phase.ANALYSIS)

    async def synthesize(self) -> PhaseReport | None:
        return await self._phase(Phase.SYNTHESIS)

    async def refine(self) -> PhaseReport | None:
        return await self._phase(Phase.REFINEMENT)

    async def next(self) -> PhaseReport | None:
        """Run whichever phase the loop would run next."""
        return await self._phase(self.state.phase) if self.state.phase != Phase.DONE else None

    def answer(self, text: str) -> None:
        """Answer the clarifying question before running the next phase."""
        if self.state.clarification is None:
            raise InputError("There is no clarifying question to answer; run clarify() first.")
        self.state.clarification.answer = text.strip()

    # -- looking at it ----------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.state.id

    @property
    def question(self) -> str:
        return self.state.question

    @property
    def status(self) -> RunStatus:
        return self.state.status

    @property
    def report(self) -> Report | None:
        return self.state.report

    @property
    def sources(self) -> pd.DataFrame:
        from deepresearch.notebook.frames import sources_frame

        return sources_frame(self.state)

    @property
    def findings(self) -> pd.DataFrame:
        from deepresearch.notebook.frames import findings_frame

        return findings_frame(self.state)

    @property
    def gaps(self) -> pd.DataFrame:
        from deepresearch.notebook.frames import gaps_frame

        return gaps_frame(self.state)

    @property
    def sub_queries(self) -> pd.DataFrame:
        from deepresearch.notebook.frames import sub_queries_frame

        return sub_queries_frame(self.state)

    @property
    def decisions(self) -> pd.DataFrame:
        from deepresearch.notebook.frames import decisions_frame

        return decisions_frame(self.state)

    @property
    def metrics(self) -> pd.DataFrame:
        from deepresearch.notebook.frames import metrics_frame

        return metrics_frame(self.state)

    @property
    def usage(self) -> pd.DataFrame:
        from deepresearch.notebook.frames import usage_frame

        return usage_frame(self.state)

    @property
    def events(self) -> pd.DataFrame:
        """The audit trail from the store."""
        if self.store is None:
            raise InputError("This session has no store; pass store=... to keep an audit trail.")
        return self.store.events_frame(self.id)

    def finding_sources(self, finding_id: str) -> pd.DataFrame:
        from deepresearch.notebook.frames import finding_sources

        return finding_sources(self.state, finding_id)

    def __repr__(self) -> str:
        q = self.state.question
        q = q if len(q) <= 60 else q[:57] + "..."
        return (
            f"Session(id={self.id!r}, question={q!r}, status={self.status.value}, "
            f"phase={self.state.phase.value}, sources={len(self.state.sources)}, "
            f"findings={len(self.state.findings)})"
        )

    def _repr_html_(self) -> str:
        from deepresearch.notebook.display import session_html

        return session_html(self)

    def _repr_markdown_(self) -> str | None:
        from deepresearch.notebook.display import report_markdown

        return report_markdown(self.state) if self.state.report else None


def _open_store(store: Any, config: Config) -> SessionStore | None:
    from deepresearch.store import SessionStore

    if not config.persist:
        return None
    if store is None:
        return SessionStore(config.resolved_store_path())
    if isinstance(store, SessionStore):
        return store
    if isinstance(store, str | os.PathLike):
        return SessionStore(Path(store).expanduser())
    raise InputError(
        f"store must be a SessionStore or a path, not {type(store).__name__}; "
        "use persist=False to keep nothing."
    )


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion from sync code, even inside a running event loop
    (Jupyter), by making that loop re-entrant with nest-asyncio."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    import nest_asyncio

    nest_asyncio.apply(loop)
    return loop.run_until_complete(coro)


async def research(
    question: str,
    *,
    llm: str | LLMProvider | None = None,
    search: str | list[str] | os.PathLike[str] | SearchProvider | None = None,
    config: Config | None = None,
    hooks: list[Hook] | None = None,
    corpus: str | os.PathLike[str] | None = None,
    max_iterations: int | None = None,
    max_sub_queries: int | None = None,
    enable_clarification: bool | None = None,
    persist: bool | None = None,
    store: SessionStore | str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    **overrides: Any,
) -> Report | None:
    """One call: run a whole research session and return its report (None if the run
    stopped before synthesis). The arguments are those of :class:`Session`."""
    session = Session(
        question, llm=llm, search=search, config=config, hooks=hooks, corpus=corpus,
        max_iterations=max_iterations, max_sub_queries=max_sub_queries,
        enable_clarification=enable_clarification, persist=persist, store=store,
        progress=progress, **overrides,
    )  # fmt: skip
    await session.run()
    return session.report
