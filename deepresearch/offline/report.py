"""Offline synthesis: a structured, cited Markdown report built from the findings."""

from __future__ import annotations

import re
from itertools import combinations

from deepresearch.offline.answer_kinds import TOKEN_EDGES, counts_asked
from deepresearch.offline.asking import (
    is_question,
    points_back,
)
from deepresearch.offline.bridges import entities
from deepresearch.offline.mentions import TOKEN, mentions_name, name_words
from deepresearch.offline.quotes import QUOTES
from deepresearch.offline.referents import PERSON_WORDS, Referents
from deepresearch.offline.referred import given_titled, points_to_asked
from deepresearch.offline.summary_picks import SUMMARY_ALONE, SUMMARY_PER_PART, summary_picks
from deepresearch.roles import FindingBrief, ReportDraft, SynthesizeInputs
from deepresearch.state.models import SEARCHED
from deepresearch.text import escape_citation_markers, jaccard, term_set, truncate_words, words

# A figure; not a number glued to a word by a hyphen, which names a record ("issue-2335",
# "gh-1234") or a thing ("F-16").
_NUMBER = re.compile(r"(?<![A-Za-z]-)\b\d[\d,.]*\b")
_SEARCHES = re.compile(rf"(?:; )?{SEARCHED}.*(?=\)$)")  # the searches a stated gap lists


def _cite(f: FindingBrief) -> str:
    return "".join(f"[{n}]" for n in f.citations)


def _cited(f: FindingBrief, max_chars: int | None = None) -> str:
    """The finding's statement and its citations; a bracketed number the source wrote
    ("[1, 2, 3]") is escaped, so it is not read as a citation of the report's sources."""
    said = f.content if max_chars is None else truncate_words(f.content, max_chars)
    return f"{escape_citation_markers(said)} {_cite(f)}"


def _shown(items: list[FindingBrief], referents: Referents) -> list[str]:
    """The findings as shown one after another, each cited (an opening pronoun glossed
    after another source's statement, see ``referents``)."""
    return [
        _cited(f.model_copy(update={"content": referents.said(f, after)}))
        for after, f in zip([None, *items], items, strict=False)
    ]


SAME_CLAIM = 0.6  # word overlap, numbers aside, at which two statements say the same of it


def _conflicts(findings: list[FindingBrief]) -> list[str]:
    """Pairs of findings that say the same of the same subject with different numbers.
    Quoted code lines and table rows are records, each of its own thing ("opt-level = 0",
    "opt-level = 3"), as are entries under different labels ("fetch-retries: Default: 2",
    "maxsockets: Default: 15"); two statements of one template about two named things
    ("Radon … atomic number 86", "Rubidium … atomic number 37") are not about one."""
    out: list[str] = []
    claims = [f for f in findings if not f.content.startswith(QUOTES)]
    for a, b in combinations(claims, 2):
        if set(a.citations) & set(b.citations):
            continue
        na, nb = set(_NUMBER.findall(a.content)), set(_NUMBER.findall(b.content))
        ta, tb = (term_set(_NUMBER.sub(" ", f.content)) for f in (a, b))
        if (
            na
            and nb
            and not (na & nb)
            and jaccard(ta, tb) >= SAME_CLAIM
            and not (_names(a.content, ta - tb) and _names(b.content, tb - ta))
            and _label(a.content) == _label(b.content)
        ):
            out.append(
                f"- {_cited(a, 160)} versus {_cited(b, 160)} — the sources give different figures."
            )
        if len(out) >= 3:
            break
    return out


def _label(text: str) -> str:
    """The label a statement opens with, the record it is about ("maxsockets" of
    "maxsockets: Default: 15"), or ""."""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    return first[:-1].casefold() if first.endswith(":") else ""


def _names(text: str, terms: set[str]) -> bool:
    """Whether ``text`` writes one of ``terms`` as a name: capitalised, or as code would
    ("fetch-retries", "max_connections")."""
    return any(
        term_set(token) & terms
        for token in text.split()
        if token[:1].isupper() or re.search(r"\w[-_.]\w", token.strip(TOKEN_EDGES))
    )


MAX_CITED = 12  # sources a report cites at most: the ones that answer, not all gathered
PER_PART = 15  # findings per question part in the report
# Citations shown per finding (its own source first): a statement many documents repeat
# (a shared configuration block) would otherwise use up the report's MAX_CITED.
CITES_PER_FINDING = 3


