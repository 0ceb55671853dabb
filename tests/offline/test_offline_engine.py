"""The offline engine as an LLMProvider: dispatch by structured inputs, typed outputs,
token counts, determinism; and its extractive topic-research roles."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from deepresearch.budget.degrade import CONDENSER
from deepresearch.errors import ProviderError
from deepresearch.offline import OfflineEngine, research
from deepresearch.offline.parts import question_parts
from deepresearch.phases import agents
from deepresearch.providers.base import LLMProvider, LLMRequest, Message
from deepresearch.roles import (
    AnalysisOutput,
    AnalyzeInputs,
    BriefInputs,
    BriefOutput,
    ClarifyInputs,
    ClarifyOutput,
    CompressInputs,
    CoverageAssessment,
    DelegationOutput,
    DirectiveDraft,
    PlanInputs,
    PlanOutput,
    ReflectInputs,
    SourceText,
    SummarizeInputs,
    SupervisionInputs,
    ThinkOutput,
)
from deepresearch.state import AgentRole, LinkFollow
from deepresearch.text import estimate_tokens, sentences

QUESTION = "How did the printing press change Europe?"
TEXT = (
    "The printing press was invented by Johannes Gutenberg around 1440 in Mainz. "
    "It allowed books to be produced quickly and cheaply across Europe. "
    "By 1500 printing presses in Western Europe had produced more than twenty million volumes. "
    "The spread of printing helped the Protestant Reformation and the Scientific Revolution."
)


SPECS = {(s.inputs, s.output): s for s in (*agents.ALL, CONDENSER)}


def request(
    inputs: BaseModel, output_type: type[BaseModel], *, user: str = "ignored"
) -> LLMRequest:
    spec = SPECS.get((type(inputs), output_type))  # the role a phase would call
    return LLMRequest(
        role=AgentRole.PLANNER,
        phase="planning",
        messages=[Message("system", "system text"), Message("user", user)],
        output_type=output_type,
        inputs=inputs,
        offline=spec.offline if spec else None,
    )


def test_the_engine_is_an_llm_provider_named_offline() -> None:
    engine = OfflineEngine()
    assert isinstance(engine, LLMProvider)
    assert engine.name == "offline" and repr(engine) == "OfflineEngine()"


@pytest.mark.parametrize(
    ("inputs", "output_type"),
    [
        (ClarifyInputs(question=QUESTION, today="2025-01-01"), ClarifyOutput),
        (BriefInputs(question=QUESTION, today="2025-01-01"), BriefOutput),
        (PlanInputs(question=QUESTION, max_sub_queries=3), PlanOutput),
        (
            AnalyzeInputs(
                question=QUESTION,
                sources=[SourceText(id="src-1", citation=1, title="Printing press", text=TEXT)],
            ),
            AnalysisOutput,
        ),
    ],
)
async def test_each_role_is_answered_with_its_output_type(
    inputs: BaseModel, output_type: type[BaseModel]
) -> None:
    response = await OfflineEngine().complete(request(inputs, output_type))
    assert type(response.output) is output_type
    assert response.model == "offline"
    assert response.usage.input_tokens > 0 and response.usage.output_tokens > 0


async def test_supervision_is_dispatched_by_the_output_type() -> None:
    inputs = SupervisionInputs(question=QUESTION, round=1, max_rounds=3)
    engine = OfflineEngine()
    for output_type in (ThinkOutput, DelegationOutput, CoverageAssessment):
        response = await engine.complete(request(inputs, output_type))
        assert type(response.output) is output_type


async def test_an_unknown_contract_is_a_provider_error() -> None:
    class Mystery(BaseModel):
        x: int = 0

    with pytest.raises(ProviderError, match="no rule for Mystery -> Mystery"):
        await OfflineEngine().complete(request(Mystery(), Mystery))
    supervision = SupervisionInputs(question=QUESTION, round=1, max_rounds=1)
    with pytest.raises(ProviderError, match="SupervisionInputs -> PlanOutput"):
        await OfflineEngine().complete(request(supervision, PlanOutput))


async def test_the_messages_only_change_the_token_count() -> None:
    inputs = PlanInputs(question=QUESTION, max_sub_queries=3)
    short = await OfflineEngine().complete(request(inputs, PlanOutput, user="short"))
    long = await OfflineEngine().complete(request(inputs, PlanOutput, user="long " * 400))
    assert short.output == long.output
    assert long.usage.input_tokens > short.usage.input_tokens + 300


async def test_the_engine_is_deterministic() -> None:
    inputs = PlanInputs(question=QUESTION, max_sub_queries=4)
    first = await OfflineEngine().complete(request(inputs, PlanOutput))
    second = await OfflineEngine().complete(request(inputs, PlanOutput))
    assert first.output == second.output and first.usage == second.usage


# -- extractive topic-research roles ---------------------------------------------------
def test_summaries_quote_the_content_verbatim() -> None:
    out = research.summarize(
        SummarizeInputs(
            query="printing press Europe", title="Printing press", url="u", content=TEXT
        )
    )
    assert out.executive_summary
    assert 1 <= len(out.key_excerpts) <= 5
    assert all(e in sentences(TEXT) for e in out.key_excerpts)


def test_compression_keeps_every_sentence_with_its_citation() -> None:
    src = SourceText(id="src-4", citation=4, title="Printing press", url="https://e.org", text=TEXT)
    out = research.compress(
        CompressInputs(question=QUESTION, sub_query="printing press", queries=["q1"], sources=[src])
    )
    for sentence in sentences(TEXT):
        assert f"- {sentence} [4]" in out.compressed
    assert "[4] Printing press — https://e.org" in out.compressed
    assert out.compressed.startswith("Queries made: q1")


def test_reflection_completes_when_the_tool_budget_is_spent_or_sources_suffice() -> None:
    spent = research.reflect(
        ReflectInputs(
            question=QUESTION, sub_query="printing press", tool_calls_used=5, max_tool_calls=5
        )
    )
    assert spent.research_complete
    enough = [
        SourceText(id=f"src-{n}", citation=n, title="Printing press", text=TEXT) for n in (1, 2, 3)
    ]
    covered = research.reflect(
        ReflectInputs(
            question=QUESTION,
            sub_query="printing press",
            tool_calls_used=1,
            max_tool_calls=5,
            sources=enough,
        )
    )
    assert covered.research_complete and not covered.continue_searching


def test_reflection_searches_again_for_uncovered_words() -> None:
    out = research.reflect(
        ReflectInputs(
            question=QUESTION,
            sub_query="printing press censorship",
            queries_run=["printing press censorship"],
            tool_calls_used=1,
            max_tool_calls=5,
            sources=[SourceText(id="src-1", citation=1, title="Printing press", text=TEXT)],
        )
    )
    assert out.continue_searching and out.refined_query
    assert "censorship" in out.refined_query
    assert out.refined_query != "printing press censorship"


def test_a_word_with_an_accent_is_covered_by_a_source_writing_it_so() -> None:
    text = "Aruba, Bonaire and Curaçao lie off the coast of Venezuela."
    out = research.reflect(
        ReflectInputs(
            question="Where do Aruba and Curaçao lie?",
            sub_query="Curaçao coast",
            queries_run=["Curaçao coast"],
            tool_calls_used=1,
            max_tool_calls=5,
            sources=[SourceText(id="src-1", citation=1, title="ABC islands", text=text)],
        )
    )
    assert "curaçao" not in out.rationale.lower() and "Not yet covered" not in out.rationale


def test_an_entity_question_follows_the_name_its_best_source_gives() -> None:
    question = "Which emperor was buried with an army of clay soldiers?"
    found = SourceText(
        id="src-1", citation=1, title="[NEW] Clay Army", url="https://e.org/1",
        text="The Clay Army is a set of clay soldiers buried with Qin Shi Huang, the first "
        "emperor of China, in 210 BCE. The army guards the emperor in his afterlife.",
    )  # fmt: skip
    others = [
        SourceText(id=f"src-{n}", citation=n, title=f"Army {n}", text=found.text[:90])
        for n in (2, 3)
    ]
    inputs = ReflectInputs(
        question=question, sub_query=question.rstrip("?"), queries_run=[question.rstrip("?")],
        tool_calls_used=1, max_tool_calls=5, sources=[found, *others],
        last_novelty={"new": 3},
    )  # fmt: skip
    out = research.reflect(inputs)
    assert out.continue_searching and out.refined_query == "Qin Shi Huang"
    # once followed (and gathered), the researcher does not search it again
    again = inputs.model_copy(update={"queries_run": [*inputs.queries_run, "Qin Shi Huang"]})
    assert research.reflect(again).refined_query != "Qin Shi Huang"


def test_the_source_stating_the_name_the_part_gives_is_mined_for_bridges_first() -> None:
    # Three entries state more of the part's common words ("author", "years", "life"),
    # one its name ("Metamorphoses"): that one's names are followed.
    question = "Where did the Metamorphoses' author spend the final years of his life?"
    common = [
        SourceText(
            id=f"src-{n}", citation=n, title=f"Poet {n}",
            text=f"The author Poet {n} spent the final years of his life writing. "
            f"Kublai {n} was a friend.",
        )
        for n in (1, 2, 3)
    ]  # fmt: skip
    named = SourceText(
        id="src-4", citation=4, title="Metamorphoses",
        text="The Metamorphoses is a narrative poem by the poet Ovid.",
    )  # fmt: skip
    inputs = ReflectInputs(
        question=question, sub_query=question.rstrip("?"), queries_run=[question.rstrip("?")],
        tool_calls_used=1, max_tool_calls=5, sources=[*common, named],
        last_novelty={"new": 4},
    )  # fmt: skip
    out = research.reflect(inputs)
    assert out.continue_searching and out.refined_query == "Ovid"


def test_a_part_pointing_back_to_what_the_story_describes_follows_what_it_names() -> None:
    question = (
        "Keats strongly influenced many writers of a later English group of painters and "
        "poets. What was that group, and when was it founded?"
    )
    keats = SourceText(
        id="src-1", citation=1, title="John Keats", url="https://e.org/1",
        text="He was placed in the canon of English literature, strongly influencing many "
        "writers of the Pre-Raphaelite Brotherhood; the Encyclopaedia Britannica praised him.",
    )  # fmt: skip
    lead = _first_lead(question, "group keats strongly influenced writers", keats)
    assert lead == "Pre-Raphaelite Brotherhood"


def _first_lead(question: str, sub_query: str, source: SourceText) -> str:
    """The first search the offline researcher's reflection proposes after ``sub_query``
    gathered ``source``."""
    return _leads_after(question, sub_query, [source])[0]


def _leads_after(question: str, sub_query: str, sources: list[SourceText]) -> list[str]:
    """The searches the offline researcher's reflection proposes, in order, after
    ``sub_query`` gathered ``sources``."""
    inputs = ReflectInputs(
        question=question, sub_query=sub_query, queries_run=[sub_query], tool_calls_used=1,
        max_tool_calls=5, sources=sources, last_novelty={"new": len(sources)},
    )  # fmt: skip
    return [lead.query for lead in research._leads(inputs, sub_query, {sub_query})]


def test_a_part_whose_it_stands_for_the_kind_the_part_before_asks_follows_that_kind() -> None:
    # "it" is the dynasty "which dynasty was that" asks for: the names the sources write
    # as a dynasty come first, not the entry's own aliases ("Prince of Qin")
    question = (
        "Emperor Taizong pushed his father to revolt against the ruling dynasty of the "
        "time. Which dynasty was that, and over which years did it rule?"
    )
    taizong = SourceText(
        id="src-1", citation=1, title="Emperor Taizong", url="https://e.org/1",
        text="Emperor Taizong, previously Prince of Qin, personal name Li Shimin, was the "
        "second emperor of China, ruling from 626 to 649. He encouraged his father Li Yuan "
        "to rebel against the Sui dynasty at Jinyang in 617.",
    )  # fmt: skip
    assert _first_lead(question, "years rule emperor taizong pushed father", taizong) == "Sui"
    parts = question_parts(question, [])
    assert research._told_of(parts, parts[-1]) == parts[-2]
    # a person the part before asks for is found by the part's own words, as before
    general = question_parts("Which general crossed the Alps, and where did he die?", [])
    assert research._told_of(general, general[-1]) is None


def test_a_who_part_searches_its_words_with_the_doer_noun_first() -> None:
    # Entries word the answer as an agent noun ("the inventor of radio"), which the
    # part's verb does not match: that search comes before the bridge hops.
    question = "Who invented the radio?"
    found = SourceText(
        id="src-1", citation=1, title="Radio", url="https://e.org/1",
        text="Radio technologies invented in the 19th century changed Europe. Radio waves "
        "were studied by Heinrich Hertz in Karlsruhe.",
    )  # fmt: skip
    inputs = ReflectInputs(
        question=question, sub_query="Who invented the radio", tool_calls_used=1,
        queries_run=["Who invented the radio"], max_tool_calls=5, sources=[found],
        last_novelty={"new": 1},
    )  # fmt: skip
    out = research.reflect(inputs)
    assert out.continue_searching and out.refined_query == "radio inventor"
    again = inputs.model_copy(update={"queries_run": [*inputs.queries_run, "radio inventor"]})
    assert research.reflect(again).refined_query != "radio inventor"


def test_a_question_that_names_its_subject_exits_early_without_hops() -> None:
    enough = [
        SourceText(id=f"src-{n}", citation=n, title="Printing press", text=TEXT) for n in (1, 2, 3)
    ]
    asked = "How did the printing press change Europe"
    inputs = ReflectInputs(
        question=QUESTION, sub_query=asked, queries_run=[asked], tool_calls_used=1,
        max_tool_calls=5, sources=enough,
    )  # fmt: skip
    out = research.reflect(inputs)
    assert out.research_complete and not out.refined_query


def _pointing_back(own_query: str, titles: list[str]) -> ReflectInputs:
    question = "What was the Thirty Years' War and how did it end?"
    sources = [
        SourceText(id=f"src-{n}", citation=n, title=t, text=f"{t} ended with the Peace of Prague.")
        for n, t in enumerate(titles, 1)
    ]
    return ReflectInputs(
        question=question, sub_query=own_query, queries_run=[own_query], tool_calls_used=1,
        max_tool_calls=10, sources=sources, last_novelty={"new": len(sources)},
    )  # fmt: skip


def _refined_queries(inputs: ReflectInputs) -> list[str]:
    """The searches reflection asks for, one after another, each counted as run (and the
    links each follows as followed, as phases.topic records them)."""
    return [q for q, _ in _refined_searches(inputs)]


def _refined_searches(inputs: ReflectInputs) -> list[tuple[str, LinkFollow | None]]:
    searches: list[tuple[str, LinkFollow | None]] = []
    for _ in range(6):
        out = research.reflect(inputs)
        if not (out.continue_searching and out.refined_query):
            break
        searches.append((out.refined_query, out.follow))
        followed = [*inputs.links_followed, *(out.follow.titles if out.follow else [])]
        inputs = inputs.model_copy(
            update={
                "queries_run": [*inputs.queries_run, out.refined_query],
                "links_followed": followed,
            }
        )
    return searches


def test_a_part_that_points_back_searches_its_own_words_on_what_it_points_to() -> None:
    inputs = _pointing_back("end thirty years war", ["[NEW] Thirty Years' War", "Seven Years' War"])
    queries = _refined_queries(inputs)
    # "end" alone would find every entry on endings; with the entity it is this war's end,
    # searched before the names the sources give
    assert queries[:2] == ["Thirty Years' War end", "Peace of Prague"]
    assert "end" not in queries


def test_own_words_of_one_word_are_never_searched_alone() -> None:
    # no gathered title and no capitalised phrase is made of the borrowed words
    inputs = _pointing_back("end thirty years war", ["Treaty", "Siege"])
    inputs = inputs.model_copy(
        update={"question": "what was the thirty years war and how did it end?"}
    )
    queries = _refined_queries(inputs)
    assert "end" not in queries


def test_an_entity_question_follows_a_link_of_its_best_source_after_the_names() -> None:
    question = "Which plant does the giant panda eat?"
    panda = SourceText(
        id="src-1", citation=1, title="[NEW] Giant panda", url="https://e.org/1",
        text="The giant panda is a bear. Its diet: the panda does eat bamboo plant shoots.",
        links=["Bear", "Bamboo"],
    )  # fmt: skip
    inputs = ReflectInputs(
        question=question, sub_query=question.rstrip("?"), queries_run=[question.rstrip("?")],
        tool_calls_used=1, max_tool_calls=10, sources=[panda], last_novelty={"new": 1},
    )  # fmt: skip
    searches = _refined_searches(inputs)
    # the link (named in lower case) followed, kept if it states the part's own words
    # (the query shows both); the one whose sentence answers the part best first ("a
    # bear" says less about which plant it eats)
    words = ["eat", "giant", "panda", "plant"]
    assert searches == [
        ('"Bamboo" eat giant panda plant', LinkFollow(titles=["Bamboo"], words=words)),
        ('"Bear" eat giant panda plant', LinkFollow(titles=["Bear"], words=words)),
    ]


def test_a_topic_tries_at_most_links_per_topic_links() -> None:
    question = "Which plant does the giant panda eat?"
    panda = SourceText(
        id="src-1", citation=1, title="Giant panda", url="https://e.org/1",
        text="The giant panda does eat bamboo, grass, fruit, meat and eggs as plant food.",
        links=["Bamboo", "Grass", "Fruit", "Meat", "Egg"],
    )  # fmt: skip
    inputs = ReflectInputs(
        question=question, sub_query=question.rstrip("?"), queries_run=[question.rstrip("?")],
        tool_calls_used=1, max_tool_calls=10, sources=[panda], last_novelty={"new": 1},
    )  # fmt: skip
    followed = [f for _, f in _refined_searches(inputs) if f is not None]
    assert len(followed) == research.LINKS_PER_TOPIC


# -- supervision: links from any topic's sources ----------------------------------------
def test_a_directive_that_follows_links_is_complete_after_its_search() -> None:
    follow = LinkFollow(titles=["Bamboo", "Bear"], words=["food", "plant"])
    inputs = ReflectInputs(
        question="What does the giant panda eat, and what kind of plant is that food?",
        sub_query=f"{follow.query()}. Research this as part of the question.",
        queries_run=[follow.query()], tool_calls_used=1, max_tool_calls=5, sources=[],
        follow=follow,
    )  # fmt: skip
    out = research.reflect(inputs)
    # the titles are entries to try, not words to search for
    assert out.research_complete and not out.refined_query
    # the same text without the field is an ordinary sub-query: its words are searched
    plain = research.reflect(inputs.model_copy(update={"follow": None}))
    assert not plain.research_complete


async def test_an_answer_counts_as_the_json_a_model_would_write() -> None:
    # The link-following field is left out of the schema sent to a model, so it is not
    # counted in the offline answer's tokens either: figures stay comparable.
    follow = LinkFollow(titles=["Bamboo" * 20], words=["plant"] * 20)
    draft = DirectiveDraft(research_topic="Bamboo plant. Research it.", follow=follow)

    def answer(_: SupervisionInputs) -> DelegationOutput:
        return DelegationOutput(directives=[draft])

    inputs = SupervisionInputs(question=QUESTION, round=1, max_rounds=2)
    request = LLMRequest(
        role=AgentRole.SUPERVISOR, phase="supervision", messages=[Message("user", "x")],
        output_type=DelegationOutput, inputs=inputs, offline=answer,
    )  # fmt: skip
    response = await OfflineEngine().complete(request)
    assert isinstance(response.output, DelegationOutput)
    assert response.output.directives[0].follow == follow  # the phase still gets it
    written = json.loads(response.output.model_dump_json())
    del written["directives"][0]["follow"]
    assert response.usage.output_tokens == estimate_tokens(
        json.dumps(written, separators=(",", ":"))
    )


def test_a_hop_from_a_name_the_part_gives_reads_that_names_entry() -> None:
    # Three entries say more of the part's words than *Switzerland*, whose "It is bordered
    # by …" names the country south of it: its entry is read for the hop all the same.
    question = "What is the capital of the country that borders Switzerland on the south?"
    others = [
        SourceText(
            id=f"src-{n}",
            citation=n,
            title=title,
            url=f"https://e.org/{n}",
            text=f"{title} lies on the south border of Switzerland; the capital is near.",
        )
        for n, title in enumerate(["Lake Lugano", "Lake Maggiore", "Simplon Pass"], 1)
    ]
    switzerland = SourceText(
        id="src-4", citation=4, title="Switzerland", url="https://e.org/4",
        text="Switzerland is a landlocked country in Europe. It is bordered by Germany to "
        "the north, France to the west and Italy to the south.",
    )  # fmt: skip
    assert "Italy" in _leads_after(question, question, [*others, switzerland])


def test_that_thing_a_story_tells_of_is_followed_from_the_storys_words() -> None:
    # "that country" is the one the story describes ("to its east"): its bridge is named
    # where the sources say the story's words, not the part's ("capital")
    question = (
        "Papua New Guinea shares a maritime border to its east with another country. "
        "What is that country's capital?"
    )
    png = SourceText(
        id="src-1", citation=1, title="Papua New Guinea", url="https://e.org/1",
        text="Papua New Guinea is a country in Oceania; its capital is Port Moresby. It has "
        "a land border with Indonesia to the west and maritime borders with Australia to "
        "the south and the Solomon Islands to the east.",
    )  # fmt: skip
    parts = question_parts(question, [])
    assert research._pointed_scene(parts, parts[-1]) == parts[0]
    assert "Solomon Islands" in _leads_after(question, parts[-1].query, [png])[:2]


def test_the_noun_a_part_points_with_may_be_a_piece_of_the_storys_word() -> None:
    question = (
        "The Renaissance first took hold in one Italian city-republic. Of which region is "
        "that city the capital today?"
    )
    parts = question_parts(question, [])
    assert research._pointed_scene(parts, parts[-1]) == parts[0]


def test_a_name_given_as_the_place_things_are_set_in_is_no_entry_to_hop_from() -> None:
    part = "What short-lived republic did El Libertador lead in northern South America"
    named = {"el", "libertador", "south", "america"}
    assert not research._entry_named("South America", named, part)
    borders = "What is the capital of the country that borders Switzerland on the south"
    assert research._entry_named("Switzerland", {"switzerland"}, borders)
