"""Every part of the question has a finding that addresses it, whatever analyzer ran: a
model that answers half the question leaves the other half an open gap, with the same
outcome as the offline analyzer's (status, warnings, gaps DataFrame, report)."""

from __future__ import annotations

import pytest

import deepresearch as dr
from deepresearch.offline import OfflineEngine
from deepresearch.offline.coverage import PART_GAP
from deepresearch.phases.coverage import NO_FINDING, check_parts, filed_part
from deepresearch.providers.base import LLMRequest, LLMResponse
from deepresearch.roles import AnalysisOutput, AnalyzeInputs, FindingDraft, GapDraft
from deepresearch.state import Finding, ResearchState, RunStatus, Source
from deepresearch.testing import FunctionLLM, StaticSearch

QUESTION = "Who invented the telephone and who invented the radio?"
PHONE_PART = "Who invented the telephone"
RADIO_PART = "who invented the radio"
DOCUMENTS = [
    {
        "url": "https://example.org/telephone",
        "title": "Telephone",
        "content": "The telephone was invented by Alexander Graham Bell, who was granted the "
        "first patent for an electric telephone in 1876 in the United States.",
    },
    {
        "url": "https://example.org/radio",
        "title": "Radio",
        "content": "Radio was invented by Guglielmo Marconi, who built the first practical "
        "wireless telegraphy transmitter and receiver in 1895 in Italy.",
    },
]


def analyzer(findings: dict[str, tuple[str, str]]) -> FunctionLLM:
    """A model whose analyzer states, for each source title in ``findings``, the finding
    (content, category) given for it, citing that source; every other role answers as
    the offline engine does."""
    offline = OfflineEngine()

    async def answer(request: LLMRequest) -> AnalysisOutput | LLMResponse:
        if not isinstance(request.inputs, AnalyzeInputs):
            return await offline.complete(request)
        drafts = [
            FindingDraft(content=content, source_ids=[s.id], category=category)
            for s in request.inputs.sources
            for content, category in [findings.get(s.title, ("", ""))]
            if content
        ]
        return AnalysisOutput(findings=drafts)

    return FunctionLLM(answer, name="test:analyzer")


async def run(llm: FunctionLLM, documents: list[dict[str, str]] = DOCUMENTS) -> dr.Session:
    config = dr.Config(max_iterations=1, persist=False)
    session = dr.Session(QUESTION, llm=llm, search=StaticSearch(documents), config=config)
    await session.run()
    return session


async def test_a_model_that_answers_one_part_leaves_the_other_an_open_gap() -> None:
    llm = analyzer({"Telephone": ("Alexander Graham Bell patented the telephone in 1876.", "")})
    session = await run(llm)
    assert llm.requests_for(AnalysisOutput)  # the model, not the offline engine, analysed
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS
    (gap,) = [g for g in session.state.unanswered_gaps() if g.description.startswith(PART_GAP)]
    assert (gap.description, gap.reason) == (PART_GAP + RADIO_PART, NO_FINDING)
    assert any(RADIO_PART in w for w in session.state.run_warnings())
    assert session.gaps["description"].str.contains(RADIO_PART).any()
    assert session.report is not None and RADIO_PART in session.report.markdown


async def test_a_model_that_answers_both_parts_in_its_own_words_leaves_no_gap() -> None:
    # Neither finding repeats the question's words; the sources they rest on do.
    llm = analyzer(
        {
            "Telephone": ("Alexander Graham Bell patented the device in 1876.", "Inventors"),
            "Radio": ("Guglielmo Marconi built the first wireless transmitter in 1895.", ""),
        }
    )
    session = await run(llm)
    assert len(session.state.findings) == 2
    assert not [g for g in session.state.gaps if g.description.startswith(PART_GAP)]
    assert not any(RADIO_PART in w for w in session.state.run_warnings())


def state_with_sources() -> ResearchState:
    state = ResearchState(question=QUESTION)
    for n, doc in enumerate(DOCUMENTS, 1):
        state.sources.append(Source(id=f"src-{n}", citation=n, **doc))
    return state


def test_a_part_gap_is_addressed_once_a_later_finding_addresses_the_part() -> None:
    state = state_with_sources()
    state.findings.append(Finding(id="f-1", content="Bell patented it.", source_ids=["src-1"]))
    assert check_parts(state) == ([RADIO_PART], 0)
    assert check_parts(state) == ([], 0)  # one gap per part, not one per analysis
    state.findings.append(Finding(id="f-2", content="Marconi, 1895.", source_ids=["src-2"]))
    assert check_parts(state) == ([], 1)
    assert all(g.addressed for g in state.gaps)


def test_a_finding_filed_under_a_part_addresses_that_part_alone() -> None:
    # The offline analyzer files each finding under the part it answers (its category);
    # a line filed under the telephone part does not answer the radio part, whatever its
    # source mentions.
    state = state_with_sources()
    state.sources[0].content += " Bell also experimented with radio."
    state.findings.append(
        Finding(
            id="f-1",
            content="Bell patented the telephone.",
            source_ids=["src-1"],
            category="Who invented the telephone",
        )
    )
    assert check_parts(state) == ([RADIO_PART], 0)
    state.findings[0].category = "Telephony"  # a theme, not a part: its sources count
    state.gaps.clear()
    assert check_parts(state) == ([], 0)


