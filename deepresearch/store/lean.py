"""How the store keeps snapshots small: long texts once per content hash, zlib everywhere.

A state snapshot is the state's JSON with every long string (page text, digests, the
report) replaced by ``{"$text": sha256}``, compressed with zlib. The texts live in their own
table keyed by hash, compressed, shared by every snapshot of every session that holds
them, so the twenty snapshots of a session, or a hundred sessions reading the same pages,
store each page once. Snapshots written before this (plain JSON text) still load.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from deepresearch.errors import StateVersionError

# Strings at least this long are stored by reference: shorter ones cost less inline than
# a reference and a row.
MIN_SHARED_CHARS = 256
REF_KEY = "$text"
LEVEL = 6  # zlib's default: nearly all of level 9's ratio at a fraction of its time


def text_hash(text: str) -> str:
    """The SHA-256 hex digest of ``text`` (the key of a stored text).

    Args:
        text: the text to hash.
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pack(state_json: str) -> tuple[bytes, dict[str, str]]:
    """(compressed snapshot, the long texts it refers to by hash)."""
    texts: dict[str, str] = {}

    def swap(value: Any) -> Any:
        if isinstance(value, str) and len(value) >= MIN_SHARED_CHARS:
            digest = text_hash(value)
            texts[digest] = value
            return {REF_KEY: digest}
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    data = swap(json.loads(state_json))
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return zlib.compress(body.encode("utf-8"), LEVEL), texts


def compress_text(text: str) -> bytes:
    """``text`` as zlib-compressed UTF-8 bytes.

    Args:
        text: the text to compress.
    """
    return zlib.compress(text.encode("utf-8"), LEVEL)


def unpack(blob: bytes, fetch: Callable[[Iterable[str]], Mapping[str, bytes]]) -> dict[str, Any]:
    """The state's JSON object from a packed snapshot; ``fetch`` reads texts by hash."""
    try:
        data = json.loads(zlib.decompress(blob).decode("utf-8"))
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise StateVersionError(
            f"Saved state is not valid JSON (compressed snapshot unreadable: {exc}); the "
            "store entry is corrupted."
        ) from exc
    wanted: set[str] = set()

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            if len(value) == 1 and isinstance(value.get(REF_KEY), str):
                wanted.add(value[REF_KEY])
            else:
                for v in value.values():
                    collect(v)
        elif isinstance(value, list):
            for v in value:
                collect(v)

    collect(data)
    found = {k: zlib.decompress(v).decode("utf-8") for k, v in fetch(wanted).items()}
    missing = wanted - set(found)
    if missing:
        raise StateVersionError(
            f"Saved state refers to {len(missing)} text(s) missing from the store; the store "
            "is corrupted. Export what you can or delete the session."
        )

    def restore(value: Any) -> Any:
        if isinstance(value, dict):
            if len(value) == 1 and isinstance(value.get(REF_KEY), str):
                return found[value[REF_KEY]]
            return {k: restore(v) for k, v in value.items()}
        if isinstance(value, list):
            return [restore(v) for v in value]
        return value

    restored = restore(data)
    if not isinstance(restored, dict):
        raise StateVersionError("Saved state must be a JSON object.")
    return restored
