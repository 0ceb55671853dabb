"""Session: the notebook and script façade over state, workflow and store."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from deepresearch.ceiling_report import report_within_budget
from deepresearch.config import Config
from deepresearch.config_overrides import ConfigOverrides
from deepresearch.context import CancelToken, NullEvents, Progress, RunContext
from deepresearch.cost_guard import COST_LIMIT_PREFIX
from deepresearch.errors import BlockingRunError, InputError, SessionNotFoundError
from deepresearch.interrupts import cancel_on_interrupt
from deepresearch.llm import ModelRouter
from deepresearch.phase_order import check_phase_inputs
from deepresearch.phases import PhaseReport
from deepresearch.providers.base import LLMProvider, SearchProvider
from deepresearch.providers.registry import (
    build_llm,
    build_search,
    cheap_spec_for,
    resolve_llm_spec,
    search_names,
)
from deepresearch.providers.shared_limits import ProviderWrapper
from deepresearch.run_result import RunResult, validate_arguments, validate_question
from deepresearch.session_steps import PhaseSteps
from deepresearch.session_views import SessionViews
from deepresearch.state import (
    EventKind,
    Phase,
    ResearchState,
    RunStatus,
)
from deepresearch.state.models import FINISHED_STATUSES
from deepresearch.store.guard import GuardedStore
from deepresearch.store.sqlite import open_store
from deepresearch.stream import Listener, RunEvent, TeeEvents, run_events
from deepresearch.sync import run_sync
from deepresearch.urls import UrlPolicy
from deepresearch.workflow.hooks import Hook
from deepresearch.workflow.loop import STOPPING as _STOPPED
from deepresearch.workflow.loop import Workflow
from deepresearch.workflow.recipe import check_rebuildable, recipe_for, recorded_config

if TYPE_CHECKING:
    from deepresearch.store import SessionStore


class Session(PhaseSteps, SessionViews):
    """One research question, run as a whole loop or one phase at a time.

    Example::

        s = dr.Session("How did the printing press change Europe?", llm="offline")
        await s.run()                # the whole loop; or one phase at a time:
        await s.clarify(); await s.brief(); await s.plan()
        df = s.sub_queries           # edit the plan, then hand it back
        await s.gather(sub_queries=df)
        await s.supervise(); await s.analyze(); await s.synthesize(); await s.refine()
        s.report.save("report.html") # also .md, .json, .bib, .csl.json

    ``s.sources``, ``s.findings``, ``s.gaps``, ``s.sub_queries``, ``s.decisions``,
    ``s.metrics``, ``s.claims``, ``s.usage`` are DataFrames; each returns a copy, so
    editing one changes nothing until you hand it back (:meth:`set_sub_queries`).
    ``s.run_sync()`` runs the loop from a script; ``s.stream()`` yields typed events.

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
        provider_wrapper: wraps every provider the session builds (``research_many``
            passes its shared rate limiter and budget this way).
        **overrides: any other Config field, typed for IDEs (``ConfigOverrides``), e.g.
            ``max_sources_per_query=3``; docs/configuration.md lists them all.
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
        provider_wrapper: ProviderWrapper | None = None,
        **overrides: Unpack[ConfigOverrides],
    ) -> None:
        validate_arguments(llm, search, config, hooks, progress)
        if isinstance(store, bool):
            warnings.warn(
                "Session(store=True/False) is deprecated; use persist=True/False.",
                DeprecationWarning,
                stacklevel=2,
            )
            persist, store = (store if persist is None else persist), None
        explicit: dict[str, Any] = {
            "corpus": corpus, "max_iterations": max_iterations,
            "max_sub_queries": max_sub_queries, "enable_clarification": enable_clarification,
            "persist": persist, **overrides,
        }  # fmt: skip
        base = Config.layered(config, **(explicit | _provider_keys(llm, search)))
        self.config = base
        self.hooks: list[Hook] = list(hooks or [])
        self.progress = progress
        self._llm = llm if isinstance(llm, LLMProvider) else None
        self._search = search if isinstance(search, SearchProvider) else None
        # A batch routes every provider through its shared rate limiter and budget.
        self._wrapper = provider_wrapper
        self.store = open_store(store, base)
        self._saver = GuardedStore(self.store, progress) if self.store is not None else None
        if state is None:
            if question is None:
                raise InputError("Session needs a question (or use Session.load(id)).")
            state = ResearchState(
                question=validate_question(question, base), max_iterations=base.loop.max_iterations
            )
        self.state = state
        self._cancel = CancelToken()
        self._ctx: RunContext | None = None
        self._task: asyncio.Task[RunResult] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listeners: list[Listener] = []

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

        Args:
            session_id: the id ``deepresearch list`` or ``s.id`` shows.
            store: a SessionStore or a path; default the configured store.
            config: as for :class:`Session`.
            **kwargs: other :class:`Session` arguments (e.g. ``hooks=``, ``progress=``).

        Raises:
            SessionNotFoundError: the store has no such session, or there is no store
                at that path (none is created).
        """
        from deepresearch.store import SessionStore

        if isinstance(store, SessionStore):
            opened = store
        else:
            path = Path(
                store if store is not None else Config.layered(config).resolved_store_path()
            ).expanduser()
            if not path.exists():
                # Opening would create an empty store (a mistyped path); the id is not in it.
                raise SessionNotFoundError(
                    f"No session {session_id!r}: there is no store at {path}. Pass the store "
                    "it was saved in (store=..., --store FILE)."
                )
            opened = SessionStore(path)
        state = opened.load(session_id)
        if config is None and state.recipe is not None and state.recipe.config:
            config = recorded_config(state.recipe)  # resume as it ran: corpus, search, models
        return cls(state=state, store=opened, config=config, **kwargs)

    def _context(self) -> RunContext:
        if self._ctx is None:
            cfg = self.config
            check_rebuildable(self.state, self._llm is not None, self._search is not None)
            spec = resolve_llm_spec(cfg)
            default = self._llm or build_llm(spec, cfg)
            wrap = self._wrapper

            def factory(s: str) -> LLMProvider:
                built = build_llm(s, cfg)
                return wrap.llm(built) if wrap is not None else built

            search = self._search or build_search(cfg)
            if wrap is not None:
                default, search = wrap.llm(default), wrap.search(search)
            router = ModelRouter(cfg, default, factory, cheap_spec_for)
            self.state.llm, self.state.search = default.name, search.name
            self.state.recipe = recipe_for(
                cfg, default.name, search.name, self._llm is not None, self._search is not None
            )
            budget = None
            if cfg.tokens.token_management_enabled:
                from deepresearch.budget.allocator import TokenBudget

                budget = TokenBudget(cfg)
                budget.stated_windows.update(self.state.stated_windows)
            saver = self._saver

            async def checkpoint(state: ResearchState) -> None:
                if saver is not None:
                    saver.save(state)
                    saver.emit(state, EventKind.CHECKPOINT, {"phase": state.phase.value})

            self._ctx = RunContext(
                config=cfg,
                models=router,
                search=search,
                events=TeeEvents(saver if saver is not None else NullEvents(), self._listeners),
                checkpoint=checkpoint,
                cancel=self._cancel,
                progress=self.progress,
                budget=budget,
                urls=UrlPolicy(allow_private=cfg.pages.allow_private_urls),
            )
        return self._ctx

    # -- running ----------------------------------------------------------------------
    async def run(self) -> RunResult:
        """Run the whole loop from where the state is: every remaining phase, supervision
        rounds and refinement iterations, pausing for the hooks after each phase. A run
        that already finished returns its result unchanged."""
        if self.state.phase == Phase.DONE:
            return self.result()
        async with self._lease():  # SessionBusyError while another live run holds it
            return await self._run_held()

    def _lease(self) -> AbstractAsyncContextManager[None]:
        """This session's lease in the store (pid + heartbeat), held while it runs."""
        from deepresearch.store.lease import holding

        return holding(self.store, self.state.id)

    async def _run_held(self) -> RunResult:
        self._bind()
        ctx = self._context()
        if self._saver is not None:
            self._saver.save(self.state)
        with self._watching():
            await Workflow(ctx, self.hooks).run(self.state)
            if (self.state.error or "").startswith(COST_LIMIT_PREFIX) and not self.state.report:
                await report_within_budget(self.state, ctx)
            if self._saver is not None:
                self._saver.finish(self.state)
        return self.result()

    @contextlib.contextmanager
    def _watching(self) -> Iterator[None]:
        """Kernel › Interrupt cancels the run (see :mod:`deepresearch.interrupts`); however
        it ends, the progress reporter and the hooks hear how."""
        with cancel_on_interrupt(self.cancel) as watch:
            try:
                yield
            finally:
                self._announce_end(interrupted=watch.interrupted)

    def _announce_end(self, *, interrupted: bool) -> None:
        state = self.state
        if state.status == RunStatus.CANCELLED and self.progress is not None:
            self.progress(f"cancelled during {state.phase.value}: {self._resume_hint()}")
        if interrupted:
            print(_interrupted_message(state, self._resume_hint()), file=sys.stderr, flush=True)
        if state.status in _STOPPED or state.phase == Phase.DONE:
            for hook in self.hooks:
                finished = getattr(hook, "run_finished", None)
                if callable(finished):
                    finished(state)

    async def resume(self) -> RunResult:
        """Continue a cancelled, timed-out, failed, stopped, interrupted or crashed run.
        Raises SessionBusyError while another live run holds the session."""
        if self.state.status in FINISHED_STATUSES or self.state.phase == Phase.DONE:
            return self.result()
        async with self._lease():
            self._cancel.reset()
            self.state.error = None
            ctx = self._context()
            ctx.events.emit(self.state, EventKind.RESUMED, {"phase": self.state.phase.value})
            return await self._run_held()

    async def stream(self) -> AsyncIterator[RunEvent]:
        """Run (or resume) the loop and yield typed events as they happen:
        PhaseStarted, SourceFound, FindingAdded, PhaseFinished, Paused (a think pause),
        ReportReady, and last RunFinished. Closing the stream early cancels the run (its
        state so far is saved, and :meth:`resume` continues it); close it explicitly with
        ``contextlib.aclosing`` when you ``break`` out, or call :meth:`cancel`::

            async with contextlib.aclosing(s.stream()) as events:
                async for event in events:
                    if isinstance(event, dr.SourceFound):
                        print(event.title)
        """

        def runner() -> Awaitable[RunResult]:
            return self.resume() if self.state.status in _STOPPED else self.run()

        async with contextlib.aclosing(
            run_events(self.state, self._listeners, runner, self.cancel)
        ) as events:
            async for event in events:
                yield event

    def run_sync(self) -> RunResult:
        """Blocking :meth:`run` for scripts, also in a notebook cell (there the run goes to a
        worker thread with its own event loop; the kernel's loop is left alone). Ctrl-C or
        Kernel › Interrupt cancels the run cleanly: status ``cancelled``, state saved.

        Raises BlockingRunError when a hook is answered through the event loop (a
        ThinkPausePanel): the blocked cell would keep its clicks from arriving, so use
        ``s.start()`` or ``await s.run()`` with it.
        """
        clicked = [h for h in self.hooks if getattr(h, "needs_event_loop", False)]
        if clicked:
            raise BlockingRunError(
                f"run_sync() cannot wait for {type(clicked[0]).__name__}: a blocking call keeps "
                "the kernel busy, so no click would arrive. Use `task = s.start()` (the cell "
                "returns at once) or `await s.run()` instead."
            )
        interrupted: list[bool] = []

        def interrupt() -> None:
            interrupted.append(True)
            self.cancel()

        result = run_sync(self.run(), on_interrupt=interrupt)
        if interrupted:
            print(
                _interrupted_message(self.state, self._resume_hint()), file=sys.stderr, flush=True
            )
        return result

    def _resume_hint(self) -> str:
        """How a stopped run goes on: "saved" only when it was (persist on, store working)."""
        if self._saver is not None and self._saver.saved:
            return _RESUME_HINT
        why = "persist=False" if self._saver is None else "the store failed"
        return f"the state is not saved ({why}); `await s.resume()` continues it in this process"

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
        """How the session stands now, as a RunResult (what run() returns)."""
        s = self.state
        return RunResult(
            session_id=s.id, status=s.status, phase=s.phase, iteration=s.iteration,
            report=s.report, error=s.error, warnings=s.run_warnings(),
            saved=self._saver is None or self._saver.saved,
            store_error=self._saver.error if self._saver is not None else None,
        )  # fmt: skip

    async def _phase(self, phase: Phase) -> PhaseReport | None:
        """Run ``phase`` alone (see :class:`PhaseSteps`) under this session's lease."""
        check_phase_inputs(self.state, phase)
        async with self._lease():
            self._bind()
            ctx = self._context()
            if self._saver is not None:
                self._saver.save(self.state)
            with self._watching():
                return await Workflow(ctx, self.hooks).step(self.state, phase)


def _provider_keys(
    llm: str | LLMProvider | None,
    search: str | list[str] | os.PathLike[str] | SearchProvider | None,
) -> dict[str, Any]:
    """The config keys that ``Session(llm=, search=)`` set: a model spec, search names, or
    a folder of documents (searched as the corpus). Provider objects set none."""
    keys: dict[str, Any] = {"llm": llm} if isinstance(llm, str) else {}
    if isinstance(search, os.PathLike) or (
        isinstance(search, str) and search not in search_names() and os.path.isdir(search)
    ):
        folder = Path(search).expanduser()
        if not folder.is_dir():
            raise InputError(
                f"search={str(search)!r} is not a folder. Pass a folder of documents, "
                "or a search name: 'auto', 'corpus', 'demo', 'tavily'."
            )
        keys.update(corpus=folder, search=["corpus"])
    elif isinstance(search, str | list):
        keys["search"] = [search] if isinstance(search, str) else search
    return keys


_RESUME_HINT = "the state is saved; `await s.resume()` continues it"


def _interrupted_message(state: ResearchState, hint: str) -> str:
    return f"Interrupted: the research was {state.status.value} during {state.phase.value}; {hint}."
