"""One part of a question, as the offline engine searches, checks and answers it."""

from __future__ import annotations

from dataclasses import dataclass

from deepresearch.offline.asking import asked_doer
from deepresearch.text import numeral_terms, term_set


@dataclass(frozen=True)
class Part:
    """One part of a question: its text, its search query, and whether it refers back
    to an earlier part."""

    text: str  # the part as asked, standing alone where the question allows it
    query: str  # its content words, for search
    refers_back: bool  # it says "he"/"it"/"that ...": it hangs on an earlier part's answer
    # It only sets the scene for the question after it ("Besides directing", "In the
    # architecture document's budget section"): searched, since its words are what the
    # question is about, but it asks nothing, so it is never an unanswered part.
    scene: bool = False
    # The words of the asker's story, for a part asking about it as a whole ("How should
    # this be written" after it): the statements answering it tell of what the story does.
    story: str = ""

    @property
    def terms(self) -> set[str]:
        """The words of the part's query, with the numerals its names end in ("War I":
        the query, lower-cased, cannot tell them from the pronoun)."""
        return term_set(self.query) | numeral_terms(self.text)

    @property
    def own(self) -> set[str]:
        """The part's own words, not those it borrowed from an earlier part."""
        said = term_set(self.text)
        if doer := self.doer:  # "who invented": its "inventor" is its own word
            said.add(doer[1])
        return said & self.terms

    @property
    def story_terms(self) -> set[str]:
        """The words of the story the part asks about as a whole, none it says itself."""
        return term_set(self.story) - self.terms

    @property
    def doer(self) -> tuple[str, str] | None:
        """For a part that asks who did something, its verb and the noun for the doer
        ("who invented the radio" → ("invented", "inventor")), else None."""
        return asked_doer(self.text)
