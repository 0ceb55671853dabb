"""Supervision, one round at a time: coverage, the confidence heuristic, the coverage
delta, message truncation, directive/follow-up dedup and caps, provider failures and
what the supervisor's prompt shows."""

from __future__ import annotations

import pytest
from phase_support import (
    QUESTION,
    add_source,
    completed,
    covered_state,
    fast_config,
    paragraph,
)
from pydantic import BaseModel

from deepresearch.config import Config
from deepresearch.offline import OfflineEngine
from deepresearch.phases.supervise import (
    coverage_delta,
    coverage_heuristic,
    per_query_coverage,
    supervise,
)
from deepresearch.providers.base import LLMRequest, LLMResponse, Message, Usage
from deepresearch.providers.structured import Answer, complete_with_repair
from deepresearch.roles import (
    CoverageAssessment,
    DelegationOutput,
    DirectiveDraft,
    PlannedQuery,
    SourceLinks,
    SupervisionInputs,
    ThinkOutput,
)
from deepresearch.state import (
    LinkFollow,
    Phase,
    QueryCoverage,
    ResearchState,
    SourceQuality,
    SubQueryStatus,
    TopicResult,
)
from deepresearch.testing import FunctionLLM, ScriptedLLM, context
from deepresearch.workflow.transitions import next_phase


def _cov(sid: str, count: int, domains: int, status: SubQueryStatus) -> QueryCoverage:
    return QueryCoverage(
        sub_query_id=sid, query=f"query {sid}", status=status, source_count=count, domains=domains
    )


# -- per-query coverage ----------------------------------------------------------------
def test_per_query_coverage_counts_sources_quality_and_distinct_domains() -> None:
    state = ResearchState(question=QUESTION)
    a = completed(state, "printing in Mainz")
    add_source(state, a, "https://a.example/1", domain="a.example", quality=SourceQuality.HIGH)
    add_source(state, a, "https://b.example/1", domain="b.example", quality=SourceQuality.HIGH)
    add_source(state, a, "https://a.example/2", domain="a.example", quality=SourceQuality.LOW)
    failed = state.add_sub_query("printing in Venice")
    failed.status = SubQueryStatus.FAILED
    pending = state.add_sub_query("printing in Paris")
    add_source(state, pending, "https://c.example/1", domain="c.example")

    coverage = per_query_coverage(state, min_sources=2)

    assert [c.sub_query_id for c in coverage] == [a.id, failed.id]  # pending not yet assessed
    mainz, venice = coverage
    assert (mainz.source_count, mainz.domains, mainz.sufficient) == (3, 2, True)
    assert mainz.quality == {"high": 2, "low": 1}
    assert (venice.source_count, venice.domains, venice.sufficient) == (0, 0, False)
    assert venice.status == SubQueryStatus.FAILED
    assert per_query_coverage(state, min_sources=4)[0].sufficient is False


# -- the confidence-scored heuristic -----------------------------------------------------
def test_heuristic_scores_follow_the_seed_formulas() -> None:
    done, failed = SubQueryStatus.COMPLETED, SubQueryStatus.FAILED
    coverage = [_cov("a", 1, 1, done), _cov("b", 0, 0, failed), _cov("c", 3, 1, done)]
    cfg = Config()
    result = coverage_heuristic(coverage, cfg)

    adequacy = (min(1, 1 / 2) + 0 + min(1, 3 / 2)) / 3
    diversity = min(1.0, (1 + 0 + 1) / (3 * 2))
    completion = 2 / 3
    w = cfg.coverage_weights
    expected = (
        adequacy * w["source_adequacy"]
        + diversity * w["domain_diversity"]
        + completion * w["completion_rate"]
    ) / sum(w.values())
    assert result.scores == {
        "source_adequacy": pytest.approx(adequacy, abs=1e-3),
        "domain_diversity": pytest.approx(diversity, abs=1e-3),
        "completion_rate": pytest.approx(completion, abs=1e-3),
    }
    assert result.confidence == pytest.approx(expected, abs=1e-3)
    assert result.sufficient is False
    assert result.dominant_factors == []
    assert result.weak_factors == ["domain_diversity"]


