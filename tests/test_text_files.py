"""A user's text file read as the Unicode its editor saved, or a message saying where not."""

from __future__ import annotations

import codecs

import pytest

from deepresearch.text_files import decode_unicode, not_unicode

TEXT = "max_iterations = 2  # café, « naïf »\n"


@pytest.mark.parametrize(
    ("mark", "codec"),
    [
        (b"", "utf-8"),
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
    ],
)
def test_unicode_with_or_without_its_mark_reads_as_the_text(mark: bytes, codec: str) -> None:
    assert decode_unicode(mark + TEXT.encode(codec)) == TEXT


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ("a = 1\nb = 'café'\n".encode("cp1252"), "it is not UTF-8 text (line 2: byte 0xe9)"),
        (codecs.BOM_UTF8 + "é".encode("cp1252"), "it is not UTF-8 text (line 1: byte 0xe9)"),
        (codecs.BOM_UTF16_LE + b"a\x00b", "its UTF-16 text is damaged"),
    ],
)
def test_what_is_not_unicode_is_said_with_where(data: bytes, said: str) -> None:
    with pytest.raises(UnicodeDecodeError) as caught:
        decode_unicode(data)
    assert not_unicode(data, caught.value) == said
