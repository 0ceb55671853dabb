"""Offline analysis: extracted findings cite the real source ids, confidence comes from
agreement between sources, findings are grouped by question part, and each part no
source answers is a gap."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import pytest

from deepresearch.offline import analysis
from deepresearch.offline.parts import Part, question_parts
from deepresearch.roles import AnalysisOutput, AnalyzeInputs, SourceText, TopicDigest
from deepresearch.text import sentences
from tests.offline.conftest import Titled

PART = Part("What does the thing do", "thing do", refers_back=False)

QUESTION = "How did the printing press spread in Europe?"
SHARED = "Gutenberg built the first European movable type printing press in Mainz around 1440."
TEXTS = {
    "Printing press": (
        f"{SHARED} Printing spread to over two hundred European cities by 1500. "
        "Presses produced millions of printed books for readers across Europe."
    ),
    "Johannes Gutenberg": (
        f"Johannes Gutenberg was a goldsmith from Mainz. {SHARED} "
        "His Bible was printed in 1455 with metal type."
    ),
    "History of printing in Europe": (
        f"{SHARED} The printing press made books cheaper and helped literacy grow in Europe."
    ),
    "Volcanoes": (
        "Volcanoes erupt lava and ash from deep inside the planet. "
        "Mount Etna in Sicily is among the most active volcanoes in the world."
    ),
}


def sources() -> list[SourceText]:
    return [
        SourceText(
            id=f"src-{n}", citation=n, title=title, url=f"https://example.org/{n}", text=text
        )
        for n, (title, text) in enumerate(TEXTS.items(), 1)
    ]


def analyze(
    question: str = QUESTION,
    *,
    known_findings: list[str] | None = None,
    guidance: list[str] | None = None,
) -> AnalysisOutput:
    inputs = AnalyzeInputs(
        question=question,
        sources=sources(),
        known_findings=known_findings or [],
        guidance=guidance or [],
    )
    return analysis.analyze(inputs)


def test_findings_are_sentences_of_the_sources_they_cite() -> None:
    out = analyze()
    assert out.findings
    by_id = {s.id: s for s in sources()}
    for f in out.findings:
        assert f.source_ids, f
        assert set(f.source_ids) <= set(by_id)
        first = by_id[f.source_ids[0]]  # the source the sentence was taken from
        assert f.content in sentences(first.text)
        assert f.category == question_parts(QUESTION)[0].text  # the part it answers


def test_an_unrelated_source_yields_no_findings() -> None:
    out = analyze()
    assert not any("src-4" in f.source_ids for f in out.findings)
    assert not any("volcano" in f.content.lower() for f in out.findings)


def test_a_fact_several_sources_state_is_one_finding_with_higher_confidence() -> None:
    out = analyze()
    shared = [f for f in out.findings if f.content == SHARED]
    assert len(shared) == 1  # stated three times, reported once
    (finding,) = shared
    assert set(finding.source_ids) == {"src-1", "src-2", "src-3"}
    assert finding.confidence in {"high", "confirmed"}
    singles = [f for f in out.findings if len(f.source_ids) == 1]
    assert singles and all(f.confidence in {"low", "medium"} for f in singles)


def test_confidence_follows_agreement() -> None:
    rank = {"speculation": 0, "low": 1, "medium": 2, "high": 3, "confirmed": 4}
    for f in analyze().findings:
        if f.confidence in {"high", "confirmed"}:
            assert len(f.source_ids) >= 2, f
        if f.confidence == "confirmed":
            assert len(f.source_ids) >= 3, f
        assert rank[f.confidence] >= rank["low"]


def test_one_source_alone_cannot_be_high_confidence() -> None:
    lone = [
        SourceText(id="src-9", citation=9, title="Printing press", text=TEXTS["Printing press"])
    ]
    out = analysis.analyze(AnalyzeInputs(question=QUESTION, sources=lone))
    assert out.findings
    assert all(f.source_ids == ["src-9"] for f in out.findings)
    assert all(f.confidence in {"low", "medium"} for f in out.findings)


def test_every_source_gets_a_quality_rating() -> None:
    out = analyze()
    assert [u.source_id for u in out.quality_updates] == ["src-1", "src-2", "src-3", "src-4"]
    assert all(u.quality in {"low", "medium", "high"} for u in out.quality_updates)
    quality = {u.source_id: u.quality for u in out.quality_updates}
    assert quality["src-4"] == "low"  # off-topic


def test_each_part_no_source_answers_is_a_gap() -> None:
    question = "How did the printing press spread in Europe, and what did the guild charge Venice?"
    out = analyze(question)
    first, second = (p.text for p in question_parts(question))
    assert {f.category for f in out.findings} == {first}
    (gap,) = out.gaps
    assert gap.description.endswith(second) and first not in gap.description
    assert any("venice" in q.lower() and "guild" in q.lower() for q in gap.suggested_queries)
    assert gap.reason == analysis.NO_SOURCE  # why: no source was kept for it at all


def test_a_part_answered_leaves_no_gap() -> None:
    assert analyze().gaps == []


def test_known_findings_are_not_repeated_and_count_as_covered() -> None:
    first = analyze()
    again = analyze(known_findings=[f.content for f in first.findings])
    assert not {f.content for f in again.findings} & {f.content for f in first.findings}


def test_guidance_not_yet_answered_becomes_a_gap() -> None:
    out = analyze(guidance=["What did the Ottoman sultans decide about printing?"])
    (gap,) = [g for g in out.gaps if "Ottoman" in g.description]
    assert gap.reason == "no finding states: ottoman, sultans, decide"


def test_compressed_topics_map_cited_lines_back_to_source_ids() -> None:
    srcs = [s.model_copy(update={"text": ""}) for s in sources()]  # text lives in the topic
    topic = TopicDigest(
        sub_query_id="sq-1",
        query="printing press spread",
        compressed=f"Findings:\n- {SHARED} [1]\n- Printing spread to over two hundred European "
        "cities by 1500. [1]\n- Not cited anywhere.",
        source_ids=["src-1"],
    )
    out = analysis.analyze(AnalyzeInputs(question=QUESTION, sources=srcs, topics=[topic]))
    assert out.findings
    assert all(f.source_ids[0] == "src-1" for f in out.findings)
    assert "Not cited anywhere." not in {f.content for f in out.findings}


def test_analysis_is_deterministic() -> None:
    assert analyze() == analyze()


def test_no_sources_no_findings_but_gaps() -> None:
    out = analysis.analyze(AnalyzeInputs(question=QUESTION))
    assert out.findings == [] and out.quality_updates == []
    assert out.gaps


def test_passages_of_one_file_do_not_confirm_each_other() -> None:
    same_file = [
        SourceText(
            id=f"src-{n}",
            citation=n,
            title="Printing press",
            url=f"/docs/press.md#L{n}-{n + 5}",
            lines=(n, n + 5),
            text=TEXTS["Printing press"] if n == 1 else f"{SHARED} Copies spread quickly.",
        )
        for n in (1, 2)
    ]
    out = analysis.analyze(AnalyzeInputs(question=QUESTION, sources=same_file))
    shared = [f for f in out.findings if f.content == SHARED]
    assert shared and all(len(f.source_ids) == 1 for f in shared)
    assert all(f.confidence in {"low", "medium"} for f in out.findings)


def test_passages_of_another_file_confirm_once() -> None:
    first = SourceText(
        id="src-1", citation=1, title="Printing press", url="/docs/press.md#L1-5",
        lines=(1, 5), text=TEXTS["Printing press"],
    )  # fmt: skip
    other_file = [
        SourceText(
            id=f"src-{n}",
            citation=n,
            title="Notes",
            url=f"/docs/notes.md#L{n}-{n + 5}",
            lines=(n, n + 5),
            text=f"{SHARED} Copies spread quickly in passage {n}.",
        )
        for n in (2, 3, 4)
    ]
    out = analysis.analyze(AnalyzeInputs(question=QUESTION, sources=[first, *other_file]))
    shared = [f for f in out.findings if f.content == SHARED]
    assert shared
    for finding in shared:
        others = [sid for sid in finding.source_ids if sid != "src-1"]
        assert len(others) <= 1  # one passage per other document
    assert any(len(f.source_ids) == 2 for f in shared)


def test_a_digested_source_is_rated_by_the_statements_it_gave() -> None:
    # the analysis phase blanks .text of sources whose content is in a compressed topic
    srcs = [s.model_copy(update={"text": ""}) for s in sources()]
    lines = "\n".join(
        f"- {sent} [{n}]" for n, text in enumerate(TEXTS.values(), 1) for sent in sentences(text)
    )
    topic = TopicDigest(
        sub_query_id="sq-1", query="printing press", compressed=f"Findings:\n{lines}",
        source_ids=[s.id for s in srcs],
    )  # fmt: skip
    out = analysis.analyze(AnalyzeInputs(question=QUESTION, sources=srcs, topics=[topic]))
    quality = {u.source_id: u.quality for u in out.quality_updates}
    assert quality["src-1"] == "high" and quality["src-4"] == "low"
    shared = next(f for f in out.findings if f.content == SHARED)
    assert shared.confidence in {"high", "confirmed"}


def test_sources_repeating_a_kept_sources_answer_come_after_the_others() -> None:
    srcs = [SourceText(id=f"src-{n}", citation=n, title=f"T{n}") for n in range(1, 8)]
    same = [(1.0, "Printing spread to two hundred European cities by 1500.")]
    lava = [(0.9, "Volcanoes erupt lava and ash from deep inside the planet.")]
    etna = [(0.9, "Mount Etna in Sicily is among the most active volcanoes.")]
    mainz = [(0.8, "Gutenberg was a goldsmith from Mainz who printed a Bible.")]
    answers = [same, same, same, lava, same, etna, mainz]
    kept = analysis._diverse(srcs, answers)
    assert [s.id for s in kept] == ["src-1", "src-4", "src-6", "src-7", "src-2"]


def test_an_entry_named_by_the_answer_is_kept_without_repeating_the_part(titled: Titled) -> None:
    question = "Which artist carved the statue of the hero who slew Goliath?"
    texts = {
        "David (statue)": "David is a marble statue of the hero who slew Goliath, carved by Michelangelo.",
        "Michelangelo": "Michelangelo was an Italian sculptor and painter.",
    }
    srcs = titled(texts)
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    cited = {sid for f in out.findings for sid in f.source_ids}
    assert cited == {"src-1", "src-2"}


def test_the_source_that_states_a_part_best_is_kept_unless_others_state_it_as_well() -> None:
    srcs = [
        SourceText(id=f"src-{n}", citation=n, title=f"T{n}", url=f"https://e.org/{n}", text="x")
        for n in range(1, 8)
    ]
    # Six sources score higher overall (named by the question, similar); the seventh
    # holds the best statement about the part.
    scores = {(s.id, 0): 1.0 - 0.05 * n for n, s in enumerate(srcs)}
    said = {(s.id, 0): (0.2, [(0.2, f"statement {s.id}")]) for s in srcs}
    said[("src-7", 0)] = (0.6, [(0.6, "the answer")])
    kept = analysis._kept(0, PART, srcs, analysis.SourceScores(scores, {}, {}, {}), said)
    assert [s.id for s in kept] == ["src-1", "src-2", "src-3", "src-4", "src-7"]
    said[("src-2", 0)] = (0.6, [(0.6, "the answer, also")])  # a tie: no direct answer
    kept = analysis._kept(0, PART, srcs, analysis.SourceScores(scores, {}, {}, {}), said)
    assert "src-7" not in [s.id for s in kept]


def test_the_next_passage_of_the_best_answers_section_needs_only_the_absolute_floor() -> None:
    """A long section packed into two passages: the second goes on with the answer the
    first gives, so the relative floor (a share of the best score) does not drop it; a
    passage of another section scoring as much does not pass."""
    guide = "/docs/guide.html"
    srcs = [
        SourceText(id="src-1", citation=1, title="Guide › Where", url=f"{guide}#L1-9", text="x"),
        SourceText(id="src-2", citation=2, title="Guide › Where", url=f"{guide}#L10-19", text="x"),
        SourceText(id="src-3", citation=3, title="Guide › Other", url=f"{guide}#L20-29", text="x"),
    ]
    best = 0.7
    scores = {("src-1", 0): best, ("src-2", 0): 0.3, ("src-3", 0): 0.3}
    assert analysis.RELEVANCE_FLOOR <= 0.3 < analysis.RELATIVE_FLOOR * best
    said = {(s.id, 0): (0.3, [(0.3, f"statement {s.id}")]) for s in srcs}
    kept = analysis._kept(0, PART, srcs, analysis.SourceScores(scores, {}, {}, {}), said)
    assert [s.id for s in kept] == ["src-1", "src-2"]


def test_the_next_passage_of_any_section_that_answers_needs_only_the_absolute_floor() -> None:
    """Not only the best source's section: a subsection whose first passages pass the
    relative floor goes on with its answer in its next one ("Using URL Processors" best,
    its "› Internationalized Application URLs" packed into three passages)."""
    guide = "/docs/urls.rst"
    sub = "URLs › Internationalized"
    srcs = [
        SourceText(id="src-1", citation=1, title="URLs", url=f"{guide}#L1-9", text="x"),
        SourceText(id="src-2", citation=2, title=sub, url=f"{guide}#L10-19", text="x"),
        SourceText(id="src-3", citation=3, title=sub, url=f"{guide}#L20-29", text="x"),
        SourceText(id="src-4", citation=4, title="URLs › Other", url=f"{guide}#L30-39", text="x"),
    ]
    best = 0.6
    scores = {("src-1", 0): best, ("src-2", 0): 0.31, ("src-3", 0): 0.29, ("src-4", 0): 0.29}
    assert analysis.RELEVANCE_FLOOR <= 0.29 < analysis.RELATIVE_FLOOR * best <= 0.31
    said = {(s.id, 0): (0.3, [(0.3, f"statement {s.id}")]) for s in srcs}
    kept = analysis._kept(0, PART, srcs, analysis.SourceScores(scores, {}, {}, {}), said)
    assert [s.id for s in kept] == ["src-1", "src-2", "src-3"]


def test_a_part_a_source_answers_keeps_the_next_above_a_lower_floor() -> None:
    """Once one source reaches the relevance floor for a part, the next ones need only
    ANSWERED_PART_FLOOR (and the relative floor); a part none reaches stays without
    sources, and so does a part pointing back, whose own words others say too."""
    srcs = [
        SourceText(id=f"src-{n}", citation=n, title=f"T{n}", url=f"https://e.org/{n}", text="x")
        for n in (1, 2, 3)
    ]
    low = (analysis.ANSWERED_PART_FLOOR + analysis.RELEVANCE_FLOOR) / 2
    scores = {("src-1", 0): 0.3, ("src-2", 0): low, ("src-3", 0): 0.1}
    said = {(s.id, 0): (0.3, [(0.3, f"statement {s.id}")]) for s in srcs}

    def kept(part: Part, scores: dict[tuple[str, int], float]) -> list[str]:
        out = analysis._kept(0, part, srcs, analysis.SourceScores(scores, {}, {}, {}), said)
        return [s.id for s in out]

    assert kept(PART, scores) == ["src-1", "src-2"]
    assert kept(PART, {**scores, ("src-1", 0): low}) == []
    assert kept(replace(PART, refers_back=True), scores) == ["src-1"]


def test_a_part_one_source_answers_is_told_from_more_of_it() -> None:
    """With a single source kept for the part, it gives more than FINDINGS_PER_SOURCE
    findings (the part's share is not split among absent sources), at most PART_FINDINGS."""
    text = (
        "The Hanseatic League was a medieval guild of merchants in northern Europe. "
        "Lübeck served as its leading city and hosted the assemblies called the Diet. "
        "Kontors operated in London, Bruges, Bergen and Novgorod. "
        "Ships called cogs carried grain, timber and furs across the Baltic Sea. "
        "Its power declined after Dutch shipping grew in the sixteenth century. "
        "The final Diet met in 1669 with only nine members present."
    )
    inputs = AnalyzeInputs(
        question="What was the Hanseatic League?",
        sources=[SourceText(id="src-1", citation=1, title="Hanseatic League", url="u", text=text)],
    )
    findings = analysis.analyze(inputs).findings
    assert analysis.FINDINGS_PER_SOURCE < len(findings) <= analysis.PART_FINDINGS


def test_a_code_line_repeated_in_other_files_is_not_agreement() -> None:
    code = "Code: `use std::sync::{Arc, Mutex};`"
    bag = {f"src-{n}": analysis.statement_terms(code) for n in (1, 2, 3)}
    weights = analysis.Weights(list(bag.values()))
    prose = "Arc and Mutex share state between threads safely in Rust programs."
    for text, agreeing in ((code, set()), (prose, {"src-2", "src-3"})):
        terms = analysis.statement_terms(text)
        cand = analysis.Candidate(text=text, source_id="src-1", part=0, score=1.0, terms=terms)
        prose_bag = {sid: terms for sid in bag} if text == prose else bag
        assert analysis._agreeing(cand, prose_bag, weights, ({}, {}), set()) == agreeing


def test_a_part_whose_sources_do_not_name_its_subject_is_a_gap_not_answered() -> None:
    # "printed books" draws the printing entries to the second part, but no source names
    # the Vandrel guild it asks about: their lines are not that part's answer.
    question = "How did the printing press spread in Europe, and what did the Vandrel guild charge for printed books?"
    first, second = (p.text for p in question_parts(question))
    out = analyze(question)
    assert {f.category for f in out.findings} == {first}
    (gap,) = out.gaps
    assert gap.description.endswith(second)
    assert any("vandrel" in q.lower() for q in gap.suggested_queries)
    assert gap.reason == "the sources found for it name none of the names it gives"


def test_a_part_whose_findings_state_none_of_its_words_is_a_gap() -> None:
    # The second part points back to the press; the sources describe the press but say
    # nothing of its yearly electricity bill.
    question = (
        "How did the printing press spread in Europe, and what is its annual electricity bill?"
    )
    second = question_parts(question)[1].text
    out = analyze(question)
    assert second not in {f.category for f in out.findings}
    assert [(g.description, g.reason) for g in out.gaps] == [
        (
            f"No source found answers this part of the question: {second}",
            "the findings drawn for it state none of the words it asks with",
        )
    ]


def test_a_part_that_names_what_its_sources_name_is_answered() -> None:
    question = "How did the printing press spread in Europe, and what did Gutenberg print in 1455?"
    second = question_parts(question)[1].text
    out = analyze(question)
    assert second in {f.category for f in out.findings}
    assert out.gaps == []


def test_a_part_earlier_findings_answer_is_not_a_gap_again() -> None:
    # A later iteration's sources, gathered for another part, do not answer the first one.
    question = "What erupts from volcanoes, and how did the printing press spread in Europe?"
    first = question_parts(question)[0].text
    only_press = [s for s in sources() if s.title != "Volcanoes"]
    fresh = AnalyzeInputs(question=question, sources=only_press)
    assert any(g.description.endswith(first) for g in analysis.analyze(fresh).gaps)
    again = fresh.model_copy(update={"answered_parts": [first]})
    assert not any(g.description.endswith(first) for g in analysis.analyze(again).gaps)


ENTRIES = {
    "fetch-retries": ("2", "How many times the client retries a fetch from the registry."),
    "maxsockets": ("15", "The maximum number of sockets the client opens per origin."),
}


def _entries(urls: list[str]) -> list[str]:
    """The findings for a question on two entries of a configuration reference, each in a
    source at the given URL."""
    srcs = [
        SourceText(
            id=f"src-{n}",
            citation=n,
            title=f"Config › {name}",
            url=url,
            text=f"#### {name}\n\n* Default: {value}\n* Type: Number\n\n{says}\n",
        )
        for n, ((name, (value, says)), url) in enumerate(zip(ENTRIES.items(), urls, strict=True), 1)
    ]
    question = "What are the default fetch retries and maximum sockets of the client?"
    return [
        f.content for f in analysis.analyze(AnalyzeInputs(question=question, sources=srcs)).findings
    ]


def test_passages_of_one_file_worded_alike_are_two_statements() -> None:
    # "fetch-retries: Default: 2; Type: Number" and "maxsockets: Default: 15; Type: Number"
    # share half their words, but two passages of one file are two entries
    found = _entries(["/docs/config.md#L1-6", "/docs/config.md#L7-12"])
    assert "fetch-retries: Default: 2; Type: Number" in found
    assert "maxsockets: Default: 15; Type: Number" in found


def test_statements_worded_alike_in_two_files_are_one() -> None:
    found = _entries(["/docs/config.md", "/docs/notes.md"])
    alike = [f for f in found if f.endswith("; Type: Number")]
    assert len(alike) == 1


TABLE = """Each subcommand of npm stage and whether it asks for two-factor authentication:

| Command | Requires 2FA | Notes |
|---|---|---|
| npm stage approve | Yes | Prompts for 2FA to publish the staged package |
| npm stage reject | Yes | Prompts for 2FA to remove the staged package |
"""


def test_rows_of_one_table_worded_alike_are_two_statements() -> None:
    src = SourceText(id="src-1", citation=1, title="npm-stage", url="/docs/stage.md", text=TABLE)
    question = "Which npm stage subcommands require two-factor authentication?"
    out = analysis.analyze(AnalyzeInputs(question=question, sources=[src]))
    rows = [f.content for f in out.findings if f.content.startswith("Table row: ")]
    assert any("approve" in r for r in rows) and any("reject" in r for r in rows)
    # the same rows as prose of one passage: worded alike, but each states its own answer
    prose = "\n\n".join(
        f"The {verb} subcommand of npm stage requires 2FA: it prompts for 2FA to {what} "
        "the staged package."
        for verb, what in (("approve", "publish"), ("reject", "remove"))
    )
    src = src.model_copy(update={"text": prose})
    out = analysis.analyze(AnalyzeInputs(question=question, sources=[src]))
    assert len(out.findings) == 2
    # a passage saying the same twice, nearly word for word, gives it once
    again = (
        "The approve subcommand of npm stage requires 2FA to publish the staged package. "
        "The approve subcommand of npm stage always requires 2FA to publish the staged package."
    )
    src = src.model_copy(update={"text": again})
    out = analysis.analyze(AnalyzeInputs(question=question, sources=[src]))
    assert len(out.findings) == 1


def test_lines_of_one_code_block_are_two_statements_shown_as_one_finding() -> None:
    text = (
        "Cargo.toml sets the default optimization level of each Cargo profile.\n\n"
        "```toml\n[profile.dev]\nopt-level = 0\n\n[profile.release]\nopt-level = 3\n```\n"
    )
    src = SourceText(id="src-1", citation=1, title="Profiles", url="/docs/profiles.md", text=text)
    question = "What is the default opt-level of the dev and release profiles?"
    found = [
        f.content
        for f in analysis.analyze(AnalyzeInputs(question=question, sources=[src])).findings
    ]
    # Each line is quoted with the table it sets a key of (quotes.code_quotes), and the
    # two lines a part draws from the block are shown as one finding (code_blocks), an
    # ellipsis for the header line between them.
    assert "Code: `[profile.dev] opt-level = 0` … `[profile.release] opt-level = 3`" in found


DNS = (
    "The resolver first checks its local cache for a record before asking any server. "
    "When the cache misses, the resolver sends the query to a recursive server. "
    "Each answer carries a time to live that bounds how long the resolver may cache it. "
    "Negative answers are cached too, for the time the zone's SOA record allows."
)


def test_near_copies_in_two_formats_are_not_two_sources_agreeing(titled: Titled) -> None:
    # The same page saved as Markdown and as HTML (its reader words a line a little
    # differently): one text, whose statements a third, independent note still confirms.
    html = DNS.replace("to a recursive server", "to the recursive server configured")
    note = "Before asking any server, a resolver checks its local cache for the record first."
    srcs = [
        SourceText(id="src-1", citation=1, title="DNS", url="/docs/dns.md", text=DNS),
        SourceText(id="src-2", citation=2, title="DNS - Docs", url="/docs/dns.html", text=html),
        SourceText(id="src-3", citation=3, title="Notes", url="/notes/cache.md", text=note),
    ]
    out = analysis.analyze(AnalyzeInputs(question="How does a DNS resolver cache?", sources=srcs))
    assert out.findings
    for f in out.findings:
        assert not {"src-1", "src-2"} <= set(f.source_ids), f
    first = next(f for f in out.findings if f.content.startswith("The resolver first"))
    assert sorted(first.source_ids)[1:] == ["src-3"]
    # Different texts that share a sentence are not copies: they still agree.
    other = DNS.split(". ", 1)[0] + ". Root servers answer with referrals to the zones."
    srcs[1] = srcs[1].model_copy(update={"text": other})
    out = analysis.analyze(AnalyzeInputs(question="How does a DNS resolver cache?", sources=srcs))
    assert any({"src-1", "src-2"} <= set(f.source_ids) for f in out.findings)


def test_a_source_confirms_a_statement_by_what_it_says_beyond_the_questions_words() -> None:
    texts = {
        "src-1": "An asteroid is a minor planet of the inner Solar System orbiting near Jupiter.",
        "src-2": "Ceres, an asteroid and dwarf planet, is in the inner Solar System.",
        "src-3": "Asteroids are minor planets; most orbit the Sun near Jupiter.",
        "src-4": "Comets are icy bodies that release gas near the Sun.",
    }
    bag = {sid: analysis.statement_terms(t) for sid, t in texts.items()}
    weights = analysis.Weights(list(bag.values()))
    cand = analysis.Candidate(
        text=texts["src-1"], source_id="src-1", part=0, score=1.0, terms=bag["src-1"]
    )
    asked = analysis.statement_terms("Is an asteroid a minor planet near Jupiter?")
    assert analysis._agreeing(cand, bag, weights, ({}, {}), set()) == {"src-2", "src-3"}
    # src-3 holds the question's own words, every source found by them does; src-2 holds
    # what the statement says beyond them (the inner Solar System)
    assert analysis._agreeing(cand, bag, weights, ({}, {}), asked) == {"src-2"}


def test_a_part_pointing_back_to_a_thing_no_source_speaks_of_is_a_gap_too() -> None:
    # The printing lines answer "who built it" for the real press; the zorblax press
    # nobody found, so neither part is answered by them.
    question = "What is the zorblax press, and who built it?"
    first, second = (p.text for p in question_parts(question))
    out = analyze(question)
    assert [(g.description.rsplit(": ", 1)[-1], g.reason) for g in out.gaps] == [
        (first, "no source found speaks of 'zorblax', the thing it asks about"),
        (second, "it refers to 'zorblax', which no source found speaks of"),
    ]
    real = analyze("What is the printing press, and who built it?")
    assert real.gaps == []


def test_a_question_typed_without_accents_finds_the_entry_written_with_them() -> None:
    texts = {
        "Antonín Dvořák": "Antonín Dvořák was a Czech composer. Dvořák wrote nine symphonies.",
        "Curling": "Curling is a sport in which players slide stones on a sheet of ice.",
    }
    found = [
        SourceText(id=f"src-{n}", citation=n, title=t, url=f"https://example.org/{n}", text=x)
        for n, (t, x) in enumerate(texts.items(), 1)
    ]
    question = "What did Antonin Dvorak compose?"
    out = analysis.analyze(AnalyzeInputs(question=question, sources=found))
    assert {sid for f in out.findings for sid in f.source_ids} == {"src-1"}
    assert out.gaps == []


def test_a_short_part_is_answered_only_by_sources_that_speak_of_what_it_asks_about(
    titled: Titled,
) -> None:
    # Every source gathered for "tides" states the word, so "cause" is the rarer word
    # among them, and the entry on bruises ("the most common cause") matched best.
    texts = {
        "Tide": "Tides are the rise and fall of sea levels caused by the Moon's gravity.",
        "Moon": "The Moon's gravity raises the tides of Earth's oceans twice a day.",
        "Sea level": "Sea level is measured as an average over the tides of many years.",
        "Bruise": "A bruise is a hematoma, the most common cause being trauma to capillaries.",
        "Homicide": "Homicide is an act in which a person causes the death of another person.",
    }
    out = analysis.analyze(AnalyzeInputs(question="What causes tides?", sources=titled(texts)))
    cited = {sid for f in out.findings for sid in f.source_ids}
    assert "src-1" in cited
    assert not cited & {"src-4", "src-5"}  # Bruise, Homicide


def test_a_short_part_asking_about_an_earlier_name_keeps_sources_stating_it_whole(
    titled: Titled,
) -> None:
    # "who won" asks for the winner of the battle the first part names
    texts = {
        "Battle of Hastings": "The Battle of Hastings was fought on 14 October 1066 in England.",
        "William the Conqueror": "William the Conqueror won the Battle of Hastings in 1066.",
        "Battle of Vienna": "The Battle of Vienna was won by the Holy League in 1683.",
        "Rugby World Cup": "The winners of the Rugby World Cup receive the Webb Ellis Cup.",
    }
    question = "When was the Battle of Hastings and who won?"
    won = question_parts(question)[1].text
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    cited = {sid for f in out.findings if f.category == won for sid in f.source_ids}
    assert "src-2" in cited
    assert not cited & {"src-3", "src-4"}  # Battle of Vienna, Rugby World Cup


def test_the_analyzer_splits_the_question_by_every_gathered_title() -> None:
    """A later iteration's analyzer sees only its fresh sources; the titles of all
    gathered ones (``AnalyzeInputs.titles``) keep "War and Peace" one part, as the phase
    filed it, so its findings are filed under that part."""
    source = SourceText(
        id="src-1",
        citation=1,
        title="Leo Tolstoy",
        url="https://example.org/tolstoy",
        text="Leo Tolstoy wrote War and Peace, an epic novel set during the Napoleonic Wars.",
    )
    question = "Who wrote War and Peace?"
    alone = analysis.analyze(AnalyzeInputs(question=question, sources=[source]))
    told = analysis.analyze(
        AnalyzeInputs(question=question, sources=[source], titles=["War and Peace", "Leo Tolstoy"])
    )
    assert {f.category for f in alone.findings} != {"Who wrote War and Peace"}
    assert told.findings and {f.category for f in told.findings} == {"Who wrote War and Peace"}


def test_the_entry_saying_roman_answers_a_part_asking_about_rome() -> None:
    """A short part's sources must speak of its topic; "Roman" speaks of Rome."""
    texts = {
        "Rome": "Rome is the capital city of Italy. It is the third most populous city in "
        "the European Union.",
        "Augustus": "Augustus was the founder of the Roman Empire and the first Roman "
        "emperor, ruling from 27 BC until his death in AD 14.",
    }
    srcs = [
        SourceText(id=f"src-{n}", citation=n, title=t, text=x)
        for n, (t, x) in enumerate(texts.items(), 1)
    ]
    out = analysis.analyze(
        AnalyzeInputs(question="Who was the first emperor of Rome?", sources=srcs)
    )
    assert any("first Roman emperor" in f.content for f in out.findings)


def test_an_attribute_of_a_described_thing_from_an_untied_source_is_a_gap() -> None:
    # Brazil states a capital, but neither names Sonja Henie nor is named by her entry:
    # it is some country's capital, not the one asked for; Norway, naming her, answers.
    henie = "Sonja Henie was a Norwegian figure skater and film star."
    brazil = "Brazil is a country in South America. Its capital is Brasília."
    norway = "Norway is the country of the skater Sonja Henie. Its capital is Oslo."
    question = "What is the capital of the country Sonja Henie was from?"

    def run(*texts: tuple[str, str]) -> AnalysisOutput:
        found = [
            SourceText(id=f"s{n}", citation=n, title=t, url=f"https://example.org/{n}", text=x)
            for n, (t, x) in enumerate(texts, 1)
        ]
        return analysis.analyze(AnalyzeInputs(question=question, sources=found))

    untied = run(("Sonja Henie", henie), ("Brazil", brazil))
    assert [g.reason for g in untied.gaps] == [
        "no finding drawn for it comes from a source tied to Sonja Henie: none states the "
        "country's capital of a source that names Sonja Henie or that the entry on it names"
    ]
    tied = run(("Sonja Henie", henie), ("Norway", norway))
    assert not tied.gaps
    assert any("Oslo" in f.content for f in tied.findings)


def test_a_part_pointing_back_to_a_described_thing_needs_a_tied_source() -> None:
    # "he" is the composer of The Magic Flute: a cellist's age is no answer
    flute = "The Magic Flute is an opera in two acts by Wolfgang Amadeus Mozart."
    casals = "Pablo Casals was a Catalan cellist. He died at the age of 96 in Puerto Rico."
    mozart = "Wolfgang Amadeus Mozart was born in Salzburg. He died at the age of 35."
    question = "Where was the composer of The Magic Flute born, and at what age did he die?"

    def gaps(*texts: tuple[str, str]) -> dict[str, str]:
        found = [
            SourceText(id=f"s{n}", citation=n, title=t, url=f"https://example.org/{n}", text=x)
            for n, (t, x) in enumerate(texts, 1)
        ]
        out = analysis.analyze(AnalyzeInputs(question=question, sources=found))
        return {g.description.rsplit(": ", 1)[-1]: g.reason for g in out.gaps}

    untied = gaps(("The Magic Flute", flute), ("Pablo Casals", casals))
    assert "Magic Flute" in untied["at what age did he die"]
    assert not gaps(("The Magic Flute", flute), ("Wolfgang Amadeus Mozart", mozart))


def test_a_question_asking_four_things_keeps_every_parts_findings() -> None:
    # Four parts, four sources each with four different statements answering its part:
    # no cap across parts cuts one part's answer to make room for another's.
    syllables = ["ka", "lo", "mi", "ru", "te", "zu", "pa", "ne"]
    names = ("".join(p) for p in itertools.product(syllables, repeat=3))
    srcs = []
    for animal, verb in (("lions", "eat"), ("tigers", "hunt"), ("cheetahs", "run"), ("elephants", "drink")):  # fmt: skip
        for _ in range(4):
            n = len(srcs) + 1
            text = " ".join(
                f"{animal.capitalize()} {verb} near {next(names)} {next(names)} and "
                f"{next(names)} {next(names)}."
                for _ in range(4)
            )
            title = f"{animal.capitalize()} {next(names)}"
            srcs.append(SourceText(id=f"src-{n}", citation=n, title=title, url=f"/{n}", text=text))
    question = (
        "Where do lions eat, where do tigers hunt, where do cheetahs run, and where do "
        "elephants drink?"
    )
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    per_part = Counter(f.category for f in out.findings)
    assert len(per_part) == 4 and min(per_part.values()) >= 10


def test_the_parts_best_source_goes_on_past_its_share_after_the_others() -> None:
    # Five sources, each with six statements on the part: the one kept first gives
    # LEAD_EXTRA more than its share, and those come after every source's share, so a
    # report cutting the part's findings short drops them before another source's.
    syllables = ["ka", "lo", "mi", "ru", "te", "zu", "pa", "ne"]
    names = ("".join(p) for p in itertools.product(syllables, repeat=3))
    srcs = []
    for n in range(1, 6):
        text = " ".join(f"Lions sleep near {next(names)} {next(names)}." for _ in range(6))
        srcs.append(SourceText(id=f"src-{n}", citation=n, title=f"Lions {next(names)}", url=f"/{n}", text=text))  # fmt: skip
    out = analysis.analyze(AnalyzeInputs(question="Where do lions sleep?", sources=srcs))
    order = [f.source_ids[0] for f in out.findings]
    counts = Counter(order)
    lead, most = counts.most_common(1)[0]
    assert most == analysis.FINDINGS_PER_SOURCE + analysis.LEAD_EXTRA
    assert all(c <= analysis.FINDINGS_PER_SOURCE for s, c in counts.items() if s != lead)
    assert order[-analysis.LEAD_EXTRA :] == [lead] * analysis.LEAD_EXTRA


def test_a_bridge_to_a_short_parts_thing_counts_only_from_a_source_that_speaks_of_it() -> None:
    # "in what year" asks of penicillin: *Year* names *Gregorian calendar*, which is no bridge
    question = "Who discovered penicillin and in what year?"
    parts = question_parts(question)
    texts = {
        "Penicillin": "Penicillins are antibiotics. A number of penicillins have been discovered.",
        "Year": "A year is the time Earth takes to orbit. The Gregorian calendar counts years.",
        "Gregorian calendar": "The Gregorian calendar went into effect in October 1582.",
    }
    srcs = [
        SourceText(id=title, citation=n, title=title, url=f"https://example.org/{n}", text=text)
        for n, (title, text) in enumerate(texts.items(), 1)
    ]
    units = {s.id: sentences(s.text) for s in srcs}
    total = {(s.id, i): 0.5 for s in srcs for i in range(len(parts))}
    bridged = {("Gregorian calendar", 1): 0.5}

    def topical(namer: str) -> list[str]:
        namers = {("Gregorian calendar", 1): {namer}}
        scores = analysis.SourceScores(total, bridged, {}, namers)
        return [s.title for s in analysis._topical(parts, srcs, units, scores, question)[1]]

    assert topical("Year") == ["Penicillin"]
    assert topical("Penicillin") == ["Penicillin", "Gregorian calendar"]


def _second_parts(
    question: str, statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]]
) -> list[str]:
    """The candidates chosen for the second part of ``question`` when one source's
    ``statement`` scores are those given for both parts."""
    src = SourceText(id="src-1", citation=1, title="Source", text="")
    scores = analysis.SourceScores({("src-1", 0): 0.9, ("src-1", 1): 0.5}, {}, {}, {})
    chosen = analysis._candidates(
        AnalyzeInputs(question=question, sources=[src]),
        (question_parts(question), {0: [src], 1: [src]}),
        (scores, statement),
        {"src-1": "Source"},
    )
    return [c.text for c in chosen if c.part == 1]


