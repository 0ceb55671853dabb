"""Long synthetic documents for budget tests and benchmarks: many sources of thousands of
words each, with distinct facts per document, about the printing press in Europe."""

from __future__ import annotations

from deepresearch.providers.base import SearchHit

ASPECTS = ("literacy", "religion", "science", "trade", "politics", "language")
_ASPECT_WORDS = {
    "literacy": ("schoolmasters", "primers", "readers", "alphabet"),
    "religion": ("preachers", "bibles", "congregations", "sermons"),
    "science": ("astronomers", "tables", "experiments", "diagrams"),
    "trade": ("merchants", "ledgers", "markets", "contracts"),
    "politics": ("princes", "edicts", "councils", "propaganda"),
    "language": ("grammarians", "dictionaries", "dialects", "spelling"),
}


def long_document(i: int, words: int = 3000) -> SearchHit:
    """Document ``i``: ~``words`` words on one aspect (``ASPECTS[i % 6]``), its own facts."""
    aspect = ASPECTS[i % len(ASPECTS)]
    who, what, where, topic = _ASPECT_WORDS[aspect]
    sentences: list[str] = []
    n = 0
    while sum(len(s.split()) for s in sentences) < words:
        year = 1450 + (i * 7 + n) % 150
        sentences.append(
            (
                f"In {year} {who} in city {n % 13} bought {100 + 7 * n + i} printed {what}.",
                f"Record {i}.{n}: the press changed {aspect} in Europe as {where} adopted {topic}.",
                f"Workshop {i * 97 + n} sold {what} to {where} within {2 + n % 9} years.",
            )[n % 3]
        )
        n += 1
    return SearchHit(
        url=f"https://example.org/press/{i}",
        title=f"Printing press and {aspect} in Europe, study {i}",
        snippet=sentences[0],
        content=" ".join(sentences),
        domain=f"site{i % 7}.example.org",
    )


class PagedSearch:
    """Hands out each of ``count`` long documents once, a page at a time, whatever the
    query: every search brings new sources until they run out."""

    name = "test:paged"

    def __init__(self, count: int = 60, words: int = 3000) -> None:
        self.documents = [long_document(i, words) for i in range(count)]
        self.cursor = 0

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """The next ``max_results`` documents (each search pages on).

        Args:
            query: ignored.
            max_results: how many documents.
        """
        page = self.documents[self.cursor : self.cursor + max_results]
        self.cursor += len(page)
        return [d.model_copy() for d in page]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The documents whose URL is in ``urls`` (copies).

        Args:
            urls: the pages asked for.
        """
        wanted = set(urls)
        return [d.model_copy() for d in self.documents if d.url in wanted]
