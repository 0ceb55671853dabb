"""Offline synthesis: a structured Markdown report citing only the findings' sources."""

from __future__ import annotations

import re

import pytest

from deepresearch.offline import report, summary_picks
from deepresearch.phases.synthesize import finalize_report
from deepresearch.providers import vectors
from deepresearch.roles import FindingBrief, SourceRef, SynthesizeInputs
from deepresearch.state import ResearchState
from deepresearch.text import sub_citations

QUESTION = "How did the printing press change Europe?"
SECTIONS = [
    "## Executive summary",
    "## Key findings",
    "## Conflicting information",
    "## Gaps and limitations",
    "## Conclusion",
]


def findings() -> list[FindingBrief]:
    return [
        FindingBrief(
            id="f-1",
            content="Gutenberg built a printing press in Mainz around 1440.",
            confidence="high",
            citations=[1, 2],
            category="Printing press",
        ),
        FindingBrief(
            id="f-2",
            content="Literacy rose after printed books became cheaper.",
            confidence="low",
            citations=[3],
            category="Literacy",
        ),
        FindingBrief(
            id="f-3",
            content="Printed pamphlets spread the Reformation.",
            confidence="medium",
            citations=[2],
            category="Printing press",
        ),
    ]


def inputs(**changes: object) -> SynthesizeInputs:
    base = SynthesizeInputs(
        question=QUESTION,
        research_brief="Cover literacy and religion.",
        findings=findings(),
        gaps=["No finding covers 'trade' in relation to printing press."],
        sources=[
            SourceRef(citation=n, title=f"S{n}", url=f"https://example.org/{n}") for n in (1, 2, 3)
        ],
        iteration=1,
        max_iterations=2,
        source_count=3,
        high_quality_count=1,
    )
    return base.model_copy(update=changes)


def test_the_report_has_its_sections_in_order() -> None:
    md = report.synthesize(inputs()).markdown
    assert md.startswith(f"# {QUESTION}\n")
    positions = [md.index(f"\n{s}\n") for s in SECTIONS]
    assert positions == sorted(positions)


def test_findings_are_grouped_by_theme_with_their_citations_and_confidence() -> None:
    md = report.synthesize(inputs()).markdown
    assert "### Printing press" in md and "### Literacy" in md
    assert (
        "- Gutenberg built a printing press in Mainz around 1440. [1][2] *(confidence: high)*" in md
    )
    section = md.split("## Key findings", 1)[1].split("## Conflicting information", 1)[0]
    assert (
        section.index("### Printing press")
        < section.index("- Printed pamphlets")
        < section.index("### Literacy")
        < section.index("- Literacy rose")
    )


def test_only_the_findings_citation_numbers_are_used() -> None:
    md = report.synthesize(inputs()).markdown
    used = {int(n) for n in re.findall(r"\[(\d+)\]", md)}
    assert used == {1, 2, 3}


def test_the_summary_answers_each_part_with_its_findings() -> None:
    md = report.synthesize(inputs()).markdown
    summary = md.split("## Executive summary", 1)[1].split("## Key findings", 1)[0]
    assert summary.strip().startswith("- **Printing press:** Gutenberg built a printing press")
    assert "- **Literacy:** Literacy rose" in summary
    assert (
        "examined 3 sources and recorded 3 findings; this report shows 3 of them, from 3 "
        "sources, 1 supported by more than one source"
    ) in summary
    conclusion = md.split("## Conclusion", 1)[1]
    assert "Gutenberg built a printing press" in conclusion
    assert "1 of the findings above is supported by more than one source" in conclusion


def test_gaps_and_limitations_are_listed() -> None:
    md = report.synthesize(inputs()).markdown
    section = md.split("## Gaps and limitations", 1)[1].split("## Conclusion", 1)[0]
    assert "- No finding covers 'trade' in relation to printing press." in section
    assert "2 of the 3 findings shown rest on a single source" in section
    assert "1 of at most 2 iteration(s); 1 of 3 sources were rated high quality" in section


def test_findings_with_different_figures_are_reported_as_conflicting() -> None:
    conflicting = [
        FindingBrief(
            id="f-1",
            content="The press printed 180 copies of the Bible in Mainz.",
            confidence="medium",
            citations=[1],
        ),
        FindingBrief(
            id="f-2",
            content="The press printed 135 copies of the Bible in Mainz.",
            confidence="medium",
            citations=[2],
        ),
    ]
    md = report.synthesize(inputs(findings=conflicting)).markdown
    section = md.split("## Conflicting information", 1)[1].split("## Gaps", 1)[0]
    assert "180" in section and "135" in section and "different figures" in section
    assert "Some figures differ between sources" in md.split("## Conclusion", 1)[1]


def test_records_and_statements_about_different_things_are_not_conflicts() -> None:
    def brief(n: int, content: str) -> FindingBrief:
        return FindingBrief(id=f"f-{n}", content=content, confidence="medium", citations=[n])

    pairs = [
        # two named things described by one template
        ("Radon is a chemical element; it has symbol Rn and atomic number 86.",
         "Rubidium is a chemical element; it has symbol Rb and atomic number 37."),
        # two settings of a reference
        ("fetch-retries: Default: 2; Type: Number", "fetch-retry-factor: Default: 10; Type: Number"),
        ("fetch-retries: Default: 2; Type: Number", "maxsockets: Default: 15; Type: Number"),
        # quoted code lines and table rows are records of their own
        ('Code: `[package] version = "0.1.0"`', 'Code: `[dependencies] bar = { version = "0.2" }`'),
        ("Table row: Level: Full; Fidelity: 100%", "Table row: Level: Full; Fidelity: 90%"),
        # items of a checklist that share a few words
        ("Not done: 1.6 Update planning to consume the research brief",
         "Not done: 1.8 Update supervision to reference the research brief"),
        # numbered records of a tracker are names, not figures
        ("Backported by Alexandre Vassalotti; issue-2335.",
         "Backported to 2.7 by Alexandre Vassalotti; issue-1967."),
    ]  # fmt: skip
    for a, b in pairs:
        md = report.synthesize(inputs(findings=[brief(1, a), brief(2, b)])).markdown
        assert "different figures" not in md, (a, b)


def test_agreeing_findings_are_not_conflicts() -> None:
    md = report.synthesize(inputs()).markdown
    assert "No direct contradictions were found" in md


def test_a_report_without_findings_still_has_every_section() -> None:
    md = report.synthesize(inputs(findings=[], gaps=[])).markdown
    for section in SECTIONS:
        assert section in md
    assert "did not yield findings" in md
    assert "- No open gaps were identified." in md
    assert "More sources are needed" in md
    assert not re.search(r"\[\d+\]", md)


