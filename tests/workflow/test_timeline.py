"""The request-timeline measures the latency bench reports, and the servers' latency knob."""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass

from deepresearch.testing.timeline import critical_chain, critical_path, most_in_flight
from deepresearch.testing.vendor_servers import TavilyServer


@dataclass
class Stamp:
    received_at: float
    answered_at: float


def test_critical_path_counts_the_longest_chain_of_sequential_requests() -> None:
    # a → (b ∥ c) → d, and e running alongside everything: the chain a, b, d is 3 long.
    a, b, c, d, e = Stamp(0, 1), Stamp(1, 2), Stamp(1.1, 1.9), Stamp(2.5, 3), Stamp(0, 3)
    assert critical_path([d, c, e, a, b]) == 3
    assert critical_chain([d, c, e, a, b]) == [a, b, d]
    assert most_in_flight([a, b, c, d, e]) == 3  # b, c and e
    assert critical_path([]) == 0 and most_in_flight([]) == 0


def test_back_to_back_requests_do_not_count_as_overlapping() -> None:
    chain = [Stamp(i, i + 1) for i in range(4)]
    assert critical_path(chain) == 4
    assert most_in_flight(chain) == 1


def test_the_latency_knob_delays_every_answer_and_stamps_the_request() -> None:
    with TavilyServer([], latency_s=0.05) as server:
        request = urllib.request.Request(
            server.base_url + "/search",
            data=json.dumps({"query": "anything"}).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request) as reply:
            assert reply.status == 200
    (recorded,) = server.requests
    assert recorded.answered_at - recorded.received_at >= 0.05
