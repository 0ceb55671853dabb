"""Every part of the question has a finding that addresses it, whatever analyzer ran: a
model that answers half the question leaves the other half an open gap, with the same
outcome as the offline analyzer's (status, warnings, gaps DataFrame, report)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.offline import OfflineEngine
from deepresearch.offline.coverage import PART_GAP
from deepresearch.offline.parts import question_parts
from deepresearch.phases.coverage import NO_FINDING, check_parts, filed_part
from deepresearch.providers.base import LLMRequest, LLMResponse
from deepresearch.roles import AnalysisOutput, AnalyzeInputs, FindingDraft, GapDraft
from deepresearch.state import Finding, Gap, ResearchState, RunStatus, Source
from deepresearch.store import SessionStore
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


async def test_a_gathered_title_the_question_gives_whole_is_one_part_in_every_phase() -> None:
    """The title "War and Peace" names one thing once a source so titled is gathered: the
    analyzer is told one part, the offline analyzer files its findings under it, and the
    coverage check opens no gap for "Who wrote War" or "Who wrote Peace"."""
    documents = [
        {
            "url": "https://example.org/war-and-peace",
            "title": "War and Peace",
            "content": "War and Peace is an epic novel by the Russian author Leo Tolstoy, "
            "published serially between 1865 and 1869.",
        }
    ]
    llm = FunctionLLM(OfflineEngine().complete, name="test:offline")
    config = dr.Config(max_iterations=1, persist=False)
    session = dr.Session(
        "Who wrote War and Peace?", llm=llm, search=StaticSearch(documents), config=config
    )
    await session.run()
    (request,) = llm.requests_for(AnalysisOutput)
    assert isinstance(request.inputs, AnalyzeInputs)
    assert request.inputs.parts == ["Who wrote War and Peace"]
    assert {f.category for f in session.state.findings} == {"Who wrote War and Peace"}
    assert part_gaps(session) == []
    assert session.state.status is RunStatus.COMPLETED


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


def gap_giver(said: str, *, answer_later: bool = False) -> FunctionLLM:
    """A model whose analyzer finds only the telephone's inventor and gives ``said`` as a
    minor gap, filing nothing under a part; with ``answer_later``, its next analysis
    finds the radio's (citing the source gathered before, by URL)."""
    offline = OfflineEngine()
    analyses: list[AnalyzeInputs] = []

    async def answer(request: LLMRequest) -> AnalysisOutput | LLMResponse:
        if not isinstance(request.inputs, AnalyzeInputs):
            return await offline.complete(request)
        analyses.append(request.inputs)
        if len(analyses) > 1 and answer_later:
            radio = FindingDraft(content="Marconi, 1895.", source_ids=[DOCUMENTS[1]["url"]])
            return AnalysisOutput(findings=[radio])
        found = FindingDraft(content="Bell patented it in 1876.", source_ids=[DOCUMENTS[0]["url"]])
        return AnalysisOutput(findings=[found], gaps=[GapDraft(description=said, priority=3)])

    return FunctionLLM(answer, name="test:analyzer")


@pytest.mark.parametrize(
    "said",
    [
        "The sources examined do not say who invented the radio.",
        "The radio's inventor is not named in the sources.",
        # The part asks for the inventor; the model speaks of the invention.
        "The invention of the radio is not covered by the sources examined.",
    ],
)
async def test_a_model_gap_in_its_own_words_stands_for_the_part_once(said: str) -> None:
    session = await run(gap_giver(said))
    radio = [g for g in session.state.gaps if "radio" in g.description]
    assert [(g.description, g.priority, g.part) for g in radio] == [(said, 1, RADIO_PART)]
    assert session.state.status == RunStatus.COMPLETED_WITH_WARNINGS
    assert session.gaps.loc[radio[0].id, "part"] == RADIO_PART
    assert session.report is not None
    assert said in session.report.markdown and PART_GAP + RADIO_PART not in session.report.markdown


async def test_a_model_gap_standing_for_a_part_closes_once_a_later_iteration_answers_it() -> None:
    said = "The sources examined do not say who invented the radio."
    config = dr.Config(max_iterations=2, persist=False)
    search = StaticSearch(DOCUMENTS)
    session = dr.Session(
        QUESTION, llm=gap_giver(said, answer_later=True), search=search, config=config
    )
    result = await session.run()
    assert session.state.iteration == 2
    (gap,) = session.state.gaps
    assert (gap.description, gap.part, gap.addressed) == (said, RADIO_PART, True)
    # A clean run: status, exit code (result.ok, no warnings), report and DataFrame agree.
    assert result.ok and result.warnings == [] and session.state.unanswered_gaps() == []
    assert bool(session.gaps.loc[gap.id, "addressed"])
    assert session.report is not None and said not in session.report.markdown
    assert "Not answered" not in session.report.markdown