def test_a_statement_an_earlier_part_took_answers_a_later_part_saying_its_own_word() -> None:
    question = "Which moon of Saturn is the biggest, and what is its atmosphere made of?"
    biggest = "Titan is the biggest moon of Saturn."
    atmosphere = "It is the only moon of Saturn known to have a dense atmosphere."
    crust = "Its crust is made of water ice."
    statement = {
        ("src-1", 0): (0.9, [(0.9, biggest), (0.6, atmosphere)]),
        ("src-1", 1): (0.5, [(0.5, crust), (0.4, atmosphere)]),
    }
    # the earlier part took it; the later part's own word "atmosphere" it alone says
    assert _second_parts(question, statement) == [crust, atmosphere]
    # a statement saying no word of the later part's own is not listed twice
    statement[("src-1", 1)] = (0.5, [(0.5, crust), (0.4, biggest)])
    assert _second_parts(question, statement) == [crust]


def test_a_statement_an_earlier_part_took_answers_a_later_part_saying_its_word_by_root() -> None:
    """ "when did it open" after "How long is the main span of the Brooklyn Bridge": the
    line the first part took says "Opened on May 24, 1883", the later part's own word by
    its root, so it is listed there too; not for "how many people walk over it"."""
    question = "How long is the main span of the Brooklyn Bridge, and when did it open?"
    span = "It has a main span of 1,595.5 feet."
    opened = "Opened on May 24, 1883, the Brooklyn Bridge was the first fixed crossing."
    name = "The bridge was renamed the Brooklyn Bridge in 1915."
    statement = {
        ("src-1", 0): (0.9, [(0.9, span), (0.6, opened)]),
        ("src-1", 1): (0.5, [(0.5, name), (0.4, opened)]),
    }
    assert _second_parts(question, statement) == [name, opened]
    walking = question.replace("when did it open", "how many people walk over it")
    assert _second_parts(walking, statement) == [name]
    # after a line saying "opened" with no date, the one dating it still answers
    longest = "It was the longest bridge when opened."
    statement[("src-1", 0)] = (0.9, [(0.9, span), (0.7, longest), (0.6, opened)])
    statement[("src-1", 1)] = (0.5, [(0.5, longest), (0.4, opened)])
    assert _second_parts(question, statement) == [longest, opened]


