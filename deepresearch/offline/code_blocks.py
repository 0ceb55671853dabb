"""Code lines shown with their block (offline analysis): a finding quoting one line of a
program ("return self.run(*args, **kwargs)") says little without the lines that lead to
it ("class FlaskTask(Task):", "def __call__(…):"), and three findings quoting three lines
of one block are one piece of code. So the code lines a part drew from a source's block
become one finding: from a few lines before the first to the last."""

from __future__ import annotations

from dataclasses import replace

from deepresearch.offline.quotes import CODE
from deepresearch.offline.unanswered import Candidate

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
