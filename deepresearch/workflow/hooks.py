"""Think-pause hooks: a person (or code) steering the run between phases.

A hook is any callable ``hook(state, prompt)``, sync or async. What it returns is
applied before the next phase runs:

* ``None`` — proceed unchanged;
* a ``str`` — guidance for the next phase (after clarification: the answer);
* a :class:`Steer` — guidance, sub-query edits, and/or stop.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, Field

from deepresearch.errors import InputError
from deepresearch.state import ResearchState, SubQueryStatus


class Steer(BaseModel):
    """What a think-pause hook may ask for."""

    guidance: str | None = None
    add_sub_queries: list[str] = Field(default_factory=list)
    edit_sub_queries: dict[str, str] = Field(default_factory=dict)  # sub-query id -> new text
    remove_sub_queries: list[str] = Field(default_factory=list)  # sub-query ids
    stop: bool = False

    def merge(self, other: Steer) -> Steer:
        """This steer and ``other`` as one (guidance joined, edits of both, stop if either)."""
        guidance = "\n".join(g for g in (self.guidance, other.guidance) if g) or None
        return Steer(
            guidance=guidance,
            add_sub_queries=[*self.add_sub_queries, *other.add_sub_queries],
            edit_sub_queries={**self.edit_sub_queries, **other.edit_sub_queries},
            remove_sub_queries=[*self.remove_sub_queries, *other.remove_sub_queries],
            stop=self.stop or other.stop,
        )

    @property
    def is_empty(self) -> bool:
        """Whether the steer asks for nothing."""
        return not (
            self.guidance
            or self.add_sub_queries
            or self.edit_sub_queries
            or self.remove_sub_queries
            or self.stop
        )


HookResult = Steer | str | dict[str, Any] | None
Hook = Callable[[ResearchState, str], HookResult | Awaitable[HookResult]]


def to_steer(result: object) -> Steer:
    """A hook's return value as a Steer: None (no change), a str (guidance), a dict or a
    Steer; anything else is an InputError.

    Args:
        result: what the think-pause hook returned.
    """
    if result is None:
        return Steer()
    if isinstance(result, Steer):
        return result
    if isinstance(result, str):
        return Steer(guidance=result)
    if isinstance(result, dict):
        return Steer.model_validate(result)
    raise InputError(
        f"A think-pause hook returned {type(result).__name__}; return None, a str "
        "(guidance) or deepresearch.Steer(...)."
    )


def is_async_hook(hook: Hook) -> bool:
    """An ``async def`` function, or an object whose ``__call__`` is one."""
    return inspect.iscoroutinefunction(hook) or inspect.iscoroutinefunction(
        getattr(hook, "__call__", None)  # noqa: B004 - the method, not "is it callable"
    )


async def call_hooks(hooks: list[Hook], state: ResearchState, prompt: str) -> Steer:
    """Call each hook in turn and merge their answers. Async hooks run on the event loop;
    sync hooks run in a worker thread, so one that blocks (reads input, waits on a
    person) does not stop the loop meanwhile."""
    steer = Steer()
    for hook in hooks:
        if is_async_hook(hook):
            result = hook(state, prompt)
        else:
            result = await asyncio.to_thread(hook, state, prompt)
        if inspect.isawaitable(result):
            result = await result
        steer = steer.merge(to_steer(result))
    return steer


def apply_edits(state: ResearchState, steer: Steer) -> list[str]:
    """Apply sub-query edits to the state; return a line per change for the audit trail."""
    changes: list[str] = []
    for sq_id, text in steer.edit_sub_queries.items():
        sq = state.sub_query(sq_id)
        if sq is None:
            raise InputError(
                f"No sub-query {sq_id!r} to edit; ids are {[s.id for s in state.sub_queries]}."
            )
        if not text.strip():
            raise InputError(f"Edited text for {sq_id!r} is empty.")
        if sq.status != SubQueryStatus.PENDING:
            # Re-open a finished sub-query as a new one so its sources stay attributed.
            new = state.add_sub_query(text, rationale=f"edited from {sq_id}", origin="user")
            changes.append(f"re-asked {sq_id} as {new.id}: {text}")
        else:
            sq.query = text.strip()
            sq.origin = "user"
            changes.append(f"edited {sq_id}: {text}")
    for sq_id in steer.remove_sub_queries:
        sq = state.sub_query(sq_id)
        if sq is None:
            raise InputError(f"No sub-query {sq_id!r} to remove.")
        if sq.status == SubQueryStatus.PENDING:
            state.sub_queries.remove(sq)
            changes.append(f"removed {sq_id}")
    for text in steer.add_sub_queries:
        if text.strip() and not state.has_sub_query(text):
            sq = state.add_sub_query(text, rationale="added by a person", origin="user")
            changes.append(f"added {sq.id}: {text}")
    return changes