def test_guidance_moves_matching_findings_to_the_front() -> None:
    md = report.synthesize(inputs(guidance=["What about literacy?"])).markdown
    summary = md.split("## Executive summary", 1)[1].split("## Key findings", 1)[0]
    assert summary.strip().startswith("- **Literacy:** Literacy rose")


def test_the_report_is_deterministic() -> None:
    assert report.synthesize(inputs()) == report.synthesize(inputs())


def test_at_most_twelve_sources_are_cited() -> None:
    many = [
        FindingBrief(
            id=f"f-{n}", content=f"Statement number {n} about printing.", confidence="medium",
            citations=[n], category=f"Part {n % 3}",
        )
        for n in range(1, 31)
    ]  # fmt: skip
    md = report.synthesize(inputs(findings=many)).markdown
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", md)}
    assert len(cited) == report.MAX_CITED
    assert {"### Part 0", "### Part 1", "### Part 2"} <= set(md.splitlines())  # every part


def test_a_widely_confirmed_finding_does_not_use_up_the_citations() -> None:
    shared = FindingBrief(
        id="f-0",
        content="Default: true; Type: Boolean.",
        confidence="confirmed",
        citations=list(range(1, 12)),
        category="Part A",
    )
    own = [
        FindingBrief(
            id=f"f-{n}", content=f"Statement number {n} about flags.", confidence="medium",
            citations=[n], category="Part B",
        )
        for n in range(20, 25)
    ]  # fmt: skip
    md = report.synthesize(inputs(findings=[shared, *own])).markdown
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", md)}
    assert {20, 21, 22, 23, 24} <= cited  # every other finding keeps its source
    assert {1, 2, 3} <= cited and len(cited) == report.MAX_CITED  # room left: confirmations


def test_each_findings_own_source_comes_before_other_findings_confirmers() -> None:
    part_a = [
        FindingBrief(
            id=f"f-a{n}", content=f"Claim {n} on part A.", confidence="high",
            citations=[n, 100 + 2 * n, 101 + 2 * n], category="Part A",
        )
        for n in range(1, 6)
    ]  # fmt: skip
    part_b = [
        FindingBrief(
            id=f"f-b{n}", content=f"Claim {n} on part B.", confidence="low",
            citations=[n + 10], category="Part B",
        )
        for n in range(1, 6)
    ]  # fmt: skip
    md = report.synthesize(inputs(findings=[*part_a, *part_b])).markdown
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", md)}
    # Ten own sources first; the two places left go to the first finding's confirmers.
    assert {1, 2, 3, 4, 5, 11, 12, 13, 14, 15} <= cited
    assert cited - {1, 2, 3, 4, 5, 11, 12, 13, 14, 15} == {102, 103}


def summary_of(
    question: str, found: list[FindingBrief], sources: list[SourceRef] | None = None
) -> str:
    """The executive summary of the report on ``found`` (and ``sources``, when given)."""
    given = {"sources": sources} if sources is not None else {}
    md = report.synthesize(inputs(question=question, findings=found, **given)).markdown
    return md.split("## Executive summary", 1)[1].split("## Key findings", 1)[0]


def opening_line(asked: str, found: list[FindingBrief], sources: list[SourceRef]) -> str:
    """The summary line of the one-part question ``asked``, after its bold part."""
    return summary_of(f"{asked}?", found, sources).split(f"- **{asked}?** ", 1)[1]


def titled(*titles: str) -> list[SourceRef]:
    """Sources numbered from 1 with these titles."""
    return [
        SourceRef(citation=n, title=t, url=f"https://example.org/{n}")
        for n, t in enumerate(titles, 1)
    ]


def finding(n: int, content: str, part: str, source: int) -> FindingBrief:
    return FindingBrief(
        id=f"f-{n}", content=content, confidence="medium", citations=[source], category=part
    )


CIRCULATION = "How does blood circulate, and who first described the circulation in full?"
WHO = "who first described the circulation in full"


def circulation(who: list[tuple[str, int]]) -> list[FindingBrief]:
    how = "How does blood circulate"
    return [
        finding(1, "The heart pumps blood through arteries and veins.", how, 1),
        finding(2, "Blood returns to the heart through the veins.", how, 1),
        *(finding(10 + n, text, WHO, source) for n, (text, source) in enumerate(who)),
    ]


def test_a_part_asking_who_is_summarised_by_the_finding_that_names_someone() -> None:
    summary = summary_of(
        CIRCULATION,
        circulation(
            [
                ("Circulation was described in many ancient texts.", 2),
                ("The circulatory system is an organ system of the heart and vessels.", 3),
                ("William Harvey described the circulation in full in 1628.", 4),
            ]
        ),
    )
    line = next(x for x in summary.splitlines() if x.startswith(f"- **{WHO}?**"))
    # the analysis's first finding, then the one naming a person and a year: not the
    # definition the analysis ranked above it
    assert "many ancient texts" in line and "William Harvey described" in line
    assert "organ system" not in line


def test_a_part_asking_when_or_how_many_opens_with_a_finding_that_gives_one() -> None:
    """ "When did the war end" is answered by a time, "how many died" by a number: the
    summary opens with the best-ranked finding giving one, though the analysis ranked a
    description first; a number the question gives answers nothing."""
    when, many = "When did the Great War end", "how many soldiers died in it"
    found = [
        finding(1, "The Great War was a global conflict between the Allies and others.", when, 1),
        finding(2, "Fighting stopped with the armistice of 11 November 1918.", when, 2),
        finding(3, "Soldiers of the Great War fought on many fronts.", many, 1),
        finding(4, "About 9 million soldiers died in the fighting.", many, 3),
    ]
    summary = summary_of(f"{when}, and {many}?", found)
    lines = {x.split("**")[1]: x for x in summary.splitlines() if x.startswith("- **")}
    assert lines[f"{when}?"].index("armistice") < lines[f"{when}?"].index("global conflict")
    assert lines[f"{many}?"].index("9 million") < lines[f"{many}?"].index("many fronts")
    # the year the question names is not an answer to it
    asked = "When did the war of 1914 end"
    found = [
        finding(1, "The war of 1914 was fought across Europe.", asked, 1),
        finding(2, "An armistice ended the war in its fifth year.", asked, 2),
    ]
    line = summary_of(f"{asked}?", found)
    assert line.index("fought across Europe") < line.index("armistice")


