"""Offline synthesis: a structured, cited Markdown report built from the findings."""

from __future__ import annotations

import re
from itertools import combinations

from deepresearch.offline.text import jaccard, term_set, truncate_words
from deepresearch.roles import FindingBrief, ReportDraft, SynthesizeInputs

RANK = {"confirmed": 0, "high": 1, "medium": 2, "low": 3, "speculation": 4}
_NUMBER = re.compile(r"\b\d[\d,.]*\b")


def _cite(f: FindingBrief) -> str:
    return "".join(f"[{n}]" for n in f.citations)


def _conflicts(findings: list[FindingBrief]) -> list[str]:
    """Pairs of findings about the same subject that state different numbers."""
    out: list[str] = []
    for a, b in combinations(findings, 2):
        if set(a.citations) & set(b.citations):
            continue
        ta, tb = term_set(a.content), term_set(b.content)
        na, nb = set(_NUMBER.findall(a.content)), set(_NUMBER.findall(b.content))
        if na and nb and not (na & nb) and jaccard(ta, tb) >= 0.35:
            out.append(
                f"- {truncate_words(a.content, 160)} {_cite(a)} versus "
                f"{truncate_words(b.content, 160)} {_cite(b)} — the sources give different figures."
            )
        if len(out) >= 3:
            break
    return out


def synthesize(inputs: SynthesizeInputs) -> ReportDraft:
    ranked = sorted(inputs.findings, key=lambda f: (RANK.get(f.confidence, 5), f.id))
    guidance_terms = term_set(" ".join(inputs.guidance))
    if guidance_terms:
        ranked.sort(key=lambda f: -len(term_set(f.content) & guidance_terms))
    lines = [f"# {inputs.question.strip()}", "", "## Executive summary", ""]
    if ranked:
        top = ranked[:3]
        lines.append(" ".join(f"{f.content} {_cite(f)}" for f in top))
        strong = sum(1 for f in inputs.findings if f.confidence in ("high", "confirmed"))
        lines += [
            "",
            f"This report draws on {inputs.source_count} sources and {len(inputs.findings)} "
            f"findings, {strong} of them supported by more than one source.",
        ]
    else:
        lines.append("The sources examined did not yield findings that answer the question.")

    lines += ["", "## Key findings"]
    themes: dict[str, list[FindingBrief]] = {}
    for f in inputs.findings:
        themes.setdefault(f.category or "General", []).append(f)
    for theme, items in themes.items():
        lines += ["", f"### {theme}", ""]
        for f in items:
            lines.append(f"- {f.content} {_cite(f)} *(confidence: {f.confidence})*")

    lines += ["", "## Conflicting information", ""]
    conflicts = _conflicts(inputs.findings)
    lines += conflicts or ["No direct contradictions were found among the sources examined."]

    lines += ["", "## Gaps and limitations", ""]
    lines += [f"- {g}" for g in inputs.gaps] or ["- No open gaps were identified."]
    weak = sum(1 for f in inputs.findings if f.confidence in ("low", "speculation"))
    if weak:
        lines.append(f"- {weak} finding(s) rest on a single source and should be checked.")
    lines.append(
        f"- Research ran {inputs.iteration} of at most {inputs.max_iterations} iteration(s); "
        f"{inputs.high_quality_count} of {inputs.source_count} sources were rated high quality."
    )

    lines += ["", "## Conclusion", ""]
    if ranked:
        lead = ranked[0]
        lines.append(
            f"In short: {lead.content} {_cite(lead)} "
            + (
                "The findings above are consistent across the sources that address them."
                if not conflicts
                else "Some figures differ between sources; see the conflicts above."
            )
        )
    else:
        lines.append("More sources are needed before a conclusion can be drawn.")
    return ReportDraft(markdown="\n".join(lines) + "\n")
