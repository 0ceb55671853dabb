"""The one home of secret scrubbing: API keys never reach the store, events, exports,
error messages or the screen.

Two sweeps: :func:`redact` removes the given key values from text a server sent back —
the whole key and any 8+ character piece of it, because some servers echo part of a key
("invalid key sk-proj-abc…"); :func:`scrub_secrets` runs before anything is saved or
exported and removes what looks like a vendor key plus the keys configured in the
environment (whole or in part).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable

REDACTED = "[redacted]"
# A piece of a key this long is treated as the key: shorter pieces are too likely to be
# ordinary text, longer ones would let a server echo most of a key.
MIN_ECHO_CHARS = 8
_KEY_PATTERN = re.compile(
    r"(?<![A-Za-z0-9_-])(?:sk-ant-|sk-|tvly-)(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{16,}"
)
_KEY_ENV_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TAVILY_API_KEY")
# Environment values shorter than this are placeholders ("not-needed" for a local server),
# not secrets; replacing short words could hit ordinary text.
_MIN_ENV_KEY_CHARS = 16


# A password written into a URL ("http://user:pass@host/v1", a proxy or a local server's
# base URL): the user name stays, so the message still says which account.
_URL_PASSWORD = re.compile(r"(?<=://)([^\s/@:]*):([^\s/@]+)@")


def url_passwords_hidden(text: str) -> str:
    """``text`` with the password of every URL that carries one replaced by REDACTED."""
    return _URL_PASSWORD.sub(rf"\1:{REDACTED}@", text) if "@" in text else text


def redact(text: str, secrets: Iterable[str], *, mask: str = REDACTED) -> str:
    """``text`` with every secret of ``secrets`` removed, whole or any 8+ character piece,
    and without the passwords URLs in it carry."""
    text = url_passwords_hidden(text)
    keys = [s for s in secrets if len(s) >= MIN_ECHO_CHARS]
    if not keys or not text:
        return text
    for key in keys:
        text = text.replace(key, mask)
    grams = {key[i : i + MIN_ECHO_CHARS] for key in keys for i in range(len(key) - 7)}
    # One alternation of every 8-character piece: the scan runs in the regex engine, and
    # Python only extends the (rare) matches to the longest piece of a key.
    piece = re.compile("|".join(re.escape(g) for g in sorted(grams)))
    out: list[str] = []
    at = 0
    while (match := piece.search(text, at)) is not None:
        start, end = match.start(), match.end()
        while end < len(text) and any(text[start : end + 1] in key for key in keys):
            end += 1
        out += [text[at:start], mask]
        at = end
    return "".join(out) + text[at:]


def configured_keys() -> list[str]:
    """The API keys set in the environment (long enough to be real keys)."""
    values = (os.environ.get(var, "").strip() for var in _KEY_ENV_VARS)
    return [v for v in values if len(v) >= _MIN_ENV_KEY_CHARS]


def scrub_secrets(text: str) -> str:
    """Replace anything that looks like an API key, the configured keys (whole, as they
    appear inside JSON, or any 8+ character piece of them) and passwords written in URLs."""
    keys = configured_keys()
    escaped = [json.dumps(k)[1:-1] for k in keys]
    text = redact(text, [*keys, *(e for e in escaped if e not in keys)])
    return _KEY_PATTERN.sub(REDACTED, text)


__all__ = [
    "MIN_ECHO_CHARS",
    "REDACTED",
    "configured_keys",
    "redact",
    "scrub_secrets",
    "url_passwords_hidden",
]
