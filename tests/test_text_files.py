"""An uploaded file's bytes: decoded by its byte order mark, invalid bytes replaced and counted, never an exception
other than the refusal of a binary or empty file."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bpe_core.byte_order import text_encoding
from playground.text_files import CorpusError, decode_upload

# (codec that writes no mark, the mark, the codec that reads it)
ENCODINGS = [
    ("utf-8", b"", "utf-8"),
    ("utf-8", codecs.BOM_UTF8, "utf-8-sig"),
    ("utf-16-le", codecs.BOM_UTF16_LE, "utf-16"),
    ("utf-16-be", codecs.BOM_UTF16_BE, "utf-16"),
    ("utf-32-le", codecs.BOM_UTF32_LE, "utf-32"),
    ("utf-32-be", codecs.BOM_UTF32_BE, "utf-32"),
]


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.text(st.characters(exclude_categories=["Cs", "Cc"]), min_size=1) | st.binary(max_size=5)),
    encoding=st.sampled_from(ENCODINGS),
)
def test_text_with_invalid_bytes_in_any_encoding(pieces, encoding):
    """Text and stray bytes (a lone surrogate's bytes in UTF-16 among them, which raised UnicodeDecodeError): the
    text is Python's own decoding with U+FFFD, and the count is the bytes that no valid character covers (what the
    ``ignore`` handler drops, an independent count)."""
    plain, mark, reader = encoding
    body = b"".join(piece if isinstance(piece, bytes) else piece.encode(plain) for piece in pieces)
    data = mark + body
    assume(text_encoding(data[:4]) == reader)  # stray bytes that spell another mark (or text starting with U+FEFF)
    try:
        upload = decode_upload(data, "notes.txt")
    except CorpusError as refusal:
        assert "notes.txt" in str(refusal)
        return
    assert upload.text == data.decode(reader, errors="replace")
    kept = data.decode(reader, errors="ignore")
    assert upload.replaced_bytes == len(body) - len(kept.encode(plain))


def test_a_lone_surrogate_in_utf16_is_one_replaced_character():
    data = "a few words ".encode("utf-16") + b"\x00\xd8" + "and more".encode("utf-16-le")
    upload = decode_upload(data, "notes.txt")
    assert upload.text == "a few words \ufffdand more" and upload.replaced_bytes == 2


@pytest.mark.parametrize("mark", [codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE])
def test_a_byte_order_mark_alone_is_an_empty_file(mark):
    with pytest.raises(CorpusError, match="notes.txt is empty"):
        decode_upload(mark, "notes.txt")


def test_a_utf8_file_with_a_mark_and_nul_bytes_is_binary():
    with pytest.raises(CorpusError, match="binary file"):
        decode_upload(codecs.BOM_UTF8 + b"GIF89a\x01\x00\x01\x00" * 10, "notes.txt")
