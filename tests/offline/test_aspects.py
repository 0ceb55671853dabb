"""Aspects and entity leads: reaching the source that answers 'where did X originate?'
when it never repeats the question's words."""

from __future__ import annotations

import deepresearch as dr
from deepresearch.config import Config
from deepresearch.offline.aspects import (
    ASPECTS,
    aspects_of,
    entities,
    entity_leads,
    states,
    subject_of,
)
from deepresearch.offline.text import sentences, term_set
from deepresearch.testing import StaticSearch

ORIGIN = next(a for a in ASPECTS if a.name == "origin")


def test_sentences_do_not_split_abbreviations_inside_words() -> None:
    text = (
        "The town lies on a peninsula of Attica. Athenian rule began in 508 BC. "
        "It was built ca. 1200 BC here."
    )
    assert sentences(text) == [
        "The town lies on a peninsula of Attica.",
        "Athenian rule began in 508 BC.",
        "It was built ca. 1200 BC here.",
    ]


def test_entities_keep_era_modifiers_and_skip_sentence_starts() -> None:
    text = "Athens was a polis of ancient Greece, located in Attica. Romans came later."
    assert entities(text) == ["ancient Greece", "Attica"]


def test_aspect_triggers_and_subject() -> None:
    assert [a.name for a in aspects_of("where did it originate")] == ["origin"]
    assert aspects_of("What is democracy") == []
    assert subject_of("What is democracy and where did it originate?") == "democracy"


def test_states_needs_a_cue_next_to_the_topic() -> None:
    topic = term_set("democracy")
    assert states("Athenian democracy was established in 508 BC.", topic, ORIGIN)
    assert not states(
        "He was the first Marxist elected president of a liberal democracy.", topic, ORIGIN
    )


def test_leads_come_from_sources_that_state_the_aspect() -> None:
    texts = [
        "Athens was a polis of ancient Greece, located in Attica. "
        "Athenian democracy was established in 508 BC.",
        "Chile is a country in South America. Its democracy held elections in Santiago.",
    ]
    leads = entity_leads("democracy", ORIGIN, texts, known_titles=["Attica"])
    assert leads == ["ancient Greece"]


DOCS = [
    {
        "url": "https://example.org/guild-charter",
        "title": "Guild charter",
        "content": (
            "A guild charter is a written grant of rights to a craft guild by a ruler. "
            "Charters set prices, training rules and who could practise the craft."
        ),
    },
    {
        "url": "https://example.org/old-harbour",
        "title": "Old Harbour town",
        "content": (
            "Old Harbour was a trading town of medieval Flanders on the northern coast. "
            "The first guild charter was established there in 1127 for the weavers. "
            "Its cloth market drew merchants from across the sea."
        ),
    },
    {
        "url": "https://example.org/flanders",
        "title": "Medieval Flanders",
        "content": (
            "Medieval Flanders was a county of cloth towns and busy ports. "
            "Its counts granted towns rights in return for taxes and loyal militias."
        ),
    },
    {
        "url": "https://example.org/weaving",
        "title": "Weaving",
        "content": "Weaving interlaces two sets of threads at right angles to make cloth.",
    },
]


async def test_the_loop_follows_a_lead_to_a_source_one_search_misses() -> None:
    question = "What is a guild charter and where did it originate?"
    search = StaticSearch(DOCS)
    one_search = await StaticSearch(DOCS).search(question, max_results=5)
    assert "Medieval Flanders" not in {h.title for h in one_search}

    session = dr.Session(
        question,
        search=search,
        config=Config(enable_clarification=False, persist=False, max_iterations=1),
        store=None,
    )
    await session.run()
    state = session.state
    assert any("flanders" in sq.query.lower() for sq in state.sub_queries)
    flanders = next(s for s in state.sources if s.title == "Medieval Flanders")
    assert any(flanders.id in f.source_ids for f in state.findings)
    report = session.report
    assert report is not None and "Medieval Flanders" in report.markdown