def test_a_part_counting_a_thing_it_names_nothing_of_opens_with_an_earlier_parts_count() -> None:
    """The analysis lists a statement under one part: "A game lasts eight or ten ends",
    drawn for the first part, answers the second, whose own findings count nothing. A part
    naming a thing is not answered by another thing's count."""
    players, ends = (
        "In curling, how many players are on each team",
        "how many ends does a game last",
    )
    found = [
        finding(1, "Two teams, each with four players, slide stones across the ice.", players, 1),
        finding(2, "A game usually consists of eight or ten ends.", players, 1),
        finding(3, "The ancient Olympic Games were held in Olympia.", ends, 2),
    ]
    summary = summary_of(f"{players}, and {ends}?", found)
    lines = {x.split("**")[1]: x for x in summary.splitlines() if x.startswith("- **")}
    assert lines[f"{ends}?"].split("?** ", 1)[1].startswith("A game usually consists of eight")
    owens, bolt = "Jesse Owens: how many golds did he win", "Usain Bolt: how many golds did he win"
    found = [
        finding(1, "Owens won four golds at the 1936 Olympics.", owens, 1),
        finding(2, "Bolt is a Jamaican retired sprinter.", bolt, 2),
    ]
    summary = summary_of(f"{owens}, and {bolt}?", found)
    lines = {x.split("**")[1]: x for x in summary.splitlines() if x.startswith("- **")}
    assert "four golds" not in lines[f"{bolt}?"]


def test_a_part_asking_for_a_measure_opens_with_a_finding_that_gives_a_number() -> None:
    """ "How deadly was the flu" asks for a measure, as "how many" does, which neither a
    span of years nor a name with digits ("H1N1") gives; "how did it spread" asks for a
    process, and keeps the analysis's order."""
    deadly = "How deadly was the Spanish flu"
    found = [
        finding(
            1, "The 1918–1920 flu, caused by H1N1, was an exceptionally deadly pandemic.", deadly, 1
        ),
        finding(2, "The pandemic struck people across the world in several waves.", deadly, 1),
        finding(3, "The flu infected about 500 million people, a third of the world.", deadly, 2),
    ]
    line = summary_of(f"{deadly}?", found)
    assert line.index("500 million") < line.index("exceptionally deadly")
    spread = "How did the Spanish flu spread"
    found = [finding(n, f.content, spread, f.citations[0]) for n, f in enumerate(found, 1)]
    line = summary_of(f"{spread}?", found)
    assert line.index("exceptionally deadly") < line.index("500 million")


def test_a_part_asking_about_him_opens_with_a_finding_from_a_person_s_entry() -> None:
    """ "which political system did he support" is answered by what the entry on the
    person says of him, not by the entry on a political system that matches its words."""
    first = "Who wrote Nineteen Eighty-Four"
    then = "which political system did he support"
    found = [
        finding(1, "Nineteen Eighty-Four is a novel by George Orwell.", first, 1),
        finding(2, "Totalitarianism is a political system that controls society.", then, 2),
        finding(3, "It is characterized by its suppression of opposition.", then, 2),
        finding(4, "His work shows support of democratic socialism.", then, 3),
    ]
    sources = titled("Nineteen Eighty-Four", "Totalitarianism", "George Orwell")

    def line_of(part: str, found: list[FindingBrief]) -> str:
        question = f"{first}, and {part}?"
        md = report.synthesize(inputs(question=question, findings=found, sources=sources))
        return next(x for x in md.markdown.splitlines() if x.startswith(f"- **{part}"))

    line = line_of(then, found)
    assert line.index("democratic socialism") < line.index("Totalitarianism is")
    # a part pointing back to a thing keeps the analysis's order
    thing = "which political system did it describe"
    found = [
        finding(n, f.content, thing if f.category == then else first, f.citations[0])
        for n, f in enumerate(found, 1)
    ]
    assert line_of(thing, found).split("** ", 1)[1].startswith("Totalitarianism is")


def test_a_part_asking_what_holds_now_opens_with_a_finding_saying_it_in_the_present() -> None:
    """ "Who is the current president" is answered by who *is* president of the place it
    names, not by a past one, nor by a present one of another place."""
    current = "Who is the current president of the United States"
    found = [
        finding(1, "Biya is the longest-serving current president in Africa.", current, 1),
        finding(2, "George Washington was the first president of the United States.", current, 2),
        finding(3, "Donald Trump is the 47th president of the United States.", current, 3),
    ]
    line = next(x for x in summary_of(f"{current}?", found).splitlines() if x.startswith("- "))
    assert line.index("Donald Trump") < line.index("Biya")


def test_a_part_asking_for_the_first_of_a_kind_opens_with_a_finding_saying_first() -> None:
    """ "The first man on the Moon" is answered by the statement saying "the first", even
    one defining who someone was; "second-largest" is not "the largest"."""
    first = "Who was the first man on the Moon"
    found = [
        finding(1, "Apollo was dedicated to landing a man on the Moon by 1970.", first, 1),
        finding(
            2, "Neil Armstrong was an astronaut, the first person to walk on the Moon.", first, 2
        ),
    ]
    line = next(x for x in summary_of(f"{first}?", found).splitlines() if x.startswith("- "))
    assert line.index("Neil Armstrong") < line.index("Apollo was dedicated")
    largest = "What is the largest planet"
    found = [
        finding(1, "Saturn is the second-largest planet, after another one.", largest, 1),
        finding(2, "Jupiter is the largest planet in the Solar System.", largest, 2),
    ]
    line = next(x for x in summary_of(f"{largest}?", found).splitlines() if x.startswith("- "))
    assert line.index("Jupiter") < line.index("Saturn")


def test_a_part_asking_who_did_something_opens_with_a_finding_naming_the_doer() -> None:
    """ "Who discovered X" is answered by a finding stating the deed with a name, not by
    the definition of X the analysis ranked first; no such finding, the order stands."""
    who = "Who discovered glimmerite"
    found = [
        finding(1, "Glimmerite is a green mineral found in basalt.", who, 1),
        finding(2, "Glimmerite is mined in three countries.", who, 1),
        finding(3, "She was honoured for the discovery of glimmerite by Ada Brandt.", who, 2),
    ]
    line = summary_of(f"{who}?", found)
    assert line.index("Ada Brandt") < line.index("green mineral")
    found = [
        finding(1, "Glimmerite is a green mineral.", who, 1),
        finding(2, "Glimmerite glows.", who, 2),
    ]
    line = summary_of(f"{who}?", found)
    assert line.index("green mineral") < line.index("glows")


@pytest.mark.skipif(not vectors.available(), reason="wordllama not installed")
def test_a_part_asking_who_did_something_opens_with_its_thing_s_doer_in_other_words() -> None:
    """No line says "wrote the Glimmeriad": the one naming its author opens, not one naming
    other writers."""
    who = "Who wrote the Glimmeriad"
    found = [
        finding(
            1, "Ada Brandt was one of the three great writers, along with Otto Kessel.", who, 1
        ),
        finding(2, "Vell Orin was a poet credited as the author of the Glimmeriad.", who, 2),
    ]
    line = summary_of(f"{who}?", found)
    assert line.split("?** ", 1)[1].startswith("Vell Orin")


