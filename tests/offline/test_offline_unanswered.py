"""Why a part's findings do not answer it: the checks ``analysis`` runs on what it drew."""

from __future__ import annotations

import pytest

from deepresearch.offline import analysis
from deepresearch.offline.parts import question_parts
from deepresearch.providers import vectors
from deepresearch.roles import AnalyzeInputs
from tests.offline.conftest import Titled


@pytest.mark.skipif(not vectors.available(), reason="wordllama not installed")
def test_a_part_pointing_back_asking_where_a_state_holds_reads_the_sources_tied_to_the_answer(
    titled: Titled,
) -> None:
    # *Claude Debussy* says "born" of another composer: "where was he born" stays unanswered
    question = "Which composer wrote The Magic Flute, and where was he born?"
    srcs = titled(
        {
            "The Magic Flute": "The Magic Flute is an opera in two acts by Wolfgang Amadeus "
            "Mozart to a German libretto. The work premiered in Vienna in 1791.",
            "Claude Debussy": "Claude Debussy was a French composer, born in Saint-Germain. "
            "He wrote the opera Pelléas et Mélisande.",
        }
    )
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    composer, born = (p.text for p in question_parts(question))
    assert any(f.category == composer for f in out.findings)
    assert not any(f.category == born for f in out.findings)
    assert any(g.reason.endswith("has no word for 'born'") for g in out.gaps)
    # the state said by a source tied to the answer answers it
    srcs[1] = srcs[1].model_copy(
        update={"text": "Mozart's opera The Magic Flute was written after he was born in Salzburg."}
    )
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    assert any(f.category == born for f in out.findings)
