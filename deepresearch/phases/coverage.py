"""Whether every part of the question has a finding that addresses it, whatever analyzer
ran: a model that answers only the first half of "Who invented the telephone and who
invented the radio?" must not leave a report that looks complete.

A part is addressed by a finding filed under it (its category is the part, as the offline
analyzer files them and a model is asked to; ``filed_part`` reads a model's near copy,
"Part 2: Who invented the radio?", as the part), or by a finding filed under no part that
speaks of what the part asks: one of the words the part asks with, and no other part does
("radio"), is in the finding, its category, or the title or text of a source it rests on.
A model words its findings in its own way ("Marconi sent the first wireless signals
across the Atlantic"), but the source it drew them from says what they are about, so the
test is lenient: it catches a part that no finding and no source behind one speaks of,
not a part answered in other words.

A part no finding addresses is an open gap, first priority, worded as the offline
analyzer words it; the gap is addressed once a later iteration's findings address the
part. The session's status, the exit code, the gaps DataFrame and the report all follow
from that gap (``ResearchState.unanswered_gaps``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepresearch.offline.coverage import (
    OWN_WORDS_ASKED,
    PART_GAP,
    asked_words,
    says_any,
    text_roots,
    titled_words,
)
from deepresearch.offline.parts import Part, question_parts
from deepresearch.state import Finding, Gap, ResearchState

NO_FINDING = "no finding addresses it"  # why a part gap this check opened is open
# A label a model puts before a part it copies: "Part 2:", "Q2.", "2)", "(2)", "[2]".
_LABEL = re.compile(r"^\W*(?:(?:part|question|q)\s*#?\s*\d+\W*|\d+\s*[.:)\]]\W*)", re.I)
_WORD = re.compile(r"\w+")
MIN_CUT_WORDS = 3  # a category cut short must keep this many of the part's words...
MIN_CUT_SHARE = 0.5  # ...and this share of them, and be the start of no other part


def check_parts(state: ResearchState) -> tuple[list[str], int]:
    """Open a gap for each part of the question that no finding addresses, and close the
    part gaps of parts that findings now address. The parts newly left open, and the
    number of gaps closed.

    Args:
        state: the research state, after an analysis added its findings.
    """
    parts = question_parts(state.question)
    addressed = _addressed(state, parts)
    gaps = {g.description: g for g in state.gaps}
    opened: list[str] = []
    closed = 0
    for i, part in enumerate(parts):
        gap = gaps.get(PART_GAP + part.text)
        if i in addressed:
            if gap is not None and not gap.addressed:
                gap.addressed = True
                closed += 1
        elif gap is None and (told := _told(state, part)) is not None:
            told.priority = 1  # the model's own gap for the part: unanswered, not minor
            opened.append(part.text)
        elif gap is None:
            state.gaps.append(
                Gap(
                    id=state.next_id("gap"),
                    description=PART_GAP + part.text,
                    suggested_queries=[part.query],
                    priority=1,
                    reason=NO_FINDING,
                    iteration=state.iteration,
                )
            )
            opened.append(part.text)
    return opened, closed


def _told(state: ResearchState, part: Part) -> Gap | None:
    """An open gap the analyzer gave in its own words for ``part`` ("No source says who
    invented the radio"): its text holds every word the part asks with. It stands for the
    part, so the report does not list the part twice."""
    (asked,) = asked_words([part])
    for gap in state.gaps:
        if gap.addressed or gap.resolution is not None or gap.description.startswith(PART_GAP):
            continue
        roots = text_roots(gap.description)
        if asked and all(says_any({w}, roots) for w in asked):
            return gap
    return None


def filed_part(category: str | None, parts: Sequence[str]) -> int | None:
    """The index of the part a finding's ``category`` files it under, or None when it names
    no part (a theme such as "Causes", or empty). The category names a part when it is
    the part's text, or a near copy of it as models write one: another case or
    punctuation ("Who invented the radio?"), a label before it ("Part 2: ..."), or cut
    short (at least MIN_CUT_WORDS and MIN_CUT_SHARE of the part's words, its last word
    perhaps cut, the start of no other part).

    Args:
        category: the finding's category.
        parts: the texts of the question's parts, in order.
    """
    if not category or not category.strip():
        return None
    keys = [_words(p) for p in parts]
    for text in (category, _LABEL.sub("", category, count=1)):
        said = _words(text)
        if said in keys:
            return keys.index(said)
        cut = [i for i, k in enumerate(keys) if _starts(k, said)]
        if len(cut) == 1:
            return cut[0]
    return None


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _starts(part: list[str], said: list[str]) -> bool:
    """Whether ``said`` is ``part`` cut short: enough of its first words, the last one
    perhaps cut mid-word."""
    n = len(said)
    if n < MIN_CUT_WORDS or n < MIN_CUT_SHARE * len(part) or n > len(part):
        return False
    return part[: n - 1] == said[:-1] and part[n - 1].startswith(said[-1])


def _addressed(state: ResearchState, parts: list[Part]) -> set[int]:
    """The indexes of the parts that a finding of the state addresses."""
    texts = [p.text for p in parts]
    words = _telling_words(state, parts, asked_words(parts))
    roots: dict[str, set[str]] = {}  # per source: the roots of its title and text
    addressed: set[int] = set()
    for finding in state.findings:
        filed_as = filed_part(finding.category, texts)
        if filed_as is not None:
            addressed.add(filed_as)
            continue
        said = _said(state, finding, roots)
        addressed |= {i for i, w in enumerate(words) if not w or says_any(w, said)}
    return addressed


def _telling_words(
    state: ResearchState, parts: list[Part], asked: list[set[str]]
) -> list[set[str]]:
    """Per part, the words a finding that addresses it must speak of: those of its
    ``asked`` words that make up the title of a gathered source (``titled_words``:
    "radio" of "who invented the radio", a source being *Radio*), the thing the part is
    about, which its answer names. A part that names no source is asked in words its answer need not use ("where
    does the river begin" → "rises in the Himalayas"): only when it asks with
    OWN_WORDS_ASKED of them must one be spoken of; else (an empty set) any finding may
    address it."""
    titles = [s.title for s in state.sources]
    out = []
    for part, words in zip(parts, asked, strict=True):
        named = titled_words(part.text, words, titles)
        out.append(named or (words if len(words) >= OWN_WORDS_ASKED else set()))
    return out


def _said(state: ResearchState, finding: Finding, roots: dict[str, set[str]]) -> set[str]:
    """The word roots of a finding, its category and the sources it rests on (``roots``
    caches each source's)."""
    said = text_roots(f"{finding.content} {finding.category or ''}")
    for sid in finding.source_ids:
        if sid not in roots:
            src = state.source(sid)
            text = "" if src is None else f"{src.title} {src.content} {src.raw_content or ''}"
            roots[sid] = text_roots(text)
        said |= roots[sid]
    return said
