"""Small, deterministic text tools the offline engine is built from."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "others",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "it's",
        "did",
        "does",
        "known",
        "know",
        "tell",
        "explain",
        "describe",
        "role",
        "play",
        "plays",
        "matter",
        "matters",
        "much",
        "many",
        "large",
        "become",
        "became",
        "get",
        "got",
        "make",
        "made",
        "whose",
        "whats",
        "use",
        "used",
        "using",
        "way",
        "ways",
        "like",
        "kind",
        "one",
        "two",
        "well",
        "within",
        "via",
        "s",
    ]
)
# Words that shape a question but name no topic of it.
QUESTION_FRAME = frozenset(
    [
        "what",
        "who",
        "when",
        "where",
        "why",
        "how",
        "which",
        "is",
        "are",
        "was",
        "were",
        "do",
        "does",
        "did",
        "the",
        "a",
        "an",
    ]
)

_WORD = re.compile(r"[^\W_](?:[^\W_]|['\-])*")  # any script: 'Königsberg', 'Röntgen'
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
_ABBREVIATIONS = ("e.g.", "i.e.", "c.", "ca.", "St.", "Dr.", "Mr.", "Mrs.", "U.S.", "vs.")


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def words(text: str) -> list[str]:
    """Lower-cased words; a possessive "'s" is dropped ("Picasso's" → "picasso")."""
    out = []
    for w in _WORD.findall(normalize(text).replace("’", "'")):
        w = w.lower()
        out.append((w[:-2] if w.endswith("'s") else w).strip("'-"))
    return out


def stem(word: str) -> str:
    """A light plural stripper: enough to match 'empires'/'empire', 'diseases'/'disease'."""
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith(("ss", "us", "is", "os")):
        return word
    if word.endswith("s"):
        return word[:-1]
    return word


def keywords(text: str) -> list[str]:
    """Meaningful words as written (not stemmed), in order, without repeats: for queries."""
    seen: dict[str, str] = {}
    for w in words(text):
        if len(w) >= 2 and w not in STOPWORDS:
            seen.setdefault(stem(w), w)
    return list(seen.values())


def content_terms(text: str) -> list[str]:
    """Lower-cased, stemmed words that carry meaning, in order, without repeats."""
    return list(_content_terms(text))


@functools.lru_cache(maxsize=50_000)
def _content_terms(text: str) -> tuple[str, ...]:
    # The same source sentences are compared many times in one run: compute once.
    seen: dict[str, None] = {}
    for w in words(text):
        if len(w) < 2 or w in STOPWORDS:
            continue
        seen.setdefault(stem(w), None)
    return tuple(seen)


def term_set(text: str) -> set[str]:
    return set(content_terms(text))


def jaccard(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def containment(small: set[str], big: set[str]) -> float:
    """Share of ``small`` found in ``big``: how much of a sentence another text covers."""
    if not small:
        return 0.0
    return len(small & big) / len(small)


def sentences(text: str) -> list[str]:
    """Split prose into sentences, keeping common abbreviations intact."""
    protected = normalize(text)
    for i, abbr in enumerate(_ABBREVIATIONS):
        # Whole words only: "ca." must not swallow the end of "Attica." or "Africa."
        protected = re.sub(rf"(?<![\w.]){re.escape(abbr)}", f"\x00{i}\x00", protected)
    parts = _SENTENCE_END.split(protected.replace("\n\n", "\n").replace("\n", " "))
    out = []
    for part in parts:
        for i, abbr in enumerate(_ABBREVIATIONS):
            part = part.replace(f"\x00{i}\x00", abbr)
        part = " ".join(part.split())
        if len(part) >= 20:
            out.append(part)
    return out


def title_phrases(question: str) -> list[str]:
    """Capitalised runs in a question ('Genghis Khan', 'Mongol Empire') — likely entities."""
    tokens = re.findall(r"[^\W\d_][\w'\-]*", normalize(question))
    phrases: list[str] = []
    run: list[str] = []
    for i, tok in enumerate(tokens):
        is_cap = tok[0].isupper() and (i > 0 or tok.lower() not in QUESTION_FRAME)
        if is_cap and tok.lower() not in STOPWORDS:
            run.append(tok)
        else:
            if run:
                phrases.append(" ".join(run))
            run = []
    if run:
        phrases.append(" ".join(run))
    return phrases


def clauses(question: str) -> list[str]:
    """Split a compound question on 'and'/commas/';' into its parts."""
    text = normalize(question).strip().rstrip("?.!")
    parts = re.split(
        r"\s*(?:;|,\s*and\s+|\s+and\s+(?=(?:what|how|why|when|where|who|which|is|are|does|did|do)\b)|,\s*(?=(?:what|how|why|when|where|who|which)\b))",
        text,
        flags=re.IGNORECASE,
    )
    return [p.strip() for p in parts if p and len(content_terms(p)) > 0]


def truncate_words(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        key = " ".join(item.lower().split())
        if key and key not in seen:
            seen[key] = item
    return list(seen.values())


def estimate_tokens(text: str) -> int:
    """~4 characters a token for English; the budget module has the full counter."""
    return max(1, (len(text) + 3) // 4) if text else 0


_CITED_LINE = re.compile(r"^-\s+(?P<text>.+?)\s+\[(?P<n>\d+)\]\s*$")


def cited_lines(digest: str) -> list[tuple[int, str]]:
    """(citation, statement) for each '- statement [n]' line of a compressed topic."""
    out = []
    for line in digest.splitlines():
        if m := _CITED_LINE.match(line.strip()):
            out.append((int(m["n"]), m["text"]))
    return out
