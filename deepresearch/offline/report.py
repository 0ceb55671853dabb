"""Offline synthesis: a structured, cited Markdown report built from the findings."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import combinations

from deepresearch.offline.answer_kinds import (
    SUPERLATIVE,
    TOKEN_EDGES,
    answer_kind,
    deed_on_object,
    gives,
)
from deepresearch.offline.asking import (
    asks_for_entity,
    is_question,
    main_clause,
    points_back,
    question_word,
)
from deepresearch.offline.bridges import entities
from deepresearch.offline.coverage import is_entry_on
from deepresearch.offline.mentions import TOKEN, holds_phrase, mentions_name, name_words
from deepresearch.offline.referents import PERSON_WORDS, Referents
from deepresearch.offline.referred import given_names, points_to_asked
from deepresearch.offline.statements import CODE, QUOTES
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


# The executive summary gives each part the findings that state its answer: SUMMARY_PER_PART
# of them (SUMMARY_ALONE when the question has one part: its answer is the whole summary),
# chosen from the part's findings by the analysis's order, for the names and numbers they
# state beyond the question's words, and against a mere definition when the part asks
# who, which, when, where, how or why (a definition answers "what is").
SUMMARY_PER_PART = 2
SUMMARY_ALONE = 3
SPECIFIC_WEIGHT = 0.3  # a finding stating SPECIFIC_ENOUGH new names or numbers gains this
SPECIFIC_ENOUGH = 4
DEFINITION_PENALTY = 0.2
# "X is a …" in its first few words: what a definition looks like
SAME_SOURCE_BONUS = 0.2  # a second finding from the first's source continues its answer
_DEFINITION = re.compile(r"^\W*\w+(?:\s+\S+){0,5}?\s+(?:is|are|was|were)\s+(?:a|an|the)\b")


def _specifics(text: str, asked: set[str]) -> int:
    """How many distinct names and numbers ``text`` states that are not among the words
    ``asked``: capitalised words past the first, and anything with a digit."""
    found: set[str] = set()
    for i, token in enumerate(text.split()):
        bare = token.strip(TOKEN_EDGES)
        if not bare or not (any(ch.isdigit() for ch in bare) or (i and bare[0].isupper())):
            continue
        said = words(bare)
        if said and not set(said) <= asked:
            found.add(bare.lower())
    return len(found)


def _asks_what(part: str) -> bool:
    """The part asks what something is ("What is …", "explain what …"), or no question
    word leads it: a definition may be its answer."""
    return question_word(part) in (None, "what")


def _summary_picks(
    part: str,
    findings: list[FindingBrief],
    asked: set[str],
    shown: set[str],
    room: int,
    titles: dict[int, str],
    referred: tuple[frozenset[int], set[int], set[int]],
    reserved: frozenset[str] = frozenset(),
) -> list[FindingBrief]:
    """Up to ``room`` of a part's ``findings`` (in the analysis's order, best first) for the
    summary: the first ranked for the names and numbers they state beyond the ``asked``
    words and, unless the part asks what something is, against a definition (for a part
    asking when, how many or who did something, the best that gives a time, a number or
    a doer, if one does; among those, or else, one from the entry another finding names
    for a thing the part describes, or from the entry on a thing the part names,
    ``titles``: citation → title, or on a person, for a part pointing back to one, the
    first of ``referred``, one an earlier part's line cites first, its second; see
    ``_again`` for its third); then more
    of the same source's, not ones an earlier part's summary line already ``shown``, nor
    two that say the same, nor one ``reserved`` for a later part (listed under it)."""
    asked = asked | set(words(part))
    kind = answer_kind(part)
    # "Neil Armstrong was an American astronaut who … became the first person to walk on
    # the Moon": a definition stating the superlative asked for is no mere definition.
    define_ok = _asks_what(part) or kind == "superlative"
    rank = {f.id: n for n, f in enumerate(findings)}
    fresh = [f for f in findings if f.content not in shown] or findings
    # A code line answers in the findings, quoted; the summary says it in prose if it can.
    fresh = [f for f in fresh if not f.content.startswith(CODE)] or fresh
    base = {
        f.id: 1 / (1 + rank[f.id])
        + SPECIFIC_WEIGHT * min(1.0, _specifics(f.content, asked) / SPECIFIC_ENOUGH)
        - (0.0 if define_ok or not _DEFINITION.match(f.content) else DEFINITION_PENALTY)
        for f in findings
    }
    leads = _leads(part, fresh, asked, titles, referred[:2])
    leads = _again(part, findings, leads, referred[2])
    picks: list[FindingBrief] = [max(leads, key=lambda f: base[f.id])] if leads else []
    own = _said_of(part)
    while len(picks) < room:
        lead = picks[0].citations[:1] if picks else None
        options = [
            f
            for f in fresh
            if f not in picks
            and not (picks and f.content in reserved)
            and all(jaccard(term_set(f.content), term_set(p.content)) < 0.5 for p in picks)
            # after the first, one that goes on from its source or says a word of the
            # part: not a stray line ("Vladivostok is the largest city …" after the fall
            # of maternal mortality)
            and (not picks or f.citations[:1] == lead or own(f.content))
        ]
        if not options:
            break
        picks.append(
            max(options, key=lambda f: base[f.id] + SAME_SOURCE_BONUS * (f.citations[:1] == lead))
        )
    return _antecedent_first(picks, fresh, room)


def _again(
    part: str, findings: list[FindingBrief], leads: list[FindingBrief], answer: set[int]
) -> list[FindingBrief]:
    """For a part pointing back to what the part before asks for, or to a name it gives,
    whose line opened with the source ``answer``, when its ``leads`` hold none of that
    source's: its findings
    among the part's own that say a word of it, though the line before showed them
    ("Alexander Graham Bell was a Scottish-born … inventor" for "where was he born", not
    *Max Born*'s entry); any of them when the part has no word of its own ("where is
    it")."""
    if not answer or any(f.citations[:1] and f.citations[0] in answer for f in leads):
        return leads
    # the kind asked for ("in which city is it") is seldom said by the answer ("in Dubai")
    bare = _KIND_ASKED.sub(lambda m: m[0].split()[0], part)
    said = _said_of(bare) if term_set(bare) else lambda _: True
    # nor, of a person, the verb ("where did he work": "a professor at … MIT")
    asked = answer_kind(part, names=True) if PERSON_WORDS.search(part) else None
    known = set(words(part))
    again = [
        f
        for f in findings
        if f.citations[:1]
        and f.citations[0] in answer
        and (said(f.content) or (asked and gives(f.content, asked, known, part)))
    ]
    return again or leads


_KIND_ASKED = re.compile(r"\b(?:which|what)\s+\w+", re.IGNORECASE)


def _said_of(part: str) -> Callable[[str], bool]:
    """Whether a statement says a word of the ``part``: one it writes in lower case, or a
    name it gives, written as the part writes it ("Jaws" the film, not "The jaws are a
    pair of …"), or the name's last word ("Joyner-Kersee")."""
    # the part's first word is capitalised whatever it is ("Compare Confucius …")
    names = [TOKEN.findall(n) for n in entities(part[:1].lower() + part[1:])]
    plain = term_set(part) - term_set(" ".join(" ".join(n) for n in names))
    names += [n[-1:] for n in names if len(n) > 1]

    def said(text: str) -> bool:
        tokens = [t.removesuffix("'s").removesuffix("’s") for t in TOKEN.findall(text)]
        # a word the part writes in lower case is not said inside a name (*Max Born* does
        # not say "born"); in a compound it is ("Scottish-born" does)
        pieces = [p for t in tokens for p in (t, *t.split("-")[1:]) if p]
        lower = " ".join(p for k, p in enumerate(pieces) if not (k and _in_name(pieces[k - 1], p)))
        return bool(term_set(lower) & plain) or any(holds_phrase(tokens, n) for n in names)

    return said


def _in_name(before: str, word: str) -> bool:
    """Whether a capitalised ``word`` goes on a name (after a capitalised word ``before``)."""
    return word[:1].isupper() and not word.isupper() and before[:1].isupper()


# A statement opening with a pronoun continues one before it ("He shared the 1945 Nobel
# Prize …" after "Sir Alexander Fleming was a Scottish physician").
_PRONOUN_OPENING = re.compile(r"^(?:he|she|it|they|his|her|its|their|this|these)\b", re.IGNORECASE)


def _antecedent_first(
    picks: list[FindingBrief], findings: list[FindingBrief], room: int
) -> list[FindingBrief]:
    """The ``picks`` opened, when the first opens with a pronoun, by a statement of its
    source that does not (the best one among ``findings``: a pick, else one taking the
    last pick's place when the line has ``room`` for no more), so the line does not
    open with "He"."""
    if not picks or not _PRONOUN_OPENING.match(picks[0].content):
        return picks
    source = picks[0].citations[:1]
    for f in [*picks[1:], *(f for f in findings if f not in picks)]:
        if f.citations[:1] == source and not _PRONOUN_OPENING.match(f.content):
            rest = [p for p in picks if p is not f]
            return [f, *rest[: room - 1]]
    return picks


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


def _naming(
    part: str, findings: list[FindingBrief], titles: dict[int, str], persons: frozenset[int]
) -> list[FindingBrief]:
    """The ``findings`` from the entry on a thing the ``part`` names or asks about: their
    first source's title (``titles``: citation → title) is made of the part's words
    (*Mount Everest*, not *Council of Europe* for "Europe"). For a part that points back
    to a person ("which political system did he support"), those from entries on a
    person (``persons``, see ``Referents``): what *he* supported is said of him, not in
    the entry on a political system. None for a part that points back to a thing ("how
    did it change Europe" asks about "it") or asks for a thing it does not name ("Which
    Königsberg-born philosopher …": its names only describe it; "What is the largest
    ocean": *Ocean* is the kind, not the one asked for)."""
    # "which political system did he support": asked of a person an earlier part gives
    if points_back(part) and PERSON_WORDS.search(part):
        return [f for f in findings if f.citations and f.citations[0] in persons]
    # "Which is larger, Jupiter" (of "…, Jupiter or Saturn") asks it of the one it names
    if about := _choice(part):
        return [f for f in findings if _entry_of(name_words(about), titles, f)]
    if asks_for_entity(part) or points_back(part) or SUPERLATIVE.search(part):
        return []
    return [
        f for f in findings if f.citations and is_entry_on(part, titles.get(f.citations[0], ""))
    ]


# "Which is larger, Jupiter", "Which mountain is higher, Mount Kailash": a choice between
# things it names, one per part; the name closes it after a comma.
_CHOICE = re.compile(r"^\W*(?:which|who)\b[^,]+,\s*(?:the\s+)?(?P<name>[^,]+?)\W*$", re.I)


def _choice(part: str) -> str | None:
    """The name a part asking which of several named things is so closes with, else None."""
    m = _CHOICE.match(part)
    # the name is the whole of it, however it begins ("The" makes its first word no opener)
    return m["name"] if m and entities(f"The {m['name']}") == [m["name"]] else None


def _leads(
    part: str,
    findings: list[FindingBrief],
    asked: set[str],
    titles: dict[int, str],
    referred: tuple[frozenset[int], set[int]],
) -> list[FindingBrief]:
    """The findings a part's summary line may open with (see ``_summary_picks``): one
    giving the kind asked for from the entry the part's other findings name for a thing
    it describes (the hop's answer), else said of the thing the part names, else one from
    that hop's entry, else one giving that kind, else one said of the thing the part
    names ("How tall is Mount Everest": Everest's entry, not Mount Tai's "tallest
    peak")."""
    persons, earlier = referred
    kind = answer_kind(part)
    giving = [f for f in findings if gives(f.content, kind, asked, part)] if kind else []
    # a doer said with the deed done to what the part names, if one is ("founded Buddhism")
    giving = [f for f in giving if deed_on_object(f.content, part)] or giving
    named = _naming(part, findings, titles, persons)
    # what a part pointing back asks of is what the earlier parts' lines are from
    named = [f for f in named or findings if f.citations[:1] and f.citations[0] in earlier] or named
    hop = _hop_answers(part, findings, titles)
    return (
        [f for f in giving if f in hop]
        or [f for f in giving if f in named]
        or hop
        or giving
        or named
    )


def _hop_answers(
    part: str, findings: list[FindingBrief], titles: dict[int, str]
) -> list[FindingBrief]:
    """For a part asking about a thing it describes without naming it ("the emperor who
    carried out later modifications to the Colosseum"), the ``findings`` from an entry
    another of them names ("… during the reign of Domitian" names *Domitian*, whose entry
    says when he ruled): the hop's answer. None for a part that names what it asks about
    ("In which year did the Titanic sink": *Harland and Wolff*, which the Titanic's entry
    names, is no answer)."""
    main = main_clause(part)
    clause = [name_words(n) for n in entities(part[len(main) :])]
    if not clause or entities(main):
        return []
    cited = {n for f in findings for n in f.citations[:1]}
    # the namer speaks of a thing the describing clause names (*Colosseum*'s line)
    namers = [
        (f.citations[:1], tokens)
        for f in findings
        for tokens in [TOKEN.findall(f.content)]
        if any(_entry_of(name, titles, f) or mentions_name(tokens, name) for name in clause)
    ]
    named = {
        n
        for by, tokens in namers
        for n in cited
        if by != [n] and mentions_name(tokens, name_words(titles.get(n, "")))
    }
    return [f for f in findings if f.citations[:1] and f.citations[0] in named]


def _entry_of(name: list[str], titles: dict[int, str], finding: FindingBrief) -> bool:
    """Whether the ``finding``'s first source is the entry on ``name`` (its words)."""
    return bool(finding.citations) and name_words(titles.get(finding.citations[0], "")) == name


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
        answer = opened if points_to_asked(part, before) or given_names(part, before) else set()
        referred = (referents.persons, pointed if points_back(part) else set(), answer)
        # a statement the key findings list under a later part does not pad this line
        # ("… on the Chajnantor plateau" after ALMA's 66 antennas: "on what plateau" has it)
        later = frozenset(f.content for p in order[n + 1 :] for f in listed.get(p, []))
        picks = _summary_picks(part, items, asked, summarised, room, titles, referred, later)
        summarised |= {f.content for f in picks}
        opened = {f.citations[0] for f in picks[:1] if f.citations}
        earlier |= opened
        opening = opening or next(iter(picks), None)
        said = " ".join(_shown(picks, referents))
        label = escape_citation_markers(part.rstrip("?"))  # the user's "[1]" is no citation
        # "Tell me about the reef" is a request, not a question: no question mark.
        lines.append(f"- **{label}{'?' if is_question(part) else ':'}** {said}")
    return lines, opening


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