def test_it_after_who_did_something_to_a_named_thing_is_asked_of_that_thing_s_entry() -> None:
    """ "what is it about" after "Who wrote the Glimmeriad" asks of the *Glimmeriad*, not
    of the *Vell Orin* the line before opened with."""
    who, about = "Who wrote the Glimmeriad", "what is it about"
    found = [
        finding(1, "Vell Orin was the poet who wrote the Glimmeriad.", who, 1),
        finding(2, "The Glimmeriad is an epic attributed to Vell Orin.", who, 2),
        finding(3, "Vell Orin was a poet of the northern coast.", about, 1),
        finding(4, "The poem tells of a war between two cities.", about, 2),
    ]
    summary = summary_of(f"{who}, and {about}?", found, titled("Vell Orin", "Glimmeriad"))
    lines = {x.split("**")[1]: x for x in summary.splitlines() if x.startswith("- **")}
    assert lines[f"{about}?"].split("?** ", 1)[1].startswith("The poem tells")


def test_a_part_asking_who_did_something_opens_with_the_deed_done_to_its_thing() -> None:
    """ "Who founded Glimmerism" opens with the finding that founded Glimmerism, not with
    one naming the founders of another school in a sentence about Glimmerism."""
    who = "Who founded Glimmerism"
    found = [
        finding(
            1,
            "After turning to Glimmerism in his youth, with his brother, Ada Brandt was one of the founders of Vell.",
            who,
            1,
        ),
        finding(2, "Glimmerism was founded by Otto Kessel in 1890.", who, 2),
    ]
    line = summary_of(f"{who}?", found)
    assert line.index("Otto Kessel") < line.index("Ada Brandt")


def test_a_part_asking_which_of_named_things_is_so_opens_with_the_entry_on_each() -> None:
    """ "Which is larger, Zorbo or Kessel" asks it of each: a part's line opens with the
    entry titled with its name, not with another entry's line saying "larger", nor with
    an entry whose title only begins with the name (*Zorbo V*)."""
    question = "Which is larger, Zorbo or Kessel?"
    first, second = "Which is larger, Zorbo", "Which is larger, Kessel"
    sources = titled("Vell (moon)", "Zorbo", "Zorbo V", "Kessel")
    found = [
        finding(
            1, "Vell is a third larger than the Moon and orbits Zorbo at 1.9 million km.", first, 1
        ),
        finding(3, "Zorbo V was a rocket launched 13 times from 1967 to 1973.", first, 3),
        finding(2, "Zorbo is the fifth planet and the largest of its system.", first, 2),
        finding(4, "Kessel is the second largest planet after Zorbo.", second, 4),
    ]
    md = report.synthesize(inputs(question=question, findings=found, sources=sources)).markdown
    summary = md.split("## Executive summary", 1)[1].split("## Key findings", 1)[0]
    lines = summary.splitlines()
    assert next(x for x in lines if x.startswith(f"- **{first}?**")).index("fifth planet") < 60
    assert next(x for x in lines if x.startswith(f"- **{second}?**")).index("second largest") < 60


def test_a_part_naming_a_thing_is_answered_by_what_is_said_of_it() -> None:
    """ "How tall is Mount Zorbo" opens with what the entry on Zorbo says, not with the
    "tallest peak" of another mountain the analysis ranked first; a part asking for a
    thing its names only describe keeps the analysis's order, the entry on Vell after."""
    sources = titled("Mount Kessel", "Mount Zorbo", "Friends of Mount Zorbo")
    how = "How tall is Mount Zorbo"
    found = [
        finding(1, "The tallest peak of Mount Kessel is Crow Peak, 1,545 metres tall.", how, 1),
        finding(4, "The Friends of Mount Zorbo club climbs it every spring.", how, 3),
        finding(2, "Its summit was measured in 2020 as 4,810 metres.", how, 2),
        finding(3, "The Kessel range lies in Vell.", how, 1),
    ]
    line = summary_of(f"{how}?", found, sources)
    assert line.index("4,810") < line.index("Crow Peak")
    assert "club" not in line.split("4,810")[0]  # an entry titled with more than its name
    which = "Which climber from Vell first reached the summit"
    found = [
        finding(1, "Ada Brandt first reached the summit of Mount Zorbo in 1901.", which, 1),
        finding(2, "Vell is a valley town.", which, 3),
    ]
    sources = titled("Mount Kessel", "Mount Zorbo", "Vell")
    md = report.synthesize(inputs(question=f"{which}?", findings=found, sources=sources)).markdown
    assert md.index("Ada Brandt") < md.index("valley town")


def test_a_part_asking_what_a_thing_is_opens_with_the_entry_titled_with_its_words() -> None:
    """ "What is glimmerite" opens with the entry *Glimmerite*, not with another entry's
    line that mentions it; a part pointing back ("why is it rare") is not answered by
    an entry titled with its words."""
    sources = titled("Basalt", "Glimmerite", "Rare")
    what, why = "What is glimmerite", "why is it rare"
    found = [
        finding(1, "Basalt often holds glimmerite crystals.", what, 1),
        finding(2, "Glimmerite is a green mineral of the mica group.", what, 2),
        finding(3, "Few basalt flows cool slowly enough to grow it.", why, 1),
        finding(4, "Rare things are uncommon.", why, 3),
    ]
    question = f"{what}, and {why}?"
    md = report.synthesize(inputs(question=question, findings=found, sources=sources)).markdown
    summary = md.split("## Executive summary", 1)[1].split("## Key findings", 1)[0]
    assert summary.index("green mineral") < summary.index("often holds")
    assert summary.index("cool slowly") < summary.index("uncommon")
    # "the largest glimmerite crystal" is one crystal, which the entry on the kind does
    # not name
    largest = "What is the largest glimmerite crystal"
    found = [
        finding(1, "The Vell crystal, found in basalt, weighs 40 kg.", largest, 1),
        finding(2, "Glimmerite is a green mineral of the mica group.", largest, 2),
    ]
    md = report.synthesize(inputs(question=f"{largest}?", findings=found, sources=sources)).markdown
    assert md.index("Vell crystal") < md.index("green mineral")


def test_a_summary_line_does_not_open_with_a_pronoun_its_source_names_elsewhere() -> None:
    """The doer's line "She was honoured for the discovery …" is led by the same entry's
    statement naming her, in the place of the line's last pick."""
    who = "Who discovered glimmerite"
    found = [
        finding(1, "Glimmerite is a green mineral found in basalt.", who, 1),
        finding(2, "She was honoured in 1901 for the discovery of glimmerite by Vell.", who, 2),
        finding(3, "Ada Brandt was a Swiss geologist.", who, 2),
        finding(4, "Glimmerite is mined in three countries.", who, 1),
    ]
    line = summary_of(f"{who}?", found, titled("Glimmerite", "Ada Brandt"))
    assert line.index("Ada Brandt") < line.index("She was honoured") < line.index("green")
    assert "three countries" not in line  # three picks for a one-part question


