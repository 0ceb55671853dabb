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
analyzer words it, unless the analyzer gave one for it in its own words (``_told``),
which then stands for the part. The gap that stands for a part records it
(``Gap.part``) and is addressed once a later iteration's findings address the part. The
session's status, the exit code, the gaps DataFrame and the report all follow from that
gap (``ResearchState.unanswered_gaps``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deepresearch.offline.coverage import OWN_WORDS_ASKED, PART_GAP, asked_words, titled_words
from deepresearch.offline.parts import Part, question_parts
from deepresearch.offline.roots import says_any, text_roots
from deepresearch.state import Finding, Gap, ResearchState
from deepresearch.text import word_root

NO_FINDING = "no finding addresses it"  # why a part gap this check opened is open
# A label a model puts before a part it copies: "Part 2:", "Q2.", "2)", "(2)", "[2]".
_LABEL = re.compile(r"^\W*(?:(?:part|question|q)\s*#?\s*\d+\W*|\d+\s*[.:)\]]\W*)", re.I)
_WORD = re.compile(r"\w+")
MIN_CUT_WORDS = 3  # a category cut short must keep this many of the part's words...
MIN_CUT_SHARE = 0.5  # ...and this share of them, and be the start of no other part


def check_parts(state: ResearchState) -> tuple[list[str], int]:
    """Open a gap for each part of the question that no finding addresses, and close the
    gaps that stand for parts findings now address. The parts newly left open, and the
    number of gaps closed.

    Args:
        state: the research state, after an analysis added its findings.
    """
    parts = question_parts(state.question, state.source_titles())
    addressed = _addressed(state, parts)
    opened: list[str] = []
    closed = 0
    for i, part in enumerate(parts):
        standing = [g for g in state.gaps if _stands_for(g, part)]
        for gap in standing:
            gap.part = part.text  # the offline analyzer's part gap names it in words only
            if i in addressed and not gap.addressed:
                gap.addressed = True
                closed += 1
        if i in addressed or standing or part.scene:
            continue
        if (told := _told(state, parts, i)) is not None:
            told.priority = 1  # the model's own gap for the part: unanswered, not minor
            told.part = part.text
        else:
            state.gaps.append(
                Gap(
                    id=state.next_id("gap"),
                    description=PART_GAP + part.text,
                    suggested_queries=[part.query],
                    priority=1,
                    reason=NO_FINDING,
                    iteration=state.iteration,
                    part=part.text,
                )
            )
        opened.append(part.text)
    return opened, closed


def _stands_for(gap: Gap, part: Part) -> bool:
    """Whether ``gap`` stands for ``part``: it was taken to (``Gap.part``), or it is the
    part gap worded as the offline analyzer words it (which also a state saved before
    ``Gap.part`` holds)."""
    return gap.part == part.text or gap.description == PART_GAP + part.text


def _told(state: ResearchState, parts: list[Part], i: int) -> Gap | None:
    """An open gap the analyzer gave in its own words for ``parts[i]`` ("No source says
    who invented the radio"), standing for no part yet: its text says every word the part
    asks with (``_asked``) and none that only another part asks with. It stands for the
    part, so the report does not list the part twice; a gap that speaks of another part
    too may be about that one, so both lines stay rather than a part be hidden."""
    asked = _asked(parts[i])
    others = set().union(*(w for j, w in enumerate(asked_words(parts)) if j != i))
    for gap in state.gaps:
        if gap.addressed or gap.resolution is not None or gap.part is not None:
            continue
        if gap.description.startswith(PART_GAP):
            continue
        roots = text_roots(gap.description)
        said = all(says_any(forms, roots) for forms in asked)
        if asked and said and not says_any(others, roots):
            return gap
    return None


def _asked(part: Part) -> list[set[str]]:
    """Per word ``part`` asks with (``asked_words``), the roots that say it: the word's
    own, and for the doer of a part that asks who did something also its verb's, as one
    word is said in any of its forms: "who invented the radio" asks with "inventor",
    which "the invention of the radio" says by "invent"."""
    (asked,) = asked_words([part])
    doer = part.doer
    verb, noun = (word_root(doer[0]), word_root(doer[1])) if doer else ("", "")
    return [{w, verb} if w == noun else {w} for w in sorted(asked)]


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
    about, which its answer names. A part that names no source is asked in words its
    answer need not use ("where does the river begin" → "rises in the Himalayas"): only
    when it asks with OWN_WORDS_ASKED of them must one be spoken of; else (an empty set)
    any finding may address it."""
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
