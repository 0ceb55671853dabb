"""Secret scrubbing: whole keys, keys inside JSON, and pieces of keys a server echoes."""

from __future__ import annotations

import pytest

from deepresearch.providers.credentials import Secret, redact
from deepresearch.redaction import REDACTED, scrub_secrets
from deepresearch.redaction import redact as redact_values

# A made-up key, built in two parts so secret scanners do not take it for a real one.
KEY = "tvly-" + "Zq8Rk2Lm9Xp4Wn7Bv3Hc"


@pytest.mark.parametrize(
    "echo",
    [
        KEY,
        KEY[:8],  # a prefix
        KEY[5:17],  # the middle
        KEY[-9:],  # a suffix
        f"key={KEY[3:20]}!",
    ],
)
def test_any_piece_of_eight_or_more_characters_is_redacted(echo: str) -> None:
    text = f"401: invalid API key {echo} (check your account)"
    out = redact(text, Secret(KEY))
    assert "********" in out
    for i in range(len(KEY) - 7):
        assert KEY[i : i + 8] not in out
    assert out.startswith("401: invalid API key") and out.endswith("(check your account)")


def test_pieces_shorter_than_eight_characters_and_ordinary_text_stay() -> None:
    text = f"the key starts {KEY[:7]} and research continues unchanged"
    assert redact_values(text, [KEY]) == text


def test_scrub_secrets_covers_partial_echoes_of_configured_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "abcDEF123ghiJKL456mnoPQR")
    text = '{"error": "bad key ghiJKL456mnoP", "other": "sk-proj-1234567890abcdefXYZ"}'
    out = scrub_secrets(text)
    assert "ghiJKL456" not in out and "1234567890abcdef" not in out
    assert out.count(REDACTED) == 2


def test_a_password_in_a_url_is_hidden_wherever_text_is_shown_or_saved() -> None:
    from deepresearch.errors import ProviderError

    text = "cannot reach http://alice:s3cret@localhost:8080/v1 (refused)"
    hidden = "cannot reach http://alice:[redacted]@localhost:8080/v1 (refused)"
    assert scrub_secrets(text) == hidden
    assert redact_values(text, []) == hidden
    assert str(ProviderError(text)) == hidden
    # no password, or no URL: unchanged
    plain = "https://example.org/a@b and mail alice@example.org"
    assert scrub_secrets(plain) == plain
