"""Text files that are not UTF-8 (a note saved in Windows-1252 or Latin-1): their encoding
as charset-normalizer detects it, when it is sure enough to read them.

Detection reads the bytes in every candidate encoding and scores each reading for mess
(odd characters, mixed scripts: 'chaos') and for how much it reads like a language
('coherence'). A file is read only when the least messy readings are clean and agree;
when they disagree (a short French note reads as well in Windows-1250 as in -1252, but
'crème' becomes 'crčme'), Windows-1252, the default of Windows in Western Europe and the
Americas and so the most common legacy encoding, settles it if it is among them; else the
file stays unread.
"""

from __future__ import annotations

from dataclasses import dataclass

from deepresearch.errors import UnreadableDocument

# The most mess (a share of the characters) a reading may have: charset-normalizer gives
# up at 0.2 by default; a file read at all should read cleanly.
MAX_CHAOS = 0.1
# Readings whose coherence differs by less than this are ties.
COHERENCE_TIE = 0.01
PREFERRED = "cp1252"


@dataclass(frozen=True)
class Decoded:
    """A file's text and the encoding it was read in (a Python codec name: 'cp1252')."""

    text: str
    encoding: str


def decode_legacy(data: bytes) -> Decoded | None:
    """``data`` (not UTF-8) read in the encoding charset-normalizer finds, or None when no
    reading is clean (a binary file) or charset-normalizer is not installed. Raises
    :class:`UnreadableDocument` when clean readings that tie differ."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # a dependency of the package; absent only in a broken install
        return None
    matches = [m for m in from_bytes(data) if m.chaos <= MAX_CHAOS]
    if not matches:
        return None
    chaos = min(m.chaos for m in matches)
    coherence = max(m.coherence for m in matches if m.chaos == chaos)
    tied = [m for m in matches if m.chaos == chaos and coherence - m.coherence < COHERENCE_TIE]
    readings = {str(m): m for m in tied}
    if len(readings) == 1:
        (match,) = readings.values()
        names = match.could_be_from_charset
        return Decoded(str(match), PREFERRED if PREFERRED in names else match.encoding)
    for text, match in readings.items():
        if PREFERRED in match.could_be_from_charset:
            return Decoded(text, PREFERRED)
    unclear = ", ".join(m.encoding for m in readings.values())
    raise UnreadableDocument(
        f"not UTF-8 text, and its encoding is unclear ({unclear}): re-save the file as UTF-8"
    )