def _select(
    findings: list[FindingBrief], *, once: bool = True
) -> tuple[dict[str, list[FindingBrief]], set[int]]:
    """Findings grouped by the question part they answer (their category), in order, taken
    round-robin across parts while their own sources fit in MAX_CITED; then, with the
    room left, the sources that confirm them (up to CITES_PER_FINDING each, then all).
    ``once``: a statement that answers two parts is shown under the first that takes it,
    and the other part's place goes to its next finding."""
    groups: dict[str, list[FindingBrief]] = {}
    for f in findings:
        groups.setdefault(f.category or "General", []).append(f)
    chosen: dict[str, list[tuple[FindingBrief, list[int]]]] = {k: [] for k in groups}
    cited: set[int] = set()
    shown: set[str] = set()
    for rank in range(max((len(v) for v in groups.values()), default=0)):
        for part, items in groups.items():
            if rank >= len(items) or len(chosen[part]) >= PER_PART:
                continue
            f = items[rank]
            own = f.citations[:1]
            if not own or (own[0] not in cited and len(cited) >= MAX_CITED):
                continue
            if once and f.content in shown:
                continue
            cited |= set(own)
            shown.add(f.content)
            chosen[part].append((f, list(own)))
    # Confirming sources only after every chosen finding's own: a statement many
    # documents repeat must not crowd out the source that answers another part.
    picked = [pair for pairs in chosen.values() for pair in pairs]
    for limit in (CITES_PER_FINDING, None):
        for f, room in picked:
            for c in f.citations:
                if limit is not None and len(room) >= limit:
                    break
                if c not in room and (c in cited or len(cited) < MAX_CITED):
                    cited.add(c)
                    room.append(c)
    out = {
        part: [f.model_copy(update={"citations": room}) for f, room in pairs]
        for part, pairs in chosen.items()
        if pairs
    }
    return out, cited


def _summary_parts(
    findings: list[FindingBrief], shown: dict[str, list[FindingBrief]], cited: set[int]
) -> dict[str, list[FindingBrief]]:
    """The findings each part's summary line chooses from: the part's own, a statement
    that answers two parts under both (each part's answer, though the key findings
    ``shown`` list it once), citing only the sources the report cites (those of the copy
    shown, when the part's own copy cites none of them)."""
    parts, _ = _select(findings, once=False)
    copies = {f.content: f.citations for items in shown.values() for f in items}
    out: dict[str, list[FindingBrief]] = {}
    for part, items in parts.items():
        own = []
        for f in items:
            if f.citations[:1] and f.citations[0] in cited:
                cites = [n for n in f.citations if n in cited]
            else:
                cites = copies.get(f.content, [])
            if cites:
                own.append(f.model_copy(update={"citations": cites}))
        if own:
            out[part] = own
    return out


def _summary_lines(
    question: str,
    parts: tuple[dict[str, list[FindingBrief]], dict[str, list[FindingBrief]]],
    titles: dict[int, str],
    referents: Referents,
) -> tuple[list[str], FindingBrief | None]:
    """The executive summary's line per part of the ``question``: its answer findings
    (an opening pronoun glossed with its entry's name after another source's, see
    ``referents``), and the finding the first line opens with. ``parts``: the findings
    each line chooses from, and those the key findings list under each part."""
    lines: list[str] = []
    opening: FindingBrief | None = None
    summarised: set[str] = set()
    earlier: set[int] = set()  # the sources earlier lines open with
    opened: set[int] = set()  # ... the line before
    # ... and, for a part pointing back to a person ("he") when the lines before found
    # no answer, the entries on a person the question names
    tokens = TOKEN.findall(question)
    named = {n for n, title in titles.items() if mentions_name(tokens, name_words(title))}
    asked = set(words(question))
    choices, listed = parts
    room = SUMMARY_ALONE if len(choices) == 1 else SUMMARY_PER_PART
    order = list(choices)
    for n, (part, items) in enumerate(choices.items()):
        pointed = earlier | (named & referents.persons if PERSON_WORDS.search(part) else set())
        # "where was he born" after "Who invented the telephone", "when was it built" after
        # "What is the Eiffel Tower": what that line opened with
        before = order[n - 1] if n else ""
        answer = _pointed_to(part, before, opened, titles)
        referred = (referents.persons, pointed if points_back(part) else set(), answer)
        # a statement the key findings list under a later part does not pad this line
        # ("… on the Chajnantor plateau" after ALMA's 66 antennas: "on what plateau" has it)
        later = frozenset(f.content for p in order[n + 1 :] for f in listed.get(p, []))
        items = items + _counted_before(part, items, [f for p in order[:n] for f in choices[p]])
        picks = summary_picks(part, items, asked, summarised, room, titles, referred, later)
        summarised |= {f.content for f in picks}
        opened = {f.citations[0] for f in picks[:1] if f.citations}
        earlier |= opened
        opening = opening or next(iter(picks), None)
        said = " ".join(_shown(picks, referents))
        label = escape_citation_markers(part.rstrip("?"))  # the user's "[1]" is no citation
        # "Tell me about the reef" is a request, not a question: no question mark.
        lines.append(f"- **{label}{'?' if is_question(part) else ':'}** {said}")
    return lines, opening


