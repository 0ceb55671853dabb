"""How common a word is in everyday English, from wordfreq's word frequencies (the
``wordfreq`` extra). An asker's everyday words ("want", "thing", "happen") that no
gathered text uses would otherwise weigh most of all, as the rarest among those texts,
and leave the passage that answers with a small share of the part; wordfreq's lists say
they are common, whatever the gathered texts say. Without the extra, every word keeps its
weight."""

from __future__ import annotations

import functools
from collections.abc import Callable

from deepresearch.text import term_of

# Zipf frequency (log10 of uses per billion words): a word this common would say nothing,
# and one ZIPF_SPAN rarer ("graduate", 4.5) or rarer still keeps its whole weight.
COMMONEST_ZIPF = 7.5
ZIPF_SPAN = 3.0
LEAST_SHARE = 0.3  # the commonest word keeps this share of its weight
# The commonest English words by wordfreq's ranking; every word over Zipf 4.5 is among them.
_LISTED = 5_000


@functools.lru_cache(maxsize=1)
def _zipf_by_term() -> dict[str, float] | None:
    try:
        import wordfreq
    except ImportError:
        return None
    zipf: dict[str, float] = {}
    # the small list ranks the commonest words as the large one does, in a fifth the memory
    for word in wordfreq.top_n_list("en", _LISTED, wordlist="small"):
        term = term_of(word)  # "wants" is the term "want": the commonest form counts
        frequency = wordfreq.zipf_frequency(word, "en", wordlist="small")
        zipf[term] = max(zipf.get(term, 0.0), frequency)
    return zipf


def everyday_share() -> Callable[[str], float] | None:
    """The share of its weight a term (as ``text.term_of`` gives it) keeps for how common
    it is in English (1.0 for any word over ZIPF_SPAN rarer than the commonest, down to
    LEAST_SHARE); None without the ``wordfreq`` extra."""
    zipf = _zipf_by_term()
    if zipf is None:
        return None

    def share(term: str) -> float:
        common = (COMMONEST_ZIPF - zipf.get(term, 0.0)) / ZIPF_SPAN
        return min(1.0, max(LEAST_SHARE, common))

    return share
