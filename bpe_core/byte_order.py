"""A text file's encoding from its first bytes: UTF-8, or what a byte order mark says (UTF-16/32, UTF-8 with a mark).

Shared by the file formats (:mod:`bpe_core.formats`), the command line's input and ``train_files``' blocks, so that
a UTF-16 text reads alike everywhere.
"""

from __future__ import annotations

import codecs

# UTF-32 first: its little-endian mark starts with UTF-16's.
_BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def text_encoding(head: bytes) -> str:
    """The encoding of a text starting with ``head`` (its first 4 bytes suffice): UTF-8, or what its byte order mark
    says; the codecs named read the mark itself.

    >>> text_encoding(b"\\xff\\xfe{\\x00"), text_encoding(b"\\xef\\xbb\\xbf{"), text_encoding(b"{")
    ('utf-16', 'utf-8-sig', 'utf-8')
    """
    for mark, encoding in _BYTE_ORDER_MARKS:
        if head.startswith(mark):
            return encoding
    return "utf-8"