def _pointed_to(part: str, before: str, opened: set[int], titles: dict[int, str]) -> set[int]:
    """The sources a ``part`` pointing back to the part ``before`` asks of: what that
    part's line ``opened`` with ("where was he born" after "Who invented the telephone");
    for a pronoun standing for a name the part before gives, the entry on that name where
    one is cited ("what is it about" after "Who wrote the Iliad": *Iliad*, not the *Homer*
    the line opened with). None for another part."""
    if points_to_asked(part, before):
        return opened
    given = [name_words(n) for n in given_titled(part, before, titles.values())]
    entries = {n for n, title in titles.items() if given and name_words(title) in given}
    return entries or (opened if given else set())


def _counted_before(
    part: str, own: list[FindingBrief], earlier: list[FindingBrief]
) -> list[FindingBrief]:
    """For a part asking how many of a thing it names nothing of ("how many ends does a
    game normally last" after "In curling, how many players are on each team"), when none
    of its ``own`` findings counts it, the ``earlier`` parts' findings that do ("A game
    usually consists of eight or ten ends"): the analysis lists a statement under one
    part. None for a part naming a thing ("Usain Bolt: how many golds did he win" is not
    answered by Jesse Owens's line)."""
    if entities(part) or any(counts_asked(f.content, part) for f in own):
        return []
    return [f for f in earlier if counts_asked(f.content, part)]


def synthesize(inputs: SynthesizeInputs) -> ReportDraft:
    """The offline report writer (``inputs``: its inputs): the findings per question part
    as summary, key findings, conflicts, gaps and conclusion, in the extractive form."""
    findings = inputs.findings
    guidance_terms = term_set(" ".join(inputs.guidance))
    if guidance_terms:
        findings = sorted(findings, key=lambda f: -len(term_set(f.content) & guidance_terms))
    parts, in_report = _select(findings)
    shown = [f for items in parts.values() for f in items]
    referents = Referents(inputs.sources, inputs.findings)
    strong = sum(1 for f in shown if len(f.citations) > 1)
    lines = [f"# {inputs.question.strip()}", "", "## Executive summary", ""]
    opening = shown[0] if shown else None  # what the conclusion says first
    if parts:
        titles = {s.citation: s.title for s in inputs.sources}
        summary_parts = _summary_parts(findings, parts, in_report)
        summary, first = _summary_lines(inputs.question, (summary_parts, parts), titles, referents)
        lines += summary
        opening = first or opening
    else:
        lines.append("The sources examined did not yield findings that answer the question.")
    lines += _not_answered(inputs.gaps)
    if parts:
        cited = len({n for f in shown for n in f.citations})
        lines += [
            "",
            f"The research examined {inputs.source_count} sources and recorded "
            f"{len(inputs.findings)} findings; this report shows {len(shown)} of them, from "
            f"{cited} sources, {strong} supported by more than one source.",
        ]

    lines += ["", "## Key findings"]
    for part, items in parts.items():
        lines += ["", f"### {part.rstrip('?')}", ""]
        for f, said in zip(items, _shown(items, referents), strict=True):
            lines.append(f"- {said} *(confidence: {f.confidence})*")

    lines += ["", "## Conflicting information", ""]
    conflicts = _conflicts(shown)
    lines += conflicts or ["No direct contradictions were found among the sources examined."]

    lines += ["", "## Gaps and limitations", ""]
    gaps = [f"- {escape_citation_markers(g)}" for g in inputs.gaps]
    lines += gaps or ["- No open gaps were identified."]
    if single := len(shown) - strong:
        lines.append(
            f"- {single} of the {len(shown)} findings shown rest on a single source: check "
            "them before relying on them."
        )
    lines.append(
        f"- Research ran {inputs.iteration} of at most {inputs.max_iterations} iteration(s); "
        f"{inputs.high_quality_count} of {inputs.source_count} sources were rated high quality."
    )

    lead = opening and opening.model_copy(update={"content": referents.said(opening, None)})
    lines += ["", "## Conclusion", "", _conclusion(lead, strong, bool(conflicts))]
    return ReportDraft(markdown="\n".join(lines) + "\n")


def _not_answered(gaps: list[str]) -> list[str]:
    """The summary's line per part no source answers, saying why; what was searched for
    it is for the gaps section."""
    return [
        f"- Not answered: {escape_citation_markers(said.replace(' ()', ''))}"
        for gap in gaps
        if gap.startswith("No source found answers")
        for said in [_SEARCHES.sub("", gap.split(":", 1)[-1].strip())]
    ]


def _conclusion(lead: FindingBrief | None, strong: int, conflicts: bool) -> str:
    """The summary's first answer (the first finding shown when it has none), and what
    the cross-checking found (no more than it did)."""
    if lead is None:
        return "More sources are needed before a conclusion can be drawn."
    if conflicts:
        checked = "Some figures differ between sources; see the conflicts above."
    elif strong:
        verb = "is" if strong == 1 else "are"
        checked = (
            f"{strong} of the findings above {verb} supported by more than one source, and "
            "none contradicts another."
        )
    else:
        checked = "No finding above was confirmed by a second source."
    return f"In short: {_cited(lead)} {checked}"