def test_heuristic_sufficient_and_insufficient_around_default_threshold() -> None:
    cfg = Config()
    assert cfg.coverage_confidence_threshold == 0.75
    done = SubQueryStatus.COMPLETED
    # adequacy .75, diversity .75, completion 1 -> .85 with the default weights
    enough = coverage_heuristic([_cov("a", 2, 2, done), _cov("b", 1, 1, done)], cfg)
    # adequacy .5, diversity .5, completion 1 -> .70
    thin = coverage_heuristic([_cov("a", 1, 1, done), _cov("b", 1, 1, done)], cfg)
    assert enough.sufficient is True and enough.confidence >= 0.75
    assert thin.sufficient is False and thin.confidence < 0.75
    assert "completion_rate" in enough.dominant_factors
    # a stricter threshold turns the same coverage insufficient
    strict = coverage_heuristic(
        [_cov("a", 2, 2, done), _cov("b", 1, 1, done)],
        Config(coverage_confidence_threshold=0.9),
    )
    assert strict.confidence == enough.confidence and strict.sufficient is False


def test_heuristic_weights_are_configurable() -> None:
    done = SubQueryStatus.COMPLETED
    # many sources, one shared domain: adequacy 1, diversity .25, completion 1
    coverage = [_cov("a", 4, 1, done), _cov("b", 4, 0, done)]
    default = coverage_heuristic(coverage, Config())
    diversity_only = coverage_heuristic(
        coverage,
        Config(
            coverage_weights={"source_adequacy": 0, "domain_diversity": 1, "completion_rate": 0}
        ),
    )
    assert default.sufficient is True
    assert diversity_only.confidence == pytest.approx(0.25, abs=1e-3)
    assert diversity_only.sufficient is False
    with pytest.raises(ValueError, match="unknown factors"):
        Config(coverage_weights={"vibes": 1.0})


# -- coverage delta ---------------------------------------------------------------------
def test_coverage_delta_reports_growth_and_new_queries() -> None:
    done = SubQueryStatus.COMPLETED
    before = [_cov("a", 1, 1, done), _cov("b", 0, 0, done)]
    after_a = _cov("a", 3, 2, done).model_copy(update={"sufficient": True})
    after = [after_a, _cov("b", 0, 0, done), _cov("c", 2, 1, done)]
    lines = coverage_delta(before, after)
    assert len(lines) == 3
    assert "+2 sources" in lines[0] and "+1 domains" in lines[0]
    assert "now: 3 sources, 2 domains" in lines[0] and lines[0].endswith("— SUFFICIENT")
    assert "+0 sources" in lines[1] and "STILL INSUFFICIENT" in lines[1]
    assert "[NEW]" in lines[2] and "query c" in lines[2]
    assert all("[NEW]" in line for line in coverage_delta([], after))


async def test_second_round_sees_the_delta_of_what_gathering_added() -> None:
    state = covered_state(["printing in Mainz"], per_query=0)
    llm = ScriptedLLM(
        {
            ThinkOutput: [ThinkOutput(gap_analysis="thin", gaps=["thin"])] * 2,
            DelegationOutput: [DelegationOutput(research_complete=True)] * 2,
        },
        strict=True,
    )
    ctx = context(llm, config=fast_config())
    await supervise(state, ctx)
    sq = state.sub_queries[0]
    add_source(state, sq, "https://new.example/x", domain="new.example")
    await supervise(state, ctx)

    first, second = state.supervision_history
    assert "[NEW]" in first.delta[0]
    assert "+1 sources" in second.delta[0] and "+1 domains" in second.delta[0]
    think_inputs = llm.requests_for(ThinkOutput)[1].inputs
    assert isinstance(think_inputs, SupervisionInputs)
    assert think_inputs.delta == second.delta
    assert "Change since the last round" in llm.requests_for(ThinkOutput)[1].user


