"""Claim verification: report sentences checked against the sources they cite. Planted
mis-citations must be caught, correct citations kept, and the report, frames, metrics and
think pause must all say what the check found."""

from __future__ import annotations

import pytest
from phase_support import fast_config

from deepresearch.config import Config
from deepresearch.errors import ProviderError
from deepresearch.notebook.frames import claims_frame
from deepresearch.offline import verify as offline_verify
from deepresearch.phases.synthesize import finalize_report
from deepresearch.phases.verify import FLAG, split_sentences, verify
from deepresearch.roles import ClaimVerdict, VerifyOutput
from deepresearch.state import ClaimStatus, Phase, ResearchState
from deepresearch.testing import FunctionLLM, ScriptedLLM, context
from deepresearch.workflow.loop import Workflow
from deepresearch.workflow.transitions import next_phase

VOLCANO = (
    "Mount Vesuvius is a somma-stratovolcano on the Gulf of Naples in Campania, Italy. "
    "Its eruption in AD 79 destroyed the Roman towns of Pompeii and Herculaneum. "
    "The volcano has erupted many times since and is regarded as one of the most dangerous "
    "volcanoes in the world because of the population living nearby."
)
ENZYME = (
    "Enzymes are proteins that act as biological catalysts by accelerating chemical reactions. "
    "The molecules upon which enzymes act are called substrates. Almost all metabolic "
    "processes in the cell need enzyme catalysis to occur at rates fast enough to sustain life."
)
GLACIER = (
    "A glacier is a persistent body of dense ice that is constantly moving under its own "
    "weight. Glaciers form where the accumulation of snow exceeds its ablation over many years. "
    "About 10 percent of the land surface of the Earth is covered by glacial ice."
)

REPORT = """# Test report

## Key findings

- The eruption of Mount Vesuvius in AD 79 destroyed the Roman towns of Pompeii and Herculaneum. [1] *(confidence: high)*
- Enzymes are proteins that act as biological catalysts by accelerating chemical reactions. [1] *(confidence: low)*
- Glaciers form where the accumulation of snow exceeds its ablation over many years. [3]
- About 40 percent of the land surface of the Earth is covered by glacial ice. [3]
- The molecules upon which enzymes act are called substrates. [2] Mount Vesuvius lies on the Gulf of Naples in Italy. [3]

## Conclusion

This report is short and it has no citation at all.
"""


def _state() -> ResearchState:
    state = ResearchState(question="Volcanoes, enzymes and glaciers")
    for title, text in (("Vesuvius", VOLCANO), ("Enzyme", ENZYME), ("Glacier", GLACIER)):
        state.new_source(url=f"https://example.org/{title}", title=title, content=text)
    state.report = finalize_report(REPORT, state)
    return state


def _by_text(state: ResearchState, start: str) -> ClaimStatus:
    claim = next(c for c in state.claims if c.text.startswith(start))
    return claim.status


