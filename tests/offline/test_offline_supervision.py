"""The offline supervisor: gaps for question parts no gathered statement answers, the
corpus links that may answer them, and the directives that follow those links."""

from __future__ import annotations

from deepresearch.offline import supervision
from deepresearch.roles import SourceLinks, SupervisionInputs, TopicDigest
from deepresearch.state import LinkFollow
from deepresearch.text import sentences


def _digest(sq: str, query: str, sources: list[tuple[int, str, str, list[str]]]) -> TopicDigest:
    """A compressed topic over (citation, title, text, links) sources."""
    lines = [f"Queries made: {query}", "", "Findings:"]
    lines += [f"- {sent} [{n}]" for n, _, text, _ in sources for sent in sentences(text)]
    return TopicDigest(
        sub_query_id=sq, query=query, compressed="\n".join(lines),
        links=[SourceLinks(citation=n, title=title, links=links) for n, title, _, links in sources],
    )  # fmt: skip


def test_a_part_no_statement_answers_follows_the_links_of_the_earlier_answers() -> None:
    question = "What does the giant panda eat, and what kind of plant is that food?"
    panda = (1, "Giant panda", "The giant panda is a bear. It does eat a diet of bamboo.", ["Bear", "Bamboo"])  # fmt: skip
    inputs = SupervisionInputs(
        question=question, round=1, max_rounds=2,
        topics=[_digest("sq-1", "What does the giant panda eat", [panda])],
        existing_queries=["What does the giant panda eat"],
    )  # fmt: skip
    gaps = supervision.supervise_think(inputs).gaps
    # the entries the answering statements link, the best-answering statement's first;
    # the researcher keeps the first that states the part's own words (phases.topic)
    assert gaps == [
        # "what does it eat" is answered by an entry its entry names: its links are leads
        'sources that answer \'What does the giant panda eat\' link "Bamboo" "Bear"; '
        "do they state eat?",
        'no source answers \'what kind of plant is that food\' yet; sources link "Bamboo" "Bear"',
    ]
    out = supervision.supervise_delegate(inputs.model_copy(update={"gaps": gaps[1:]}))
    assert [d.research_topic.split(". ")[0] for d in out.directives] == [
        '"Bamboo" "Bear" food plant'
    ]
    # the directive asks for the links to be followed: its text alone would be a search
    assert [d.follow for d in out.directives] == [
        LinkFollow(titles=["Bamboo", "Bear"], words=["food", "plant"])
    ]


def test_an_entity_part_follows_the_links_of_the_entry_it_names_from_another_topic() -> None:
    question = "What did Thomas Edison and Nikola Tesla each contribute to electric power?"
    edison = (1, "Thomas Edison", "Thomas Edison did contribute electric power stations.", [])
    tesla = (
        2, "Nikola Tesla",
        "Nikola Tesla was an inventor. He is known for contributions to alternating current electricity.",
        ["Alternating current"],
    )  # fmt: skip
    inputs = SupervisionInputs(
        question=question, round=1, max_rounds=2,
        topics=[_digest("sq-1", "thomas edison", [edison]), _digest("sq-2", "Nikola Tesla", [tesla])],
    )  # fmt: skip
    gaps = supervision.supervise_think(inputs).gaps
    # "contributions" says "contribute", "electricity" says "electric": the sentence answers
    assert gaps == [
        "sources that answer 'What did Nikola Tesla contribute to electric power' link "
        '"Alternating current"; do they state contribute electric power?'
    ]
    out = supervision.supervise_assess(inputs)
    assert [(q.query, q.follow) for q in out.follow_up_queries] == [
        (
            '"Alternating current" contribute electric power',
            LinkFollow(titles=["Alternating current"], words=["contribute", "electric", "power"]),
        )
    ]
    # once followed (a sub-query or a researcher asked for it), not again
    asked = inputs.model_copy(update={"links_followed": ["alternating current"]})
    assert supervision.supervise_think(asked).gaps == []
    # a sub-query that only quotes the title is a search: the link is still to follow
    quoted = inputs.model_copy(update={"existing_queries": ['"Alternating current" power']})
    assert supervision.supervise_think(quoted).gaps == gaps


def test_a_gap_a_model_wrote_in_the_offline_words_is_a_search_not_a_link_to_follow() -> None:
    question = "What does the giant panda eat, and what kind of plant is that food?"
    inputs = SupervisionInputs(
        question=question, round=1, max_rounds=2,
        gaps=['no source answers \'what kind of plant is that food\' yet; sources link "Bamboo"'],
    )  # fmt: skip
    # no gathered source links Bamboo: the gap's text does not make the search follow it
    (directive,) = supervision.supervise_delegate(inputs).directives
    assert directive.follow is None


def test_keywords_already_searched_in_another_order_are_not_searched_again() -> None:
    inputs = SupervisionInputs(
        question="What is democracy and where did it originate?", round=1, max_rounds=2,
        gaps=["no source answers 'where did it originate' yet"],
    )  # fmt: skip
    (directive,) = supervision.supervise_delegate(inputs).directives
    assert directive.research_topic.startswith("originate democracy. ")
    ran = inputs.model_copy(update={"existing_queries": ["democracy originate"]})
    assert supervision.supervise_delegate(ran).research_complete
    assert "originate democracy" not in [
        q.query for q in supervision.supervise_assess(ran).follow_up_queries
    ]
    # A capitalised name is searched as written (its phrase names a title): a new query.
    named = inputs.model_copy(update={"existing_queries": ["Democracy originate"]})
    assert supervision.supervise_delegate(named).directives


def test_a_statement_is_read_with_its_own_sources_title() -> None:
    # [1] gave no statement: its title must not be read with [2]'s statement
    compressed = (
        "Queries made: Beta Tower\n\nFindings:\n- It rises 300 metres over the bay. [2]\n\n"
        "Sources:\n[1] Alpha Spire — corpus://alpha\n[2] Beta Tower — corpus://beta"
    )
    topic = TopicDigest(sub_query_id="sq-1", query="Beta Tower", compressed=compressed)
    inputs = SupervisionInputs(
        question="How tall is the Beta Tower?", round=1, max_rounds=2, topics=[topic]
    )
    assert not any(
        g.startswith("no source answers") for g in supervision.supervise_think(inputs).gaps
    )
