"""How the question words what it asks, and which words of a statement that lets count.

A word matches by its stem, whatever its case or neighbours, except where the question
says more: a one-word name it capitalises (*Hamlet*, "the *Classical* composer") counts
only where a statement capitalises it too ("larger than a hamlet" is not *Hamlet*), and
the words of a phrase it quotes ("the 1931 'melting clocks' picture") or of a gathered
entry's title it gives as a compound ("how did the printing press change Europe") count
only where the statement or the source's title holds the phrase (*Clock* is not the
melting clocks, "a forming press … changes the shape" is not the printing press).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deepresearch.offline.bridges import entities
from deepresearch.offline.mentions import TOKEN, is_name
from deepresearch.offline.parts import Part
from deepresearch.offline.statements import statement_terms, title_terms
from deepresearch.text import TITLE_QUALIFIER, term_sequence, term_set

# A quoted span: '…' not part of a word ("Picasso's" is no quote), "…", or “…”.
_QUOTED = re.compile(r"(?<![\w'])'([^']+)'(?![\w'])|\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’")


@dataclass(frozen=True)
class Wording:
    """The question's one-word capitalised names (stemmed) and quoted phrases (stemmed
    content words in order, two or more)."""

    names: frozenset[str]
    phrases: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, parts: list[Part], titles: list[str]) -> Wording:
        """What the parts' texts capitalise and quote, and the gathered ``titles`` they
        give whole. Identifiers (``PHASE_TO_AGENT``) and longer names (*GitHub Actions*)
        are not names here: documentation capitalises them at will. A title that is a
        name (*Pablo Picasso*) is no phrase: a name is often shortened ("Picasso")."""
        names = [e for p in parts for e in entities(p.text) if " " not in e and e[1:].islower()]
        said = [term_sequence(p.text) for p in parts]
        quoted = [next(g for g in m.groups() if g) for p in parts for m in _QUOTED.finditer(p.text)]
        compounds = [
            bare
            for bare in (TITLE_QUALIFIER.sub("", t) for t in titles)
            if not is_name(bare) and any(_holds(seq, term_sequence(bare)) for seq in said)
        ]
        phrases: list[tuple[str, ...]] = []
        for text in [*quoted, *compounds]:
            seq = term_sequence(text)
            if len(seq) >= 2 and seq not in phrases:
                phrases.append(seq)
        return cls(frozenset(term_set(" ".join(names))), tuple(phrases))

    def stated(self, unit: str, title: str) -> set[str]:
        """The words of statement ``unit`` of the source titled ``title`` that speak to
        the question: its words and its title's, less the names it writes only in lower
        case and the words of quoted phrases that neither holds as a phrase."""
        terms = statement_terms(unit)
        lower = terms & self.names
        if lower:
            capital = term_set(" ".join(t for t in TOKEN.findall(unit) if t[:1].isupper()))
            terms -= lower - capital
        terms |= title_terms(title)
        if self.phrases:
            held = (term_sequence(unit), term_sequence(title))
            for phrase in self.phrases:
                if not any(_holds(seq, phrase, gap=COORDINATED) for seq in held):
                    terms -= set(phrase)
        return terms


# Content words a statement may put between a phrase's words and still say it: "the
# capital and largest city" says "capital city" (one coordinated word), "a forming press
# changes the shape" does not say "printing press".
COORDINATED = 1


def _holds(seq: tuple[str, ...], phrase: tuple[str, ...], gap: int = 0) -> bool:
    """Whether ``seq`` holds ``phrase`` in order, at most ``gap`` words between each two."""
    n = len(phrase)
    if not gap:
        return any(seq[k : k + n] == phrase for k in range(len(seq) - n + 1))
    return any(_follows(seq, k, phrase, gap) for k, w in enumerate(seq) if w == phrase[0])


def _follows(seq: tuple[str, ...], at: int, phrase: tuple[str, ...], gap: int) -> bool:
    for word in phrase[1:]:
        window = seq[at + 1 : at + 2 + gap]
        if word not in window:
            return False
        at += 1 + window.index(word)
    return True
