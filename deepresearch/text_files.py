"""A user's own text file (a config file, a questions file) read as the Unicode its editor
saved: UTF-8, with or without a byte-order mark (Notepad, Excel's "CSV UTF-8"), or UTF-16
or UTF-32 with their mark (Notepad's "Unicode"). The mark is not text: left in, it hides a
TOML key or a CSV header. Bytes in no such form raise UnicodeDecodeError, and
``not_unicode`` says where, for the caller's typed error.

Nothing is guessed here: a setting or a question misread from a legacy encoding would be
used silently, so those callers ask for the file again in UTF-8 (the corpus reads legacy
encodings, and warns: providers/encodings.py).
"""

from __future__ import annotations

import codecs

# UTF-32 LE's mark begins with UTF-16 LE's, so it is tried first.
_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def decode_unicode(data: bytes) -> str:
    """``data`` as text: UTF-8 (a byte-order mark dropped), or UTF-16/UTF-32 after their
    mark. Raises UnicodeDecodeError when it is neither.

    Args:
        data: the file's bytes.
    """
    for mark, codec in _MARKS:
        if data.startswith(mark):
            return data[len(mark) :].decode(codec)
    return data.decode("utf-8")


def not_unicode(data: bytes, exc: UnicodeDecodeError) -> str:
    """What is wrong with ``data`` that ``decode_unicode`` failed on (``exc``), saying
    where: "it is not UTF-8 text (line 2: byte 0xe9)" or "its UTF-16 text is damaged".

    Args:
        data: the file's bytes.
        exc: the error ``decode_unicode`` raised.
    """
    for mark, codec in _MARKS:
        if data.startswith(mark) and codec != "utf-8":
            return f"its {codec[:6].upper()} text is damaged"  # 'UTF-16', 'UTF-32'
    start = exc.start + (len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0)
    line = data.count(b"\n", 0, start) + 1
    return f"it is not UTF-8 text (line {line}: byte {data[start]:#04x})"