def test_a_summary_line_opening_with_a_pronoun_is_led_by_the_statement_naming_its_subject() -> None:
    """ "It is also known as the Red Planet" is led by "Mars is the fourth planet", not by
    the line of the same entry that stood before it."""
    which = "Which planet is known as the Red Planet"
    found = [
        finding(1, "It is also known as the Red Planet for its colour.", which, 1),
        finding(2, "At the surface the pressure is 6 mbar, at -60 °C on Earth's scale.", which, 1),
        finding(3, "Mars is the fourth planet from the Sun.", which, 1),
    ]
    line = summary_of(f"{which}?", found, titled("Mars"))
    assert line.index("Mars is the fourth") < line.index("It is also known")


def test_a_definition_saying_the_kind_a_part_asks_for_is_no_mere_definition() -> None:
    """ "Cairo is the capital and largest city of Egypt" answers "in which city does it
    stand": it is not ranked down as a definition below a line on another thing."""
    which = "In which city does the university stand"
    found = [
        finding(1, "Code: `campus = University.load()`", which, 1),
        finding(2, "Cairo is the capital and largest city of Egypt.", which, 2),
        finding(3, "Egypt, officially the Arab Republic, spans two continents.", which, 3),
    ]
    line = summary_of(f"{which}?", found, titled("Al-Azhar University", "Cairo", "Egypt"))
    assert line.split("** ", 1)[1].startswith("Cairo is the capital")


def test_a_part_asking_what_something_is_keeps_its_definition() -> None:
    what = "What is the circulatory system"
    found = [
        finding(1, "Blood carries oxygen to the tissues.", what, 1),
        finding(2, "The circulatory system is an organ system of the heart and vessels.", what, 2),
        finding(3, "William Harvey described the circulation in full in 1628.", what, 3),
        finding(4, "It was studied in Padua.", "where was it studied", 3),
    ]
    summary = summary_of("What is the circulatory system, and where was it studied?", found)
    line = next(x for x in summary.splitlines() if x.startswith(f"- **{what}?**"))
    assert "organ system" in line and "William Harvey" not in line


def test_a_part_has_at_most_two_summary_findings_and_a_one_part_question_three() -> None:
    texts = [
        ("Harvey described the circulation in Folkestone.", 2),
        ("Harvey studied the circulation at Padua.", 3),
        ("Harvey published the circulation in De Motu Cordis.", 4),
    ]
    two_parts = summary_of(CIRCULATION, circulation(texts))
    assert sum(t in two_parts for t, _ in texts) == 2
    one_part = [finding(n, t, WHO, s) for n, (t, s) in enumerate(texts)]
    assert all(t in summary_of(f"{WHO}?", one_part) for t, _ in texts)


def test_the_second_summary_finding_continues_the_first_ones_source() -> None:
    summary = summary_of(
        CIRCULATION,
        circulation(
            [
                ("William Harvey was an English physician.", 5),
                ("The heart has four chambers.", 6),
                ("He described the circulation in De Motu Cordis.", 5),
            ]
        ),
    )
    line = next(x for x in summary.splitlines() if x.startswith(f"- **{WHO}?**"))
    assert "De Motu Cordis" in line and "four chambers" not in line


def test_a_later_part_does_not_repeat_a_finding_an_earlier_part_summarised() -> None:
    shared = "William Harvey showed in 1628 that the heart pumps blood in a circuit."
    found = [
        finding(1, shared, "How does blood circulate", 1),
        finding(2, "Blood returns to the heart through the veins.", "How does blood circulate", 2),
        finding(3, shared, WHO, 1),
        finding(4, "Ibn al-Nafis described the pulmonary circulation in 1242.", WHO, 3),
        finding(5, "Galen thought blood was made in the liver.", WHO, 4),
    ]
    summary = summary_of(CIRCULATION, found)
    line = next(x for x in summary.splitlines() if x.startswith(f"- **{WHO}?**"))
    assert summary.count(shared) == 1
    assert "Ibn al-Nafis" in line
    # a line's second finding goes on from its first one's source or says a word of the
    # part: Galen's liver is not how the circulation was first described
    assert "Galen" not in line


def test_the_summary_states_a_part_in_prose_before_quoting_a_code_line() -> None:
    part = "why not just use Arc everywhere"
    found = [
        finding(1, "Code: `use std::sync::{Arc, Mutex};`", part, 1),
        finding(2, "Atomics cost performance, so Arc is used only across threads.", part, 2),
    ]
    line = next(x for x in summary_of(f"{part}?", found).splitlines() if x.startswith("- **"))
    assert "Atomics cost performance" in line and "Code:" not in line
    # a code line that is a part's only answer is still quoted
    only = summary_of(f"{part}?", found[:1])
    assert "Code: `use std::sync::{Arc, Mutex};`" in only


def test_a_statement_answering_two_parts_is_shown_once_and_frees_a_place() -> None:
    shared = "William Harvey showed in 1628 that the heart pumps blood in a circuit."
    how = "How does blood circulate"
    others = [f"Physician number {n} wrote about the pulse." for n in range(report.PER_PART)]
    found = [
        finding(1, shared, how, 1),
        finding(2, "Blood returns to the heart through the veins.", how, 2),
        finding(3, shared, WHO, 1),
        *(finding(10 + n, text, WHO, 3) for n, text in enumerate(others)),
    ]
    md = report.synthesize(inputs(question=CIRCULATION, findings=found)).markdown
    key = md.split("## Key findings", 1)[1].split("## Conflicting information", 1)[0]
    assert key.count(shared) == 1
    # the place it would have taken under the second part goes to that part's next finding
    assert all(text in key for text in others)
    # the summary still answers each part from its own findings
    assert summary_of(CIRCULATION, found).count(shared) == 1


def test_a_part_whose_answer_is_shown_under_another_part_still_summarises_it() -> None:
    shared = "In 1628 William Harvey of London showed that the heart pumps blood in a circuit."
    how = "How does blood circulate"
    found = [
        finding(1, "Blood flows.", how, 1),
        finding(2, "Blood moves.", how, 4),
        finding(3, shared, how, 2),
        finding(4, shared, WHO, 2),
        finding(5, "Galen thought blood was made in the liver.", WHO, 3),
    ]
    md = report.synthesize(inputs(question=CIRCULATION, findings=found)).markdown
    key = md.split("## Key findings", 1)[1].split(f"### {WHO}", 1)[0]
    assert shared not in key  # shown once, under the part that ranks it first
    lines = summary_of(CIRCULATION, found).splitlines()
    # listed under the part that ranks it first ("who first described …"), it opens that
    # part's line and does not pad the line before, which opens with its own best finding
    who = next(x for x in lines if x.startswith("- **who"))
    assert who.split("** ", 1)[1].startswith(shared)
    assert not any(shared in x for x in lines if x.startswith("- **How"))
    # alone, the part's summary line takes it from under the other part
    assert shared in summary_of(how, found[:3])


