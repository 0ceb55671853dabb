"""Code lines shown with their block (offline analysis): a finding quoting one line of a
program ("return self.run(*args, **kwargs)") says little without the lines that lead to
it ("class FlaskTask(Task):", "def __call__(…):"), and three findings quoting three lines
of one block are one piece of code. So the code lines a part drew from a source's block
become one finding: from a few lines before the first to the last."""

from __future__ import annotations

import re
from dataclasses import replace

from deepresearch.offline.quotes import CODE
from deepresearch.offline.statements import statement_terms
from deepresearch.offline.unanswered import Candidate
from deepresearch.text import STOPWORDS, word_root

CODE_CONTEXT = 2  # lines of its block shown before the first code line a part drew
CODE_BLOCK_LINES = 6  # at most this many lines in one finding, else the drawn lines alone


def with_code_blocks(
    chosen: list[Candidate], units: dict[str, list[str]], texts: dict[str, str]
) -> list[Candidate]:
    """``chosen`` with the code lines each part drew from one block of a source's quoted
    lines (``units``: each source's statements, in order) joined into one finding, led by
    up to CODE_CONTEXT lines of the block before them, where the first stood. Lines the
    source's text (``texts``) does not give one right after the other (a short line such
    as ``else:`` is no statement) are joined with an ellipsis: the quote never shows code
    as written that way when it was not.

    Args:
        chosen: the findings drawn, in the order they are shown.
        units: each source's statements in the order its text gives them.
        texts: each source's text, where it has one.
    """
    groups: dict[tuple[int, str, int], list[Candidate]] = {}
    for cand in chosen:
        said = units.get(cand.source_id, [])
        if cand.text.startswith(CODE) and cand.text in said:
            block = _block_start(said, said.index(cand.text))
            groups.setdefault((cand.part, cand.source_id, block), []).append(cand)
    joined: dict[int, Candidate | None] = {}
    for (_, sid, block), cands in groups.items():
        said = units[sid]
        drawn = sorted(said.index(c.text) for c in cands)
        start = max(block, drawn[0] - CODE_CONTEXT)
        shown = list(range(start, drawn[-1] + 1))
        if len(shown) > CODE_BLOCK_LINES:
            shown = sorted(set(drawn))
        if len(shown) == 1:
            continue
        text = CODE + _quoted([said[n] for n in shown], texts.get(sid, ""))
        lead = max(cands, key=lambda c: c.score)
        merged = replace(lead, text=text, terms=set().union(*(c.terms for c in cands)))
        merged.supporters = set(lead.supporters)
        joined[id(cands[0])] = merged
        joined.update({id(c): None for c in cands[1:]})
    out: list[Candidate] = []
    for cand in chosen:
        shown_as = joined.get(id(cand), cand)
        if shown_as is not None:
            out.append(shown_as)
    return out


def _block_start(said: list[str], position: int) -> int:
    """The first of the run of quoted code lines holding ``position``."""
    while position > 0 and said[position - 1].startswith(CODE):
        position -= 1
    return position


def _quoted(lines: list[str], text: str) -> str:
    """The quoted code ``lines`` (each "Code: `…`") as one quote: a space between two the
    source ``text`` gives on consecutive lines, " … " between others."""
    written = [line.strip() for line in text.splitlines() if line.strip()]
    spans = [line.removeprefix(CODE) for line in lines]
    out = spans[0]
    at = _line_of(written, _code(lines[0]), 0)
    for line, span in zip(lines[1:], spans[1:], strict=True):
        found = _line_of(written, _code(line), at + 1 if at >= 0 else 0)
        out += (" " if at >= 0 and found == at + 1 else " … ") + span
        at = found
    return out


def _code(quote: str) -> str:
    """The code a quote ("Code: `…`") shows."""
    span = quote.removeprefix(CODE)
    fence = len(span) - len(span.lstrip("`"))
    return span[fence:-fence].strip() if fence else span.strip()


def _line_of(written: list[str], code: str, start: int) -> int:
    """Where ``code`` is a line of ``written`` from ``start`` on, or -1."""
    return next((n for n in range(start, len(written)) if written[n] == code), -1)


# A code line showing an answer: at least this many of the words it uses are words the
# part's prose findings use, which most lines of a program do not ("secure=True,
# httponly=True, samesite='Lax'" after "Secure limits cookies …", "HttpOnly protects …").
EXAMPLE_SHARED = 3
EXAMPLE_SHARE = 0.4  # ... and that is this much of the words it uses
_PIECE = re.compile(r"[^\W_]+")  # snake_case and dotted names read word by word


def with_examples(
    chosen: list[Candidate], units: dict[str, list[str]], documents: dict[str, str]
) -> list[Candidate]:
    """``chosen`` with, for each part answered in prose alone, the code line that uses
    most of the words of the part's findings (the example after the explanation), from a
    source the findings cite already, of a document the part's findings come from; shown
    last in its part.

    Args:
        chosen: the findings drawn, grouped by part.
        units: each source's statements.
        documents: each source's document.
    """
    out = list(chosen)
    taken = {c.text for c in chosen}
    # a source the findings cite already: an example brings in no source of its own
    cited = {sid for c in chosen for sid in (c.source_id, *c.supporters)}
    for part in dict.fromkeys(c.part for c in chosen):
        own = [c for c in chosen if c.part == part]
        if any(c.text.startswith(CODE) for c in own):
            continue
        docs = {documents[c.source_id] for c in own}
        lines = [
            (sid, line)
            for sid, said in units.items()
            if sid in cited and documents.get(sid) in docs
            for line in said
            if line.startswith(CODE) and line not in taken
        ]
        if found := _example(lines, set().union(*(_roots(c.text) for c in own))):
            sid, line = found
            last = max(n for n, c in enumerate(out) if c.part == part)
            low = min(c.score for c in own) - 0.01
            out.insert(last + 1, Candidate(line, sid, part, low, statement_terms(line), {sid}))
    return out


def _example(lines: list[tuple[str, str]], said: set[str]) -> tuple[str, str] | None:
    """Of the (source id, code line) ``lines``, the one using most of the words the
    findings say (``said``: their roots), when it uses enough of them."""
    best: tuple[float, str, str] | None = None
    for sid, line in lines:
        roots = _roots(line.removeprefix(CODE))
        shared = roots & said
        if len(shared) < EXAMPLE_SHARED or len(shared) < EXAMPLE_SHARE * len(roots):
            continue
        if best is None or len(shared) / len(roots) > best[0]:
            best = (len(shared) / len(roots), sid, line)
    return (best[1], best[2]) if best else None


def _roots(text: str) -> set[str]:
    """The roots of the words ``text`` uses, its names' pieces one by one."""
    pieces = (p.lower() for p in _PIECE.findall(text))
    return {word_root(p) for p in pieces if len(p) > 1 and p not in STOPWORDS}
