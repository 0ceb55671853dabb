"""A Session one phase at a time: ``clarify()`` ... ``refine()``, ``next()``, answering the
clarifying question and handing back an edited plan. :class:`~deepresearch.session.Session`
inherits these steps and provides ``_phase``, which runs one phase with its lease."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deepresearch.errors import InputError
from deepresearch.phase_order import check_phase_inputs
from deepresearch.phases import PhaseReport
from deepresearch.state import AgentDecision, EventKind, Phase, ResearchState
from deepresearch.workflow.hooks import apply_edits
from deepresearch.workflow.loop import STOPPING as _STOPPED
from deepresearch.workflow.transitions import should_iterate

if TYPE_CHECKING:
    import pandas as pd

    from deepresearch.store import SessionStore


class PhaseSteps:
    """The phase-by-phase methods of :class:`Session` (mixed into it).

    Each runs one phase with its quality gate, think pause (hooks) and checkpoint, and
    returns the phase's PhaseReport (None if the phase failed, timed out or was cancelled:
    see ``status`` and ``state.error``). A phase whose inputs do not exist yet raises
    PhaseOrderError naming the method to call first.

    Args:
        state: the research state the phases advance (set by ``Session.__init__``).
        store: the session store, or None when the session does not persist.
    """

    state: ResearchState
    store: SessionStore | None

    if TYPE_CHECKING:

        async def _phase(self, phase: Phase) -> PhaseReport | None:
            """Run ``phase`` under the session's lease (provided by Session)."""

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
