"""Token counting per family and cutting text to a count."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepresearch.budget import tokens
from deepresearch.budget.tokens import (
    count_tokens,
    estimate_tokens,
    model_family,
    split_to_chunks,
    truncate_to_tokens,
)

from .doubles import sentences


@pytest.mark.parametrize(
    ("spec", "family"),
    [
        ("openai:gpt-4.1-mini", "openai"),
        ("openai:gpt-4o", "openai"),
        ("openai:o3", "openai"),
        ("openai:gpt-4-turbo", "openai-legacy"),
        ("anthropic:claude-sonnet-4-5", "anthropic"),
        ("offline", "offline"),
        ("openai:llama3.1:8b", "generic"),
    ],
)
def test_model_family(spec: str, family: str) -> None:
    assert model_family(spec) == family


def test_estimate_is_chars_per_token_with_extra_weight_for_non_ascii() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("abcd" * 10, 3.5) == 12
    assert estimate_tokens("日本語のテキスト") > len("日本語のテキスト")  # ~1+ token per CJK char
    assert count_tokens("x" * 400, "anthropic:claude-haiku-4-5") > count_tokens("x" * 400)


def test_no_exact_tokenizer_without_a_local_tiktoken_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    tokens._cached_encoding.cache_clear()
    tokens.counter_for.cache_clear()
    try:
        assert not tokens.is_exact("openai:gpt-4.1-mini")
        assert count_tokens("abcd" * 25, "openai:gpt-4.1-mini") == 25
    finally:
        tokens._cached_encoding.cache_clear()
        tokens.counter_for.cache_clear()


def test_truncate_keeps_whole_leading_sentences() -> None:
    text = sentences(20, "press")
    cut = truncate_to_tokens(text, 100)
    assert count_tokens(cut) <= 100
    assert cut.startswith("Sentence 0 ") and cut.endswith(".")
    assert text.startswith(cut)
    assert truncate_to_tokens(text, count_tokens(text)) == text
    assert truncate_to_tokens(text, 0) == ""


def test_truncate_cuts_words_when_one_sentence_is_too_long() -> None:
    text = " ".join(f"word{i}" for i in range(500))
    cut = truncate_to_tokens(text, 50)
    assert 40 <= count_tokens(cut) <= 50 and cut.endswith("…")
    assert count_tokens(truncate_to_tokens("x" * 1000, 10)) <= 10


def test_chunks_fit_and_cover_the_text() -> None:
    text = sentences(60, "guild") + " " + " ".join(f"w{i}" for i in range(400))
    chunks = split_to_chunks(text, 120)
    assert len(chunks) > 3
    assert all(count_tokens(c) <= 120 for c in chunks)
    assert " ".join(chunks).split() == text.split()


def test_chunks_keep_cited_lines_whole() -> None:
    """A compressed topic's '- statement [n]' lines must not lose their citation to a cut."""
    lines = [f"- Statement {i} about guild charters in city {i}. [{i + 1}]" for i in range(40)]
    chunks = split_to_chunks("Findings:\n" + "\n".join(lines), 60)
    assert len(chunks) > 3
    kept = [ln for c in chunks for ln in c.splitlines()]
    assert kept == ["Findings:", *lines]
