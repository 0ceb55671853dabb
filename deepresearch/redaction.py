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
# Keys are tokens of these characters; a candidate piece never spans anything else.
_TOKEN_RUN = re.compile(rf"[A-Za-z0-9_\-.]{{{MIN_ECHO_CHARS},}}")
_KEY_PATTERN = re.compile(
    r"(?<![A-Za-z0-9_-])(?:sk-ant-|sk-|tvly-)(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{16,}"
)
_KEY_ENV_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TAVILY_API_KEY")
# Environment values shorter than this are placeholders ("not-needed" for a local server),
# not secrets; replacing short words could hit ordinary text.
_MIN_ENV_KEY_CHARS = 16


def redact(text: str, secrets: Iterable[str], *, mask: str = REDACTED) -> str:
    """``text`` with every secret of ``secrets`` removed, whole or any 8+ character piece."""
    keys = [s for s in secrets if len(s) >= MIN_ECHO_CHARS]
    if not keys or not text:
        return text
    for key in keys:
        text = text.replace(key, mask)
    grams = {key[i : i + MIN_ECHO_CHARS] for key in keys for i in range(len(key) - 7)}

    def scrub_run(match: re.Match[str]) -> str:
        return _mask_pieces(match[0], keys, grams, mask)

    return _TOKEN_RUN.sub(scrub_run, text)


def _mask_pieces(run: str, keys: list[str], grams: set[str], mask: str) -> str:
    """Replace each longest piece of ``run`` that is a substring of a key."""
    out: list[str] = []
    i = 0
    while i <= len(run) - MIN_ECHO_CHARS:
        if run[i : i + MIN_ECHO_CHARS] not in grams:
            i += 1
            continue
        end = i + MIN_ECHO_CHARS
        while end < len(run) and any(run[i : end + 1] in key for key in keys):
            end += 1
        out.append(run[:i] + mask)
        run, i = run[end:], 0
    return "".join(out) + run


def configured_keys() -> list[str]:
    """The API keys set in the environment (long enough to be real keys)."""
    values = (os.environ.get(var, "").strip() for var in _KEY_ENV_VARS)
    return [v for v in values if len(v) >= _MIN_ENV_KEY_CHARS]


def scrub_secrets(text: str) -> str:
    """Replace anything that looks like an API key, and the configured keys (whole, as they
    appear inside JSON, or any 8+ character piece of them)."""
    keys = configured_keys()
    escaped = [json.dumps(k)[1:-1] for k in keys]
    text = redact(text, [*keys, *(e for e in escaped if e not in keys)])
    return _KEY_PATTERN.sub(REDACTED, text)


__all__ = ["MIN_ECHO_CHARS", "REDACTED", "configured_keys", "redact", "scrub_secrets"]
