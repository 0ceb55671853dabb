"""How common a word is in English: wordfreq's frequencies, when installed."""

from __future__ import annotations

import sys

import pytest

from deepresearch.offline import commonness
from deepresearch.text import term_of


def test_everyday_words_keep_less_of_their_weight_than_rare_ones() -> None:
    pytest.importorskip("wordfreq")
    share = commonness.everyday_share()
    assert share is not None
    assert share(term_of("want")) < share(term_of("decision")) < 1.0
    assert share(term_of("websocket")) == share(term_of("idempotency")) == 1.0
    assert share(term_of("the")) == commonness.LEAST_SHARE
    # "wants" is the term "want": the commonest of its forms sets its share
    assert share(term_of("wants")) == share(term_of("want"))


def test_without_wordfreq_every_word_keeps_its_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import fails
    commonness._zipf_by_term.cache_clear()
    try:
        assert commonness.everyday_share() is None
    finally:
        commonness._zipf_by_term.cache_clear()
