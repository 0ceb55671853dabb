"""Reading a run's request timeline off the loopback servers (see bench/bench_latency.py).

Each :class:`~deepresearch.testing.vendor_servers.RecordedRequest` carries when the server
received it and when it answered. With a fixed per-request latency, a run's wall time is
bounded below by its *critical path*: the longest chain of requests in which each was
received only after the previous one was answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar


class Timed(Protocol):
    """A recorded request with when it arrived and when it was answered (monotonic seconds)."""

    @property
    def received_at(self) -> float:
        """When the request arrived."""

    @property
    def answered_at(self) -> float:
        """When its answer was sent."""


T = TypeVar("T", bound=Timed)


def critical_chain(requests: Sequence[T]) -> list[T]:
    """The longest chain of requests, each received after the previous one was answered
    (the earliest such chain when several are as long)."""
    ordered = sorted(requests, key=lambda r: r.received_at)
    depth: list[int] = []
    parent: list[int | None] = []
    for i, r in enumerate(ordered):
        before = [j for j in range(i) if ordered[j].answered_at <= r.received_at]
        best = max(before, key=lambda j: depth[j], default=None)
        parent.append(best)
        depth.append(1 + (depth[best] if best is not None else 0))
    if not ordered:
        return []
    at: int | None = max(range(len(ordered)), key=lambda i: depth[i])
    chain: list[T] = []
    while at is not None:
        chain.append(ordered[at])
        at = parent[at]
    return chain[::-1]


def critical_path(requests: Sequence[Timed]) -> int:
    """How many requests :func:`critical_chain` holds: the least number of sequential round
    trips the run's schedule needed."""
    return len(critical_chain(requests))


def most_in_flight(requests: Sequence[Timed]) -> int:
    """The most requests received and not yet answered at any one moment."""
    edges = sorted(
        [(r.answered_at, -1) for r in requests] + [(r.received_at, 1) for r in requests]
    )  # at equal stamps an answer comes before a new request: they did not overlap
    now = peak = 0
    for _, step in edges:
        now += step
        peak = max(peak, now)
    return peak
