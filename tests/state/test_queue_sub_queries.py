"""ResearchState.queue_sub_queries: the one cap-and-dedup rule planning, supervision and
refinement queue their sub-queries through."""

from __future__ import annotations

from deepresearch.state import LinkFollow, NewSubQuery, ResearchState, SubQueryStatus


def proposals(*queries: str) -> list[NewSubQuery]:
    return [NewSubQuery(query=q, rationale=f"why {q}", priority=2) for q in queries]


def test_blank_and_repeated_queries_are_skipped_and_the_rest_queued_in_order() -> None:
    state = ResearchState(question="Q?")
    state.add_sub_query("Printing in Venice", origin="plan")
    queued = state.queue_sub_queries(
        proposals("  ", "printing  in VENICE", "Paper mills", "paper mills", "Book fairs"),
        origin="supervision",
        max_total=20,
    )
    assert [sq.query if sq else None for sq in queued] == [
        None, None, "Paper mills", None, "Book fairs"
    ]  # fmt: skip
    new = state.sub_queries[1:]
    assert [sq.id for sq in new] == ["sq-2", "sq-3"]
    assert all(sq.origin == "supervision" and sq.status == SubQueryStatus.PENDING for sq in new)
    assert new[0].rationale == "why Paper mills" and new[0].priority == 2


def test_the_limit_counts_queued_queries_not_proposals() -> None:
    state = ResearchState(question="Q?")
    state.add_sub_query("a", origin="plan")
    queued = state.queue_sub_queries(
        proposals("a", "b", "c", "d"), origin="plan", max_total=9, limit=2
    )
    assert [sq.query if sq else None for sq in queued] == [None, "b", "c", None]


def test_the_total_cap_is_never_passed_and_a_zero_limit_queues_nothing() -> None:
    state = ResearchState(question="Q?")
    for q in "abc":
        state.add_sub_query(q, origin="plan")
    assert state.queue_sub_queries(proposals("d", "e"), origin="refinement", max_total=4) == [
        state.sub_queries[3],
        None,
    ]
    assert state.queue_sub_queries(proposals("f"), origin="refinement", max_total=2) == [None]
    assert state.queue_sub_queries(proposals("g"), origin="plan", max_total=20, limit=0) == [None]
    assert len(state.sub_queries) == 4


def test_a_proposal_that_follows_links_queues_a_sub_query_that_does() -> None:
    state = ResearchState(question="Q?")
    follow = LinkFollow(titles=["Bamboo"], words=["plant"])
    (sq,) = state.queue_sub_queries(
        [NewSubQuery(query=follow.query(), follow=follow)], origin="supervision", max_total=9
    )
    assert sq is not None and sq.follow == follow