def part_gaps(session: dr.Session) -> list[str]:
    return [
        g.description.removeprefix(PART_GAP)
        for g in session.state.unanswered_gaps()
        if g.description.startswith(PART_GAP)
    ]


# Each source speaks of both inventions, so only the filing tells which part a finding
# answers.
SHARED_TOPIC = [
    {**DOCUMENTS[0], "content": DOCUMENTS[0]["content"] + " Bell later followed the radio."},
    {**DOCUMENTS[1], "content": DOCUMENTS[1]["content"] + " The telephone came first."},
]


async def test_the_analyzer_is_told_the_parts_of_the_question() -> None:
    llm = analyzer({"Telephone": ("Bell patented the telephone in 1876.", PHONE_PART)})
    await run(llm)
    (request,) = llm.requests_for(AnalysisOutput)
    assert isinstance(request.inputs, AnalyzeInputs)
    assert request.inputs.parts == [PHONE_PART, RADIO_PART]
    listed = request.user.split("Parts of the question:\n", 1)[1]
    assert listed.startswith(f"- {PHONE_PART}\n- {RADIO_PART}\n")
    assert "category" in request.system and "Parts of the question" in request.system


@pytest.mark.parametrize(
    ("title", "sentence", "category", "filed", "open_part"),
    [
        # Both sources speak of both inventions: only the filing tells the parts apart.
        ("Telephone", "Bell patented the telephone in 1876.", "Part 1: Who invented the telephone?",
         PHONE_PART, RADIO_PART),
        ("Radio", "Marconi built the first wireless transmitter in 1895.",
         "Part 2: who invented the radio?", RADIO_PART, PHONE_PART),
    ],
)  # fmt: skip
async def test_a_model_answering_one_part_leaves_the_other_a_gap_though_sources_share_it(
    title: str, sentence: str, category: str, filed: str, open_part: str
) -> None:
    session = await run(analyzer({title: (sentence, category)}), SHARED_TOPIC)
    # The labelled copy is stored as the part it files the finding under.
    assert [f.category for f in session.state.findings] == [filed]
    assert part_gaps(session) == [open_part]
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS


async def test_no_part_is_a_gap_when_the_model_files_a_finding_under_each() -> None:
    llm = analyzer(
        {
            "Telephone": ("Bell patented the device in 1876.", "1. WHO INVENTED THE TELEPHONE"),
            "Radio": (
                "Marconi built a wireless transmitter in 1895.",
                "(2) Who invented the rad...",
            ),
        }
    )
    session = await run(llm, SHARED_TOPIC)
    assert sorted(str(f.category) for f in session.state.findings) == [PHONE_PART, RADIO_PART]
    assert part_gaps(session) == []
    assert not any(RADIO_PART in w for w in session.state.run_warnings())


PARTS = [PHONE_PART, RADIO_PART]


def test_a_near_copy_of_a_part_names_that_part() -> None:
    near = {
        "who invented the radio": 1,
        "Who invented the radio?": 1,
        "  WHO invented, the radio.": 1,
        "Part 2: who invented the radio?": 1,
        "part 1 - Who invented the telephone": 0,
        "Q2. Who invented the radio": 1,
        "[1] Who invented the telephone": 0,
        "Who invented the teleph…": 0,  # cut short, mid-word
    }
    assert {c: filed_part(c, PARTS) for c in near} == near


def test_a_category_that_is_not_a_copy_of_one_part_names_none() -> None:
    others = [
        "",
        None,
        "Causes",
        "Radio",  # a theme: the lenient rule judges it
        "Who invented the",  # the start of both parts
        "Who invented",
        QUESTION,  # the whole question, not one part
        "Who invented the radio telescope",
        "Part 3: who invented the television",
    ]
    assert [filed_part(c, PARTS) for c in others] == [None] * len(others)


async def test_a_model_gap_in_its_own_words_stands_for_the_part_once() -> None:
    said = "The sources examined do not say who invented the radio."
    offline = OfflineEngine()

    async def answer(request: LLMRequest) -> AnalysisOutput | LLMResponse:
        if not isinstance(request.inputs, AnalyzeInputs):
            return await offline.complete(request)
        phone = [s.id for s in request.inputs.sources if s.title == "Telephone"]
        found = FindingDraft(content="Bell patented it in 1876.", source_ids=phone)
        # The model files nothing under a part and calls its gap a minor one.
        return AnalysisOutput(findings=[found], gaps=[GapDraft(description=said, priority=3)])

    session = await run(FunctionLLM(answer, name="test:analyzer"))
    radio = [g for g in session.state.gaps if "radio" in g.description]
    assert [(g.description, g.priority) for g in radio] == [(said, 1)]
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert session.report is not None
    assert said in session.report.markdown and PART_GAP + RADIO_PART not in session.report.markdown