# -- dedup and caps -----------------------------------------------------------------------
def _delegation_state() -> ResearchState:
    state = covered_state(["Printing press in France", "Printing press in Italy"], per_query=1)
    state.max_iterations = 1
    return state


def _delegate_llm(*drafts: DirectiveDraft) -> ScriptedLLM:
    return ScriptedLLM(
        {
            ThinkOutput: [ThinkOutput(gap_analysis="gaps", gaps=["g"])],
            DelegationOutput: [DelegationOutput(directives=list(drafts))],
        },
        strict=True,
    )


async def test_directives_deduped_against_existing_queries_and_each_other() -> None:
    state = _delegation_state()
    llm = _delegate_llm(
        DirectiveDraft(research_topic=paragraph("printing PRESS  in france")),
        DirectiveDraft(research_topic=paragraph("Paper mills in Germany")),
        DirectiveDraft(research_topic=paragraph("paper mills in germany")),
        DirectiveDraft(research_topic=paragraph("Book fairs in Frankfurt")),
    )
    report = await supervise(state, context(llm, config=fast_config()))
    new = [sq for sq in state.sub_queries if sq.origin == "supervision"]
    assert [sq.query for sq in new] == ["Paper mills in Germany", "Book fairs in Frankfurt"]
    assert [d.sub_query_id for d in state.directives] == [sq.id for sq in new]
    assert all(sq.directive_id == d.id for sq, d in zip(new, state.directives, strict=True))
    rnd = state.supervision_history[-1]
    assert rnd.should_continue and report.summary["pending_follow_ups"] == 2


async def test_directive_cap_counts_only_new_directives() -> None:
    state = _delegation_state()  # 2 sub-queries, room for one more
    llm = _delegate_llm(
        DirectiveDraft(research_topic=paragraph("Printing press in Italy"), priority=1),
        DirectiveDraft(research_topic=paragraph("Paper mills in Germany"), priority=2),
        DirectiveDraft(research_topic=paragraph("Book fairs in Frankfurt"), priority=3),
    )
    await supervise(state, context(llm, config=fast_config(max_total_sub_queries=3)))
    assert [sq.query for sq in state.sub_queries[2:]] == ["Paper mills in Germany"]

    state = _delegation_state()
    drafts = [DirectiveDraft(research_topic=paragraph(f"Topic number {n}")) for n in range(4)]
    await supervise(
        state, context(_delegate_llm(*drafts), config=fast_config(max_concurrent_research_units=2))
    )
    assert len(state.directives) == 2  # at most max_concurrent_research_units per round


async def test_follow_up_queries_deduped_and_capped_without_delegation() -> None:
    def follow_ups(*queries: str) -> ScriptedLLM:
        out = CoverageAssessment(
            follow_up_queries=[PlannedQuery(query=q) for q in queries],
            should_continue_gathering=True,
        )
        return ScriptedLLM({CoverageAssessment: [out]}, strict=True)

    cfg = fast_config(delegation_model=False)
    state = _delegation_state()
    llm = follow_ups(
        "printing press in FRANCE", "Paper mills", "paper  MILLS", "Fairs", "Guilds", "Ink"
    )
    await supervise(state, context(llm, config=cfg))
    new = [sq for sq in state.sub_queries if sq.origin == "supervision"]
    assert [sq.query for sq in new] == ["Paper mills", "Fairs", "Guilds"]  # at most 3 a round
    assert all(sq.priority == 2 for sq in new) and not state.directives

    state = _delegation_state()
    await supervise(
        state,
        context(
            follow_ups("Printing press in Italy", "Ink"), config=cfg.merged(max_total_sub_queries=3)
        ),
    )
    assert [sq.query for sq in state.sub_queries[2:]] == ["Ink"]


