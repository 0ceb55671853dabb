"""Token counting per model family, and cutting text to a token count.

Exact counts come from ``tiktoken`` for OpenAI models, but only when its BPE file is
already in tiktoken's local cache: loading it otherwise downloads it, and a research
run must not reach the network just to count. Everything else uses a documented
estimate — characters per token by family, plus extra weight for non-ASCII text
(which tokenizers split more finely). The estimate errs high so budgets stay safe.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from functools import cache
from typing import Any

from deepresearch.text import estimate_tokens, split_sentences

# Model family -> (characters per token for English prose, exact tiktoken encoding or None).
FAMILIES: dict[str, tuple[float, str | None]] = {
    "openai": (4.0, "o200k_base"),  # gpt-4o, gpt-4.1, gpt-5, o1/o3/o4
    "openai-legacy": (4.0, "cl100k_base"),  # gpt-4, gpt-3.5
    "anthropic": (3.5, None),  # Claude's tokenizer yields ~10-15% more tokens than o200k
    "offline": (4.0, None),  # the offline engine's own convention
    "generic": (3.5, None),  # local models behind OpenAI-compatible servers, unknown ones
}
_TIKTOKEN_URL = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
_OPENAI_PREFIXES = ("gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4", "chatgpt")
ELLIPSIS = "…"


def model_family(model_spec: str) -> str:
    """'openai:gpt-4.1-mini' -> 'openai'; 'anthropic:claude-…' -> 'anthropic'; etc."""
    vendor, _, model = model_spec.strip().lower().partition(":")
    name = model or vendor
    if vendor == "offline":
        return "offline"
    if name.startswith("claude") or vendor == "anthropic":
        return "anthropic"
    if name.startswith(_OPENAI_PREFIXES):
        return "openai"
    if name.startswith(("gpt-4", "gpt-3.5")):
        return "openai-legacy"
    return "generic"


@cache
def _cached_encoding(name: str) -> Any:
    """The tiktoken encoding if its file is cached locally; None otherwise (never download)."""
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get(
        "DATA_GYM_CACHE_DIR", os.path.join(tempfile.gettempdir(), "data-gym-cache")
    )
    url = _TIKTOKEN_URL.format(name=name)
    if not os.path.exists(os.path.join(cache_dir, hashlib.sha1(url.encode()).hexdigest())):
        return None
    try:
        import tiktoken

        return tiktoken.get_encoding(name)
    except Exception:  # any failure (missing package, corrupt file) means: estimate instead
        return None


@cache
def counter_for(model_spec: str) -> Callable[[str], int]:
    """A fast text -> token count function for a model spec (cached per spec)."""
    chars_per_token, encoding_name = FAMILIES[model_family(model_spec)]
    encoding = _cached_encoding(encoding_name) if encoding_name else None
    if encoding is not None:
        encode = encoding.encode

        def exact(text: str) -> int:
            return len(encode(text, disallowed_special=())) if text else 0

        return exact

    def estimated(text: str) -> int:
        return estimate_tokens(text, chars_per_token)

    return estimated


def is_exact(model_spec: str) -> bool:
    """Whether counts for this model come from its real tokenizer."""
    _, encoding_name = FAMILIES[model_family(model_spec)]
    return encoding_name is not None and _cached_encoding(encoding_name) is not None


def count_tokens(text: str, model_spec: str = "offline") -> int:
    """Tokens ``text`` takes for ``model_spec``'s tokenizer (an estimate without one).

    Args:
        text: the text.
        model_spec: the model it is counted for.
    """
    return counter_for(model_spec)(text)


def truncate_to_tokens(text: str, max_tokens: int, model_spec: str = "offline") -> str:
    """Keep whole leading sentences within max_tokens; cut at a word only if the first
    sentence alone is too long. The result never counts more than max_tokens."""
    count = counter_for(model_spec)
    if count(text) <= max_tokens:
        return text
    if max_tokens <= 0:
        return ""
    kept: list[str] = []
    used = 0
    for sentence in split_sentences(text, lines=True):
        cost = count(sentence) + 1  # +1 covers the joining space
        if used + cost > max_tokens:
            break
        kept.append(sentence)
        used += cost
    while kept and count(" ".join(kept)) > max_tokens:  # exact tokenizers are not additive
        kept.pop()
    if kept:
        return " ".join(kept)
    return _cut_words(text, max_tokens, count)


def truncate_keeping_lines(text: str, max_tokens: int, model_spec: str = "offline") -> str:
    """Like :func:`truncate_to_tokens`, but keeps the text's line structure (a prompt's
    headings, ``[n] (ID: ...)`` source lines, fields): whole leading lines, then the line
    that does not fit cut at a sentence. The result never counts more than max_tokens."""
    count = counter_for(model_spec)
    if count(text) <= max_tokens:
        return text
    lines = text.splitlines()
    low, high = 0, len(lines)  # the most whole leading lines that fit, by bisection
    while low < high:
        mid = (low + high + 1) // 2
        if count("\n".join(lines[:mid])) <= max_tokens:
            low = mid
        else:
            high = mid - 1
    kept = "\n".join(lines[:low])
    if low < len(lines):
        room = max_tokens - count(kept) - 1
        tail = truncate_to_tokens(lines[low], room, model_spec) if room > 0 else ""
        if tail and count(f"{kept}\n{tail}" if kept else tail) <= max_tokens:
            kept = f"{kept}\n{tail}" if kept else tail
    return kept


def _cut_words(text: str, max_tokens: int, count: Callable[[str], int]) -> str:
    """The longest word prefix (plus an ellipsis) within max_tokens, by binary search."""
    words = text.split()
    low, high = 0, len(words)
    while low < high:
        mid = (low + high + 1) // 2
        if count(" ".join(words[:mid]) + ELLIPSIS) <= max_tokens:
            low = mid
        else:
            high = mid - 1
    if low:
        return " ".join(words[:low]) + ELLIPSIS
    # A single word longer than the budget: cut characters.
    chars = max(0, int(max_tokens * 2))
    while chars and count(text[:chars]) > max_tokens:
        chars //= 2
    return text[:chars]


def split_to_chunks(text: str, max_tokens: int, model_spec: str = "offline") -> list[str]:
    """Chunks of at most max_tokens each, cut between lines where a line fits (so a cited
    line such as '- statement [3]' stays whole), else between sentences; long sentences
    are cut at words."""
    count = counter_for(model_spec)
    chunks: list[str] = []
    current: list[str] = []
    used = 0

    def flush() -> None:
        nonlocal current, used
        if current:
            chunks.append("\n".join(current))
        current, used = [], 0

    for line in (ln.strip() for ln in text.splitlines()):
        if not line:
            continue
        line_cost = count(line) + 1
        pieces = [line] if line_cost <= max_tokens else split_sentences(line, lines=True)
        for piece in pieces:
            cost = count(piece) + 1
            if cost > max_tokens:
                flush()
                rest = piece
                while rest:
                    cut = _cut_words(rest, max_tokens, count).removesuffix(ELLIPSIS)
                    if not cut:  # cannot make progress: give up on the remainder
                        break
                    chunks.append(cut)
                    rest = rest[len(cut) :].strip()
                continue
            if used + cost > max_tokens:
                flush()
            current.append(piece)
            used += cost
    flush()
    return chunks