def test_a_part_pointing_back_is_summarised_from_the_entry_the_question_names() -> None:
    # the first part found no answer, so no line before names whom "he" is: the
    # question does, and the entry on him answers before another person's
    question = "How many times did Ada Quill win the Crest Race, and where did he train?"
    part = "where did he train"
    found = [
        finding(1, "Bo Vetch was a runner; he trained in Oslo for many years.", part, 1),
        finding(2, "He trained in Addis Ababa with his coach for many years.", part, 2),
    ]
    draft = inputs(question=question, findings=found, sources=titled("Bo Vetch", "Ada Quill"))
    md = report.synthesize(draft).markdown
    line = next(x for x in md.splitlines() if x.startswith("- **where"))
    assert line.split("** ", 1)[1].startswith("He (Ada Quill) trained in Addis Ababa")
    # the conclusion opens with the summary's answer, not the first finding listed
    assert "In short: He (Ada Quill) trained in Addis Ababa" in md.split("## Conclusion")[1]


def test_a_part_answered_by_a_statement_shown_under_another_part_cites_the_copy_shown() -> None:
    # the same words from two sources answer two parts: the key findings show them once
    # (source 1), and the second part's summary line cites what the report cites
    said = "William Harvey described the circulation of the blood in 1628."
    found = [finding(1, said, "How does blood circulate", 1), finding(2, said, WHO, 5)]
    md = report.synthesize(inputs(question=CIRCULATION, findings=found)).markdown
    line = next(x for x in summary_of(CIRCULATION, found).splitlines() if WHO in x)
    assert said in line and "[1]" in line
    assert "[5]" not in md


def test_a_statements_own_bracketed_numbers_cite_no_source() -> None:
    # Python's docs write "accumulate([1, 2, 3, 4, 5])": read as citations, the numbers
    # cited five unrelated sources and the Sources list grew past twelve.
    state = ResearchState(question="What does accumulate do?")
    for n in range(1, 7):
        state.new_source(url=f"https://example.org/{n}", title=f"S{n}", content="text")
    said = "itertools.accumulate([1, 2, 3, 4, 5]) yields 1, 3, 6, 10, 15 and v[2] is 3."
    finding = FindingBrief(id="f-1", content=said, confidence="medium", citations=[6])
    draft = report.synthesize(inputs(findings=[finding], gaps=[]))
    final = finalize_report(draft.markdown, state)
    assert [c.url for c in final.citations] == ["https://example.org/6"]
    assert r"itertools.accumulate(\[1, 2, 3, 4, 5\]) yields" in final.markdown
    assert r"v\[2\] is 3. [1]" in final.markdown


def test_the_questions_own_bracketed_numbers_cite_no_source() -> None:
    question = "Why does s[1] fail, and what is v[2]?"
    finding = FindingBrief(
        id="f-1",
        content="Indexing starts at zero.",
        confidence="low",
        citations=[3],
        category="Why does s[1] fail",
    )
    gaps = ["No source found answers this part of the question: what is v[2]"]
    md = report.synthesize(inputs(question=question, findings=[finding], gaps=gaps)).markdown
    cited: list[str] = []
    sub_citations(md, lambda m: cited.append(m[1]) or m[0])  # as synthesis numbers them
    assert cited == ["3", "3", "3"]
    assert r"- **Why does s\[1\] fail?** Indexing starts at zero. [3]" in md
    assert (
        r"- Not answered: what is v\[2\]" in md
        and r"- No source found answers this part of the question: what is v\[2\]" in md
    )


def test_a_part_that_is_a_request_is_labelled_without_a_question_mark() -> None:
    reef = "Tell me about the Great Barrier Reef"
    found = [finding(1, "The Great Barrier Reef is the largest coral reef system.", reef, 1)]
    summary = summary_of(f"{reef}?", found)
    assert f"- **{reef}:** The Great Barrier Reef" in summary
    asked = "Where is the Great Barrier Reef"
    found = [finding(1, "The Great Barrier Reef lies off the coast of Queensland.", asked, 1)]
    assert f"- **{asked}?** The Great Barrier Reef" in summary_of(f"{asked}?", found)


def test_a_part_describing_what_it_asks_about_opens_with_the_entry_its_findings_name() -> None:
    """ "the emperor who carried out later modifications to the Colosseum" is not named:
    the Colosseum's line names Domitian, whose entry says when he ruled; another ruler's
    dated line ranked above it answers some other emperor. "whose son was he" then opens
    with the entry the first part's line opened with."""
    first = "During which years did the emperor who altered the Colosseum rule"
    then = "whose son was he"
    found = [
        finding(1, "The Colosseum was altered during the reign of Domitian.", first, 1),
        finding(2, "The Kangxi Emperor ruled the Qing dynasty from 1661 to 1722.", first, 2),
        finding(3, "Domitian was Roman emperor from 81 to 96.", first, 3),
        finding(4, "Taejo was the founder of Joseon and the father of eight sons.", then, 4),
        finding(5, "Domitian was the son of Vespasian.", then, 3),
    ]
    sources = titled("Colosseum", "Kangxi Emperor", "Domitian", "Taejo of Joseon")
    md = report.synthesize(
        inputs(question=f"{first}, and {then}?", findings=found, sources=sources)
    ).markdown
    lines = {x.split("**")[1]: x for x in md.splitlines() if x.startswith("- **")}
    assert lines[f"{first}?"].split("** ", 1)[1].startswith("Domitian was Roman emperor")
    assert lines[f"{then}?"].split("** ", 1)[1].startswith("Domitian was the son")
    # a part that names what it asks about is answered by what is said of that
    named = "During which years did Kangxi rule"
    found = [finding(n, f.content, named, f.citations[0]) for n, f in enumerate(found[:3], 1)]
    md = report.synthesize(inputs(question=f"{named}?", findings=found, sources=sources)).markdown
    summary = md.split("## Key findings")[0]
    assert summary.split("?**")[1].startswith(" The Kangxi Emperor ruled")