# -- link-following: an explicit field, never the query's text ---------------------------
async def test_a_directive_or_follow_up_that_follows_links_queues_a_sub_query_that_does() -> None:
    follow = LinkFollow(titles=["Bamboo"], words=["plant"])
    state = _delegation_state()
    llm = _delegate_llm(
        DirectiveDraft(research_topic=paragraph('"Bamboo" plant'), follow=follow),
        DirectiveDraft(research_topic=paragraph('"Bear" plant')),
    )
    await supervise(state, context(llm, config=fast_config()))
    assert [(sq.query, sq.follow) for sq in state.sub_queries[2:]] == [
        ('"Bamboo" plant', follow),
        ('"Bear" plant', None),  # quoted by a model: a search
    ]

    state = _delegation_state()
    out = CoverageAssessment(
        follow_up_queries=[PlannedQuery(query='"Bamboo" plant', follow=follow)],
        should_continue_gathering=True,
    )
    llm2 = ScriptedLLM({CoverageAssessment: [out]}, strict=True)
    await supervise(state, context(llm2, config=fast_config(delegation_model=False)))
    assert [sq.follow for sq in state.sub_queries[2:]] == [follow]


async def test_the_supervisor_is_told_which_links_were_followed_and_by_which_sub_queries() -> None:
    state = _delegation_state()
    france, italy = state.sub_queries
    italy.follow = LinkFollow(titles=["Venice"], words=["printing"])
    state.topic_results.append(
        TopicResult(
            sub_query_id=france.id,
            source_ids=[state.sources[0].id],
            queries=[france.query, '"Paris" printing'],
            follows=[LinkFollow(titles=["Paris"], words=["printing"])],
        )
    )
    state.sources[0].links = ["Paris", "Lyon"]
    llm = _delegate_llm()
    await supervise(state, context(llm, config=fast_config()))
    inputs = llm.requests_for(ThinkOutput)[0].inputs
    assert isinstance(inputs, SupervisionInputs)
    assert inputs.links_followed == ["Venice", "Paris"]
    assert [c.follows_links for c in inputs.coverage] == [False, True]
    (digest,) = inputs.topics
    assert digest.links == [
        SourceLinks(
            citation=state.sources[0].citation,
            title=state.sources[0].title,
            links=["Paris", "Lyon"],
        )
    ]
    # none of it is shown to the model
    user = llm.requests_for(ThinkOutput)[0].user
    assert "Lyon" not in user and "Venice" not in user


# -- provider failure: heuristic fallback --------------------------------------------------
def _garbage_llm(*, fail: set[type[BaseModel]]) -> FunctionLLM:
    """A supervisor whose answers for ``fail`` types are prose, run through the remote
    providers' real parse-and-repair loop; every other call is the offline engine."""
    offline = OfflineEngine()

    async def ask(extra: list[Message]) -> Answer:
        return Answer(text="I think coverage is fine, maybe? {not json", usage=Usage(5, 5))

    async def answer(request: LLMRequest) -> BaseModel | LLMResponse:
        if request.output_type in fail:
            done = await complete_with_repair(
                ask, request.output_type, max_repairs=1, provider="junk"
            )
            return done.output
        return await offline.complete(request)

    return FunctionLLM(answer)


@pytest.mark.parametrize("delegation", [True, False])
async def test_garbage_answer_falls_back_to_heuristic_and_keeps_state(delegation: bool) -> None:
    state = _delegation_state()
    before = state.model_copy(deep=True)
    llm = _garbage_llm(fail={ThinkOutput, DelegationOutput, CoverageAssessment})
    report = await supervise(state, context(llm, config=fast_config(delegation_model=delegation)))

    rnd = state.supervision_history[-1]
    assert "supervisor unavailable" in rnd.stop_reason and "heuristic confidence" in rnd.stop_reason
    assert rnd.should_continue is False and report.summary["should_continue"] is False
    assert rnd.coverage and rnd.confidence == pytest.approx(
        coverage_heuristic(rnd.coverage, Config()).confidence
    )
    assert state.sub_queries == before.sub_queries and state.sources == before.sources
    assert state.supervision_round == 1 and not state.directives
    assert next_phase(state, Config()) == Phase.ANALYSIS


