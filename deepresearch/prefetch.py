"""Searches started before the phase that needs them.

A search that depends only on the question (planning's scout search) need not wait for
clarification and the brief: the loop starts it when the run starts, and planning takes
its result — or asks again if nothing was started for that query. Nothing of a prefetched
search touches the state until a phase takes it: its audit event and metrics are written
then, by the phase, as for any search (see ``phases.common.run_search``). A prefetch no
phase took is cancelled when the run ends (a person may stop the run before planning).
"""

from __future__ import annotations

import asyncio

from deepresearch.providers.base import SearchHit, SearchProvider


class Prefetch:
    """Search tasks keyed by (query, max_results); used by one run's event loop."""

    def __init__(self) -> None:
        self._searches: dict[tuple[str, int], asyncio.Task[list[SearchHit]]] = {}

    def search(self, provider: SearchProvider, query: str, *, max_results: int) -> None:
        """Start ``provider.search(query)`` now unless it is already under way."""
        key = (query, max_results)
        if key not in self._searches:
            self._searches[key] = asyncio.create_task(
                provider.search(query, max_results=max_results)
            )

    def take(self, query: str, *, max_results: int) -> asyncio.Task[list[SearchHit]] | None:
        """The search started for this query, once (None if none was started)."""
        return self._searches.pop((query, max_results), None)

    async def close(self) -> None:
        """Cancel what no phase took, and wait for it to end."""
        tasks, self._searches = list(self._searches.values()), {}
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
