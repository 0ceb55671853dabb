"""Sources whose texts are near-copies of each other: "dns.md" and "dns.html", a mirrored
page, an option's paragraph repeated on many command pages. The same words again are not a
second source agreeing."""

from __future__ import annotations

from deepresearch.roles import SourceText
from deepresearch.text import words

# Two sources whose texts share this much of the shorter one's word triples say the same
# words (a page saved as Markdown and as HTML), when the shorter has MIN_TRIPLES at least.
NEAR_COPY = 0.8
MIN_TRIPLES = 8


def near_copies(sources: list[SourceText], units: dict[str, list[str]]) -> dict[str, set[str]]:
    """Source id → the other sources whose texts are near-copies of its own (NEAR_COPY of
    the shorter's word triples): "dns.md" and "dns.html", a mirrored page, an option's
    paragraph repeated on many command pages. The same words again are not a second
    source agreeing; each stays a source of its own."""
    runs = {s.id: triples(" ".join(units.get(s.id, []))) for s in sources}
    out: dict[str, set[str]] = {s.id: set() for s in sources}
    for n, src in enumerate(sources):
        for other in sources[:n]:
            if near_copy(runs[src.id], runs[other.id]):
                out[src.id].add(other.id)
                out[other.id].add(src.id)
    return out


def triples(text: str) -> set[tuple[str, ...]]:
    """The text's runs of three words (case, punctuation and markup aside)."""
    said = words(text)
    return {tuple(said[i : i + 3]) for i in range(len(said) - 2)}


def near_copy(a: set[tuple[str, ...]], b: set[tuple[str, ...]]) -> bool:
    """Whether two texts' word triples are near-copies (see NEAR_COPY, MIN_TRIPLES)."""
    small, big = (a, b) if len(a) <= len(b) else (b, a)
    return len(small) >= MIN_TRIPLES and len(small & big) >= NEAR_COPY * len(small)