def test_a_part_describing_what_it_asks_about_through_a_name_opens_with_the_hops_entry() -> None:
    """ "the top-billed star of The Wizard of Oz" is not named: the film's line saying
    "stars" names Judy Garland, whose entry answers; the film its director left for,
    which another of the film's lines names, does not. Not for an attribute of the name
    itself ("the director of The Wizard of Oz" is the attribute check's)."""
    asked = "What singing voice did the top-billed star of the 1939 film The Wizard of Oz have"
    found = [
        finding(1, "The Wizard of Oz is a 1939 American musical fantasy film.", asked, 1),
        finding(2, "The film stars Judy Garland, Frank Morgan and Ray Bolger.", asked, 1),
        finding(3, "Its director left to take over Gone with the Wind.", asked, 1),
        finding(4, "Gone with the Wind is a 1939 American epic film.", asked, 3),
        finding(5, "Judy Garland was known for her strong contralto voice.", asked, 2),
    ]
    sources = titled("The Wizard of Oz", "Judy Garland", "Gone with the Wind (film)")
    line = opening_line(asked, found, sources)
    assert line.startswith("Judy Garland was known")


def test_a_part_describing_what_it_asks_through_a_lower_case_title_opens_with_the_hop() -> None:
    """ "the philosopher who first articulated the is–ought problem" gives the entry
    *Is–ought problem* in lower case: its line names Hume, whose entry answers which
    treatise he published, not the problem's own definition."""
    asked = "Which treatise did the philosopher who first articulated the is–ought problem publish"
    found = [
        finding(1, "The is–ought problem asks whether ought can follow from is.", asked, 1),
        finding(2, "It was first articulated by the philosopher David Hume.", asked, 1),
        finding(3, "Hume published A Treatise of Human Nature in 1739–40.", asked, 2),
    ]
    sources = titled("Is–ought problem", "David Hume")
    assert opening_line(asked, found, sources).startswith("Hume published")


def test_a_comparison_summary_goes_from_one_compared_entry_to_the_other() -> None:
    """ "How do comets differ from asteroids": after the comet's definition, the
    asteroid's (a definition answers a comparison), not more of the comet's entry."""
    asked = "How do comets differ from asteroids"
    found = [
        finding(1, "A comet is an icy body that releases gases near the Sun.", asked, 1),
        finding(2, "Comets have been observed since antiquity by many cultures.", asked, 1),
        finding(3, "Comets usually have highly eccentric elliptical orbits.", asked, 1),
        finding(4, "An asteroid is a minor planet of the inner Solar System.", asked, 2),
    ]
    line = opening_line(asked, found, titled("Comet", "Asteroid"))
    assert line.index("A comet is") < line.index("An asteroid is") < line.index("\n")


def test_a_hop_opens_with_the_entry_saying_the_kind_described_not_the_clauses_own() -> None:
    """ "the cleric who led the revolution against Mohammad Reza Pahlavi": the Shah's own
    entry describes the cleric, and of the entries the revolution's line names, the one
    saying "cleric" answers, not *Iran*."""
    asked = "What post did the cleric who led the revolution against Mohammad Reza Pahlavi hold"
    found = [
        finding(1, "Mohammad Reza Pahlavi was the last Shah of Iran.", asked, 1),
        finding(2, "The Shah fell in the revolution led by Ruhollah Khomeini in Iran.", asked, 1),
        finding(3, "Iran is a country in West Asia.", asked, 2),
        finding(4, "Ruhollah Khomeini was a Shia cleric and the first supreme leader.", asked, 3),
    ]
    sources = titled("Mohammad Reza Pahlavi", "Iran", "Ruhollah Khomeini")
    assert opening_line(asked, found, sources).startswith("Ruhollah Khomeini was a Shia")
    # named without the deed that ties it to the clause, an entry is the hop's only if
    # it says the kind described
    found[1] = finding(2, "The Shah met Ruhollah Khomeini in Iran.", asked, 1)
    assert opening_line(asked, found, sources).startswith("Ruhollah Khomeini was a Shia")
    found[3] = finding(4, "Ruhollah Khomeini was an Iranian politician.", asked, 3)
    assert opening_line(asked, found, sources).startswith("Mohammad Reza Pahlavi was")
    # the hop is named by a line saying the kind: the sea's line naming the archipelago,
    # not its line naming the ocean, whose entry is no answer
    asked = "What does the name of the archipelago that separates the Kara Sea mean"
    found = [
        finding(1, "The Kara Sea is an extension of the Arctic Ocean.", asked, 1),
        finding(2, "The Arctic Ocean is the smallest of the oceans.", asked, 2),
        finding(3, "The Kara Sea is bounded by the archipelago Novaya Zemlya.", asked, 1),
    ]
    sources = titled("Kara Sea", "Arctic Ocean", "Novaya Zemlya")
    assert not opening_line(asked, found, sources).startswith("The Arctic Ocean")


@pytest.mark.parametrize(
    ("asked", "said", "titles"),
    [
        # "Who were the parents of Xerxes" asks who they are: his entry says it, not the
        # empire his entry names
        (
            "Who were the parents of the Persian king Xerxes",
            [
                ("Xerxes was the son of Darius the Great and Atossa.", 1),
                ("Xerxes was king of the Achaemenid Empire.", 1),
                ("The Achaemenid Empire was founded by Cyrus the Great.", 2),
            ],
            ("Xerxes I", "Achaemenid Empire"),
        ),
        # a date asked by "which century" of the thing named: its entry's, not another's
        (
            "In which century did the Renaissance begin",
            [
                ("Neoclassicism is a movement that began in the mid-18th century.", 2),
                ("The Renaissance covered the 15th and 16th centuries in Europe.", 1),
            ],
            ("Renaissance", "Neoclassical architecture"),
        ),
    ],
)
def test_a_part_asking_of_a_thing_it_names_opens_with_that_things_entry(
    asked: str, said: list[tuple[str, int]], titles: tuple[str, ...]
) -> None:
    found = [finding(n, text, asked, source) for n, (text, source) in enumerate(said, 1)]
    line = opening_line(asked, found, titled(*titles))
    assert line.startswith(next(text for text, source in said if source == 1))


def test_a_part_five_sources_answer_shows_each_ones_three_findings() -> None:
    # The analysis gives a part at most three statements from each of five sources: the
    # report shows them all, since they cite no source beyond those five.
    how = "How does blood circulate"
    found = [
        finding(n, f"Physician number {n} traced blood through vessel {n}.", how, 1 + n % 5)
        for n in range(15)
    ]
    md = report.synthesize(inputs(question=f"{how}?", findings=found)).markdown
    key = md.split("## Key findings", 1)[1]
    assert all(f.content in key for f in found)


def test_a_line_goes_on_with_a_name_the_part_gives_only_where_it_is_written_as_one() -> None:
    question = "Who directed Jaws?"
    found = [
        finding(1, "Jaws is a 1975 thriller film directed by Steven Spielberg.", question, 1),
        finding(2, "The jaws are a pair of structures at the entrance of the mouth.", question, 2),
        finding(3, "Peter Benchley wrote the novel on which Jaws was based.", question, 3),
    ]
    line = next(x for x in summary_of(question, found).splitlines() if x.startswith("- **"))
    assert "Steven Spielberg" in line and "the mouth" not in line


