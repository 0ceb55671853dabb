"""An opening pronoun shown after another source's statement names what it stands for."""

from __future__ import annotations

from deepresearch.offline import report
from deepresearch.offline.referents import Referents
from deepresearch.roles import FindingBrief, SourceRef, SynthesizeInputs

WIKI = "https://en.wikipedia.org/wiki/"


def brief(n: int, content: str, source: int) -> FindingBrief:
    return FindingBrief(id=f"f-{n}", content=content, confidence="medium", citations=[source])


def source(n: int, title: str, url: str | None = None) -> SourceRef:
    return SourceRef(citation=n, title=title, url=url or WIKI + title.replace(" ", "_"))


ATLAS = brief(1, "The Atlas Mountains are a mountain range in the Maghreb.", 1)
HIGHEST = brief(2, "It is the highest mountain in Africa, at 5,895 m.", 2)
RANGE = brief(3, "They separate the Sahara from the Mediterranean Sea.", 1)
FLEMING = brief(4, "He shared the 1945 Nobel Prize for the discovery of penicillin.", 3)
GENJI = brief(5, "It is the first novel written by a woman to win global recognition.", 4)
AUTHOR = brief(6, "She was best known as the author of The Tale of Genji.", 4)
SOURCES = [
    source(1, "Atlas Mountains"),
    source(2, "Mount Kilimanjaro"),
    source(3, "Alexander Fleming"),
    source(4, "Murasaki Shikibu"),
    source(5, "Unsafe Rust", "/docs/ch20-01-unsafe-rust.html#L184-197"),
]
REFERENTS = Referents(SOURCES, [ATLAS, HIGHEST, RANGE, FLEMING, GENJI, AUTHOR])


def test_a_pronoun_after_another_source_s_statement_names_its_entry() -> None:
    said = REFERENTS.said(HIGHEST, ATLAS)
    assert said == "It (Mount Kilimanjaro) is the highest mountain in Africa, at 5,895 m."
    assert REFERENTS.said(RANGE, HIGHEST).startswith("They (Atlas Mountains) separate")
    assert REFERENTS.said(FLEMING, None).startswith("He (Alexander Fleming) shared")


def test_a_person_whose_name_ends_in_s_is_glossed_as_one() -> None:
    lebron = brief(9, "He has won three Olympic gold medals.", 6)
    referents = Referents([*SOURCES, source(6, "LeBron James")], [ATLAS, lebron])
    assert referents.said(lebron, ATLAS).startswith("He (LeBron James) has won")


def test_a_pronoun_after_its_own_source_s_statement_not_naming_the_entry_names_it() -> None:
    electron = brief(10, "The electron was the first subatomic particle to be discovered.", 3)
    assert REFERENTS.said(FLEMING, electron).startswith("He (Alexander Fleming) shared")
    # after one naming it, or going on with a pronoun of its own, it reads right
    named = brief(11, "Sir Alexander Fleming was a Scottish physician.", 3)
    assert REFERENTS.said(FLEMING, named) == FLEMING.content


def test_a_pronoun_after_its_own_source_s_statement_is_left_as_it_is() -> None:
    assert REFERENTS.said(RANGE, ATLAS) == RANGE.content


def test_a_pronoun_that_does_not_stand_for_the_entry_is_left_as_it_is() -> None:
    # in an entry on a person, "it" is something the person made
    assert REFERENTS.said(GENJI, ATLAS) == GENJI.content
    assert REFERENTS.said(AUTHOR, ATLAS).startswith("She (Murasaki Shikibu) was")
    # an "it" standing for nothing
    estimated = brief(7, "It is estimated that a third of the world was infected.", 2)
    assert REFERENTS.said(estimated, ATLAS) == estimated.content
    # a passage of a long file continues its section, whose subject its title does not say
    passage = brief(8, "It is the second language hidden inside Rust.", 5)
    assert REFERENTS.said(passage, ATLAS) == passage.content


def test_the_report_glosses_pronouns_in_the_summary_and_the_findings() -> None:
    part = "What is the tallest mountain in Africa"
    found = [f.model_copy(update={"category": part}) for f in (ATLAS, HIGHEST)]
    inputs = SynthesizeInputs(
        question=f"{part}?",
        findings=found,
        sources=SOURCES[:2],
        gaps=[],
        source_count=2,
        high_quality_count=2,
        iteration=1,
        max_iterations=3,
    )
    markdown = report.synthesize(inputs).markdown
    summary, findings = markdown.split("## Key findings")
    assert "It (Mount Kilimanjaro) is the highest" in summary
    assert "- It (Mount Kilimanjaro) is the highest" in findings


def test_an_entry_describing_its_subject_as_one_who_did_something_is_on_a_person() -> None:
    inventor = brief(9, "Johannes Gutenberg was a German inventor who invented the press.", 6)
    impact = brief(10, "It had a profound impact on the development of the Renaissance.", 6)
    referents = Referents([*SOURCES, source(6, "Johannes Gutenberg")], [inventor, impact])
    assert referents.said(impact, ATLAS) == impact.content
    assert REFERENTS.said(HIGHEST, ATLAS).startswith("It (Mount Kilimanjaro)")