def test_a_lead_in_left_without_its_block_is_no_finding() -> None:
    # "Here's how you would …:" says nothing alone; stated with its code, it answers
    alone = "Here's how you would exclude click from Rich tracebacks:\n\n```\nx = 1,\n```"
    joined = "Here's how you would exclude click from Rich tracebacks:\n\n```\ninstall(suppress=[click])\n```"
    srcs = [
        SourceText(id=f"src-{n}", citation=n, title=title, url=f"/{n}.md", text=text)
        for n, (title, text) in enumerate([("Exclude click", alone), ("Traceback", joined)], 1)
    ]
    out = analysis.analyze(
        AnalyzeInputs(question="How do I exclude click from Rich tracebacks?", sources=srcs)
    )
    said = [f.content for f in out.findings]
    assert not [s for s in said if s.endswith(":")]
    assert any("install(suppress=[click])" in s for s in said)
    # with no source stating it with its block, a lead-in says what it says ("(line 59)")
    label = srcs[0].model_copy(
        update={"text": alone.replace("tracebacks:", "tracebacks (line 59):")}
    )
    out = analysis.analyze(
        AnalyzeInputs(question="How do I exclude click from Rich tracebacks?", sources=[label])
    )
    assert any(f.content.endswith("(line 59):") for f in out.findings)


def test_a_part_only_everyday_weights_would_answer_stays_a_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With the words no source uses weighing next to nothing, "the Bible" alone would
    # answer; whether a part is answered is decided with every word at full weight.
    question = "How did the printing press spread in Europe, and what toll did the guild levy on the Bible?"
    monkeypatch.setattr(analysis, "everyday_share", lambda: lambda term: 0.01)
    (gap,) = analyze(question).gaps
    assert gap.description.endswith("what toll did the guild levy on the Bible")
    # ... which the same weights used for the decision too would have answered
    weights = analysis.Weights
    monkeypatch.setattr(analysis, "Weights", lambda texts, _=None: weights(texts, lambda t: 0.01))
    assert analyze(question).gaps == []
