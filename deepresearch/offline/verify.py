"""Offline claim check: does a cited source's text back a report sentence?

For each (claim, cited source) pair the source is cut into windows of one sentence and of
two adjacent sentences, and each window is scored:

* **lexical** — the share of the claim's content terms (stemmed, stop words dropped) that
  the window contains;
* **dense** — the cosine similarity of static WordLlama embeddings of claim and window,
  when the ``vectors`` extra (wordllama) is installed: the corpus's shared embedder;
* **score** — ``0.6 * lexical + 0.4 * dense``, or ``lexical`` alone without wordllama.

The best window's score decides: ``>= support_threshold`` (default 0.6) supported,
``>= partial_threshold`` (default 0.35) partial, else unsupported. A number the claim states
that the source never does caps a claim at partial: similar words around a different figure
are not support. The claim's status is that of its best cited source. ``VerifyOutput.method``
says which signals were used, so a result never looks more checked than it was.
"""

from __future__ import annotations

import re
from itertools import pairwise

from deepresearch.providers.vectors import Embedder, load_embedder
from deepresearch.roles import ClaimToCheck, ClaimVerdict, SourceText, VerifyInputs, VerifyOutput
from deepresearch.text import containment, sentences, term_set

LEXICAL_WEIGHT = 0.6
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def dense_model() -> Embedder | None:
    """The shared wordllama embedder (the ``vectors`` extra), or None without it."""
    return load_embedder()


def method_name() -> str:
    """How the offline check names itself: ``lexical+dense (wordllama)`` with the
    embedder, else ``lexical``."""
    return "lexical+dense (wordllama)" if dense_model() is not None else "lexical"


def windows(text: str) -> list[str]:
    """Single sentences and adjacent pairs: a claim may merge two source sentences."""
    parts = sentences(text) or ([text.strip()] if text.strip() else [])
    pairs = [f"{a} {b}" for a, b in pairwise(parts)]
    return parts + pairs


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUMBER.findall(text)}


def _dense_scores(claim: str, passages: list[str]) -> list[float] | None:
    model = dense_model()
    if model is None or not passages:
        return None
    vectors = model.embed([claim, *passages])
    sims = vectors[1:] @ vectors[0]
    return [max(0.0, float(s)) for s in sims]


def support(claim: str, source: SourceText) -> tuple[float, str]:
    """The best window's support score for ``claim`` in ``source``, and that window."""
    body = source.text or source.snippet
    passages = windows(body)
    terms = term_set(claim)
    if not passages or not terms:
        return 0.0, ""
    lexical = [containment(terms, term_set(p)) for p in passages]
    dense = _dense_scores(claim, passages)
    if dense is None:
        scores = lexical
    else:
        scores = [
            LEXICAL_WEIGHT * x + (1 - LEXICAL_WEIGHT) * d
            for x, d in zip(lexical, dense, strict=True)
        ]
    best = max(range(len(scores)), key=scores.__getitem__)
    return scores[best], passages[best]


def check_claim(
    claim: ClaimToCheck, sources: dict[int, SourceText], inputs: VerifyInputs
) -> ClaimVerdict:
    """One claim's verdict from its cited sources: supported when a source's best window
    scores at least ``support_threshold`` and states the claim's numbers, partial from
    ``partial_threshold``, else unsupported.

    Args:
        claim: the claim and its citation numbers.
        sources: the cited sources by citation number.
        inputs: the verifier's inputs (the thresholds).
    """
    scored: list[tuple[int, float, str, bool]] = []
    for n in claim.citations:
        src = sources.get(n)
        if src is None:
            continue
        score, passage = support(claim.text, src)
        missing = _numbers(claim.text) - _numbers(src.text or src.snippet)
        scored.append((n, score, passage, not missing))
    if not scored:
        return ClaimVerdict(
            claim_id=claim.id, status="unsupported", score=0.0,
            rationale="None of the cited sources has text to check against.",
        )  # fmt: skip
    full = [n for n, s, _, nums in scored if s >= inputs.support_threshold and nums]
    part = [n for n, s, _, _ in scored if s >= inputs.partial_threshold]
    n_best, best, passage, numbers_ok = max(scored, key=lambda t: t[1])
    if full:
        status, backing = "supported", full
        why = f"source [{full[0]}] matches the claim (score {best:.2f})."
    elif part:
        status, backing = "partial", part
        why = (
            f"source [{n_best}] states figures the claim does not match."
            if best >= inputs.support_threshold and not numbers_ok
            else f"source [{n_best}] covers part of the claim (score {best:.2f})."
        )
    else:
        status, backing = "unsupported", []
        why = f"no cited source backs the claim (best score {best:.2f})."
    return ClaimVerdict(
        claim_id=claim.id,
        status=status,
        supporting_citations=backing,
        evidence=passage[:500],
        rationale=why[0].upper() + why[1:],
        score=round(best, 4),
    )


def verify(inputs: VerifyInputs) -> VerifyOutput:
    """The offline verifier: a verdict per claim (see :func:`check_claim`).

    Args:
        inputs: the verifier's inputs.
    """
    by_number = {s.citation: s for s in inputs.sources}
    verdicts = [check_claim(c, by_number, inputs) for c in inputs.claims]
    return VerifyOutput(verdicts=verdicts, method=method_name())
