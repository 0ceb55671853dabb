"""Things asked about side by side are of one kind: the entry of a shared name said to be
the kind its sibling's entry is answers, the others are other things."""

from __future__ import annotations

import deepresearch as dr
from deepresearch.offline.parts import question_parts
from deepresearch.offline.siblings import other_kinds, said_kind, sibling_names
from deepresearch.offline.statements import statements
from deepresearch.testing import StaticSearch
from deepresearch.text import word_root
from tests.offline.conftest import Titled

NILE = "The Nile is a major north-flowing river in northeast Africa."
AMAZON_RIVER = "The Amazon River in South America is the largest river by discharge volume."
AMAZON_COMPANY = (
    "Amazon.com, Inc. is an American multinational technology company engaged in "
    "e-commerce. Founded in 1994 by Jeff Bezos in Bellevue, Washington, the company "
    "started as an online book marketplace."
)
AMAZONS = "In Greek mythology, the Amazons were female warriors and hunters."


def test_what_an_opening_says_a_thing_is() -> None:
    assert said_kind(NILE) == said_kind(AMAZON_RIVER) == said_kind("The Rhine is a river.")
    assert said_kind(AMAZON_COMPANY) == said_kind(
        "Microsoft is a company headquartered in Redmond."
    )
    java = "Java is a high-level, general-purpose, object-oriented programming language."
    assert said_kind(java) == said_kind("Python is a programming language.")
    assert said_kind("Lima is a city, the capital of Peru.") == said_kind("Oslo is a city.")
    # what was done to it, not what it is
    assert said_kind("Julius Caesar was assassinated by a group of senators.") is None
    assert said_kind("No verb of being here.") is None


def test_parts_alike_but_for_a_name_are_siblings() -> None:
    parts = question_parts("Compare the Nile and the Amazon.", [])
    nile, amazon = [word_root("nile")], [word_root("amazon")]
    assert sibling_names(parts) == {0: (nile, 1, amazon), 1: (amazon, 0, nile)}
    # parts asking different things are not
    apart = question_parts("Who founded Amazon, and when did Microsoft go public?", [])
    assert sibling_names(apart) == {}


def test_the_entry_of_the_sibling_s_kind_answers_for_a_shared_name(titled: Titled) -> None:
    parts = question_parts("Compare the Nile and the Amazon.", [])
    sources = titled(
        {
            "Nile": NILE,
            "Amazon River": AMAZON_RIVER,
            "Amazon (company)": AMAZON_COMPANY,
            "Amazons": AMAZONS,
            "Amazon Kindle": "The Amazon Kindle is an e-reader.",
        }
    )
    openings = {s.id: statements(s.text)[0] for s in sources}
    # the company, the warriors and the company's e-reader are other things
    assert other_kinds(parts, sources, openings) == {1: {"src-3", "src-4", "src-5"}}
    # no entry of the name is said to be a river: nothing is set apart
    without = [s for s in sources if s.title != "Amazon River"]
    assert other_kinds(parts, without, openings) == {}


async def test_a_comparison_reports_on_the_river_not_the_company() -> None:
    pages = {
        "Nile": NILE + " It is about 6,650 km long.",
        "Amazon River": AMAZON_RIVER + " It is about 6,400 km long.",
        "Amazon (company)": AMAZON_COMPANY,
        "Amazons": AMAZONS,
    }
    documents = [
        {"url": f"https://example.org/{t}", "title": t, "content": c} for t, c in pages.items()
    ]
    config = dr.Config(llm="offline", max_iterations=1, persist=False)
    session = dr.Session(
        "Compare the Nile and the Amazon.", config=config, search=StaticSearch(documents)
    )
    await session.run()
    assert session.report is not None
    markdown = session.report.markdown
    assert "largest river by discharge" in markdown
    assert "Jeff Bezos" not in markdown and "female warriors" not in markdown