def told(question: str, said: str, answered: list[str]) -> ResearchState:
    """A state for ``question`` whose analyzer gave ``said`` as a minor gap and findings
    filed under the parts ``answered``, after the part check."""
    state = ResearchState(question=question)
    state.gaps.append(Gap(id="gap-1", description=said, priority=3))
    for n, part in enumerate(answered, 1):
        state.findings.append(Finding(id=f"f-{n}", content="An answer.", category=part))
    check_parts(state)
    return state


@pytest.mark.parametrize(
    ("question", "said", "part"),
    [
        (QUESTION, "The invention of the radio is not covered.", RADIO_PART),
        ("Who created Sherlock Holmes?", "The creation of Sherlock Holmes is not described.",
         "Who created Sherlock Holmes"),
        ("Who wrote Hamlet?", "No source says who wrote Hamlet.", "Who wrote Hamlet"),
        ("Who wrote Hamlet?", "The writer of Hamlet is not named.", "Who wrote Hamlet"),
    ],
)  # fmt: skip
def test_a_gap_naming_the_doer_or_the_deed_in_another_form_stands_for_the_part(
    question: str, said: str, part: str
) -> None:
    state = told(question, said, [p.text for p in question_parts(question) if p.text != part])
    assert [(g.description, g.priority, g.part) for g in state.gaps] == [(said, 1, part)]


@pytest.mark.parametrize(
    "said",
    [
        "No source says who invented the telephone.",  # another part's gap
        # It speaks of the other part too: it may be about that one, so both lines stay.
        "The sources say who invented the telephone, not who invented the radio.",
        "The radio's range is not given.",  # not what the part asks
    ],
)
def test_a_gap_that_may_not_be_about_the_part_does_not_stand_for_it(said: str) -> None:
    state = told(QUESTION, said, [PHONE_PART])
    assert [(g.description, g.priority, g.part) for g in state.gaps] == [
        (said, 3, None),
        (PART_GAP + RADIO_PART, 1, RADIO_PART),
    ]


def test_the_gap_standing_for_a_part_is_remembered_by_a_saved_session(tmp_path: Path) -> None:
    state = told(QUESTION, "Nothing says who invented the radio.", [PHONE_PART])
    assert state.gaps[0].part == RADIO_PART
    with SessionStore(tmp_path / "sessions.db") as store:
        store.save(state)
        resumed = store.load(state.id)
    resumed.findings.append(Finding(id="f-2", content="Marconi, 1895.", category=RADIO_PART))
    assert check_parts(resumed) == ([], 1)
    assert [(g.addressed, g.part) for g in resumed.gaps] == [(True, RADIO_PART)]


def test_a_part_gap_of_a_state_saved_before_gaps_named_their_part_still_closes() -> None:
    state = told(QUESTION, "Unrelated.", [PHONE_PART])
    saved = json.loads(state.to_json())
    for gap in saved["gaps"]:
        del gap["part"]
    old = ResearchState.from_json(json.dumps(saved))
    old.findings.append(Finding(id="f-2", content="Marconi, 1895.", category=RADIO_PART))
    assert check_parts(old) == ([], 1)
    assert [(g.description, g.addressed, g.part) for g in old.gaps][1:] == [
        (PART_GAP + RADIO_PART, True, RADIO_PART)
    ]


async def test_a_part_gap_stays_open_when_other_parts_findings_hold_its_words() -> None:
    # The words of the radio part's query ("inventor radio") are all in a finding filed
    # under the telephone part: that does not answer who invented the radio.
    said = "Bell, an inventor, also studied the radio waves of his day."
    llm = analyzer({"Telephone": (said, PHONE_PART)})
    config = dr.Config(max_iterations=2, persist=False)
    session = dr.Session(QUESTION, llm=llm, search=StaticSearch(DOCUMENTS), config=config)
    result = await session.run()
    assert session.state.iteration == 2
    (gap,) = session.state.unanswered_gaps()
    assert gap.description == PART_GAP + RADIO_PART and not gap.addressed
    assert not result.ok
    assert session.report is not None and "Not answered" in session.report.markdown


def test_a_part_that_only_sets_the_scene_never_opens_a_gap() -> None:
    # "Besides directing" asks nothing: a model that answers the question after it
    # leaves nothing unanswered.
    state = ResearchState(question="Besides directing, who invented the telephone?")
    state.sources.append(Source(id="src-1", citation=1, **DOCUMENTS[0]))
    state.findings.append(
        Finding(
            id="f-1",
            content="Alexander Graham Bell invented the telephone.",
            source_ids=["src-1"],
            category="who invented the telephone",
        )
    )
    assert check_parts(state) == ([], 0)
    assert state.gaps == []
