"""A whole session with a model that follows every prompt and field description to the
letter: it must search more than once per topic, produce findings whose source ids the
code accepts, and a cited report."""

from __future__ import annotations

import re

import deepresearch as dr
from deepresearch.roles import AnalysisOutput, ClarifyOutput, ReflectOutput
from deepresearch.testing import StaticSearch
from deepresearch.testing.literal import LiteralLLM

QUESTION = "How did the printing press change Europe?"


async def test_a_literal_model_researches_and_writes_a_cited_report(
    docs: list[dict[str, str]],
) -> None:
    llm = LiteralLLM()
    config = dr.Config(
        max_iterations=1, max_supervision_rounds=1, topic_max_tool_calls=3, enable_extract=False
    )
    session = dr.Session(QUESTION, llm=llm, search=StaticSearch(docs), config=config, persist=False)
    await session.run()
    state = session.state
    # every decision was answered as the prompt and schema describe it
    assert llm.requests_for(ClarifyOutput) and not state.clarification.need_clarification  # type: ignore[union-attr]
    # more than one search per topic while the tool-call budget allows
    assert state.topic_results
    for topic in state.topic_results:
        assert topic.searches > 1, topic.stop_reason
    assert len(llm.requests_for(ReflectOutput)) > len(state.topic_results)
    # the literal analyzer names sources as "[n]": the code accepts it
    assert llm.requests_for(AnalysisOutput) and state.findings
    known = {s.id for s in state.sources}
    assert all(f.source_ids and set(f.source_ids) <= known for f in state.findings)
    # and the report cites gathered sources
    report = session.report
    assert report is not None and report.cited_source_ids
    body = report.markdown.split("## Sources", 1)[0]
    assert re.search(r"\[\d+\]", body)


async def test_a_literal_researcher_stops_when_the_prompt_forgets_to_ask_it_to_go_on(
    docs: list[dict[str, str]], monkeypatch: object
) -> None:
    """The double is worth something: drop `continue_searching` from the prompt and the
    literal researcher searches once per topic, as a real model would."""
    import pytest

    from deepresearch.phases.agents import RESEARCHER

    mp = pytest.MonkeyPatch()
    assert isinstance(RESEARCHER.system, str)
    mp.setattr(RESEARCHER, "system", RESEARCHER.system.replace("continue_searching", "go_on"))
    try:
        config = dr.Config(max_iterations=1, max_supervision_rounds=1, topic_max_tool_calls=3)
        session = dr.Session(
            QUESTION, llm=LiteralLLM(), search=StaticSearch(docs), config=config, persist=False
        )
        await session.run()
    finally:
        mp.undo()
    assert all(t.searches == 1 for t in session.state.topic_results)


async def test_config_today_is_the_date_every_prompt_gives(docs: list[dict[str, str]]) -> None:
    llm = LiteralLLM()
    config = dr.Config(max_iterations=1, max_supervision_rounds=1, today="2031-05-04")
    session = dr.Session(QUESTION, llm=llm, search=StaticSearch(docs), config=config, persist=False)
    await session.run()
    dated = [r.user for r in llm.requests if "Today's date" in r.user]
    assert len(dated) >= 5
    assert all("Today's date: 2031-05-04." in user for user in dated)
