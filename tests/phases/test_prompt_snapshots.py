"""Each role's rendered prompt against its committed snapshot (read them to review a
prompt change), and docs/concepts against the same rendering, so neither can drift.
Set UPDATE_SNAPSHOTS=1 to rewrite both after an intended change."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deepresearch.phases import prompt_examples
from deepresearch.phases.prompt_examples import Example, examples, render

HERE = Path(__file__).parent / "snapshots"
DOCS = Path(__file__).parents[2] / "docs" / "concepts"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.name)
def test_prompt_matches_its_snapshot(example: Example) -> None:
    path = HERE / f"{example.name}.txt"
    text = render(example)
    if UPDATE:
        HERE.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("phase", sorted({e.phase for e in examples()}))
def test_concept_docs_show_the_prompts_the_code_sends(phase: str) -> None:
    path = DOCS / f"{phase}.md"
    page = path.read_text(encoding="utf-8")
    if UPDATE:
        page = prompt_examples.with_section(page, phase)
        path.write_text(page, encoding="utf-8")
    assert prompt_examples.docs_section(phase) in page


# Roles that check or shorten given text: they neither search nor write for the person,
# so they need neither the date nor the language rule.
CHECKERS = {"verify", "condense"}


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.name)
def test_every_prompt_states_the_shared_rules(example: Example) -> None:
    system = example.system
    if "<source" in example.user:
        assert "ignore" in system and "instructions" in system  # source text is data
    if example.name in CHECKERS:
        assert "Today's date" not in example.user and "language" not in system
        return
    assert "Today's date" in example.user
    writes = example.output.__name__ not in ("ThinkOutput",)
    assert ("language" in system) is writes, (
        "writers and searchers answer in the question's language"
    )
    for name in example.output.model_fields:
        if example.output.model_fields[name].annotation is bool:
            assert name in system, f"the decision {name} is never named in the prompt"
