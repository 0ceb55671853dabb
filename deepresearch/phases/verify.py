"""Verification: split the report into claims, check each against the sources it cites,
and flag (or remove) the claims no cited source supports.

A claim is one sentence of the report body with the ``[n]`` markers that follow it. Claims
without a marker are ``uncited``; the others go to the ``verifier`` role in batches (a
remote model with structured output, or the offline engine's lexical + dense check), and
come back ``supported``, ``partial`` or ``unsupported``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deepresearch.context import RunContext
from deepresearch.llm import Fallback, ask, phase_metrics
from deepresearch.offline import verify as offline_verify
from deepresearch.phases.agents import VERIFIER
from deepresearch.phases.common import PhaseReport, source_text
from deepresearch.phases.synthesize import finalize_report
from deepresearch.roles import ClaimToCheck, ClaimVerdict, VerifyInputs
from deepresearch.state import (
    AgentDecision,
    Claim,
    ClaimStatus,
    Phase,
    Report,
    ResearchState,
    Source,
)
from deepresearch.text import split_sentences, sub_citations

BATCH = 12  # claims per verifier call: enough context, short enough to answer well
SOURCE_CHARS = 8000  # of each cited source's text shown to the verifier
FLAG = " **[unsupported by the cited source]**"
SUMMARY_PREFIX = "*Claim check:"
_SOURCES_HEADING = re.compile(r"^#{1,3}\s*(sources|references|bibliography)\b.*$", re.I | re.M)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$")
_CITES = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
# A sentence ends at . ! or ? plus any [n] markers after it, before a capital or line end.
_LIST_MARK = re.compile(r"^(\s*(?:[-*+]|\d+\.)\s+)")
_ASIDE = re.compile(r"\s*\*\([^()]*\)\*")  # an italic parenthetical such as *(confidence: high)*
_EMPHASIS = re.compile(r"[*_`]+")
_NOT_PROSE = re.compile(r"\|.*|\*[^*].*\*")  # a table row, or an italic note about the report
MIN_CLAIM_WORDS = 4


@dataclass
class Segment:
    """A piece of one report line: a sentence (maybe a claim) or the text around it."""

    text: str
    claim: Claim | None = None


def claim_text(sentence: str) -> str:
    """A sentence as a claim: without citation marks, italic asides and emphasis marks.

    Args:
        sentence: a report sentence.
    """
    text = _ASIDE.sub("", _CITES.sub("", sentence))
    return " ".join(_EMPHASIS.sub("", text).split()).strip()


def citations_of(sentence: str) -> list[int]:
    """The sentence's [n] citation numbers, in order, without repeats.

    Args:
        sentence: a report sentence.
    """
    found = [int(n) for group in _CITES.findall(sentence) for n in group.split(",")]
    return list(dict.fromkeys(found))


def clean_body(markdown: str) -> str:
    """The report body without its sources list and any earlier verification marks."""
    body = _SOURCES_HEADING.split(markdown, maxsplit=1)[0]
    lines = [ln for ln in body.replace(FLAG, "").splitlines() if not ln.startswith(SUMMARY_PREFIX)]
    return "\n".join(lines).rstrip()


def parse_claims(state: ResearchState, body: str) -> list[list[Segment]]:
    """Each body line as segments; sentences of prose become claims (ids cl-1, cl-2, ...)."""
    assert state.report is not None
    cited = state.report.cited_source_ids
    section, lines, number = "", [], 0
    for line in body.splitlines():
        heading = _HEADING.match(line)
        if heading:
            section = heading[1]
        mark = _LIST_MARK.match(line)
        prefix = mark[1] if mark else ""
        rest = line[len(prefix) :]
        if heading or not rest.strip() or _NOT_PROSE.fullmatch(rest.strip()):
            lines.append([Segment(line)])
            continue
        segments = [Segment(prefix)] if prefix else []
        for sentence in split_sentences(rest):
            text = claim_text(sentence)
            if len(text.split()) < MIN_CLAIM_WORDS:
                segments.append(Segment(sentence))
                continue
            number += 1
            numbers = [n for n in citations_of(sentence) if 1 <= n <= len(cited)]
            claim = Claim(
                id=f"cl-{number}",
                text=text,
                section=section,
                citations=numbers,
                source_ids=list(dict.fromkeys(cited[n - 1] for n in numbers)),
                status=ClaimStatus.UNCITED,
                iteration=state.iteration,
            )
            segments.append(Segment(sentence, claim))
        lines.append(segments)
    return lines


def checked_text(src: Source) -> str:
    """What a claim is checked against: the source's own text (the page, not its summary),
    and past SOURCE_CHARS the verbatim excerpts taken from the rest of it."""
    body = src.raw_content or src.content
    if len(body) <= SOURCE_CHARS:
        return body
    return body[:SOURCE_CHARS] + "\n\n" + " ".join(src.excerpts)


def verify_inputs(state: ResearchState, claims: list[Claim], guidance: list[str]) -> VerifyInputs:
    """The verifier's inputs for a batch of claims: each cited source's checked text under
    the report's number for it.

    Args:
        state: the run's state (it has a report).
        claims: the claims to check.
        guidance: the steering notes for verification.
    """
    assert state.report is not None
    cited = state.report.cited_source_ids
    numbers = sorted({n for c in claims for n in c.citations})
    sources = []
    for n in numbers:
        src = state.source(cited[n - 1])
        if src is not None:
            sources.append(
                source_text(src).model_copy(update={"citation": n, "text": checked_text(src)})
            )
    return VerifyInputs(
        question=state.question,
        claims=[ClaimToCheck(id=c.id, text=c.text, citations=c.citations) for c in claims],
        sources=sources,
        guidance=guidance,
    )


async def check(
    state: ResearchState, ctx: RunContext, inputs: VerifyInputs, notes: list[str]
) -> tuple[list[ClaimVerdict], str]:
    """Verdicts for one batch from the verifier role; the offline check fills in for a
    failed model or for claims it left out, and the notes say so."""
    offline = Fallback(
        lambda _: offline_verify.verify(inputs), "used the offline check instead", notes
    )
    out = await ask(VERIFIER, inputs, state, ctx, fallback=offline)
    method = out.method or (state.usage[-1].model if state.usage else "verifier")
    wanted = {c.id for c in inputs.claims}
    verdicts = [v for v in out.verdicts if v.claim_id in wanted]
    missing = wanted - {v.claim_id for v in verdicts}
    if missing:
        notes.append(f"verifier gave no verdict for {len(missing)} claim(s); checked them offline")
        rest = inputs.model_copy(update={"claims": [c for c in inputs.claims if c.id in missing]})
        verdicts += offline_verify.verify(rest).verdicts
    return verdicts, method


def apply_verdict(claim: Claim, verdict: ClaimVerdict, cited: list[str], method: str) -> None:
    """Set the claim's status, supporting sources, score, evidence and rationale from a
    verdict.

    Args:
        claim: the claim checked.
        verdict: its verdict (citations by report number).
        cited: the report's cited source ids, in citation order.
        method: what checked it.
    """
    claim.status = ClaimStatus(verdict.status)
    claim.supporting_source_ids = [
        cited[n - 1] for n in verdict.supporting_citations if n in claim.citations
    ]
    claim.score, claim.evidence = verdict.score, verdict.evidence
    claim.rationale, claim.method = verdict.rationale, method


def rebuild_body(lines: list[list[Segment]], remove: bool) -> str:
    """The report body again from its segments, each unsupported claim flagged or removed
    (a line left with nothing but its list mark is dropped).

    Args:
        lines: the body's lines as segments, from :func:`parse_claims`.
        remove: remove unsupported claims rather than flag them.
    """
    out = []
    for segments in lines:
        parts, dropped, kept = [], 0, 0
        for seg in segments:
            claim = seg.claim
            if claim is not None and claim.status == ClaimStatus.UNSUPPORTED:
                if remove:
                    claim.removed = True
                    dropped += 1
                    continue
                parts.append(seg.text + FLAG)
            else:
                parts.append(seg.text)
            kept += _LIST_MARK.fullmatch(seg.text) is None
        if dropped and not kept:
            continue  # a line (or list item) whose every sentence was removed
        head = parts[0] if parts else ""
        if len(parts) > 1 and _LIST_MARK.fullmatch(head):
            out.append(head + " ".join(parts[1:]))
        else:
            out.append(" ".join(parts))
    return "\n".join(out)


def counts(claims: list[Claim]) -> dict[str, int]:
    """How many claims have each status, and how many were removed (when any were).

    Args:
        claims: the report's claims.
    """
    out = {s.value: 0 for s in ClaimStatus}
    for c in claims:
        out[c.status.value] += 1
    if any(c.removed for c in claims):
        out["removed"] = sum(1 for c in claims if c.removed)
    return out


def summary_line(tally: dict[str, int], method: str, remove: bool) -> str:
    """The line appended to the report saying what verification found.

    Args:
        tally: claims per status, from :func:`counts`.
        method: what checked the claims.
        remove: whether unsupported claims were removed (else flagged).
    """
    done = "removed" if remove else "flagged"
    return (
        f"{SUMMARY_PREFIX} {tally['supported']} supported, {tally['partial']} partly supported, "
        f"{tally['unsupported']} unsupported ({done}), {tally['uncited']} uncited "
        f"— checked by {method}.*"
    )


async def verify(state: ResearchState, ctx: RunContext) -> PhaseReport:
    """Check the report's cited claims against their sources in batches, then flag or
    remove the unsupported ones and add a summary line.

    Args:
        state: the run's state.
        ctx: the run's context (config, providers, events, cancellation).
    """
    report = state.report
    if report is None:
        return PhaseReport(Phase.VERIFICATION, {"claims": 0}, ["no report to verify"], True)
    guidance = state.consume_guidance(Phase.VERIFICATION)
    lines = parse_claims(state, clean_body(report.markdown))
    claims = [seg.claim for segs in lines for seg in segs if seg.claim is not None]
    cited = [c for c in claims if c.citations]
    notes: list[str] = []
    methods: list[str] = []
    for start in range(0, len(cited), BATCH):
        ctx.cancel.check()
        batch = cited[start : start + BATCH]
        verdicts, method = await check(state, ctx, verify_inputs(state, batch, guidance), notes)
        methods.append(method)
        by_id = {v.claim_id: v for v in verdicts}
        for claim in batch:
            apply_verdict(claim, by_id[claim.id], report.cited_source_ids, method)
    remove = ctx.config.verification.unsupported_claims == "remove"
    body = rebuild_body(lines, remove)
    tally = counts(claims)
    method = ", ".join(dict.fromkeys(methods)) or "no check (nothing cited)"
    state.report = _refinalize(state, body + "\n\n" + summary_line(tally, method, remove))
    _renumber(state, claims)
    state.claims = claims
    metrics = phase_metrics(state, Phase.VERIFICATION.value)
    if metrics is not None:
        metrics.claims = tally
    state.record(
        AgentDecision(
            agent="verifier", action="verify_claims", phase=Phase.VERIFICATION,
            iteration=state.iteration, rationale=summary_line(tally, method, remove).strip("*"),
            outputs=dict(tally),
        )
    )  # fmt: skip
    return PhaseReport(Phase.VERIFICATION, {"claims": len(claims), **tally}, notes)


def _refinalize(state: ResearchState, body: str) -> Report:
    """The report again through finalize_report (so removed claims' sources leave the list),
    keeping what synthesis measured."""
    assert state.report is not None
    old = state.report
    cited = old.cited_source_ids
    by_id = {s.id: s.citation for s in state.sources}

    def original(match: re.Match[str]) -> str:
        nums = [int(n) for n in match[1].split(",")]
        return "".join(f"[{by_id[cited[n - 1]]}]" for n in nums if 1 <= n <= len(cited))

    new = finalize_report(sub_citations(body, original), state)
    return new.model_copy(
        update={
            "fidelity": old.fidelity,
            "fidelity_level": old.fidelity_level,
            "confidence_summary": old.confidence_summary,
            "iteration": old.iteration,
        }
    )


def _renumber(state: ResearchState, claims: list[Claim]) -> None:
    """Claims' [n] numbers as the final report prints them."""
    assert state.report is not None
    order = state.report.cited_source_ids
    for c in claims:
        c.citations = [order.index(s) + 1 for s in c.source_ids if s in order]
