"""A person's own text: an uploaded file's bytes decoded (UTF-8, or UTF-16/32 with a byte-order mark), binary files
refused with a message naming the file, invalid bytes replaced and counted; :class:`Upload` keeps the text and its
digest, computed once."""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from bpe_core.byte_order import text_encoding
from playground.i18n import Later, later
from runtime.store import text_digest


class CorpusError(ValueError):
    """A corpus that cannot be trained on; ``message`` (``playground.i18n.later``) is shown to the user."""

    def __init__(self, message: Later):
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Upload:
    """A user's own text (an uploaded file, or pasted held-out text), kept in the session."""

    name: str
    text: str
    replaced_bytes: int = 0  # bytes that were not valid in the file's encoding and became U+FFFD
    digest: str = ""


def decode_upload(data: bytes, name: str = "file") -> Upload:
    """Decode an uploaded text file: UTF-8, or UTF-16/32 when the file starts with a byte-order mark.

    Binary files (NUL bytes, or mostly control/invalid bytes) raise CorpusError; invalid bytes in an
    otherwise text file are replaced by U+FFFD and counted. The message names the file as given
    (show it with ``playground.text.plain``).

    >>> decode_upload("héllo".encode("utf-16"), "a.txt").text
    'héllo'
    """
    if not data:
        raise CorpusError(later("{name} is empty: it has no text.", name=name))
    # The codecs named read (and drop) the byte order mark themselves.
    encoding = text_encoding(data[:4])
    if encoding.startswith("utf-8") and b"\x00" in data[:65536]:
        raise CorpusError(
            later(
                "{name} looks like a binary file (it contains NUL bytes), not text. Upload a .txt file (UTF-8, or "
                "UTF-16/32 with a byte-order mark).",
                name=name,
            )
        )
    text = data.decode(encoding, errors="replace")
    if not text:  # a byte order mark and nothing after it
        raise CorpusError(later("{name} is empty: it has no text.", name=name))
    replaced = _count_invalid(data, encoding)
    sample = text[:65536]
    controls = sum(1 for ch in sample if (ord(ch) < 32 and ch not in "\n\r\t\f\v") or ch == "\ufffd")
    if sample and controls / len(sample) > 0.3:
        raise CorpusError(
            later(
                "{name} looks like a binary file ({share:.0%} of its start is control characters or invalid text), not "
                "text. Upload a .txt file.",
                name=name,
                share=controls / len(sample),
            )
        )
    return Upload(name, text, replaced, text_digest(text))


def _mark_bytes(error: UnicodeError) -> tuple[str, int]:
    """A decoding error handler: each invalid byte becomes a lone surrogate, which no valid UTF-8/16/32 text holds
    (``surrogateescape`` does the same for UTF-8 only: under UTF-16 it raises on a lone surrogate's bytes)."""
    assert isinstance(error, UnicodeDecodeError)
    return "\udc80" * (error.end - error.start), error.end


codecs.register_error("bpe-playground-mark-bytes", _mark_bytes)


def _count_invalid(data: bytes, encoding: str) -> int:
    """How many bytes are not part of a valid character."""
    return data.decode(encoding, errors="bpe-playground-mark-bytes").count("\udc80")