async def test_garbage_delegation_keeps_the_think_step() -> None:
    state = _delegation_state()
    llm = _garbage_llm(fail={DelegationOutput})
    await supervise(state, context(llm, config=fast_config()))
    rnd = state.supervision_history[-1]
    assert rnd.think and "supervisor unavailable" in rnd.stop_reason
    assert [m.kind for m in state.supervision_messages] == ["think"]
    assert state.supervision_messages[0].content == rnd.think


# -- what the supervisor is shown ---------------------------------------------------------
async def test_prompt_includes_brief_scope_and_compressed_excerpts() -> None:
    state = _delegation_state()
    state.research_brief = "Scope: German lands 1450-1550 only; exclude East Asian printing."
    first = state.sub_queries[0]
    findings = "EARLYMARK " + "finding text. " * 300 + "LATEMARK"
    state.topic_results.append(
        TopicResult(sub_query_id=first.id, compressed_findings=findings, source_ids=[])
    )
    llm = _delegate_llm()
    await supervise(state, context(llm, config=fast_config()))
    think = llm.requests_for(ThinkOutput)[0]
    assert state.research_brief in think.user
    assert "EARLYMARK" in think.user and "LATEMARK" not in think.user
    assert isinstance(think.inputs, SupervisionInputs)
    assert len(think.inputs.topics[0].compressed) <= 2000
    # the delegate step sees the think step's gap analysis
    assert "Gap analysis:\ngaps" in llm.requests_for(DelegationOutput)[0].user


async def test_prompt_falls_back_to_source_metadata_without_compressed_findings() -> None:
    state = _delegation_state()
    first = state.sub_queries[0]
    src = state.sources_for(first.id)[0]
    src.content = "BODYONLY " + src.content
    state.topic_results.append(TopicResult(sub_query_id=first.id, source_ids=[src.id]))
    llm = _delegate_llm()
    await supervise(state, context(llm, config=fast_config()))
    user = llm.requests_for(ThinkOutput)[0].user
    assert f"{src.title}: {src.snippet} [{src.citation}]" in user
    assert "BODYONLY" not in user


async def test_offline_directives_are_paragraphs_targeting_think_gaps() -> None:
    state = covered_state(["printing press in Mainz"], per_query=3)
    completed(state, "literacy rates after printing")  # no sources: a gap
    llm = FunctionLLM()  # the offline engine
    await supervise(state, context(llm, config=fast_config()))

    rnd = state.supervision_history[-1]
    assert rnd.directive_ids and rnd.think
    gaps_line = next(ln for ln in rnd.think.splitlines() if ln.startswith("Gaps: "))
    gaps = gaps_line.removeprefix("Gaps: ").split("; ")
    assert any("literacy rates after printing" in g for g in gaps)
    for d in state.directives:
        assert len(d.research_topic.split()) >= 25 and d.research_topic.count(". ") >= 1
        sq = state.sub_query(d.sub_query_id or "")
        assert sq is not None and len(d.research_topic) > 2 * len(sq.query)
        assert any(g in d.research_topic for g in gaps)
    assert any("literacy" in d.research_topic for d in state.directives)
    kinds = [r.output_type for r in llm.requests]
    assert kinds.index(ThinkOutput) < kinds.index(DelegationOutput)  # think before delegating


async def test_supervision_history_is_recorded_in_state() -> None:
    state = _delegation_state()
    llm = _delegate_llm(DirectiveDraft(research_topic=paragraph("Paper mills in Germany")))
    await supervise(state, context(llm, config=fast_config()))
    rnd = state.supervision_history[-1]
    assert (rnd.iteration, rnd.round) == (1, 1)
    assert [c.sub_query_id for c in rnd.coverage] == ["sq-1", "sq-2"]
    assert rnd.scores and 0 <= rnd.confidence <= 1 and rnd.delta
    assert rnd.directive_ids == [d.id for d in state.directives]
    assert rnd.stop_reason == "1 directive(s) queued for researchers"
    restored = ResearchState.from_json(state.to_json())
    assert restored.supervision_history == state.supervision_history
    assert restored.directives == state.directives
