"""Session: the notebook and script façade over state, workflow and store."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import sys
import threading
import warnings
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, Unpack

from deepresearch.config import Config
from deepresearch.config_overrides import ConfigOverrides
from deepresearch.context import CancelToken, NullEvents, Progress, RunContext
from deepresearch.cost_guard import COST_LIMIT_PREFIX
from deepresearch.errors import BlockingRunError, InputError
from deepresearch.interrupts import cancel_on_interrupt
from deepresearch.llm import ModelRouter
from deepresearch.phase_order import check_phase_inputs
from deepresearch.phases import PHASE_FUNCTIONS, PhaseReport
from deepresearch.providers.base import LLMProvider, SearchProvider
from deepresearch.providers.registry import (
    build_llm,
    build_search,
    cheap_spec_for,
    resolve_llm_spec,
    search_names,
)
from deepresearch.providers.shared_limits import ProviderWrapper
from deepresearch.run_result import RunResult, validate_question
from deepresearch.state import (
    AgentDecision,
    EventKind,
    Gap,
    Phase,
    Report,
    ResearchState,
    RunStatus,
)
from deepresearch.state.models import FINISHED_STATUSES
from deepresearch.store.guard import GuardedStore
from deepresearch.store.sqlite import open_store
from deepresearch.stream import EventTranslator, Listener, RunEvent, RunFinished, TeeEvents
from deepresearch.sync import run_sync
from deepresearch.urls import UrlPolicy
from deepresearch.workflow.hooks import Hook, apply_edits
from deepresearch.workflow.loop import STOPPING as _STOPPED
from deepresearch.workflow.loop import Workflow
from deepresearch.workflow.recipe import check_rebuildable, recipe_for, recorded_config
from deepresearch.workflow.transitions import should_iterate

if TYPE_CHECKING:
    import pandas as pd

    from deepresearch.store import SessionStore

T = TypeVar("T")


class Session:
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
            isinstance(search, str) and search not in search_names() and os.path.isdir(search)
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
        # A batch routes every provider through its shared rate limiter and budget.
        self._wrapper = provider_wrapper
        self.store = open_store(store, base)
        self._saver = GuardedStore(self.store, progress) if self.store is not None else None
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
            SessionNotFoundError: the store has no such session.
        """
        from deepresearch.store import SessionStore

        if isinstance(store, SessionStore):
            opened = store
        else:
            path = store if store is not None else Config.layered(config).resolved_store_path()
            opened = SessionStore(Path(path).expanduser())
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
            if cfg.token_management_enabled:
                from deepresearch.budget.allocator import TokenBudget

                budget = TokenBudget(cfg)
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
                urls=UrlPolicy(allow_private=cfg.allow_private_urls),
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
                await self._report_within_budget(ctx)
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
            self.progress(f"cancelled during {state.phase.value}: {_RESUME_HINT}")
        if interrupted:
            print(_interrupted_message(state), file=sys.stderr, flush=True)
        if state.status in _STOPPED or state.phase == Phase.DONE:
            for hook in self.hooks:
                finished = getattr(hook, "run_finished", None)
                if callable(finished):
                    finished(state)

    async def _report_within_budget(self, ctx: RunContext) -> None:
        """The cost ceiling stopped the run: write a report of what was gathered with the
        offline engine (no spend), say so as a gap, and leave the run ``stopped``."""
        if not self.state.sources:
            return
        offline = self.config.model_copy(
            update={"llm": "offline", "role_models": {}, "role_fallbacks": {}}
        )
        models = ModelRouter(
            offline, build_llm("offline", offline), lambda s: build_llm(s, offline), cheap_spec_for
        )
        report_ctx = dataclasses.replace(ctx, config=offline, models=models)
        state, limit = self.state, self.config.max_cost_usd
        state.gaps.append(
            Gap(
                id=state.next_id("gap"),
                description=f"Research stopped at the cost ceiling (max_cost_usd={limit:g}) "
                f"during {(state.abort_phase or state.phase).value}; this report covers only "
                "what was gathered by then, written by the offline engine.",
                iteration=state.iteration,
            )
        )
        status, error, phase = state.status, state.error, state.phase
        for step in (Phase.ANALYSIS, Phase.SYNTHESIS):
            await PHASE_FUNCTIONS[step](state, report_ctx)
        state.status, state.error, state.phase = status, error, phase
        await report_ctx.checkpoint(state)

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
        queue: asyncio.Queue[RunEvent | None] = asyncio.Queue()
        translator = EventTranslator(self.state)

        def listen(state: ResearchState, kind: str, payload: dict[str, Any]) -> None:
            for event in translator.translate(state, kind, payload):
                queue.put_nowait(event)

        self._listeners.append(listen)
        runner = self.resume() if self.state.status in _STOPPED else self.run()
        task = asyncio.ensure_future(runner)
        task.add_done_callback(lambda _: queue.put_nowait(None))
        try:
            while (event := await queue.get()) is not None:
                yield event
            result = task.result()
            yield RunFinished(status=result.status, phase=result.phase, error=result.error)
        finally:
            self._listeners.remove(listen)
            if not task.done():
                self.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

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
            print(_interrupted_message(self.state), file=sys.stderr, flush=True)
        return result

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

    # -- one phase at a time --------------------------------------------------------------
    # Each method runs one phase with its quality gate, think pause (hooks) and checkpoint,
    # and returns the phase's PhaseReport (None if the phase failed, timed out or was
    # cancelled: see ``status`` and ``state.error``). A phase whose inputs do not exist
    # yet raises PhaseOrderError naming the method to call first.
    async def _phase(self, phase: Phase) -> PhaseReport | None:
        check_phase_inputs(self.state, phase)
        async with self._lease():
            self._bind()
            ctx = self._context()
            if self._saver is not None:
                self._saver.save(self.state)
            with self._watching():
                return await Workflow(ctx, self.hooks).step(self.state, phase)

    async def clarify(self) -> PhaseReport | None:
        """Decide whether the question needs a clarifying question; if so it is in
        ``state.clarification.question`` — answer it with :meth:`answer` (or a hook)."""
        return await self._phase(Phase.CLARIFICATION)

    async def brief(self) -> PhaseReport | None:
        """Write the research brief (``state.research_brief``) from the question and the
        clarification answer, if any."""
        return await self._phase(Phase.BRIEF)

    async def plan(self) -> PhaseReport | None:
        """Split the question into sub-queries (:attr:`sub_queries`). Edit the plan with
        :meth:`set_sub_queries` before gathering."""
        return await self._phase(Phase.PLANNING)

    async def gather(self, sub_queries: pd.DataFrame | None = None) -> PhaseReport | None:
        """Research every pending sub-query with parallel topic researchers (:attr:`sources`).

        ``sub_queries``: an edited copy of :attr:`sub_queries`, applied first as with
        :meth:`set_sub_queries`. Needs a plan: PhaseOrderError otherwise.
        """
        if sub_queries is not None:
            self.set_sub_queries(sub_queries)
        return await self._phase(Phase.GATHERING)

    async def supervise(self) -> PhaseReport | None:
        """Judge coverage per sub-query and queue follow-up sub-queries for weak ones
        (they are gathered by the next :meth:`gather` — or by :meth:`analyze`)."""
        return await self._phase(Phase.SUPERVISION)

    async def analyze(self) -> PhaseReport | None:
        """Extract findings (with confidence) and gaps from the sources (:attr:`findings`,
        :attr:`gaps`). Pending sub-queries, such as follow-ups :meth:`supervise` queued,
        are gathered first, as the loop would."""
        check_phase_inputs(self.state, Phase.ANALYSIS)
        if self.state.pending_sub_queries():
            await self._phase(Phase.GATHERING)
            if self.state.status in _STOPPED:
                return None
        return await self._phase(Phase.ANALYSIS)

    async def synthesize(self) -> PhaseReport | None:
        """Write the cited Markdown report (:attr:`report`) from the findings."""
        return await self._phase(Phase.SYNTHESIS)

    async def verify(self) -> PhaseReport | None:
        """Check the report's cited claims against their sources (see docs/concepts/verification.md)."""
        return await self._phase(Phase.VERIFICATION)

    async def refine(self) -> PhaseReport | None:
        """Turn unresolved gaps into follow-up sub-queries for the next iteration.

        As in the loop, only when it should iterate: with no unresolved gaps, or with
        ``state.iteration`` at ``max_iterations``, nothing runs, a decision says why, and
        None is returned (raise ``s.state.max_iterations`` to allow another iteration).
        """
        check_phase_inputs(self.state, Phase.REFINEMENT)
        if not should_iterate(self.state):
            reason = (
                "no unresolved gaps"
                if not self.state.has_unresolved_gaps()
                else f"iteration {self.state.iteration} of {self.state.max_iterations} reached"
            )
            self._record_user("refine_skipped", f"Refinement not run: {reason}.", {})
            return None
        return await self._phase(Phase.REFINEMENT)

    async def next(self) -> PhaseReport | None:
        """Run whichever phase the loop would run next (``state.phase``); None when done."""
        if self.state.phase == Phase.DONE:
            return None
        return await self._phase(self.state.phase)

    def answer(self, text: str) -> None:
        """Answer the clarifying question with ``text`` (after :meth:`clarify` asked one,
        ``s.status`` is ``awaiting_input``); the brief and the plan then use the answer."""
        if self.state.clarification is None:
            raise InputError("There is no clarifying question to answer; run clarify() first.")
        self.state.clarification.answer = text.strip()

    def set_sub_queries(self, frame: pd.DataFrame) -> list[str]:
        """Hand back an edited copy of :attr:`sub_queries` as the plan.

        Change a row's ``query`` to reword it, drop a row to remove it, add rows (any new
        index, e.g. ``pd.concat([df, pd.DataFrame({"query": ["..."]})])``) to add them.
        Sub-queries that already ran are not changed: a reworded one is asked again as a
        new sub-query, a dropped one keeps its sources. Recorded as a steer by agent
        ``user``. Returns one line per change.

        Args:
            frame: the edited DataFrame (columns as :attr:`sub_queries`; ``query`` needed).
        """
        from deepresearch.notebook.frames import plan_edits

        steer = plan_edits(self.state, frame)
        changes = apply_edits(self.state, steer)
        kept = [i for i in steer.remove_sub_queries if self.state.sub_query(i) is not None]
        changes += [f"kept {i}: it already ran, its sources stay" for i in kept]
        if changes:
            self._record_user("edit_plan", "; ".join(changes), {"changes": changes})
            if self.store is not None:
                self.store.save(self.state)
        return changes

    def _record_user(self, action: str, rationale: str, outputs: dict[str, object]) -> None:
        decision = self.state.record(
            AgentDecision(
                agent="user", action=action, rationale=rationale, phase=self.state.phase,
                iteration=self.state.iteration, outputs=dict(outputs),
            )
        )  # fmt: skip
        if self.store is not None:
            self.store.emit(self.state, EventKind.DECISION, decision.model_dump(mode="json"))

    # -- looking at it ----------------------------------------------------------------
    # The DataFrame properties build a new frame from the state on every access: each is a
    # copy, so editing it changes nothing (hand an edited plan back with set_sub_queries).
    @property
    def id(self) -> str:
        """The session id (the key in the store, and for ``deepresearch resume ID``)."""
        return self.state.id

    @property
    def question(self) -> str:
        """The research question, whitespace collapsed."""
        return self.state.question

    @property
    def status(self) -> RunStatus:
        """pending, running, awaiting_input, completed, stopped, cancelled, timed_out or failed."""
        return self.state.status

    @property
    def report(self) -> Report | None:
        """The cited Markdown report (``.markdown``), None before :meth:`synthesize`."""
        return self.state.report

    @property
    def sources(self) -> pd.DataFrame:
        """Sources, indexed by id (returns a copy): ``cited``/``citation`` (its ``[n]``
        in the report), title, url, provider, quality, relevance, sub-query, novelty, ..."""
        from deepresearch.notebook.frames import sources_frame

        return sources_frame(self.state)

    @property
    def findings(self) -> pd.DataFrame:
        """Findings (returns a copy), indexed by id: content, confidence, category, citations."""
        from deepresearch.notebook.frames import findings_frame

        return findings_frame(self.state)

    @property
    def gaps(self) -> pd.DataFrame:
        """Gaps (returns a copy): description, severity, whether and how they were addressed."""
        from deepresearch.notebook.frames import gaps_frame

        return gaps_frame(self.state)

    @property
    def claims(self) -> pd.DataFrame:
        """The report's sentences as verification checked them: status (supported, partial,
        unsupported, uncited), citations, the backing passage and why (returns a copy)."""
        from deepresearch.notebook.frames import claims_frame

        return claims_frame(self.state)

    @property
    def sub_queries(self) -> pd.DataFrame:
        """The plan (returns a copy), indexed by id: query, status, origin (plan, supervision,
        refinement, user), sources found. Edit it and hand it back with
        :meth:`set_sub_queries` or ``gather(sub_queries=df)``."""
        from deepresearch.notebook.frames import sub_queries_frame

        return sub_queries_frame(self.state)

    @property
    def decisions(self) -> pd.DataFrame:
        """Every agent decision, oldest first (returns a copy): phase, agent (``user`` for your
        steers), action, rationale."""
        from deepresearch.notebook.frames import decisions_frame

        return decisions_frame(self.state)

    @property
    def metrics(self) -> pd.DataFrame:
        """One row per phase run (returns a copy): duration, LLM calls, tokens, cost, searches."""
        from deepresearch.notebook.frames import metrics_frame

        return metrics_frame(self.state)

    @property
    def usage(self) -> pd.DataFrame:
        """One row per LLM call (returns a copy): role, phase, model, tokens, cost, retries."""
        from deepresearch.notebook.frames import usage_frame

        return usage_frame(self.state)

    @property
    def events(self) -> pd.DataFrame:
        """The audit trail from the store (returns a copy); InputError without a store."""
        if self.store is None:
            raise InputError("This session does not persist (persist=False): no audit trail.")
        return self.store.events_frame(self.id)

    def save(self, path: str | os.PathLike[str], format: str | None = None) -> Path:
        """Write the session to a file; ``format`` defaults from the suffix: ``.md`` (summary
        and report), ``.html`` (a standalone, sanitized page, citations linked, sources
        listed), ``.bib`` (BibTeX of the cited sources), ``.csl.json`` (CSL-JSON of the
        cited sources), ``.json`` (the full state; loads back with
        ResearchState.from_json). Returns the path written. To save the report alone, use
        ``s.report.save(path)`` (:meth:`Report.save`)."""
        from deepresearch.store import (
            export_bibtex,
            export_csl_json,
            export_html,
            export_json,
            export_markdown,
        )

        target = Path(path).expanduser()
        by_suffix = {
            ".md": "md",
            ".html": "html",
            ".htm": "html",
            ".bib": "bibtex",
            ".json": "state",
        }
        exporters = {
            "md": export_markdown, "html": export_html, "bibtex": export_bibtex,
            "csl": export_csl_json, "state": export_json,
        }  # fmt: skip
        csl = target.name.lower().endswith(".csl.json")
        chosen = format or ("csl" if csl else by_suffix.get(target.suffix.lower()))
        if chosen not in exporters:
            raise InputError(
                f"Cannot tell the format of {target.name!r}: use a .md, .html, .bib, "
                f".csl.json or .json name, or format= one of {sorted(exporters)}."
            )
        if target.is_dir():
            raise InputError(f"{target} is a folder; give a file name.")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(exporters[chosen](self.state) + "\n", encoding="utf-8")
        return target

    def finding_sources(self, finding_id: str) -> pd.DataFrame:
        """The sources finding ``finding_id`` cites, in its order (a copy; same columns as
        :attr:`sources`)."""
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
        from deepresearch.render import session_html

        return session_html(self)

    def _repr_markdown_(self) -> str | None:
        from deepresearch.render import jupyter_files_route, state_report_markdown

        if self.state.report is None:
            return None
        return state_report_markdown(self.state, files=jupyter_files_route(), passages=True)


