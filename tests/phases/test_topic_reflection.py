"""The topic researcher's loop: search → forced reflection → (extract) until done, its
tool-call budget, the early exit on simple queries, and novelty tags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from topic_doubles import ScriptSearch, doc, make_context, new_state, reflect_with

from deepresearch.config import Config
from deepresearch.phases import prompts
from deepresearch.phases.topic import novelty_line, research_topic
from deepresearch.providers.corpus import CorpusSearch
from deepresearch.roles import ReflectInputs, ReflectOutput
from deepresearch.state import EventKind, LinkFollow, Novelty, Phase, ResearchState
from deepresearch.testing import FunctionLLM, ScriptedLLM, StaticSearch
from deepresearch.text import jaccard, term_set

G = Phase.GATHERING


def _reflections(llm: FunctionLLM) -> list[ReflectInputs]:
    out = [r.inputs for r in llm.requests_for(ReflectOutput)]
    assert all(isinstance(i, ReflectInputs) for i in out)
    return out  # type: ignore[return-value]


def _again(query: str, follow: LinkFollow | None = None) -> ReflectOutput:
    return ReflectOutput(
        continue_searching=True, refined_query=query, rationale="more", follow=follow
    )


def _following(title: str, *words: str) -> ReflectOutput:
    """The next search follows the link ``title`` (as the offline researcher asks)."""
    follow = LinkFollow(titles=[title], words=list(words))
    return _again(follow.query(), follow)


# -- the loop --------------------------------------------------------------------------
async def test_reflection_follows_every_search_and_stops_on_research_complete(
    search: StaticSearch,
) -> None:
    done = ReflectOutput(research_complete=True, rationale="three sources agree")
    llm = ScriptedLLM({ReflectOutput: [_again("Gutenberg movable type"), done]})
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("printing press Europe")
    topic = await research_topic(state, ctx, sq, G)
    # one reflection per search, and nothing after research_complete though budget remains
    assert search.queries == ["printing press Europe", "Gutenberg movable type"]
    assert topic.searches == 2 and topic.tool_calls == 2 < ctx.config.topic_max_tool_calls
    assert len(llm.requests_for(ReflectOutput)) == 2
    assert topic.reflections == [_again("Gutenberg movable type").decision(), done.decision()]
    assert topic.stop_reason == "research complete: three sources agree"
    assert state.topic_results == [topic]


async def test_reflection_is_forced_even_after_an_empty_search() -> None:
    search = ScriptSearch([[]])
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("something nobody wrote about")
    topic = await research_topic(state, ctx, sq, G)
    assert topic.searches == 1 and topic.source_ids == []
    assert len(_reflections(llm)) == 1
    assert (
        _reflections(llm)[0].novelty_summary
        == "Novelty: 0 new, 0 related, 0 duplicate out of 0 results"
    )


async def test_refined_query_is_used_in_the_next_search(search: StaticSearch) -> None:
    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        if n < 3:
            return _again(f"  refined query {n} ")
        return ReflectOutput(research_complete=True)

    llm = FunctionLLM(reflect_with(decide))
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("printing press Europe")
    topic = await research_topic(state, ctx, sq, G)
    expected = ["printing press Europe", "refined query 1", "refined query 2"]
    assert search.queries == expected == topic.queries
    # each reflection sees every query run so far and the tool calls used
    seen = [(i.queries_run, i.tool_calls_used, i.max_tool_calls) for i in _reflections(llm)]
    assert seen == [(expected[:1], 1, 10), (expected[:2], 2, 10), (expected, 3, 10)]


async def test_a_refined_query_that_repeats_an_earlier_search_ends_the_loop(
    search: StaticSearch,
) -> None:
    llm = ScriptedLLM({ReflectOutput: [_again("Gutenberg"), _again("PRINTING press europe")]})
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("printing press Europe")
    topic = await research_topic(state, ctx, sq, G)
    assert search.queries == ["printing press Europe", "Gutenberg"]
    assert topic.stop_reason == "refined query repeats an earlier search"


async def test_not_continuing_without_research_complete_stops_as_sufficient_for_now(
    search: StaticSearch,
) -> None:
    enough = ReflectOutput(continue_searching=False, rationale="enough for this round")
    no_query = ReflectOutput(continue_searching=True, refined_query=None)
    for decision, reason in [
        (enough, "sufficient for now: enough for this round"),
        (no_query, "sufficient for now: "),
    ]:
        llm = ScriptedLLM({ReflectOutput: [decision, _again("never run")]})
        ctx, _ = make_context(llm, StaticSearch(search.documents))
        state, (sq,) = new_state("printing press Europe")
        topic = await research_topic(state, ctx, sq, G)
        assert topic.searches == 1 and topic.stop_reason == reason


# -- the tool-call budget ----------------------------------------------------------------
async def test_tool_call_budget_defaults_to_ten_and_caps_searches(search: StaticSearch) -> None:
    assert Config().topic_max_tool_calls == 10
    llm = FunctionLLM(reflect_with(lambda i, n: _again(f"angle {n}")))
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("printing press Europe")
    topic = await research_topic(state, ctx, sq, G)
    assert topic.searches == len(search.queries) == 10 == topic.tool_calls
    assert topic.stop_reason == "tool-call budget of 10 spent"


@pytest.mark.parametrize(("budget", "searches", "extracts"), [(5, 3, 2), (4, 2, 2), (1, 1, 0)])
async def test_search_and_extract_both_count_toward_the_budget(
    search: StaticSearch, budget: int, searches: int, extracts: int
) -> None:
    url = search.documents[0].url

    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        return ReflectOutput(
            continue_searching=True, refined_query=f"angle {n}", urls_to_extract=[url]
        )

    llm = FunctionLLM(reflect_with(decide))
    ctx, _ = make_context(llm, search, topic_max_tool_calls=budget)
    state, (sq,) = new_state("printing press Europe")
    topic = await research_topic(state, ctx, sq, G)
    assert (topic.searches, topic.extracts) == (searches, extracts)
    assert (search.calls["search"], search.calls["extract"]) == (searches, extracts)
    assert topic.tool_calls == budget
    assert topic.stop_reason == f"tool-call budget of {budget} spent"


# -- the early exit on simple queries ----------------------------------------------------
async def test_early_exit_heuristic_fires_on_a_simple_query(search: StaticSearch) -> None:
    llm = FunctionLLM()  # the offline engine reflects as the prompt asks
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("printing press Europe")
    topic = await research_topic(state, ctx, sq, G)
    assert topic.searches == 1 and topic.tool_calls < ctx.config.topic_max_tool_calls
    assert topic.reflections[0].research_complete
    assert topic.stop_reason == "research complete: 4 relevant sources cover the sub-query."
    assert "about 3 relevant sources cover it" in llm.requests_for(ReflectOutput)[0].system


async def test_a_query_the_first_search_does_not_cover_searches_again(
    search: StaticSearch,
) -> None:
    llm = FunctionLLM()
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("printing press effects on universities and merchants")
    topic = await research_topic(state, ctx, sq, G)
    assert topic.searches == 2
    assert topic.reflections[0].continue_searching and topic.reflections[0].refined_query
    assert search.queries[1] == topic.reflections[0].refined_query


# -- novelty tags ----------------------------------------------------------------------
_NATO = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike"
BASE = _NATO + " november oscar papa quebec romeo sierra tango"
NEAR = _NATO + " november oscar papa quebec romeo sierra uniform"  # one word changed
HALF = _NATO + " amber basil cedar dune ember fern grove"  # 13 of 20 words shared
OTHER = "river stone cloud maple willow thunder copper violet canyon harbor"


def _sim(a: dict[str, Any], b: dict[str, Any]) -> float:
    return jaccard(
        term_set(a["title"] + " " + a["content"]), term_set(b["title"] + " " + b["content"])
    )


async def test_novelty_tags_follow_the_thresholds_and_reach_the_researcher() -> None:
    base, near = doc(1, BASE, title="Base"), doc(2, NEAR, title="Near")
    half, other = doc(3, HALF, title="Half"), doc(4, OTHER, title="Other")
    # the test data sits clearly inside each band
    assert _sim(base, near) > 0.7
    assert 0.3 <= max(_sim(base, half), _sim(near, half)) <= 0.7
    assert max(_sim(x, other) for x in (base, near, half)) < 0.3
    search = ScriptSearch([[base], [near, half, other]])
    llm = FunctionLLM(reflect_with(lambda i, n: _again("second") if n == 1 else None))
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("alpha bravo")
    topic = await research_topic(state, ctx, sq, G)
    tags = {s.title: (s.novelty, s.related_to) for s in state.sources}
    assert tags == {
        "Base": (Novelty.NEW, None),  # nothing earlier to compare with
        "Near": (Novelty.DUPLICATE, None),
        "Half": (Novelty.RELATED, "Base"),
        "Other": (Novelty.NEW, None),
    }
    near_src = state.sources[1]
    assert near_src.novelty_score == round(1 - _sim(base, near), 3)
    # what the researcher sees: the summary line, the counts and the tag on every title
    second = llm.requests_for(ReflectOutput)[1]
    assert isinstance(second.inputs, ReflectInputs)
    line = "Novelty: 1 new, 1 related, 1 duplicate out of 3 results"
    assert second.inputs.novelty_summary == line and line in second.user
    assert second.inputs.last_novelty == {"new": 1, "related": 1, "duplicate": 1}
    for title in ("[NEW] Base", "[DUPLICATE] Near", "[RELATED: Base] Half", "[NEW] Other"):
        assert title in second.user
    assert "[RELATED] or [DUPLICATE]" in prompts.REFLECT_SYSTEM
    assert topic.novelty_counts == {
        "new": 2, "related": 1, "duplicate": 1, "repeated": 0, "already_seen": 0
    }  # fmt: skip


async def test_novelty_thresholds_come_from_config() -> None:
    base, half = doc(1, BASE, title="Base"), doc(3, HALF, title="Half")
    search = ScriptSearch([[base, half]])
    llm = FunctionLLM(reflect_with(lambda i, n: ReflectOutput(research_complete=True)))
    ctx, _ = make_context(
        llm, search, novelty_related_threshold=0.05, novelty_duplicate_threshold=0.2
    )
    state, (sq,) = new_state("alpha bravo")
    await research_topic(state, ctx, sq, G)
    assert [s.novelty for s in state.sources] == [Novelty.NEW, Novelty.DUPLICATE]


async def test_similarity_exactly_on_a_threshold_counts_as_related() -> None:
    words = BASE.split()
    base = " ".join(words[:10])
    # Jaccard 7/10 = 0.7 (not above the duplicate threshold), 3/10 = 0.3 (not below new)
    edge_high, edge_low = " ".join(words[:7]), " ".join(words[:3])
    search = ScriptSearch(
        [
            [doc(1, base, title=""), doc(2, edge_high, title="")],
            [doc(3, base, title=""), doc(4, edge_low, title="")],
        ]
    )
    llm = FunctionLLM(reflect_with(lambda i, n: ReflectOutput(research_complete=True)))
    ctx, _ = make_context(llm, search)
    state, (a, b) = new_state("alpha", "bravo")
    await research_topic(state, ctx, a, G)
    await research_topic(state, ctx, b, G)
    assert [s.novelty_score for s in state.sources] == [1.0, 0.3, 1.0, 0.7]
    assert [s.novelty for s in state.sources] == [Novelty.NEW, Novelty.RELATED] * 2


async def test_novelty_compares_only_with_sources_of_the_same_sub_query() -> None:
    search = ScriptSearch([[doc(1, BASE, title="Base")], [doc(2, NEAR, title="Near")]])
    llm = FunctionLLM(reflect_with(lambda i, n: ReflectOutput(research_complete=True)))
    ctx, _ = make_context(llm, search)
    state, (first, second) = new_state("alpha bravo", "alpha kilo")
    await research_topic(state, ctx, first, G)
    await research_topic(state, ctx, second, G)
    assert [s.novelty for s in state.sources] == [Novelty.NEW, Novelty.NEW]


async def test_novelty_line_tells_repeats_from_other_researchers_finds() -> None:
    hits = [doc(1, BASE), doc(2, OTHER)]
    search = ScriptSearch([hits, [*hits, doc(3, HALF)], hits])
    llm = FunctionLLM(reflect_with(lambda i, n: _again("again") if n == 1 else None))
    ctx, _ = make_context(llm, search)
    state, (a, b) = new_state("alpha bravo", "quebec romeo")
    await research_topic(state, ctx, a, G)
    await research_topic(state, ctx, b, G)  # its hits all belong to researcher a
    assert [i.novelty_summary for i in _reflections(llm)] == [
        "Novelty: 2 new, 0 related, 0 duplicate out of 2 results",
        "Novelty: 0 new, 1 related, 0 duplicate out of 1 results "
        "(2 more repeated from your earlier searches)",
        "Novelty: 0 new, 0 related, 0 duplicate out of 0 results "
        "(2 more already seen by other researchers)",
    ]
    assert novelty_line({"new": 1, "repeated": 2, "already_seen": 1}) == (
        "Novelty: 1 new, 0 related, 0 duplicate out of 1 results "
        "(2 more repeated from your earlier searches, 1 more already seen by other researchers)"
    )
    assert state.topic_results[1].source_ids == []
    assert state.topic_results[1].novelty_counts["already_seen"] == 2


async def test_stop_heuristic_ends_research_when_the_last_search_found_nothing_new() -> None:
    base = doc(1, BASE, title="Base")
    search = ScriptSearch([[base], [doc(2, NEAR, title="Near"), doc(3, HALF, title="Half")]])
    # first reflection asks for more; later ones are the offline engine's own judgement
    llm = FunctionLLM(reflect_with(lambda i, n: _again("second angle") if n == 1 else None))
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("alpha bravo zebra")
    topic = await research_topic(state, ctx, sq, G)
    assert topic.searches == 2
    assert topic.reflections[-1].research_complete
    assert topic.stop_reason.startswith("research complete: The last search returned nothing new")
    assert "0 new, 1 related, 1 duplicate out of 2 results" in topic.stop_reason


async def test_a_follow_up_search_pages_past_what_is_already_gathered() -> None:
    # The provider ranks the same two known entries first for both queries; the follow-up
    # asks for twice the page and keeps the entries ranked below them.
    ranked = [doc(n, f"entry {n} on the war and its end") for n in range(1, 9)]
    search = ScriptSearch([ranked, ranked])

    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        return _again("the war end") if n == 1 else ReflectOutput(research_complete=True)

    ctx, events = make_context(FunctionLLM(reflect_with(decide)), search, max_sources_per_query=2)
    state, (sq,) = new_state("the war")
    topic = await research_topic(state, ctx, sq, G)
    urls = [s.url for s in state.sources]
    assert urls == [f"https://example.org/{n}" for n in (1, 2, 3, 4)]
    assert topic.searches == 2  # one search call each, counted as such
    # each call is recorded with what the provider returned: a page, then two pages
    assert [c["results"] for c in events.kinds(EventKind.SEARCH_CALL)] == [2, 4]


async def test_the_titles_a_hit_links_reach_its_source_and_the_researcher() -> None:
    done = ReflectOutput(research_complete=True, rationale="enough")
    llm = ScriptedLLM({ReflectOutput: [done]})
    hit = doc(1, "The giant panda eats bamboo.", metadata={"links": ["Bamboo"]})
    ctx, _ = make_context(llm, ScriptSearch([[hit, doc(2, "Pandas live in China.")]]))
    state, (sq,) = new_state("giant panda diet")
    await research_topic(state, ctx, sq, G)
    assert [s.links for s in state.sources] == [["Bamboo"], []]
    (inputs,) = [r.inputs for r in llm.requests_for(ReflectOutput)]
    assert isinstance(inputs, ReflectInputs)
    assert [s.links for s in inputs.sources] == [["Bamboo"], []]


async def test_a_search_that_follows_a_linked_title_adds_that_entry_alone() -> None:
    panda = doc(1, "The giant panda eats bamboo.", title="Giant panda", metadata={"links": ["Bamboo"]})  # fmt: skip
    bamboo = doc(2, "Bamboos are flowering plants of the grass family.", title="Bamboo")
    others = [doc(n, f"Bamboo story {n}.") for n in (3, 4)]
    search = ScriptSearch([[panda], [*others, bamboo]])

    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        return _following("Bamboo", "plant") if n == 1 else ReflectOutput(research_complete=True)

    llm = FunctionLLM(reflect_with(decide))
    ctx, _ = make_context(llm, search)
    state, (sq,) = new_state("giant panda food plant")
    topic = await research_topic(state, ctx, sq, G)
    # the search asks for the title; of its hits only the linked entry is added
    assert search.queries == ["giant panda food plant", '"Bamboo"']
    assert [s.title for s in state.sources] == ["Giant panda", "Bamboo"]
    # recorded: the query as shown, the links it followed, and the researcher is told
    assert topic.queries[-1] == '"Bamboo" plant'
    assert topic.follows == [LinkFollow(titles=["Bamboo"], words=["plant"])]
    assert topic.reflections[0].follow == topic.follows[0]
    assert [i.links_followed for i in _reflections(llm)] == [[], ["Bamboo"]]


async def test_a_model_researchers_quoted_query_is_a_search_not_link_following() -> None:
    # The same quoted, linked title as above, written by a model (no follow field): the
    # words are searched and a page of hits is added, whatever their titles.
    panda = doc(1, "The giant panda eats bamboo.", title="Giant panda", metadata={"links": ["Bamboo"]})  # fmt: skip
    bamboo = doc(2, "Bamboos are flowering plants of the grass family.", title="Bamboo")
    others = [doc(n, f"Bamboo story {n}.") for n in (3, 4)]
    search = ScriptSearch([[panda], [*others, bamboo]])

    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        return _again('"Bamboo" plant') if n == 1 else ReflectOutput(research_complete=True)

    ctx, _ = make_context(FunctionLLM(reflect_with(decide)), search)
    state, (sq,) = new_state("giant panda food plant")
    topic = await research_topic(state, ctx, sq, G)
    assert search.queries == ["giant panda food plant", '"Bamboo" plant']
    assert [s.title for s in state.sources][1:] == [h["title"] for h in [*others, bamboo]]
    assert topic.follows == []


async def test_a_linked_entry_that_does_not_state_the_words_asked_for_is_not_added() -> None:
    station = doc(1, "It makes 95 TWh on average.", title="Dam", metadata={"links": ["Average"]})
    average = doc(2, "In mathematics, an average is a central value. Rivers vary.", title="Average")  # fmt: skip
    search = ScriptSearch([[station], [average]])

    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        return _following("Average", "river") if n == 1 else ReflectOutput(research_complete=True)

    ctx, _ = make_context(FunctionLLM(reflect_with(decide)), search)
    state, (sq,) = new_state("river dam length")
    await research_topic(state, ctx, sq, G)
    # "river" is not in what the entry is (its opening sentence): the link is not kept
    assert [s.title for s in state.sources] == ["Dam"]


async def test_following_a_title_no_source_links_is_an_ordinary_search() -> None:
    first = doc(1, "The giant panda eats bamboo.", title="Giant panda")
    hits = [doc(n, f"Bamboo fact {n}.") for n in (2, 3)]
    search = ScriptSearch([[first], hits])

    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        return _following("Bamboo", "plant") if n == 1 else ReflectOutput(research_complete=True)

    ctx, _ = make_context(FunctionLLM(reflect_with(decide)), search)
    state, (sq,) = new_state("giant panda food")
    await research_topic(state, ctx, sq, G)
    assert search.queries[-1] == '"Bamboo" plant'
    assert len(state.sources) == 3


async def _opening_follow(follow: LinkFollow | None) -> tuple[ScriptSearch, list[str], FunctionLLM]:
    """A topic whose source links Bear and Bamboo, then a sub-query quoting both titles
    (following them when ``follow`` is given): the searches run, the titles gathered."""
    panda = doc(1, "The giant panda is a bear. It eats bamboo.", title="Giant panda", metadata={"links": ["Bear", "Bamboo"]})  # fmt: skip
    bear = doc(2, "Bears are carnivoran mammals.", title="Bear")
    bamboo = doc(3, "Bamboos are flowering plants of the grass family.", title="Bamboo")
    search = ScriptSearch([[panda], [bear], [bamboo]] if follow else [[panda], [bear, bamboo]])

    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        return ReflectOutput(research_complete=True)

    llm = FunctionLLM(reflect_with(decide))
    ctx, _ = make_context(llm, search)
    state, (first,) = new_state("giant panda eat")
    directive = state.add_sub_query('"Bear" "Bamboo" food plant', follow=follow)
    await research_topic(state, ctx, first, G)
    await research_topic(state, ctx, directive, G)
    return search, [s.title for s in state.sources], llm


async def test_an_opening_search_that_follows_titles_follows_links_any_topic_gathered() -> None:
    follow = LinkFollow(titles=["Bear", "Bamboo"], words=["food", "plant"])
    search, titles, llm = await _opening_follow(follow)
    # another topic's source links them: each title in turn, the first entry whose
    # opening states the words asked for kept alone (*Bear* does not: a common noun)
    assert search.queries == ["giant panda eat", '"Bear"', '"Bamboo"']
    assert titles == ["Giant panda", "Bamboo"]
    # the researcher is told its sub-query follows links (the offline one stops there)
    assert [i.follow for i in _reflections(llm)] == [None, follow]


async def test_an_opening_search_that_only_quotes_titles_is_an_ordinary_search() -> None:
    search, titles, _ = await _opening_follow(None)
    assert search.queries == ["giant panda eat", '"Bear" "Bamboo" food plant']
    assert titles == ["Giant panda", "Bear", "Bamboo"]


async def test_an_opening_search_of_titles_no_source_links_is_an_ordinary_search() -> None:
    search = ScriptSearch([[doc(1, "Bamboo is a plant.", title="Bamboo")]])
    ctx, _ = make_context(FunctionLLM(reflect_with(lambda i, n: ReflectOutput(research_complete=True))), search)  # fmt: skip
    state = ResearchState(question="giant panda")
    sq = state.add_sub_query(
        '"Bamboo" plant', follow=LinkFollow(titles=["Bamboo"], words=["plant"])
    )
    await research_topic(state, ctx, sq, G)
    assert search.queries == ['"Bamboo" plant']


async def test_a_researcher_may_read_on_to_the_passage_after_one_it_found(tmp_path: Path) -> None:
    # A long local file is searched by passage; the model sees the URLs of the passages
    # around a hit and asks for the one after it, which no search returned.
    filler = " ".join(f"Background sentence {i} says nothing in particular." for i in range(40))
    (tmp_path / "guide.md").write_text(
        f"# Guide\n\n## Budgets\n\n{filler}\n\n### Token limits\n\nThe budget is cut by ten "
        "percent when content is too long.\n\n## Retries\n\nThe call is then retried twice.\n",
        "utf-8",
    )
    corpus = CorpusSearch(tmp_path)
    asked: list[ReflectInputs] = []

    def decide(inputs: ReflectInputs, n: int) -> ReflectOutput:
        asked.append(inputs)
        limits = next(s for s in inputs.sources if s.title.endswith("Token limits"))
        return ReflectOutput(research_complete=True, urls_to_extract=limits.around[-1:])

    ctx, _ = make_context(FunctionLLM(reflect_with(decide)), corpus, max_sources_per_query=1)
    state, (sq,) = new_state("token limits budget cut content too long")
    await research_topic(state, ctx, sq, G)
    (inputs,) = asked
    (limits,) = inputs.sources
    after = limits.around[-1]
    assert after in inputs.extractable_urls
    assert f'after="{after}"' in prompts.reflect_user(inputs)  # the model is shown it
    read = next(s for s in state.sources if s.url == after)
    assert "retried twice" in (read.raw_content or read.content)
    assert read.title.endswith("Retries")