@pytest.fixture(params=["lexical", "dense"])
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both offline modes must catch the planted errors: lexical alone and lexical + dense."""
    if request.param == "lexical":
        monkeypatch.setattr(offline_verify, "dense_model", lambda: None)
    elif offline_verify.dense_model() is None:
        pytest.skip("wordllama is not installed")
    return str(request.param)


async def test_planted_unsupported_citations_are_caught(method: str) -> None:
    state = _state()
    ctx = context(FunctionLLM(), config=fast_config())
    report = await verify(state, ctx)
    # correct citations
    assert _by_text(state, "The eruption of Mount Vesuvius") == ClaimStatus.SUPPORTED
    assert _by_text(state, "Glaciers form where") == ClaimStatus.SUPPORTED
    assert _by_text(state, "The molecules upon which") == ClaimStatus.SUPPORTED
    # planted: the enzyme sentence cites the volcano article; Vesuvius cites the glacier one
    assert _by_text(state, "Enzymes are proteins") == ClaimStatus.UNSUPPORTED
    assert _by_text(state, "Mount Vesuvius lies") == ClaimStatus.UNSUPPORTED
    # planted: the right source, the wrong figure — never 'supported'
    assert _by_text(state, "About 40 percent") in (ClaimStatus.PARTIAL, ClaimStatus.UNSUPPORTED)
    assert _by_text(state, "This report is short") == ClaimStatus.UNCITED
    assert report.summary["unsupported"] >= 2 and report.summary["uncited"] == 1
    assert state.report is not None
    body = state.report.markdown
    assert body.count(FLAG.strip()) == report.summary["unsupported"]
    flagged_line = next(ln for ln in body.splitlines() if ln.startswith("- Enzymes are"))
    assert FLAG.strip() in flagged_line
    assert "*Claim check:" in body and method.split("+")[0] in body
    assert all(c.method.startswith("lexical") for c in state.claims if c.citations)


async def test_remove_mode_drops_claims_and_sources_only_they_cited() -> None:
    state = _state()
    ctx = context(FunctionLLM(), config=fast_config(unsupported_claims="remove"))
    await verify(state, ctx)
    assert state.report is not None
    md = state.report.markdown
    assert "Enzymes are proteins" not in md and "Mount Vesuvius lies" not in md
    assert "The molecules upon which enzymes act are called substrates." in md
    assert "removed" in md.split("## Sources")[0]
    removed = [c for c in state.claims if c.removed]
    assert removed and all(c.status == ClaimStatus.UNSUPPORTED for c in removed)
    # the citations printed in the report still resolve to the sources list
    listed = md.split("## Sources", 1)[1]
    for claim in state.claims:
        if not claim.removed:
            for n in claim.citations:
                sid = state.report.cited_source_ids[n - 1]
                assert sid in claim.source_ids and f"{n}. " in listed


async def test_running_twice_does_not_stack_flags() -> None:
    state = _state()
    ctx = context(FunctionLLM(), config=fast_config())
    await verify(state, ctx)
    first = state.report.markdown if state.report else ""
    await verify(state, ctx)
    assert state.report is not None and state.report.markdown == first


async def test_verifier_model_verdicts_are_used_and_gaps_filled_offline() -> None:
    state = _state()

    def answer(request: object) -> VerifyOutput:
        claims = request.inputs.claims  # type: ignore[attr-defined]
        # the model judges only the first claim (wrongly, to prove its verdict is used)
        return VerifyOutput(
            verdicts=[ClaimVerdict(claim_id=claims[0].id, status="unsupported", rationale="no")]
        )

    ctx = context(FunctionLLM(answer, name="test:verifier"), config=fast_config())
    report = await verify(state, ctx)
    first = state.claims[0]
    assert first.status == ClaimStatus.UNSUPPORTED and first.method == "test:verifier"
    assert any("no verdict" in n for n in report.notes)
    assert _by_text(state, "Glaciers form where") == ClaimStatus.SUPPORTED  # offline filled in


async def test_failed_verifier_falls_back_to_the_offline_check_and_says_so() -> None:
    state = _state()
    llm = ScriptedLLM({VerifyOutput: [ProviderError("down", provider="test")]}, strict=True)
    report = await verify(state, context(llm, config=fast_config()))
    assert any("verifier failed" in n and "offline check" in n for n in report.notes)
    assert [d.action for d in state.decisions if d.action.endswith("_failed")] == ["verify_failed"]
    assert _by_text(state, "Enzymes are proteins") == ClaimStatus.UNSUPPORTED


def test_sentences_keep_their_citations_and_abbreviations() -> None:
    line = "Vesuvius erupted c. 79 AD near Naples. [1][2] It is active! [3] Last line"
    assert split_sentences(line) == [
        "Vesuvius erupted c. 79 AD near Naples. [1][2]",
        "It is active! [3]",
        "Last line",
    ]


def test_verification_sits_between_synthesis_and_the_iteration_decision() -> None:
    state = _state()
    state.phase = Phase.SYNTHESIS
    assert next_phase(state, Config()) == Phase.VERIFICATION
    assert next_phase(state, Config(verify_claims=False)) == Phase.DONE
    state.phase = Phase.VERIFICATION
    assert next_phase(state, Config()) == Phase.DONE


async def test_workflow_step_counts_claims_and_pauses_with_the_flagged_ones() -> None:
    state = _state()
    state.phase = Phase.VERIFICATION
    prompts: list[str] = []

    def hook(s: ResearchState, prompt: str) -> str:
        prompts.append(prompt)
        return "check the enzyme claim again"

    await Workflow(context(FunctionLLM(), config=fast_config()), [hook]).step(state)
    metrics = state.metrics[-1]
    assert metrics.phase == Phase.VERIFICATION and metrics.claims["unsupported"] >= 2
    assert "Verification complete" in prompts[0] and "Enzymes are proteins" in prompts[0]
    # guidance after verification becomes a gap to research, as after synthesis
    assert any("enzyme claim" in g.description for g in state.gaps)
    frame = claims_frame(state)
    assert list(frame.columns[:3]) == ["text", "status", "citations"]
    assert (frame.status == "unsupported").sum() == metrics.claims["unsupported"]
    assert any(d.action == "verify_claims" for d in state.decisions)


def test_a_report_keeps_the_questions_own_brackets() -> None:
    # "s[0]" in the question and in quoted code is text, not a citation to drop.
    report = finalize_report("# Why can't I write s[0]?\n\nIndexing s[0] fails [1].\n", _state())
    assert report.markdown.startswith("# Why can't I write s[0]?")
    assert "Indexing s[0] fails [1]." in report.markdown