def test_a_part_pointing_back_opens_with_the_answer_before_it_though_shown_there() -> None:
    # "he" is whoever the first line found; that line showed the finding saying where he
    # was born, and an entry titled with the word "born" is not him
    question = "Who invented the Zelophone, and where was he born?"
    first, then = "Who invented the Zelophone", "where was he born"
    quill = "Ada Quill was a Scottish-born engineer who invented the Zelophone."
    found = [
        finding(1, quill, first, 1),
        finding(2, quill, then, 1),
        finding(3, "Max Born was a German physicist who taught in Edinburgh.", then, 2),
    ]
    draft = inputs(question=question, findings=found, sources=titled("Ada Quill", "Max Born"))
    md = report.synthesize(draft).markdown
    line = next(x for x in md.splitlines() if x.startswith(f"- **{then}"))
    assert line.split("** ", 1)[1].startswith(quill)
    assert "Max Born" not in line


def test_who_did_it_opens_with_a_doer_not_a_line_sharing_its_verb() -> None:
    # "who led it" points back to the revolution; its entry's line "led to the founding
    # of a state" names no one who led it, which Louverture's line does
    question = "What was the Quillan Revolution, and who led it?"
    first, then = "What was the Quillan Revolution", "who led it"
    revolt = "The Quillan Revolution was an insurrection against colonial rule in Quillia."
    founding = "The revolution was the only slave rebellion that led to the founding of a state."
    leader = "Tomas Verre was the most prominent leader of the Quillan Revolution."
    found = [
        finding(1, revolt, first, 1),
        finding(2, founding, then, 1),
        finding(3, leader, then, 2),
    ]
    titles = titled("Quillan Revolution", "Tomas Verre")
    md = report.synthesize(inputs(question=question, findings=found, sources=titles)).markdown
    line = next(x for x in md.splitlines() if x.startswith(f"- **{then}"))
    assert line.split("** ", 1)[1].startswith(leader)


def test_a_word_the_part_writes_in_lower_case_is_not_said_inside_a_name() -> None:
    said = summary_picks.said_of("where was he born")
    assert not said("Max Born was a German physicist.")
    assert said("Ada Quill was a Scottish-born engineer.")
    assert said("Born in Leith, she trained as a nurse.")
    # a capitalised word after a label is a word, not part of a name
    assert summary_picks.said_of("who is the champion of the initiative")(
        "Table row: Initiative: Next-10; Champion: Michael Dawson"
    )


def test_a_part_pointing_back_to_a_name_the_part_before_gives_opens_with_its_line() -> None:
    # "it" is the Zel Tower the first part names; that line showed when it was built
    question = "What is the Zel Tower, and when was it built?"
    first, then = "What is the Zel Tower", "when was it built"
    built = "It was built from 1887 to 1889 by the company of Gustave Zel."
    found = [
        finding(1, "The Zel Tower is a lattice tower in Lyon.", first, 1),
        finding(2, built, first, 1),
        finding(
            3, "After his retirement Zel studied how buildings are built to resist wind.", then, 2
        ),
        finding(4, built, then, 1),
    ]
    draft = inputs(question=question, findings=found, sources=titled("Zel Tower", "Gustave Zel"))
    md = report.synthesize(draft).markdown
    line = next(x for x in md.splitlines() if x.startswith(f"- **{then}"))
    assert line.split("** ", 1)[1].startswith("It (Zel Tower) was built from 1887")


def test_a_count_said_with_what_is_counted_leads() -> None:
    """ "How many bones …" opens with "around 206 bones", not "14% of the body weight"."""
    many = "How many bones are in the adult human body"
    found = [
        finding(1, "Bone mass makes up about 14% of the body weight.", many, 1),
        finding(2, "The human skeleton has around 206 bones by adulthood.", many, 2),
    ]
    line = summary_of(f"{many}?", found)
    assert line.index("206 bones") < line.index("14%")


@pytest.mark.parametrize(
    ("asked", "ranked_first", "stating"),
    [
        # not Ontario's "the country's most populous province", ranked first
        (
            "What is the largest city in Canada",
            (
                "Ontario",
                "Located in Central Canada, Ontario is the country's most populous province.",
            ),
            ("Toronto", "Toronto is the most populous city in Canada."),
        ),
        # not Algeria's "the largest country in Africa" (its area)
        (
            "Which country has the largest population in Africa",
            ("Algeria", "Algeria is the largest country in Africa by area."),
            ("Nigeria", "Nigeria is the most populous country in Africa."),
        ),
    ],
)
def test_a_part_asking_a_superlative_opens_with_the_finding_stating_it(
    asked: str, ranked_first: tuple[str, str], stating: tuple[str, str]
) -> None:
    found = [finding(1, ranked_first[1], asked, 1), finding(2, stating[1], asked, 2)]
    line = summary_of(f"{asked}?", found, titled(ranked_first[0], stating[0]))
    assert line.index(stating[1]) < line.index(ranked_first[1])


@pytest.mark.parametrize(
    ("who", "then", "shown", "other", "said"),
    [
        # "in what year" after "Who discovered penicillin": the date the line before showed
        (
            "Who discovered penicillin", "in what year",
            "Fleming shared the 1945 Nobel Prize for the discovery of penicillin.",
            "Penicillins are still widely used against infections.", "1945",
        ),
        # the part's other findings say none of its words: the line before's does
        (
            "Who wrote the words for Bizet's Carmen", "whose novella was the story taken from",
            "The libretto was written by Meilhac and Halévy, based on the novella by Mérimée.",
            "The opera was first performed in Paris on 3 March 1875.", "Mérimée",
        ),
    ],
)  # fmt: skip
def test_a_part_repeats_the_line_before_when_none_of_its_own_answers(
    who: str, then: str, shown: str, other: str, said: str
) -> None:
    found = [finding(1, shown, who, 1), finding(2, other, then, 2), finding(3, shown, then, 1)]
    summary = summary_of(f"{who}, and {then}?", found)
    line = next(x for x in summary.splitlines() if x.startswith(f"- **{then}?**"))
    assert said in line


def test_a_part_asking_when_opens_with_its_best_date_though_the_line_before_showed_it() -> None:
    first, then = "Who founded the dynasty that ruled the Khanate of Bukhara", "when did it end"
    bukhara = "The Khanate of Bukhara was a monarchy from 1501 to 1785, founded by the Shaybanids."
    horde = "The Golden Horde was a khanate established in the 13th century."
    found = [
        finding(1, bukhara, first, 1),
        finding(2, bukhara, then, 1),
        finding(3, horde, then, 2),
    ]
    summary = summary_of(f"{first}, and {then}?", found)
    line = next(x for x in summary.splitlines() if x.startswith(f"- **{then}?**"))
    assert line.split("** ", 1)[1].startswith(bukhara)