_RESUME_HINT = "the state is saved; `await s.resume()` continues it"


def _interrupted_message(state: ResearchState) -> str:
    return (
        f"Interrupted: the research was {state.status.value} during {state.phase.value}; "
        f"{_RESUME_HINT}."
    )


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
    **overrides: Unpack[ConfigOverrides],
) -> Report | None:
    """One call: run a whole research session and return its report.

    Args:
        question: what to research.
        llm: a model spec (``"offline"``, ``"openai:gpt-4.1-mini"``, ...) or an LLMProvider.
        search: ``"demo"``, ``"corpus"``, ``"tavily"``, ``"auto"``, a list of them, a folder
            of your documents, or a SearchProvider.
        config: a :class:`Config`; only the fields set on it override the lower layers.
        hooks: think-pause hooks called after each phase (see :class:`Steer`).
        corpus: a folder of your documents for the ``corpus`` search provider.
        max_iterations: research iterations (refinement rounds + 1).
        max_sub_queries: how many sub-queries the planner may write.
        enable_clarification: ask (or skip) a clarifying question first.
        persist: save the session to the store (default True).
        store: where to save: a SessionStore or a path.
        progress: a callable receiving one-line progress messages.
        **overrides: any other Config field, typed (``ConfigOverrides``), e.g.
            ``max_sources_per_query=3``.

    Returns:
        The :class:`Report` (``str(report)`` is its Markdown; ``report.save(path)``
        writes it), or None if the run stopped before synthesis.
    """
    session = Session(
        question, llm=llm, search=search, config=config, hooks=hooks, corpus=corpus,
        max_iterations=max_iterations, max_sub_queries=max_sub_queries,
        enable_clarification=enable_clarification, persist=persist, store=store,
        progress=progress, **overrides,
    )  # fmt: skip
    await session.run()
    return session.report
